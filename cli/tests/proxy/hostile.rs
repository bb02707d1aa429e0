//! Hostile clients (garbage, huge and negative prefixes, byte-by-byte sends, half-open
//! sockets, thousands of connections) neither stop the proxy nor disturb an honest connection;
//! idle and connection limits close what would pin it.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::support::*;

/// A `{"seq": n}` frame, `StreamPeer.put_var` style, built by hand: Dictionary(1), String
/// "seq", int n.
fn seq(n: u32) -> Vec<u8> {
    let mut payload = vec![27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0];
    payload.extend(b"seq\0");
    payload.extend([2, 0, 0, 0]);
    payload.extend(n.to_le_bytes());
    frame(&payload)
}

/// Runs one kind of hostile client `rounds` times against `addr`, until `stop`.
fn hostile(addr: SocketAddr, kind: u32, rounds: u32, stop: Arc<AtomicBool>) {
    for round in 0..rounds {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let Ok(mut stream) = TcpStream::connect(addr) else { continue };
        let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
        let _ = match kind {
            // Frames of garbage (refused values), then raw garbage (negative prefixes).
            0 => {
                let mut garbage = frame(&[0xAB; 8]).repeat(10);
                garbage.extend([0xAB; 100]);
                stream.write_all(&garbage)
            }
            // A huge prefix, then a few bytes of its payload.
            1 => stream.write_all(&[0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3]),
            // Negative prefixes.
            2 => stream.write_all(&[0xFF; 64]),
            // A valid frame, one byte at a time.
            3 => seq(round).iter().try_for_each(|b| {
                std::thread::sleep(Duration::from_millis(2));
                stream.write_all(&[*b])
            }),
            // Connect and close at once.
            _ => Ok(()),
        };
        let _ = stream.shutdown(Shutdown::Both);
    }
}

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
    let kinds = [(0, 500), (1, 300), (2, 300), (3, 20), (4, 1500)];
    let workers: Vec<_> = kinds
        .iter()
        .map(|&(kind, rounds)| {
            let stop = Arc::clone(&stop);
            let addr = proxy.addr;
            std::thread::spawn(move || hostile(addr, kind, rounds, stop))
        })
        .collect();
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
    // Still serving after the flood.
    let mut late = connect(proxy.addr);
    late.write_all(&seq(7)).unwrap();
    assert_eq!(read_exact(&mut late, seq(7).len()), seq(7));
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
