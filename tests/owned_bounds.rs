//! Owned values on hostile keys: every operation does work linear in the input, and every
//! whole-value operation runs on a small stack at Godot's deepest nesting.
//!
//! 1. **Linear work** (`common::work::assert_linear`: 4x the bytes, at most 6x the units, and
//!    within a constant factor of `validate`'s units) for `decode` (and `decode_into` a used
//!    value), `Dictionary::insert`, `get`, `remove`, `==` / `Variant::same`, and hashing
//!    (`contains_key` of an absent key), on the key shapes that made key equality super-linear:
//!    keys that are trees of small dictionaries differing only in their last leaf (each level once
//!    had every key of one side compared with every key of the other), chains of dictionaries
//!    nested as keys, dictionaries nested as values inside keys, long arrays differing only at the
//!    end, one big key repeated, arrays differing only in which texts are `StringName`s, arrays
//!    holding a NaN (equal to no key), and dictionaries holding the same entries in other orders.
//! 2. **Small stack** (`common::work::on_small_stack`, 256 KiB): `decode` (and `decode_into`
//!    a used deep value), `Clone`, `Debug` (`{:?}` and `{:#?}`), `==`, `Variant::same`, `Drop`,
//!    `Dictionary::insert` / `get` / `contains_key` / `remove` and `encode` on values 1024
//!    levels deep: arrays, dictionaries as values, Godot 4 dictionaries as keys, and the three
//!    mixed. Run in debug and release builds (`cargo test`, `cargo test --release`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::{assert_linear, on_small_stack, units};
use gdvariant::{EncodeOptions, Options, Variant, owned::Dictionary};

const ARRAY: u32 = 0x1C;
const DICTIONARY: u32 = 0x1B;
const INT: u32 = 2;
const NIL: u32 = 0;
const STRING: u32 = 4;
const STRING_NAME: u32 = 21;
const FLOAT64: u32 = 3 | 1 << 16;

/// Little-endian words.
fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

// ------------------------------------------------------------------------------------------
// Hostile key shapes
// ------------------------------------------------------------------------------------------

/// A binary tree of Godot 4 dictionaries `depth` levels deep as a key: every leaf is the int 0
/// but the last, which is `last`. Each dictionary's two keys are such trees one level down, the
/// first ending in 0 and the second in `last + 1`: they differ only in their last leaf.
fn tree(depth: u32, last: u32, out: &mut Vec<u32>) {
    if depth == 0 {
        out.extend([INT, last]);
        return;
    }
    out.extend([DICTIONARY, 2]);
    tree(depth - 1, 0, out);
    out.push(NIL);
    tree(depth - 1, last + 1, out);
    out.push(NIL);
}

/// The depth of tree whose encoding is about `bytes` long (24 bytes a leaf).
fn tree_depth(bytes: usize) -> u32 {
    (bytes / 24).max(2).ilog2()
}

/// A dictionary of two tree keys of about `size` bytes, equal (`same`) or differing in their
/// last leaf.
fn two_trees(size: usize, same: bool) -> Vec<u8> {
    let depth = tree_depth(size / 2);
    let mut ws = vec![DICTIONARY, 2];
    tree(depth, 0, &mut ws);
    ws.extend([INT, 1]);
    tree(depth, u32::from(!same), &mut ws);
    ws.extend([INT, 2]);
    words(&ws)
}

/// `count` keys, each made by `key(i)`, each with the value `i`.
fn keys(count: usize, key: impl Fn(u32, &mut Vec<u32>)) -> Vec<u8> {
    let mut ws = vec![DICTIONARY, count as u32];
    for i in 0..count as u32 {
        key(i, &mut ws);
        ws.extend([INT, i]);
    }
    words(&ws)
}

/// A chain of `levels` dictionaries nested as keys, the innermost `{i: null}`.
fn chain_key(levels: u32, i: u32, ws: &mut Vec<u32>) {
    for _ in 1..levels {
        ws.extend([DICTIONARY, 1]);
    }
    ws.extend([DICTIONARY, 1, INT, i, NIL]);
    for _ in 1..levels {
        ws.push(NIL);
    }
}

/// A chain of `levels` dictionaries nested as values, the innermost `{null: i}`.
fn values_key(levels: u32, i: u32, ws: &mut Vec<u32>) {
    for _ in 1..levels {
        ws.extend([DICTIONARY, 1, NIL]);
    }
    ws.extend([DICTIONARY, 1, NIL, INT, i]);
}

/// An array of 64 ints, all 0 but the last, `i`.
fn array_key(i: u32, ws: &mut Vec<u32>) {
    ws.extend([ARRAY, 64]);
    for _ in 0..63 {
        ws.extend([INT, 0]);
    }
    ws.extend([INT, i]);
}

/// An array of 16 one-letter texts, each a `String` or a `StringName` by the bits of `i`: keys
/// that would share a hash if a `StringName` element hashed as its `String`.
fn string_name_key(i: u32, ws: &mut Vec<u32>) {
    ws.extend([ARRAY, 16]);
    for bit in 0..16 {
        ws.extend([if i >> bit & 1 == 1 { STRING_NAME } else { STRING }, 1, 0x61]);
    }
}

/// `[i, NaN]`: in Godot 4 equal to no key, itself included.
fn nan_key(i: u32, ws: &mut Vec<u32>) {
    ws.extend([ARRAY, 2, INT, i, FLOAT64, 0, 0x7ff8_0000]);
}

/// `{0: 0, ..., 7: 7}` in the `i`-th order: the same entries in another order make another key.
fn order_key(i: u32, ws: &mut Vec<u32>) {
    let mut left: Vec<u32> = (0..8).collect();
    let mut rest = i as usize;
    ws.extend([DICTIONARY, 8]);
    for n in (1..=8usize).rev() {
        let k = left.remove(rest % n);
        rest /= n;
        ws.extend([INT, k, INT, k]);
    }
}

/// The hostile shapes: name, and a generator of about `size` bytes.
type Shape = (&'static str, fn(usize) -> Vec<u8>);

const SHAPES: [Shape; 9] = [
    ("two equal tree keys", |size| two_trees(size, true)),
    ("two tree keys differing in their last leaf", |size| two_trees(size, false)),
    ("chains of 64 dictionaries as keys", |size| keys(size / 780, |i, ws| chain_key(64, i, ws))),
    ("chains of 64 dictionaries as values, as keys", |size| {
        keys(size / 780, |i, ws| values_key(64, i, ws))
    }),
    ("arrays differing at the end", |size| keys(size / 532, array_key)),
    ("one chain key repeated", |size| keys(size / 780, |_, ws| chain_key(64, 0, ws))),
    ("arrays of Strings and StringNames", |size| keys(size / 212, string_name_key)),
    ("arrays holding a NaN", |size| keys(size / 36, nan_key)),
    ("dictionaries with the same entries in another order", |size| keys(size / 144, order_key)),
];

/// The dictionary `bytes` decode to.
fn decoded(bytes: &[u8]) -> Dictionary {
    match gdvariant::decode(bytes, Options::godot4()).unwrap() {
        Variant::Dictionary(dictionary) => *dictionary,
        other => panic!("not a dictionary: {other:?}"),
    }
}

/// The shape whose keys equal no key, themselves included (never found, never equal).
const UNFINDABLE: &str = "arrays holding a NaN";

/// Asserts that `op` does linear work on every shape.
fn linear(what: &str, factor: u64, op: impl Fn(&[u8])) {
    linear_on(what, factor, true, op);
}

/// Asserts that `op` does linear work on every shape (but the one whose keys are never found,
/// unless `unfindable`).
fn linear_on(what: &str, factor: u64, unfindable: bool, op: impl Fn(&[u8])) {
    for (name, make) in SHAPES {
        if !unfindable && name == UNFINDABLE {
            continue;
        }
        let [a, b] = assert_linear(
            &format!("{what}: {name}"),
            16 << 10,
            factor,
            |size| (make(size), Options::godot4()),
            |bytes, _| op(bytes),
        );
        if std::env::var_os("WORK_TRACE").is_some() {
            eprintln!("{what}: {name}: {a:?} {b:?}");
        }
    }
}

#[test]
fn decoding_hostile_keys_is_linear() {
    linear("decode", 8, |bytes| {
        gdvariant::decode(bytes, Options::godot4()).unwrap();
    });
}

#[test]
fn decoding_hostile_keys_into_a_used_value_is_linear() {
    // The used value is the same hostile dictionary, decoded first: the work counted is that
    // decode and `decode_into`'s, which empties it and reads the bytes into its room.
    linear("decode_into", 16, |bytes| {
        let mut used = gdvariant::decode(bytes, Options::godot4()).unwrap();
        gdvariant::decode_into(bytes, Options::godot4(), &mut used).unwrap();
    });
}

#[test]
fn inserting_hostile_keys_is_linear() {
    linear("insert", 12, |bytes| {
        let entries = decoded(bytes).into_entries();
        let mut fresh = Dictionary::new();
        for (key, value) in entries {
            fresh.insert(key, value);
        }
        assert!(!fresh.is_empty());
    });
}

#[test]
fn looking_up_hostile_keys_is_linear() {
    linear_on("get", 12, false, |bytes| {
        let (first, second) = (decoded(bytes), decoded(bytes));
        // Each key is found in the other decoding: hashed, then compared in depth once.
        for (key, value) in second.iter() {
            let found = first.get(key).unwrap();
            if first.len() == second.len() {
                assert!(found.same(value));
            }
        }
    });
}

#[test]
fn removing_a_hostile_key_is_linear() {
    linear_on("remove", 12, false, |bytes| {
        let mut dictionary = decoded(bytes);
        let key = dictionary.keys().last().unwrap().clone();
        let len = dictionary.len();
        assert!(dictionary.remove(&key).is_some());
        assert_eq!(dictionary.len(), len - 1);
    });
}

#[test]
fn comparing_hostile_keys_is_linear() {
    linear_on("eq", 12, false, |bytes| {
        let (first, second) = (decoded(bytes), decoded(bytes));
        assert!(first == second);
        let (first, second) = (Variant::from(first), Variant::from(second));
        assert!(first.same(&second));
    });
}

#[test]
fn hashing_hostile_keys_is_linear() {
    linear("hash", 12, |bytes| {
        let keys = decoded(bytes);
        // Nine other keys: the dictionary has a hash index.
        let others: Dictionary = (0..9).map(|i| (Variant::from(format!("{i}")), i)).collect();
        for key in keys.keys() {
            assert!(!others.contains_key(key));
        }
    });
}

/// Decoding the two equal tree keys compares them once, in depth: the work does not depend on
/// how alike they are (a comparison that tried every key of one side against every key of the
/// other did about 3^depth steps).
#[test]
fn equal_tree_keys_cost_about_their_size() {
    let bytes = two_trees(256 << 10, true);
    let work = units(|| {
        let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
        assert_eq!(value.as_dictionary().unwrap().len(), 1);
    });
    let validate = common::work::validate_units(&bytes, Options::godot4());
    assert!(work <= 6 * validate, "{work} units, validate {validate}");
}

// ------------------------------------------------------------------------------------------
// Depth on a small stack
// ------------------------------------------------------------------------------------------

/// Deep shapes: name, and the bytes of the deepest value Godot 4 accepts (1025 levels: the
/// innermost container sits at depth 1024).
fn deep_values() -> Vec<(&'static str, Vec<u8>)> {
    let levels = 1025;
    let nest = |open: &[u32], innermost: &[u32], close: &[u32]| {
        let mut ws = Vec::new();
        for _ in 1..levels {
            ws.extend(open);
        }
        ws.extend(innermost);
        for _ in 1..levels {
            ws.extend(close);
        }
        words(&ws)
    };
    // Alternating array, dictionary as value, dictionary as key.
    let mut mixed = Vec::new();
    for level in 1..levels {
        mixed.extend(match level % 3 {
            0 => vec![ARRAY, 1],
            1 => vec![DICTIONARY, 1, NIL],
            _ => vec![DICTIONARY, 1],
        });
    }
    mixed.extend([ARRAY, 0]);
    for level in (1..levels).rev() {
        if level % 3 == 2 {
            mixed.push(NIL);
        }
    }
    vec![
        ("arrays", nest(&[ARRAY, 1], &[ARRAY, 0], &[])),
        ("dictionaries as values", nest(&[DICTIONARY, 1, NIL], &[DICTIONARY, 0], &[])),
        ("dictionaries as keys", nest(&[DICTIONARY, 1], &[DICTIONARY, 0], &[NIL])),
        ("arrays and dictionaries as keys and values", words(&mixed)),
    ]
}

#[test]
fn whole_value_operations_fit_a_small_stack_at_the_deepest_nesting() {
    for (name, bytes) in deep_values() {
        gdvariant::validate(&bytes, Options::godot4()).unwrap_or_else(|e| panic!("{name}: {e}"));
        on_small_stack(move || {
            let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
            // Read again into the deep value: emptying it takes no deep stack either.
            let mut used = gdvariant::decode(&bytes, Options::godot4()).unwrap();
            gdvariant::decode_into(&bytes, Options::godot4(), &mut used).unwrap();
            assert!(used.same(&value), "{name}: decode_into");
            drop(used);
            let copy = value.clone();
            assert!(copy == value, "{name}");
            assert!(copy.same(&value), "{name}");
            let plain = format!("{value:?}");
            let pretty = format!("{value:#?}");
            assert!(plain.len() > 1024 && pretty.len() > plain.len(), "{name}");
            // A key: inserted, found by an equal copy, then removed.
            let mut dictionary: Dictionary = (0..9).map(|i| (i, i)).collect();
            assert_eq!(dictionary.insert(value.clone(), "deep"), None);
            assert_eq!(dictionary.get(&copy), Some(&Variant::from("deep")));
            assert!(dictionary.contains_key(&value));
            assert_eq!(dictionary.insert(copy.clone(), "again"), Some(Variant::from("deep")));
            assert_eq!(dictionary.remove(&value), Some(Variant::from("again")));
            let encoded = gdvariant::encode(&value, EncodeOptions::godot4()).unwrap();
            assert!(encoded == bytes, "{name}: re-encoded differently");
            // Each dropped here, on the small stack.
            drop(dictionary);
            drop(copy);
            drop(value);
        });
    }
}

/// Dropping allocates nothing, however deep the value: the way back is kept in the value.
#[test]
fn dropping_a_deep_value_allocates_nothing() {
    for (name, bytes) in deep_values() {
        let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
        let info = allocation_counter::measure(|| drop(value));
        assert_eq!(info.count_total, 0, "{name}: {info:?}");
    }
}
