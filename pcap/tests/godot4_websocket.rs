//! The real Godot 4.6 WebSocket multiplayer capture (`corpus/captures/godot4_websocket_mp.pcap`,
//! recorded by `record_godot4_ws.py`: tcpdump on loopback while Godot's own
//! `WebSocketMultiplayerPeer` client talked with a Godot 4.6 server through a WebSocket bridge)
//! read with the `Reader` (`Config::websocket_raw`) and the multiplayer tracker (Godot 4
//! framing, the capture's own project for names) against what the engines logged: every call
//! each side received is on the wire in its direction, in order, by node path and method, each
//! argument re-encoded byte for byte as the receiver's `var_to_bytes`; the raw packets, the
//! spawn with its state, every sync and delta sync the client applied with its values, the
//! despawn; the client's id; nothing refused, nothing else on the wire.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::sync::Arc;

use gdvariant::{EncodeOptions, Options, Variant, VariantRef, Version};
use gdvariant_multiplayer::godot4::{Godot4Packet, Values};
use gdvariant_multiplayer::project::Project;
use gdvariant_multiplayer::rules::Rules;
use gdvariant_multiplayer::track::{Packet, Tracker};
use gdvariant_multiplayer::{Direction, Framing, capture};
use gdvariant_pcap::{Carrier, Config, Item, Reader, WsEvent, write_capture};
use serde_json::Value as Json;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../corpus/captures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// `var_to_bytes` of a value, in hex.
fn var_to_bytes(value: VariantRef<'_>) -> String {
    hex::encode(Variant::try_from(value).unwrap().encode(EncodeOptions::godot4()).unwrap())
}

/// A spawn's or sync element's values, each as `var_to_bytes` hex.
fn state(values: Values<'_>) -> Vec<String> {
    values.map(|v| var_to_bytes(v.unwrap().value())).collect()
}

/// What the wire holds, decoded, in the terms of the engines' log.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    /// (direction, node, method, arguments as `var_to_bytes` hex)
    calls: Vec<(Direction, String, String, Vec<String>)>,
    /// (direction, bytes hex)
    raw: Vec<(Direction, String)>,
    /// (node name, spawner, scene, state)
    spawns: Vec<(String, String, Option<String>, Vec<String>)>,
    /// The position of every SYNC, the hp of every DELTA_SYNC (the spawned node's only
    /// synchronizer).
    syncs: Vec<Vec<String>>,
    deltas: Vec<Vec<String>>,
    despawned: Vec<String>,
}

fn log() -> Json {
    serde_json::from_slice(&corpus("godot4_websocket_mp.json")).unwrap()
}

fn events<'a>(log: &'a Json, event: &str) -> Vec<&'a Json> {
    log["events"].as_array().unwrap().iter().filter(|e| e["event"] == event).collect()
}

fn direction_to(side: &Json) -> Direction {
    match side.as_str().unwrap() {
        "server" => Direction::ToServer,
        "client" => Direction::ToClient,
        other => panic!("{other}"),
    }
}

fn strings(list: &Json) -> Vec<String> {
    list.as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect()
}

/// What the engines logged they received, as [`Seen`].
fn logged(log: &Json) -> Seen {
    let mut want = Seen::default();
    for e in events(log, "got") {
        want.calls.push((
            direction_to(&e["side"]),
            e["node"].as_str().unwrap().into(),
            e["method"].as_str().unwrap().into(),
            strings(&e["args"]),
        ));
    }
    for e in events(log, "raw_got") {
        want.raw.push((direction_to(&e["side"]), e["hex"].as_str().unwrap().into()));
    }
    for e in events(log, "spawned") {
        let (parent, name) = e["node"].as_str().unwrap().rsplit_once('/').unwrap();
        assert_eq!(parent, "World/Spawned");
        let s = &e["state"];
        want.spawns.push((
            name.into(),
            "World/Spawner".into(),
            e["scene"].as_str().map(String::from),
            ["position", "hp", "label"].iter().map(|p| s[p].as_str().unwrap().into()).collect(),
        ));
    }
    for e in events(log, "synchronized") {
        want.syncs.push(vec![e["state"]["position"].as_str().unwrap().into()]);
    }
    for e in events(log, "delta_synchronized") {
        want.deltas.push(vec![e["state"]["hp"].as_str().unwrap().into()]);
    }
    for e in events(log, "despawned") {
        want.despawned.push(e["node"].as_str().unwrap().rsplit_once('/').unwrap().1.into());
    }
    want
}

#[test]
fn every_call_spawn_and_sync_the_engines_logged_is_on_the_wire_exact() {
    let log = log();
    let file = corpus("godot4_websocket_mp.pcap");
    assert!(file.len() < 1 << 20);
    let mut config = Config::new(Options::godot4());
    config.websocket_raw = true;
    let mut reader = Reader::new(&file, config).unwrap();
    let items: Vec<Item<'_>> = reader.by_ref().collect();
    let flows = reader.flows();
    assert_eq!(flows.len(), 1, "{flows:?}");
    let flow = &flows[0];
    assert_eq!(flow.carrier, Some(Carrier::WebSocket));
    assert_eq!(u64::from(flow.server.port()), log["port"].as_u64().unwrap());
    assert!(flow.server_why.contains("SYN"), "{}", flow.server_why);
    assert_eq!((flow.gaps, flow.refused, flow.skipped_bytes), ([0, 0], [0, 0], [0, 0]));
    let totals = reader.totals();
    assert_eq!(totals.file_error, None);
    assert!(totals.skipped.is_empty(), "{:?}", totals.skipped);

    // Names from the capture's own project: the method lists of player.gd (found by the
    // checksum each peer announces), the spawnable scene.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures/godot4_ws");
    let project = Arc::new(Project::read_index(&dir).unwrap());
    let rules = Rules::new().with_project(&project);
    let mut tracker =
        Tracker::new(Version::Godot4, Framing::WebSocket4, Arc::clone(rules.methods()))
            .with_project(Some(project));
    let mut seen = Seen::default();
    let (mut upgrades, mut closes, mut messages, mut peer_ids) =
        (Vec::new(), 0, [0usize; 2], Vec::new());
    for item in &items {
        let Item::WebSocket(ws) = item else { panic!("{item:?}") };
        let bytes = match &ws.event {
            WsEvent::Binary(bytes) => bytes,
            WsEvent::Upgrade(line) => {
                upgrades.push((ws.direction, line.to_string()));
                continue;
            }
            WsEvent::Close { code, .. } => {
                // The client closed (Godot's code 3001), the bridge answered with its code.
                assert_eq!(*code, Some(3001));
                closes += 1;
                continue;
            }
            other => panic!("{other:?}"),
        };
        messages[ws.direction.index()] += 1;
        let message = tracker.message(ws.direction, 0, bytes).unwrap_or_else(|refusal| {
            panic!("{} {}: {refusal}", ws.direction.name(), hex::encode(bytes))
        });
        let client = log["client_id"].as_i64().unwrap() as i32;
        let expected = match ws.direction {
            Direction::ToServer => (client, 1),
            Direction::ToClient => (1, client),
        };
        assert_eq!((message.from, message.to), expected);
        if let Some(call) = &message.call {
            assert!(call.canonical);
            seen.calls.push((
                ws.direction,
                call.node.as_deref().unwrap().into(),
                call.member.as_deref().unwrap_or_else(|| panic!("{call:?}")).into(),
                call.arguments().map(|a| var_to_bytes(a.unwrap().value)).collect(),
            ));
        }
        match message.packet {
            Packet::PeerId(id) => peer_ids.push(id),
            Packet::Godot4(Godot4Packet::Raw(raw)) => {
                seen.raw.push((ws.direction, hex::encode(raw)));
            }
            Packet::Godot4(Godot4Packet::Spawn(spawn)) => {
                let named = message.spawn.as_ref().unwrap();
                // The spawner is made in code: the project names the scene by its state.
                assert!(named.inferred);
                assert_eq!(named.properties.as_deref(), Some(&["position", "hp", "label"][..]));
                seen.spawns.push((
                    spawn.name().to_str().unwrap().into(),
                    named.spawner.unwrap().into(),
                    named.scene_path.map(String::from),
                    state(spawn.state()),
                ));
            }
            Packet::Godot4(Godot4Packet::Sync(sync)) => {
                let elements: Vec<_> = sync.elements().map(Result::unwrap).collect();
                assert_eq!(elements.len(), 1);
                assert_eq!(message.synced[0].node(), Some("Hero"));
                assert_eq!(message.synced[0].properties.as_deref(), Some(&["position"][..]));
                seen.syncs.push(state(elements[0].values()));
            }
            Packet::Godot4(Godot4Packet::DeltaSync(delta)) => {
                let elements: Vec<_> = delta.elements().map(Result::unwrap).collect();
                assert_eq!(elements.len(), 1);
                assert_eq!(message.synced[0].node(), Some("Hero"));
                assert_eq!(message.synced[0].properties.as_deref(), Some(&["hp"][..]));
                seen.deltas.push(state(elements[0].values()));
            }
            Packet::Godot4(Godot4Packet::Despawn(_)) => {
                seen.despawned.push(message.despawned.clone().unwrap());
            }
            _ => {}
        }
    }
    let want = logged(&log);
    // Each kind compared on its own first, for a readable failure; then all of it.
    assert_eq!(seen.calls, want.calls);
    assert_eq!(seen.raw, want.raw);
    assert_eq!(seen.spawns, want.spawns);
    assert_eq!(seen.syncs, want.syncs);
    assert_eq!(seen.deltas, want.deltas);
    assert_eq!(seen.despawned, want.despawned);
    assert_eq!(seen, want);
    // What each side sent is what the other received, in order; the counts.
    for (from, to, n) in [("client", "server", 20), ("server", "client", 4)] {
        let call = |e: &&Json| (e["node"].clone(), e["method"].clone(), e["args"].clone());
        let sent: Vec<_> =
            events(&log, "sent").iter().filter(|e| e["side"] == from).map(call).collect();
        let got: Vec<_> =
            events(&log, "got").iter().filter(|e| e["side"] == to).map(call).collect();
        assert_eq!(sent.len(), n);
        assert_eq!(sent, got, "{from} to {to}");
    }
    for (from, to) in [("client", "server"), ("server", "client")] {
        let raw = |event: &str, side: &str| -> Vec<Json> {
            events(&log, event)
                .iter()
                .filter(|e| e["side"] == side)
                .map(|e| e["hex"].clone())
                .collect()
        };
        assert_eq!(raw("raw_sent", from), raw("raw_got", to));
        assert_eq!(raw("raw_sent", from).len(), 1);
    }
    assert_eq!((want.syncs.len() >= 2, want.deltas.len(), want.spawns.len()), (true, 3, 1));
    // The client's id: the server's first message, as the client's engine reported it.
    let connected = events(&log, "connected");
    assert_eq!(peer_ids, vec![connected[0]["id"].as_i64().unwrap() as i32]);
    assert_eq!(tracker.client(), Some(log["client_id"].as_i64().unwrap() as i32));
    // Chromium's upgrade, the bridge's answer; the close handshake.
    assert_eq!(upgrades.len(), 2);
    assert!(upgrades[0].1.starts_with("GET /client HTTP/1.1"), "{upgrades:?}");
    assert_eq!(closes, 2);
    assert_eq!(flow.values, [messages[0] as u64, messages[1] as u64]);
}

#[test]
fn the_real_capture_converted_holds_every_binary_message_in_order() {
    let file = corpus("godot4_websocket_mp.pcap");
    let mut config = Config::new(Options::godot4());
    config.websocket_raw = true;
    let messages: Vec<(Direction, Vec<u8>)> = Reader::new(&file, config)
        .unwrap()
        .filter_map(|item| match item {
            Item::WebSocket(ws) => match ws.event {
                WsEvent::Binary(bytes) => Some((ws.direction, bytes.into_owned())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let written = write_capture(&file, Config::new(Options::godot4()), &mut out).unwrap();
    assert_eq!(written.framing, Framing::WebSocket4);
    let header = capture::header(&out).unwrap();
    assert_eq!((header.version, header.framing), (Version::Godot4, Framing::WebSocket4));
    let records: Vec<(Direction, Vec<u8>)> = capture::records(&out)
        .map(Result::unwrap)
        .map(|r| {
            assert_eq!((r.head.connection, r.head.channel), (0, 0));
            (r.head.direction, r.bytes.to_vec())
        })
        .collect();
    assert_eq!(written.records, records.len() as u64);
    assert_eq!(records.len(), 51);
    assert_eq!(records, messages);
    // The first is the server's: the client's id.
    let id = log()["client_id"].as_i64().unwrap() as i32;
    assert_eq!(records[0], (Direction::ToClient, id.to_le_bytes().to_vec()));
}
