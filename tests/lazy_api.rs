//! The lazy API on real engine bytes: typed getters' three outcomes (value, absent, wrong type),
//! elements' exact raw bytes and offsets, path lookups, Godot's last-duplicate-key-wins rule,
//! and the size of the handles.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::corpus;

use gdvariant::{
    Error, ErrorKind, Key, Options, VariantRef, VariantType, Version, view::ContainerType,
    view::ObjectRef,
};

#[test]
fn dictionary_lookups_on_real_data() {
    let o = Options::godot4();
    // {"a": 1, "b": "two"}: header 0, count 4, "a" 8, 1 at 20, "b" 28, "two" at 40.
    let bytes = corpus(Version::Godot4, "dict_simple");
    let d = gdvariant::parse(&bytes, o).unwrap().as_dictionary().unwrap();
    assert_eq!(
        (d.len(), d.offset(), d.key_type(), d.value_type()),
        (2, 0, Ok(ContainerType::Untyped), Ok(ContainerType::Untyped))
    );
    assert_eq!(d.get("a").unwrap().unwrap().as_int(), Some(1));
    assert_eq!(d.get_first("a").unwrap().unwrap().as_int(), Some(1));
    assert_eq!(d.get_as::<i64>("a"), Ok(Some(1)));
    assert_eq!(d.get_as::<&str>("b"), Ok(Some("two")));
    assert_eq!(d.get_as::<i64>("missing"), Ok(None));
    assert_eq!(d.get_as::<&str>("missing"), Ok(None));
    assert!(d.get("missing").unwrap().is_none());
    assert!(d.get_first("missing").unwrap().is_none());
    fn wrong<T>(expected: VariantType, found: VariantType, offset: usize) -> Result<T, Error> {
        Err(Error::new(offset, ErrorKind::WrongType { expected, found }))
    }
    assert_eq!(d.get_as::<i64>("b"), wrong(VariantType::Int, VariantType::String, 40));
    assert_eq!(d.get_as::<&str>("a"), wrong(VariantType::String, VariantType::Int, 20));
    // Keys match by type: the int 1, the float 1.0 and `true` are not keys here.
    assert!(d.get(1i64).unwrap().is_none());
    assert!(d.get(1.0f64).unwrap().is_none());
    assert!(d.get(true).unwrap().is_none());
    let b = d.get_element("b").unwrap().unwrap();
    assert_eq!((b.offset(), b.len()), (40, 12));
    assert_eq!(b.raw_bytes(), &bytes[40..52]);
    // Entries with their exact bytes.
    let mut pos = 8;
    for entry in d.entries() {
        let (k, v) = entry.unwrap();
        assert_eq!(k.offset(), pos);
        assert_eq!(k.raw_bytes(), &bytes[pos..pos + k.len()]);
        assert_eq!(v.offset(), pos + k.len());
        assert_eq!(v.raw_bytes(), &bytes[v.offset()..v.offset() + v.len()]);
        pos = v.offset() + v.len();
    }
    assert_eq!(pos, bytes.len());

    // {"z": 1, "a": 2, "m": 3}: wire order is insertion order.
    let bytes = corpus(Version::Godot4, "dict_order");
    let d = gdvariant::parse(&bytes, o).unwrap().as_dictionary().unwrap();
    let pairs: Vec<(String, i64)> = d
        .iter()
        .map(|e| {
            let (k, v) = e.unwrap();
            (k.as_gd_str().unwrap().to_str().unwrap().to_owned(), v.as_int().unwrap())
        })
        .collect();
    assert_eq!(pairs, [("z".to_owned(), 1), ("a".to_owned(), 2), ("m".to_owned(), 3)]);
    for (key, value) in [("z", 1), ("a", 2), ("m", 3)] {
        assert_eq!(d.get_as::<i64>(key), Ok(Some(value)));
        assert_eq!(d.get_first(key).unwrap().unwrap().as_int(), Some(value));
    }
}

#[test]
fn path_lookups_on_real_nested_data() {
    let o = Options::godot4();
    // {"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []}
    let bytes = corpus(Version::Godot4, "dict_nested");
    let top = gdvariant::parse(&bytes, o).unwrap();
    let root = gdvariant::parse_prefix(&bytes, o).unwrap();
    assert_eq!((root.offset(), root.len()), (0, bytes.len()));
    let c_path = [Key::from("a"), Key::from("b"), Key::from("c")];
    let c = root.lookup(&c_path).unwrap().unwrap();
    assert_eq!(c.raw_bytes(), &bytes[c.offset()..c.offset() + c.len()]);
    let c_array = c.value().as_array().unwrap();
    assert_eq!(c_array.len(), 3);
    assert_eq!(c_array.offset(), c.offset());
    assert_eq!(c_array.get_as::<i64>(0), Ok(Some(1)));
    assert_eq!(c_array.get_as::<i64>(1), Ok(Some(2)));
    assert_eq!(c_array.get_as::<i64>(3), Ok(None));
    // The same through VariantRef::lookup.
    let via_value = top.lookup(&c_path).unwrap().unwrap().as_array().unwrap();
    assert_eq!(via_value, c_array);
    // Down to the null, with an integer index step.
    let d_path = [Key::from("a"), Key::from("b"), Key::from("c"), Key::Int(2), Key::from("d")];
    let d = root.lookup(&d_path).unwrap().unwrap();
    assert!(d.value().is_nil());
    assert_eq!(d.raw_bytes(), &[0, 0, 0, 0]);
    assert!(top.lookup(&d_path).unwrap().unwrap().is_nil());
    // "e" is an empty array.
    let e = top.lookup(&[Key::from("e")]).unwrap().unwrap().as_array().unwrap();
    assert!(e.is_empty());
    // Missing keys and indices: Ok(None).
    assert!(root.lookup(&[Key::from("a"), Key::from("x")]).unwrap().is_none());
    assert!(
        root.lookup(&[Key::from("a"), Key::from("b"), Key::from("c"), Key::Int(3)])
            .unwrap()
            .is_none()
    );
    assert!(
        root.lookup(&[Key::from("a"), Key::from("b"), Key::from("c"), Key::Int(-1)])
            .unwrap()
            .is_none()
    );
    // The empty path is the value itself.
    assert_eq!(root.lookup(&[]).unwrap().unwrap().offset(), 0);
    // Stepping into a scalar: WrongType at the scalar's offset.
    let one = root
        .lookup(&[Key::from("a"), Key::from("b"), Key::from("c"), Key::Int(0)])
        .unwrap()
        .unwrap();
    assert_eq!(one.value().as_int(), Some(1));
    let err = root
        .lookup(&[Key::from("a"), Key::from("b"), Key::from("c"), Key::Int(0), Key::from("z")])
        .unwrap_err();
    assert_eq!(err.offset(), one.offset());
    assert_eq!(
        err.kind(),
        ErrorKind::WrongType { expected: VariantType::Dictionary, found: VariantType::Int }
    );
    assert!(!err.is_malformed());
    // An array given a string step.
    let err = root.lookup(&[Key::from("e"), Key::from("z")]).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::WrongType { expected: VariantType::Dictionary, found: VariantType::Array }
    );
    let e_element = root.lookup(&[Key::from("e")]).unwrap().unwrap();
    assert_eq!(err.offset(), e_element.offset());
    // Godot 3 bytes of the same value give the same answers.
    let bytes3 = corpus(Version::Godot3, "dict_nested");
    let top3 = gdvariant::parse(&bytes3, Options::godot3()).unwrap();
    assert!(top3.lookup(&d_path).unwrap().unwrap().is_nil());
}

#[test]
fn array_elements_are_exact_slices_of_real_data() {
    let o = Options::godot4();
    let bytes = corpus(Version::Godot4, "array_mixed");
    let a = gdvariant::parse(&bytes, o).unwrap().as_array().unwrap();
    let expected_types = [
        VariantType::Nil,
        VariantType::Bool,
        VariantType::Int,
        VariantType::Float,
        VariantType::Float,
        VariantType::String,
        VariantType::StringName,
        VariantType::Vector2,
        VariantType::Vector2i,
        VariantType::Array,
        VariantType::Dictionary,
        VariantType::PackedByteArray,
        VariantType::NodePath,
    ];
    assert_eq!(a.len(), expected_types.len());
    let mut pos = 8;
    for (i, ty) in expected_types.iter().enumerate() {
        let element = a.get_element(i).unwrap().unwrap();
        assert_eq!(element.offset(), pos, "element {i}");
        assert_eq!(element.variant_type(), *ty, "element {i}");
        assert_eq!(element.raw_bytes(), &bytes[pos..pos + element.len()], "element {i}");
        assert!(!element.is_empty());
        assert_eq!(a.get(i).unwrap().unwrap().variant_type(), *ty);
        // Re-parsing the raw bytes alone gives the same value and length.
        let alone = gdvariant::parse_prefix(element.raw_bytes(), o).unwrap();
        assert_eq!(alone.len(), element.len());
        assert_eq!(alone.variant_type(), *ty);
        pos += element.len();
    }
    assert_eq!(pos, bytes.len());
    assert!(a.get(13).unwrap().is_none());
    assert!(a.get_element(usize::MAX).unwrap().is_none());
    // Values.
    assert_eq!(a.get_as::<i64>(2), Ok(Some(1)));
    assert_eq!(a.get_as::<bool>(1), Ok(Some(true)));
    assert_eq!(a.get_as::<f64>(3), Ok(Some(2.5)));
    assert_eq!(a.get_as::<f64>(4), Ok(Some(0.1)));
    assert_eq!(a.get_as::<&str>(5), Ok(Some("s")));
    assert_eq!(a.get_as::<&str>(6), Ok(Some("sn")));
    assert!(matches!(a.get(11).unwrap().unwrap(), VariantRef::PackedByteArray([1, 2, 3])));
    let VariantRef::NodePath(path) = a.get(12).unwrap().unwrap() else { panic!() };
    assert_eq!(path.to_text().unwrap(), "x:y");
    let nil_at = a.get_element(0).unwrap().unwrap().offset();
    assert_eq!(
        a.get_as::<i64>(0),
        Err(Error::new(
            nil_at,
            ErrorKind::WrongType { expected: VariantType::Int, found: VariantType::Nil }
        ))
    );
    assert_eq!(a.get_as::<i64>(13), Ok(None));
    // iter() agrees with get().
    for (i, v) in a.iter().enumerate() {
        assert_eq!(v.unwrap().variant_type(), expected_types[i]);
    }
    // VariantRef::lookup on an array.
    let top = gdvariant::parse(&bytes, o).unwrap();
    assert_eq!(top.lookup(&[Key::Int(2)]).unwrap().unwrap().as_int(), Some(1));
    assert!(
        top.lookup(&[Key::Int(9), Key::from("x")]).unwrap_err().kind() != ErrorKind::DepthLimit
    );
}

#[test]
fn repeated_keys_resolve_as_in_godot() {
    // The crafted input of corpus godot4 decode.jsonl case `dec_dict_duplicate_keys`:
    // {"a": 1, "a": 2}, which Godot decodes to {"a": 2}.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/godot4/decode.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let case: serde_json::Value = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|c| c["name"] == "dec_dict_duplicate_keys")
        .unwrap();
    assert_eq!(case["accepted"], true);
    let input_hex = case["input_hex"].as_str().unwrap();
    assert_eq!(
        input_hex,
        "1b000000020000000400000001000000610000000200000001000000\
         0400000001000000610000000200000002000000"
    );
    let bytes = hex::decode(input_hex).unwrap();
    let o = Options::godot4();
    gdvariant::validate(&bytes, o).unwrap();
    let d = gdvariant::parse(&bytes, o).unwrap().as_dictionary().unwrap();
    assert_eq!(d.len(), 2);
    assert_eq!(d.get("a").unwrap().unwrap().as_int(), Some(2));
    assert_eq!(d.get_as::<i64>("a"), Ok(Some(2)));
    assert_eq!(d.get_first("a").unwrap().unwrap().as_int(), Some(1));
    assert_eq!(d.get_element("a").unwrap().unwrap().offset(), 40);
    let top = gdvariant::parse(&bytes, o).unwrap();
    assert_eq!(top.lookup(&[Key::from("a")]).unwrap().unwrap().as_int(), Some(2));
    let values: Vec<i64> = d.iter().map(|e| e.unwrap().1.as_int().unwrap()).collect();
    assert_eq!(values, [1, 2]);
    // The same bytes without the second value are truncated.
    let short = &bytes[..40];
    assert_eq!(
        gdvariant::validate(short, o).unwrap_err(),
        Error::new(40, ErrorKind::Truncated { needed: 4 })
    );
    let d = gdvariant::parse(short, o).unwrap().as_dictionary().unwrap();
    assert_eq!(d.get("a").unwrap_err(), Error::new(40, ErrorKind::Truncated { needed: 4 }));
    // get_first stops at the first match, before the damage.
    assert_eq!(d.get_first("a").unwrap().unwrap().as_int(), Some(1));
    // get_with_end reads every entry: the damage is an error, as for get.
    assert_eq!(
        d.get_with_end("a").unwrap_err(),
        Error::new(40, ErrorKind::Truncated { needed: 4 })
    );
    let d = gdvariant::parse(&bytes, o).unwrap().as_dictionary().unwrap();
    let (value, end) = d.get_with_end("a").unwrap();
    assert_eq!((value.unwrap().offset(), end), (40, bytes.len()));
}

/// One pass for a relay: `get_with_end` gives what `get_element` gives, and the end that
/// `parse_prefix` finds, on every dictionary of both corpora, for each of its string keys and
/// for a key it does not hold, with the dictionary followed by other bytes.
#[test]
fn get_with_end_agrees_with_get_and_parse_prefix() {
    let mut checked = 0;
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        for file in common::corpus_files(version, 1 << 16) {
            let bytes = std::fs::read(&file).unwrap();
            if gdvariant::validate(&bytes, options).is_err() {
                continue;
            }
            let Some(d) = gdvariant::parse(&bytes, options).unwrap().as_dictionary() else {
                continue;
            };
            let end = gdvariant::parse_prefix(&bytes, options).unwrap().len();
            let mut followed = bytes.clone();
            followed.extend_from_slice(&[2, 0, 0, 0, 7, 0, 0, 0]);
            let d2 = gdvariant::parse(&followed, options).unwrap().as_dictionary().unwrap();
            let mut keys: Vec<String> = d
                .iter()
                .filter_map(|e| {
                    let key = e.unwrap().0.as_gd_str()?;
                    key.to_str().ok().map(String::from)
                })
                .collect();
            keys.push("no such key".into());
            for key in &keys {
                let (found, found_end) = d2.get_with_end(key.as_str()).unwrap();
                assert_eq!(found_end, end, "{}", file.display());
                assert_eq!(
                    found.map(|e| e.offset()),
                    d.get_element(key.as_str()).unwrap().map(|e| e.offset()),
                    "{} {key}",
                    file.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn handles_are_small() {
    let variant = size_of::<VariantRef<'static>>();
    let error = size_of::<Error>();
    println!("size_of::<VariantRef>() = {variant}, size_of::<Error>() = {error}");
    println!(
        "FullObject {}, ObjectRef {}, NodePathRef {}, SignalRef {}, ArrayRef {}, \
         DictionaryRef {}, PackedStrings {}, GdStr {}, Element {}",
        size_of::<gdvariant::view::FullObject<'static>>(),
        size_of::<ObjectRef<'static>>(),
        size_of::<gdvariant::view::NodePathRef<'static>>(),
        size_of::<gdvariant::view::SignalRef<'static>>(),
        size_of::<gdvariant::view::ArrayRef<'static>>(),
        size_of::<gdvariant::view::DictionaryRef<'static>>(),
        size_of::<gdvariant::packed::PackedStrings<'static>>(),
        size_of::<gdvariant::view::GdStr<'static>>(),
        size_of::<gdvariant::view::Element<'static>>(),
    );
    assert!(error <= 24, "{error}");
    assert_eq!(size_of::<Options>(), 4);
    #[cfg(target_pointer_width = "64")]
    {
        // Six words: a container view (buffer, options and depth, header position, count) plus
        // the variant tag.
        assert_eq!(variant, 48);
        assert_eq!(error, 24);
    }
}

#[test]
fn debug_output_stays_short_for_large_values() {
    let bytes = corpus(Version::Godot4, "large_array_10000_dicts");
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let array = value.as_array().unwrap();
    let element = array.get_element(0).unwrap().unwrap();
    for text in [
        format!("{value:?}"),
        format!("{element:?}"),
        format!("{:?}", array.elements()),
        format!("{:?}", element.value()),
    ] {
        assert!(text.len() < 300, "{} bytes of Debug output: {}", text.len(), &text[..300]);
    }
    let path = corpus(Version::Godot4, "nodepath_subnames");
    let value = gdvariant::parse(&path, Options::godot4()).unwrap();
    assert_eq!(format!("{value:?}"), r#"NodePath("Node/Child:property:sub")"#);
    let strings = corpus(Version::Godot4, "large_packed_string_20000");
    let value = gdvariant::parse(&strings, Options::godot4()).unwrap();
    assert_eq!(
        format!("{value:?}"),
        r#"PackedStringArray(["str0", "str1", "str2", "str3", "str4", "str5", "str6", "str7", ... 20000 strings])"#
    );
}
