//! Godot's types mapped onto Rust's.

use super::*;

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
