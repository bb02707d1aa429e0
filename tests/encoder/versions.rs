//! Version checks: what Godot 3 lacks is refused there; full objects need the option.

use super::*;

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
        (T::Vector4, Variant::from(Vector4::<f64>::default()), Box::new(move |w| w.vector4(v4))),
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
        (T::Signal, Variant::from(Signal::default()), Box::new(|w| w.signal("s", 1))),
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
        let inside = Variant::from(Array::from(vec![Variant::Nil, value.clone()]));
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
    let array = Variant::from(Array::typed(ElementType::Builtin(VariantType::Int)));
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
        let object = Variant::Object(Object::full("Resource", vec![]));
        let in_array = Variant::from(Array::from(vec![object.clone()]));
        assert_eq!(gdvariant::encode(&object, options), Err(needed));
        assert_eq!(gdvariant::encode(&in_array, options), Err(needed));
        // Ids and null objects need nothing.
        let ids = Variant::from(Array::from(vec![
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
