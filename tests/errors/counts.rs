//! Hostile counts: refused before anything depends on them, except the forms Godot accepts.

use super::*;

/// How a lazy reader copes with a value: its declared length and, after iterating, how many
/// items came out and the error that stopped it (if any).
fn lazy_len_and_iterate(value: VariantRef<'_>) -> (usize, usize, Option<Error>) {
    fn run<T>(it: impl Iterator<Item = Result<T, Error>>) -> (usize, Option<Error>) {
        let mut items = 0;
        for item in it {
            items += 1;
            assert!(items <= 8, "iteration does not stop");
            if let Err(e) = item {
                return (items, Some(e));
            }
        }
        (items, None)
    }
    let (len, (items, error)) = match value {
        VariantRef::Array(a) => (a.len(), run(a.iter())),
        VariantRef::Dictionary(d) => (d.len(), run(d.iter())),
        VariantRef::PackedStringArray(s) => (s.len(), run(s.iter())),
        VariantRef::NodePath(p) => (p.name_count() + p.subname_count(), run(p.names())),
        VariantRef::Object(ObjectRef::Full(o)) => (o.len(), run(o.properties())),
        VariantRef::PackedByteArray(b) => (b.len(), (b.len(), None)),
        VariantRef::PackedInt32Array(p) => (p.len(), (p.iter().count(), None)),
        VariantRef::PackedInt64Array(p) => (p.len(), (p.iter().count(), None)),
        VariantRef::PackedFloat32Array(p) => (p.len(), (p.iter().count(), None)),
        VariantRef::PackedFloat64Array(p) => (p.len(), (p.iter().count(), None)),
        VariantRef::PackedColorArray(p) => (p.len(), (p.iter().count(), None)),
        VariantRef::PackedVector2Array(p) => (p.len(), (p.len(), None)),
        VariantRef::PackedVector3Array(p) => (p.len(), (p.len(), None)),
        VariantRef::PackedVector4Array(p) => (p.len(), (p.len(), None)),
        other => panic!("not a container: {other:?}"),
    };
    (len, items, error)
}

#[test]
fn hostile_counts_are_refused_before_anything_depends_on_them() {
    // (version, type id, what it is)
    let mut types: Vec<(Version, u32, VariantType)> = vec![
        (Version::Godot4, 28, VariantType::Array),
        (Version::Godot4, 27, VariantType::Dictionary),
        (Version::Godot3, 19, VariantType::Array),
        (Version::Godot3, 18, VariantType::Dictionary),
    ];
    let g4_packed = [
        VariantType::PackedByteArray,
        VariantType::PackedInt32Array,
        VariantType::PackedInt64Array,
        VariantType::PackedFloat32Array,
        VariantType::PackedFloat64Array,
        VariantType::PackedStringArray,
        VariantType::PackedVector2Array,
        VariantType::PackedVector3Array,
        VariantType::PackedColorArray,
        VariantType::PackedVector4Array,
    ];
    for (id, ty) in (29..=38).zip(g4_packed) {
        types.push((Version::Godot4, id, ty));
    }
    let g3_pool = [
        VariantType::PackedByteArray,
        VariantType::PackedInt32Array,
        VariantType::PackedFloat32Array,
        VariantType::PackedStringArray,
        VariantType::PackedVector2Array,
        VariantType::PackedVector3Array,
        VariantType::PackedColorArray,
    ];
    for (id, ty) in (20..=26).zip(g3_pool) {
        types.push((Version::Godot3, id, ty));
    }
    let mut accepted = 0;
    for &(version, id, ty) in &types {
        for count in [0x7FFF_FFFFu32, 0xFFFF_FFFF] {
            let bytes = words(&[id, count, 0, 0]);
            assert_eq!(bytes.len(), 16);
            let o = opts(version);
            let what = format!("{version:?} type {id} ({ty:?}) count {count:#x}");
            let container = matches!(ty, VariantType::Array | VariantType::Dictionary);
            if ty == VariantType::PackedStringArray && count == 0xFFFF_FFFF {
                // Godot: a negative PackedStringArray count is an empty array.
                gdvariant::validate(&bytes, o).unwrap_or_else(|e| panic!("{what}: {e}"));
                let value = gdvariant::parse(&bytes, o).unwrap();
                assert_eq!(value.variant_type(), ty, "{what}");
                assert_eq!(lazy_len_and_iterate(value), (0, 0, None), "{what}");
                assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap().len(), 8, "{what}");
                accepted += 1;
                continue;
            }
            // Array and Dictionary counts have bit 31 masked off, as in Godot, and the error
            // reports the masked count (note: ErrorKind::BadCount documents "the count as found
            // on the wire").
            let reported = if container { count & 0x7FFF_FFFF } else { count };
            let expected = Error::new(4, ErrorKind::BadCount { count: reported });
            let v = gdvariant::validate(&bytes, o).expect_err(&what);
            assert_eq!(v, expected, "{what}");
            assert_eq!(v.godot_error(version), Some(GodotError::InvalidData));
            assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected, "{what}");
            match gdvariant::parse(&bytes, o) {
                Err(e) => assert_eq!(e, expected, "{what}"),
                Ok(value) => {
                    let (len, items, error) = lazy_len_and_iterate(value);
                    assert!(len <= 16 / 4, "{what}: len {len}");
                    assert!(items <= 4 && error.is_some(), "{what}");
                }
            }
        }
    }
    assert_eq!(accepted, 2);
    assert_eq!(types.len(), 4 + 10 + 7);
}

#[test]
fn container_counts_that_fit_are_iterated_until_the_first_bad_element() {
    for (version, array, dict) in [(Version::Godot4, 28, 27), (Version::Godot3, 19, 18)] {
        let o = opts(version);
        // Count 2 passes the up-front check (2 x 4 <= 8) but the elements are garbage.
        for (id, count) in [(array, 2u32), (dict, 1)] {
            let mut bytes = words(&[id, count]);
            bytes.extend([0xFF; 8]);
            let expected = Error::new(8, ErrorKind::UnknownType { id: 0xFF });
            assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
            let value = gdvariant::parse(&bytes, o).unwrap();
            assert_eq!(lazy_len_and_iterate(value), (count as usize, 1, Some(expected)));
        }
        // Bit 31 of the count is ignored: 0x80000002 is 2 Nil elements.
        let bytes = words(&[array, 0x8000_0002, 0, 0]);
        gdvariant::validate(&bytes, o).unwrap();
        let a = gdvariant::parse(&bytes, o).unwrap().as_array().unwrap();
        assert_eq!(a.len(), 2);
        assert!(a.iter().all(|v| v.unwrap().is_nil()));
        let bytes = words(&[dict, 0x8000_0001, 0, 0]);
        gdvariant::validate(&bytes, o).unwrap();
        let d = gdvariant::parse(&bytes, o).unwrap().as_dictionary().unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d.iter().count(), 1);
    }
}

#[test]
fn hostile_node_path_counts() {
    for (version, id) in [(Version::Godot4, 22u32), (Version::Godot3, 15)] {
        let o = opts(version);
        // Name count 0x7FFFFFFF (bit 31 set = new format), no subnames, no flags.
        let bytes = words(&[id, 0xFFFF_FFFF, 0, 0]);
        let expected = Error::new(4, ErrorKind::BadCount { count: 0x7FFF_FFFF });
        assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse(&bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected);
        // A hostile subname count is refused too; the error names the head (offset 4), as the
        // checked number is Godot's u32 sum of both counts.
        let bytes = words(&[id, 0x8000_0000, 0x7FFF_FFFF, 0]);
        let err = gdvariant::validate(&bytes, o).unwrap_err();
        assert_eq!(err, Error::new(4, ErrorKind::BadCount { count: 0x7FFF_FFFF }));
        // Godot adds the counts in wrapping u32 arithmetic: 0x7FFFFFFF + 0x80000001 = 0 strings,
        // which Godot accepts as an empty path.
        let bytes = words(&[id, 0xFFFF_FFFF, 0x8000_0001, 0]);
        gdvariant::validate(&bytes, o).unwrap();
        let VariantRef::NodePath(path) = gdvariant::parse(&bytes, o).unwrap() else { panic!() };
        assert_eq!((path.name_count(), path.subname_count()), (0, 0));
        assert_eq!(path.names().count() + path.subnames().count(), 0);
        // A count that fits but whose strings are garbage: iteration stops at the first.
        let mut bytes = words(&[id, 0x8000_0002, 0, 0]);
        bytes.extend([0xFF; 8]);
        let expected = Error::new(16, ErrorKind::StringOverrun { declared: 0xFFFF_FFFF });
        assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
        let value = gdvariant::parse(&bytes, o).unwrap();
        assert_eq!(lazy_len_and_iterate(value), (2, 1, Some(expected)));
    }
}

#[test]
fn hostile_object_property_counts() {
    for (version, id) in [(Version::Godot4, 24u32), (Version::Godot3, 17)] {
        let o = opts(version).with_allow_objects(true);
        let object = |count: u32, tail: &[u8]| {
            let mut bytes = words(&[id]);
            bytes.extend(gd_string("Node"));
            bytes.extend(count.to_le_bytes());
            bytes.extend_from_slice(tail);
            bytes
        };
        let bytes = object(0x7FFF_FFFF, &[0; 8]);
        let expected = Error::new(12, ErrorKind::BadCount { count: 0x7FFF_FFFF });
        assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse(&bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected);
        // A negative count means no properties (Godot reads it as i32).
        let bytes = object(0xFFFF_FFFF, &[0; 8]);
        gdvariant::validate(&bytes, o).unwrap();
        let value = gdvariant::parse(&bytes, o).unwrap();
        assert_eq!(lazy_len_and_iterate(value), (0, 0, None));
        assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap().len(), 16);
        // A count that fits, garbage property: the name length is refused.
        let bytes = object(1, &[0xFF; 8]);
        let expected = Error::new(16, ErrorKind::StringOverrun { declared: 0xFFFF_FFFF });
        assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
        let value = gdvariant::parse(&bytes, o).unwrap();
        assert_eq!(lazy_len_and_iterate(value), (1, 1, Some(expected)));
    }
}
