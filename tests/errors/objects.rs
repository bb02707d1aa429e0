//! Objects not allowed: full objects refused wherever they sit unless allowed.

use super::*;

#[test]
fn full_objects_are_refused_wherever_they_sit_unless_allowed() {
    for (version, array, dict, object) in
        [(Version::Godot4, 0x1Cu32, 0x1Bu32, 0x18u32), (Version::Godot3, 0x13, 0x12, 0x11)]
    {
        // Node, no properties.
        let full = [words(&[object]), gd_string("Node"), words(&[0])].concat();
        let as_id = words(&[object | 1 << 16, 0x1234, 0]);
        // (description, bytes with `obj` placed, offset of `obj`)
        let layouts = |obj: &[u8]| -> Vec<(&str, Vec<u8>, usize)> {
            let nil = words(&[0]);
            vec![
                ("top level", obj.to_vec(), 0),
                ("array element", [&words(&[array, 1])[..], obj].concat(), 8),
                ("second array element", [&words(&[array, 2])[..], &nil, obj].concat(), 12),
                ("dictionary key", [&words(&[dict, 1])[..], obj, &nil].concat(), 8),
                ("dictionary value", [&words(&[dict, 1])[..], &nil, obj].concat(), 12),
                (
                    "deep: [{null: [obj]}]",
                    [&words(&[array, 1, dict, 1])[..], &nil, &words(&[array, 1]), obj].concat(),
                    28,
                ),
            ]
        };
        for ((where_, bytes, at), (_, id_bytes, _)) in
            layouts(&full).into_iter().zip(layouts(&as_id))
        {
            let what = format!("{version:?} {where_}");
            let refused = opts(version);
            let allowed = refused.with_allow_objects(true);
            let expected = Error::new(at, ErrorKind::ObjectsNotAllowed);
            assert_eq!(gdvariant::validate(&bytes, refused).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&bytes, refused).unwrap_err(), expected, "{what}");
            assert_eq!(lazy_all(&bytes, refused).unwrap_err(), expected, "{what}");
            assert_eq!(expected.godot_error(version), Some(GodotError::Unauthorized));
            gdvariant::validate(&bytes, allowed).unwrap_or_else(|e| panic!("{what}: {e}"));
            lazy_all(&bytes, allowed).unwrap_or_else(|e| panic!("{what}: {e}"));
            // Object ids are always accepted.
            for o in [refused, allowed] {
                gdvariant::validate(&id_bytes, o).unwrap_or_else(|e| panic!("{what} (id): {e}"));
                lazy_all(&id_bytes, o).unwrap_or_else(|e| panic!("{what} (id): {e}"));
            }
        }
        // A full object as the property value of another full object: fine when allowed;
        // refused at the outer object (offset 0) otherwise.
        let outer = |value: &[u8]| {
            let mut b = words(&[object]);
            b.extend(gd_string("Node"));
            b.extend(words(&[1]));
            b.extend(gd_string("x"));
            b.extend_from_slice(value);
            b
        };
        let nested = outer(&full);
        let allowed = opts(version).with_allow_objects(true);
        gdvariant::validate(&nested, allowed).unwrap();
        let VariantRef::Object(ObjectRef::Full(o)) = gdvariant::parse(&nested, allowed).unwrap()
        else {
            panic!("{version:?}: not a full object")
        };
        let (name, value) = o.properties().next().unwrap().unwrap();
        assert_eq!(name.to_str(), Ok("x"));
        assert_eq!(value.offset(), 24);
        assert!(matches!(value.value(), VariantRef::Object(ObjectRef::Full(_))));
        assert_eq!(
            gdvariant::validate(&nested, opts(version)).unwrap_err(),
            Error::new(0, ErrorKind::ObjectsNotAllowed)
        );
        // With an object id as the property value, the outer full object still needs allowing.
        let with_id = outer(&as_id);
        gdvariant::validate(&with_id, allowed).unwrap();
        assert_eq!(
            gdvariant::validate(&with_id, opts(version)).unwrap_err(),
            Error::new(0, ErrorKind::ObjectsNotAllowed)
        );
        // Real corpus data: the arrays holding a full object, without allow_objects.
        let real = corpus(version, "array_with_object_full");
        let err = gdvariant::validate(&real, opts(version)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ObjectsNotAllowed);
        assert_eq!(lazy_all(&real, opts(version)).unwrap_err(), err);
        gdvariant::validate(&corpus(version, "array_with_object_id"), opts(version)).unwrap();
    }
}
