//! Work bounds of the encoder (feature `work-counter`): the [`Writer`] writing a value piece by
//! piece, [`gdvariant::encode`] writing an owned value, and decoding then encoding again (what
//! `gdvariant reencode` does), on generated worst cases at two sizes, in both versions: nesting
//! to the depth limit, wide dictionaries, many short strings, long strings, packed arrays of
//! every kind, dictionary keys that are containers, full objects. Each must grow linearly with
//! the bytes written (4x the bytes, at most 6x the units) and stay within a constant factor of
//! `validate`'s units on the same bytes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::{units, validate_units};
use gdvariant::math::{Color, Vector2, Vector3};
use gdvariant::{EncodeOptions, MAX_DEPTH, Options, Version, Writer, math::Precision};

use Version::{Godot3 as G3, Godot4 as G4};

/// Work allowed per unit of `validate`'s: the writer and `encode` write each value once (a
/// unit per value, as validation reads each once); decoding first builds owned values and
/// hashes dictionary keys.
const WRITE_FACTOR: u64 = 12;
const REENCODE_FACTOR: u64 = 32;

type Build<'a> = dyn Fn(&mut Writer<Vec<u8>>, usize) + 'a;

fn encode_options(version: Version) -> EncodeOptions {
    match version {
        G3 => EncodeOptions::godot3(),
        G4 => EncodeOptions::godot4(),
    }
}

/// The units of the three ways of encoding one value of size `n`, and validation's.
#[derive(Debug)]
struct Measured {
    bytes: usize,
    validate: u64,
    writer: u64,
    encode: u64,
    reencode: u64,
}

fn measure(version: Version, encode: EncodeOptions, build: &Build<'_>, n: usize) -> Measured {
    let (bytes, writer) = gdvariant::work::measure(|| {
        let mut w = Writer::new(Vec::new(), encode);
        build(&mut w, n);
        w.finish().unwrap()
    });
    let options = Options::new(version).with_allow_objects(encode.full_objects());
    gdvariant::validate(&bytes, options).unwrap();
    let validate = validate_units(&bytes, options);
    let value = gdvariant::decode(&bytes, options).unwrap();
    let (again, encode_units) = gdvariant::work::measure(|| value.encode(encode).unwrap());
    assert_eq!(again, bytes, "encode writes what the writer wrote");
    let reencode = units(|| {
        let value = gdvariant::decode(&bytes, options).unwrap();
        assert_eq!(value.encode(encode).unwrap().len(), bytes.len());
    });
    Measured { bytes: bytes.len(), validate, writer, encode: encode_units, reencode }
}

/// Asserts linear growth from `n` to `4n` and the factors of `validate`, for the writer,
/// `encode` and decode-then-encode.
fn assert_linear_encoding(name: &str, version: Version, n: usize, build: &Build<'_>) {
    assert_linear_with(name, version, encode_options(version), n, build);
}

fn assert_linear_with(
    name: &str,
    version: Version,
    encode: EncodeOptions,
    n: usize,
    build: &Build<'_>,
) {
    let name = format!("{version:?} {name}");
    let a = measure(version, encode, build, n);
    let b = measure(version, encode, build, 4 * n);
    eprintln!("{name}: {a:?} {b:?}");
    assert!(b.bytes >= 3 * a.bytes, "{name}: the generator does not scale: {a:?} {b:?}");
    for m in [&a, &b] {
        for (what, units, factor) in [
            ("writer", m.writer, WRITE_FACTOR),
            ("encode", m.encode, WRITE_FACTOR),
            ("reencode", m.reencode, REENCODE_FACTOR),
        ] {
            assert!(
                units <= factor * m.validate + 10_000,
                "{name}: {what} did {units} units on {} bytes, more than {factor}x validate's {}",
                m.bytes,
                m.validate
            );
        }
    }
    let bytes_growth = b.bytes as f64 / a.bytes as f64;
    for (what, small, large) in [
        ("writer", a.writer, b.writer),
        ("encode", a.encode, b.encode),
        ("reencode", a.reencode, b.reencode),
    ] {
        assert!(small > 0, "{name}: {what} counted nothing");
        let growth = large as f64 / small as f64;
        assert!(
            growth <= bytes_growth * 1.5,
            "{name}: {what} grew {growth:.2}x for {bytes_growth:.2}x the bytes: {a:?} {b:?}"
        );
    }
}

/// `depth` arrays, one inside the other, around the int `i`.
fn nested(w: &mut Writer<Vec<u8>>, depth: usize, i: usize) {
    for _ in 0..depth {
        w.begin_array(1).unwrap();
    }
    w.int(i as i64).unwrap();
}

#[test]
fn nesting_to_the_depth_limit() {
    // An array of `n` chains reaching the deepest level Godot accepts (the root is level 0).
    let deepest = usize::from(MAX_DEPTH) - 1;
    for version in [G3, G4] {
        assert_linear_encoding("arrays to the depth limit", version, 4, &|w, n| {
            w.begin_array(n).unwrap();
            for i in 0..n {
                nested(w, deepest, i);
            }
        });
        assert_linear_encoding("dictionaries to the depth limit", version, 4, &|w, n| {
            w.begin_array(n).unwrap();
            for i in 0..n {
                for _ in 0..deepest {
                    w.begin_dictionary(1).unwrap();
                    w.string("k").unwrap();
                }
                w.int(i as i64).unwrap();
            }
        });
    }
}

#[test]
fn wide_dictionaries() {
    for version in [G3, G4] {
        assert_linear_encoding("a wide dictionary", version, 2_000, &|w, n| {
            w.begin_dictionary(n).unwrap();
            for i in 0..n {
                w.string(&format!("key{i}")).unwrap();
                w.int(i as i64).unwrap();
            }
        });
    }
}

#[test]
fn many_short_strings_and_long_strings() {
    for version in [G3, G4] {
        assert_linear_encoding("many one-byte strings", version, 4_000, &|w, n| {
            w.begin_array(n).unwrap();
            for i in 0..n {
                w.string(if i % 2 == 0 { "a" } else { "" }).unwrap();
            }
        });
        assert_linear_encoding("a long string", version, 100_000, &|w, n| {
            w.string(&"é".repeat(n)).unwrap();
        });
        assert_linear_encoding("a packed array of short strings", version, 4_000, &|w, n| {
            let strings: Vec<String> = (0..n).map(|i| (i % 10).to_string()).collect();
            w.packed_strings(strings.iter().map(String::as_str)).unwrap();
        });
    }
    assert_linear_encoding("many string names", G4, 4_000, &|w, n| {
        w.begin_array(n).unwrap();
        for _ in 0..n {
            w.string_name("n").unwrap();
        }
    });
}

#[test]
fn packed_arrays() {
    for version in [G3, G4] {
        assert_linear_encoding("packed bytes", version, 100_000, &|w, n| {
            w.packed_bytes(&vec![7u8; n]).unwrap();
        });
        assert_linear_encoding("packed int32", version, 20_000, &|w, n| {
            w.packed_int32(&(0..n as i32).collect::<Vec<_>>()).unwrap();
        });
        assert_linear_encoding("packed float32", version, 20_000, &|w, n| {
            w.packed_float32(&vec![0.1f32; n]).unwrap();
        });
        assert_linear_encoding("packed vector2", version, 10_000, &|w, n| {
            w.packed_vector2(&vec![Vector2 { x: 0.5f32, y: -1.0 }; n]).unwrap();
        });
        assert_linear_encoding("packed vector3", version, 10_000, &|w, n| {
            w.packed_vector3(&vec![Vector3 { x: 0.5f32, y: -1.0, z: 2.0 }; n]).unwrap();
        });
        assert_linear_encoding("packed colors", version, 10_000, &|w, n| {
            w.packed_colors(&vec![Color { r: 0.5, g: 0.25, b: 1.0, a: 1.0 }; n]).unwrap();
        });
        assert_linear_encoding("many small packed arrays", version, 2_000, &|w, n| {
            w.begin_array(n).unwrap();
            for i in 0..n {
                w.packed_int32(&[i as i32]).unwrap();
            }
        });
    }
    assert_linear_encoding("packed int64 and float64", G4, 10_000, &|w, n| {
        w.begin_array(2).unwrap();
        w.packed_int64(&vec![-1i64; n]).unwrap();
        w.packed_float64(&vec![0.1f64; n]).unwrap();
    });
    // Double-precision reals: each component widened as it is written.
    let double = EncodeOptions::godot4().with_precision(Precision::Double);
    assert_linear_with("packed vector3 in doubles", G4, double, 10_000, &|w, n| {
        w.packed_vector3(&vec![Vector3 { x: 0.1f32, y: -1.0, z: 2.0 }; n]).unwrap();
    });
}

#[test]
fn dictionary_keys_that_are_containers() {
    for version in [G3, G4] {
        assert_linear_encoding("keys that are arrays", version, 500, &|w, n| {
            w.begin_dictionary(n).unwrap();
            for i in 0..n {
                nested(w, 16, i);
                w.nil().unwrap();
            }
        });
        // Keys that are dictionaries whose keys are dictionaries, 8 levels down.
        assert_linear_encoding("keys that are dictionaries", version, 500, &|w, n| {
            w.begin_dictionary(n).unwrap();
            for i in 0..n {
                for _ in 0..8 {
                    w.begin_dictionary(1).unwrap();
                }
                w.int(i as i64).unwrap();
                for _ in 0..8 {
                    w.nil().unwrap();
                }
                w.bool(true).unwrap();
            }
        });
    }
}

#[test]
fn node_paths_and_full_objects() {
    for version in [G3, G4] {
        assert_linear_encoding("a node path of many names", version, 2_000, &|w, n| {
            let names: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
            w.node_path(true, names.iter().map(String::as_str), ["x"]).unwrap();
        });
        let full = encode_options(version).with_full_objects(true);
        assert_linear_with("an object of many properties", version, full, 2_000, &|w, n| {
            w.begin_object("Node", n as u32).unwrap();
            for i in 0..n {
                w.property_name(&format!("p{i}")).unwrap();
                w.int(i as i64).unwrap();
            }
        });
    }
}
