//! The Godot version told per flow: the real Godot 3 captures of `corpus/captures/` (TCP
//! `put_var`, WebSocket, ENet) read with the default (Godot 4) come out as Godot 3, each
//! value and message as `--godot 3` reads it; Godot 4 captures derived from the engine's own
//! bytes (`corpus/godot4/`) read with a Godot 3 default come out as Godot 4; a given version
//! is kept.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod support;

use gdvariant::{Options, Version};
use gdvariant_pcap::{Carrier, Config, FlowInfo, Item, Reader, WsEvent, version};
use support::*;

fn corpus(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../corpus/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// What each item says, as text (the value items with their version), and the flows.
fn read(file: &[u8], config: Config) -> (Vec<String>, Vec<FlowInfo>) {
    let mut reader = Reader::new(file, config).unwrap();
    let items = reader
        .by_ref()
        .map(|item| match item {
            // A value that means the same in both versions (type ids 0 to 5) may come before
            // its flow's version is told: it carries the default then.
            Item::Value(v) if gdvariant::detect(&v.bytes).same_meaning() => {
                format!("value either {}", hex::encode(&v.bytes))
            }
            Item::Value(v) => format!("value {:?} {}", v.options.version(), hex::encode(&v.bytes)),
            Item::Refused(r) => format!("refused {}", r.refusal),
            Item::Enet(m) => format!("enet {:?} {}", m.version, hex::encode(&m.bytes)),
            Item::WebSocket(ws) => match &ws.event {
                WsEvent::Binary(bytes) => format!("binary {:?} {}", ws.version, hex::encode(bytes)),
                other => format!("{other:?}"),
            },
            other => format!("{other:?}"),
        })
        .collect();
    (items, reader.flows())
}

fn given(version: Version) -> Config {
    let mut config = Config::new(Options::new(version));
    config.detect_version = false;
    config
}

#[test]
fn the_real_godot3_captures_are_told_godot3_without_being_given() {
    for (name, carrier, why) in [
        ("godot3_tcp_put_var.pcap", Carrier::PutVar, "Godot 3"),
        ("godot3_websocket_mp.pcap", Carrier::WebSocket, "Godot 3's 9-byte header"),
        ("godot3_enet_multiplayer.pcap", Carrier::Enet, "Godot 3"),
    ] {
        let file = corpus(&format!("captures/{name}"));
        let mut config = Config::new(Options::godot4());
        config.websocket_raw = true;
        let (detected, flows) = read(&file, config);
        let mut godot3 = given(Version::Godot3);
        godot3.websocket_raw = true;
        let (forced, _) = read(&file, godot3);
        // Every item as Godot 3 reads it, in the same order.
        assert_eq!(detected, forced, "{name}");
        let carrying: Vec<&FlowInfo> =
            flows.iter().filter(|f| f.carrier == Some(carrier)).collect();
        assert!(!carrying.is_empty(), "{name}");
        for flow in carrying {
            assert_eq!(flow.version, Version::Godot3, "{name}: {}", flow.version_why);
            assert!(flow.version_why.contains(why), "{name}: {}", flow.version_why);
        }
        // Given Godot 4, Godot 4 it is (and the put_var capture's Godot 3 values are refused).
        let (as4, flows) = read(&file, given(Version::Godot4));
        assert!(flows.iter().all(|f| f.version == Version::Godot4 && f.version_why == "given"));
        if carrier == Carrier::PutVar {
            assert_ne!(as4, forced);
        }
    }
}

#[test]
fn a_godot4_put_var_stream_is_told_on_its_first_godot4_only_value() {
    // Godot 4.6's bytes: ints (the same in both), then a Dictionary (type id 27, Godot 4 only),
    // then a Vector2i, which Godot 3 reads as a Rect2 of another size.
    let dict = corpus("godot4/dict_order.bin");
    let vector2i = corpus("godot4/vector2i_basic.bin");
    let mut stream = Vec::new();
    for value in [int(1), int(2), dict.clone(), vector2i.clone(), int(3)] {
        stream.extend(frame(&value));
    }
    for size in [7, 1000] {
        let mut packets = handshake();
        packets.extend(segments(&stream, size).iter().map(|(seq, bytes)| data(*seq, bytes)));
        let file = pcap(1, &packets);
        let (items, flows) = read(&file, Config::new(Options::godot3()));
        let expected = vec![
            format!("value either {}", hex::encode(int(1))),
            format!("value either {}", hex::encode(int(2))),
            format!("value Godot4 {}", hex::encode(&dict)),
            format!("value Godot4 {}", hex::encode(&vector2i)),
            format!("value either {}", hex::encode(int(3))),
        ];
        assert_eq!(items, expected, "segments of {size}");
        assert_eq!(flows[0].version, Version::Godot4);
        assert!(flows[0].version_why.contains("type id 27"), "{}", flows[0].version_why);
        assert_eq!(flows[0].values, [5, 0]);
        assert_eq!(flows[0].refused, [0, 0]);
        // Given Godot 3: the dictionary is refused.
        let (items, _) = read(&file, given(Version::Godot3));
        assert!(items[2].starts_with("refused"), "{items:?}");
    }
}

#[test]
fn datagrams_are_told_per_flow() {
    let dict = corpus("godot4/dict_order.bin");
    // Godot 3's Dictionary {"a": 1} (type id 18): Godot 4's id 18 is a Projection.
    let dict3 =
        [&[18u8, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0][..], &int(1)].concat();
    let other = ([10, 0, 0, 3], 40000);
    let packets = vec![
        udp(CLIENT, SERVER, &int(5)),
        udp(CLIENT, SERVER, &dict),
        udp(other, SERVER, &dict3),
        udp(other, SERVER, &int(6)),
    ];
    let file = pcap(1, &packets);
    let (items, flows) = read(&file, Config::new(Options::godot4()));
    // The second flow's first datagram tells: Godot 3 from the first.
    assert_eq!(
        items,
        vec![
            format!("value either {}", hex::encode(int(5))),
            format!("value Godot4 {}", hex::encode(&dict)),
            format!("value Godot3 {}", hex::encode(&dict3)),
            format!("value either {}", hex::encode(int(6))),
        ]
    );
    assert_eq!(flows[0].version, Version::Godot4);
    assert_eq!(flows[1].version, Version::Godot3);
    assert!(flows[1].version_why.contains("Godot 3"), "{}", flows[1].version_why);
}

#[test]
fn values_that_never_tell_keep_the_default_after_the_looks() {
    let stream: Vec<u8> = (0..40).flat_map(|i| frame(&int(i))).collect();
    let mut packets = handshake();
    packets.extend(segments(&stream, 100).iter().map(|(seq, bytes)| data(*seq, bytes)));
    let file = pcap(1, &packets);
    let (_, flows) = read(&file, Config::new(Options::godot3()));
    assert_eq!(flows[0].version, Version::Godot3);
    assert_eq!(
        flows[0].version_why,
        format!(
            "the default: none of the first {} payloads told the versions apart",
            version::MAX_LOOKS
        )
    );
}

#[test]
fn multiplayer_messages_are_told_by_their_framing() {
    // Godot 4 over WebSocket: the server's first message is the client's id.
    let told = version::of_websocket(gdvariant_pcap::Direction::ToClient, &7i32.to_le_bytes());
    assert_eq!(told.map(|t| t.0), Some(Version::Godot4));
    // Godot 3 over WebSocket: "your id" (type 3) in the 9-byte header.
    let mut id3 = vec![3, 1, 0, 0, 0, 7, 0, 0, 0];
    id3.extend_from_slice(&7i32.to_le_bytes());
    let told = version::of_websocket(gdvariant_pcap::Direction::ToClient, &id3);
    assert_eq!(told.map(|t| t.0), Some(Version::Godot3));
    // Godot 4 over ENet: a RAW packet; Godot 3: the client's id first, then a RAW packet.
    let told = version::of_enet(gdvariant_pcap::Direction::ToServer, 1, &[3, b'h', b'i'], Some(7));
    assert_eq!(told.map(|t| t.0), Some(Version::Godot4));
    let mut raw3 = 7u32.to_le_bytes().to_vec();
    raw3.extend_from_slice(&[1, 0, 0, 0, 3, b'h', b'i']);
    let told = version::of_enet(gdvariant_pcap::Direction::ToServer, 1, &raw3, Some(7));
    assert_eq!(told.map(|t| t.0), Some(Version::Godot3));
    // Neither: nothing told.
    assert_eq!(version::of_enet(gdvariant_pcap::Direction::ToServer, 1, &[0xff; 3], None), None);
}

#[test]
fn an_enet_flow_whose_first_message_tells_nothing_keeps_the_default() {
    let mut connect = vec![0x0F, 0xFF, 0x82, 0xFF, 0, 1, 0x0F, 0xFF, 0, 0];
    for n in [1400u32, 32768, 3, 0, 0, 5000, 2, 2, 0x1234, 7] {
        connect.extend_from_slice(&n.to_be_bytes());
    }
    // SEND_RELIABLE on channel 1: three bytes neither version reads, then a Godot 4 RAW.
    let send = |sequence: u8, payload: &[u8]| {
        let mut out = vec![0, 0, 0x86, 1, 0, sequence, 0, payload.len() as u8];
        out.extend_from_slice(payload);
        out
    };
    let file = pcap(
        1,
        &[
            udp(CLIENT, SERVER, &connect),
            udp(CLIENT, SERVER, &send(1, &[0xff; 3])),
            udp(CLIENT, SERVER, &send(2, &[3, b'h', b'i'])),
        ],
    );
    let (items, flows) = read(&file, Config::new(Options::godot3()));
    assert_eq!(items, vec!["enet Godot3 ffffff".to_string(), "enet Godot3 036869".to_string()]);
    assert_eq!(flows[0].version, Version::Godot3);
    assert_eq!(flows[0].version_why, version::NEITHER);
}
