//! Multiplayer packets built to hurt: every truncation of every real-engine packet, counts and
//! widths that lie, path offsets pointing anywhere, relays nested ten thousand deep, capture
//! records that lie about their length, and sessions flooded with ids. Nothing panics, every
//! error points inside the input, decoding allocates nothing, and a session never keeps more
//! than its limits.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use allocation_counter::measure;
use common::multiplayer as corpus;
use gdvariant::{ErrorKind, Options};
use gdvariant_multiplayer::godot4::{self, Godot4Packet, NodeAddress, Sys};
use gdvariant_multiplayer::session::{
    Limits, MethodList, Route, RpcMethods, Session3, Session4, SessionError,
};
use gdvariant_multiplayer::transport::{enet3, websocket3};
use gdvariant_multiplayer::{PacketErrorKind, capture, godot3};

/// Decodes and validates a Godot 4 packet, walking every part: the verdict's error, if any.
/// Asserts that every error points inside the input.
fn verdict4(bytes: &[u8], options: Options) -> Result<(), gdvariant_multiplayer::PacketError> {
    let result = godot4::decode(bytes, options).and_then(|packet| {
        if let Godot4Packet::Sys(Sys::Relay(relay)) = packet {
            assert!(relay.packet().is_ok());
        }
        packet.validate()
    });
    if let Err(error) = &result {
        assert!(error.offset() <= bytes.len(), "{error} for {} bytes", bytes.len());
    }
    result
}

/// The same for Godot 3.
fn verdict3(bytes: &[u8], options: Options) -> Result<(), gdvariant_multiplayer::PacketError> {
    let result = godot3::decode(bytes, options).and_then(|packet| packet.validate());
    if let Err(error) = &result {
        assert!(error.offset() <= bytes.len(), "{error} for {} bytes", bytes.len());
    }
    result
}

#[test]
fn every_truncation_of_every_real_engine_packet_is_read_without_panic_or_allocation() {
    let mut prefixes = 0;
    let mut refused = 0;
    for record in corpus::godot4() {
        let bytes = corpus::bytes(&record);
        let options = Options::godot4().with_allow_objects(true);
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            let info = measure(|| {
                let _ = verdict4(prefix, options);
            });
            assert_eq!(info.count_total, 0, "allocated decoding {}", record["hex"]);
            refused += usize::from(verdict4(prefix, options).is_err());
            prefixes += 1;
        }
    }
    for transport in ["enet", "websocket"] {
        for record in corpus::godot3(transport) {
            let bytes = corpus::bytes(&record);
            for cut in 0..bytes.len() {
                let prefix = &bytes[..cut];
                let info = measure(|| {
                    let _ = verdict3(prefix, Options::godot3());
                    let _ = enet3::decode(prefix, 1);
                    let _ = websocket3::decode(prefix);
                });
                assert_eq!(info.count_total, 0);
                if let Some((_, _, payload)) = corpus::payload3(transport, &record) {
                    let cut = cut.min(payload.len());
                    refused += usize::from(verdict3(&payload[..cut], Options::godot3()).is_err());
                }
                prefixes += 1;
            }
        }
    }
    assert!(prefixes > 50_000 && refused > prefixes / 2, "{prefixes} prefixes, {refused} refused");
}

#[test]
fn a_truncated_rpc_is_refused_where_its_bytes_run_out() {
    // rpc("m", 300, "hi") on cached node 1, method 0: every cut is refused, at the end or at
    // the argument Godot cannot read.
    let mut packet = Vec::new();
    let hi = gdvariant::Variant::from("hi");
    let args = [godot4::write::Arg::Int(300), godot4::write::Arg::Variant(&hi)];
    godot4::write::rpc(
        &mut packet,
        godot4::write::Target::Cached(1),
        0,
        &args,
        gdvariant::EncodeOptions::godot4(),
    )
    .unwrap();
    assert_eq!(
        packet,
        [0x00, 0x01, 0x00, 0x02, 0x42, 0x2C, 0x01, 0x04, 0, 0, 0, 0x02, 0, 0, 0, b'h', b'i', 0, 0]
    );
    for cut in 0..packet.len() {
        let error = verdict4(&packet[..cut], Options::godot4()).unwrap_err();
        // The field the cut falls in: the header, the count, the first argument, the second.
        let field = match cut {
            0..=2 => 0,
            3 => 3,
            4..=6 => 4,
            _ => 7,
        };
        assert!(error.offset() >= field && error.offset() <= cut, "cut {cut}: {error}");
    }
}

#[test]
fn counts_and_sizes_that_lie_are_refused_before_anything_is_read_for_them() {
    let spawn = |sync_count: u32, name_len: u32, tail: &[u8]| {
        let mut p = vec![0x04, 0x00];
        for v in [1u32, 7, sync_count, name_len] {
            p.extend_from_slice(&v.to_le_bytes());
        }
        p.extend_from_slice(tail);
        p
    };
    for (sync_count, name_len) in
        [(u32::MAX, 4), (0x4000_0000, 5), (0, u32::MAX), (u32::MAX, u32::MAX), (1, 4)]
    {
        let packet = spawn(sync_count, name_len, b"Big\0");
        let info = measure(|| {
            let error = verdict4(&packet, Options::godot4()).unwrap_err();
            assert_eq!(
                error.kind(),
                PacketErrorKind::BadSize { size: error_size(&error) },
                "{sync_count} {name_len}"
            );
        });
        assert_eq!(info.count_total, 0);
    }
    // A custom spawn argument claiming 4 GiB.
    let mut custom = spawn(0, 4, b"Big\0");
    custom[1] = 0xFF;
    custom.extend_from_slice(&u32::MAX.to_le_bytes());
    custom.extend_from_slice(&[0x02, 0x07]);
    assert!(matches!(
        verdict4(&custom, Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::BadSize { size: u32::MAX }
    ));
    // A sync element claiming 4 GiB, after a good one.
    let mut sync = vec![0x06, 0x01, 0x00];
    sync.extend_from_slice(&2u32.to_le_bytes());
    sync.extend_from_slice(&2u32.to_le_bytes());
    sync.extend_from_slice(&[0x02, 0x05]);
    sync.extend_from_slice(&3u32.to_le_bytes());
    sync.extend_from_slice(&u32::MAX.to_le_bytes());
    sync.push(0x81);
    let error = verdict4(&sync, Options::godot4()).unwrap_err();
    assert_eq!((error.offset(), error.kind()), (17, PacketErrorKind::BadSize { size: u32::MAX }));
    // A delta element whose size covers more than its values, and one whose mask is empty.
    let delta = |mask: u64, size: u32, values: &[u8]| {
        let mut p = vec![0x16];
        p.extend_from_slice(&2u32.to_le_bytes());
        p.extend_from_slice(&mask.to_le_bytes());
        p.extend_from_slice(&size.to_le_bytes());
        p.extend_from_slice(values);
        p
    };
    assert_eq!(verdict4(&delta(1, 2, &[0x02, 0x05]), Options::godot4()), Ok(()));
    assert!(matches!(
        verdict4(&delta(0, 2, &[0x02, 0x05]), Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::EmptyMask
    ));
    // A value cut by the element's size; a PackedByteArray whose padding the size leaves out
    // (the values end 3 bytes past it).
    assert_eq!(
        verdict4(&delta(1, 1, &[0x02, 0x05]), Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::Truncated { needed: 1 }
    );
    let bytes = [0x1D, 0, 0, 0, 1, 0, 0, 0, 0x41];
    assert_eq!(
        verdict4(&delta(1, 9, &bytes), Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::SizeMismatch { size: 9, consumed: 12 }
    );
    // An argument count of 255 with one argument: refused at the second argument.
    let error = verdict4(&[0x00, 0x01, 0x00, 0xFF, 0x02, 0x05], Options::godot4()).unwrap_err();
    assert_eq!((error.offset(), error.kind()), (6, PacketErrorKind::Truncated { needed: 1 }));
    // A node-id width of 3; a 16-bit method id with one byte.
    assert_eq!(
        verdict4(&[0x30, 0x01, 0x00, 0x00], Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::BadNodeIdWidth
    );
    assert_eq!(
        verdict4(&[0x40, 0x01, 0x00], Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::TooShort { minimum: 4 }
    );
    // An int claiming 8 bytes with 3; an array argument claiming 2^31 - 1 elements.
    assert_eq!(
        verdict4(&[0x00, 0x01, 0x00, 0x01, 0xC2, 1, 2, 3], Options::godot4()).unwrap_err().kind(),
        PacketErrorKind::Truncated { needed: 8 }
    );
    let mut array = vec![0x00, 0x01, 0x00, 0x01, 0x1C, 0, 0, 0];
    array.extend_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let info = measure(|| {
        let error = verdict4(&array, Options::godot4()).unwrap_err();
        assert!(
            matches!(error.kind(), PacketErrorKind::Value(e) if matches!(e.kind(), ErrorKind::BadCount { .. }))
        );
    });
    assert_eq!(info.count_total, 0);
    // Godot 3: a count of 255 values with one.
    let mut call = vec![0, 1, 0, 0, 0, b'f', 0, 0xFF, 2, 0, 0, 0, 5, 0, 0, 0];
    assert!(verdict3(&call, Options::godot3()).is_err());
    call[7] = 1;
    assert_eq!(verdict3(&call, Options::godot3()), Ok(()));
}

/// The size a `BadSize` error reports.
fn error_size(error: &gdvariant_multiplayer::PacketError) -> u32 {
    match error.kind() {
        PacketErrorKind::BadSize { size } => size,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_path_offset_pointing_anywhere_is_refused_or_bounds_the_arguments() {
    // rpc("r1", 5) by path: 20 <offset|bit 31> 04 01 02 05 "World/Player\0".
    let path = b"World/Player\0";
    let body = [0x04u8, 0x01, 0x02, 0x05];
    for offset in (0u32..40).chain([0x7FFF_FFFF]) {
        let mut packet = vec![0x20];
        packet.extend_from_slice(&(offset | 0x8000_0000).to_le_bytes());
        packet.extend_from_slice(&body);
        packet.extend_from_slice(path);
        let result = godot4::decode(&packet, Options::godot4());
        match offset as usize {
            o if o < 6 || o >= packet.len() => {
                let error = result.unwrap_err();
                assert_eq!(
                    (error.offset(), error.kind()),
                    (1, PacketErrorKind::PathOffset { offset }),
                    "{offset}"
                );
            }
            o => {
                // Decoded: the arguments end where the path begins, and nothing reads past it.
                let Ok(Godot4Packet::Rpc(rpc)) = result else {
                    // The count's byte lies at or past the path's start.
                    assert_eq!(o, 6, "{offset}: {result:?}");
                    continue;
                };
                let NodeAddress::Path { path: text, offset: declared } = rpc.node() else {
                    panic!()
                };
                assert_eq!((declared as usize, text.offset()), (o, o));
                for argument in rpc.arguments() {
                    match argument {
                        Ok(value) => {
                            if let godot4::Value::Plain(element) = value {
                                assert!(element.offset() + element.len() <= o);
                            }
                        }
                        Err(error) => assert!(error.offset() <= o, "{offset}: {error}"),
                    }
                }
                if o == 9 {
                    assert_eq!(rpc.path_text(), Some(&b"World/Player"[..]));
                    assert_eq!(rpc.check_arguments(), Ok(()));
                }
            }
        }
    }
    // Godot 3: the same walk of offsets.
    let mut packet = vec![0u8, 0, 0, 0, 0, b'r', b'1', 0, 1, 2, 0, 0, 0, 5, 0, 0, 0];
    let path_at = packet.len();
    packet.extend_from_slice(path);
    for offset in (0u32..40).chain([0x7FFF_FFFF]) {
        packet[1..5].copy_from_slice(&(offset | 0x8000_0000).to_le_bytes());
        match godot3::decode(&packet, Options::godot3()) {
            Err(error) => assert_eq!(error.kind(), PacketErrorKind::PathOffset { offset }),
            Ok(godot3::Godot3Packet::Call(call)) => {
                assert!((offset as usize) < packet.len());
                if offset as usize == path_at {
                    let godot3::NodeAddress::Path { path, .. } = call.node() else { panic!() };
                    assert!(path.eq_str("World/Player"));
                }
            }
            Ok(other) => panic!("{other:?}"),
        }
    }
}

#[test]
fn relays_nested_ten_thousand_deep_are_refused_at_the_first_inner_relay_in_constant_work() {
    let mut packet = vec![0x03, b'x'];
    for _ in 0..10_000 {
        let mut outer = vec![0x07, 0x03, 0, 0, 0, 0];
        outer.extend_from_slice(&packet);
        packet = outer;
    }
    let info = measure(|| {
        let error = godot4::decode(&packet, Options::godot4()).unwrap_err();
        assert_eq!((error.offset(), error.kind()), (6, PacketErrorKind::SysInRelay));
    });
    assert_eq!(info.count_total, 0);
    // One level is a relay of RAW.
    let one = [0x07, 0x03, 5, 0, 0, 0, 0x03, b'x'];
    let Godot4Packet::Sys(Sys::Relay(relay)) = godot4::decode(&one, Options::godot4()).unwrap()
    else {
        panic!()
    };
    assert!(matches!(relay.packet().unwrap(), Godot4Packet::Raw(b"x")));
    assert_eq!(relay.offset(), 6);
    // A relayed packet's errors count from the start of the carrying packet.
    let error =
        godot4::decode(&[0x07, 0x03, 5, 0, 0, 0, 0x00, 0x01], Options::godot4()).unwrap_err();
    assert_eq!((error.offset(), error.kind()), (6, PacketErrorKind::TooShort { minimum: 3 }));
}

#[test]
fn capture_records_that_lie_end_the_reading_at_their_offset() {
    let mut file = Vec::new();
    let header = capture::Header {
        version: gdvariant::Version::Godot4,
        framing: gdvariant_multiplayer::Framing::WebSocket4,
    };
    capture::write_header(&mut file, header).unwrap();
    let head = capture::RecordHead {
        micros: 1,
        connection: 0,
        direction: gdvariant_multiplayer::Direction::ToServer,
        channel: 0,
        mode: 0,
        flags: 0,
    };
    capture::write_record(&mut file, &head, &[0x03, b'x']).unwrap();
    let good = file.len();
    assert_eq!(capture::header(&file), Ok(header));
    for lie in [0u32, 15, 17, u32::MAX] {
        let mut bad = file.clone();
        bad.extend_from_slice(&lie.to_le_bytes());
        bad.extend_from_slice(&[0; 16]);
        let records: Vec<_> = capture::records(&bad).collect();
        assert_eq!(records.len(), 2, "{lie}");
        assert_eq!(records[0].unwrap().bytes, [0x03, b'x']);
        let error = records[1].unwrap_err();
        assert!(error.offset() >= good && error.offset() <= bad.len(), "{lie}: {error}");
    }
    for cut in 0..file.len() {
        for record in capture::records(&file[..cut]) {
            if let Err(error) = record {
                assert!(error.offset() <= cut);
            }
        }
        if cut < 16 {
            assert!(capture::header(&file[..cut]).is_err());
        }
    }
}

#[test]
fn a_session_flooded_with_ids_keeps_at_most_its_limits() {
    let limits = Limits { max_entries: 100, max_path: 32, max_bytes: 1 << 20 };
    let mut methods = RpcMethods::new();
    methods.node("World/*", MethodList::script(["a"]));
    let mut session = Session4::new(std::sync::Arc::new(methods), limits);
    let simplify = |id: u32, path: &str| {
        let mut p = Vec::new();
        godot4::write::simplify_path(&mut p, &[b'0'; 32], id, path).unwrap();
        p
    };
    let mut limited = 0;
    for id in 0..1000u32 {
        let bytes = simplify(id, &format!("World/N{id}"));
        let packet = godot4::decode(&bytes, Options::godot4()).unwrap();
        match session.observe(7, 1, &packet) {
            Ok(()) => {}
            Err(SessionError::Limit) => limited += 1,
            Err(other) => panic!("{other:?}"),
        }
        assert!(session.entries() <= limits.max_entries);
    }
    assert_eq!(limited, 900);
    // A path longer than the limit is refused, and a repeated id too.
    let long = simplify(5000, &"a".repeat(33));
    let mut fresh = Session4::new(std::sync::Arc::default(), limits);
    assert_eq!(
        fresh.observe(7, 1, &godot4::decode(&long, Options::godot4()).unwrap()),
        Err(SessionError::Limit)
    );
    let first = simplify(1, "World/A");
    let again = simplify(1, "World/B");
    fresh.observe(7, 1, &godot4::decode(&first, Options::godot4()).unwrap()).unwrap();
    assert_eq!(
        fresh.observe(7, 1, &godot4::decode(&again, Options::godot4()).unwrap()),
        Err(SessionError::DuplicateId { id: 1 })
    );
    // The same id on another route is another table.
    fresh.observe(8, 1, &godot4::decode(&again, Options::godot4()).unwrap()).unwrap();
    assert_eq!(fresh.path(Route::direct(8, 1), 1), Some("World/B"));
    assert_eq!(fresh.path(Route::direct(7, 1), 1), Some("World/A"));
    // The bytes kept are bounded too: 30-byte paths count 124 bytes each (indexed twice, plus 64).
    let budget = Limits { max_entries: usize::MAX, max_path: 4096, max_bytes: 10_000 };
    let mut bounded = Session4::new(std::sync::Arc::default(), budget);
    let kept = (0..1000u32)
        .filter(|id| {
            let bytes = simplify(*id, &format!("World/{:0>24}", id));
            bounded.observe(7, 1, &godot4::decode(&bytes, Options::godot4()).unwrap()).is_ok()
        })
        .count();
    assert_eq!(kept, 10_000 / 124);
    // Godot 3's table redefines an id in place.
    let mut three = Session3::new(limits);
    for id in 0..1000u32 {
        let mut p = Vec::new();
        godot3::write::simplify_path(&mut p, id % 50, &format!("N{id}")).unwrap();
        three.observe(3, &godot3::decode(&p, Options::godot3()).unwrap()).unwrap();
        assert!(three.entries() <= 50);
    }
}
