//! An array that starts with a run of one fixed-size leaf (ints, floats, vectors) has the run
//! passed over by the walk with one comparison per element; `validate` and `parse_prefix` still
//! accept and refuse exactly what reading each element does. The reference is the owned
//! decoder, which reads every element's head itself: on arrays of every fixed-size leaf of both
//! versions, alone, mixed and nested, cut at every length and with every 4-byte word changed,
//! both agree (value or error).
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

use gdvariant::math::{Vector2, Vector3};
use gdvariant::{EncodeOptions, Options, Variant, Version, Writer};

fn written(version: Version, write: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::new(version));
    write(&mut writer);
    writer.finish().unwrap()
}

/// Writes one leaf.
type Leaf = Box<dyn Fn(&mut Writer<Vec<u8>>)>;

/// Arrays of runs of fixed-size leaves, alone, before other values and nested.
fn values(version: Version) -> Vec<Vec<u8>> {
    let runs: Vec<Leaf> = vec![
        Box::new(|w| w.int(7).unwrap()),
        Box::new(|w| w.int(1 << 40).unwrap()),
        Box::new(|w| w.float(0.5).unwrap()),
        Box::new(|w| w.float(0.1).unwrap()),
        Box::new(|w| w.vector2(Vector2 { x: 1.0f32, y: 2.0 }).unwrap()),
        Box::new(|w| w.vector3(Vector3 { x: 1.0f32, y: 2.0, z: 3.0 }).unwrap()),
        Box::new(|w| w.nil().unwrap()),
        Box::new(|w| w.bool(true).unwrap()),
    ];
    let mut out = Vec::new();
    for (i, leaf) in runs.iter().enumerate() {
        let other = &runs[(i + 1) % runs.len()];
        out.push(written(version, |w| {
            w.begin_array(12).unwrap();
            for _ in 0..12 {
                leaf(w);
            }
        }));
        out.push(written(version, |w| {
            w.begin_array(9).unwrap();
            for _ in 0..4 {
                leaf(w);
            }
            other(w);
            for _ in 0..4 {
                leaf(w);
            }
        }));
        out.push(written(version, |w| {
            w.begin_dictionary(2).unwrap();
            w.string("a").unwrap();
            w.begin_array(2).unwrap();
            w.begin_array(5).unwrap();
            for _ in 0..5 {
                leaf(w);
            }
            w.string("s").unwrap();
            w.string("b").unwrap();
            w.begin_array(6).unwrap();
            w.string("t").unwrap();
            for _ in 0..5 {
                leaf(w);
            }
        }));
    }
    out
}

/// `validate` and `parse_prefix` agree with the owned decoder on `bytes`.
fn agree(bytes: &[u8], options: Options) {
    let validated = gdvariant::validate(bytes, options);
    let decoded = gdvariant::decode(bytes, options).map(|_: Variant| ());
    assert_eq!(validated, decoded, "on {bytes:02x?}");
    let prefix = gdvariant::parse_prefix(bytes, options).map(|element| element.len());
    match (&validated, &prefix) {
        (Ok(()), Ok(len)) => assert!(*len <= bytes.len()),
        (Err(_), _) => {}
        (Ok(()), Err(e)) => {
            panic!("parse_prefix refuses what validate accepts: {e} on {bytes:02x?}")
        }
    }
}

#[test]
fn runs_of_one_leaf_are_read_as_each_element_is() {
    let mut accepted = 0;
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        for value in values(version) {
            accepted += usize::from(gdvariant::validate(&value, options).is_ok());
            for len in 0..=value.len() {
                agree(&value[..len], options);
            }
            // Every 4-byte word changed to the headers of other types, of the 64-bit flag, of
            // no type, and to a length that overruns.
            for at in (0..value.len()).step_by(4) {
                for word in [0u32, 1, 2, 3, 5, 7, 0x1_0002, 0x1_0003, 0x3F, 0xFFFF_FFFF] {
                    let mut bytes = value.clone();
                    bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
                    agree(&bytes, options);
                }
            }
        }
    }
    assert_eq!(accepted, 48);
}
