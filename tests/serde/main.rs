//! Serde support on real engine bytes: the borrowed and the owned serializers agree on every
//! corpus case of both engines, owned values round-trip through MessagePack bit for bit (and
//! through JSON when they hold no NaN or infinity), your own types read straight from the bytes
//! (borrowing), errors name the path and the byte offset, repeated keys behave as in Godot, and
//! 1000-level values fit an ordinary 8 MiB stack.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use std::collections::{BTreeMap, HashMap};

use common::*;
use gdvariant::math::{Basis, Color, Rect2, Transform3D, Vector2, Vector3};
use gdvariant::serde::{DeError, PathSegment, from_bytes, from_variant_ref};
use gdvariant::{EncodeOptions, ErrorKind, Options, Variant, Version, Writer};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

/// Runs `f` on a thread with the 8 MiB stack of a program's main thread (test threads get 2 MiB).
fn on_8_mib_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(8 << 20).spawn(f).unwrap().join().unwrap()
}

/// A value case of a corpus: its name, bytes and options.
struct Case {
    version: Version,
    name: String,
    bytes: Vec<u8>,
    full_objects: bool,
}

impl Case {
    fn options(&self) -> Options {
        Options::new(self.version).with_allow_objects(self.full_objects)
    }

    fn encode_options(&self) -> EncodeOptions {
        EncodeOptions::new(self.version).with_full_objects(self.full_objects)
    }
}

/// Every value case of both corpora that Godot encoded.
fn value_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for version in VERSIONS {
        for case in manifest(version) {
            if !matches!(case["kind"].as_str(), Some("var2bytes" | "var_to_bytes"))
                || case["encode_failed"] == Value::Bool(true)
            {
                continue;
            }
            let name = case["name"].as_str().unwrap().to_string();
            cases.push(Case {
                version,
                bytes: corpus(version, &name),
                name,
                full_objects: case["full_objects"] == Value::Bool(true),
            });
        }
    }
    assert!(cases.len() > 290, "only {} value cases", cases.len());
    cases
}

/// Reads JSON with no recursion limit (the depth limit of `Variant` still applies).
fn variant_from_json(text: &str) -> Result<Variant, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    Variant::deserialize(&mut deserializer)
}

/// Reads MessagePack with no recursion limit of its own.
fn variant_from_msgpack(bytes: &[u8]) -> Result<Variant, rmp_serde::decode::Error> {
    let mut deserializer = rmp_serde::Deserializer::from_read_ref(bytes);
    deserializer.set_max_depth(usize::MAX);
    Variant::deserialize(&mut deserializer)
}

fn contains_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(contains_null),
        Value::Object(map) => map.values().any(contains_null),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// The lossless representation
// ---------------------------------------------------------------------------------------------

#[test]
fn borrowed_and_owned_values_serialize_identically_on_every_corpus_case() {
    // On an ordinary 8 MiB stack: the corpus holds a 1000-level array.
    on_8_mib_stack(|| {
        for case in value_cases() {
            let options = case.options();
            let what = format!("{:?} {}", case.version, case.name);
            let owned = gdvariant::decode(&case.bytes, options).unwrap();
            let borrowed = gdvariant::parse(&case.bytes, options).unwrap();
            let from_owned = serde_json::to_value(&owned).unwrap();
            let from_borrowed = serde_json::to_value(borrowed).unwrap();
            if let Some(difference) = first_difference(&from_borrowed, &from_owned, &what) {
                panic!("{difference}");
            }
            // An element writes its value.
            let element = gdvariant::parse_prefix(&case.bytes, options).unwrap();
            assert_eq!(serde_json::to_value(element).unwrap(), from_owned, "{what}");
            // The same calls, in a binary format too.
            assert_eq!(
                rmp_serde::to_vec_named(&borrowed).unwrap(),
                rmp_serde::to_vec_named(&owned).unwrap(),
                "{what}"
            );
        }
    });
}

#[test]
fn owned_values_round_trip_through_messagepack_bit_for_bit() {
    // MessagePack's decoder takes about 11 KiB of stack per level in unoptimised builds
    // (1.6 KiB optimised), which the 1000-level case exceeds on 8 MiB: see the module docs.
    with_big_stack(|| {
        for case in value_cases() {
            let what = format!("{:?} {}", case.version, case.name);
            let owned = gdvariant::decode(&case.bytes, case.options()).unwrap();
            let godot_bytes = owned.encode(case.encode_options()).unwrap();
            // Structs as maps (by name) and as arrays (by position).
            for packed in
                [rmp_serde::to_vec_named(&owned).unwrap(), rmp_serde::to_vec(&owned).unwrap()]
            {
                let back = variant_from_msgpack(&packed).unwrap();
                assert!(back.same(&owned), "{what}");
                assert_eq!(back.encode(case.encode_options()).unwrap(), godot_bytes, "{what}");
            }
        }
    });
}

#[test]
fn owned_values_round_trip_through_json_unless_they_hold_nan_or_infinity() {
    on_8_mib_stack(|| {
        let mut skipped = Vec::new();
        for case in value_cases() {
            let what = format!("{:?} {}", case.version, case.name);
            let owned = gdvariant::decode(&case.bytes, case.options()).unwrap();
            let json = serde_json::to_value(&owned).unwrap();
            if contains_null(&json) {
                // NaN and infinities are `null` in JSON.
                skipped.push(case.name);
                continue;
            }
            let back = variant_from_json(&serde_json::to_string(&owned).unwrap()).unwrap();
            assert!(back.same(&owned), "{what}");
            assert_eq!(
                back.encode(case.encode_options()).unwrap(),
                owned.encode(case.encode_options()).unwrap(),
                "{what}"
            );
        }
        skipped.sort();
        skipped.dedup();
        assert_eq!(
            skipped,
            [
                "float_inf",
                "float_nan",
                "float_neg_inf",
                "packed_float32_special",
                "pool_real_special"
            ]
        );
    });
}

#[test]
fn the_representation_is_the_documented_one() {
    let json = |variant: &Variant| serde_json::to_value(variant).unwrap();
    assert_eq!(json(&Variant::Nil), serde_json::json!("Nil"));
    assert_eq!(json(&Variant::Int(5)), serde_json::json!({"Int": 5}));
    assert_eq!(json(&Variant::StringName("a".into())), serde_json::json!({"StringName": "a"}));
    assert_eq!(
        json(&Variant::Vector2(Vector2 { x: 1.0, y: 2.0 })),
        serde_json::json!({"Vector2": {"x": 1.0, "y": 2.0}})
    );
    let bytes = corpus(Version::Godot4, "dict_typed_string_int");
    let typed = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    assert_eq!(
        json(&typed)["Dictionary"]["key_type"],
        serde_json::json!({"Builtin": "String"}),
        "{}",
        json(&typed)
    );
    let bytes = corpus(Version::Godot4, "array_typed_int");
    let typed = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    assert_eq!(json(&typed)["Array"]["element_type"], serde_json::json!({"Builtin": "Int"}));
    let bytes = corpus(Version::Godot4, "array_mixed");
    let untyped = json(&gdvariant::decode(&bytes, Options::godot4()).unwrap());
    assert_eq!(untyped["Array"].as_object().unwrap().len(), 1, "{untyped}");
    assert_eq!(
        json(&Variant::PackedByteArray(vec![1, 2])),
        serde_json::json!({"PackedByteArray": [1, 2]})
    );
    let bytes = corpus(Version::Godot4, "object_resource_full");
    let object = gdvariant::decode(&bytes, Options::godot4().with_allow_objects(true)).unwrap();
    let object = json(&object);
    assert_eq!(object["Object"]["Full"]["class"], "Resource", "{object}");
    assert!(object["Object"]["Full"]["properties"][0][0].is_string(), "{object}");
    assert_eq!(
        json(&Variant::Object(gdvariant::owned::Object::Id(7))),
        serde_json::json!({"Object": {"Id": 7}})
    );
    assert_eq!(
        json(&Variant::Object(gdvariant::owned::Object::Null)),
        serde_json::json!({"Object": "Null"})
    );
}

#[test]
fn signalling_nans_survive_messagepack() {
    let snan32 = f32::from_bits(0x7fa0_0001);
    let snan64 = f64::from_bits(0x7ff4_0000_0000_0001);
    let value = Variant::Array(gdvariant::owned::Array::from(vec![
        Variant::Float(snan64),
        Variant::Color(Color { r: snan32, g: -0.0, b: f32::INFINITY, a: 1.0 }),
        Variant::PackedFloat32Array(vec![snan32, f32::NAN]),
        Variant::Vector2(Vector2 { x: snan64, y: f64::NEG_INFINITY }),
    ]));
    let back = variant_from_msgpack(&rmp_serde::to_vec(&value).unwrap()).unwrap();
    assert!(back.same(&value));
}

#[test]
fn reading_a_variant_refuses_nesting_past_godots_limit() {
    let nested = |levels: usize| {
        let mut text = String::new();
        for _ in 0..levels {
            text.push_str(r#"{"Array":{"elements":["#);
        }
        text.push_str(r#""Nil""#);
        for _ in 0..levels {
            text.push_str("]}}");
        }
        text
    };
    with_big_stack(move || {
        // 1024 containers put the innermost value at depth 1024: accepted, as in Godot.
        let deepest = variant_from_json(&nested(1024)).unwrap();
        let bytes = deepest.encode(EncodeOptions::godot4()).unwrap();
        assert!(gdvariant::validate(&bytes, Options::godot4()).is_ok());
        std::mem::forget(deepest);
        let error = variant_from_json(&nested(1025)).unwrap_err();
        assert!(error.to_string().contains("deeper than 1024"), "{error}");
        let error = variant_from_json(&nested(100_000)).unwrap_err();
        assert!(error.to_string().contains("deeper than 1024"), "{error}");
    });
}

#[test]
fn unknown_fields_and_types_are_refused() {
    for bad in [
        r#"{"Array":{"elements":[],"extra":1}}"#,
        r#"{"Dictionary":{"entries":[[{"Int":1}]]}}"#,
        r#"{"Vector5":{"x":1}}"#,
        r#"{"Array":{}}"#,
        r#"{"Int":1.5}"#,
    ] {
        assert!(variant_from_json(bad).is_err(), "{bad}");
    }
    // Entries are inserted with Godot's rules: the last value of a repeated key wins.
    let text = r#"{"Dictionary":{"entries":[[{"Int":1},"Nil"],[{"Int":1},{"Bool":true}]]}}"#;
    let dictionary = variant_from_json(text).unwrap();
    let dictionary = dictionary.as_dictionary().unwrap();
    assert_eq!(dictionary.len(), 1);
    assert_eq!(dictionary.get(&Variant::Int(1)), Some(&Variant::Bool(true)));
}

#[test]
fn a_malformed_element_is_a_serializer_error_with_its_offset() {
    // [1, "x"] with the string's last byte replaced by an invalid one.
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    writer.begin_array(2).unwrap();
    writer.int(1).unwrap();
    writer.string("abc").unwrap();
    let mut bytes = writer.finish().unwrap();
    let bad = bytes.len() - 2;
    bytes[bad] = 0xFF;
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let error = serde_json::to_value(value).unwrap_err();
    assert!(error.to_string().contains(&format!("at byte offset {bad}")), "{error}");
    // A cut-off element: the walk reports where.
    let value = gdvariant::parse(&bytes[..bytes.len() - 4], Options::godot4());
    if let Ok(value) = value {
        let error = serde_json::to_value(value).unwrap_err();
        assert!(error.to_string().contains("byte offset"), "{error}");
    }
}

// ---------------------------------------------------------------------------------------------
// Repeated keys
// ---------------------------------------------------------------------------------------------

/// Bytes of one value, written by `write`.
fn written(options: EncodeOptions, write: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), options);
    write(&mut writer);
    writer.finish().unwrap()
}

#[test]
fn repeated_keys_serialize_as_godot_decodes_them() {
    let object_keys = |w: &mut Writer<Vec<u8>>| {
        w.object_id(5).unwrap();
        w.int(1).unwrap();
        w.object_id(5).unwrap();
        w.int(2).unwrap();
    };
    let cases: Vec<(Version, Vec<u8>, usize)> = vec![
        // 0.0 and -0.0 are one key; 1 and 1.0 are two; NaNs are one key.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(7).unwrap();
                for (key, value) in [(0.0, 1), (-0.0, 2), (f64::NAN, 3), (-f64::NAN, 4)] {
                    w.float(key).unwrap();
                    w.int(value).unwrap();
                }
                w.int(1).unwrap();
                w.int(5).unwrap();
                w.float(1.0).unwrap();
                w.int(6).unwrap();
                w.int(1).unwrap();
                w.int(7).unwrap();
            }),
            4,
        ),
        // A String and a StringName with the same text are one key in Godot 4.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(3).unwrap();
                w.string("a").unwrap();
                w.int(1).unwrap();
                w.string_name("a").unwrap();
                w.int(2).unwrap();
                w.string("b").unwrap();
                w.int(3).unwrap();
            }),
            2,
        ),
        // Decoded objects are new instances: never one key.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(2).unwrap();
                object_keys(w);
            }),
            2,
        ),
        (
            Version::Godot3,
            written(EncodeOptions::godot3(), |w| {
                w.begin_dictionary(2).unwrap();
                object_keys(w);
            }),
            2,
        ),
        // Equal dictionaries are one key in Godot 4, two in Godot 3; equal arrays one key in
        // both.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(4).unwrap();
                for value in [1, 2] {
                    w.begin_dictionary(1).unwrap();
                    w.string("k").unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
                for value in [3, 4] {
                    w.begin_array(1).unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
            }),
            2,
        ),
        (
            Version::Godot3,
            written(EncodeOptions::godot3(), |w| {
                w.begin_dictionary(4).unwrap();
                for value in [1, 2] {
                    w.begin_dictionary(1).unwrap();
                    w.string("k").unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
                for value in [3, 4] {
                    w.begin_array(1).unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
            }),
            3,
        ),
        // Past 16 entries the hashes are sorted: a repeat at each end.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(40).unwrap();
                for i in 0..39 {
                    w.int(i).unwrap();
                    w.int(i).unwrap();
                }
                w.int(0).unwrap();
                w.string("last").unwrap();
            }),
            39,
        ),
    ];
    for (version, bytes, entries) in cases {
        let options = Options::new(version);
        let owned = gdvariant::decode(&bytes, options).unwrap();
        assert_eq!(owned.as_dictionary().unwrap().len(), entries, "{owned:?}");
        let borrowed = gdvariant::parse(&bytes, options).unwrap();
        assert_eq!(
            serde_json::to_value(borrowed).unwrap(),
            serde_json::to_value(&owned).unwrap(),
            "{owned:?}"
        );
    }
}

/// A map's entries in the order the deserializer gives them.
#[derive(Debug, PartialEq)]
struct InOrder(Vec<(String, i64)>);

impl<'de> Deserialize<'de> for InOrder {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = InOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<InOrder, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(InOrder(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

#[derive(Debug, Deserialize, PartialEq)]
struct Move<'a> {
    player: &'a str,
    pos: Vector2<f32>,
    seq: u32,
}

#[test]
fn a_repeated_key_takes_its_last_value_as_in_godot() {
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(5).unwrap();
        w.string("seq").unwrap();
        w.int(1).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: 1.0f32, y: 2.0 }).unwrap();
        w.string_name("seq").unwrap();
        w.int(2).unwrap();
        w.string("player").unwrap();
        w.string("bo").unwrap();
    });
    let options = Options::godot4();
    // What the game sees.
    let dictionary = gdvariant::parse(&bytes, options).unwrap().as_dictionary().unwrap();
    assert_eq!(dictionary.get("seq").unwrap().unwrap().as_int(), Some(2));
    let m: Move<'_> = from_bytes(&bytes, options).unwrap();
    assert_eq!(m, Move { player: "bo", pos: Vector2 { x: 1.0, y: 2.0 }, seq: 2 });
    let map: HashMap<String, Value> = from_bytes(&bytes, options).unwrap();
    assert_eq!(map.len(), 3);
    assert_eq!(map["seq"], 2);
    // Each key at its first position, with its last value.
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(4).unwrap();
        for (key, value) in [("a", 1), ("b", 2), ("a", 3), ("c", 4)] {
            w.string(key).unwrap();
            w.int(value).unwrap();
        }
    });
    let entries: InOrder = from_bytes(&bytes, options).unwrap();
    assert_eq!(entries.0, [("a".into(), 3), ("b".into(), 2), ("c".into(), 4)]);
}

#[test]
fn a_repeated_property_takes_its_last_value() {
    let encode = EncodeOptions::godot4().with_full_objects(true);
    let bytes = written(encode, |w| {
        w.begin_object("Resource", 3).unwrap();
        for (name, value) in [("a", 1), ("b", 2), ("a", 3)] {
            w.property_name(name).unwrap();
            w.int(value).unwrap();
        }
    });
    let options = Options::godot4().with_allow_objects(true);
    let properties: InOrder = from_bytes(&bytes, options).unwrap();
    assert_eq!(properties.0, [("a".into(), 3), ("b".into(), 2)]);
}

// ---------------------------------------------------------------------------------------------
// Your own types
// ---------------------------------------------------------------------------------------------

#[test]
fn a_struct_borrows_its_strings_from_the_buffer() {
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(3).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: 1.5f32, y: -2.0 }).unwrap();
        w.string("seq").unwrap();
        w.int(7).unwrap();
    });
    let m: Move<'_> = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(m, Move { player: "ana", pos: Vector2 { x: 1.5, y: -2.0 }, seq: 7 });
    // Zero copy: the text is the bytes after the key "player" and the string's header.
    let range = bytes.as_ptr_range();
    assert!(range.contains(&m.player.as_ptr()));
    let at = m.player.as_ptr() as usize - bytes.as_ptr() as usize;
    assert_eq!(&bytes[at..at + 3], b"ana");
    // The same from a lazily parsed value, and from Godot 3 bytes.
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    assert_eq!(from_variant_ref::<Move<'_>>(value).unwrap(), m);

    // Your own vector type reads as well as the crate's.
    #[derive(Debug, Deserialize, PartialEq)]
    struct V {
        x: f64,
        y: f64,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct Mine {
        pos: V,
    }
    let mine: Mine = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(mine.pos, V { x: 1.5, y: -2.0 });
    // And as a tuple.
    #[derive(Debug, Deserialize, PartialEq)]
    struct Tuple {
        pos: (f32, f32),
    }
    assert_eq!(from_bytes::<Tuple>(&bytes, Options::godot4()).unwrap().pos, (1.5, -2.0));
}

/// The [`DeError`] of deserializing a `T` from `bytes`.
fn error_of<'de, T: Deserialize<'de> + std::fmt::Debug>(bytes: &'de [u8]) -> DeError {
    from_bytes::<T>(bytes, Options::godot4()).unwrap_err()
}

/// The offset of the value of `key` in the top-level dictionary of `bytes`.
fn value_offset(bytes: &[u8], key: &str) -> usize {
    let dictionary = gdvariant::parse(bytes, Options::godot4()).unwrap().as_dictionary().unwrap();
    dictionary.get_element(key).unwrap().unwrap().offset()
}

fn move_bytes(seq: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(3).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: 1.5f32, y: -2.0 }).unwrap();
        w.string("seq").unwrap();
        seq(w);
    })
}

#[test]
fn errors_name_the_field_path_and_the_byte_offset() {
    // Wrong type.
    let bytes = move_bytes(|w| w.string("a").unwrap());
    let error = error_of::<Move<'_>>(&bytes);
    let at = value_offset(&bytes, "seq");
    assert_eq!(at, 72);
    assert_eq!(
        error.to_string(),
        "invalid type: string \"a\", expected u32 at seq (byte offset 72)"
    );
    assert_eq!(error.path(), "seq");
    assert_eq!(error.offset(), Some(at));
    assert_eq!(error.path_segments().collect::<Vec<_>>(), [&PathSegment::Field("seq".into())]);
    assert!(error.decode_error().is_none());

    // Out of range.
    let bytes = move_bytes(|w| w.int(-1).unwrap());
    let error = error_of::<Move<'_>>(&bytes);
    assert_eq!(
        error.to_string(),
        format!("invalid value: integer `-1`, expected u32 at seq (byte offset {at})")
    );
    let bytes = move_bytes(|w| w.int(1 << 40).unwrap());
    assert!(error_of::<Move<'_>>(&bytes).to_string().starts_with("invalid value: integer"));

    // Missing field: about the dictionary, at the top.
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(1).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
    });
    let error = error_of::<Move<'_>>(&bytes);
    assert_eq!(error.to_string(), "missing field `pos` (byte offset 0)");
    assert_eq!(error.path(), "");

    // Inside a math value: the field path, the offset of the vector.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Named {
        x: String,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Pos {
        pos: Named,
    }
    let bytes = move_bytes(|w| w.int(7).unwrap());
    let error = error_of::<Pos>(&bytes);
    assert_eq!(error.path(), "pos.x");
    assert_eq!(error.offset(), Some(value_offset(&bytes, "pos")));
    assert!(error.message().starts_with("invalid type: floating point `1.5`"), "{error}");

    // Deep inside: items[3].name.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Item<'a> {
        name: &'a str,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inventory<'a> {
        #[serde(borrow)]
        items: Vec<Item<'a>>,
    }
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(1).unwrap();
        w.string("items").unwrap();
        w.begin_array(4).unwrap();
        for i in 0..4 {
            w.begin_dictionary(1).unwrap();
            w.string("name").unwrap();
            if i == 3 {
                w.int(5).unwrap();
            } else {
                w.string("sword").unwrap();
            }
        }
    });
    let error = error_of::<Inventory<'_>>(&bytes);
    assert_eq!(error.path(), "items[3].name");
    let items = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let fourth = items.as_dictionary().unwrap().get("items").unwrap().unwrap();
    let fourth = fourth.as_array().unwrap().get(3).unwrap().unwrap().as_dictionary().unwrap();
    let name_at = fourth.get_element("name").unwrap().unwrap().offset();
    assert_eq!(error.offset(), Some(name_at));
    assert_eq!(
        error.to_string(),
        format!(
            "invalid type: integer `5`, expected a borrowed string at items[3].name (byte offset {name_at})"
        )
    );

    // A non-string key in the path.
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(1).unwrap();
        w.int(9).unwrap();
        w.string("x").unwrap();
    });
    let error = from_bytes::<HashMap<i64, i64>>(&bytes, Options::godot4()).unwrap_err();
    assert_eq!(error.path(), "[9]");
}

#[test]
fn malformed_input_is_an_error_with_the_offending_offset() {
    // Bad UTF-8 in `player`.
    let mut bytes = move_bytes(|w| w.int(7).unwrap());
    let player = value_offset(&bytes, "player");
    let bad = player + 8 + 1; // header, length, then the second byte of "ana"
    bytes[bad] = 0xFF;

    // Reading lazily, the string is checked when it is reached.
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let error = from_variant_ref::<Move<'_>>(value).unwrap_err();
    assert_eq!(error.path(), "player");
    assert_eq!(error.offset(), Some(bad));
    assert_eq!(error.decode_error().unwrap().kind(), ErrorKind::InvalidUtf8);
    assert_eq!(
        error.to_string(),
        format!("string is not valid UTF-8 at player (byte offset {bad})")
    );
    // ... and not when it is not.
    #[derive(Debug, Deserialize)]
    struct JustSeq {
        seq: u32,
    }
    assert_eq!(from_variant_ref::<JustSeq>(value).unwrap().seq, 7);
    // `from_bytes` checks everything first, as Godot does.
    let error = from_bytes::<JustSeq>(&bytes, Options::godot4()).unwrap_err();
    assert_eq!(error.offset(), Some(bad));
    assert_eq!(error.decode_error().unwrap().kind(), ErrorKind::InvalidUtf8);
    assert!(std::error::Error::source(&error).is_some());

    // Truncated input.
    let bytes = move_bytes(|w| w.int(7).unwrap());
    let cut = &bytes[..bytes.len() - 2];
    let error = from_bytes::<Move<'_>>(cut, Options::godot4()).unwrap_err();
    let decode = error.decode_error().unwrap();
    assert!(matches!(decode.kind(), ErrorKind::Truncated { .. }), "{error}");
    assert_eq!(error.offset(), Some(decode.offset()));
    assert!(error.to_string().ends_with(&format!("(byte offset {})", decode.offset())));
    // Lazily: the truncated value is an error when reached, with its path.
    let value = gdvariant::parse(cut, Options::godot4()).unwrap();
    let error = from_variant_ref::<Move<'_>>(value).unwrap_err();
    assert!(error.decode_error().is_some(), "{error}");

    // Every corpus case with its last byte cut off: an error or a value, never a panic.
    with_big_stack(|| {
        for case in value_cases() {
            let cut = &case.bytes[..case.bytes.len() - 1];
            // (A final PackedByteArray may lack its padding, as Godot accepts.)
            let verdict = gdvariant::validate(cut, case.options());
            let read = from_bytes::<IgnoredAny>(cut, case.options());
            assert_eq!(read.is_ok(), verdict.is_ok(), "{}", case.name);
            if let Ok(value) = gdvariant::parse(cut, case.options()) {
                let _ = from_variant_ref::<Value>(value);
                let _ = serde_json::to_value(value);
            }
        }
    });
}

#[derive(Debug, Deserialize, PartialEq)]
struct Optional {
    a: Option<i64>,
    b: Option<i64>,
    c: Option<i64>,
    nothing: (),
}

#[test]
fn nil_is_none_and_unit() {
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(3).unwrap();
        w.string("a").unwrap();
        w.nil().unwrap();
        w.string("b").unwrap();
        w.int(5).unwrap();
        w.string("nothing").unwrap();
        w.nil().unwrap();
    });
    let optional: Optional = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(optional, Optional { a: None, b: Some(5), c: None, nothing: () });
    let bytes = corpus(Version::Godot4, "nil");
    assert_eq!(from_bytes::<Option<String>>(&bytes, Options::godot4()).unwrap(), None);
    from_bytes::<()>(&bytes, Options::godot4()).unwrap();
    let bytes = corpus(Version::Godot4, "int_42");
    assert_eq!(from_bytes::<Option<u8>>(&bytes, Options::godot4()).unwrap(), Some(42));
    assert!(from_bytes::<()>(&bytes, Options::godot4()).is_err());
}

#[test]
fn nested_structs_vectors_and_maps() {
    // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
    let bytes = corpus(Version::Godot4, "dict_nested");
    #[derive(Debug, Deserialize, PartialEq)]
    struct D {
        d: Option<i64>,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct C {
        c: (i64, i64, D),
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct B {
        b: C,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct Top {
        a: B,
        e: Vec<String>,
    }
    let top: Top = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(top, Top { a: B { b: C { c: (1, 2, D { d: None }) } }, e: vec![] });

    // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
    for version in VERSIONS {
        let bytes = corpus(version, "dict_order");
        let map: HashMap<String, i64> = from_bytes(&bytes, Options::new(version)).unwrap();
        assert_eq!(map, HashMap::from([("z".into(), 1), ("a".into(), 2), ("m".into(), 3)]));
        let map: BTreeMap<&str, u8> = from_bytes(&bytes, Options::new(version)).unwrap();
        assert_eq!(map.keys().copied().collect::<Vec<_>>(), ["a", "m", "z"]);
        let entries: InOrder = from_bytes(&bytes, Options::new(version)).unwrap();
        assert_eq!(entries.0, [("z".into(), 1), ("a".into(), 2), ("m".into(), 3)]);
    }

    // Arrays of dictionaries into vectors of structs: the corpus' 10000 dictionaries.
    #[derive(Debug, Deserialize)]
    struct Any {
        #[serde(flatten)]
        fields: HashMap<String, Value>,
    }
    let bytes = corpus(Version::Godot4, "large_array_10000_dicts");
    let all: Vec<Any> = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(all.len(), 10000);
    assert!(!all[0].fields.is_empty());
}

#[test]
fn enums_read_from_strings_indices_and_one_entry_dictionaries() {
    #[derive(Debug, Deserialize, PartialEq)]
    enum Action {
        Idle,
        Jump(u8),
        Walk { x: i32, y: i32 },
        Pair(i64, String),
    }
    let read = |write: &dyn Fn(&mut Writer<Vec<u8>>)| {
        let bytes = written(EncodeOptions::godot4(), |w| write(w));
        from_bytes::<Action>(&bytes, Options::godot4())
    };
    assert_eq!(read(&|w| w.string("Idle").unwrap()).unwrap(), Action::Idle);
    assert_eq!(read(&|w| w.string_name("Idle").unwrap()).unwrap(), Action::Idle);
    // A GDScript enum value is an int: the variant index.
    assert_eq!(read(&|w| w.int(0).unwrap()).unwrap(), Action::Idle);
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Jump").unwrap();
            w.int(3).unwrap();
        })
        .unwrap(),
        Action::Jump(3)
    );
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Walk").unwrap();
            w.begin_dictionary(2).unwrap();
            w.string("x").unwrap();
            w.int(-1).unwrap();
            w.string("y").unwrap();
            w.int(2).unwrap();
        })
        .unwrap(),
        Action::Walk { x: -1, y: 2 }
    );
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Pair").unwrap();
            w.begin_array(2).unwrap();
            w.int(4).unwrap();
            w.string("four").unwrap();
        })
        .unwrap(),
        Action::Pair(4, "four".into())
    );
    // A unit variant in a dictionary needs a null.
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Idle").unwrap();
            w.nil().unwrap();
        })
        .unwrap(),
        Action::Idle
    );
    let error = read(&|w| {
        w.begin_dictionary(1).unwrap();
        w.string("Jump").unwrap();
        w.int(300).unwrap();
    })
    .unwrap_err();
    assert_eq!(error.path(), "Jump");
    assert_eq!(error.offset(), Some(20));
    let error = read(&|w| w.string("Run").unwrap()).unwrap_err();
    assert!(error.to_string().starts_with("unknown variant `Run`"), "{error}");
    let error = read(&|w| {
        w.begin_dictionary(2).unwrap();
        for name in ["Jump", "Idle"] {
            w.string(name).unwrap();
            w.nil().unwrap();
        }
    })
    .unwrap_err();
    assert!(error.to_string().contains("one entry"), "{error}");
    assert!(read(&|w| w.float(1.0).unwrap()).is_err());
}

#[test]
fn godot_types_map_naturally() {
    let g4 = Options::godot4();
    let g3 = Options::godot3();
    // Math values into the crate's types and into tuples.
    let bytes = corpus(Version::Godot4, "vector2_basic");
    let v: Vector2<f32> = from_bytes(&bytes, g4).unwrap();
    let owned = gdvariant::decode(&bytes, g4).unwrap();
    let Variant::Vector2(expected) = owned else { panic!() };
    assert_eq!(v, expected.map(|c| c as f32));
    let bytes = corpus(Version::Godot4, "vector2i_basic");
    let (x, y): (i32, i32) = from_bytes(&bytes, g4).unwrap();
    let Variant::Vector2i(expected) = gdvariant::decode(&bytes, g4).unwrap() else { panic!() };
    assert_eq!((x, y), (expected.x, expected.y));
    let bytes = corpus(Version::Godot4, "rect2i_basic");
    let r: Rect2<i32> = from_bytes(&bytes, g4).unwrap();
    assert!(Variant::Rect2i(r).same(&gdvariant::decode(&bytes, g4).unwrap()));
    for (name, version) in
        [("basis_distinct", Version::Godot4), ("basis_distinct", Version::Godot3)]
    {
        let bytes = corpus(version, name);
        let basis: Basis<f64> = from_bytes(&bytes, Options::new(version)).unwrap();
        assert!(
            Variant::Basis(Box::new(basis))
                .same(&gdvariant::decode(&bytes, Options::new(version)).unwrap())
        );
    }
    let bytes = corpus(Version::Godot4, "transform3d_distinct");
    let t: Transform3D<f64> = from_bytes(&bytes, g4).unwrap();
    assert!(Variant::Transform3D(Box::new(t)).same(&gdvariant::decode(&bytes, g4).unwrap()));
    let bytes = corpus(Version::Godot4, "color_basic");
    let c: Color<f32> = from_bytes(&bytes, g4).unwrap();
    assert!(Variant::Color(c).same(&gdvariant::decode(&bytes, g4).unwrap()));
    #[derive(Debug, Deserialize)]
    struct Rgb {
        r: f32,
        g: f32,
        b: f32,
    }
    let rgb: Rgb = from_bytes(&bytes, g4).unwrap();
    assert_eq!((rgb.r, rgb.g, rgb.b), (c.r, c.g, c.b));

    // Packed arrays.
    let bytes = corpus(Version::Godot4, "packed_byte_len5");
    let borrowed: &[u8] = from_bytes(&bytes, g4).unwrap();
    assert!(bytes.as_ptr_range().contains(&borrowed.as_ptr()));
    let copied: Vec<u8> = from_bytes(&bytes, g4).unwrap();
    assert_eq!(borrowed, copied.as_slice());
    assert_eq!(borrowed.len(), 5);
    let bytes = corpus(Version::Godot4, "packed_string_basic");
    let strings: Vec<&str> = from_bytes(&bytes, g4).unwrap();
    let Variant::PackedStringArray(expected) = gdvariant::decode(&bytes, g4).unwrap() else {
        panic!()
    };
    assert_eq!(strings, expected);
    for (version, name) in
        [(Version::Godot4, "packed_vector2_basic"), (Version::Godot3, "pool_vector2_basic")]
    {
        let bytes = corpus(version, name);
        let vectors: Vec<Vector2<f64>> = from_bytes(&bytes, Options::new(version)).unwrap();
        let Variant::PackedVector2Array(expected) =
            gdvariant::decode(&bytes, Options::new(version)).unwrap()
        else {
            panic!()
        };
        assert_eq!(vectors, expected);
    }
    let bytes = corpus(Version::Godot4, "packed_vector3_basic");
    let vectors: Vec<Vector3<f32>> = from_bytes(&bytes, g4).unwrap();
    assert!(!vectors.is_empty());
    let bytes = corpus(Version::Godot4, "packed_int64_basic");
    let ints: Vec<i64> = from_bytes(&bytes, g4).unwrap();
    let Variant::PackedInt64Array(expected) = gdvariant::decode(&bytes, g4).unwrap() else {
        panic!()
    };
    assert_eq!(ints, expected);
    let bytes = corpus(Version::Godot3, "pool_color_basic");
    let colors: Vec<Color<f32>> = from_bytes(&bytes, g3).unwrap();
    let Variant::PackedColorArray(expected) = gdvariant::decode(&bytes, g3).unwrap() else {
        panic!()
    };
    assert_eq!(colors, expected);
    // An element of a packed array out of range names its index and offset.
    let bytes = corpus(Version::Godot4, "packed_int32_basic");
    let error = from_bytes::<Vec<u8>>(&bytes, g4).unwrap_err();
    assert!(matches!(error.path_segments().next(), Some(PathSegment::Index(_))), "{error}");
    let Some(PathSegment::Index(index)) = error.path_segments().next().cloned() else { panic!() };
    assert_eq!(error.offset(), Some(8 + 4 * index));

    // Strings, NodePaths, ids.
    let bytes = corpus(Version::Godot4, "stringname_basic");
    let text: &str = from_bytes(&bytes, g4).unwrap();
    assert!(bytes.as_ptr_range().contains(&text.as_ptr()));
    for version in VERSIONS {
        let bytes = corpus(version, "nodepath_subnames");
        let options = Options::new(version);
        let text: String = from_bytes(&bytes, options).unwrap();
        let Variant::NodePath(path) = gdvariant::decode(&bytes, options).unwrap() else { panic!() };
        assert_eq!(text, path.to_text());
        let bytes = corpus(version, "nodepath_relative_single");
        let single: &str = from_bytes(&bytes, options).unwrap();
        assert!(bytes.as_ptr_range().contains(&single.as_ptr()));
    }
    let bytes = corpus(Version::Godot4, "object_resource_id");
    let id: u64 = from_bytes(&bytes, g4).unwrap();
    let Variant::Object(gdvariant::owned::Object::Id(expected)) =
        gdvariant::decode(&bytes, g4).unwrap()
    else {
        panic!()
    };
    assert_eq!(id, expected);
    let bytes = corpus(Version::Godot4, "signal_object");
    #[derive(Debug, Deserialize)]
    struct Signal<'a> {
        name: &'a str,
        object_id: u64,
    }
    let signal: Signal<'_> = from_bytes(&bytes, g4).unwrap();
    let Variant::Signal(expected) = gdvariant::decode(&bytes, g4).unwrap() else { panic!() };
    assert_eq!((signal.name, signal.object_id), (expected.name.as_str(), expected.object_id));
    // A full object: a map of its properties.
    let bytes = corpus(Version::Godot4, "object_resource_full");
    let options = g4.with_allow_objects(true);
    let properties: HashMap<String, Value> = from_bytes(&bytes, options).unwrap();
    assert!(!properties.is_empty());

    // Every corpus case reads into a serde_json::Value and into IgnoredAny.
    with_big_stack(|| {
        for case in value_cases() {
            let what = format!("{:?} {}", case.version, case.name);
            match from_bytes::<Value>(&case.bytes, case.options()) {
                Ok(_) => {}
                // JSON objects have string keys only, and serde_json::Value takes no bytes
                // (a PackedByteArray reads as bytes, for `&[u8]`).
                Err(error) => assert!(
                    error.message().ends_with("expected a string key")
                        || error.message().starts_with("invalid type: byte array"),
                    "{what}: {error}"
                ),
            }
            from_bytes::<IgnoredAny>(&case.bytes, case.options()).unwrap();
        }
    });
}

#[test]
fn a_1000_level_array_fits_an_8_mib_stack() {
    // Godot 3.2.3: 1000 nested arrays, the innermost empty.
    let bytes = corpus(Version::Godot3, "array_nested_depth1000");
    on_8_mib_stack(move || {
        let options = Options::godot3();
        let value = gdvariant::parse(&bytes, options).unwrap();
        let owned = gdvariant::decode(&bytes, options).unwrap();
        // Serializing, borrowed and owned.
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(json, serde_json::to_string(&owned).unwrap());
        let packed = rmp_serde::to_vec_named(&value).unwrap();
        assert_eq!(packed, rmp_serde::to_vec_named(&owned).unwrap());
        // Reading a Variant back from JSON.
        assert!(variant_from_json(&json).unwrap().same(&owned));
        // Into your own recursive type, into serde_json::Value, and ignored.
        #[derive(Deserialize)]
        struct Nested(Vec<Nested>);
        let mut nested: Nested = from_bytes(&bytes, options).unwrap();
        let mut arrays = 1;
        while let Some(inner) = nested.0.pop() {
            nested = inner;
            arrays += 1;
        }
        // The top-level array and 1000 levels below it.
        assert_eq!(arrays, 1001);
        let as_json: Value = from_bytes(&bytes, options).unwrap();
        std::mem::forget(as_json);
        from_bytes::<IgnoredAny>(&bytes, options).unwrap();
        std::mem::forget(owned);
    });
}

#[test]
fn elements_serialize_as_their_values() {
    // An element of a container writes its value, straight from the buffer.
    let bytes = corpus(Version::Godot4, "array_mixed");
    let array = gdvariant::parse(&bytes, Options::godot4()).unwrap().as_array().unwrap();
    let owned = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    for (element, expected) in array.elements().zip(owned.as_array().unwrap().iter()) {
        assert_eq!(
            serde_json::to_value(element.unwrap()).unwrap(),
            serde_json::to_value(expected).unwrap()
        );
    }
}

/// The number of entries a map reads as.
struct Count(usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Count, A::Error> {
                let mut count = 0;
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
                    count += 1;
                }
                Ok(Count(count))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

#[test]
fn many_distinct_container_keys_cost_no_quadratic_work() {
    // 30000 distinct one-entry dictionaries as keys (each hashes alike on the cheap first pass),
    // then the first one again.
    const KEYS: i64 = 30_000;
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(KEYS as usize + 1).unwrap();
        for i in 0..=KEYS {
            w.begin_dictionary(1).unwrap();
            w.int(i % KEYS).unwrap();
            w.nil().unwrap();
            w.int(i).unwrap();
        }
    });
    // Quadratic work would take minutes here (a regression shows as a test that does not end).
    let count: Count = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(count.0, KEYS as usize);
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let json = serde_json::to_value(value).unwrap();
    let entries = json["Dictionary"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), KEYS as usize);
    assert_eq!(entries[0][1], serde_json::json!({"Int": KEYS}));
    // The owned dictionary indexes such keys by their content.
    let owned = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    let owned = owned.as_dictionary().unwrap();
    assert_eq!(owned.len(), KEYS as usize);
    assert_eq!(owned.values().next(), Some(&gdvariant::Variant::Int(KEYS)));
}
