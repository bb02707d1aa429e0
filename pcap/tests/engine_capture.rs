//! A real capture: `tcpdump` on loopback while two Godot 3.2.3 peers talked over TCP with
//! `StreamPeerTCP.put_var` (`corpus/captures/record.py`). Every frame each engine logged it
//! wrote comes out, byte for byte and in order, in its direction; the two frames Godot's
//! `get_var` refuses come out as refused items.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use gdvariant::Options;
use gdvariant_pcap::{Carrier, Config, Direction, Item, Reader};
use serde_json::Value as Json;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../corpus/captures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// (hex, refused) per direction, as the engines logged them.
fn logged() -> (u16, [Vec<(String, bool)>; 2]) {
    let json: Json = serde_json::from_slice(&corpus("godot3_tcp_put_var.json")).unwrap();
    let list = |key: &str| -> Vec<(String, bool)> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["hex"].as_str().unwrap().to_owned(), e["refused"].as_bool().unwrap()))
            .collect()
    };
    (json["port"].as_u64().unwrap() as u16, [list("to_server"), list("to_client")])
}

fn decoded(config: Config) -> ([Vec<(String, bool)>; 2], Reader<'static>) {
    let bytes: &'static [u8] = corpus("godot3_tcp_put_var.pcap").leak();
    let mut reader = Reader::new(bytes, config).unwrap();
    let mut got: [Vec<(String, bool)>; 2] = [Vec::new(), Vec::new()];
    for item in reader.by_ref() {
        match item {
            Item::Value(v) => got[v.direction.index()].push((hex::encode(&v.bytes), false)),
            Item::Refused(r) => {
                // The refused frame's payload (after its 4-byte prefix), as logged.
                got[r.direction.index()].push((hex::encode(&r.bytes[4..]), true))
            }
            other => panic!("unexpected item {other:?}"),
        }
    }
    (got, reader)
}

#[test]
fn the_engines_frames_come_out_byte_for_byte_in_order() {
    let (port, expected) = logged();
    let (got, reader) = decoded(Config::new(Options::godot3()));
    assert_eq!(expected[0].len(), 43);
    assert_eq!(expected[1].len(), 40);
    for direction in [Direction::ToServer, Direction::ToClient] {
        let (e, g) = (&expected[direction.index()], &got[direction.index()]);
        assert_eq!(e.len(), g.len(), "{}", direction.name());
        for (i, (e, g)) in e.iter().zip(g).enumerate() {
            assert_eq!(e, g, "{} frame {i}", direction.name());
        }
    }
    let flows = reader.flows();
    assert_eq!(flows.len(), 1);
    let flow = &flows[0];
    assert_eq!(flow.server.port(), port);
    assert_eq!(flow.carrier, Some(Carrier::PutVar));
    assert!(flow.server_why.contains("SYN"), "{}", flow.server_why);
    assert_eq!(flow.values, [41, 40]);
    assert_eq!(flow.refused, [2, 0]);
    assert_eq!(flow.gaps, [0, 0]);
    let totals = reader.totals();
    assert_eq!(totals.file_error, None);
    assert!(totals.skipped.is_empty(), "{:?}", totals.skipped);
}

#[test]
fn the_port_override_gives_the_same_frames() {
    let (port, expected) = logged();
    let (got, reader) = decoded(Config::new(Options::godot3()).with_port(port, Carrier::PutVar));
    assert_eq!(got, expected);
    assert!(reader.flows()[0].why.contains("given"));
}
