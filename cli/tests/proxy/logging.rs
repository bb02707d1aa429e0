//! Logging never stalls forwarding: with standard error on a pipe nobody reads (a stuck log
//! shipper), the proxy goes on accepting and forwarding; the lines it could not write are
//! dropped, counted, reported once it can write again, and counted in the summary.

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::*;

/// Frames of a value with an unknown type id (a `drop` line each, about 170 bytes): some 50
/// times what a 64 KiB pipe holds.
const BAD_FRAMES: usize = 20_000;

/// Connections over the limit (a `refused` line each, about 80 bytes).
const REFUSED: usize = 1_500;

/// How long forwarding may take once the flood is over.
const PROMPT: Duration = Duration::from_secs(5);

/// A frame whose value has an unknown type id.
fn bad_value() -> Vec<u8> {
    frame(&[0xEE, 0, 0, 0, 1, 0, 0, 0])
}

/// Sends `{"seq": n}` and reads it back, within [`PROMPT`].
fn echo(stream: &mut TcpStream, n: u32) -> std::io::Result<()> {
    stream.set_read_timeout(Some(PROMPT))?;
    let frame = seq(n);
    stream.write_all(&frame)?;
    let mut back = vec![0u8; frame.len()];
    std::io::Read::read_exact(stream, &mut back)?;
    assert_eq!(back, frame);
    Ok(())
}

/// The events of `kind` among `events`.
fn count(events: &[Value], kind: &str) -> u64 {
    events.iter().filter(|e| e["event"] == kind).count() as u64
}

/// The sum of an object's numbers.
fn total(object: &Value) -> u64 {
    object.as_object().map_or(0, |o| o.values().filter_map(Value::as_u64).sum())
}

#[test]
fn a_standard_error_nobody_reads_never_stalls_forwarding() {
    let upstream = tcp_echo();
    let mut proxy =
        Proxy::start_undrained(&["--upstream", &upstream.to_string(), "--max-connections", "2"]);

    // Two connections fill the limit; one of them floods the proxy with frames it drops, then
    // sends a good one, which comes back once every bad frame before it was read.
    let mut holder = connect(proxy.addr);
    echo(&mut holder, 0).expect("the first connection is served");
    let mut flooder = connect(proxy.addr);
    flooder.set_write_timeout(Some(PROMPT)).unwrap();
    let started = Instant::now();
    flooder.write_all(&bad_value().repeat(BAD_FRAMES)).expect("the proxy reads the flood");
    echo(&mut flooder, 1).expect("a good frame after the flood comes back");

    // Connections over the limit, each turned away with a line.
    let mut refused = 0;
    for _ in 0..REFUSED {
        match TcpStream::connect_timeout(&proxy.addr, PROMPT) {
            Ok(stream) => {
                refused += 1;
                drop(stream);
            }
            Err(e) => panic!("connection {refused} over the limit was not accepted: {e}"),
        }
    }
    assert!(started.elapsed() < PATIENCE);

    // Free both slots: an honest client connects and its frames come back promptly.
    holder.shutdown(Shutdown::Both).unwrap();
    flooder.shutdown(Shutdown::Both).unwrap();
    drop((holder, flooder));
    let honest = Instant::now();
    let served = loop {
        // A slot is free once the proxy has seen the close; until then a client is turned away.
        let attempt = TcpStream::connect_timeout(&proxy.addr, PROMPT)
            .and_then(|mut client| (2..12).try_for_each(|n| echo(&mut client, n)));
        if attempt.is_ok() || honest.elapsed() > PROMPT {
            break attempt;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(served.is_ok(), "an honest client was not served within {PROMPT:?}: {served:?}");
    assert!(proxy.is_running());

    // Now read standard error: the lines that did not fit were dropped and reported.
    proxy.drain();
    let reports = proxy.wait_for("log_dropped", 1);
    let (status, events) = proxy.stop();
    assert!(status.success(), "{status}");
    let summary = summary(&events);
    assert_eq!(summary["drops"]["invalid_value"], BAD_FRAMES as u64, "every drop counted");
    // Connections over the limit still waiting to be accepted when the slots came free were
    // served (and closed at once) instead of refused.
    let refused_total = summary["refused_connections"].as_u64().unwrap();
    let accepted = summary["connections"].as_u64().unwrap();
    assert!(refused_total + accepted >= REFUSED as u64 + 3, "{summary}");
    assert!(refused_total > (REFUSED / 2) as u64, "{summary}");

    let log_dropped = summary["log_dropped"].as_u64().expect("the summary counts lost lines");
    let reported: u64 = events
        .iter()
        .filter(|e| e["event"] == "log_dropped")
        .map(|e| e["lines"].as_u64().unwrap())
        .sum();
    assert!(!reports.is_empty() && reported > 0, "{reports:?}");
    assert_eq!(reported, log_dropped, "every lost line reported before the summary");
    // Each event is a line written or a line lost: none goes missing uncounted.
    let abnormal_closes =
        total(&summary["closes"]) - summary["closes"]["closed"].as_u64().unwrap_or(0);
    let events_logged = total(&summary["drops"]) + refused_total + abnormal_closes;
    let written = count(&events, "drop") + count(&events, "refused") + count(&events, "close");
    assert_eq!(written + log_dropped, events_logged, "{summary}");
    assert!(log_dropped > (BAD_FRAMES / 2) as u64, "most of the flood was lost: {summary}");
}
