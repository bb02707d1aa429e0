//! The precision option: double-precision output, ignored by Godot 3.

use super::*;

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
        Variant::from(Rect2 {
            position: Vector2 { x: 0.1, y: 0.2 },
            size: Vector2 { x: 0.3, y: 0.4 },
        }),
        Variant::Transform2D(Box::default()),
        Variant::from(Vector4 { x: 0.1, y: 0.2, z: 0.3, w: 0.4 }),
        Variant::from(Plane::default()),
        Variant::from(Quaternion { x: 0.1, y: 0.0, z: 0.0, w: 1.0 }),
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
