//! Work bounds of the text writer's dictionary ordering (feature `work-counter`): keys that
//! compare equal down to a deep difference, thousands of keys of types without `<`, keys that
//! are all "neither less" yet distinct, keys Godot 3 orders inconsistently (each less than the
//! other) or does not find, large repeated keys, and keys nested near the depth limit, each at
//! two sizes; the work grows linearly (with room for the log factor of sorting).
//!
//! A property test checks that the ordering and merging of keys are those of a straightforward
//! reference (Godot's `SortArray` written out as in `sort_array.h`, Godot's `<` and key
//! equality of each version by recursion) on small generated dictionaries, in both versions,
//! with ties, NaNs, -0.0, String and StringName keys, repeated keys, keys Godot 3 does not find,
//! deeply nested keys, and more than 256 entries.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use common::work::assert_linear;
use gdvariant::math::{Color, Transform2D, Vector2};
use gdvariant::{EncodeOptions, Options, Version, Writer};

use Version::{Godot3 as G3, Godot4 as G4};

/// Work allowed per unit of `validate`'s on the same bytes: printing, reading the keys' sort
/// and equality forms (one pass over the dictionary each), sorting's log factor.
const FACTOR: u64 = 32;

fn encode(version: Version, build: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let options = match version {
        G3 => EncodeOptions::godot3(),
        G4 => EncodeOptions::godot4(),
    };
    let mut writer = Writer::new(Vec::new(), options);
    build(&mut writer);
    writer.finish().unwrap()
}

/// Prints the value, which must be accepted by Godot's rules first.
fn print(bytes: &[u8], options: Options) {
    gdvariant::validate(bytes, options).unwrap();
    let value = gdvariant::parse(bytes, options).unwrap();
    gdvariant::text::to_text_as(value, options.version()).unwrap();
}

/// A dictionary of `count` entries whose key `i` is written by `key(writer, i)`.
fn dictionary(
    version: Version,
    count: usize,
    key: impl Fn(&mut Writer<Vec<u8>>, usize),
) -> (Vec<u8>, Options) {
    let bytes = encode(version, |w| {
        w.begin_dictionary(count).unwrap();
        for i in 0..count {
            key(w, i);
            w.int(i as i64).unwrap();
        }
    });
    (bytes, Options::new(version))
}

/// `depth` arrays, one inside the other, around the int `i`.
fn nested(w: &mut Writer<Vec<u8>>, depth: usize, i: usize) {
    for _ in 0..depth {
        w.begin_array(1).unwrap();
    }
    w.int(i as i64).unwrap();
}

mod linear_work;
mod ordering;
mod reference;
