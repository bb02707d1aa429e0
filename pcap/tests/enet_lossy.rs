//! The real lossy ENet capture (`corpus/captures/godot3_enet_lossy.pcap`, recorded by
//! `record_enet.py --lossy`: the corpus's Godot 3.2.3 multiplayer scenario with its step
//! `large`, a server and two clients over `NetworkedMultiplayerENet` through `lossy_relay.py`,
//! which drops datagrams after tcpdump saw them, so the capture holds reliable commands twice,
//! and before, so it holds only the copy sent again, after later commands) read passively and
//! checked against what the engine's receivers logged (`godot3_enet_lossy.jsonl`, with a
//! `DROP` line per datagram the relay dropped):
//!
//! - every reliable call and property set is on the wire exactly as often as its receiver
//!   logged it, by node and member name, arguments byte for byte, and in the order each
//!   receiver logged the calls of each sender (ENet's order, not the capture's);
//! - every unreliable one is on the wire as often as logged, plus once for each time its
//!   datagram was dropped after the capture (never delivered, never sent again): nothing is
//!   invented;
//! - messages larger than ENet's MTU arrive in fragments, some of them sent again, each
//!   message once;
//! - what the tracker refuses is the scenario's crafted packets, and nothing else; the ENet
//!   reader refuses nothing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use gdvariant_multiplayer::track::{CallKind, Tracker};
use gdvariant_multiplayer::{Direction, Framing};
use gdvariant_pcap::{Carrier, Config, Item, Reader, enet::TransferMode};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/captures/");

mod support;

use support::{Key, argument_hex};

/// What a dropped datagram carried, read here on its own (ENet's command sizes, big-endian):
/// the data of its SEND_UNSEQUENCED commands, how many fragments and SEND_RELIABLE commands it had.
fn dropped_commands(datagram: &[u8]) -> (Vec<Vec<u8>>, usize, usize) {
    const SIZES: [usize; 13] = [0, 8, 48, 44, 8, 4, 6, 8, 24, 8, 12, 16, 24];
    let be16 = |at: usize| usize::from(u16::from_be_bytes([datagram[at], datagram[at + 1]]));
    let mut at = if datagram[0] & 0x80 != 0 { 4 } else { 2 };
    let (mut unsequenced, mut fragments, mut reliable) = (Vec::new(), 0, 0);
    while at < datagram.len() {
        let number = usize::from(datagram[at] & 0x0F);
        let size = SIZES[number];
        let length = match number {
            6 => be16(at + 4),
            7 | 8 | 9 | 12 => be16(at + 6),
            _ => 0,
        };
        if number == 9 {
            unsequenced.push(datagram[at + size..at + size + length].to_vec());
        }
        fragments += usize::from(number == 8 || number == 12);
        reliable += usize::from(number == 6);
        at += size + length;
    }
    assert_eq!(at, datagram.len());
    (unsequenced, fragments, reliable)
}

#[test]
fn a_lossy_session_decodes_to_what_the_engines_logged() {
    let capture = std::fs::read(format!("{DIR}godot3_enet_lossy.pcap")).unwrap();
    assert!(capture.len() < 1 << 20);
    let log: Vec<Value> = std::fs::read_to_string(format!("{DIR}godot3_enet_lossy.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |kind: &'static str| log.iter().filter(move |o| o["kind"] == kind).map(|o| &o["data"]);
    let peers = of("PEERS").next().unwrap();
    let side_of = |id: i64| -> String {
        ["S", "A", "B"].iter().find(|s| peers[**s].as_i64() == Some(id)).unwrap().to_string()
    };

    // What the receivers logged: per key, and in order per (receiver, sender).
    let mut logged: BTreeMap<Key, usize> = BTreeMap::new();
    let mut logged_order: BTreeMap<(String, i64), Vec<Key>> = BTreeMap::new();
    for fx in of("FX") {
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
        let side = fx["side"].as_str().unwrap().to_string();
        let key =
            (side.clone(), kind.into(), fx["node"].as_str().unwrap().into(), member.into(), args);
        logged_order.entry((side, fx["from"].as_i64().unwrap())).or_default().push(key.clone());
        *logged.entry(key).or_default() += 1;
    }
    assert!(logged.values().sum::<usize>() > 300, "{logged:?}");

    // What the relay dropped: after tcpdump saw it (on the wire, never delivered) or before.
    // (connection: 0 for A, which connects first, 1 for B; direction; data) → times dropped.
    let mut dropped_unsequenced: BTreeMap<(u64, String, Vec<u8>), usize> = BTreeMap::new();
    let (mut unseen_unsequenced, mut dropped_fragments, mut unseen_reliable) = (0, 0, 0);
    for drop in of("DROP") {
        let datagram = hex::decode(drop["hex"].as_str().unwrap()).unwrap();
        let (unsequenced, fragments, reliable) = dropped_commands(&datagram);
        if drop["where"] == "before" {
            unseen_unsequenced += unsequenced.len();
            unseen_reliable += reliable;
            continue;
        }
        for data in unsequenced {
            let conn = drop["conn"].as_u64().unwrap();
            let dir = drop["dir"].as_str().unwrap().to_string();
            *dropped_unsequenced.entry((conn, dir, data)).or_default() += 1;
        }
        dropped_fragments += fragments;
    }
    let missing: u64 = of("MISSING").map(|m| m["effects"].as_u64().unwrap()).sum();
    // Every unreliable message lost is an effect the scenario reported missing.
    assert_eq!((dropped_unsequenced.values().sum::<usize>() + unseen_unsequenced) as u64, missing);
    assert!(unseen_reliable > 20, "{unseen_reliable}");
    assert!(missing > 5, "{missing}");
    assert!(dropped_fragments >= 2, "{dropped_fragments}");
    let injected: BTreeSet<Vec<u8>> =
        of("INJECT").map(|i| hex::decode(i["hex"].as_str().unwrap()).unwrap()).collect();

    let mut reader = Reader::new(&capture, Config::new(gdvariant::Options::godot3())).unwrap();
    let mut trackers: BTreeMap<_, Tracker> = BTreeMap::new();
    let mut reliable: BTreeMap<Key, usize> = BTreeMap::new();
    let mut reliable_order: BTreeMap<(String, i64), Vec<Key>> = BTreeMap::new();
    // Unreliable calls: (connection, direction, bytes) seen.
    let mut unreliable: BTreeMap<Key, Vec<(u64, String, Vec<u8>)>> = BTreeMap::new();
    // The flows in order of their first packet, as the relay numbered the connections.
    let mut conns: BTreeMap<gdvariant_pcap::FlowId, u64> = BTreeMap::new();
    let mut large = Vec::new();
    let (mut refused, mut lost_seen) = (0, 0);
    for item in reader.by_ref() {
        let message = match item {
            Item::Enet(message) => message,
            other => panic!("{other:?}"),
        };
        let next = conns.len() as u64;
        let conn = *conns.entry(message.flow).or_insert(next);
        let client = if conn == 0 { "A" } else { "B" };
        assert_eq!(message.client_id.map(i64::from), peers[client].as_i64());
        let tracker = trackers.entry(message.flow).or_insert_with(|| {
            Tracker::new(gdvariant::Version::Godot3, Framing::Enet3, Arc::default())
                .with_allow_objects(true)
        });
        let lost = (conn, message.direction.name().to_string(), message.bytes.to_vec());
        if message.transfer != TransferMode::Reliable && dropped_unsequenced.contains_key(&lost) {
            lost_seen += 1;
        }
        let decoded = match tracker.message(message.direction, message.channel, &message.bytes) {
            Ok(decoded) => decoded,
            Err(refusal) => {
                // Refused frames are the scenario's crafted packets (after Godot 3's header).
                refused += 1;
                assert!(injected.contains(&message.bytes[8..]), "{refusal}: {:?}", message.bytes);
                continue;
            }
        };
        let Some(call) = &decoded.call else { continue };
        // Who receives it: the server for what a client sends, the flow's client otherwise.
        let receiver = match message.direction {
            Direction::ToServer if decoded.to == 1 || decoded.to <= 0 => "S".to_string(),
            Direction::ToServer => continue, // relayed: logged where the server sends it on
            Direction::ToClient => side_of(i64::from(message.client_id.unwrap())),
        };
        let kind = if call.kind == CallKind::Set { "set" } else { "call" };
        let args: Vec<String> = call
            .arguments()
            .map(|a| {
                let a = a.unwrap();
                argument_hex(
                    u64::from(a.value.variant_type().id(gdvariant::Version::Godot3).unwrap()),
                    hex::encode(a.bytes),
                )
            })
            .collect();
        let size = args.iter().map(String::len).max().unwrap_or(0) / 2;
        let key = (
            receiver.clone(),
            kind.to_string(),
            call.node.as_deref().unwrap_or("?").to_string(),
            call.member.as_deref().unwrap_or("?").to_string(),
            args,
        );
        if size > 1400 {
            large.push((key.clone(), message.fragments, message.transfer, message.channel));
        }
        if message.transfer == TransferMode::Reliable {
            *reliable.entry(key.clone()).or_default() += 1;
            reliable_order.entry((receiver, i64::from(decoded.from))).or_default().push(key);
        } else {
            unreliable.entry(key).or_default().push((
                conn,
                message.direction.name().into(),
                message.bytes.to_vec(),
            ));
        }
    }
    let flows = reader.flows();
    assert_eq!(flows.len(), 2);
    for flow in &flows {
        assert_eq!(flow.carrier, Some(Carrier::Enet), "{}", flow.why);
        assert_eq!(flow.refused, [0, 0]);
    }

    // The capture really holds sent-again reliable commands and fragmented messages.
    let duplicates: Vec<u64> =
        flows.iter().flat_map(|f| f.enet.iter().map(|h| h.duplicates)).collect();
    assert!(duplicates.iter().all(|d| *d > 0), "{duplicates:?}");
    // And reliable commands whose first copy was lost before the capture point, after later
    // ones: held and handed out in ENet's order.
    let reordered: Vec<[u64; 2]> =
        flows.iter().map(|f| [f.enet[0].reordered, f.enet[1].reordered]).collect();
    assert!(reordered.iter().all(|r| r[1] > 0) && reordered[0][0] > 0, "{reordered:?}");
    let fragments: u64 = flows.iter().flat_map(|f| f.enet.iter().map(|h| h.fragments)).sum();
    assert!(fragments > 20, "{fragments}");

    // Reliable: each as often as logged (crafted packets that Godot refuses past their bytes,
    // unlogged, aside), and in each receiver's order per sender.
    let differ: Vec<_> =
        reliable.iter().filter(|(key, count)| logged.get(*key) != Some(*count)).collect();
    assert!(
        differ.iter().all(|(key, count)| **count == 1 && !logged.contains_key(*key)),
        "{differ:#?}"
    );
    assert!(differ.len() <= 5, "{differ:#?}");
    assert!(refused >= 10 && refused < injected.len(), "{refused}");
    let mut ordered = 0;
    for (pair, order) in &reliable_order {
        let expected: Vec<&Key> = logged_order
            .get(pair)
            .map(|keys| keys.iter().filter(|k| reliable.contains_key(*k)).collect())
            .unwrap_or_default();
        let seen: Vec<&Key> = order.iter().filter(|k| logged.contains_key(*k)).collect();
        let short =
            |k: &Key| format!("{} {}", k.3, k.4.first().map_or("", |a| &a[..a.len().min(24)]));
        if let Some(at) =
            (0..seen.len().max(expected.len())).find(|i| seen.get(*i) != expected.get(*i))
        {
            panic!(
                "{pair:?}: message {at}: on the wire {:?}, logged {:?}",
                seen.get(at).map(|k| short(k)),
                expected.get(at).map(|k| short(k))
            );
        }
        ordered += seen.len();
    }

    assert!(ordered > 300, "{ordered}");

    // Unreliable: as often as logged, plus what the relay dropped; every dropped one is seen.
    for (key, seen) in &unreliable {
        let lost = seen.iter().filter(|m| dropped_unsequenced.contains_key(*m)).count();
        let delivered = logged.get(key).copied().unwrap_or(0);
        assert_eq!(seen.len(), delivered + lost, "{key:?}");
    }
    assert_eq!(lost_seen, dropped_unsequenced.values().sum::<usize>());
    assert!(unreliable.len() > 60, "{}", unreliable.len());

    // The step `large`: 6000 bytes A -> S, 9000 bytes S -> A and B (reliable); 4000 bytes
    // A -> S and 3000 bytes S -> A and B sent unreliable, which ENet sends as reliable
    // fragments on Godot's unreliable channel (2) when over the MTU: each once, in fragments.
    assert_eq!(large.len(), 6, "{large:#?}");
    for (key, fragments, transfer, channel) in &large {
        assert!(*fragments >= 3, "{key:?}");
        assert_eq!(*transfer, TransferMode::Reliable);
        assert_eq!(logged.get(key), Some(&1), "{key:?}");
        assert!(*channel == 1 || *channel == 2);
    }
    assert_eq!(large.iter().filter(|l| l.3 == 2).count(), 3);
}
