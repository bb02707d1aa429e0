//! Work bounds of the text writer's dictionary ordering (feature `work-counter`): keys that
//! compare equal down to a deep difference, thousands of keys of types without `<`, keys that
//! are all "neither less" yet distinct, large repeated keys, and keys nested near the depth
//! limit, each at two sizes; the work grows linearly (with room for the log factor of sorting).
//!
//! A property test checks that the ordering and merging of keys are those of a straightforward
//! reference (the sorting algorithms written out, Godot's `<` and key equality by recursion) on
//! small generated dictionaries, in both versions, with ties, NaNs, String and StringName keys,
//! repeated keys, nesting past the comparison cut-off, and more than 256 entries.
#![cfg(feature = "work-counter")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

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
    // Past the comparison cut-off (all keys tie), just inside it (the innermost ints decide),
    // and a few levels further.
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
fn thousands_of_keys_nested_past_the_cut_off() {
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
        |count| dictionary(G4, count, |w, i| w.string(&format!("{prefix}{i}")).unwrap()),
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

/// A small key with many ties and repeats: nil, bools, ints, floats with NaN and -0.0, strings
/// and (Godot 4) string names, vectors with NaN, colors, packed arrays, arrays nested `budget`
/// levels, dictionaries, and when `deep`, arrays nested around the comparison cut-off (which the
/// reference's `<` compares in exponential time).
fn random_key(
    w: &mut Writer<Vec<u8>>,
    rng: &mut SplitMix,
    version: Version,
    budget: usize,
    deep: bool,
) {
    let floats = [0.0, -0.0, f32::NAN, 1.0, 2.0];
    let kinds = match (budget, deep) {
        (0, _) => 9,
        (_, false) => 11,
        (_, true) => 12,
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
        9 => {
            let len = rng.below(3);
            w.begin_array(len).unwrap();
            for _ in 0..len {
                random_key(w, rng, version, budget - 1, false);
            }
        }
        10 => {
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

/// Straightforward statements of the text writer's key rules, for comparison.
mod reference {
    use gdvariant::{VariantRef, Version};

    fn is_string(v: &VariantRef<'_>) -> bool {
        matches!(v, VariantRef::String(_) | VariantRef::StringName(_))
    }

    fn text<'a>(v: &VariantRef<'a>) -> &'a [u8] {
        v.as_gd_str().map_or(&[], |s| s.text_bytes())
    }

    fn type_id(v: &VariantRef<'_>, version: Version) -> u8 {
        let ty = v.variant_type();
        ty.id(version).or_else(|| ty.id(Version::Godot4)).unwrap()
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

    /// Godot's vector `<`.
    fn lexicographic_less(a: &[f64], b: &[f64]) -> bool {
        for i in 0..a.len() {
            if i == a.len() - 1 || a[i] != b[i] {
                return a[i] < b[i];
            }
        }
        false
    }

    /// The text writer's key order: `StringLikeVariantOrder` in Godot 4, `Variant::operator<`.
    pub fn key_less(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version) -> bool {
        if version == Version::Godot4 && is_string(a) && is_string(b) {
            return text(a) < text(b);
        }
        less(a, b, version, 0)
    }

    fn less(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version, depth: u8) -> bool {
        let (ta, tb) = (type_id(a, version), type_id(b, version));
        if ta != tb {
            return ta < tb;
        }
        match (a, b) {
            (VariantRef::Bool(x), VariantRef::Bool(y)) => !x && *y,
            (VariantRef::Int(x), VariantRef::Int(y)) => x < y,
            (VariantRef::Float(x), VariantRef::Float(y)) => x < y,
            (VariantRef::String(_) | VariantRef::StringName(_), _) => text(a) < text(b),
            (VariantRef::Vector2(_), _) => {
                lexicographic_less(&reals(a).unwrap(), &reals(b).unwrap())
            }
            (VariantRef::Array(x), VariantRef::Array(y)) if depth < 16 => {
                for (p, q) in x.iter().zip(y.iter()) {
                    let (p, q) = (p.unwrap(), q.unwrap());
                    if less(&p, &q, version, depth + 1) {
                        return true;
                    }
                    if less(&q, &p, version, depth + 1) {
                        return false;
                    }
                }
                x.len() < y.len()
            }
            _ => false,
        }
    }

    fn float_eq(a: f64, b: f64) -> bool {
        a == b || (a.is_nan() && b.is_nan())
    }

    /// Godot's key equality, containers compared element by element however deep.
    pub fn key_eq(a: &VariantRef<'_>, b: &VariantRef<'_>, version: Version) -> bool {
        use VariantRef as V;
        if is_string(a) && is_string(b) {
            let same_type = a.variant_type() == b.variant_type();
            return (same_type || version == Version::Godot4) && text(a) == text(b);
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
            (V::Float(x), V::Float(y)) => float_eq(*x, *y),
            (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x.to_vec() == y.to_vec(),
            (V::Array(x), V::Array(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| key_eq(&p.unwrap(), &q.unwrap(), version))
            }
            (V::Dictionary(x), V::Dictionary(y)) if version == Version::Godot4 => {
                x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|(p, q)| {
                        let ((pk, pv), (qk, qv)) = (p.unwrap(), q.unwrap());
                        key_eq(&pk, &qk, version) && key_eq(&pv, &qv, version)
                    })
            }
            _ => false,
        }
    }

    /// Merges each entry into the first kept one with an equal key since the last entry for
    /// which `same_run(last kept key, key)` was false.
    fn merge<'a>(
        entries: Vec<(VariantRef<'a>, VariantRef<'a>)>,
        version: Version,
        same_run: impl Fn(&VariantRef<'a>, &VariantRef<'a>) -> bool,
    ) -> Vec<(VariantRef<'a>, VariantRef<'a>)> {
        let mut kept: Vec<(VariantRef<'a>, VariantRef<'a>)> = Vec::new();
        let mut run_start = 0;
        for (key, value) in entries {
            if kept.last().is_some_and(|(last, _)| !same_run(last, &key)) {
                run_start = kept.len();
            }
            match kept[run_start..].iter_mut().find(|(k, _)| key_eq(k, &key, version)) {
                Some(kept) => kept.1 = value,
                None => kept.push((key, value)),
            }
        }
        kept
    }

    /// Godot's insertion sort.
    fn insertion_sort<T: Copy>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
        for i in 1..items.len() {
            let value = items[i];
            let mut to = 0;
            if !less(&value, &items[0]) {
                to = i;
                while to > 0 && less(&value, &items[to - 1]) {
                    to -= 1;
                }
            }
            items[to..=i].rotate_right(1);
        }
    }

    /// A stable bottom-up merge sort: runs of 1, 2, 4, ... merged pairwise from the left.
    fn merge_sort<T: Copy>(items: &mut Vec<T>, less: impl Fn(&T, &T) -> bool) {
        let mut width = 1;
        while width < items.len() {
            let mut merged = Vec::with_capacity(items.len());
            for chunk in items.chunks(2 * width) {
                let (left, right) = chunk.split_at(width.min(chunk.len()));
                let (mut i, mut j) = (0, 0);
                while i < left.len() && j < right.len() {
                    if less(&right[j], &left[i]) {
                        merged.push(right[j]);
                        j += 1;
                    } else {
                        merged.push(left[i]);
                        i += 1;
                    }
                }
                merged.extend_from_slice(&left[i..]);
                merged.extend_from_slice(&right[j..]);
            }
            *items = merged;
            width *= 2;
        }
    }

    /// The entries in print order: merged first up to 256 entries, then sorted (by insertion up
    /// to 16); past 256, sorted and then merged within runs of tied keys.
    pub fn print_order<'a>(
        entries: Vec<(VariantRef<'a>, VariantRef<'a>)>,
        version: Version,
    ) -> Vec<(VariantRef<'a>, VariantRef<'a>)> {
        let merged_first = entries.len() <= 256;
        let mut entries = if merged_first { merge(entries, version, |_, _| true) } else { entries };
        let less = |a: &(VariantRef<'a>, VariantRef<'a>), b: &(VariantRef<'a>, VariantRef<'a>)| {
            key_less(&a.0, &b.0, version)
        };
        if entries.len() <= 16 {
            insertion_sort(&mut entries, less);
        } else {
            merge_sort(&mut entries, less);
        }
        if merged_first {
            entries
        } else {
            merge(entries, version, |a, b| !key_less(a, b, version) && !key_less(b, a, version))
        }
    }
}

#[test]
fn key_order_and_merging_match_the_reference() {
    let mut rng = SplitMix(0x5EED_0001);
    for case in 0..600 {
        let version = if case % 2 == 0 { G3 } else { G4 };
        // Past 256 entries (sorted, then merged), up to 256 (merged, then merge sorted), up to 16
        // (insertion sorted, with keys nested around the cut-off).
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
            .map(|(k, v)| format!("{}: {}", text(k), text(v)))
            .collect();
        let expected = format!("{{\n{}\n}}", expected.join(",\n"));
        assert_eq!(text(value), expected, "case {case}, {version:?}, {count} entries");
    }
}
