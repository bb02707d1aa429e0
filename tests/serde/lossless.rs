//! The lossless representation: borrowed and owned values serialize alike, round-trip through
//! MessagePack and JSON, and read back as documented.

use super::*;

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
    let value = Variant::from(gdvariant::owned::Array::from(vec![
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
