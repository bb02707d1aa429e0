//! Reading a damaged dump reads each byte a bounded number of times: resynchronising after a
//! bad prefix checks candidates within a budget (work counted, feature `work-counter`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::units;
use gdvariant::Options;
use gdvariant::framing::{self, LengthPrefix};

/// A `store_var` dump whose first prefix is bad, followed by about `size` bytes in which every
/// 16-byte step starts something that looks like a frame: `[length to the end, Array header,
/// count, int header]`. Each candidate's value is an array whose elements are an int (the next
/// step's length) and an array like it, so it nests until the depth limit refuses it, 16 KiB
/// into its payload.
fn resync_dump(size: usize) -> Vec<u8> {
    let words = size / 4;
    let mut dump = u32::MAX.to_le_bytes().to_vec();
    for i in 0..words {
        let word = match i % 4 {
            0 => ((words - i) * 4 - 4) as u32,
            1 => 28,
            2 => 2,
            _ => 2,
        };
        dump.extend_from_slice(&word.to_le_bytes());
    }
    dump
}

/// The units of work of scanning `bytes` to the end.
fn scan(bytes: &[u8]) -> u64 {
    let prefix = LengthPrefix::store_var(false);
    units(|| {
        framing::scan(bytes, prefix, Options::godot4()).count();
    })
}

/// The units of work of scanning `bytes` to the end without checking the frames' values, then
/// checking each (as `gdvariant export --jobs N` does, on several threads).
fn raw_scan(bytes: &[u8]) -> u64 {
    let (prefix, options) = (LengthPrefix::store_var(false), Options::godot4());
    units(|| {
        for raw in framing::raw_scan(bytes, prefix, options).flatten() {
            let _ = raw.decode(options);
        }
    })
}

/// Scans `make(size)` and `make(4 * size)`: the work grows at most 6x, and stays within
/// `per_byte` units per input byte (a dump holds no one value for `validate` to compare with).
fn assert_linear_scan(name: &str, size: usize, per_byte: u64, make: impl Fn(usize) -> Vec<u8>) {
    let (small, large) = (make(size), make(4 * size));
    let (a, b) = (scan(&small), scan(&large));
    eprintln!("{name}: {a} units on {} bytes, {b} on {}", small.len(), large.len());
    for (units, bytes) in [(a, small.len()), (b, large.len())] {
        assert!(
            units <= per_byte * bytes as u64 + 10_000,
            "{name}: {units} units on {bytes} bytes"
        );
    }
    assert!(b <= 6 * a, "{name}: {a} units, then {b} for 4x the bytes");
}

#[test]
fn resynchronising_is_linear_when_every_offset_starts_a_long_candidate() {
    assert_linear_scan("nested arrays to the end", 64_000, 4, resync_dump);
}

#[test]
fn the_raw_scan_costs_what_the_scan_costs() {
    for size in [16_000, 64_000] {
        let dump = resync_dump(size);
        let (checked, raw) = (scan(&dump), raw_scan(&dump));
        assert!(raw <= checked + checked / 10 + 1_000, "{size}: raw {raw}, checked {checked}");
        let prefix = LengthPrefix::store_var(false);
        let options = Options::godot4();
        let a: Vec<_> =
            framing::scan(&dump, prefix, options).map(|r| r.map(|f| f.offset())).collect();
        let b: Vec<_> = framing::raw_scan(&dump, prefix, options)
            .map(|r| {
                r.and_then(|raw| {
                    let len = raw.raw_bytes().len() as u64;
                    raw.decode(options)
                        .map(|f| f.offset())
                        .map_err(|error| framing::Skipped { error, len })
                })
            })
            .collect();
        assert_eq!(a, b);
    }
}

/// The frames after a hostile stretch are still found once the budget for checking candidates
/// is spent: candidates whose payloads end where the good frames start are passed over whole.
#[test]
fn good_frames_after_a_hostile_stretch_are_found() {
    let good = common::corpus(gdvariant::Version::Godot4, "stream_file_store_var");
    let prefix = LengthPrefix::store_var(false);
    let expected = framing::scan(&good, prefix, Options::godot4()).filter(Result::is_ok).count();
    assert_eq!(expected, 11);
    for size in [64_000, 256_000] {
        let mut dump = resync_dump(size);
        dump.extend_from_slice(&good);
        let found: Vec<_> = framing::scan(&dump, prefix, Options::godot4()).collect();
        let frames: Vec<_> = found.iter().filter_map(|f| f.as_ref().ok()).collect();
        // Every candidate in the stretch is refused (its value nests past the depth limit)...
        assert_eq!(frames.len(), 11, "{size}");
        // ... and the good frames are found at their own offsets.
        assert_eq!(frames[0].offset() as usize, dump.len() - good.len());
    }
}
