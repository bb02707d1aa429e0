//! WebSocket over TCP: the real Godot 3.2.3 session in corpus/captures/ (every call the engine
//! logged, by node and method, arguments byte-exact and in order), and captures written by the
//! test: fragmented messages, interleaved pings, masking violations, gaps, the upgrade refused,
//! the conversion to the multiplayer crate's capture format; and captures derived from the real
//! session's messages (re-fragmented with pings between the fragments, a client frame sent
//! unmasked, a message never captured), decoded by the multiplayer tracker against the log.
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
use gdvariant_multiplayer::track::Tracker;
use gdvariant_multiplayer::{Framing, capture};
use gdvariant_pcap::{
    Carrier, Config, Direction, FlowInfo, Item, Reader, Refusal, WsError, WsEvent, write_capture,
};
use support::*;

const REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: 10.0.0.2:7000\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
const RESPONSE: &[u8] = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kGGzQVQJfsfvgE=\r\n\r\n";
const KEY: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../corpus/captures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn read(file: &[u8], config: Config) -> (Vec<Item<'_>>, Vec<FlowInfo>) {
    let mut reader = Reader::new(file, config).unwrap();
    let items: Vec<Item<'_>> = reader.by_ref().collect();
    (items, reader.flows())
}

/// One frame: FIN, opcode, payload, masked with KEY or not.
fn ws_frame(fin: bool, opcode: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mut out = vec![if fin { 0x80 } else { 0 } | opcode];
    let m = if masked { 0x80 } else { 0 };
    match payload.len() {
        n if n < 126 => out.push(m | n as u8),
        n if n <= 0xffff => {
            out.push(m | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(m | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    if masked {
        out.extend_from_slice(&KEY);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ KEY[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// A connection: handshake, the client's stream in `size`-byte segments, the server's stream
/// in one segment after each client segment's turn... (server data sent after all client data).
fn connection(client: &[u8], server: &[u8], size: usize) -> Vec<u8> {
    let mut packets = handshake();
    for (seq, bytes) in segments(client, size) {
        packets.push(data(seq, &bytes));
    }
    for (i, chunk) in server.chunks(size).enumerate() {
        let seq = 5001 + (i * size) as u32;
        packets.push(tcp(SERVER, CLIENT, seq, Flags { ack: true, ..Flags::default() }, chunk));
    }
    pcap(1, &packets)
}

fn events<'a>(items: &'a [Item<'a>]) -> Vec<(Direction, &'a WsEvent<'a>)> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::WebSocket(ws) => Some((ws.direction, &ws.event)),
            _ => None,
        })
        .collect()
}

fn ints(items: &[Item<'_>]) -> Vec<(Direction, i64)> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::Value(v) => Some((v.direction, v.value().unwrap().as_int()?)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_real_godot3_session_every_logged_call_in_order_byte_exact() {
    let file = corpus("godot3_websocket_mp.pcap");
    let log: serde_json::Value =
        serde_json::from_slice(&corpus("godot3_websocket_mp.json")).unwrap();
    let mut config = Config::new(Options::godot3());
    config.websocket_raw = true;
    let (items, flows) = read(&file, config);
    assert_eq!(flows.len(), 1, "{flows:?}");
    assert_eq!(flows[0].carrier, Some(Carrier::WebSocket));
    assert!(flows[0].why.contains("Upgrade: websocket"), "{}", flows[0].why);
    let methods = Arc::new(RpcMethods::new());
    let mut tracker = Tracker::new(Version::Godot3, Framing::WebSocket3, methods);
    // (side that received it, node, method, argument bytes)
    let mut seen: Vec<(String, String, String, Vec<String>)> = Vec::new();
    let mut upgrades = 0;
    for item in &items {
        let Item::WebSocket(ws) = item else { panic!("{item:?}") };
        match &ws.event {
            WsEvent::Binary(bytes) => {
                let message = tracker.message(ws.direction, 0, bytes).unwrap();
                if let Some(call) = &message.call {
                    let side = match ws.direction {
                        Direction::ToServer => "server",
                        Direction::ToClient => "client",
                    };
                    let args = call.arguments().map(|a| hex::encode(a.unwrap().bytes)).collect();
                    seen.push((
                        side.into(),
                        call.node.as_deref().unwrap().into(),
                        call.member.as_deref().unwrap().into(),
                        args,
                    ));
                }
            }
            WsEvent::Upgrade(_) => upgrades += 1,
            WsEvent::Ping(_) | WsEvent::Pong(_) | WsEvent::Close { .. } => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(upgrades, 2);
    let logged = log["calls"].as_array().unwrap();
    for side in ["server", "client"] {
        let want: Vec<(String, String, String, Vec<String>)> = logged
            .iter()
            .filter(|c| c["side"] == side)
            .map(|c| {
                (
                    side.into(),
                    c["node"].as_str().unwrap().into(),
                    c["method"].as_str().unwrap().into(),
                    c["args"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|a| a.as_str().unwrap().into())
                        .collect(),
                )
            })
            .collect();
        let got: Vec<_> = seen.iter().filter(|c| c.0 == side).cloned().collect();
        assert!(!want.is_empty());
        assert_eq!(got, want, "{side}");
    }
}

#[test]
fn the_real_session_converted_to_a_multiplayer_capture() {
    let file = corpus("godot3_websocket_mp.pcap");
    let mut out = Vec::new();
    let written = write_capture(&file, Config::new(Options::godot3()), &mut out).unwrap();
    assert_eq!(written.framing, Framing::WebSocket3);
    let header = capture::header(&out).unwrap();
    assert_eq!((header.version, header.framing), (Version::Godot3, Framing::WebSocket3));
    let records: Vec<_> = capture::records(&out).map(Result::unwrap).collect();
    assert_eq!(records.len() as u64, written.records);
    assert!(records.len() > 12);
    assert!(records.windows(2).all(|w| w[0].head.micros <= w[1].head.micros));
    assert!(records.iter().all(|r| r.head.connection == 0 && r.head.channel == 0));
}

#[test]
fn fragments_pings_between_them_and_close() {
    let one = int(1);
    let two = int(2);
    let mut client = REQUEST.to_vec();
    client.extend(ws_frame(true, 2, &one, true));
    // int(2) in three fragments, a ping and a pong between them.
    client.extend(ws_frame(false, 2, &two[..3], true));
    client.extend(ws_frame(true, 9, b"hi", true));
    client.extend(ws_frame(false, 0, &two[3..5], true));
    client.extend(ws_frame(true, 10, b"", true));
    client.extend(ws_frame(true, 0, &two[5..], true));
    client.extend(ws_frame(true, 1, "text é".as_bytes(), true));
    let mut close = 1000u16.to_be_bytes().to_vec();
    close.extend_from_slice(b"bye");
    client.extend(ws_frame(true, 8, &close, true));
    let mut server = RESPONSE.to_vec();
    let big: Vec<u8> = {
        // A PackedByteArray of 70,000 bytes: a 64-bit length.
        let mut v = vec![29, 0, 0, 0];
        v.extend_from_slice(&70_000u32.to_le_bytes());
        v.extend((0..70_000u32).map(|i| (i % 251) as u8));
        v
    };
    server.extend(ws_frame(true, 2, &int(3), false));
    server.extend(ws_frame(true, 2, &big, false));
    server.extend(ws_frame(true, 2, &[0xff; 4], false));
    for size in [1, 7, 1448] {
        let file = connection(&client, &server, size);
        // Detection needs the request's header in the first segment: smaller ones are forced.
        let mut config = Config::new(Options::godot4());
        if size < REQUEST.len() {
            config = config.with_port(7000, Carrier::WebSocket);
        }
        let (items, flows) = read(&file, config);
        assert_eq!(flows[0].carrier, Some(Carrier::WebSocket));
        assert_eq!(
            ints(&items),
            vec![(Direction::ToServer, 1), (Direction::ToServer, 2), (Direction::ToClient, 3)],
            "{size}"
        );
        let big_value = items.iter().find_map(|i| match i {
            Item::Value(v) if v.bytes.len() == big.len() => Some(v),
            _ => None,
        });
        assert_eq!(big_value.unwrap().bytes.as_ref(), big.as_slice());
        let refused = items
            .iter()
            .filter(|i| matches!(i, Item::Refused(r) if matches!(r.refusal, Refusal::Message(_))))
            .count();
        assert_eq!(refused, 1);
        let ev = events(&items);
        let want = vec![
            (Direction::ToServer, WsEvent::Upgrade("GET / HTTP/1.1".into())),
            (Direction::ToServer, WsEvent::Ping(2)),
            (Direction::ToServer, WsEvent::Pong(0)),
            (Direction::ToServer, WsEvent::Text("text é".into())),
            (Direction::ToServer, WsEvent::Close { code: Some(1000), reason: "bye".into() }),
            (Direction::ToClient, WsEvent::Upgrade("HTTP/1.1 101 Switching Protocols".into())),
        ];
        let ev: Vec<(Direction, WsEvent<'_>)> =
            ev.into_iter().map(|(d, e)| (d, e.clone())).collect();
        assert_eq!(ev, want, "{size}");
    }
    // Large segments: the server's single-frame values within one are borrowed from the capture.
    let file = connection(&client, &server, 60_000);
    let (items, _) = read(&file, Config::new(Options::godot4()));
    let borrowed = items
        .iter()
        .filter(|i| matches!(i, Item::Value(v) if matches!(v.bytes, std::borrow::Cow::Borrowed(_))))
        .count();
    assert!(borrowed >= 1);
}

fn first_error(items: &[Item<'_>]) -> Option<(Direction, WsError)> {
    items.iter().find_map(|i| match i {
        Item::WebSocket(ws) => match &ws.event {
            WsEvent::Error(e) => Some((ws.direction, e.clone())),
            _ => None,
        },
        _ => None,
    })
}

#[test]
fn masking_violations_are_reported_and_end_the_direction() {
    // A client frame not masked.
    let mut client = REQUEST.to_vec();
    client.extend(ws_frame(true, 2, &int(1), true));
    client.extend(ws_frame(true, 2, &int(2), false));
    client.extend(ws_frame(true, 2, &int(3), true));
    let mut server = RESPONSE.to_vec();
    server.extend(ws_frame(true, 2, &int(4), false));
    // A server frame masked.
    server.extend(ws_frame(true, 2, &int(5), true));
    server.extend(ws_frame(true, 2, &int(6), false));
    let file = connection(&client, &server, 1448);
    let (items, flows) = read(&file, Config::new(Options::godot4()));
    assert_eq!(ints(&items), vec![(Direction::ToServer, 1), (Direction::ToClient, 4)]);
    let errors: Vec<_> = items
        .iter()
        .filter_map(|i| match i {
            Item::WebSocket(ws) => match &ws.event {
                WsEvent::Error(e) => Some((ws.direction, e.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(
        errors,
        vec![
            (Direction::ToServer, WsError::Masking { masked: false }),
            (Direction::ToClient, WsError::Masking { masked: true }),
        ]
    );
    assert_eq!(flows[0].refused, [1, 1]);
    // The refused frame and what followed it were passed over, counted: 10 + 14 and 14 + 10.
    assert_eq!(flows[0].skipped_bytes, [24, 24]);
}

#[test]
fn a_gap_ends_the_direction_never_misread() {
    let mut client = REQUEST.to_vec();
    client.extend(ws_frame(true, 2, &int(1), true));
    let lost_at = client.len();
    client.extend(ws_frame(true, 2, &int(2), true));
    client.extend(ws_frame(true, 2, &int(3), true));
    let mut packets = handshake();
    // The second frame's segment is lost.
    packets.push(data(1001, &client[..lost_at]));
    let second = ws_frame(true, 2, &int(2), true).len();
    packets.push(data(1001 + (lost_at + second) as u32, &client[lost_at + second..]));
    let file = pcap(1, &packets);
    let (items, flows) = read(&file, Config::new(Options::godot4()));
    assert_eq!(ints(&items), vec![(Direction::ToServer, 1)]);
    let gap = items.iter().find_map(|i| match i {
        Item::Gap(g) => Some(*g),
        _ => None,
    });
    let gap = gap.unwrap();
    assert_eq!((gap.missing, gap.resynced), (second as u64, false));
    assert_eq!(flows[0].skipped_bytes[0], (client.len() - lost_at - second) as u64);
}

#[test]
fn protocol_errors() {
    let cases: Vec<(Vec<u8>, WsError)> = vec![
        (ws_frame(true, 0, &int(1), true), WsError::Continuation),
        (
            [ws_frame(false, 2, &[2, 0], true), ws_frame(true, 2, &[0; 6], true)].concat(),
            WsError::Interrupted,
        ),
        (ws_frame(true, 3, b"", true), WsError::Opcode(3)),
        (ws_frame(false, 9, b"", true), WsError::ControlFragmented(9)),
        (ws_frame(true, 9, &[0; 126], true), WsError::ControlTooLong(126)),
        (vec![0xc2, 0x80, 1, 2, 3, 4], WsError::Reserved(0x40)),
        (ws_frame(true, 8, &[3], true), WsError::BadClose),
        (
            [ws_frame(true, 8, b"", true), ws_frame(true, 2, &int(1), true)].concat(),
            WsError::AfterClose,
        ),
        (
            [&[0x82u8, 0xff][..], &u64::MAX.to_be_bytes()[..], &KEY[..]].concat(),
            WsError::TooLarge { size: u64::MAX, limit: 16 << 20 },
        ),
    ];
    for (frames, want) in cases {
        let mut client = REQUEST.to_vec();
        client.extend(frames);
        let file = connection(&client, RESPONSE, 1448);
        let (items, _) = read(&file, Config::new(Options::godot4()));
        assert_eq!(first_error(&items), Some((Direction::ToServer, want.clone())), "{want}");
    }
    // The server refuses the upgrade.
    let file = connection(REQUEST, b"HTTP/1.1 400 Bad Request\r\n\r\n", 1448);
    let (items, _) = read(&file, Config::new(Options::godot4()));
    assert!(matches!(first_error(&items), Some((Direction::ToClient, WsError::Handshake(_)))));
    // A header that never ends.
    let mut endless = b"GET / HTTP/1.1\r\nUpgrade: websocket\r\n".to_vec();
    endless.extend(std::iter::repeat_n(b'a', 20_000));
    let file = connection(&endless, b"", 1448);
    let (items, _) =
        read(&file, Config::new(Options::godot4()).with_port(7000, Carrier::WebSocket));
    assert_eq!(first_error(&items), Some((Direction::ToServer, WsError::HeaderTooLong(16 << 10))));
}

#[test]
fn a_message_cut_by_the_end_and_a_forced_port() {
    let mut client = REQUEST.to_vec();
    client.extend(ws_frame(false, 2, &[2, 0], true));
    // Forced as WebSocket though detection would say so too; the flow's why says the port.
    let file = connection(&client, RESPONSE, 1448);
    let (items, flows) =
        read(&file, Config::new(Options::godot4()).with_port(7000, Carrier::WebSocket));
    assert_eq!(flows[0].why, "port 7000 given");
    assert!(items.iter().any(|i| matches!(i, Item::Cut(c) if c.held == 2)), "{items:?}");
    // Not an upgrade: put_var detection is unchanged.
    let file = connection(&frame(&int(9)), b"", 1448);
    let (items, flows) = read(&file, Config::new(Options::godot4()));
    assert_eq!(flows[0].carrier, Some(Carrier::PutVar));
    assert_eq!(ints(&items), vec![(Direction::ToServer, 9)]);
}

/// The real session's binary messages, in order, with their directions.
fn real_messages() -> Vec<(Direction, Vec<u8>)> {
    let file = corpus("godot3_websocket_mp.pcap");
    let mut config = Config::new(Options::godot3());
    config.websocket_raw = true;
    let (items, _) = read(&file, config);
    items
        .iter()
        .filter_map(|i| match i {
            Item::WebSocket(ws) => match &ws.event {
                WsEvent::Binary(b) => Some((ws.direction, b.to_vec())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The calls (direction, node, method, argument hexes) a Godot 3 tracker reads in `items`.
fn calls3(items: &[Item<'_>]) -> Vec<(Direction, String, String, Vec<String>)> {
    let mut tracker =
        Tracker::new(Version::Godot3, Framing::WebSocket3, Arc::new(RpcMethods::new()));
    let mut out = Vec::new();
    for item in items {
        let Item::WebSocket(ws) = item else { continue };
        let WsEvent::Binary(bytes) = &ws.event else { continue };
        let message = tracker.message(ws.direction, 0, bytes).unwrap();
        if let Some(call) = &message.call {
            out.push((
                ws.direction,
                call.node.as_deref().unwrap().to_owned(),
                call.member.as_deref().unwrap().to_owned(),
                call.arguments().map(|a| hex::encode(a.unwrap().bytes)).collect(),
            ));
        }
    }
    out
}

/// The real session's messages re-framed: each client message in fragments of `piece` bytes
/// with a ping after each fragment, `broken` (a client message index) sent unmasked.
fn derived(piece: usize, broken: Option<usize>) -> (Vec<u8>, Vec<u8>, Vec<usize>) {
    let mut client = REQUEST.to_vec();
    let mut server = RESPONSE.to_vec();
    let mut starts = Vec::new();
    let mut k = 0;
    for (direction, message) in real_messages() {
        if direction == Direction::ToClient {
            server.extend(ws_frame(true, 2, &message, false));
            continue;
        }
        starts.push(client.len());
        let chunks: Vec<&[u8]> = message.chunks(piece).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let op = if i == 0 { 2 } else { 0 };
            client.extend(ws_frame(i + 1 == chunks.len(), op, chunk, broken != Some(k)));
            client.extend(ws_frame(true, 9, b"p", true));
        }
        k += 1;
    }
    starts.push(client.len());
    (client, server, starts)
}

fn logged_calls(direction: Direction) -> Vec<(Direction, String, String, Vec<String>)> {
    let log: serde_json::Value =
        serde_json::from_slice(&corpus("godot3_websocket_mp.json")).unwrap();
    let side = if direction == Direction::ToServer { "server" } else { "client" };
    log["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["side"] == side)
        .map(|c| {
            let args = c["args"].as_array().unwrap();
            (
                direction,
                c["node"].as_str().unwrap().to_owned(),
                c["method"].as_str().unwrap().to_owned(),
                args.iter().map(|a| a.as_str().unwrap().to_owned()).collect(),
            )
        })
        .collect()
}

fn raw_config() -> Config {
    let mut config = Config::new(Options::godot3());
    config.websocket_raw = true;
    config
}

#[test]
fn derived_from_the_real_session_fragments_and_pings() {
    let (client, server, _) = derived(5, None);
    let file = connection(&client, &server, 1448);
    let (items, _) = read(&file, raw_config());
    let calls = calls3(&items);
    for direction in [Direction::ToServer, Direction::ToClient] {
        let got: Vec<_> = calls.iter().filter(|c| c.0 == direction).cloned().collect();
        assert_eq!(got, logged_calls(direction), "{direction:?}");
    }
    let pings = events(&items).iter().filter(|(_, e)| matches!(e, WsEvent::Ping(1))).count();
    assert!(pings > 100, "{pings}");
}

#[test]
fn derived_from_the_real_session_an_unmasked_client_frame() {
    // The client's fourth message (its third call) sent unmasked: the calls before it stand,
    // nothing after it is read; the server's direction is untouched.
    let (client, server, _) = derived(1 << 20, Some(3));
    let file = connection(&client, &server, 1448);
    let (items, _) = read(&file, raw_config());
    assert_eq!(
        first_error(&items),
        Some((Direction::ToServer, WsError::Masking { masked: false }))
    );
    let calls = calls3(&items);
    let to_server: Vec<_> = calls.iter().filter(|c| c.0 == Direction::ToServer).cloned().collect();
    assert_eq!(to_server, logged_calls(Direction::ToServer)[..2].to_vec());
    let to_client: Vec<_> = calls.iter().filter(|c| c.0 == Direction::ToClient).cloned().collect();
    assert_eq!(to_client, logged_calls(Direction::ToClient));
}

#[test]
fn derived_from_the_real_session_a_gap() {
    // The client's fourth message is never captured: a gap that does not resync, the calls
    // before it stand, nothing after it is misread.
    let (client, server, starts) = derived(1 << 20, None);
    let (lost_from, lost_to) = (starts[3], starts[4]);
    let mut packets = handshake();
    packets.push(data(1001, &client[..lost_from]));
    for (i, chunk) in client[lost_to..].chunks(1448).enumerate() {
        packets.push(data(1001 + (lost_to + i * 1448) as u32, chunk));
    }
    for (i, chunk) in server.chunks(1448).enumerate() {
        let seq = 5001 + (i * 1448) as u32;
        packets.push(tcp(SERVER, CLIENT, seq, Flags { ack: true, ..Flags::default() }, chunk));
    }
    let file = pcap(1, &packets);
    let (items, flows) = read(&file, raw_config());
    let gap = items.iter().find_map(|i| match i {
        Item::Gap(g) => Some(*g),
        _ => None,
    });
    let gap = gap.unwrap();
    assert_eq!(
        (gap.direction, gap.missing, gap.resynced),
        (Direction::ToServer, (lost_to - lost_from) as u64, false)
    );
    let calls = calls3(&items);
    let to_server: Vec<_> = calls.iter().filter(|c| c.0 == Direction::ToServer).cloned().collect();
    assert_eq!(to_server, logged_calls(Direction::ToServer)[..2].to_vec());
    assert_eq!(flows[0].skipped_bytes[0], (client.len() - lost_to) as u64);
}

#[test]
#[cfg(feature = "work-counter")]
fn mutated_streams_never_panic_and_stay_linear() {
    // Valid sessions with bytes flipped, cut into random segments: whatever the damage, the
    // reader hands out items without panicking, in work linear in the bytes.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (client, server, _) = derived(7, None);
    for round in 0..200 {
        let mut c = client.clone();
        let mut s = server.clone();
        for _ in 0..(next() % 8) {
            let at = (next() as usize) % c.len();
            c[at] ^= 1 << (next() % 8);
            let at = (next() as usize) % s.len();
            s[at] ^= 1 << (next() % 8);
        }
        let size = 1 + (next() as usize) % 3000;
        let file = connection(&c, &s, size);
        let config = raw_config().with_port(7000, Carrier::WebSocket);
        let (items, units) = gdvariant::work::measure(|| read(&file, config).0.len());
        assert!(items > 0, "{round}");
        assert!(units <= 8 * file.len() as u64 + 10_000, "{round}: {units} units");
    }
}
