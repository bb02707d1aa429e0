//! The real ENet capture (`corpus/captures/godot3_enet_multiplayer.pcap`, recorded by
//! `record_enet.py`: the corpus's Godot 3.2.3 multiplayer scenario, a server and two clients
//! over `NetworkedMultiplayerENet`) read passively: every call and property set the engine's
//! receivers logged (`godot3_enet_multiplayer.jsonl`) is found on the wire, by node and method
//! name, with its arguments byte for byte, reliable retransmissions counted once.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;
use std::sync::Arc;

use gdvariant_multiplayer::track::{CallKind, Tracker};
use gdvariant_multiplayer::{Direction, Framing};
use gdvariant_pcap::{Carrier, Config, Item, Reader, enet::TransferMode};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/captures/");

mod support;

use support::{Key, argument_hex};

#[test]
fn every_logged_call_is_on_the_wire_byte_exact() {
    let capture = std::fs::read(format!("{DIR}godot3_enet_multiplayer.pcap")).unwrap();
    assert!(capture.len() < 1 << 20);
    let log: Vec<Value> = std::fs::read_to_string(format!("{DIR}godot3_enet_multiplayer.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let peers = &log.iter().find(|o| o["kind"] == "PEERS").unwrap()["data"];
    let side_of = |id: i64| -> String {
        ["S", "A", "B"].iter().find(|s| peers[**s].as_i64() == Some(id)).unwrap().to_string()
    };
    let mut logged: BTreeMap<Key, usize> = BTreeMap::new();
    for fx in log.iter().filter(|o| o["kind"] == "FX").map(|o| &o["data"]) {
        let kind = fx["kind"].as_str().unwrap();
        let (member, args) = match kind {
            "call" => (fx["method"].as_str().unwrap(), fx["args"].as_array().unwrap().clone()),
            "set" => (fx["property"].as_str().unwrap(), vec![fx["value"].clone()]),
            _ => continue,
        };
        // A remotesync call runs on its caller too, without the network.
        if peers[fx["side"].as_str().unwrap()] == fx["from"] {
            continue;
        }
        let args = args
            .iter()
            .map(|a| {
                argument_hex(a["type"].as_u64().unwrap(), a["bytes"].as_str().unwrap_or("").into())
            })
            .collect();
        let key = (
            fx["side"].as_str().unwrap().to_string(),
            kind.to_string(),
            fx["node"].as_str().unwrap().to_string(),
            member.to_string(),
            args,
        );
        *logged.entry(key).or_default() += 1;
    }
    assert!(logged.values().sum::<usize>() > 150, "{logged:?}");

    let mut reader = Reader::new(&capture, Config::new(gdvariant::Options::godot3())).unwrap();
    let mut trackers: BTreeMap<_, Tracker> = BTreeMap::new();
    let mut wire: BTreeMap<Key, usize> = BTreeMap::new();
    let mut reliable: BTreeMap<Key, usize> = BTreeMap::new();
    let mut transfers: BTreeMap<TransferMode, usize> = BTreeMap::new();
    let mut refused = 0;
    for item in reader.by_ref() {
        let message = match item {
            Item::Enet(message) => message,
            Item::Refused(refused_item) => {
                refused += 1;
                eprintln!("{refused_item:?}");
                continue;
            }
            other => panic!("{other:?}"),
        };
        *transfers.entry(message.transfer).or_default() += 1;
        let tracker = trackers.entry(message.flow).or_insert_with(|| {
            Tracker::new(gdvariant::Version::Godot3, Framing::Enet3, Arc::default())
                .with_allow_objects(true)
        });
        let Ok(decoded) = tracker.message(message.direction, message.channel, &message.bytes)
        else {
            continue; // the scenario's crafted packets, refused as the engine refuses them
        };
        let Some(call) = &decoded.call else { continue };
        // Who receives it: the server for what a client sends, the flow's client otherwise.
        let receiver = match message.direction {
            Direction::ToServer if decoded.to == 1 || decoded.to <= 0 => "S".to_string(),
            Direction::ToServer => "relayed".to_string(),
            Direction::ToClient => side_of(i64::from(message.client_id.unwrap())),
        };
        let kind = if call.kind == CallKind::Set { "set" } else { "call" };
        let args = call
            .arguments()
            .map(|a| {
                let a = a.unwrap();
                argument_hex(
                    u64::from(a.value.variant_type().id(gdvariant::Version::Godot3).unwrap()),
                    hex::encode(a.bytes),
                )
            })
            .collect();
        let key = (
            receiver,
            kind.to_string(),
            call.node.as_deref().unwrap_or("?").to_string(),
            call.member.as_deref().unwrap_or("?").to_string(),
            args,
        );
        if message.transfer == TransferMode::Reliable {
            *reliable.entry(key.clone()).or_default() += 1;
        }
        *wire.entry(key).or_default() += 1;
    }
    assert_eq!(refused, 0);
    for (key, count) in &logged {
        let seen = wire.get(key).copied().unwrap_or(0);
        assert!(seen >= *count, "{key:?}: logged {count}, on the wire {seen}");
    }
    // Reliable messages are counted once: each reliable call is on the wire exactly as often
    // as its receiver logged it, but for the scenario's crafted packets that the game refuses
    // past the packet's bytes (an unknown node, a method that is no rpc, a missing argument,
    // an unknown property), which no receiver logs.
    let injected = log.iter().filter(|o| o["kind"] == "INJECT").count();
    let differ: Vec<_> = reliable
        .iter()
        .filter(|(key, count)| key.0 != "relayed" && logged.get(*key) != Some(*count))
        .collect();
    assert!(
        differ.iter().all(|(key, count)| **count == 1 && !logged.contains_key(*key)),
        "{differ:#?}"
    );
    assert!(differ.len() <= 5 && differ.len() < injected, "{differ:#?}");
    let flows = reader.flows();
    assert_eq!(flows.len(), 2);
    for flow in &flows {
        assert_eq!(flow.carrier, Some(Carrier::Enet), "{}", flow.why);
        assert!(flow.why.contains("CONNECT"), "{}", flow.why);
        assert_eq!(flow.server.port(), flows[0].server.port());
    }
    assert!(transfers.len() >= 2, "{transfers:?}");
}

/// A message: (flow, direction, channel, transfer, bytes).
type Seen = (u64, &'static str, u8, TransferMode, Vec<u8>);

/// The messages of a capture, and the reliable commands seen again.
fn messages(capture: &[u8]) -> (Vec<Seen>, u64) {
    let mut reader = Reader::new(capture, Config::new(gdvariant::Options::godot3())).unwrap();
    let mut out = Vec::new();
    for item in reader.by_ref() {
        if let Item::Enet(m) = item {
            out.push((m.flow.0, m.direction.name(), m.channel, m.transfer, m.bytes.to_vec()));
        }
    }
    let duplicates = reader.flows().iter().flat_map(|f| f.enet).map(|h| h.duplicates).sum();
    (out, duplicates)
}

#[test]
fn every_datagram_sent_twice_gives_the_same_messages() {
    // The real capture with each packet record written twice (a retransmission of every
    // datagram): the reliable messages are the same, counted once; unreliable ones, which ENet
    // never resends, come twice.
    let capture = std::fs::read(format!("{DIR}godot3_enet_multiplayer.pcap")).unwrap();
    assert_eq!(&capture[..4], &0xa1b2_c3d4u32.to_le_bytes());
    let mut doubled = capture[..24].to_vec();
    let mut at = 24;
    while at + 16 <= capture.len() {
        let len = u32::from_le_bytes(capture[at + 8..at + 12].try_into().unwrap()) as usize;
        let record = &capture[at..at + 16 + len];
        doubled.extend_from_slice(record);
        doubled.extend_from_slice(record);
        at += 16 + len;
    }
    let (once, none) = messages(&capture);
    let (twice, duplicates) = messages(&doubled);
    assert_eq!(none, 0);
    let reliable = |all: &[Seen]| {
        all.iter().filter(|m| m.3 == TransferMode::Reliable).cloned().collect::<Vec<_>>()
    };
    assert_eq!(reliable(&twice), reliable(&once));
    let unreliable = once.len() - reliable(&once).len();
    assert_eq!(twice.len(), once.len() + unreliable);
    assert!(duplicates >= reliable(&once).len() as u64, "{duplicates}");
}
