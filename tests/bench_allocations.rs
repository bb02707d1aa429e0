//! The benchmark workloads (`benches/workloads/`), checked for what they compute and for heap
//! allocations: every lazy operation the benchmarks time allocates nothing, on the same inputs
//! the benchmarks use. Allocations are counted per thread (`allocation_counter`).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[path = "../benches/workloads/mod.rs"]
mod workloads;

use allocation_counter::measure;
use gdvariant::{Options, Variant, Version};
use workloads::{inputs, ops};

/// Runs `f` and asserts that it allocated nothing; returns its result.
fn without_allocation<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let mut result = None;
    let info = measure(|| result = Some(f()));
    assert_eq!(info.count_total, 0, "{what}: {info:?}");
    result.expect("ran")
}

#[test]
fn dict_heavy_lazy_workloads_allocate_nothing() {
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        let corpus = inputs::corpus_dicts(version);
        // The corpus case: entity i has "id" i and five entries.
        for index in [0, 5_000, 9_999] {
            let id = without_allocation("lookup", || ops::lookup(&corpus, options, index));
            assert_eq!(id, Ok(Some(index as i64)));
        }
        without_allocation("validate", || gdvariant::validate(&corpus, options)).unwrap();
        let len = without_allocation("parse_prefix", || {
            gdvariant::parse_prefix(&corpus, options).map(|e| e.len())
        });
        assert_eq!(len, Ok(corpus.len()));
        let tally = without_allocation("lazy_walk", || ops::lazy_walk(&corpus, options)).unwrap();
        assert_eq!(tally.values, 1 + 10_000 * (1 + 5 * 2));
        // ids 0..10000 plus 5,000 `true`s.
        assert_eq!(tally.ints, (0..10_000).sum::<i64>() + 5_000);

        let streamed =
            without_allocation("cursor_walk", || ops::cursor_walk(&corpus, options)).unwrap();
        assert_eq!(streamed, tally);
        let read =
            without_allocation("cursor_read", || ops::cursor_read(&corpus, options)).unwrap();
        assert_eq!(read, tally);

        let generated = inputs::game_state_bytes(version);
        without_allocation("validate", || gdvariant::validate(&generated, options)).unwrap();
        let tally =
            without_allocation("lazy_walk", || ops::lazy_walk(&generated, options)).unwrap();
        let streamed =
            without_allocation("cursor_walk", || ops::cursor_walk(&generated, options)).unwrap();
        assert_eq!(streamed, tally);
        let read =
            without_allocation("cursor_read", || ops::cursor_read(&generated, options)).unwrap();
        assert_eq!(read, tally);
        assert!(tally.text_bytes > 100_000, "{tally:?}");
        let id = without_allocation("lookup", || ops::lookup(&generated, options, 5_001));
        assert_eq!(id, Ok(Some(5_001 * 7_919)));
    }
}

#[test]
fn relay_forwards_every_packet_but_pings_without_allocating() {
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        let packets = inputs::packets(version);
        assert_eq!(packets.len(), inputs::PACKETS);
        let mut forwarded = 0;
        for packet in packets.iter() {
            assert!((64..=256).contains(&packet.len()), "{} bytes", packet.len());
            // What the relay should do, from the owned value.
            let owned = gdvariant::decode(packet, options).unwrap();
            let Variant::Dictionary(dictionary) = owned else { panic!("not a dictionary") };
            let is_ping = dictionary.get(&Variant::from("type")) == Some(&Variant::from("ping"));
            let expected = if is_ping { None } else { Some(packet) };

            let relayed = without_allocation("relay", || ops::relay(packet, options));
            assert_eq!(relayed, Ok(expected));
            let relayed =
                without_allocation("validated_relay", || ops::validated_relay(packet, options));
            assert_eq!(relayed, Ok(expected));
            forwarded += usize::from(!is_ping);
        }
        // About three quarters of the packets are not pings.
        assert!((70_000..80_000).contains(&forwarded), "{forwarded}");
    }
}

#[test]
fn dump_scan_and_validation_allocate_nothing() {
    for version in [Version::Godot3, Version::Godot4] {
        let dump = inputs::dump(version);
        let (frames, payload) = without_allocation("scan", || ops::scan_frames(&dump)).unwrap();
        assert_eq!((frames, payload), (inputs::DUMP_FRAMES, dump.len() - 4 * inputs::DUMP_FRAMES));
        let frames =
            without_allocation("validate", || ops::validate_frames(&dump, Options::new(version)));
        assert_eq!(frames, Ok(inputs::DUMP_FRAMES));
    }
}

#[test]
fn packed_views_allocate_nothing_at_any_alignment() {
    let options = Options::godot4();
    let len = 100_000;
    let expected: f32 = (0..len).map(|i| i as f32 * 0.5).sum();
    let aligned = inputs::PackedInput::new(len, Version::Godot4, 0);
    let slice = without_allocation("slice", || ops::packed_slice(aligned.bytes(), options));
    let slice = slice.unwrap();
    if cfg!(target_endian = "little") {
        let slice = slice.expect("aligned elements on a little-endian host");
        assert_eq!(slice.len(), len);
        assert_eq!(slice[len - 1], (len - 1) as f32 * 0.5);
        assert_eq!(ops::sum(slice), expected);
    } else {
        assert_eq!(slice, None);
    }
    for misalign in 0..4 {
        let input = inputs::PackedInput::new(len, Version::Godot4, misalign);
        let sum = without_allocation("le view", || ops::packed_sum_le(input.bytes(), options));
        assert_eq!(sum, Ok(expected), "misaligned by {misalign}");
        if misalign != 0 {
            assert_eq!(ops::packed_slice(input.bytes(), options), Ok(None));
        }
    }
}

/// The owned decode of the corpus case (an Array of 10,000 five-entry Dictionaries with short
/// String keys and values) allocates per dictionary its box (which holds the hashes of up to 8
/// keys) and its entries, and nothing per key or value: short strings live in place, and a
/// `Variant` is 32 bytes, so an entry takes 64. A change that allocates per value, or grows
/// `Variant` or `Dictionary`, fails here.
#[test]
fn owned_decode_of_the_corpus_case_allocates_per_dictionary_not_per_value() {
    assert_eq!(std::mem::size_of::<Variant>(), 32);
    for version in [Version::Godot3, Version::Godot4] {
        let corpus = inputs::corpus_dicts(version);
        let mut decoded = None;
        let info = measure(|| decoded = Some(ops::decode(&corpus, Options::new(version))));
        let value = decoded.expect("ran").unwrap();
        let entities = value.as_array().expect("an array");
        assert_eq!(entities.len(), 10_000);
        assert!(entities.iter().all(|e| e.as_dictionary().is_some_and(|d| d.len() == 5)));
        // 110,001 values: 2 allocations per dictionary; 4 besides (the array's box and
        // elements, the decoder's own bookkeeping, freed when it returns).
        let values = 1 + 10_000 * (1 + 5 * 2);
        assert!(info.count_total <= 2 * 10_000 + 4, "{version:?}: {info:?} for {values} values");
        // Per dictionary: its 176-byte box and 5 entries of 64 bytes; the array's 10,000 slots
        // of 32 bytes.
        let per_dictionary = 176 + 5 * 64;
        assert!(
            info.bytes_total <= 10_000 * (per_dictionary + 32) + 1_024,
            "{version:?}: {info:?}"
        );
    }
}

#[test]
fn decoding_packets_into_one_value_allocates_only_for_long_text() {
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        let packets = inputs::packets(version);
        let mut value = Variant::Nil;
        // The first packet gives the value its room.
        let first = packets.iter().next().expect("packets");
        gdvariant::decode_into(first, options, &mut value).unwrap();
        let (mut allocations, mut long) = (0, 0);
        for packet in packets.iter() {
            let info = measure(|| gdvariant::decode_into(packet, options, &mut value).unwrap());
            assert!(value.same(&gdvariant::decode(packet, options).unwrap()), "{version:?}");
            // Text of more than 22 bytes (the payloads) is boxed; the rest is held in place.
            let boxed = value
                .as_dictionary()
                .expect("a dictionary")
                .values()
                .filter(|v| v.as_str().is_some_and(|s| s.len() > 22))
                .count();
            assert!(info.count_total <= boxed as u64, "{version:?}: {info:?}, {boxed} boxed");
            allocations += info.count_total;
            long += boxed as u64;
        }
        // Most packets carry a long payload; none allocated for anything else.
        assert!(long > inputs::PACKETS as u64 / 2, "{version:?}: {long}");
        assert_eq!(allocations, long, "{version:?}");
        // A fresh decode of the same packets takes the dictionary's box and entries besides.
        let info = measure(|| {
            for packet in packets.iter() {
                drop(gdvariant::decode(packet, options).unwrap());
            }
        });
        assert!(info.count_total >= long + 2 * inputs::PACKETS as u64, "{version:?}: {info:?}");
    }
}
