//! The game view (`Options::with_game_view`) on hostile inputs: `decode` and serde do work
//! linear in the input (`common::work::assert_linear`: 4x the bytes, at most 6x the units, and
//! within a constant factor of `validate`'s units), and run on a small stack at Godot's deepest
//! nesting.
//!
//! With the game view, `decode` allocates at most 192 bytes per input byte (plus 4 KiB), every
//! growth step counted: what the game makes of a value can be larger than its bytes (an `Array`
//! made of a `PackedByteArray` holds a 32-byte `Variant` per byte; the text of a float converted
//! into a `PackedStringArray` takes up to 313 characters for 8 bytes, written into a growing
//! `String`, then moved into a `GdString`'s allocation of its exact size).
//!
//! Shapes: typed arrays whose every element converts; colour names in long texts; the text of
//! many large floats and of deeply nested arrays (into a `PackedStringArray`); typed dictionary
//! keys that all collide after conversion; arrays converted to packed arrays as keys; typed
//! arrays nested as keys, dropping an element at every level; dictionaries nested as keys of
//! dictionaries (serde reads their keys as the game holds them).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::{assert_linear, on_small_stack};
use gdvariant::{Options, Variant};
use serde::Deserialize;
use serde::de::{MapAccess, SeqAccess, Visitor};

const ARRAY: u32 = 28;
const DICTIONARY: u32 = 27;
const INT: u32 = 2;
const FLOAT: u32 = 3;
const STRING: u32 = 4;
const TYPED: u32 = 1 << 16;
const WIDE: u32 = 1 << 16;

fn game() -> Options {
    Options::godot4().with_game_view(true)
}

fn push(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn string(out: &mut Vec<u8>, text: &[u8]) {
    push(out, &[STRING, text.len() as u32]);
    out.extend_from_slice(text);
    out.resize(out.len().next_multiple_of(4), 0);
}

fn f64_value(out: &mut Vec<u8>, value: f64) {
    push(out, &[FLOAT | WIDE]);
    out.extend_from_slice(&value.to_le_bytes());
}

/// `Array[float]` of `n` ints: every element converts.
fn converted_elements(n: usize) -> (Vec<u8>, Options) {
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, FLOAT, n as u32]);
    for i in 0..n {
        push(&mut out, &[INT, i as u32]);
    }
    (out, game())
}

/// `Array[Color]` of 16 texts of `n / 16` bytes: spaces and dashes (which colour names
/// ignore), then `red`.
fn colour_texts(n: usize) -> (Vec<u8>, Options) {
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, 20, 16]);
    for _ in 0..16 {
        let mut text: Vec<u8> = (0..n / 16).map(|i| if i % 2 == 0 { b' ' } else { b'-' }).collect();
        text.extend_from_slice(b"red");
        string(&mut out, &text);
    }
    (out, game())
}

/// `Array[PackedStringArray]` holding an `Array` of `n` floats whose text is longest.
fn float_texts(n: usize) -> (Vec<u8>, Options) {
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, 34, 1, ARRAY, n as u32]);
    for _ in 0..n {
        f64_value(&mut out, -f64::MAX);
    }
    (out, game())
}

/// `Array[PackedStringArray]` holding `n / 64` arrays nested 64 deep, then an array nested as
/// deep as Godot allows (past the 100 levels Godot prints).
fn nested_texts(n: usize) -> (Vec<u8>, Options) {
    let mut out = Vec::new();
    let count = n / 64;
    push(&mut out, &[ARRAY | TYPED, 34, 1, ARRAY, count as u32 + 1]);
    for _ in 0..count {
        for _ in 0..63 {
            push(&mut out, &[ARRAY, 1]);
        }
        push(&mut out, &[ARRAY, 0]);
    }
    for _ in 0..1000 {
        push(&mut out, &[ARRAY, 1]);
    }
    push(&mut out, &[ARRAY, 0]);
    (out, game())
}

/// `Dictionary[int]` of `n` float keys that all truncate to 1.
fn colliding_keys(n: usize) -> (Vec<u8>, Options) {
    let mut out = Vec::new();
    push(&mut out, &[DICTIONARY | TYPED, INT, n as u32]);
    for i in 0..n {
        f64_value(&mut out, 1.0 + (i as f64) / (n as f64 + 1.0));
        push(&mut out, &[INT, i as u32]);
    }
    (out, game())
}

/// `Dictionary[PackedInt32Array]` of `n / 8` array keys of 8 ints, converted and hashed.
fn packed_keys(n: usize) -> (Vec<u8>, Options) {
    let mut out = Vec::new();
    push(&mut out, &[DICTIONARY | TYPED, 30, (n / 8) as u32]);
    for i in 0..n / 8 {
        push(&mut out, &[ARRAY, 8]);
        for j in 0..8 {
            push(&mut out, &[INT, (i * 8 + j) as u32]);
        }
        push(&mut out, &[INT, 0]);
    }
    (out, game())
}

/// An untyped dictionary whose key is `Array[Array]` nested `n / 16` deep, each level holding
/// the next and a float it drops; and the same key again (the keys are compared).
fn typed_arrays_in_keys(n: usize) -> (Vec<u8>, Options) {
    let depth = (n / 16).min(500);
    let mut out = Vec::new();
    push(&mut out, &[DICTIONARY, 2]);
    for last in [0, 1] {
        for _ in 0..depth {
            push(&mut out, &[ARRAY | TYPED, ARRAY, 2]);
        }
        push(&mut out, &[ARRAY, 0]);
        for _ in 0..depth {
            push(&mut out, &[FLOAT, 0]);
        }
        push(&mut out, &[INT, last]);
    }
    let _ = n;
    (out, game())
}

/// Dictionaries nested as keys `n / 16` deep (each holds one entry: the next as key, an int).
fn dictionaries_in_keys(n: usize) -> (Vec<u8>, Options) {
    let depth = (n / 16).min(1000);
    let mut out = Vec::new();
    for _ in 0..depth {
        push(&mut out, &[DICTIONARY, 1]);
    }
    push(&mut out, &[DICTIONARY, 0]);
    for _ in 0..depth {
        push(&mut out, &[INT, 1]);
    }
    (out, game())
}

fn decode(bytes: &[u8], options: Options) {
    gdvariant::decode(bytes, options).unwrap();
}

fn serde_variant(bytes: &[u8], options: Options) {
    gdvariant::serde::from_bytes::<Variant>(bytes, options).unwrap();
}

fn serde_tree(bytes: &[u8], options: Options) {
    gdvariant::serde::from_bytes::<Tree>(bytes, options).unwrap();
}

#[test]
fn decode_with_the_game_view_is_linear() {
    assert_linear("converted elements", 4_000, 12, converted_elements, decode);
    assert_linear("colour texts", 16_000, 12, colour_texts, decode);
    assert_linear("float texts", 2_000, 12, float_texts, decode);
    assert_linear("nested texts", 4_000, 12, nested_texts, decode);
    assert_linear("colliding keys", 2_000, 24, colliding_keys, decode);
    assert_linear("packed keys", 8_000, 24, packed_keys, decode);
    assert_linear("typed arrays in keys", 2_000, 24, typed_arrays_in_keys, decode);
}

#[test]
fn serde_with_the_game_view_is_linear() {
    // Deserializing recurses once per level of the value (as serde does): a big stack.
    common::with_big_stack(serde_shapes_are_linear);
}

fn serde_shapes_are_linear() {
    for (name, make) in [
        ("converted elements", converted_elements as fn(usize) -> (Vec<u8>, Options)),
        ("float texts", float_texts),
        ("colliding keys", colliding_keys),
        ("packed keys", packed_keys),
        ("typed arrays in keys", typed_arrays_in_keys),
        ("dictionaries in keys", dictionaries_in_keys),
    ] {
        assert_linear(name, 2_000, 24, make, serde_variant);
        assert_linear(name, 2_000, 48, make, serde_tree);
    }
}

/// The most `decode` with the game view may allocate for `len` input bytes (a text the game
/// makes grows as it is written, then moves into an allocation of its exact size).
fn game_decode_bound(len: usize) -> u64 {
    192 * len as u64 + 4096
}

/// Inputs whose game view is largest for their size: (what, bytes).
fn largest_game_views() -> Vec<(&'static str, Vec<u8>)> {
    let n = 10_000u32;
    let mut cases = Vec::new();
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, 34, 1, ARRAY, 1, 33, n]);
    for _ in 0..n {
        out.extend_from_slice(&(-f64::MAX).to_le_bytes());
    }
    cases.push(("the text of a PackedFloat64Array of -f64::MAX", out));
    cases.push(("the text of floats", float_texts(n as usize).0));
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, 34, 1, ARRAY, 1, 32, n]);
    for _ in 0..n {
        out.extend_from_slice(&(-f32::MAX).to_le_bytes());
    }
    cases.push(("the text of a PackedFloat32Array", out));
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, ARRAY, 1, 29, 4 * n]);
    out.resize(out.len() + 4 * n as usize, 1);
    cases.push(("an Array made of a PackedByteArray", out));
    let mut out = Vec::new();
    let path: Vec<u8> = (0..4 * n).map(|i| if i % 2 == 0 { b'a' } else { b'/' }).collect();
    push(&mut out, &[ARRAY | TYPED, 22, 1]);
    string(&mut out, &path);
    cases.push(("a NodePath of one-letter names", out));
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, 34, 1, ARRAY, 1, STRING, 4 * n]);
    out.resize(out.len() + 4 * n as usize, 7);
    cases.push(("the text of a string of escapes, nested", out));
    let mut out = Vec::new();
    push(&mut out, &[ARRAY | TYPED, 34, 1, ARRAY, n]);
    for _ in 0..n {
        push(&mut out, &[25]);
    }
    cases.push(("the text of Callables", out));
    cases
}

#[test]
fn decode_with_the_game_view_allocates_within_its_bound() {
    let mut largest = 0.0f64;
    for (what, bytes) in largest_game_views() {
        gdvariant::validate(&bytes, game()).unwrap();
        let info = allocation_counter::measure(|| {
            let value = gdvariant::decode(&bytes, game()).unwrap();
            std::hint::black_box(value);
        });
        assert!(
            info.bytes_total <= game_decode_bound(bytes.len()),
            "{what}: {} bytes allocated for {} input bytes",
            info.bytes_total,
            bytes.len()
        );
        largest = largest.max(info.bytes_total as f64 / bytes.len() as f64);
    }
    // Twice the wire view's bound and more: the bound is not loose.
    assert!(largest > 64.0, "at most {largest:.1} bytes per input byte");
}

#[test]
fn the_game_view_runs_on_a_small_stack() {
    on_small_stack(|| {
        // Typed arrays nested as deep as Godot allows, each dropping an element, in a key.
        let mut out = Vec::new();
        push(&mut out, &[DICTIONARY, 1]);
        for _ in 0..1023 {
            push(&mut out, &[ARRAY | TYPED, ARRAY, 2]);
        }
        push(&mut out, &[ARRAY, 0]);
        for _ in 0..1023 {
            push(&mut out, &[FLOAT, 0]);
        }
        push(&mut out, &[INT, 1]);
        gdvariant::validate(&out, game()).unwrap();
        gdvariant::decode(&out, game()).unwrap();
        gdvariant::serde::from_bytes::<Variant>(&out, game()).unwrap();
        // The text of arrays nested as deep as Godot allows.
        let (bytes, options) = nested_texts(64);
        gdvariant::decode(&bytes, options).unwrap();
    });
}

/// Any value, as a recursive type of your own reads it.
enum Tree {
    Leaf,
    List(#[allow(dead_code)] Vec<Tree>),
    Map(#[allow(dead_code)] Vec<(Tree, Tree)>),
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> Visitor<'de> for Any {
            type Value = Tree;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_unit<E>(self) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_str<E>(self, _: &str) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_bytes<E>(self, _: &[u8]) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Tree::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Tree::Map(entries))
            }
        }
        deserializer.deserialize_any(Any)
    }
}
