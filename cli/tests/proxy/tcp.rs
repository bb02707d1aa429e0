//! The TCP proxy: what Godot accepts goes through byte for byte and in order, in both
//! directions; the rest is dropped and reported, or closes the connection.

use std::io::Write;
use std::net::Shutdown;
use std::time::Duration;

use gdvariant::framing::{self, LengthPrefix};
use gdvariant::{EncodeOptions, Options};

use crate::support::*;

/// A frame whose value has an unknown type id.
fn bad_value() -> Vec<u8> {
    frame(&[0xEE, 0, 0, 0, 1, 0, 0, 0])
}

/// A `StreamPeer.put_var` frame of `{"cmd": cmd, "n": n}`.
fn command(cmd: &str, n: i64) -> Vec<u8> {
    let mut out = Vec::new();
    framing::append_frame_with(
        &mut out,
        LengthPrefix::stream_peer(false),
        EncodeOptions::godot4(),
        |w| {
            w.begin_dictionary(2)?;
            w.string("cmd")?;
            w.string(cmd)?;
            w.string("n")?;
            w.int(n)
        },
    )
    .unwrap();
    out
}

#[test]
fn valid_frames_go_through_in_order_and_bad_ones_are_dropped_and_reported() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&["--upstream", &upstream.to_string(), "--godot", "4"]);
    // Godot 4.6: StreamPeerBuffer.put_var(v) for 11 values.
    let good = frames_of(&corpus("godot4", "stream_streampeer_put_var"));
    assert_eq!(good.len(), 11);
    let mut sent: Vec<u8> = Vec::new();
    let mut expected: Vec<u8> = Vec::new();
    let mut drops = Vec::new();
    for (i, frame) in good.iter().enumerate() {
        if i == 3 {
            drops.push((sent.len(), 12, "invalid_value"));
            sent.extend(bad_value());
        }
        if i == 6 {
            drops.push((sent.len(), 4, "negative_length"));
            sent.extend([0xFF, 0xFF, 0xFF, 0xFF]); // StreamPeer.get_var skips these 4 bytes
        }
        sent.extend(frame);
        expected.extend(frame);
    }
    let mut client = connect(proxy.addr);
    client.write_all(&sent).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    let echoed = read_to_close(&mut client);
    assert_eq!(echoed, expected, "the valid frames, byte for byte, through the proxy and back");

    let (status, events) = proxy.stop();
    assert!(status.success(), "{status}");
    let logged: Vec<_> = events.iter().filter(|e| e["event"] == "drop").collect();
    assert_eq!(logged.len(), 2, "{events:?}");
    for (line, (offset, len, reason)) in logged.iter().zip(&drops) {
        assert_eq!(line["direction"], "to_server");
        assert_eq!(line["offset"], *offset as u64);
        assert_eq!(line["len"], *len as u64);
        assert_eq!(line["reason"], *reason);
        assert!(line["peer"].as_str().unwrap().starts_with("127.0.0.1:"));
    }
    let summary = summary(&events);
    let bytes = expected.len() as u64;
    assert_eq!(
        summary["forwarded"]["to_server"],
        serde_json::json!({"frames": 11, "bytes": bytes})
    );
    assert_eq!(
        summary["forwarded"]["to_client"],
        serde_json::json!({"frames": 11, "bytes": bytes})
    );
    assert_eq!(summary["drops"], serde_json::json!({"invalid_value": 1, "negative_length": 1}));
    assert_eq!(summary["by_type"]["int"]["frames"], 4, "two ints, both ways: {summary}");
    assert_eq!(summary["connections"], 1);
}

#[test]
fn a_frame_over_the_limit_is_skipped_as_it_arrives_and_the_stream_goes_on() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&["--upstream", &upstream.to_string(), "--max-frame", "1000"]);
    let mut client = connect(proxy.addr);
    let after = command("after", 1);
    let mut sent = frame(&vec![7u8; 5000]); // declared 5000 > 1000
    sent.extend(&after);
    // Sent one byte at a time at first, then in one piece.
    for byte in &sent[..40] {
        client.write_all(&[*byte]).unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    client.write_all(&sent[40..]).unwrap();
    assert_eq!(read_exact(&mut client, after.len()), after);
    let drop = &proxy.wait_for("drop", 1)[0];
    assert_eq!((drop["reason"].as_str(), drop["len"].as_u64()), (Some("too_large"), Some(5004)));
    drop_and_check_summary(proxy, "too_large");
}

fn drop_and_check_summary(proxy: Proxy, reason: &str) {
    let (status, events) = proxy.stop();
    assert!(status.success());
    assert_eq!(summary(&events)["drops"][reason], 1, "{events:?}");
}

#[test]
fn with_disconnect_a_bad_frame_closes_the_connection() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&["--upstream", &upstream.to_string(), "--disconnect"]);
    let mut client = connect(proxy.addr);
    let first = command("first", 1);
    client.write_all(&first).unwrap();
    assert_eq!(read_exact(&mut client, first.len()), first);
    client.write_all(&bad_value()).unwrap();
    client.write_all(&command("never", 2)).unwrap();
    assert_eq!(read_to_close(&mut client), Vec::<u8>::new(), "closed, nothing after the bad frame");
    let close = &proxy.wait_for("close", 1)[0];
    assert_eq!(close["reason"], "disconnect_on_drop");
    drop_and_check_summary(proxy, "invalid_value");
}

#[test]
fn drop_if_and_the_rate_limit_drop_frames_godot_accepts() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&[
        "--upstream",
        &upstream.to_string(),
        "--drop-if",
        "cmd=\"admin\"",
        "--drop-if",
        "n=-1",
        "--rate-limit",
        "5",
    ]);
    let mut client = connect(proxy.addr);
    let mut sent = Vec::new();
    sent.extend(command("admin", 1));
    sent.extend(command("move", -1));
    for n in 0..20 {
        sent.extend(command("move", n));
    }
    client.write_all(&sent).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    let echoed = read_to_close(&mut client);
    let passed: Vec<i64> =
        framing::frames(&echoed, LengthPrefix::stream_peer(false), Options::godot4())
            .map(|f| {
                f.unwrap().value().as_dictionary().unwrap().get_as::<i64>("n").unwrap().unwrap()
            })
            .collect();
    // A burst of 5 frames (plus what the bucket refills while they pass), in order from 0.
    assert!((5..=7).contains(&passed.len()), "{passed:?}");
    assert_eq!(passed, (0..passed.len() as i64).collect::<Vec<_>>());
    let (_, events) = proxy.stop();
    let drops = &summary(&events)["drops"];
    assert_eq!(drops["drop_if"], 2, "{events:?}");
    assert_eq!(drops["rate_limit"], 20 - passed.len() as u64);
}

#[test]
fn prefixes_and_versions_follow_the_options() {
    let upstream = tcp_echo();
    let proxy = Proxy::start(&[
        "--upstream",
        &upstream.to_string(),
        "--godot",
        "3",
        "--prefix",
        "stream-peer",
        "--big-endian",
    ]);
    // Godot 3.2.3: StreamPeerBuffer.put_var(v) with big_endian = true, for 10 values.
    let captured =
        std::fs::read(root().join("corpus/probes/framing/stream_streampeer_put_var_be.bin"))
            .unwrap();
    let mut client = connect(proxy.addr);
    client.write_all(&captured).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    assert_eq!(read_to_close(&mut client), captured);
    let (_, events) = proxy.stop();
    assert_eq!(summary(&events)["forwarded"]["to_server"]["frames"], 10);
    assert!(summary(&events)["by_type"].get("Vector2").is_some(), "Godot 3 names");
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        vec![
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "127.0.0.1:1",
            "--drop-if",
            "nothing",
        ],
        vec![
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "127.0.0.1:1",
            "--idle-timeout",
            "0",
        ],
        vec![
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "127.0.0.1:1",
            "--udp",
            "--websocket",
        ],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_gdvariant"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
}
