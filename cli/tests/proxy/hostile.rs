//! Hostile clients (garbage, huge and negative prefixes, byte-by-byte sends, half-open
//! sockets, thousands of connections) neither stop the proxy nor disturb an honest connection;
//! idle and connection limits close what would pin it.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::support::*;

#[test]
fn hostile_clients_neither_stop_the_proxy_nor_disturb_an_honest_connection() {
    let upstream = tcp_echo();
    let mut proxy = Proxy::start(&[
        "--upstream",
        &upstream.to_string(),
        "--max-connections",
        "64",
        "--idle-timeout",
        "1",
        "--max-frame",
        "65536",
    ]);
    let mut honest = connect(proxy.addr);
    // Half-open clients: connected, silent, never closing; the idle timeout must close them.
    let half_open: Vec<TcpStream> = (0..20).map(|_| connect(proxy.addr)).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let workers = flood(proxy.addr, &stop);
    // The honest client: one frame every 5 ms, each echoed back whole and in order, while the
    // flood runs (and for at least 1.5 s, past the half-open clients' idle timeout).
    let start = Instant::now();
    let mut n = 0;
    while n < 100 || start.elapsed() < Duration::from_millis(1500) {
        let frame = seq(n);
        honest.write_all(&frame).unwrap();
        assert_eq!(read_exact(&mut honest, frame.len()), frame, "frame {n}");
        n += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    for worker in workers {
        worker.join().unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    for mut stream in half_open {
        let mut byte = [0u8; 1];
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let read = stream.read(&mut byte);
        assert!(matches!(read, Ok(0) | Err(_)), "a half-open client was closed: {read:?}");
    }
    assert!(proxy.is_running());
    // Still serving after the flood (once the flood's last connections have been closed and
    // their slots freed).
    let start = Instant::now();
    loop {
        let mut late = connect(proxy.addr);
        let _ = late.write_all(&seq(7));
        let mut echoed = vec![0u8; seq(7).len()];
        if late.read_exact(&mut echoed).is_ok() {
            assert_eq!(echoed, seq(7));
            break;
        }
        assert!(start.elapsed() < PATIENCE, "not serving after the flood");
        std::thread::sleep(Duration::from_millis(20));
    }
    honest.shutdown(Shutdown::Write).unwrap();
    assert_eq!(read_to_close(&mut honest), Vec::<u8>::new());

    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    let accepted = summary["connections"].as_u64().unwrap();
    let refused = summary["refused_connections"].as_u64().unwrap();
    assert!(accepted + refused >= 2600, "{summary}");
    assert!(summary["drops"]["invalid_value"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert!(summary["drops"]["too_large"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert!(summary["drops"]["negative_length"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert!(summary["closes"]["idle_timeout"].as_u64().unwrap_or(0) >= 20, "{summary}");
    let honest_frames = u64::from(n) + 1;
    let to_client = summary["forwarded"]["to_client"]["frames"].as_u64().unwrap();
    assert!(to_client >= honest_frames, "{summary}");
}

#[test]
fn connections_over_the_limit_are_closed_and_the_others_go_on() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&["--upstream", &upstream.to_string(), "--max-connections", "3"]);
    let mut kept: Vec<TcpStream> = (0..3).map(|_| connect(proxy.addr)).collect();
    // Each of the three is served (and so counted) before the fourth arrives.
    for (i, stream) in kept.iter_mut().enumerate() {
        let frame = seq(i as u32);
        stream.write_all(&frame).unwrap();
        assert_eq!(read_exact(stream, frame.len()), frame);
    }
    let mut extra = connect(proxy.addr);
    assert_eq!(read_to_close(&mut extra), Vec::<u8>::new(), "closed at once");
    assert_eq!(proxy.wait_for("refused", 1)[0]["reason"], "connection_limit");
    drop(kept.pop());
    // A slot frees once the proxy sees the close; then a new client is served.
    let start = Instant::now();
    loop {
        let mut again = connect(proxy.addr);
        let frame = seq(9);
        let _ = again.write_all(&frame);
        let mut echoed = vec![0u8; frame.len()];
        if again.read_exact(&mut echoed).is_ok() {
            assert_eq!(echoed, frame);
            break;
        }
        assert!(start.elapsed() < PATIENCE, "no slot freed");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, _) = proxy.stop();
    assert!(status.success());
}

#[test]
fn a_slow_client_that_never_completes_a_frame_is_closed_after_the_idle_timeout() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&["--upstream", &upstream.to_string(), "--idle-timeout", "0.5"]);
    let mut slow = connect(proxy.addr);
    let frame = frame(&vec![0u8; 1000]);
    // 20 ms per byte: the frame would take 20 s; the proxy closes the connection after 0.5 s
    // without a complete frame, and a write fails soon after.
    let sent = frame.iter().take_while(|byte| {
        std::thread::sleep(Duration::from_millis(20));
        slow.write_all(&[**byte]).is_ok()
    });
    let sent = sent.count();
    assert!(sent < frame.len(), "closed before the frame was complete");
    assert_eq!(proxy.wait_for("close", 1)[0]["reason"], "idle_timeout");
}
