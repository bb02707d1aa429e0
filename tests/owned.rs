//! The owned `Variant`: decoding agrees with what the real engines build (dictionary keys
//! collapse exactly as in Godot 3.2.3 and 4.6), `Dictionary` keeps Godot's key semantics, and
//! conversion is iterative and bounded.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use gdvariant::math::Vector2;
use gdvariant::{
    EncodeOptions, ErrorKind, Options, Variant, VariantType, Version, owned::Dictionary,
    owned::Object,
};

/// Every dictionary-key probe both engines decoded: our owned value, written back out, is what
/// Godot built (size, order, which key survives, which value wins).
#[test]
fn repeated_keys_collapse_as_in_both_engines() {
    for (version, file, at_least) in [
        (Version::Godot3, "dict-keys/godot3.jsonl", 80),
        (Version::Godot4, "dict-keys/godot4.jsonl", 90),
    ] {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes").join(file);
        let mut checked = 0;
        for case in read_jsonl(&path) {
            let name = case["name"].as_str().unwrap();
            // Typed dictionaries convert or drop keys while decoding; the owned value keeps the
            // wire's keys (documented).
            if name.starts_with("keys_typed_") {
                continue;
            }
            assert_eq!(case["accepted"], true, "{name}");
            let bytes = unhex(case["input_hex"].as_str().unwrap());
            let options = Options::new(version);
            let value = gdvariant::decode(&bytes, options).unwrap();
            let dictionary = value.as_dictionary().unwrap();
            assert_eq!(dictionary.len() as u64, case["size"].as_u64().unwrap(), "{name}");
            let again = value.encode(EncodeOptions::new(version)).unwrap();
            let ours = describe(gdvariant::parse(&again, options).unwrap(), version);
            let theirs = normalize(&case["result"], version);
            if let Some(difference) = first_difference(&ours, &theirs, name) {
                panic!("{version:?} {difference}");
            }
            checked += 1;
        }
        assert!(checked >= at_least, "{file}: {checked}");
    }
}

#[test]
fn dictionary_keys_follow_godot() {
    let mut d = Dictionary::new();
    assert_eq!(d.insert(1, "int"), None);
    assert_eq!(d.insert(1.0, "float"), None);
    assert_eq!(d.insert(0.0, "zero"), None);
    // -0.0 is the key 0.0: the value changes, the first key (and its sign) stays.
    assert_eq!(d.insert(-0.0, "negative zero"), Some(Variant::from("zero")));
    assert_eq!(d.keys().nth(2).unwrap().as_float().unwrap().to_bits(), 0.0f64.to_bits());
    d.insert(f64::NAN, "nan");
    assert_eq!(d.insert(f64::from_bits(0xfff8_0000_0000_0123), "other nan"), Some("nan".into()));
    d.insert(Variant::StringName("a".into()), "name");
    assert_eq!(d.insert("a", "string"), Some("name".into()));
    assert_eq!(d.insert(false, "bool"), None);
    assert_eq!(d.insert(Variant::from(vec![Variant::Int(1)]), "[1]"), None);
    assert_eq!(d.insert(Variant::from(vec![Variant::Float(1.0)]), "[1.0]"), None);
    assert_eq!(d.insert(Variant::from(vec![Variant::Int(1)]), "[1] again"), Some("[1]".into()));
    let v = |x: f64| Variant::Vector2(Vector2 { x, y: 1.0 });
    d.insert(v(0.0), "v");
    assert_eq!(d.insert(v(-0.0), "v again"), Some("v".into()));
    assert_eq!(d.insert(Object::Null, "null object"), None);
    assert_eq!(d.insert(Variant::Nil, "nil"), None);
    // An object is an instance of its own: never the same key, never found.
    assert_eq!(d.insert(Object::Id(7), "id"), None);
    assert_eq!(d.insert(Object::Id(7), "same id"), None);
    assert_eq!(d.get(&Variant::from(Object::Id(7))), None);
    let inner: Dictionary = [("k", 1)].into_iter().collect();
    d.insert(inner.clone(), "dict");
    assert_eq!(d.insert(inner, "equal dict"), Some("dict".into()));
    assert_eq!(d.len(), 14);
    assert_eq!(d.get(&Variant::Int(1)), Some(&"int".into()));
    assert_eq!(d.get(&Variant::Float(1.0)), Some(&"float".into()));
    assert!(d.contains_key(&Variant::StringName("a".into())));
    assert!(!d.contains_key(&Variant::Int(0)));
    // Removal keeps the order of the rest.
    assert_eq!(d.remove(&Variant::Float(1.0)), Some("float".into()));
    let order: Vec<VariantType> = d.keys().map(Variant::variant_type).collect();
    assert_eq!(order[..3], [VariantType::Int, VariantType::Float, VariantType::Float]);
    assert_eq!(d.get(&Variant::Float(-0.0)), Some(&"negative zero".into()));
    assert_eq!(d.get("a"), Some(&"string".into()));
}

#[test]
fn decoded_objects_are_never_the_same_key() {
    // Two keys with the same object id: Godot makes two objects (corpus/probes/dict-keys).
    let mut bytes = vec![0x1b, 0, 0, 0, 2, 0, 0, 0];
    for value in [1u32, 2] {
        bytes.extend_from_slice(&[0x18, 0, 1, 0, 5, 0, 0, 0, 0, 0, 0, 0]);
        bytes.extend_from_slice(&[2, 0, 0, 0]);
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    assert_eq!(value.as_dictionary().unwrap().len(), 2);
    // Rebuilt by a program, they stay two keys.
    let built: Dictionary = value.as_dictionary().unwrap().clone().into_iter().collect();
    assert_eq!(built.len(), 2);
    assert_eq!(built, *value.as_dictionary().unwrap());
}

/// `depth` arrays, each holding the next; the innermost holds an int.
fn nested_arrays(version: Version, depth: usize) -> Vec<u8> {
    let array = match version {
        Version::Godot3 => 0x13,
        Version::Godot4 => 0x1c,
    };
    let mut bytes = Vec::new();
    for _ in 0..depth {
        bytes.extend_from_slice(&[array, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[2, 0, 0, 0, 7, 0, 0, 0]);
    bytes
}

#[test]
fn conversion_is_bounded_by_the_depth_limit_not_the_stack() {
    // Runs on the test harness's ordinary thread: the conversion keeps its containers on the heap.
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        // 1024 arrays: the int sits at depth 1024, the deepest Godot accepts.
        let deepest = nested_arrays(version, 1024);
        let value = gdvariant::decode(&deepest, options).unwrap();
        assert_eq!(value.encode(EncodeOptions::new(version)).unwrap(), deepest);
        let error = gdvariant::decode(&nested_arrays(version, 1025), options).unwrap_err();
        assert_eq!(error, gdvariant::validate(&nested_arrays(version, 1025), options).unwrap_err());
        assert_eq!(error.kind(), ErrorKind::DepthLimit);
        // A megabyte of nested headers fails at the limit (under Miri, 32 KiB: building a
        // megabyte takes minutes there, and the limit is reached all the same).
        let levels = if cfg!(miri) { 1 << 12 } else { 1 << 17 };
        let error = gdvariant::decode(&nested_arrays(version, levels), options).unwrap_err();
        assert_eq!((error.kind(), error.offset()), (ErrorKind::DepthLimit, 1025 * 8));
        drop(value);
    }
}

#[test]
fn counts_are_checked_before_anything_is_reserved() {
    // An array that claims 2^31 - 1 elements in 8 bytes.
    let error =
        gdvariant::decode(&[0x1c, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f], Options::godot4()).unwrap_err();
    assert_eq!((error.kind(), error.offset()), (ErrorKind::BadCount { count: 0x7fff_ffff }, 4));
    // A dictionary that claims more entries than its bytes hold fails when they run out.
    let mut bytes = vec![0x1b, 0, 0, 0, 3, 0, 0, 0];
    bytes.extend_from_slice(&[0; 16]);
    let error = gdvariant::decode(&bytes, Options::godot4()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BadCount { count: 3 });
}

/// A Godot 3 property name that `str` cannot hold is `NotUnicode` only when Godot accepts the
/// value; when Godot refuses it for a problem further on, `decode` reports that problem, as
/// `validate` does (found by the `differential` fuzz target).
#[test]
fn not_unicode_gives_way_to_godots_own_error() {
    let o = Options::godot3().with_allow_objects(true);
    // A `Reference` with two properties: `<U+D800>` (accepted by Godot 3) = 7, then nothing.
    let mut cut = vec![0x11, 0, 0, 0, 9, 0, 0, 0];
    cut.extend_from_slice(b"Reference\0\0\0");
    cut.extend_from_slice(&[2, 0, 0, 0, 3, 0, 0, 0, 0xed, 0xa0, 0x80, 0, 2, 0, 0, 0, 7, 0, 0, 0]);
    let refused = gdvariant::validate(&cut, o).unwrap_err();
    assert_eq!((refused.offset(), refused.kind()), (40, ErrorKind::Truncated { needed: 4 }));
    assert_eq!(gdvariant::decode(&cut, o).unwrap_err(), refused);
    // With its second property the value is Godot's, and only the owned property name fails.
    let whole = [&cut[..], &[1, 0, 0, 0, b'a', 0, 0, 0, 0, 0, 0, 0]].concat();
    gdvariant::validate(&whole, o).unwrap();
    let not_unicode = gdvariant::decode(&whole, o).unwrap_err();
    assert_eq!((not_unicode.offset(), not_unicode.kind()), (28, ErrorKind::NotUnicode));
    // A NodePath name, a value's string, holds the surrogate.
    let path =
        [0x0f, 0, 0, 0, 1, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0xed, 0xa0, 0x80, 0];
    let Variant::NodePath(path) = gdvariant::decode(&path, Options::godot3()).unwrap() else {
        panic!("a NodePath")
    };
    assert_eq!(path.names[0].code_points().collect::<Vec<_>>(), [0xD800]);
}

#[test]
fn lazy_elements_convert_on_their_own() {
    // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
    let bytes = corpus(Version::Godot4, "dict_nested");
    let options = Options::godot4();
    let root = gdvariant::parse(&bytes, options).unwrap();
    let a = root.as_dictionary().unwrap().get_element("a").unwrap().unwrap();
    let owned = Variant::try_from(a).unwrap();
    let whole = gdvariant::decode(&bytes, options).unwrap();
    assert_eq!(whole.as_dictionary().unwrap().get("a"), Some(&owned));
    assert_eq!(Variant::try_from(root).unwrap(), whole);
}

/// A dictionary of `count` entries whose keys are `key` (already encoded), each value an int.
fn repeated_key_dictionary(version: Version, key: &[u8], count: u32) -> Vec<u8> {
    let header = match version {
        Version::Godot3 => 0x12,
        Version::Godot4 => 0x1b,
    };
    let mut bytes = vec![header, 0, 0, 0];
    bytes.extend_from_slice(&count.to_le_bytes());
    for i in 0..count {
        bytes.extend_from_slice(key);
        bytes.extend_from_slice(&[2, 0, 0, 0]);
        bytes.extend_from_slice(&i.to_le_bytes());
    }
    bytes
}

/// Keys that equal nothing (objects; Godot 3 dictionaries) and keys that all hash alike stay
/// cheap: 100,000 of them would take minutes with quadratic work.
#[test]
fn keys_that_never_match_or_hash_alike_cost_no_quadratic_work() {
    // Under Miri, 200 keys: interpreting 100,000 takes far too long, and the point there is
    // memory safety, not cost.
    const COUNT: u32 = if cfg!(miri) { 200 } else { 100_000 };
    let object_id = [0x18, 0, 1, 0, 5, 0, 0, 0, 0, 0, 0, 0];
    let empty_dictionary3 = [0x12, 0, 0, 0, 0, 0, 0, 0];
    for (version, key, expected) in [
        (Version::Godot4, &object_id[..], COUNT as usize),
        (Version::Godot3, &empty_dictionary3[..], COUNT as usize),
        // Godot 4 compares dictionaries by content: one key, the last value.
        (Version::Godot4, &[0x1b, 0, 0, 0, 0, 0, 0, 0][..], 1),
    ] {
        let bytes = repeated_key_dictionary(version, key, COUNT);
        let value = gdvariant::decode(&bytes, Options::new(version)).unwrap();
        let dictionary = value.as_dictionary().unwrap();
        assert_eq!(dictionary.len(), expected, "{version:?}");
        let last = Variant::Int(i64::from(COUNT - 1));
        assert_eq!(dictionary.values().last(), Some(&last));
        // Rebuilt by a program, the count is the same.
        let rebuilt: Dictionary = dictionary.clone().into_iter().collect();
        assert_eq!(rebuilt.len(), if version == Version::Godot3 { 1 } else { expected });
    }
}

#[test]
fn sizes_the_docs_state() {
    // Variant: 32 bytes (payloads over 24 bytes boxed), GdString 24, Object 16. Writer: 8 bytes
    // per container it can hold open.
    assert_eq!(std::mem::size_of::<Variant>(), 32);
    assert_eq!(std::mem::size_of::<gdvariant::owned::GdString>(), 24);
    assert_eq!(std::mem::size_of::<gdvariant::owned::Object>(), 16);
    let default = std::mem::size_of::<gdvariant::Writer<Vec<u8>>>();
    let light = std::mem::size_of::<gdvariant::Writer<Vec<u8>, 4>>();
    assert_eq!(default - light, 8 * (gdvariant::encoder::DEFAULT_NESTING - 4));
    assert_eq!(gdvariant::encoder::DEFAULT_NESTING, 1025);
}

/// Every dictionary-key probe of both engines again, behind 9 string keys of its own: the
/// dictionary then indexes its keys by hash instead of comparing each key in order (as it does
/// up to 8 entries), and must collapse the probe's keys the same way (which key stays, where,
/// and which value wins).
#[test]
fn indexed_dictionaries_collapse_keys_as_small_ones_do() {
    for (version, file) in
        [(Version::Godot3, "dict-keys/godot3.jsonl"), (Version::Godot4, "dict-keys/godot4.jsonl")]
    {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes").join(file);
        let options = Options::new(version);
        let mut checked = 0;
        for case in read_jsonl(&path) {
            let name = case["name"].as_str().unwrap();
            if name.starts_with("keys_typed_") {
                continue;
            }
            let bytes = unhex(case["input_hex"].as_str().unwrap());
            let small = gdvariant::decode(&bytes, options).unwrap();
            let count = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
            let mut more = bytes[..4].to_vec();
            more.extend((count + 9).to_le_bytes());
            for i in 0..9u8 {
                // "filler i": 8 bytes of text, then null.
                more.extend([4, 0, 0, 0, 8, 0, 0, 0]);
                more.extend(*b"filler ");
                more.extend([b'0' + i, 0, 0, 0, 0]);
            }
            more.extend(&bytes[8..]);
            let big = gdvariant::decode(&more, options).unwrap();
            let (small, big) = (small.as_dictionary().unwrap(), big.as_dictionary().unwrap());
            assert_eq!(big.len(), small.len() + 9, "{version:?} {name}");
            for ((k1, v1), (k2, v2)) in small.iter().zip(big.iter().skip(9)) {
                assert!(k1.same(k2) && v1.same(v2), "{version:?} {name}: {k1:?}: {v1:?}");
            }
            // Lookups agree too.
            for (key, _) in small.iter() {
                assert_eq!(
                    small.get(key).map(|v| format!("{v:?}")),
                    big.get(key).map(|v| format!("{v:?}")),
                    "{version:?} {name}: {key:?}"
                );
            }
            checked += 1;
        }
        assert!(checked >= 80, "{version:?}: {checked} probes");
    }
}

/// Dictionaries as keys (Godot 4) compare by content, entry by entry in order (Godot's hash
/// folds the entries in order), whether they are small (keys compared in order) or indexed by
/// hash: `"k3"` and `&"k3"` are one key (a key of the inner dictionary), `-0.0` equals `0.0`;
/// another value, another order, or a NaN value (compared with `==` there) makes another key
/// (`corpus/probes/dict-keys/godot4-identity.jsonl`).
#[test]
fn dictionaries_as_keys_compare_by_content_at_every_size() {
    let make = |order: &[usize], variant: bool| -> Variant {
        let mut d = Dictionary::new();
        for &i in order {
            let text = format!("k{i}");
            let key = if variant && i == 3 {
                Variant::StringName(text.into())
            } else {
                Variant::from(text)
            };
            let value = match i {
                6 => Variant::Float(if variant { -0.0 } else { 0.0 }),
                _ => Variant::Int(i as i64),
            };
            d.insert(key, value);
        }
        Variant::from(d)
    };
    for size in [7, 8, 9, 30] {
        let forward: Vec<usize> = (0..size).collect();
        let backward: Vec<usize> = (0..size).rev().collect();
        let (a, b) = (make(&forward, false), make(&forward, true));
        let reordered = make(&backward, false);
        let mut with_nan = make(&forward, false);
        with_nan.as_dictionary_mut().unwrap().insert("k5", f64::NAN);
        let mut other = make(&forward, false);
        other.as_dictionary_mut().unwrap().insert("k1", 100);
        let mut longer = make(&forward, false);
        longer.as_dictionary_mut().unwrap().insert("k100", 1);
        for fillers in [0, 9] {
            let mut outer = Dictionary::new();
            for i in 0..fillers {
                outer.insert(i, Variant::Nil);
            }
            assert_eq!(outer.insert(a.clone(), 1), None);
            assert_eq!(outer.insert(b.clone(), 2), Some(Variant::Int(1)), "size {size}");
            assert_eq!(outer.len(), fillers as usize + 1);
            assert_eq!(outer.get(&b), Some(&Variant::Int(2)));
            assert_eq!(outer.get(&other), None, "size {size}");
            assert_eq!(outer.get(&longer), None, "size {size}");
            assert_eq!(outer.get(&reordered), None, "size {size}");
            assert_eq!(outer.insert(with_nan.clone(), 5), None);
            assert_eq!(outer.get(&with_nan), None, "size {size}");
            assert_eq!(outer.insert(with_nan.clone(), 6), None);
            assert_eq!(outer.len(), fillers as usize + 3);
            // Nested one level further, in an array.
            let wrap = |v: &Variant| Variant::from(vec![Variant::Nil, v.clone()]);
            outer.insert(wrap(&a), 3);
            assert_eq!(outer.get(&wrap(&b)), Some(&Variant::Int(3)));
            assert_eq!(outer.get(&wrap(&other)), None);
            assert_eq!(outer.remove(&wrap(&b)), Some(Variant::Int(3)));
            assert_eq!(outer.remove(&a), Some(Variant::Int(2)));
            assert_eq!(outer.len(), fillers as usize + 2);
        }
    }
}
