//! The lazy walk: every value visited through the lazy API, counting the items it declares.

use super::*;

/// Checks a string's text both ways: `check`, and `to_str` (a Godot 3 string that Godot accepts
/// but `str` cannot hold or borrow, `NotUnicode` or `Overlong`, counts as text).
pub(crate) fn text(s: gdvariant::view::GdStr<'_>) -> Result<(), Error> {
    s.check()?;
    match s.to_str() {
        Ok(text) => assert_eq!(text.len(), s.text_bytes().len()),
        Err(e) if matches!(e.kind(), ErrorKind::NotUnicode | ErrorKind::Overlong) => {}
        Err(e) => return Err(e),
    }
    black_box(s.raw_bytes());
    Ok(())
}

pub(crate) fn check_container_type(ty: ContainerType<'_>) -> Result<(), Error> {
    match ty {
        ContainerType::ClassName(s) | ContainerType::Script(s) => text(s),
        _ => Ok(()),
    }
}

/// Every non-allocating accessor of a fixed-size packed array; returns its length.
pub(crate) fn packed<T: PackedElement>(p: &Packed<'_, T>) -> usize {
    let len = p.len();
    assert_eq!(p.is_empty(), len == 0);
    assert_eq!(p.as_le_slice().len(), len);
    assert!(p.as_slice().is_none_or(|s| s.len() == len));
    assert!(p.raw_bytes().len() >= len * size_of::<T>());
    if len > 0 {
        black_box(p.get(0).unwrap());
        black_box(p.get(len - 1).unwrap());
        black_box(p.iter().next_back());
    }
    assert!(p.get(len).is_none());
    assert_eq!(p.iter().count(), len);
    len
}

pub(crate) fn packed_reals<S: PackedElement, D: PackedElement>(p: &PackedReals<'_, S, D>) -> usize {
    let len = p.len();
    assert_eq!(p.is_empty(), len == 0);
    black_box(p.precision());
    match p {
        PackedReals::Single(s) => packed(s),
        PackedReals::Double(d) => packed(d),
    }
}

/// A full lazy walk through every non-allocating accessor (see the module docs); returns the
/// number of values and strings visited. Recursive: it goes as deep as the value, which the
/// reader bounds by the depth limit.
pub(crate) fn lazy_walk(value: VariantRef<'_>) -> Result<usize, Error> {
    let mut visited = 1;
    match value {
        VariantRef::String(s) | VariantRef::StringName(s) => text(s)?,
        VariantRef::Signal(signal) => {
            text(signal.name())?;
            black_box(signal.object_id());
        }
        VariantRef::NodePath(path) => {
            black_box((path.is_absolute(), path.has_legacy_property(), path.flags()));
            let (names, subnames) = (path.name_count(), path.subname_count());
            for (i, name) in path.names().enumerate() {
                assert!(i < names);
                text(name?)?;
                visited += 1;
            }
            for (i, subname) in path.subnames().enumerate() {
                assert!(i < subnames);
                text(subname?)?;
                visited += 1;
            }
        }
        VariantRef::PackedStringArray(strings) => {
            let len = strings.len();
            assert_eq!(strings.is_empty(), len == 0);
            for (i, s) in strings.iter().enumerate() {
                assert!(i < len);
                text(s?)?;
                visited += 1;
            }
        }
        VariantRef::PackedByteArray(bytes) => {
            black_box(bytes.len());
        }
        VariantRef::PackedInt32Array(p) => visited += packed(&p),
        VariantRef::PackedInt64Array(p) => visited += packed(&p),
        VariantRef::PackedFloat32Array(p) => visited += packed(&p),
        VariantRef::PackedFloat64Array(p) => visited += packed(&p),
        VariantRef::PackedColorArray(p) => visited += packed(&p),
        VariantRef::PackedVector2Array(p) => visited += packed_reals(&p),
        VariantRef::PackedVector3Array(p) => visited += packed_reals(&p),
        VariantRef::PackedVector4Array(p) => visited += packed_reals(&p),
        VariantRef::Array(array) => {
            check_container_type(array.element_type()?)?;
            let len = array.len();
            assert_eq!(array.is_empty(), len == 0);
            for (i, element) in array.elements().enumerate() {
                assert!(i < len);
                let element = element?;
                assert_eq!(element.raw_bytes().len(), element.len());
                visited += lazy_walk(element.value())?;
            }
            if len > 0 {
                array.get(len - 1)?.unwrap();
                array.get_element(0)?.unwrap();
                value.lookup(&[Key::from(0i64)])?.unwrap();
            }
            assert!(array.get(len)?.is_none());
        }
        VariantRef::Dictionary(dictionary) => {
            check_container_type(dictionary.key_type()?)?;
            check_container_type(dictionary.value_type()?)?;
            let len = dictionary.len();
            assert_eq!(dictionary.is_empty(), len == 0);
            for (i, entry) in dictionary.entries().enumerate() {
                assert!(i < len);
                let (key, value) = entry?;
                assert_eq!(key.raw_bytes().len(), key.len());
                assert_eq!(value.offset(), key.offset() + key.len());
                visited += lazy_walk(key.value())?;
                visited += lazy_walk(value.value())?;
            }
            black_box(dictionary.get("a")?);
            black_box(dictionary.get_first(0i64)?);
            black_box(value.lookup(&[Key::from("a"), Key::from(1i64)]).ok());
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            text(object.class_name())?;
            let len = object.len();
            assert_eq!(object.is_empty(), len == 0);
            for (i, property) in object.properties().enumerate() {
                assert!(i < len);
                let (name, value) = property?;
                text(name)?;
                visited += lazy_walk(value.value())?;
            }
            black_box(object.get("script")?);
        }
        _ => {}
    }
    Ok(visited)
}

/// The number of items a container or packed array declares.
pub(crate) fn declared_items(value: VariantRef<'_>) -> usize {
    match value {
        VariantRef::Array(a) => a.len(),
        VariantRef::Dictionary(d) => d.len(),
        VariantRef::NodePath(p) => p.name_count() + p.subname_count(),
        VariantRef::PackedStringArray(s) => s.len(),
        VariantRef::Object(ObjectRef::Full(o)) => o.len(),
        other => panic!("not a container: {other:?}"),
    }
}

/// `parse` followed by the full lazy walk.
pub(crate) fn parse_and_walk(bytes: &[u8], options: Options) -> Result<usize, Error> {
    lazy_walk(gdvariant::parse(bytes, options)?)
}

/// Runs `validate`, `parse_prefix` and `parse` + the lazy walk, each asserted not to allocate;
/// returns their results.
#[allow(clippy::type_complexity)]
pub(crate) fn lazy_results(
    what: &str,
    bytes: &[u8],
    options: Options,
) -> (Result<(), Error>, Result<usize, Error>, Result<usize, Error>) {
    let validated = no_alloc(what, || gdvariant::validate(bytes, options));
    let prefix = no_alloc(what, || gdvariant::parse_prefix(bytes, options).map(|e| e.len()));
    let walked = no_alloc(what, || parse_and_walk(bytes, options));
    (validated, prefix, walked)
}
