//! Typed getters for every math type, `Color`, packed arrays and range-checked numbers
//! (`FromVariant`, `get_as`), `VariantRef::as_str`, and owned `Dictionary` lookups that take
//! what the lazy ones take; on both engines' corpora and on values written at double precision.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::float_cmp
)]

mod common;

use common::*;
use gdvariant::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2,
    Vector3, Vector4,
};
use gdvariant::packed::{Packed, PackedReals, PackedStrings};
use gdvariant::{
    EncodeOptions, ErrorKind, Key, Options, Variant, VariantRef, VariantType, Version, Writer,
    math::Precision, owned::Dictionary, view::FromVariant, view::NodePathRef,
};

/// The value of a corpus file, as an element (for `get_as`).
fn element<'a>(version: Version, name: &str, bytes: &'a [u8]) -> gdvariant::view::Element<'a> {
    gdvariant::parse_prefix(bytes, options_for(version, false))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Checks that `T` reads the value of `name` (f64 and f32 agree with the wire value), and that
/// an int does not convert to it.
fn reals<T64, T32>(version: Version, name: &str, ty: VariantType)
where
    T64: for<'a> FromVariant<'a> + PartialEq + core::fmt::Debug + Copy,
    T32: for<'a> FromVariant<'a> + PartialEq + core::fmt::Debug + Copy,
{
    let bytes = corpus(version, name);
    let value = element(version, name, &bytes);
    assert_eq!(value.variant_type(), ty, "{name}");
    let wide: T64 = value.get_as().unwrap();
    let single: T32 = value.get_as().unwrap();
    assert_eq!(T64::TYPE, ty);
    assert_eq!(Some(Ok(wide)), T64::from_variant(value.value()), "{name}");
    assert_eq!(Some(Ok(single)), T32::from_variant(value.value()), "{name}");
    let int = corpus(version, "int_42");
    let error = element(version, "int_42", &int).get_as::<T64>().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::WrongType { expected: ty, found: VariantType::Int });
}

#[test]
fn every_math_type_and_color_converts() {
    for version in [Version::Godot3, Version::Godot4] {
        reals::<Vector2<f64>, Vector2<f32>>(version, "vector2_inexact", VariantType::Vector2);
        reals::<Rect2<f64>, Rect2<f32>>(version, "rect2_basic", VariantType::Rect2);
        reals::<Vector3<f64>, Vector3<f32>>(version, "vector3_inexact", VariantType::Vector3);
        reals::<Transform2D<f64>, Transform2D<f32>>(
            version,
            "transform2d_distinct",
            VariantType::Transform2D,
        );
        reals::<Plane<f64>, Plane<f32>>(version, "plane_basic", VariantType::Plane);
        reals::<Aabb<f64>, Aabb<f32>>(version, "aabb_basic", VariantType::Aabb);
        reals::<Basis<f64>, Basis<f32>>(version, "basis_distinct", VariantType::Basis);
        let quaternion =
            if version == Version::Godot3 { "quat_distinct" } else { "quaternion_distinct" };
        reals::<Quaternion<f64>, Quaternion<f32>>(version, quaternion, VariantType::Quaternion);
        let transform =
            if version == Version::Godot3 { "transform_distinct" } else { "transform3d_distinct" };
        reals::<Transform3D<f64>, Transform3D<f32>>(version, transform, VariantType::Transform3D);
        let bytes = corpus(version, "color_basic");
        let color: Color<f32> = element(version, "color_basic", &bytes).get_as().unwrap();
        assert!(
            matches!(gdvariant::parse(&bytes, options_for(version, false)).unwrap(), VariantRef::Color(c) if c == color)
        );
    }
    reals::<Vector4<f64>, Vector4<f32>>(Version::Godot4, "vector4_basic", VariantType::Vector4);
    reals::<Projection<f64>, Projection<f32>>(
        Version::Godot4,
        "projection_distinct",
        VariantType::Projection,
    );
    // Godot 4.6: var_to_bytes(Vector2(1.1, 2.2)): f32 components bit for bit, f64 widened exactly.
    let bytes = corpus(Version::Godot4, "vector2_inexact");
    let single: Vector2<f32> = element(Version::Godot4, "", &bytes).get_as().unwrap();
    let wide: Vector2<f64> = element(Version::Godot4, "", &bytes).get_as().unwrap();
    assert_eq!(single.x.to_bits(), u32::from_le_bytes(bytes[4..8].try_into().unwrap()));
    assert_eq!(wide.x, f64::from(single.x));
}

#[test]
fn integer_vectors_convert() {
    for (name, ty) in
        [("vector2i_extremes", VariantType::Vector2i), ("rect2i_basic", VariantType::Rect2i)]
    {
        let bytes = corpus(Version::Godot4, name);
        let value = element(Version::Godot4, name, &bytes);
        match ty {
            VariantType::Vector2i => {
                let v: Vector2<i32> = value.get_as().unwrap();
                assert!(matches!(value.value(), VariantRef::Vector2i(w) if w == v));
            }
            _ => {
                let r: Rect2<i32> = value.get_as().unwrap();
                assert!(matches!(value.value(), VariantRef::Rect2i(w) if w == r));
            }
        }
    }
    let bytes = corpus(Version::Godot4, "vector3i_basic");
    assert!(element(Version::Godot4, "", &bytes).get_as::<Vector3<i32>>().is_ok());
    let bytes = corpus(Version::Godot4, "vector4i_basic");
    assert!(element(Version::Godot4, "", &bytes).get_as::<Vector4<i32>>().is_ok());
    // A Vector2i is not a Vector2, and the other way round.
    let error = element(Version::Godot4, "", &bytes).get_as::<Vector4<f64>>().unwrap_err();
    assert_eq!(
        error.kind(),
        ErrorKind::WrongType { expected: VariantType::Vector4, found: VariantType::Vector4i }
    );
}

/// A Godot 4 array `[v0, v1, ...]` written by `write`.
fn array_of(count: usize, write: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let mut writer =
        Writer::new(Vec::new(), EncodeOptions::godot4().with_precision(Precision::Double));
    writer.begin_array(count).unwrap();
    write(&mut writer);
    writer.finish().unwrap()
}

#[test]
fn numbers_are_range_checked_and_errors_point_at_the_value() {
    let bytes = array_of(8, |w| {
        w.int(i64::from(i32::MAX)).unwrap();
        w.int(i64::from(i32::MAX) + 1).unwrap();
        w.int(-1).unwrap();
        w.float(1e300).unwrap();
        w.float(f64::INFINITY).unwrap();
        w.float(0.1).unwrap();
        w.vector2(Vector2 { x: 1e300f64, y: 0.0 }).unwrap();
        w.vector2(Vector2 { x: 0.1f64, y: -2.5 }).unwrap();
    });
    let array = gdvariant::parse(&bytes, Options::godot4()).unwrap().as_array().unwrap();
    let at = |i: usize| array.get_element(i).unwrap().unwrap().offset();
    let out_of_range =
        |i: usize, found| gdvariant::Error::new(at(i), ErrorKind::OutOfRange { found });
    assert_eq!(array.get_as::<i32>(0), Ok(Some(i32::MAX)));
    assert_eq!(array.get_as::<u32>(0), Ok(Some(i32::MAX as u32)));
    assert_eq!(array.get_as::<i32>(1), Err(out_of_range(1, VariantType::Int)));
    assert_eq!(array.get_as::<u32>(1), Ok(Some(1 << 31)));
    assert_eq!(array.get_as::<u32>(2), Err(out_of_range(2, VariantType::Int)));
    assert_eq!(array.get_as::<i32>(2), Ok(Some(-1)));
    assert_eq!(array.get_as::<f32>(3), Err(out_of_range(3, VariantType::Float)));
    assert_eq!(array.get_as::<f64>(3), Ok(Some(1e300)));
    assert_eq!(array.get_as::<f32>(4), Ok(Some(f32::INFINITY)), "infinities convert as they are");
    assert_eq!(array.get_as::<f32>(5), Ok(Some(0.1f32)), "the nearest f32");
    assert_eq!(array.get_as::<Vector2<f32>>(6), Err(out_of_range(6, VariantType::Vector2)));
    assert_eq!(array.get_as::<Vector2<f32>>(7), Ok(Some(Vector2 { x: 0.1f32, y: -2.5 })));
    assert_eq!(array.get_as::<Vector2<f64>>(7), Ok(Some(Vector2 { x: 0.1, y: -2.5 })));
    assert_eq!(array.get_as::<i32>(8), Ok(None), "past the end");
    let error = array.get_as::<i32>(7).unwrap_err();
    assert!(!error.is_malformed() && !out_of_range(1, VariantType::Int).is_malformed());
    assert_eq!(out_of_range(1, VariantType::Int).godot_error(Version::Godot4), None);
}

#[test]
fn packed_arrays_and_node_paths_convert_to_their_views() {
    let options = Options::godot4();
    macro_rules! check {
        ($name:expr, $ty:ty, $variant:ident) => {{
            let bytes = corpus(Version::Godot4, $name);
            let value = gdvariant::parse(&bytes, options).unwrap();
            let got: $ty = element(Version::Godot4, $name, &bytes).get_as().unwrap();
            assert!(matches!(value, VariantRef::$variant(v) if v == got), $name);
        }};
    }
    check!("packed_byte_len5", &[u8], PackedByteArray);
    check!("packed_int32_basic", Packed<'_, i32>, PackedInt32Array);
    check!("packed_int64_basic", Packed<'_, i64>, PackedInt64Array);
    check!("packed_float32_basic", Packed<'_, f32>, PackedFloat32Array);
    check!("packed_float64_basic", Packed<'_, f64>, PackedFloat64Array);
    check!("packed_color_basic", Packed<'_, Color<f32>>, PackedColorArray);
    check!("packed_vector2_basic", PackedReals<'_, Vector2<f32>, Vector2<f64>>, PackedVector2Array);
    check!("packed_vector3_basic", PackedReals<'_, Vector3<f32>, Vector3<f64>>, PackedVector3Array);
    check!("packed_vector4_basic", PackedReals<'_, Vector4<f32>, Vector4<f64>>, PackedVector4Array);
    let bytes = corpus(Version::Godot4, "packed_string_basic");
    let strings: PackedStrings<'_> = element(Version::Godot4, "", &bytes).get_as().unwrap();
    assert!(
        matches!(gdvariant::parse(&bytes, options).unwrap(), VariantRef::PackedStringArray(s) if s.len() == strings.len())
    );
    let bytes = corpus(Version::Godot4, "nodepath_subnames");
    let path: NodePathRef<'_> = element(Version::Godot4, "", &bytes).get_as().unwrap();
    assert!(
        matches!(gdvariant::parse(&bytes, options).unwrap(), VariantRef::NodePath(p) if p == path)
    );
    // Godot 3's pool arrays are the same views.
    let bytes = corpus(Version::Godot3, "pool_real_basic");
    let reals: Packed<'_, f32> = element(Version::Godot3, "", &bytes).get_as().unwrap();
    assert!(!reals.is_empty());
}

#[test]
fn as_str_reads_strings_and_string_names() {
    let bytes = corpus(Version::Godot4, "string_utf8_mixed");
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    assert_eq!(value.as_str(), Some(value.as_gd_str().unwrap().to_str().unwrap()));
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    writer.string_name("name").unwrap();
    let name = writer.finish().unwrap();
    assert_eq!(gdvariant::parse(&name, Options::godot4()).unwrap().as_str(), Some("name"));
    let int = corpus(Version::Godot4, "int_42");
    assert_eq!(gdvariant::parse(&int, Options::godot4()).unwrap().as_str(), None);
}

#[test]
fn owned_dictionary_lookups_take_what_lazy_lookups_take() {
    let mut d = Dictionary::new();
    d.insert("hp", 90);
    d.insert(1, "int one");
    d.insert(Variant::Float(1.0), "float one");
    d.insert(true, "yes");
    d.insert(Variant::StringName("name".into()), "a StringName key");
    assert_eq!(d.get("hp"), Some(&Variant::Int(90)));
    assert_eq!(d.get(&Variant::from("hp")), Some(&Variant::Int(90)));
    assert_eq!(d.get(1), Some(&Variant::from("int one")));
    assert_eq!(d.get(1i64), Some(&Variant::from("int one")));
    assert_eq!(d.get(1.0), Some(&Variant::from("float one")), "1 and 1.0 are two keys");
    assert_eq!(d.get(true), Some(&Variant::from("yes")));
    assert_eq!(d.get(Key::Bool(false)), None);
    assert_eq!(
        d.get("name"),
        Some(&Variant::from("a StringName key")),
        "Godot 4: String finds StringName"
    );
    assert!(d.contains_key("hp") && !d.contains_key("mp"));
    *d.get_mut("hp").unwrap() = Variant::Int(80);
    assert_eq!(d.remove("hp"), Some(Variant::Int(80)));
    assert_eq!(d.len(), 4);
    // The same lookups on the lazy view of the encoded dictionary agree.
    let bytes =
        gdvariant::encode(&Variant::Dictionary(Box::new(d.clone())), EncodeOptions::godot4())
            .unwrap();
    let lazy = gdvariant::parse(&bytes, Options::godot4()).unwrap().as_dictionary().unwrap();
    for key in [Key::from(1), Key::from(1.0), Key::from(true), Key::from("name"), Key::from("hp")] {
        let owned = d.get(key).cloned();
        let viewed = lazy.get(key).unwrap().map(|v| Variant::from_ref(&v).unwrap());
        assert_eq!(owned, viewed, "{key:?}");
    }
}
