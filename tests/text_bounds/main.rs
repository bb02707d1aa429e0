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

#[test]
fn keys_equal_down_to_a_deep_difference() {
    // The innermost ints decide, however deep.
    for version in [G3, G4] {
        for depth in [15, 16, 17, 24] {
            assert_linear(
                &format!("{version:?} keys nested {depth} deep"),
                300,
                FACTOR,
                |count| dictionary(version, count, |w, i| nested(w, depth, count - i)),
                print,
            );
        }
    }
}

#[test]
fn thousands_of_keys_nested_17_deep() {
    assert_linear(
        "keys nested 17 deep",
        1000,
        FACTOR,
        |count| dictionary(G4, count, |w, i| nested(w, 17, i)),
        print,
    );
}

#[test]
fn keys_nested_near_the_depth_limit() {
    // Godot 4 prints containers more than 100 levels down as empty, Godot 3 every level: each
    // part is visited once either way.
    for (version, factor) in [(G4, FACTOR), (G3, FACTOR)] {
        assert_linear(
            &format!("{version:?} keys nested 1020 deep"),
            8,
            factor,
            |count| dictionary(version, count, |w, i| nested(w, 1020, count - i)),
            print,
        );
    }
}

/// Keys of types without `<`: all tied in Godot's order, all distinct.
#[test]
fn thousands_of_distinct_keys_without_order() {
    type Key = fn(&mut Writer<Vec<u8>>, usize);
    let kinds: [(&str, Key); 8] = [
        ("PackedInt32Array", |w, i| w.packed_int32(&[7, i as i32]).unwrap()),
        ("Color", |w, i| w.color(Color { r: i as f32, g: 0.0, b: 0.0, a: 1.0 }).unwrap()),
        ("NodePath", |w, i| w.node_path(false, ["a", &i.to_string()], []).unwrap()),
        ("Dictionary", |w, i| {
            w.begin_dictionary(1).unwrap();
            w.int(i as i64).unwrap();
            w.nil().unwrap();
        }),
        ("Transform2D", |w, i| {
            let t = Transform2D { x: Vector2 { x: i as f32, y: 0.0 }, ..Default::default() };
            w.transform2d(t).unwrap();
        }),
        ("Vector2 with a NaN", |w, i| w.vector2(Vector2 { x: f32::NAN, y: i as f32 }).unwrap()),
        ("Array of a NaN vector", |w, i| {
            w.begin_array(1).unwrap();
            w.vector2(Vector2 { x: f32::NAN, y: i as f32 }).unwrap();
        }),
        ("PackedStringArray", |w, i| w.packed_strings(["s", &i.to_string()]).unwrap()),
    ];
    for version in [G3, G4] {
        for (name, key) in kinds {
            assert_linear(
                &format!("{version:?} {name} keys"),
                1000,
                FACTOR,
                |count| dictionary(version, count, key),
                print,
            );
        }
    }
}

/// Keys Godot 3 orders inconsistently (different pool arrays are each less than the other, as
/// are arrays of one element, `[x] < [y]` being `!(x < y)`), which makes Godot's insertion sort
/// quadratic: the exact sort stops at its budget and a merge sort finishes.
#[test]
fn thousands_of_keys_each_less_than_the_other() {
    type Key = fn(&mut Writer<Vec<u8>>, usize);
    let kinds: [(&str, Key); 3] = [
        ("PoolIntArray", |w, i| w.packed_int32(&[i as i32, 1]).unwrap()),
        ("PoolVector2Array", |w, i| {
            w.packed_vector2(&[Vector2 { x: i as f32, y: 0.0 }, Vector2::default()]).unwrap();
        }),
        ("Array of one equal int", |w, _| {
            w.begin_array(1).unwrap();
            w.int(0).unwrap();
        }),
    ];
    for (name, key) in kinds {
        assert_linear(
            &format!("Godot3 {name} keys"),
            1000,
            FACTOR,
            |count| dictionary(G3, count, key),
            print,
        );
    }
}

/// Keys Godot 3 does not find when it prints their values: pools of reals holding a NaN, and
/// dictionaries holding such a key (printing them adds an entry, which changes their hash),
/// nested as keys of keys.
#[test]
fn thousands_of_keys_godot3_does_not_find() {
    assert_linear(
        "Godot3 pools of reals with a NaN",
        1000,
        FACTOR,
        |count| dictionary(G3, count, |w, i| w.packed_float32(&[f32::NAN, i as f32]).unwrap()),
        print,
    );
    assert_linear(
        "Godot3 dictionaries with such a key, nested as keys",
        300,
        FACTOR,
        |count| {
            dictionary(G3, count, |w, i| {
                for _ in 0..3 {
                    w.begin_dictionary(1).unwrap();
                }
                w.packed_float32(&[f32::NAN]).unwrap();
                for _ in 0..3 {
                    w.int(i as i64).unwrap();
                }
            })
        },
        print,
    );
}

#[test]
fn thousands_of_repeated_keys_without_order() {
    // Each key twice, the repeats in reverse order: every repeat is merged.
    assert_linear(
        "repeated PackedInt32Array keys",
        1000,
        FACTOR,
        |count| {
            let half = count / 2;
            dictionary(G4, half * 2, |w, i| {
                let k = if i < half { i } else { 2 * half - 1 - i };
                w.packed_int32(&[k as i32]).unwrap();
            })
        },
        print,
    );
}

#[test]
fn thousands_of_keys_differing_in_their_string_names_and_inner_repeats() {
    // Godot 4 tells a StringName from its String inside a key, and merges an inner
    // dictionary's repeated keys before comparing it: arrays of 16 texts, each a String or a
    // StringName by the bits of the index, then a dictionary whose key 0 repeats with values
    // that make half the keys equal.
    assert_linear(
        "arrays of Strings and StringNames, inner dictionaries with repeated keys",
        1000,
        FACTOR,
        |count| {
            dictionary(G4, count, |w, i| {
                w.begin_array(17).unwrap();
                for bit in 0..16 {
                    if i >> bit & 1 == 1 {
                        w.string_name("a").unwrap();
                    } else {
                        w.string("a").unwrap();
                    }
                }
                w.begin_dictionary(3).unwrap();
                w.int(0).unwrap();
                w.int(i as i64).unwrap();
                w.int(1).unwrap();
                w.float(1.5).unwrap();
                w.int(0).unwrap();
                w.int((i / 2) as i64).unwrap();
            })
        },
        print,
    );
}

#[test]
fn thousands_of_keys_with_a_long_common_prefix() {
    assert_linear(
        "arrays of 32 zeros and an index",
        1000,
        FACTOR,
        |count| {
            dictionary(G4, count, |w, i| {
                w.begin_array(33).unwrap();
                for _ in 0..32 {
                    w.int(0).unwrap();
                }
                w.int(i as i64).unwrap();
            })
        },
        print,
    );
    let prefix = "x".repeat(2000);
    assert_linear(
        "strings of 2000 bytes and an index",
        250,
        FACTOR,
        // In reverse order (Godot's quicksort takes twice as many comparisons on some orders
        // of some sizes, which the growth check would take for a worse bound).
        |count| {
            dictionary(G4, count, |w, i| w.string(&format!("{prefix}{:06}", count - i)).unwrap())
        },
        print,
    );
}

#[test]
fn few_large_keys_equal_but_for_their_last_element() {
    // Up to 256 entries, repeated keys are merged before sorting: each key's equality with the
    // others must not cost its size each time.
    for count in [16, 256, 257] {
        assert_linear(
            &format!("{count} arrays equal but for the last element"),
            64,
            FACTOR,
            |len| {
                dictionary(G4, count, |w, i| {
                    w.begin_array(len).unwrap();
                    for _ in 1..len {
                        w.int(0).unwrap();
                    }
                    w.int(i as i64).unwrap();
                })
            },
            print,
        );
    }
}

#[test]
fn large_keys_nested_inside_the_cut_off() {
    // Keys holding a large array 15 levels down: found by walking, once per level.
    assert_linear(
        "arrays 15 deep around a large one",
        64,
        FACTOR,
        |len| {
            dictionary(G4, 64, |w, i| {
                for _ in 0..15 {
                    w.begin_array(1).unwrap();
                }
                w.begin_array(len).unwrap();
                for _ in 1..len {
                    w.int(0).unwrap();
                }
                w.int(i as i64).unwrap();
            })
        },
        print,
    );
}

/// splitmix64: a tiny deterministic generator.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A small key with many ties and repeats: nil, null objects, bools, ints, floats with NaN and
/// -0.0, strings and (Godot 4) string names, vectors with NaN, colors, packed arrays of ints and
/// of floats (with NaN and -0.0), arrays nested `budget` levels, dictionaries, and when `deep`,
/// arrays nested 14 to 18 levels.
fn random_key(
    w: &mut Writer<Vec<u8>>,
    rng: &mut SplitMix,
    version: Version,
    budget: usize,
    deep: bool,
) {
    let floats = [0.0, -0.0, f32::NAN, 1.0, 2.0];
    let kinds = match (budget, deep) {
        (0, _) => 11,
        (_, false) => 13,
        (_, true) => 14,
    };
    match rng.below(kinds) {
        0 => w.nil().unwrap(),
        1 => w.bool(rng.below(2) == 0).unwrap(),
        2 => w.int(rng.below(3) as i64).unwrap(),
        3 => w.float(f64::from(rng.pick(&floats))).unwrap(),
        4 => w.string(rng.pick(&["", "a", "b"])).unwrap(),
        5 if version == G4 => w.string_name(rng.pick(&["a", "b"])).unwrap(),
        5 => w.string("a").unwrap(),
        6 => w.vector2(Vector2 { x: rng.pick(&floats), y: rng.pick(&floats) }).unwrap(),
        7 => w.color(Color { r: rng.pick(&floats), g: 0.0, b: 0.0, a: 1.0 }).unwrap(),
        8 => w.packed_int32(&[rng.below(2) as i32]).unwrap(),
        9 => w.packed_float32(&[rng.pick(&floats)]).unwrap(),
        10 => w.object_id(0).unwrap(),
        11 => {
            let len = rng.below(3);
            w.begin_array(len).unwrap();
            for _ in 0..len {
                random_key(w, rng, version, budget - 1, false);
            }
        }
        12 => {
            let len = rng.below(3);
            w.begin_dictionary(len).unwrap();
            for _ in 0..len {
                random_key(w, rng, version, budget - 1, false);
                random_key(w, rng, version, budget - 1, false);
            }
        }
        _ => {
            let depth = 14 + rng.below(5);
            for _ in 0..depth {
                w.begin_array(1).unwrap();
            }
            random_key(w, rng, version, 0, false);
        }
    }
}

/// Straightforward statements of Godot's key rules, for comparison: its `<` and its key
/// equality by recursion, its sort written out as in `sort_array.h`.
mod reference {
    use std::cmp::Ordering;

    use gdvariant::{VariantRef, Version, view::ObjectRef};

    use super::{G3, G4};

    fn is_string(v: &VariantRef<'_>) -> bool {
        matches!(v, VariantRef::String(_) | VariantRef::StringName(_))
    }

    fn text<'a>(v: &VariantRef<'a>) -> &'a [u8] {
        v.as_gd_str().map_or(&[], |s| s.text_bytes())
    }

    fn type_id(v: &VariantRef<'_>, version: Version) -> u8 {
        let ty = v.variant_type();
        ty.id(version).or_else(|| ty.id(G4)).unwrap()
    }

    fn items<'a>(v: &VariantRef<'a>) -> Vec<VariantRef<'a>> {
        v.as_array().unwrap().iter().map(Result::unwrap).collect()
    }

    fn entries<'a>(v: &VariantRef<'a>) -> Vec<(VariantRef<'a>, VariantRef<'a>)> {
        v.as_dictionary().unwrap().iter().map(Result::unwrap).collect()
    }

    /// Real components as a single-precision engine stores them.
    fn reals(v: &VariantRef<'_>) -> Option<Vec<f64>> {
        let narrow = |c: f64| f64::from(c as f32);
        match v {
            VariantRef::Vector2(r) => Some(vec![narrow(r.get().x), narrow(r.get().y)]),
            VariantRef::Color(c) => Some([c.r, c.g, c.b, c.a].map(f64::from).to_vec()),
            _ => None,
        }
    }

    fn floats(v: &VariantRef<'_>) -> Vec<f32> {
        match v {
            VariantRef::PackedFloat32Array(p) => p.iter().collect(),
            _ => unreachable!(),
        }
    }

    /// Godot's vector `<`.
    fn lexicographic_less(a: &[f64], b: &[f64]) -> bool {
        for i in 0..a.len() {
            if i == a.len() - 1 || a[i] != b[i] {
                return a[i] < b[i];
            }
        }
        false
    }

    /// The text writer's key order: `StringLikeVariantOrder` in Godot 4, `Variant::operator<`
    /// in Godot 3.
    pub fn key_less(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version) -> bool {
        match version {
            G4 if is_string(a) && is_string(b) => text(a) < text(b),
            G4 => cmp4(a, b) == Ordering::Less,
            G3 => less3(a, b),
        }
    }

    /// Godot 4's `Variant::operator<`, both ways at once (`Array::operator<` asks `<` both ways
    /// for each element, and Godot 4's `<` is never true both ways).
    fn cmp4(a: &VariantRef<'_>, b: &VariantRef<'_>) -> Ordering {
        let (ta, tb) = (type_id(a, G4), type_id(b, G4));
        if ta != tb {
            return ta.cmp(&tb);
        }
        let both = |less: bool, greater: bool| match (less, greater) {
            (true, _) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => Ordering::Equal,
        };
        match (a, b) {
            (VariantRef::Bool(x), VariantRef::Bool(y)) => x.cmp(y),
            (VariantRef::Int(x), VariantRef::Int(y)) => x.cmp(y),
            (VariantRef::Float(x), VariantRef::Float(y)) => both(x < y, y < x),
            (VariantRef::String(_) | VariantRef::StringName(_), _) => text(a).cmp(text(b)),
            (VariantRef::Vector2(_), _) => {
                let (x, y) = (reals(a).unwrap(), reals(b).unwrap());
                both(lexicographic_less(&x, &y), lexicographic_less(&y, &x))
            }
            (VariantRef::Array(_), VariantRef::Array(_)) => {
                let (x, y) = (items(a), items(b));
                for (p, q) in x.iter().zip(&y) {
                    let order = cmp4(p, q);
                    if order != Ordering::Equal {
                        return order;
                    }
                }
                x.len().cmp(&y.len())
            }
            _ => Ordering::Equal,
        }
    }

    /// Godot 3's `Variant::operator<`.
    fn less3(a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
        let (ta, tb) = (type_id(a, G3), type_id(b, G3));
        if ta != tb {
            return ta < tb;
        }
        match (a, b) {
            (VariantRef::Bool(x), VariantRef::Bool(y)) => !x && *y,
            (VariantRef::Int(x), VariantRef::Int(y)) => x < y,
            (VariantRef::Float(x), VariantRef::Float(y)) => x < y,
            (VariantRef::String(_), _) => text(a) < text(b),
            (VariantRef::Vector2(_), _) => {
                lexicographic_less(&reals(a).unwrap(), &reals(b).unwrap())
            }
            (VariantRef::Array(_), _) => {
                // `variant_op.cpp`: not longer, and some element not less.
                let (x, y) = (items(a), items(b));
                if y.len() < x.len() {
                    return false;
                }
                (0..x.len()).any(|i| !less3(&x[i], &y[i]))
            }
            (VariantRef::PackedInt32Array(x), VariantRef::PackedInt32Array(y)) => {
                x.to_vec() != y.to_vec()
            }
            (VariantRef::PackedFloat32Array(_), _) => {
                let (x, y) = (floats(a), floats(b));
                x.len() != y.len() || x.iter().zip(&y).any(|(p, q)| p != q)
            }
            (VariantRef::Object(x), VariantRef::Object(y)) => {
                matches!(x, ObjectRef::Null) && !matches!(y, ObjectRef::Null)
            }
            _ => false,
        }
    }

    fn float_eq(a: f64, b: f64) -> bool {
        a == b || (a.is_nan() && b.is_nan())
    }

    /// Whether Godot 3 does not find `v` when it looks it up as a key: a pool of reals holding
    /// a NaN (never equal, not even to itself), an array holding a lost value, or a value holding
    /// a dictionary with a lost key (printing that dictionary adds an entry for it, which changes
    /// the hash of what holds it).
    pub fn lost(v: &VariantRef<'_>, version: Version) -> bool {
        version == G3 && (irreflexive(v) || mutates(v))
    }

    fn irreflexive(v: &VariantRef<'_>) -> bool {
        match v {
            VariantRef::PackedFloat32Array(_) => floats(v).iter().any(|f| f.is_nan()),
            VariantRef::Array(_) => items(v).iter().any(irreflexive),
            _ => false,
        }
    }

    fn mutates(v: &VariantRef<'_>) -> bool {
        match v {
            VariantRef::Array(_) => items(v).iter().any(mutates),
            VariantRef::Dictionary(_) => {
                entries(v).iter().any(|(k, value)| lost(k, G3) || mutates(k) || mutates(value))
            }
            _ => false,
        }
    }

    /// Godot's key equality (`hash_compare`, with Godot 3's hash of a pool of reals by its
    /// bytes). Godot 4 compares floats in array elements and dictionary values with `==`
    /// (`semantic` false), so a NaN there differs from everything.
    fn eq(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version, semantic: bool) -> bool {
        use VariantRef as V;
        if lost(a, version) || lost(b, version) {
            return false;
        }
        if is_string(a) && is_string(b) {
            let same_type = a.variant_type() == b.variant_type();
            return (same_type || version == G4) && text(a) == text(b);
        }
        if a.variant_type() != b.variant_type() {
            return false;
        }
        if let (Some(x), Some(y)) = (reals(a), reals(b)) {
            return x.iter().zip(&y).all(|(p, q)| float_eq(*p, *q));
        }
        match (a, b) {
            (V::Nil, V::Nil) => true,
            (V::Bool(x), V::Bool(y)) => x == y,
            (V::Int(x), V::Int(y)) => x == y,
            (V::Float(x), V::Float(y)) => {
                if semantic || version == G3 {
                    float_eq(*x, *y)
                } else {
                    x == y
                }
            }
            (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x.to_vec() == y.to_vec(),
            (V::PackedFloat32Array(_), _) => {
                let (x, y) = (floats(a), floats(b));
                match version {
                    G3 => x.iter().map(|f| f.to_bits()).eq(y.iter().map(|f| f.to_bits())),
                    G4 => {
                        x.len() == y.len()
                            && x.iter().zip(&y).all(|(p, q)| p == q || p.is_nan() && q.is_nan())
                    }
                }
            }
            (V::Object(x), V::Object(y)) => {
                matches!(x, ObjectRef::Null) && matches!(y, ObjectRef::Null)
            }
            (V::Array(_), V::Array(_)) => {
                let (x, y) = (items(a), items(b));
                x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| eq(p, q, version, false))
            }
            (V::Dictionary(_), V::Dictionary(_)) if version == G4 => {
                let (x, y) = (entries(a), entries(b));
                x.len() == y.len()
                    && x.iter().zip(&y).all(|((pk, pv), (qk, qv))| {
                        eq(pk, qk, version, true) && eq(pv, qv, version, false)
                    })
            }
            _ => false,
        }
    }

    type Entry<'a> = (VariantRef<'a>, Option<VariantRef<'a>>);

    /// Godot's decoder: each entry set in wire order (an equal key keeps its place and takes
    /// the new value). A lost key is set anew each time, and printed with `null`.
    fn merge<'a>(wire: Vec<(VariantRef<'a>, VariantRef<'a>)>, version: Version) -> Vec<Entry<'a>> {
        let mut kept: Vec<Entry<'a>> = Vec::new();
        for (key, value) in wire {
            if lost(&key, version) {
                kept.push((key, None));
                continue;
            }
            match kept.iter_mut().find(|(k, _)| eq(k, &key, version, true)) {
                Some(entry) => entry.1 = Some(value),
                None => kept.push((key, Some(value))),
            }
        }
        kept
    }

    /// `SortArray::sort` of `core/templates/sort_array.h`, with its checks for bad comparison
    /// functions (both engines' builds have them).
    struct Sort<'l, T> {
        less: &'l dyn Fn(&T, &T) -> bool,
    }

    impl<T: Copy> Sort<'_, T> {
        fn median_of_3(&self, a: T, b: T, c: T) -> T {
            let less = self.less;
            if less(&a, &b) {
                if less(&b, &c) {
                    b
                } else if less(&a, &c) {
                    c
                } else {
                    a
                }
            } else if less(&a, &c) {
                a
            } else if less(&b, &c) {
                c
            } else {
                b
            }
        }

        fn push_heap(&self, first: usize, mut hole: usize, top: usize, value: T, v: &mut [T]) {
            while hole > top && (self.less)(&v[first + (hole - 1) / 2], &value) {
                let parent = (hole - 1) / 2;
                v[first + hole] = v[first + parent];
                hole = parent;
            }
            v[first + hole] = value;
        }

        fn adjust_heap(&self, first: usize, mut hole: usize, len: usize, value: T, v: &mut [T]) {
            let top = hole;
            let mut second = 2 * hole + 2;
            while second < len {
                if (self.less)(&v[first + second], &v[first + second - 1]) {
                    second -= 1;
                }
                v[first + hole] = v[first + second];
                hole = second;
                second = 2 * (second + 1);
            }
            if second == len {
                v[first + hole] = v[first + second - 1];
                hole = second - 1;
            }
            self.push_heap(first, hole, top, value, v);
        }

        fn pop_heap(&self, first: usize, last: usize, result: usize, value: T, v: &mut [T]) {
            v[result] = v[first];
            self.adjust_heap(first, 0, last - first, value, v);
        }

        fn partial_sort(&self, first: usize, last: usize, v: &mut [T]) {
            // make_heap
            let len = last - first;
            if len >= 2 {
                let mut parent = (len - 2) / 2;
                loop {
                    self.adjust_heap(first, parent, len, v[first + parent], v);
                    if parent == 0 {
                        break;
                    }
                    parent -= 1;
                }
            }
            // sort_heap
            let mut end = last;
            while end - first > 1 {
                self.pop_heap(first, end - 1, end - 1, v[end - 1], v);
                end -= 1;
            }
        }

        fn partitioner(&self, mut first: usize, mut last: usize, pivot: T, v: &mut [T]) -> usize {
            let (start, end) = (first, last);
            loop {
                while (self.less)(&v[first], &pivot) {
                    if first == end - 1 {
                        break;
                    }
                    first += 1;
                }
                last -= 1;
                while (self.less)(&pivot, &v[last]) {
                    if last == start {
                        break;
                    }
                    last -= 1;
                }
                if first >= last {
                    return first;
                }
                v.swap(first, last);
                first += 1;
            }
        }

        fn introsort(&self, first: usize, mut last: usize, mut depth: usize, v: &mut [T]) {
            while last - first > 16 {
                if depth == 0 {
                    self.partial_sort(first, last, v);
                    return;
                }
                depth -= 1;
                let pivot = self.median_of_3(v[first], v[first + (last - first) / 2], v[last - 1]);
                let cut = self.partitioner(first, last, pivot, v);
                self.introsort(cut, last, depth, v);
                last = cut;
            }
        }

        fn unguarded_linear_insert(&self, mut last: usize, value: T, v: &mut [T]) {
            let mut next = last - 1;
            while (self.less)(&value, &v[next]) {
                if next == 0 {
                    break;
                }
                v[last] = v[next];
                last = next;
                next -= 1;
            }
            v[last] = value;
        }

        fn insertion_sort(&self, first: usize, last: usize, v: &mut [T]) {
            for i in first + 1..last {
                let value = v[i];
                if (self.less)(&value, &v[first]) {
                    v[first..=i].rotate_right(1);
                } else {
                    self.unguarded_linear_insert(i, value, v);
                }
            }
        }

        fn sort(&self, v: &mut [T]) {
            let n = v.len();
            if n == 0 {
                return;
            }
            self.introsort(0, n, 2 * n.ilog2() as usize, v);
            if n > 16 {
                self.insertion_sort(0, 16, v);
                for i in 16..n {
                    self.unguarded_linear_insert(i, v[i], v);
                }
            } else {
                self.insertion_sort(0, n, v);
            }
        }
    }

    /// The entries in print order: merged, then sorted as Godot sorts them.
    pub fn print_order<'a>(
        wire: Vec<(VariantRef<'a>, VariantRef<'a>)>,
        version: Version,
    ) -> Vec<Entry<'a>> {
        let mut entries = merge(wire, version);
        let less = |a: &Entry<'a>, b: &Entry<'a>| key_less(&a.0, &b.0, version);
        Sort { less: &less }.sort(&mut entries);
        entries
    }
}

#[test]
fn key_order_and_merging_match_the_reference() {
    let mut rng = SplitMix(0x5EED_0001);
    for case in 0..600 {
        let version = if case % 2 == 0 { G3 } else { G4 };
        // Beyond Godot's insertion sort (up to 16 keys), with small nested keys, and within it
        // with keys nested 14 to 18 levels.
        let (count, budget, deep) = match case % 10 {
            0 => (257 + rng.below(100), 1, false),
            1..=3 => (17 + rng.below(60), 2, false),
            _ => (1 + rng.below(16), 2, true),
        };
        let bytes = encode(version, |w| {
            w.begin_dictionary(count).unwrap();
            for i in 0..count {
                random_key(w, &mut rng, version, budget, deep);
                w.int(i as i64).unwrap();
            }
        });
        let options = Options::new(version);
        let value = gdvariant::parse(&bytes, options).unwrap();
        let dictionary = value.as_dictionary().unwrap();
        let entries = dictionary.iter().map(Result::unwrap).collect();
        let text = |v| gdvariant::text::to_text_as(v, version).unwrap();
        let expected: Vec<String> = reference::print_order(entries, version)
            .into_iter()
            .map(|(k, v)| format!("{}: {}", text(k), v.map_or("null".to_owned(), text)))
            .collect();
        let expected = format!("{{\n{}\n}}", expected.join(",\n"));
        assert_eq!(text(value), expected, "case {case}, {version:?}, {count} entries");
    }
}
