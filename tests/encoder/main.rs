//! The encoder against the real engines' bytes, and its rules and errors.
//!
//! Values are built with the [`Writer`] directly, by hand or from what Godot reported for each
//! corpus case (its `expected` description, not this crate's decoder), and must reproduce the
//! corpus files byte for byte (NodePath string padding aside: Godot leaves it uninitialised, the
//! encoder writes zeros). Then the width rules of `int` and `float` at their boundaries, the
//! version checks, depth, the writer's count bookkeeping, splicing elements of other buffers,
//! and the precision option.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use common::{
    corpus, expected_value, manifest, unhex, with_big_stack, with_zeroed_node_path_padding,
};
use gdvariant::math::{
    Aabb, Basis, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2, Vector3,
    Vector4,
};
use gdvariant::{
    ElementType, EncodeOptions, Options, Variant, VariantRef, VariantType, Version, Writer,
    encoder::EncodeError, math::Color, math::Precision, owned::Array, owned::Dictionary,
    owned::Object, owned::Signal,
};
use serde_json::Value;

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

type W = Writer<Vec<u8>>;
type Step = Result<(), EncodeError>;

/// The bytes `build` writes under `options`; panics on any error.
fn write(options: EncodeOptions, build: impl FnOnce(&mut W) -> Step) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), options);
    build(&mut writer).unwrap_or_else(|e| panic!("writing failed: {e}"));
    writer.finish().unwrap_or_else(|e| panic!("finish failed: {e}"))
}

/// The first error of `build`, then of `finish`; panics when there is none.
fn write_err(options: EncodeOptions, build: impl FnOnce(&mut W) -> Step) -> EncodeError {
    let mut writer = Writer::new(Vec::new(), options);
    match build(&mut writer) {
        Err(e) => e,
        Ok(()) => writer.finish().expect_err("an error"),
    }
}

/// Corpus case `name` with the padding of its NodePath strings zeroed.
fn corpus_bytes(version: Version, name: &str, allow_objects: bool) -> Vec<u8> {
    let options = Options::new(version).with_allow_objects(allow_objects);
    with_zeroed_node_path_padding(&corpus(version, name), options)
}

/// Checks that `build` writes corpus case `name` of `version`.
fn assert_case(
    version: Version,
    name: &str,
    full_objects: bool,
    build: impl FnOnce(&mut W) -> Step,
) {
    let ours = write(EncodeOptions::new(version).with_full_objects(full_objects), build);
    let theirs = corpus_bytes(version, name, full_objects);
    assert_eq!(hex::encode(&ours), hex::encode(&theirs), "{version:?} {name}");
}

/// [`assert_case`] in both versions.
fn assert_both(name: &str, build: impl Fn(&mut W) -> Step) {
    for version in VERSIONS {
        assert_case(version, name, false, &build);
    }
}

// --- Corpus values built by hand ---

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

// --- Every value case, built from Godot's description of it ---

/// The type `version` names `name`.
fn type_named(version: Version, name: &str) -> VariantType {
    (0..=255)
        .filter_map(|id| VariantType::from_id(version, id))
        .find(|t| t.name(version) == name)
        .unwrap_or_else(|| panic!("no type {name}"))
}

fn bits32(value: &Value) -> f32 {
    f32::from_bits(u32::from_str_radix(value.as_str().unwrap(), 16).unwrap())
}

fn bits64(value: &Value) -> f64 {
    f64::from_bits(u64::from_str_radix(value.as_str().unwrap(), 16).unwrap())
}

fn text_of(value: &Value) -> String {
    String::from_utf8(unhex(value["utf8_hex"].as_str().unwrap())).unwrap()
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// A math struct filled in wire order from Godot's `f32` (or `i32`) components.
macro_rules! filled {
    ($ty:ident, $components:expr) => {{
        let mut components = $components.into_iter();
        let value = $ty::<u8>::default().map(|_| components.next().expect("enough components"));
        assert!(components.next().is_none(), "too many components");
        value
    }};
}

fn f32s(value: &Value) -> Vec<f32> {
    value.as_array().unwrap().iter().map(bits32).collect()
}

fn i32s(value: &Value) -> Vec<i32> {
    value.as_array().unwrap().iter().map(|v| i32::try_from(v.as_i64().unwrap()).unwrap()).collect()
}

/// The element type a description gives under `ty` / `class` (`godot_class` is the class the
/// program declared, where the corpus recorded it apart from what the wire holds).
fn element_type<'v>(
    value: &'v Value,
    ty: &str,
    class: &str,
    godot_class: &str,
    version: Version,
) -> ElementType<&'v str> {
    match value.get(ty).and_then(Value::as_str) {
        None | Some("Nil") => ElementType::Untyped,
        Some("Object") => {
            let class = value.get(godot_class).unwrap_or(&value[class]);
            ElementType::ClassName(class.as_str().unwrap())
        }
        Some(name) => ElementType::Builtin(type_named(version, name)),
    }
}

/// Writes the value Godot described as `value`.
fn build(w: &mut W, value: &Value, version: Version) -> Step {
    use VariantType as T;
    let ty = type_named(version, value["t"].as_str().unwrap());
    match ty {
        T::Nil if value.get("godot_type").is_some() => w.null_object(),
        T::Nil => w.nil(),
        T::Bool => w.bool(value["v"].as_bool().unwrap()),
        T::Int => w.int(value["v"].as_i64().unwrap()),
        T::Float => w.float(bits64(&value["f64"])),
        T::String => w.string(&text_of(value)),
        T::StringName => w.string_name(&text_of(value)),
        T::Vector2 => w.vector2(filled!(Vector2, f32s(&value["f32"]))),
        T::Rect2 => w.rect2(filled!(Rect2, f32s(&value["f32"]))),
        T::Vector3 => w.vector3(filled!(Vector3, f32s(&value["f32"]))),
        T::Transform2D => w.transform2d(filled!(Transform2D, f32s(&value["f32"]))),
        T::Vector4 => w.vector4(filled!(Vector4, f32s(&value["f32"]))),
        T::Plane => w.plane(filled!(Plane, f32s(&value["f32"]))),
        T::Quaternion => w.quaternion(filled!(Quaternion, f32s(&value["f32"]))),
        T::Aabb => w.aabb(filled!(Aabb, f32s(&value["f32"]))),
        T::Basis => w.basis(filled!(Basis, f32s(&value["f32"]))),
        T::Transform3D => w.transform3d(filled!(Transform3D, f32s(&value["f32"]))),
        T::Projection => w.projection(filled!(Projection, f32s(&value["f32"]))),
        T::Color => w.color(filled!(Color, f32s(&value["f32"]))),
        T::Vector2i => w.vector2i(filled!(Vector2, i32s(&value["i32"]))),
        T::Rect2i => w.rect2i(filled!(Rect2, i32s(&value["i32"]))),
        T::Vector3i => w.vector3i(filled!(Vector3, i32s(&value["i32"]))),
        T::Vector4i => w.vector4i(filled!(Vector4, i32s(&value["i32"]))),
        T::NodePath => {
            let (names, subnames) = (strings(&value["names"]), strings(&value["subnames"]));
            let absolute = value["absolute"].as_bool().unwrap();
            w.node_path(
                absolute,
                names.iter().map(String::as_str),
                subnames.iter().map(String::as_str),
            )
        }
        T::Rid => w.rid(value.get("id").and_then(Value::as_u64).unwrap_or(0)),
        T::Object if value.get("as_id") == Some(&Value::Bool(true)) => {
            w.object_id(value["id"].as_i64().unwrap() as u64)
        }
        T::Object => {
            let props = value["props"].as_array().unwrap();
            w.begin_object(value["class"].as_str().unwrap(), u32::try_from(props.len()).unwrap())?;
            for property in props {
                w.property_name(property[0].as_str().unwrap())?;
                build(w, &property[1], version)?;
            }
            Ok(())
        }
        T::Callable => w.callable(),
        T::Signal => {
            w.signal(value["name"].as_str().unwrap(), value["object_id"].as_i64().unwrap() as u64)
        }
        T::Dictionary => {
            let entries = value["entries"].as_array().unwrap();
            let key = element_type(value, "key_type", "key_class", "godot_key_class", version);
            let val =
                element_type(value, "value_type", "value_class", "godot_value_class", version);
            w.begin_typed_dictionary(key, val, entries.len())?;
            for entry in entries {
                build(w, &entry[0], version)?;
                build(w, &entry[1], version)?;
            }
            Ok(())
        }
        T::Array => {
            let items = value["items"].as_array().unwrap();
            let elements =
                element_type(value, "elem_type", "elem_class", "godot_elem_class", version);
            w.begin_typed_array(elements, items.len())?;
            items.iter().try_for_each(|item| build(w, item, version))
        }
        T::PackedByteArray => w.packed_bytes(&unhex(value["hex"].as_str().unwrap())),
        T::PackedInt32Array => w.packed_int32(&i32s(&value["v"])),
        T::PackedInt64Array => {
            let values: Vec<i64> =
                value["v"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            w.packed_int64(&values)
        }
        T::PackedFloat32Array => w.packed_float32(&f32s(&value["f32"])),
        T::PackedFloat64Array => {
            let values: Vec<f64> = value["f64"].as_array().unwrap().iter().map(bits64).collect();
            w.packed_float64(&values)
        }
        T::PackedStringArray => {
            let values = strings(&value["v"]);
            w.packed_strings(values.iter().map(String::as_str))
        }
        T::PackedVector2Array => {
            let values: Vec<Vector2<f32>> = value["f32"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| filled!(Vector2, f32s(v)))
                .collect();
            w.packed_vector2(&values)
        }
        T::PackedVector3Array => {
            let values: Vec<Vector3<f32>> = value["f32"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| filled!(Vector3, f32s(v)))
                .collect();
            w.packed_vector3(&values)
        }
        T::PackedVector4Array => {
            let values: Vec<Vector4<f32>> = value["f32"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| filled!(Vector4, f32s(v)))
                .collect();
            w.packed_vector4(&values)
        }
        T::PackedColorArray => {
            let values: Vec<Color<f32>> =
                value["f32"].as_array().unwrap().iter().map(|v| filled!(Color, f32s(v))).collect();
            w.packed_colors(&values)
        }
        other => panic!("no builder for {other:?}"),
    }
}

/// Whether a description holds a part the corpus summarised or could not represent.
fn incomplete(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.contains_key("summarized")
                || map.contains_key("v_unrepresentable")
                || map.values().any(incomplete)
        }
        Value::Array(items) => items.iter().any(incomplete),
        _ => false,
    }
}

#[test]
fn every_value_case_built_from_godots_description_gives_godots_bytes() {
    let built = with_big_stack(|| {
        let mut built = 0;
        for version in VERSIONS {
            for case in manifest(version) {
                if !matches!(case["kind"].as_str(), Some("var2bytes" | "var_to_bytes"))
                    || case["encode_failed"] == Value::Bool(true)
                {
                    continue;
                }
                let name = case["name"].as_str().unwrap();
                let expected = expected_value(version, &case);
                assert!(!incomplete(&expected), "{version:?} {name}: description incomplete");
                let full = case["full_objects"] == Value::Bool(true);
                assert_case(version, name, full, |w| build(w, &expected, version));
                built += 1;
            }
        }
        built
    });
    // Every value case of both corpora: 301 at the time of writing.
    assert!(built >= 301, "only {built} cases built");
}

// --- Width rules ---

/// The header and payload Godot writes for an `int` or `float`.
fn scalar(type_id: u8, wide: bool, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![type_id, 0, u8::from(wide), 0];
    out.extend_from_slice(payload);
    out
}

#[test]
fn ints_take_64_bits_exactly_outside_i32() {
    let cases: [(i64, bool); 10] = [
        (0, false),
        (-1, false),
        (i32::MAX.into(), false),
        (i32::MIN.into(), false),
        (i64::from(i32::MAX) - 1, false),
        (i64::from(i32::MIN) + 1, false),
        (i64::from(i32::MAX) + 1, true),
        (i64::from(i32::MIN) - 1, true),
        (i64::MAX, true),
        (i64::MIN, true),
    ];
    for version in VERSIONS {
        for (value, wide) in cases {
            let bytes = write(EncodeOptions::new(version), |w| w.int(value));
            let payload = if wide {
                value.to_le_bytes().to_vec()
            } else {
                (value as i32).to_le_bytes().to_vec()
            };
            assert_eq!(bytes, scalar(2, wide, &payload), "{value}");
            let back = gdvariant::decode(&bytes, Options::new(version)).unwrap();
            assert_eq!(back, Variant::Int(value));
        }
    }
}

#[test]
fn floats_take_64_bits_exactly_when_f32_is_not_exact() {
    let narrow: [f64; 12] = [
        0.0,
        -0.0,
        0.5,
        -1.5,
        16_777_216.0,
        f32::MAX as f64,
        f32::MIN as f64,
        f32::MIN_POSITIVE as f64,
        f64::from(f32::from_bits(1)), // the smallest f32 subnormal
        f64::from(f32::from_bits(0x807F_FFFF)),
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let wide: [u64; 12] = [
        0.1f64.to_bits(),
        16_777_217.0f64.to_bits(),
        (f32::MAX as f64).to_bits() + 1,
        f64::MAX.to_bits(),
        1,                     // the smallest f64 subnormal
        0x36A0_0000_0000_0001, // just above the smallest f32 subnormal
        0x7FF8_0000_0000_0000, // NaN, even though f32 has it
        0xFFF8_0000_0000_0000, // -NaN
        0x7FF0_0000_0000_0001, // a signalling NaN
        0x7FF8_DEAD_BEEF_0001, // a payload f32 cannot hold
        0xFFFF_FFFF_FFFF_FFFF, // every bit set
        0x7FF8_0000_2000_0000, // an f32 NaN's payload, widened
    ];
    for version in VERSIONS {
        for value in narrow {
            let bytes = write(EncodeOptions::new(version), |w| w.float(value));
            assert_eq!(bytes, scalar(3, false, &(value as f32).to_le_bytes()), "{value}");
            let back = gdvariant::decode(&bytes, Options::new(version)).unwrap();
            assert_eq!(back.as_float().unwrap().to_bits(), value.to_bits(), "{value}");
        }
        for bits in wide {
            let bytes = write(EncodeOptions::new(version), |w| w.float(f64::from_bits(bits)));
            assert_eq!(bytes, scalar(3, true, &bits.to_le_bytes()), "{bits:#x}");
            let back = gdvariant::decode(&bytes, Options::new(version)).unwrap();
            assert_eq!(back.as_float().unwrap().to_bits(), bits, "{bits:#x}");
        }
    }
}

#[test]
fn math_components_narrow_to_the_nearest_f32_keeping_nans() {
    let cases: [(f64, u32); 6] = [
        (0.1, 0.1f32.to_bits()),
        (-0.0, 0x8000_0000),
        (f64::MAX, 0x7F80_0000), // rounds to infinity
        (f64::from_bits(0x7FF0_0000_0000_0001), 0x7FC0_0000), // low payload: still a NaN
        (f64::from_bits(0xFFF4_0000_0000_0000), 0xFFA0_0000), // signalling, sign kept
        (f64::from_bits(1), 0),  // underflows to zero
    ];
    for (value, bits) in cases {
        let bytes = write(EncodeOptions::godot4(), |w| w.vector2(Vector2 { x: value, y: 0.0 }));
        assert_eq!(bytes[4..8], bits.to_le_bytes(), "{value}");
    }
}

// --- Versions ---

/// One value of every Godot 4 type Godot 3 lacks, with the Writer call that writes it.
#[allow(clippy::type_complexity)]
fn godot4_only() -> Vec<(VariantType, Variant, Box<dyn Fn(&mut W) -> Step>)> {
    use VariantType as T;
    let v4 = Vector4 { x: 1.0f32, y: 2.0, z: 3.0, w: 4.0 };
    vec![
        (
            T::Vector2i,
            Variant::Vector2i(Vector2 { x: 1, y: 2 }),
            Box::new(|w| w.vector2i(Vector2 { x: 1, y: 2 })),
        ),
        (T::Rect2i, Variant::Rect2i(Rect2::default()), Box::new(|w| w.rect2i(Rect2::default()))),
        (
            T::Vector3i,
            Variant::Vector3i(Vector3::default()),
            Box::new(|w| w.vector3i(Vector3::default())),
        ),
        (T::Vector4, Variant::Vector4(Vector4::default()), Box::new(move |w| w.vector4(v4))),
        (
            T::Vector4i,
            Variant::Vector4i(Vector4::default()),
            Box::new(|w| w.vector4i(Vector4::default())),
        ),
        (
            T::Projection,
            Variant::Projection(Box::default()),
            Box::new(|w| w.projection(Projection::<f64>::default())),
        ),
        (T::StringName, Variant::StringName("a".into()), Box::new(|w| w.string_name("a"))),
        (T::Callable, Variant::Callable, Box::new(|w| w.callable())),
        (T::Signal, Variant::Signal(Signal::default()), Box::new(|w| w.signal("s", 1))),
        (
            T::PackedInt64Array,
            Variant::PackedInt64Array(vec![1]),
            Box::new(|w| w.packed_int64(&[1])),
        ),
        (
            T::PackedFloat64Array,
            Variant::PackedFloat64Array(vec![]),
            Box::new(|w| w.packed_float64(&[])),
        ),
        (
            T::PackedVector4Array,
            Variant::PackedVector4Array(vec![Vector4::default()]),
            Box::new(move |w| w.packed_vector4(&[v4])),
        ),
    ]
}

#[test]
fn every_type_godot3_lacks_is_refused_there() {
    let cases = godot4_only();
    let lacking: Vec<VariantType> = (0..=255)
        .filter_map(|id| VariantType::from_id(Version::Godot4, id))
        .filter(|t| t.id(Version::Godot3).is_none())
        .collect();
    assert_eq!(cases.iter().map(|(t, _, _)| *t).collect::<Vec<_>>(), lacking);
    let refused = |ty| EncodeError::NotInVersion { ty, version: Version::Godot3 };
    for (ty, value, write_it) in &cases {
        // The Writer, alone and inside a container.
        assert_eq!(write_err(EncodeOptions::godot3(), write_it), refused(*ty), "{ty:?}");
        let nested = write_err(EncodeOptions::godot3(), |w| {
            w.begin_array(2)?;
            w.int(1)?;
            write_it(w)
        });
        assert_eq!(nested, refused(*ty), "{ty:?}");
        // Owned values.
        assert_eq!(gdvariant::encode(value, EncodeOptions::godot3()), Err(refused(*ty)), "{ty:?}");
        let inside = Variant::Array(Array::from(vec![Variant::Nil, value.clone()]));
        assert_eq!(
            gdvariant::encode(&inside, EncodeOptions::godot3()),
            Err(refused(*ty)),
            "{ty:?}"
        );
        let message = refused(*ty).to_string();
        assert_eq!(message, format!("{} does not exist in Godot 3", ty.name(Version::Godot4)));
        // Godot 4 writes them all.
        let bytes = write(EncodeOptions::godot4(), write_it);
        gdvariant::validate(&bytes, Options::godot4()).unwrap();
        gdvariant::encode(value, EncodeOptions::godot4()).unwrap();
    }
}

#[test]
fn typed_containers_are_refused_in_godot3() {
    let g3 = EncodeOptions::godot3();
    let int = ElementType::Builtin(VariantType::Int);
    let typed = [int, ElementType::ClassName("Node"), ElementType::Script("res://a.gd")];
    for ty in typed {
        let refused = EncodeError::TypedContainerNotInVersion;
        assert_eq!(write_err(g3, |w| w.begin_typed_array(ty.clone(), 0)), refused);
        let untyped = ElementType::Untyped;
        assert_eq!(write_err(g3, |w| w.begin_typed_dictionary(ty.clone(), untyped, 0)), refused);
        let untyped = ElementType::Untyped;
        assert_eq!(write_err(g3, |w| w.begin_typed_dictionary(untyped, ty.clone(), 0)), refused);
        let full = g3.with_full_objects(true);
        assert_eq!(write_err(full, |w| w.begin_typed_array(ty.clone(), 0)), refused);
    }
    let array = Variant::Array(Array::typed(ElementType::Builtin(VariantType::Int)));
    assert_eq!(gdvariant::encode(&array, g3), Err(EncodeError::TypedContainerNotInVersion));
    let dictionary = Dictionary::typed(ElementType::Untyped, ElementType::ClassName("Node".into()));
    let dictionary = Variant::from(dictionary);
    assert_eq!(gdvariant::encode(&dictionary, g3), Err(EncodeError::TypedContainerNotInVersion));
    // Untyped, however spelled, is fine.
    let nil = ElementType::Builtin(VariantType::Nil);
    assert_eq!(write(g3, |w| w.begin_typed_array(nil, 0)), write(g3, |w| w.begin_array(0)));
}

#[test]
fn full_objects_need_the_option() {
    for version in VERSIONS {
        let options = EncodeOptions::new(version);
        let needed = EncodeError::FullObjectsNeeded;
        assert_eq!(write_err(options, |w| w.begin_object("Resource", 0)), needed);
        let nested = write_err(options, |w| {
            w.begin_dictionary(1)?;
            w.string("k")?;
            w.begin_object("Resource", 0)
        });
        assert_eq!(nested, needed);
        let object = Variant::Object(Object::Full { class: "Resource".into(), properties: vec![] });
        let in_array = Variant::Array(Array::from(vec![object.clone()]));
        assert_eq!(gdvariant::encode(&object, options), Err(needed));
        assert_eq!(gdvariant::encode(&in_array, options), Err(needed));
        // Ids and null objects need nothing.
        let ids = Variant::Array(Array::from(vec![
            Variant::Object(Object::Id(7)),
            Variant::Object(Object::Null),
        ]));
        gdvariant::encode(&ids, options).unwrap();
        let full = options.with_full_objects(true);
        let bytes = gdvariant::encode(&in_array, full).unwrap();
        let back =
            gdvariant::decode(&bytes, Options::new(version).with_allow_objects(true)).unwrap();
        assert!(back.same(&in_array));
    }
}

// --- Depth ---

/// `levels` arrays, each holding the next; the innermost is empty.
fn nested_arrays(w: &mut W, levels: usize) -> Step {
    for level in 0..levels {
        w.begin_array(usize::from(level + 1 < levels))?;
    }
    Ok(())
}

/// The owned form of [`nested_arrays`].
fn nested_variant(levels: usize) -> Variant {
    let mut value = Variant::Array(Array::new());
    for _ in 1..levels {
        value = Variant::Array(Array::from(vec![value]));
    }
    value
}

#[test]
fn depth_1024_is_written_and_1025_is_refused() {
    for version in VERSIONS {
        let options = EncodeOptions::new(version);
        // 1025 arrays: depths 0 to 1024.
        let bytes = write(options, |w| nested_arrays(w, 1025));
        assert_eq!(bytes.len(), 1025 * 8);
        gdvariant::validate(&bytes, Options::new(version)).unwrap();
        assert_eq!(write_err(options, |w| nested_arrays(w, 1026)), EncodeError::DepthLimit);
        // The innermost value may be anything, but nothing deeper.
        let around = |w: &mut W, levels: usize| -> Step {
            (0..levels).try_for_each(|_| w.begin_array(1))?;
            w.int(1)
        };
        let ok = write(options, |w| around(w, 1024));
        gdvariant::validate(&ok, Options::new(version)).unwrap();
        assert_eq!(write_err(options, |w| around(w, 1025)), EncodeError::DepthLimit);
        // Owned values: the same limits.
        let owned = nested_variant(1025);
        assert_eq!(gdvariant::encode(&owned, options).unwrap(), bytes);
        assert_eq!(gdvariant::encode(&nested_variant(1026), options), Err(EncodeError::DepthLimit));
        // A lowered limit.
        let lowered = options.with_max_depth(10);
        let bytes = write(lowered, |w| nested_arrays(w, 11));
        gdvariant::validate(&bytes, Options::new(version).with_max_depth(10)).unwrap();
        assert_eq!(write_err(lowered, |w| nested_arrays(w, 12)), EncodeError::DepthLimit);
        assert_eq!(gdvariant::encode(&nested_variant(12), lowered), Err(EncodeError::DepthLimit));
        // Dictionaries and objects count as levels too.
        let zero = options.with_max_depth(0).with_full_objects(true);
        write(zero, |w| w.begin_dictionary(0));
        write(zero, |w| w.begin_object("Resource", 0));
        let deep = write_err(zero, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.nil()
        });
        assert_eq!(deep, EncodeError::DepthLimit);
        let deep = write_err(zero, |w| {
            w.begin_dictionary(1)?;
            w.nil()
        });
        assert_eq!(deep, EncodeError::DepthLimit);
    }
    // Limits above 1024 are clamped.
    assert_eq!(EncodeOptions::godot4().with_max_depth(u16::MAX).max_depth(), 1024);
}

// --- Count bookkeeping ---

#[test]
fn the_writer_counts_values() {
    let g4 = EncodeOptions::godot4();
    let too_many = EncodeError::TooManyValues;
    assert_eq!(
        write_err(g4, |w| {
            w.int(1)?;
            w.int(2)
        }),
        too_many
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_array(1)?;
            w.int(1)?;
            w.int(2)
        }),
        too_many
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_array(0)?;
            w.nil()
        }),
        too_many
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_dictionary(1)?;
            w.int(1)?;
            w.int(2)?;
            w.int(3)
        }),
        too_many
    );
    // Missing values: the innermost open container's count (keys and values apart).
    assert_eq!(write_err(g4, |_| Ok(())), EncodeError::Unfinished { missing: 1 });
    assert_eq!(
        write_err(g4, |w| {
            w.begin_array(3)?;
            w.int(1)
        }),
        EncodeError::Unfinished { missing: 2 }
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_dictionary(2)?;
            w.int(1)
        }),
        EncodeError::Unfinished { missing: 3 }
    );
    let nested = write_err(g4, |w| {
        w.begin_array(2)?;
        w.begin_array(2)?;
        w.int(1)
    });
    assert_eq!(nested, EncodeError::Unfinished { missing: 1 });
    // A nested container closes by itself and hands back to its parent.
    let bytes = write(g4, |w| {
        w.begin_array(2)?;
        w.begin_array(1)?;
        w.int(1)?;
        w.int(2)
    });
    let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    assert_eq!(
        value,
        Variant::Array(Array::from(vec![
            Variant::Array(Array::from(vec![Variant::Int(1)])),
            Variant::Int(2)
        ]))
    );
}

#[test]
fn properties_alternate_names_and_values() {
    let full = EncodeOptions::godot4().with_full_objects(true);
    let order = EncodeError::PropertyOrder;
    // A value where a name is due.
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.int(1)
        }),
        order
    );
    // A name where a value is due.
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.property_name("b")
        }),
        order
    );
    // A name outside an object, or inside a container inside one.
    assert_eq!(write_err(full, |w| w.property_name("a")), order);
    assert_eq!(
        write_err(full, |w| {
            w.begin_array(1)?;
            w.property_name("a")
        }),
        order
    );
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.begin_array(1)?;
            w.property_name("b")
        }),
        order
    );
    // After a property's container closes, the next name is due.
    let bytes = write(full, |w| {
        w.begin_object("Resource", 3)?;
        w.property_name("a")?;
        w.begin_array(1)?;
        w.int(1)?;
        w.property_name("b")?;
        w.begin_dictionary(0)?;
        w.property_name("c")?;
        w.begin_object("RefCounted", 0)
    });
    let value = gdvariant::decode(&bytes, Options::godot4().with_allow_objects(true)).unwrap();
    let Variant::Object(Object::Full { class, properties }) = value else { panic!("{value:?}") };
    assert_eq!(class, "Resource");
    let names: Vec<&str> = properties.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    // Too many properties.
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.nil()?;
            w.property_name("b")
        }),
        order
    );
}

// --- Splicing ---

#[test]
fn a_relay_rebuilds_a_dictionary_from_its_elements() {
    for version in VERSIONS {
        let options = Options::new(version);
        let original = corpus(version, "dict_mixed_keys");
        let dictionary = gdvariant::parse(&original, options).unwrap().as_dictionary().unwrap();
        let encode = EncodeOptions::new(version);
        // Unchanged: the same bytes.
        let copy = write(encode, |w| {
            w.begin_dictionary(dictionary.len())?;
            for entry in dictionary.entries() {
                let (key, value) = entry.unwrap();
                w.splice(&key)?;
                w.splice(&value)?;
            }
            Ok(())
        });
        assert_eq!(copy, original, "{version:?}");
        // The value of "s" replaced.
        let relayed = write(encode, |w| {
            w.begin_dictionary(dictionary.len())?;
            for entry in dictionary.entries() {
                let (key, value) = entry.unwrap();
                w.splice(&key)?;
                if key.value().as_gd_str().is_some_and(|s| s.to_str() == Ok("s")) {
                    w.int(99)?;
                } else {
                    w.splice(&value)?;
                }
            }
            Ok(())
        });
        let mut expected = gdvariant::decode(&original, options).unwrap();
        let slot = expected.as_dictionary_mut().unwrap().get_mut(&Variant::from("s")).unwrap();
        assert_eq!(*slot, Variant::Int(2));
        *slot = Variant::Int(99);
        assert_eq!(relayed, gdvariant::encode(&expected, encode).unwrap(), "{version:?}");
        // The same relay into a fixed buffer.
        let mut buf = vec![0u8; relayed.len()];
        let mut writer = Writer::new(gdvariant::encoder::SliceOutput::new(&mut buf), encode);
        writer.begin_dictionary(1).unwrap();
        let (key, value) = dictionary.entries().next().unwrap().unwrap();
        writer.splice(&key).unwrap();
        writer.splice(&value).unwrap();
        let out = writer.finish().unwrap();
        assert_eq!(
            gdvariant::decode(out.as_bytes(), options).unwrap().as_dictionary().unwrap().len(),
            1
        );
    }
}

#[test]
fn splicing_copies_bytes_exactly_and_checks_versions() {
    // NodePath padding as the sender wrote it (0x55 from Godot 3.2.3).
    let path = corpus(Version::Godot3, "nodepath_parent");
    let element = gdvariant::parse_prefix(&path, Options::godot3()).unwrap();
    let bytes = write(EncodeOptions::godot3(), |w| {
        w.begin_array(1)?;
        w.splice(&element)
    });
    assert_eq!(bytes[8..], path[..]);
    // A final PackedByteArray without its padding gets it.
    let packed = corpus(Version::Godot4, "packed_byte_len3");
    let cut = &packed[..packed.len() - 1];
    let element = gdvariant::parse_prefix(cut, Options::godot4()).unwrap();
    assert_eq!(element.len(), cut.len());
    assert_eq!(write(EncodeOptions::godot4(), |w| w.splice(&element)), packed);
    // A spliced element counts as one value, containers included.
    let array = corpus(Version::Godot4, "array_typed_int");
    let element = gdvariant::parse_prefix(&array, Options::godot4()).unwrap();
    let twice = write(EncodeOptions::godot4(), |w| {
        w.begin_array(2)?;
        w.splice(&element)?;
        w.splice(&element)
    });
    let value = gdvariant::decode(&twice, Options::godot4()).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 2);
    let extra = write_err(EncodeOptions::godot4(), |w| {
        w.splice(&element)?;
        w.splice(&element)
    });
    assert_eq!(extra, EncodeError::TooManyValues);
    // Elements read as the other version are refused.
    let int = corpus(Version::Godot3, "int_42");
    let element = gdvariant::parse_prefix(&int, Options::godot3()).unwrap();
    assert_eq!(
        write_err(EncodeOptions::godot4(), |w| w.splice(&element)),
        EncodeError::VersionMismatch
    );
    let element = gdvariant::parse_prefix(&int, Options::godot4()).unwrap();
    assert_eq!(
        write_err(EncodeOptions::godot3(), |w| w.splice(&element)),
        EncodeError::VersionMismatch
    );
    // A Godot 4 type inside a Godot 4 element spliced for Godot 4 is fine; a Godot 4-only
    // element type cannot be spliced into Godot 3 (the version check comes first).
    let callable = corpus(Version::Godot4, "callable_empty");
    let element = gdvariant::parse_prefix(&callable, Options::godot4()).unwrap();
    assert_eq!(write(EncodeOptions::godot4(), |w| w.splice(&element)), callable);
}

// --- Precision ---

#[test]
fn double_precision_output_is_read_as_double() {
    let double = EncodeOptions::godot4().with_precision(Precision::Double);
    let third = 1.0f64 / 3.0;
    let bytes = write(double, |w| w.vector2(Vector2 { x: 0.1, y: third }));
    assert_eq!(bytes[..4], [5, 0, 1, 0]);
    assert_eq!(bytes[4..12], 0.1f64.to_le_bytes());
    assert_eq!(bytes[12..], third.to_le_bytes());
    let VariantRef::Vector2(reals) = gdvariant::parse(&bytes, Options::godot4()).unwrap() else {
        panic!()
    };
    assert_eq!(reals.precision(), Precision::Double);
    assert_eq!(reals.get(), Vector2 { x: 0.1, y: third });
    // f32 components widen exactly, signalling NaNs included.
    let snan = f32::from_bits(0x7FA0_0001);
    let bytes = write(double, |w| w.vector3(Vector3 { x: 0.1f32, y: snan, z: -0.0 }));
    let VariantRef::Vector3(reals) = gdvariant::parse(&bytes, Options::godot4()).unwrap() else {
        panic!()
    };
    let v = reals.get();
    assert_eq!(v.x, f64::from(0.1f32));
    assert_eq!(v.y.to_bits(), 0x7FF4_0000_2000_0000);
    assert_eq!(v.z.to_bits(), (-0.0f64).to_bits());
    // `decode` reads the f64 as Godot's official builds do, into an f32 `real_t`: the NaN
    // becomes quiet (its payload kept).
    let Variant::Vector3(v) = gdvariant::decode(&bytes, Options::godot4()).unwrap() else {
        panic!()
    };
    assert_eq!(v.y.to_bits(), 0x7FFC_0000_2000_0000);
    // Every real-valued type and packed vector array carries the flag; Color, float and the
    // integer types do not change.
    let values = [
        Variant::Rect2(Rect2 {
            position: Vector2 { x: 0.1, y: 0.2 },
            size: Vector2 { x: 0.3, y: 0.4 },
        }),
        Variant::Transform2D(Box::default()),
        Variant::Vector4(Vector4 { x: 0.1, y: 0.2, z: 0.3, w: 0.4 }),
        Variant::Plane(Plane::default()),
        Variant::Quaternion(Quaternion { x: 0.1, y: 0.0, z: 0.0, w: 1.0 }),
        Variant::Aabb(Box::default()),
        Variant::Basis(Box::default()),
        Variant::Transform3D(Box::default()),
        Variant::Projection(Box::default()),
        Variant::PackedVector2Array(vec![Vector2 { x: 0.1, y: 0.2 }]),
        Variant::PackedVector3Array(vec![Vector3 { x: 0.1, y: 0.2, z: 0.3 }]),
        Variant::PackedVector4Array(vec![Vector4 { x: 0.1, y: 0.2, z: 0.3, w: 0.4 }]),
    ];
    for value in values {
        let single = gdvariant::encode(&value, EncodeOptions::godot4()).unwrap();
        let bytes = gdvariant::encode(&value, double).unwrap();
        assert_eq!(bytes[2], 1, "{value:?}");
        assert_eq!(single[2], 0, "{value:?}");
        assert!(bytes.len() > single.len(), "{value:?}");
        gdvariant::validate(&bytes, Options::godot4()).unwrap();
        assert!(gdvariant::decode(&bytes, Options::godot4()).unwrap().same(&value), "{value:?}");
    }
    let unchanged = [
        Variant::Color(Color { r: 0.1, g: 0.2, b: 0.3, a: 0.4 }),
        Variant::PackedColorArray(vec![Color::default()]),
        Variant::Float(0.5),
        Variant::Float(0.1),
        Variant::Vector2i(Vector2 { x: 1, y: 2 }),
        Variant::PackedFloat32Array(vec![0.1]),
    ];
    for value in unchanged {
        let single = gdvariant::encode(&value, EncodeOptions::godot4()).unwrap();
        assert_eq!(gdvariant::encode(&value, double).unwrap(), single, "{value:?}");
    }
}

#[test]
fn godot3_ignores_the_precision_option() {
    let double = EncodeOptions::godot3().with_precision(Precision::Double);
    assert_eq!(double.precision(), Precision::Single);
    for name in [
        "vector2_inexact",
        "transform_distinct",
        "quat_distinct",
        "aabb_basic",
        "pool_vector3_basic",
    ] {
        let bytes = corpus(Version::Godot3, name);
        let value = gdvariant::decode(&bytes, Options::godot3()).unwrap();
        assert_eq!(gdvariant::encode(&value, double).unwrap(), bytes, "{name}");
    }
    let bytes = write(double, |w| w.vector2(Vector2 { x: 0.1f64, y: 1.0 / 3.0 }));
    assert_eq!(bytes, corpus(Version::Godot3, "vector2_inexact"));
}

#[test]
fn splicing_does_not_recheck_what_the_element_holds() {
    // The reader's options decided what the element may hold: a full object read with
    // `allow_objects` goes through a writer without full objects, as documented.
    let bytes = corpus(Version::Godot3, "object_reference_full");
    let element =
        gdvariant::parse_prefix(&bytes, Options::godot3().with_allow_objects(true)).unwrap();
    assert_eq!(write(EncodeOptions::godot3(), |w| w.splice(&element)), bytes);
    // Nor is its nesting checked against a lowered depth limit.
    let nested = corpus(Version::Godot4, "dict_nested");
    let element = gdvariant::parse_prefix(&nested, Options::godot4()).unwrap();
    assert_eq!(write(EncodeOptions::godot4().with_max_depth(0), |w| w.splice(&element)), nested);
}

#[test]
fn a_lighter_writer_nests_as_deep_as_it_was_made_for() {
    // Three containers open at once: an array in a dictionary in an array.
    let mut writer = Writer::<_, 3>::with_nesting(Vec::new(), EncodeOptions::godot4());
    writer.begin_array(1).unwrap();
    writer.begin_dictionary(1).unwrap();
    writer.string("k").unwrap();
    writer.begin_array(1).unwrap();
    assert_eq!(writer.begin_array(1), Err(EncodeError::DepthLimit));
    // The same value with room for it equals what the default writer writes.
    let build = |w: &mut Writer<Vec<u8>, 4>| {
        w.begin_array(1)?;
        w.begin_dictionary(1)?;
        w.string("k")?;
        w.begin_array(1)?;
        w.begin_array(0)
    };
    let mut light = Writer::<_, 4>::with_nesting(Vec::new(), EncodeOptions::godot4());
    build(&mut light).unwrap();
    let light = light.finish().unwrap();
    let mut full = Writer::new(Vec::new(), EncodeOptions::godot4());
    full.begin_array(1).unwrap();
    full.begin_dictionary(1).unwrap();
    full.string("k").unwrap();
    full.begin_array(1).unwrap();
    full.begin_array(0).unwrap();
    assert_eq!(light, full.finish().unwrap());
    gdvariant::validate(&light, Options::godot4()).unwrap();
}
