//! `lazy_walk`: arbitrary bytes through every part of the lazy API.
//!
//! Under both versions, with objects refused and allowed, the input is parsed and walked
//! depth-first: every container iterated, every string turned into text, every math value and
//! packed element read through each of its views, dictionaries and arrays looked up by key, by
//! index and by path, objects by property name. Asserted on the way:
//!
//! * every error offset lies inside the input;
//! * an element's raw bytes are the input bytes at its offset, of its length, and its type is
//!   the type of its value; a standalone `parse_prefix` of those bytes has the same length;
//! * `get(i)`, `get_element(i)` and path lookups find the elements iteration found, past the end
//!   is `None`; a dictionary lookup finds the *last* entry with an equal key, `get_first` the
//!   first, by [`Key::matches`];
//! * iterators yield exactly `len()` items when nothing is malformed;
//! * packed arrays: `get`, `iter` (both directions), the little-endian view and the native slice
//!   agree, and their bytes are the input's;
//! * a string's text is inside its raw bytes; `check`, `to_str` and `eq_str` agree;
//! * the text form (`text::to_text_as`) and JSON (`json::to_json`) of what parses are written
//!   without panicking; when they fail, the error lies inside the input, and they succeed on
//!   whatever walks without error (Godot 3 strings outside Unicode aside);
//! * `detect` agrees with `validate`: a version it names accepts the bytes, and
//!   [`Verdict::Neither`](gdvariant::detection::Verdict) means neither does.

use gdvariant::packed::PackedElement;
use gdvariant::{
    Error, ErrorKind, Key, VariantRef, packed::Packed, packed::PackedReals, view::ArrayRef,
    view::ContainerType, view::DictionaryRef, view::Element, view::GdStr, view::ObjectRef,
};

use super::options;

/// How many keys of one dictionary are looked up (each lookup scans the dictionary).
const LOOKUPS: usize = 16;

/// The target: parse and walk `data` under every reader setting.
pub fn check(data: &[u8]) {
    check_detection(data);
    for options in options::all() {
        let walked = match gdvariant::parse(data, options) {
            Ok(value) => {
                // Debug output reads the value too; it must not panic on anything that parsed.
                let _ = format!("{value:?}");
                walk(value, data)
            }
            Err(error) => Err(error),
        };
        if let Err(error) = walked {
            options::assert_offset_inside(&error, data, "lazy walk");
        }
        if let Ok(value) = gdvariant::parse(data, options) {
            let outputs = [
                ("text", gdvariant::text::to_text_as(value, options.version()).map(drop)),
                ("json", gdvariant::json::to_json(value).map(drop)),
            ];
            for (what, output) in outputs {
                if let Err(error) = output {
                    options::assert_offset_inside(&error, data, what);
                    assert!(
                        walked.is_err() || error.kind() == ErrorKind::NotUnicode,
                        "{what} fails on a value that walks: {error}"
                    );
                }
            }
        }
        if let Ok(element) = gdvariant::parse_prefix(data, options) {
            assert!(element.len() <= data.len(), "parse_prefix length past the input");
            check_element_bytes(&element, data);
            // The same walk from the element gives the same verdict as from `parse`.
            assert_eq!(walk(element.value(), data), walked, "walk from parse_prefix vs parse");
        }
    }
}

/// `detect` names only versions that accept the bytes (with objects allowed), and says what
/// refused bytes look like only when neither version accepts them.
fn check_detection(data: &[u8]) {
    use gdvariant::detection::Verdict;
    use gdvariant::{Options, Version};
    let detection = gdvariant::detect(data);
    let _ = (detection.to_string(), detection.same_meaning(), detection.type_id());
    let accepts =
        |version| gdvariant::validate(data, Options::new(version).with_allow_objects(true));
    let (g3, g4) = (accepts(Version::Godot3), accepts(Version::Godot4));
    assert_eq!(detection.godot3_error(), g3.err(), "detect's Godot 3 error");
    assert_eq!(detection.godot4_error(), g4.err(), "detect's Godot 4 error");
    match detection.verdict() {
        Verdict::Godot3Only => assert!(g3.is_ok()),
        Verdict::Godot4Only => assert!(g4.is_ok()),
        Verdict::Both => assert!(g3.is_ok() && g4.is_ok()),
        Verdict::Neither => assert!(g3.is_err() && g4.is_err()),
    }
    if let Some(version) = detection.version() {
        assert!(accepts(version).is_ok(), "detect names {version:?}, which refuses the bytes");
    }
    // What the bytes look like is said of refused bytes only, and then as `foreign` says it.
    let foreign = gdvariant::detection::foreign(data);
    match detection.verdict() {
        Verdict::Neither => assert_eq!(detection.foreign(), foreign),
        _ => assert_eq!(detection.foreign(), None, "a value Godot reads is called something else"),
    }
    if let Some([(_, first), (_, second)]) = detection.refusals() {
        assert!(first.offset() >= second.offset(), "the reading that got further leads");
    }
}

/// Walks every part of `value` (which was read from `input`) through the lazy API and returns
/// the first error, in the order a reader meets them: a container's type info, then each item
/// in turn (an item's own structure is checked when the iterator reaches it, its text when the
/// walk descends into it).
pub fn walk(value: VariantRef<'_>, input: &[u8]) -> Result<(), Error> {
    let _ = value.variant_type();
    match value {
        VariantRef::Nil => assert!(value.is_nil()),
        VariantRef::Bool(b) => assert_eq!(value.as_bool(), Some(b)),
        VariantRef::Int(i) => assert_eq!(value.as_int(), Some(i)),
        VariantRef::Float(f) => assert_eq!(value.as_float().map(f64::to_bits), Some(f.to_bits())),
        VariantRef::String(s) | VariantRef::StringName(s) => {
            assert!(value.as_gd_str().is_some());
            text(s, input)?;
        }
        VariantRef::Vector2(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Rect2(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Vector3(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Transform2D(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Vector4(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Plane(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Quaternion(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Aabb(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Basis(r) => {
            let basis = r.get();
            for column in 0..4 {
                assert_eq!(basis.column(column).is_some(), column < 3);
            }
            reals(basis, r.get_f32(), r.raw_bytes(), input);
        }
        VariantRef::Transform3D(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Projection(r) => reals(r.get(), r.get_f32(), r.raw_bytes(), input),
        VariantRef::Vector2i(_)
        | VariantRef::Rect2i(_)
        | VariantRef::Vector3i(_)
        | VariantRef::Vector4i(_)
        | VariantRef::Color(_)
        | VariantRef::Rid(_)
        | VariantRef::Callable => {}
        VariantRef::NodePath(path) => {
            let mut names = 0;
            for name in path.names() {
                text(name?, input)?;
                names += 1;
            }
            let mut subnames = 0;
            for subname in path.subnames() {
                text(subname?, input)?;
                subnames += 1;
            }
            assert_eq!((names, subnames), (path.name_count(), path.subname_count()));
            let _ = (path.is_absolute(), path.has_legacy_property(), path.flags());
            match path.to_text() {
                Ok(_) => {}
                Err(error) => {
                    options::assert_offset_inside(&error, input, "NodePath::to_text");
                    assert_eq!(error.kind(), ErrorKind::NotUnicode, "to_text after a good walk");
                }
            }
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            text(object.class_name(), input)?;
            let mut names = Vec::new();
            for property in object.properties() {
                let (name, element) = property?;
                check_element_bytes(&element, input);
                text(name, input)?;
                walk(element.value(), input)?;
                names.push((name, element));
            }
            assert_eq!(names.len(), object.len(), "properties vs len");
            assert_eq!(object.is_empty(), names.is_empty());
            for (name, _) in names.iter().take(LOOKUPS) {
                let Ok(name) = name.to_str() else { continue };
                let last = names.iter().rev().find(|(n, _)| n.eq_str(name)).map(|(_, e)| e);
                let found = object.get(name).expect("lookup in a walked object");
                assert_eq!(
                    found.map(|v| v.variant_type()),
                    last.map(|e| e.variant_type()),
                    "object.get({name:?})"
                );
            }
        }
        VariantRef::Object(ObjectRef::Null | ObjectRef::Id(_)) => {}
        VariantRef::Signal(signal) => {
            let _ = signal.object_id();
            text(signal.name(), input)?;
        }
        VariantRef::Dictionary(dictionary) => {
            assert!(value.as_dictionary().is_some());
            walk_dictionary(dictionary, &value, input)?;
        }
        VariantRef::Array(array) => {
            assert!(value.as_array().is_some());
            walk_array(array, &value, input)?;
        }
        VariantRef::PackedByteArray(bytes) => assert_inside(bytes, input, "PackedByteArray"),
        VariantRef::PackedInt32Array(p) => packed(p, input),
        VariantRef::PackedInt64Array(p) => packed(p, input),
        VariantRef::PackedFloat32Array(p) => packed(p, input),
        VariantRef::PackedFloat64Array(p) => packed(p, input),
        VariantRef::PackedColorArray(p) => packed(p, input),
        VariantRef::PackedVector2Array(p) => packed_reals(p, input),
        VariantRef::PackedVector3Array(p) => packed_reals(p, input),
        VariantRef::PackedVector4Array(p) => packed_reals(p, input),
        VariantRef::PackedStringArray(strings) => {
            let mut count = 0;
            for s in strings.iter() {
                text(s?, input)?;
                count += 1;
            }
            assert_eq!(count, strings.len());
            assert_eq!(strings.is_empty(), count == 0);
        }
        _ => {}
    }
    Ok(())
}

/// A typed container's class name or script path must be text.
fn container_type(ty: ContainerType<'_>, input: &[u8]) -> Result<(), Error> {
    match ty {
        ContainerType::ClassName(s) | ContainerType::Script(s) => text(s, input),
        _ => Ok(()),
    }
}

fn walk_array(array: ArrayRef<'_>, value: &VariantRef<'_>, input: &[u8]) -> Result<(), Error> {
    let _ = array.offset();
    container_type(array.element_type()?, input)?;
    let mut elements = Vec::new();
    for element in array.elements() {
        let element = element?;
        check_element_bytes(&element, input);
        walk(element.value(), input)?;
        elements.push(element);
    }
    assert_eq!(elements.len(), array.len(), "elements vs len");
    assert_eq!(array.is_empty(), elements.is_empty());
    assert_eq!(array.iter().count(), elements.len(), "iter vs elements");
    // Index and path lookups find the same elements (first, last, a middle one).
    let picks = [0, elements.len() / 2, elements.len().saturating_sub(1)];
    for index in picks.into_iter().filter(|&i| i < elements.len()) {
        let want = elements[index].offset();
        let got = array.get_element(index).expect("index lookup in a walked array");
        assert_eq!(got.map(|e| e.offset()), Some(want), "get_element({index})");
        assert!(array.get(index).expect("get in a walked array").is_some());
        let path = [Key::Int(index as i64)];
        let by_path = value.lookup(&path).expect("path lookup in a walked array");
        assert_eq!(
            by_path.map(|v| v.variant_type()),
            Some(elements[index].variant_type()),
            "lookup([{index}])"
        );
    }
    assert!(array.get_element(elements.len()).expect("past the end").is_none());
    assert!(array.get(usize::MAX).expect("far past the end").is_none());
    Ok(())
}

fn walk_dictionary(
    dictionary: DictionaryRef<'_>,
    value: &VariantRef<'_>,
    input: &[u8],
) -> Result<(), Error> {
    let _ = dictionary.offset();
    container_type(dictionary.key_type()?, input)?;
    container_type(dictionary.value_type()?, input)?;
    let mut entries = Vec::new();
    for entry in dictionary.entries() {
        let (key, item) = entry?;
        check_element_bytes(&key, input);
        check_element_bytes(&item, input);
        walk(key.value(), input)?;
        walk(item.value(), input)?;
        entries.push((key, item));
    }
    assert_eq!(entries.len(), dictionary.len(), "entries vs len");
    assert_eq!(dictionary.is_empty(), entries.is_empty());
    assert_eq!(dictionary.iter().count(), entries.len(), "iter vs entries");
    // Keys a `Key` can express are found: the last equal entry wins, `get_first` the first.
    for (key, _) in entries.iter().take(LOOKUPS) {
        let key_value = key.value();
        let Some(lookup) = as_key(&key_value) else { continue };
        let matching = || entries.iter().filter(|(k, _)| lookup.matches(&k.value()));
        let last = matching().next_back().map(|(_, v)| v.offset());
        let first = matching().next().map(|(_, v)| v.variant_type());
        assert!(last.is_some(), "{lookup:?} does not match its own key");
        let got = dictionary.get_element(lookup).expect("lookup in a walked dictionary");
        assert_eq!(got.map(|e| e.offset()), last, "get_element({lookup:?})");
        assert!(dictionary.get(lookup).expect("get in a walked dictionary").is_some());
        let got_first = dictionary.get_first(lookup).expect("get_first in a walked dictionary");
        assert_eq!(got_first.map(|v| v.variant_type()), first, "get_first({lookup:?})");
        let by_path = value.lookup(&[lookup]).expect("path lookup in a walked dictionary");
        assert_eq!(by_path.map(|v| v.variant_type()), got.map(|e| e.variant_type()));
    }
    Ok(())
}

/// The `Key` that looks `value` up, when there is one.
fn as_key<'k>(value: &'k VariantRef<'_>) -> Option<Key<'k>> {
    match value {
        VariantRef::Nil => Some(Key::Nil),
        VariantRef::Bool(b) => Some(Key::Bool(*b)),
        VariantRef::Int(i) => Some(Key::Int(*i)),
        VariantRef::Float(f) => Some(Key::Float(*f)),
        VariantRef::String(s) | VariantRef::StringName(s) => s.to_str().ok().map(Key::String),
        _ => None,
    }
}

/// An element's raw bytes are the input's bytes at its offset, and its type is its value's.
fn check_element_bytes(element: &Element<'_>, input: &[u8]) {
    let raw = element.raw_bytes();
    assert_eq!(raw.len(), element.len());
    assert_eq!(element.is_empty(), raw.is_empty());
    assert_eq!(Some(raw), input.get(element.offset()..element.offset() + element.len()));
    assert_inside(raw, input, "element raw bytes");
    assert_eq!(element.variant_type(), element.value().variant_type(), "element type");
}

/// `part` is a subslice of `input` (zero-copy).
fn assert_inside(part: &[u8], input: &[u8], what: &str) {
    assert_range_inside(part.as_ptr() as usize, part.len(), input, what);
}

/// `len` bytes at address `at` lie inside `input`.
fn assert_range_inside(at: usize, len: usize, input: &[u8], what: &str) {
    let (start, end) = (input.as_ptr() as usize, input.as_ptr() as usize + input.len());
    assert!(len == 0 || (start <= at && at + len <= end), "{what}: not inside the input");
}

/// Checks a string's text the way `validate` does, then every other view of it.
fn text(s: GdStr<'_>, input: &[u8]) -> Result<(), Error> {
    assert_inside(s.raw_bytes(), input, "string raw bytes");
    assert_inside(s.text_bytes(), input, "string text bytes");
    assert!(s.text_bytes().len() <= s.raw_bytes().len());
    assert!(s.offset() <= input.len());
    let checked = s.check();
    if let Err(error) = checked {
        options::assert_offset_inside(&error, input, "GdStr::check");
    }
    match s.to_str() {
        Ok(text) => {
            assert!(checked.is_ok(), "to_str accepts what check refuses");
            assert!(s.eq_str(text));
            assert_eq!(s.to_string_lossy(), text);
            assert_eq!(text.as_bytes(), s.text_bytes());
        }
        Err(error) => {
            options::assert_offset_inside(&error, input, "GdStr::to_str");
            let _ = s.to_string_lossy();
            if checked.is_ok() {
                assert!(
                    matches!(error.kind(), ErrorKind::NotUnicode | ErrorKind::Overlong),
                    "to_str refuses what check accepts: {error}"
                );
            }
        }
    }
    // The game's text: what `eq_str` matches and what the code points spell.
    match (s.to_text(), s.code_points()) {
        (Ok(text), Ok(points)) => {
            assert!(s.eq_str(&text), "eq_str refuses the game's text");
            assert!(points.eq(text.chars().map(u32::from)), "code points vs to_text");
            assert_eq!(s.to_string_lossy(), text);
        }
        (Err(error), Ok(mut points)) => {
            assert_eq!(error.kind(), ErrorKind::NotUnicode, "to_text refuses what check accepts");
            assert!(points.any(|c| char::from_u32(c).is_none()), "NotUnicode without a reason");
        }
        (Ok(_), Err(error)) => panic!("to_text accepts what code_points refuses: {error}"),
        (Err(_), Err(_)) => assert!(checked.is_err()),
    }
    checked
}

/// A math value read in full precision and, when single on the wire, as f32.
fn reals<V: core::fmt::Debug, S: core::fmt::Debug>(
    value: V,
    single: Option<S>,
    raw: &[u8],
    input: &[u8],
) {
    let _ = format!("{value:?} {single:?}");
    assert_inside(raw, input, "math value bytes");
}

/// Every view of a packed array agrees.
fn packed<T: PackedElement + core::fmt::Debug>(packed: Packed<'_, T>, input: &[u8]) {
    let raw = packed.raw_bytes();
    assert_inside(raw, input, "packed bytes");
    assert_eq!(raw.len(), packed.len() * size_of::<T>());
    let le = packed.as_le_slice();
    assert_eq!(le.len(), packed.len());
    assert_eq!(packed.iter().len(), packed.len());
    assert_eq!(packed.is_empty(), le.is_empty());
    assert!(packed.get(packed.len()).is_none());
    let native = packed.as_slice();
    if let Some(native) = native {
        #[cfg(target_endian = "big")]
        panic!("a native slice on a big-endian host");
        assert_eq!(native.len(), packed.len());
        let (at, len) = (native.as_ptr() as usize, size_of_val(native));
        assert_range_inside(at, len, input, "native slice");
    }
    // Every view gives the same element; compared (by their printed form, NaNs included) at
    // the ends and the middle, as the `packed_alignment` target compares every bit.
    let len = packed.len();
    let picks = [0, 1, len / 2, len.saturating_sub(2), len.saturating_sub(1)];
    for i in picks.into_iter().filter(|&i| i < len) {
        let want = format!("{:?}", packed.get(i).expect("in range"));
        assert_eq!(format!("{:?}", T::from_le(le[i])), want, "as_le_slice[{i}]");
        assert_eq!(format!("{:?}", packed.iter().nth(i).expect("in range")), want, "iter");
        assert_eq!(format!("{:?}", packed.iter().rev().nth(len - 1 - i).expect("in range")), want);
        if let Some(native) = native {
            assert_eq!(format!("{:?}", native[i]), want, "as_slice[{i}]");
        }
    }
}

fn packed_reals<S, D>(p: PackedReals<'_, S, D>, input: &[u8])
where
    S: PackedElement + core::fmt::Debug,
    D: PackedElement + core::fmt::Debug,
{
    let _ = (p.precision(), p.is_empty(), format!("{p:?}"));
    match p {
        PackedReals::Single(single) => packed(single, input),
        PackedReals::Double(double) => packed(double, input),
    }
}
