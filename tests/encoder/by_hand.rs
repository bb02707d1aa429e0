//! Corpus values built by hand with the `Writer`, byte for byte against the corpora.

use super::*;

#[test]
fn ints_match_the_corpora() {
    let cases: [(&str, i64); 12] = [
        ("int_0", 0),
        ("int_1", 1),
        ("int_neg1", -1),
        ("int_42", 42),
        ("int_i32_max", i32::MAX.into()),
        ("int_i32_min", i32::MIN.into()),
        ("int_i32_max_plus1", i64::from(i32::MAX) + 1),
        ("int_i32_min_minus1", i64::from(i32::MIN) - 1),
        ("int_u32_max", u32::MAX.into()),
        ("int_2p40", 1 << 40),
        ("int_i64_max", i64::MAX),
        ("int_i64_min", i64::MIN),
    ];
    for (name, value) in cases {
        assert_both(name, |w| w.int(value));
    }
    assert_both("int_neg_2p40", |w| w.int(-(1 << 40)));
}

#[test]
fn floats_match_the_corpora() {
    let cases: [(&str, f64); 17] = [
        ("float_0", 0.0),
        ("float_neg0", -0.0),
        ("float_0_1", 0.1),
        ("float_0_5", 0.5),
        ("float_1", 1.0),
        ("float_neg_1_5", -1.5),
        ("float_1_3", 1.0 / 3.0),
        ("float_pi", std::f64::consts::PI),
        ("float_16777216", 16_777_216.0),
        ("float_16777217", 16_777_217.0),
        ("float_1e10", 1e10),
        ("float_1e20", 1e20),
        ("float_1e300", 1e300),
        ("float_f32_max", f32::MAX.into()),
        ("float_f32_min_subnormal", f64::from(f32::from_bits(1))),
        ("float_f64_max", f64::MAX),
        ("float_f64_min_subnormal", f64::from_bits(1)),
    ];
    for (name, value) in cases {
        assert_both(name, |w| w.float(value));
    }
    assert_both("float_inf", |w| w.float(f64::INFINITY));
    assert_both("float_neg_inf", |w| w.float(f64::NEG_INFINITY));
    assert_both("float_nan", |w| w.float(f64::from_bits(0x7FF8_0000_0000_0000)));
}

#[test]
fn strings_match_the_corpora() {
    let alphabet = "abcdefgh";
    for len in 0..=8 {
        assert_both(&format!("string_len{len}"), |w| w.string(&alphabet[..len]));
    }
    let long: String = "abcdefghijklmnopqrstuvwxyz".chars().cycle().take(1000).collect();
    assert_both("string_len1000", |w| w.string(&long));
    assert_both("string_utf8_2byte", |w| w.string("é"));
    assert_both("string_utf8_mixed", |w| w.string("Héllo wörld 日本 😀!"));
    assert_both("string_escapes", |w| w.string("line1\nline2\t\"quoted\" back\\slash"));
    assert_case(Version::Godot4, "stringname_basic", false, |w| w.string_name("hello"));
    assert_case(Version::Godot4, "stringname_empty", false, |w| w.string_name(""));
}

#[test]
fn math_values_match_the_corpora() {
    // 0.1 and 1/3 given in f64 are narrowed to the nearest f32, as a single-precision build
    // stores them.
    for version in VERSIONS {
        assert_case(version, "vector2_inexact", false, |w| {
            w.vector2(Vector2 { x: 0.1, y: 1.0 / 3.0 })
        });
        assert_case(version, "vector2_inexact", false, |w| {
            w.vector2(Vector2 { x: 0.1f32, y: 1.0 / 3.0 })
        });
        assert_case(version, "vector2_basic", false, |w| {
            w.vector2(Vector2 { x: 1.5f32, y: -2.25 })
        });
        let distinct = |n: usize| (1..=n).map(|i| i as f32);
        let mut it = distinct(6);
        let t = Transform2D::<f32>::default().map(|_| it.next().unwrap());
        assert_case(version, "transform2d_distinct", false, |w| w.transform2d(t));
        assert_case(version, "color_basic", false, |w| {
            w.color(Color { r: 0.1, g: 0.2, b: 0.3, a: 0.4 })
        });
    }
    assert_case(Version::Godot4, "rect2i_basic", false, |w| {
        w.rect2i(Rect2 { position: Vector2 { x: 1, y: -2 }, size: Vector2 { x: 3, y: 4 } })
    });
    assert_case(Version::Godot4, "vector4i_basic", false, |w| {
        w.vector4i(Vector4 { x: 1, y: -2, z: 3, w: -4 })
    });
}

#[test]
fn containers_match_the_corpora() {
    let g4 = Version::Godot4;
    assert_both("dict_order", |w| {
        w.begin_dictionary(3)?;
        for (key, value) in [("z", 1), ("a", 2), ("m", 3)] {
            w.string(key)?;
            w.int(value)?;
        }
        Ok(())
    });
    assert_both("array_empty", |w| w.begin_array(0));
    assert_both("dict_empty", |w| w.begin_dictionary(0));
    assert_case(g4, "array_typed_int", false, |w| {
        w.begin_typed_array(ElementType::Builtin(VariantType::Int), 3)?;
        (1..=3).try_for_each(|i| w.int(i))
    });
    assert_case(g4, "array_typed_string", false, |w| {
        w.begin_typed_array(ElementType::Builtin(VariantType::String), 2)?;
        w.string("a")?;
        w.string("b")
    });
    assert_case(g4, "array_typed_vector2_empty", false, |w| {
        w.begin_typed_array(ElementType::Builtin(VariantType::Vector2), 0)
    });
    // A class-typed container without full objects declares EncodedObjectAsID, whatever the
    // class.
    assert_case(g4, "array_typed_node_empty", false, |w| {
        w.begin_typed_array(ElementType::ClassName("Node"), 0)
    });
    assert_case(g4, "array_typed_node_empty", false, |w| {
        w.begin_typed_array(ElementType::Script("res://player.gd"), 0)
    });
    assert_case(g4, "dict_typed_string_int", false, |w| {
        let (string, int) = (VariantType::String, VariantType::Int);
        w.begin_typed_dictionary(ElementType::Builtin(string), ElementType::Builtin(int), 2)?;
        w.string("one")?;
        w.int(1)?;
        w.string("two")?;
        w.int(2)
    });
    assert_case(g4, "dict_typed_int_variant", false, |w| {
        w.begin_typed_dictionary(ElementType::Builtin(VariantType::Int), ElementType::Untyped, 1)?;
        w.int(1)?;
        w.string("x")
    });
    // `Builtin(Nil)` is untyped, as in Godot.
    assert_case(g4, "dict_typed_int_variant", false, |w| {
        let nil = ElementType::Builtin(VariantType::Nil);
        w.begin_typed_dictionary(ElementType::Builtin(VariantType::Int), nil, 1)?;
        w.int(1)?;
        w.string("x")
    });
    assert_case(g4, "dict_typed_stringname_node_empty", false, |w| {
        let key = ElementType::Builtin(VariantType::StringName);
        w.begin_typed_dictionary(key, ElementType::ClassName("Node"), 0)
    });
    // With full objects the class is written.
    assert_case(g4, "array_typed_resource_full", true, |w| {
        w.begin_typed_array(ElementType::ClassName("Resource"), 1)?;
        resource(w, "InArray")
    });
}

/// A `Resource` named `name` as both engines write it (properties in their order).
fn resource(w: &mut W, name: &str) -> Step {
    w.begin_object("Resource", 3)?;
    w.property_name("resource_local_to_scene")?;
    w.bool(false)?;
    w.property_name("resource_name")?;
    w.string(name)?;
    w.property_name("script")?;
    w.null_object()
}

#[test]
fn packed_arrays_match_the_corpora() {
    let g4 = Version::Godot4;
    let pool = |version: Version, name: &str| match version {
        Version::Godot3 => {
            name.replace("packed_", "pool_").replace("float32", "real").replace("int32", "int")
        }
        Version::Godot4 => name.to_string(),
    };
    for version in VERSIONS {
        for len in 0..=9u8 {
            let bytes: Vec<u8> = (1..=len).collect();
            assert_case(version, &pool(version, &format!("packed_byte_len{len}")), false, |w| {
                w.packed_bytes(&bytes)
            });
        }
        let strings = ["", "a", "ab", "abc", "abcd", "日本語", "😀"];
        assert_case(version, &pool(version, "packed_string_basic"), false, |w| {
            w.packed_strings(strings)
        });
        assert_case(version, &pool(version, "packed_string_one_empty"), false, |w| {
            w.packed_strings([""])
        });
        assert_case(version, &pool(version, "packed_string_empty"), false, |w| {
            w.packed_strings([""; 0])
        });
        assert_case(version, &pool(version, "packed_int32_basic"), false, |w| {
            w.packed_int32(&[1, -1, 0, i32::MAX, i32::MIN])
        });
        let floats = [0.0, 1.0, -2.5, 0.1, f32::from_bits(0x7149_F2CA)];
        assert_case(version, &pool(version, "packed_float32_basic"), false, |w| {
            w.packed_float32(&floats)
        });
        let vectors = [
            Vector2 { x: 1.0f32, y: 2.0 },
            Vector2 { x: 3.0, y: 4.0 },
            Vector2 { x: 0.1, y: -0.5 },
        ];
        assert_case(version, &pool(version, "packed_vector2_basic"), false, |w| {
            w.packed_vector2(&vectors)
        });
        let vectors = [Vector3 { x: 1.0f64, y: 2.0, z: 3.0 }, Vector3 { x: 4.0, y: 5.0, z: 6.0 }];
        assert_case(version, &pool(version, "packed_vector3_basic"), false, |w| {
            w.packed_vector3(&vectors)
        });
        let colors =
            [Color { r: 1.0, g: 0.0, b: 0.0, a: 1.0 }, Color { r: 0.1, g: 0.2, b: 0.3, a: 0.4 }];
        assert_case(version, &pool(version, "packed_color_basic"), false, |w| {
            w.packed_colors(&colors)
        });
    }
    assert_case(Version::Godot3, "pool_real_special", false, |w| {
        w.packed_float32(&[f32::INFINITY, f32::NEG_INFINITY, f32::from_bits(0x7FC0_0000), -0.0])
    });
    assert_case(g4, "packed_float32_special", false, |w| {
        w.packed_float32(&[f32::INFINITY, f32::NEG_INFINITY, f32::from_bits(0x7FC0_0000)])
    });
    assert_case(g4, "packed_int64_basic", false, |w| {
        w.packed_int64(&[1, -1, i64::MAX, i64::MIN, 1 << 32])
    });
    assert_case(g4, "packed_int64_empty", false, |w| w.packed_int64(&[]));
    assert_case(g4, "packed_float64_basic", false, |w| {
        w.packed_float64(&[0.0, 1.0, 0.1, std::f64::consts::PI, 1e300])
    });
    assert_case(g4, "packed_float64_empty", false, |w| w.packed_float64(&[]));
    let vectors = [
        Vector4 { x: 1.0f32, y: 2.0, z: 3.0, w: 4.0 },
        Vector4 { x: -1.0, y: 0.5, z: 0.0, w: 1e10 },
    ];
    assert_case(g4, "packed_vector4_basic", false, |w| w.packed_vector4(&vectors));
    assert_case(g4, "packed_vector4_empty", false, |w| w.packed_vector4::<f32>(&[]));
}

#[test]
fn node_paths_match_the_corpora_with_zeroed_padding() {
    let cases: [(&str, bool, &[&str], &[&str]); 9] = [
        ("nodepath_empty", false, &[], &[]),
        ("nodepath_relative_single", false, &["Node"], &[]),
        ("nodepath_relative", false, &["Node", "Child"], &[]),
        ("nodepath_absolute", true, &["root", "Node"], &[]),
        ("nodepath_subnames", false, &["Node", "Child"], &["property", "sub"]),
        ("nodepath_only_subname", false, &[], &["property"]),
        ("nodepath_parent", false, &["..", "Parent", "Child"], &[]),
        ("nodepath_dot", false, &["."], &[]),
        ("nodepath_unicode", false, &["Nöde", "日本"], &["プロパティ"]),
    ];
    for (name, absolute, names, subnames) in cases {
        assert_both(name, |w| {
            w.node_path(absolute, names.iter().copied(), subnames.iter().copied())
        });
    }
    // 3.2.3 left a 0x55 in the padding of "Child": the encoder writes zeros.
    let godot = corpus(Version::Godot3, "nodepath_parent");
    let ours =
        write(EncodeOptions::godot3(), |w| w.node_path(false, ["..", "Parent", "Child"], [""; 0]));
    assert_eq!(godot.len(), ours.len());
    assert_eq!(godot[45], 0x55);
    assert_eq!(ours[45], 0);
    assert_eq!(ours[..45], godot[..45]);
    assert_case(Version::Godot3, "nodepath_absolute_subnames", false, |w| {
        w.node_path(true, ["root", "Main", "Player"], ["position", "x"])
    });
    assert_case(Version::Godot4, "nodepath_unique", false, |w| {
        w.node_path(false, ["%Unique", "Child"], [""; 0])
    });
}

#[test]
fn rids_signals_callables_and_objects_by_id_match_the_corpora() {
    let g3 = Version::Godot3;
    let g4 = Version::Godot4;
    assert_case(g4, "rid_empty", false, |w| w.rid(0));
    assert_case(g4, "rid_renderingserver", false, |w| w.rid(90_194_313_217));
    // Godot 3 puts no id on the wire.
    assert_case(g3, "rid_empty", false, |w| w.rid(0));
    assert_case(g3, "rid_visualserver", false, |w| w.rid(129));
    assert_case(g3, "rid_physics", false, |w| w.rid(130));
    assert_case(g4, "signal_object", false, |w| w.signal("some_signal", 0x8000_0005_7C00_051E));
    assert_case(g4, "signal_empty", false, |w| w.signal("", 0));
    assert_case(g4, "callable_empty", false, |w| w.callable());
    assert_case(g4, "callable_method", false, |w| w.callable());
    assert_case(g4, "object_refcounted_id", false, |w| w.object_id(0x8000_0005_6D00_0519));
    assert_case(g4, "object_resource_id", false, |w| w.object_id(0x8000_0005_7000_051B));
    assert_case(g3, "object_reference_id", false, |w| w.object_id(1382));
    assert_case(g3, "object_resource_id", false, |w| w.object_id(1387));
    assert_case(g3, "object_node_id", false, |w| w.object_id(1392));
    assert_case(g3, "object_scripted_id", false, |w| w.object_id(1401));
    for version in VERSIONS {
        // A null or freed object is written as Nil.
        assert_case(version, "object_null", false, |w| w.null_object());
        assert_case(version, "object_freed_id", false, |w| w.null_object());
    }
    assert_case(g4, "array_with_object_id", false, |w| {
        w.begin_array(3)?;
        w.int(1)?;
        w.object_id(0x8000_0005_7800_051D)?;
        w.string("x")
    });
    assert_case(g3, "array_with_object_id", false, |w| {
        w.begin_array(3)?;
        w.int(1)?;
        w.object_id(1407)?;
        w.string("x")
    });
}

#[test]
fn full_objects_match_the_corpora() {
    let g3 = Version::Godot3;
    let g4 = Version::Godot4;
    // Godot 3.2.3 writes `script` first.
    let reference = |w: &mut W| -> Step {
        w.begin_object("Reference", 1)?;
        w.property_name("script")?;
        w.null_object()
    };
    assert_case(g3, "object_reference_full", true, reference);
    assert_case(g3, "object_null_full", true, |w| w.null_object());
    assert_case(g3, "object_resource_full", true, |w| resource(w, "MyRes"));
    assert_case(g3, "object_node_full", true, |w| {
        w.begin_object("Node", 4)?;
        w.property_name("_import_path")?;
        w.node_path(false, [""; 0], [""; 0])?;
        w.property_name("pause_mode")?;
        w.int(0)?;
        w.property_name("process_priority")?;
        w.int(0)?;
        w.property_name("script")?;
        w.null_object()
    });
    assert_case(g3, "array_with_object_full", true, |w| {
        w.begin_array(3)?;
        w.int(1)?;
        reference(w)?;
        w.string("x")
    });
    assert_case(g3, "dict_with_object_full", true, |w| {
        w.begin_dictionary(2)?;
        w.string("obj")?;
        reference(w)?;
        w.string("n")?;
        w.null_object()
    });
    assert_case(g4, "object_refcounted_full", true, |w| {
        w.begin_object("RefCounted", 1)?;
        w.property_name("script")?;
        w.nil()
    });
    assert_case(g4, "object_resource_full", true, |w| resource(w, "MyRes"));
}
