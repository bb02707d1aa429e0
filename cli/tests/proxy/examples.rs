//! The example relays (`relay/examples/relay.rs` on the relay crate, `examples/relay_std.rs` on
//! threads) do what the README says: frames Godot accepts go through byte for byte, refused ones
//! are dropped.

use std::io::Write;
use std::net::Shutdown;

use crate::support::*;

fn relays_valid_frames_and_drops_the_rest(name: &str) {
    let upstream = tcp_echo();
    let relay = Proxy::start_binary(&example(name), &[], &["--upstream", &upstream.to_string()]);
    let good = frames_of(&corpus("godot4", "stream_streampeer_put_var"));
    let mut sent: Vec<u8> = Vec::new();
    let mut expected: Vec<u8> = Vec::new();
    for (i, frame) in good.iter().enumerate() {
        if i == 2 {
            sent.extend(self::frame(&[0xEE, 0, 0, 0]));
        }
        if i == 5 {
            sent.extend(self::frame(&vec![0u8; 20 << 20])); // over the 16 MiB default limit
        }
        sent.extend(frame);
        expected.extend(frame);
    }
    let mut client = connect(relay.addr);
    let writer = {
        let mut client = client.try_clone().unwrap();
        std::thread::spawn(move || {
            for piece in sent.chunks(1000) {
                client.write_all(piece).unwrap();
            }
            client.shutdown(Shutdown::Write).unwrap();
        })
    };
    assert_eq!(read_to_close(&mut client), expected, "{name}");
    writer.join().unwrap();
    let drops = relay.wait_for("drop", 2);
    assert_eq!(drops[0]["len"], 8, "{drops:?}");
    assert_eq!(drops[1]["len"], (20u64 << 20) + 4, "{drops:?}");
}

#[test]
fn the_tokio_relay_forwards_what_godot_accepts() {
    relays_valid_frames_and_drops_the_rest("relay");
}

#[test]
fn the_threaded_relay_forwards_what_godot_accepts() {
    relays_valid_frames_and_drops_the_rest("relay_std");
}
