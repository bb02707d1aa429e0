//! The multiplayer layer over real captures: the real ENet and WebSocket captures of
//! `corpus/captures/` written in the multiplayer capture format (read back by the multiplayer
//! crate's tracker: the same calls, in the same order, as [`Sessions`] gives over the pcap),
//! a capture needing two headers refused, and [`MethodStats`] counting per flow, direction and
//! method within its bound.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod support;

use std::sync::Arc;

use gdvariant::{Options, Version};
use gdvariant_multiplayer::session::RpcMethods;
use gdvariant_multiplayer::track::{Message, Refusal, Tracker};
use gdvariant_multiplayer::{Framing, capture};
use gdvariant_pcap::multiplayer::{Counts, Member};
use gdvariant_pcap::{
    Config, Direction, FlowId, Item, MethodStats, Reader, Sessions, WriteError, WsEvent,
    write_capture,
};
use support::*;

/// A multiplayer message of `item` (ENet, or a WebSocket binary message) read by `sessions`,
/// with its flow, direction and length; `None` for any other item.
fn message_of<'s>(
    sessions: &'s mut Sessions,
    item: &'s Item<'_>,
) -> Option<(FlowId, Direction, usize, Result<Message<'s>, Refusal>)> {
    match item {
        Item::Enet(m) => Some((m.flow, m.direction, m.bytes.len(), sessions.enet(m))),
        Item::WebSocket(ws) => match &ws.event {
            WsEvent::Binary(bytes) => {
                Some((ws.flow, ws.direction, bytes.len(), sessions.websocket(ws, bytes)))
            }
            _ => None,
        },
        _ => None,
    }
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../corpus/captures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Each message of `file` through [`Sessions`]: (flow, direction, what it is), and the counts.
fn over_pcap(file: &[u8]) -> (Vec<(u32, Direction, String)>, MethodStats) {
    let mut config = Config::new(Options::godot4());
    config.websocket_raw = true;
    let mut sessions = Sessions::new(false);
    let mut stats = MethodStats::default();
    let mut seen = Vec::new();
    for item in Reader::new(file, config).unwrap() {
        let Some((flow, direction, len, read)) = message_of(&mut sessions, &item) else {
            continue;
        };
        let text = match &read {
            Ok(message) => {
                stats.message(flow, direction, message, len);
                format!(
                    "{} -> {} {:?}",
                    message.from,
                    message.to,
                    message.call.as_ref().map(|c| c.to_string())
                )
            }
            Err(refusal) => {
                stats.refused(flow, direction, refusal.reason(), len);
                format!("refused {refusal}")
            }
        };
        seen.push((flow.0 as u32, direction, text));
    }
    (seen, stats)
}

/// Each record of a multiplayer capture through a tracker per connection.
fn over_records(file: &[u8]) -> (capture::Header, Vec<(u32, Direction, String)>) {
    let header = capture::header(file).unwrap();
    let mut trackers = std::collections::BTreeMap::new();
    let mut seen = Vec::new();
    for record in capture::records(file) {
        let record = record.unwrap();
        let tracker = trackers.entry(record.head.connection).or_insert_with(|| {
            Tracker::new(header.version, header.framing, Arc::new(RpcMethods::new()))
        });
        let text = match tracker.message(record.head.direction, record.head.channel, record.bytes) {
            Ok(message) => format!(
                "{} -> {} {:?}",
                message.from,
                message.to,
                message.call.as_ref().map(|c| c.to_string())
            ),
            Err(refusal) => format!("refused {refusal}"),
        };
        seen.push((record.head.connection, record.head.direction, text));
    }
    (header, seen)
}

#[test]
fn the_real_enet_and_websocket_captures_convert_to_the_same_calls() {
    for (name, framing, calls) in [
        ("godot3_enet_multiplayer.pcap", Framing::Enet3, 150),
        // Every call the engines logged (godot3_websocket_mp.json: 12).
        ("godot3_websocket_mp.pcap", Framing::WebSocket3, 11),
    ] {
        let file = corpus(name);
        // Not given the version: the flows tell it.
        let mut out = Vec::new();
        let written = write_capture(&file, Config::new(Options::godot4()), &mut out).unwrap();
        assert_eq!(written.framing, framing, "{name}");
        let (header, from_records) = over_records(&out);
        assert_eq!((header.version, header.framing), (Version::Godot3, framing));
        let (from_pcap, stats) = over_pcap(&file);
        assert_eq!(from_records, from_pcap, "{name}");
        assert_eq!(written.records as usize, from_pcap.len());
        let named =
            from_pcap.iter().filter(|(_, _, t)| t.contains("Some(\"World/Player::")).count();
        assert!(named > calls, "{name}: {named}");
        // The counts add up to the messages, per flow and direction.
        let total: u64 = stats.rows().map(|(_, c)| c.messages).sum();
        assert_eq!(total as usize, from_pcap.len());
        assert_eq!(stats.overflow(), Counts::default());
        assert!(stats.rows().any(|((_, d, m), c)| d == Direction::ToServer
            && matches!(m, Member::Call(k) if k.starts_with("World/Player::"))
            && c.messages > 0));
    }
}

/// A Godot 4 ENet flow (CONNECT, a RAW packet) and a Godot 3 one (the client's id first).
fn two_kinds() -> Vec<u8> {
    let connect = |data: u32| {
        let mut connect = vec![0x0F, 0xFF, 0x82, 0xFF, 0, 1, 0x0F, 0xFF, 0, 0];
        for n in [1400u32, 32768, 3, 0, 0, 5000, 2, 2, 0x1234, data] {
            connect.extend_from_slice(&n.to_be_bytes());
        }
        connect
    };
    let send = |payload: &[u8]| {
        let mut out = vec![0, 0, 0x86, 1, 0, 1];
        out.extend_from_slice(&(payload.len() as u16).to_be_bytes());
        out.extend_from_slice(payload);
        out
    };
    let mut raw3 = 9u32.to_le_bytes().to_vec();
    raw3.extend_from_slice(&[1, 0, 0, 0, 3, b'h', b'i']);
    let other = ([10, 0, 0, 3], 40000);
    pcap(
        1,
        &[
            udp(CLIENT, SERVER, &connect(7)),
            udp(CLIENT, SERVER, &send(&[3, b'h', b'i'])),
            udp(other, SERVER, &connect(9)),
            udp(other, SERVER, &send(&raw3)),
        ],
    )
}

#[test]
fn a_capture_needing_two_headers_is_refused_and_one_kind_can_be_kept() {
    let file = two_kinds();
    let mut out = Vec::new();
    let error = write_capture(&file, Config::new(Options::godot4()), &mut out).unwrap_err();
    let WriteError::Mixed(kinds) = &error else { panic!("{error:?}") };
    assert_eq!(
        kinds,
        &vec![
            (Version::Godot4, Framing::Packets, vec![FlowId(0)]),
            (Version::Godot3, Framing::Enet3, vec![FlowId(1)]),
        ]
    );
    assert!(out.is_empty());
    assert!(
        error
            .to_string()
            .contains("Godot 4 ENet packets (f0); Godot 3 ENet with the 8-byte header (f1)"),
        "{error}"
    );
    // Leaving the second flow out by its port.
    let config = Config::new(Options::godot4()).with_port(40000, gdvariant_pcap::Carrier::Other);
    let written = write_capture(&file, config, &mut out).unwrap();
    assert_eq!((written.records, written.framing), (1, Framing::Packets));
    let (header, seen) = over_records(&out);
    assert_eq!((header.version, header.framing), (Version::Godot4, Framing::Packets));
    assert_eq!(seen, vec![(0, Direction::ToServer, "0 -> 1 None".to_string())]);
}

#[test]
fn method_stats_keep_at_most_their_bound_of_keys_and_count_the_rest() {
    let file = corpus("godot3_enet_multiplayer.pcap");
    let (_, all) = over_pcap(&file);
    let keys = all.rows().count();
    assert!(keys > 4, "{keys}");
    // Fed again with a bound of 3 keys.
    let mut bounded = MethodStats::new(3);
    let mut config = Config::new(Options::godot3());
    config.websocket_raw = true;
    let mut sessions = Sessions::new(false);
    for item in Reader::new(&file, config).unwrap() {
        let Item::Enet(m) = &item else { continue };
        match sessions.enet(m) {
            Ok(message) => bounded.message(m.flow, m.direction, &message, m.bytes.len()),
            Err(refusal) => bounded.refused(m.flow, m.direction, refusal.reason(), m.bytes.len()),
        }
    }
    assert_eq!(bounded.rows().count(), 3);
    let sum = |stats: &MethodStats| {
        stats.rows().fold(stats.overflow(), |a, (_, c)| Counts {
            messages: a.messages + c.messages,
            bytes: a.bytes + c.bytes,
        })
    };
    assert!(bounded.overflow().messages > 0);
    assert_eq!(sum(&bounded), sum(&all));
}

/// `MethodStats::tracked` (what `--stats` counts with) gives the rows of counting each
/// message and refusal by hand, on every corpus capture with multiplayer traffic, in the same
/// order, refusals counted as the tracker's.
#[test]
fn method_stats_tracked_counts_as_message_and_refused() {
    for name in [
        "godot3_enet_multiplayer.pcap",
        "godot3_enet_lossy.pcap",
        "godot3_websocket_mp.pcap",
        "godot4_websocket_mp.pcap",
    ] {
        let file = corpus(name);
        let (seen, by_hand) = over_pcap(&file);
        let mut config = Config::new(Options::godot4());
        config.websocket_raw = true;
        let mut sessions = Sessions::new(false);
        let mut tracked = MethodStats::default();
        let mut refused = 0;
        for item in Reader::new(&file, config).unwrap() {
            let Some((flow, direction, len, read)) = message_of(&mut sessions, &item) else {
                continue;
            };
            let counted = tracked.tracked(flow, direction, &read, len);
            assert_eq!(counted.err(), read.as_ref().err().copied(), "{name}");
            refused += usize::from(read.is_err());
        }
        let rows: Vec<_> = tracked.rows().collect();
        assert_eq!(rows, by_hand.rows().collect::<Vec<_>>(), "{name}");
        let total: u64 = rows.iter().map(|(_, c)| c.messages).sum();
        assert_eq!(total as usize, seen.len(), "{name}");
        assert!(rows.len() > 2, "{name}: {rows:?}");
        let refused_rows: u64 = rows
            .iter()
            .filter(|((_, _, m), _)| matches!(m, Member::Refused(_)))
            .map(|(_, c)| c.messages)
            .sum();
        assert_eq!(refused_rows as usize, refused, "{name}");
    }
}

#[test]
fn sessions_keep_at_most_their_bound_of_trackers() {
    // The real ENet capture's two flows with room for one tracker: each message of the other
    // flow forgets the first's, so its session starts again.
    let file = corpus("godot3_enet_multiplayer.pcap");
    let mut sessions = Sessions::new(false).with_max_flows(1);
    let mut config = Config::new(Options::godot4());
    config.websocket_raw = true;
    let mut switches = 0;
    let mut last = None;
    for item in Reader::new(&file, config).unwrap() {
        let Item::Enet(m) = &item else { continue };
        switches += u64::from(last.is_some_and(|l| l != m.flow));
        last = Some(m.flow);
        let _ = sessions.enet(m);
    }
    assert!(switches > 0);
    assert_eq!(sessions.forgotten(), switches);
    assert_eq!(sessions.max_flows(), 1);
    assert_eq!(Sessions::new(false).max_flows(), 10_000);
}
