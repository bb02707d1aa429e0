//! Error behaviour of the reader on hostile and damaged input, proved against real engine bytes:
//!
//! * every truncation of real corpus values (both Godot versions) is refused by `validate`,
//!   `parse_prefix` and a full lazy walk, at the same offset, never past the cut (except the
//!   missing final padding of a `PackedByteArray`, which Godot accepts);
//! * hostile counts of every container and packed type are refused up front (no allocation, no
//!   long iteration), except the forms Godot accepts (negative `PackedStringArray` count, the
//!   masked bit 31 of Array / Dictionary counts, negative object property counts);
//! * the depth limit sits exactly where Godot's does (1025 levels decode, 1026 do not), for
//!   arrays, dictionaries nested as values and as keys, and custom limits;
//! * a megabyte of nested headers is refused with `DepthLimit` without overflowing the stack;
//! * string lengths near `u32::MAX` are `StringOverrun` at the length field;
//! * full objects are refused wherever they sit exactly when `allow_objects` is off, and
//!   object ids are always accepted;
//! * the `Error` API (`Display`, Godot error names and codes, `is_malformed`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use common::corpus;

use gdvariant::{
    Error, ErrorKind, GodotError, Options, VariantRef, VariantType, Version, view::ContainerType,
    view::ObjectRef,
};

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

fn opts(version: Version) -> Options {
    Options::new(version)
}

/// Little-endian u32 words to bytes.
fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A Godot string (length, bytes, zero padding).
fn gd_string(text: &str) -> Vec<u8> {
    let mut out = (text.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(text.as_bytes());
    while out.len() % 4 != 0 {
        out.push(0);
    }
    out
}

fn check_container_type(ty: ContainerType<'_>) -> Result<(), Error> {
    match ty {
        ContainerType::ClassName(s) | ContainerType::Script(s) => s.to_str().map(|_| ()),
        _ => Ok(()),
    }
}

/// A full lazy walk: every container is iterated through its public iterators, every string
/// (String, StringName, NodePath names and subnames, PackedStringArray elements, property
/// names, class names, signal names, container class names) is turned into a `&str`.
fn lazy_walk(value: VariantRef<'_>) -> Result<(), Error> {
    match value {
        VariantRef::String(s) | VariantRef::StringName(s) => {
            s.to_str()?;
        }
        VariantRef::Signal(signal) => {
            signal.name().to_str()?;
        }
        VariantRef::NodePath(path) => {
            for name in path.names() {
                name?.to_str()?;
            }
            for subname in path.subnames() {
                subname?.to_str()?;
            }
        }
        VariantRef::PackedStringArray(strings) => {
            for s in strings.iter() {
                s?.to_str()?;
            }
        }
        VariantRef::Array(array) => {
            check_container_type(array.element_type()?)?;
            for item in array.iter() {
                lazy_walk(item?)?;
            }
        }
        VariantRef::Dictionary(dict) => {
            check_container_type(dict.key_type()?)?;
            check_container_type(dict.value_type()?)?;
            for entry in dict.iter() {
                let (k, v) = entry?;
                lazy_walk(k)?;
                lazy_walk(v)?;
            }
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            object.class_name().to_str()?;
            for property in object.properties() {
                let (name, value) = property?;
                name.to_str()?;
                lazy_walk(value.value())?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `parse` followed by the full lazy walk.
fn lazy_all(bytes: &[u8], options: Options) -> Result<(), Error> {
    lazy_walk(gdvariant::parse(bytes, options)?)
}

// ------------------------------------------------------------------------------------------
// 1. Truncation table
// ------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Case {
    version: Version,
    name: &'static str,
    /// Check every `step`-th cut (1 = every cut).
    step: usize,
}

const fn case(version: Version, name: &'static str) -> Case {
    Case { version, name, step: 1 }
}

/// For a top-level PackedByteArray: the cut lengths that leave the whole value except (part
/// of) its final padding, which Godot accepts.
fn byte_array_padding_cuts(bytes: &[u8], version: Version) -> std::ops::Range<usize> {
    let id = match version {
        Version::Godot3 => 20,
        Version::Godot4 => 29,
    };
    if bytes.len() < 8 || bytes[0] != id {
        return 0..0;
    }
    let count = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    let data_end = 8 + count;
    data_end..bytes.len()
}

fn is_truncation_kind(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::Truncated { .. } | ErrorKind::StringOverrun { .. } | ErrorKind::BadCount { .. }
    )
}

/// Cuts every case at every `step`-th length (and one byte short of the end); returns the number
/// of cuts checked and how many of them Godot accepts (missing final PackedByteArray padding).
fn check_truncations(cases: &[Case]) -> (usize, usize) {
    let mut checked_cuts = 0usize;
    let mut padding_cuts = 0usize;
    for &Case { version, name, step } in cases {
        let bytes = corpus(version, name);
        let options = opts(version).with_allow_objects(name.ends_with("_full"));
        // The whole value is accepted by all three readers.
        gdvariant::validate(&bytes, options).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(gdvariant::parse_prefix(&bytes, options).unwrap().len(), bytes.len(), "{name}");
        lazy_all(&bytes, options).unwrap_or_else(|e| panic!("{name}: {e}"));

        let accepted = byte_array_padding_cuts(&bytes, version);
        // Always include the last cut (one byte short) even when sampling.
        let last = (step > 1).then(|| bytes.len() - 1);
        let cuts = (0..bytes.len()).step_by(step).chain(last);
        for cut in cuts {
            let cut_bytes = &bytes[..cut];
            let validated = gdvariant::validate(cut_bytes, options);
            let prefix = gdvariant::parse_prefix(cut_bytes, options);
            let lazy = lazy_all(cut_bytes, options);
            checked_cuts += 1;
            if accepted.contains(&cut) {
                // Godot accepts a final PackedByteArray without (all of) its padding.
                padding_cuts += 1;
                validated.unwrap_or_else(|e| panic!("{name} cut {cut}: {e}"));
                let element = prefix.unwrap_or_else(|e| panic!("{name} cut {cut}: {e}"));
                assert_eq!(element.len(), cut, "{name} cut {cut}");
                assert_eq!(element.raw_bytes(), cut_bytes, "{name} cut {cut}");
                lazy.unwrap_or_else(|e| panic!("{name} cut {cut}: {e}"));
                continue;
            }
            let v = validated.expect_err(&format!("{name}: validate accepted a cut at {cut}"));
            let p = prefix.expect_err(&format!("{name}: parse_prefix accepted a cut at {cut}"));
            let l = lazy.expect_err(&format!("{name}: the lazy walk accepted a cut at {cut}"));
            assert!(v.offset() <= cut, "{name} cut {cut}: validate offset {}", v.offset());
            assert!(is_truncation_kind(v.kind()), "{name} cut {cut}: {v}");
            assert!(v.is_malformed());
            // Truncation is a structural problem, so the structural walk of parse_prefix and
            // the lazy walk (whose container iterators use the same structural walk, and which
            // checks text only after the structure around it) find the same first problem as
            // validate. No systematic difference was found: kind and offset are identical.
            assert_eq!(p, v, "{name} cut {cut}: parse_prefix vs validate");
            assert_eq!(l, v, "{name} cut {cut}: lazy walk vs validate");
        }
    }
    (checked_cuts, padding_cuts)
}

#[test]
fn every_truncation_of_real_values_is_refused_at_the_same_offset() {
    use Version::{Godot3 as G3, Godot4 as G4};
    let cases = [
        // Godot 4
        case(G4, "dict_nested"),
        case(G4, "array_mixed"),
        case(G4, "dict_mixed_keys"),
        case(G4, "array_typed_string"),
        case(G4, "dict_typed_stringname_node_empty"),
        case(G4, "string_utf8_mixed"),
        case(G4, "stringname_unicode"),
        case(G4, "nodepath_subnames"),
        case(G4, "nodepath_unicode"),
        case(G4, "packed_string_basic"),
        case(G4, "packed_vector3_basic"),
        case(G4, "packed_int64_basic"),
        case(G4, "packed_byte_len5"),
        case(G4, "transform3d_distinct"),
        case(G4, "projection_distinct"),
        case(G4, "int_i64_max"),
        case(G4, "signal_object"),
        case(G4, "object_node_full"),
        case(G4, "object_resource_full"),
        case(G4, "array_with_object_full"),
        case(G4, "array_typed_resource_full"),
        case(G4, "dict_nested_depth100"),
        // Godot 3
        case(G3, "dict_nested"),
        case(G3, "array_mixed"),
        case(G3, "dict_mixed_keys"),
        case(G3, "string_utf8_mixed"),
        case(G3, "nodepath_absolute_subnames"),
        case(G3, "pool_string_basic"),
        case(G3, "pool_color_basic"),
        case(G3, "pool_byte_len7"),
        case(G3, "pool_byte_of_var2bytes"),
        case(G3, "transform_distinct"),
        case(G3, "float_pi"),
        case(G3, "object_node_full"),
        case(G3, "object_gradient_full"),
        case(G3, "object_scripted_full"),
        case(G3, "dict_with_object_full"),
        case(G3, "array_nested_depth100"),
    ];
    let (checked, padding) = check_truncations(&cases);
    assert_eq!(checked, cases.iter().map(|c| corpus(c.version, c.name).len()).sum::<usize>());
    // packed_byte_len5 (Godot 4): cuts 13, 14, 15; pool_byte_len7 (Godot 3): cut 15.
    assert_eq!(padding, 3 + 1);
}

// The large cases are separate tests so that the harness runs them in parallel.

/// Every 4093rd cut (a prime, so cuts fall at every offset within the 4-byte words and the
/// dictionaries), plus the last one: each cut costs three walks of the 1.3 MB value.
const LARGE_STEP: usize = 4093;

#[test]
fn sampled_truncations_of_the_large_godot4_array_are_refused() {
    let case = Case { version: Version::Godot4, name: "large_array_10000_dicts", step: LARGE_STEP };
    assert_eq!(check_truncations(&[case]), (1_312_008usize.div_ceil(LARGE_STEP) + 1, 0));
}

#[test]
fn sampled_truncations_of_the_large_godot3_array_are_refused() {
    let case = Case { version: Version::Godot3, name: "large_array_10000_dicts", step: LARGE_STEP };
    assert_eq!(check_truncations(&[case]), (1_312_008usize.div_ceil(LARGE_STEP) + 1, 0));
}

/// A PackedByteArray that ends an array that ends the buffer may lack its padding too (Godot's
/// array loop does not look at what the last element's length claims), but not when another
/// element follows.
#[test]
fn byte_array_padding_may_be_missing_only_at_the_very_end() {
    let o = Options::godot4();
    // [PackedByteArray(01)]: array 0..8, byte array header 8, count 12, data 16, padding 17..20.
    let last = words(&[0x1c, 1, 0x1d, 1, 0x0000_0001]);
    for cut in 17..=20 {
        let bytes = &last[..cut];
        gdvariant::validate(bytes, o).unwrap();
        lazy_all(bytes, o).unwrap();
        let e = gdvariant::parse_prefix(bytes, o).unwrap();
        assert_eq!(e.len(), cut);
        let a = e.value().as_array().unwrap();
        let item = a.get_element(0).unwrap().unwrap();
        assert_eq!(item.raw_bytes(), &bytes[8..]);
        assert_eq!(item.len(), cut - 8);
        assert!(matches!(item.value(), VariantRef::PackedByteArray([1])));
    }
    // [PackedByteArray(01), 7]: the int is read after the padding, which must be there.
    let followed = words(&[0x1c, 2, 0x1d, 1, 0x0000_0001, 2, 7]);
    gdvariant::validate(&followed, o).unwrap();
    for cut in 17..20 {
        let bytes = &followed[..cut];
        // The next header would be at 20, past the end: the offset is clamped to the end.
        let expected = Error::new(cut, ErrorKind::Truncated { needed: 4 });
        assert_eq!(gdvariant::validate(bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse_prefix(bytes, o).unwrap_err(), expected);
        assert_eq!(lazy_all(bytes, o).unwrap_err(), expected);
    }
}

/// Where validate and the lazy walk can differ (not for truncations, which are structural): a
/// container iterator walks each whole element's *structure* before the caller sees any of its
/// text, so a structural problem later in an element is reported before a text problem earlier
/// in it, while validate reports problems in byte order.
#[test]
fn lazy_walk_reports_structure_before_text_within_an_element() {
    // [[String(C3 28), <missing second element>]]
    let bytes = [words(&[0x1c, 1, 0x1c, 2, 4, 2]), vec![0xC3, 0x28, 0, 0]].concat();
    let o = Options::godot4();
    assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), Error::new(24, ErrorKind::InvalidUtf8));
    assert_eq!(
        lazy_all(&bytes, o).unwrap_err(),
        Error::new(28, ErrorKind::Truncated { needed: 4 })
    );
    // parse_prefix checks structure only.
    assert_eq!(
        gdvariant::parse_prefix(&bytes, o).unwrap_err(),
        Error::new(28, ErrorKind::Truncated { needed: 4 })
    );
}

// ------------------------------------------------------------------------------------------
// 2. Hostile counts
// ------------------------------------------------------------------------------------------

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

// ------------------------------------------------------------------------------------------
// 3. Depth
// ------------------------------------------------------------------------------------------

const INT_5: [u32; 2] = [2, 5];

/// The innermost container: empty, or holding the int 5 (followed by the word `value` when the
/// container is a dictionary, making `{5: null}`).
fn push_innermost(ws: &mut Vec<u32>, header: u32, innermost_int: bool, value: Option<u32>) {
    if innermost_int {
        ws.extend([header, 1]);
        ws.extend(INT_5);
        ws.extend(value);
    } else {
        ws.extend([header, 0]);
    }
}

/// `levels` arrays, each the only element of the one above; the innermost is empty, or holds
/// the int 5.
fn nested_arrays(header: u32, levels: usize, innermost_int: bool) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend([header, 1]);
    }
    push_innermost(&mut ws, header, innermost_int, None);
    words(&ws)
}

/// `levels` dictionaries, each the value of the key `null` in the one above; the innermost is
/// empty, or holds `{5: null}`. Level k's header is at 12 * (k - 1).
fn dicts_as_values(header: u32, levels: usize, innermost_int: bool) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend([header, 1, 0]);
    }
    push_innermost(&mut ws, header, innermost_int, Some(0));
    words(&ws)
}

/// `levels` dictionaries, each the only key (with value `null`) of the one above; the innermost
/// is empty, or holds `{5: null}`. Level k's header is at 8 * (k - 1).
fn dicts_as_keys(header: u32, levels: usize, innermost_int: bool) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend([header, 1]);
    }
    push_innermost(&mut ws, header, innermost_int, Some(0));
    ws.extend(std::iter::repeat_n(0u32, levels - 1));
    words(&ws)
}

type Builder = fn(u32, usize, bool) -> Vec<u8>;

#[test]
fn depth_limit_is_godots() {
    let shapes: [(&str, Builder, usize, bool); 3] = [
        // (name, builder, bytes per level before the child, dictionary?)
        ("arrays", nested_arrays, 8, false),
        ("dicts as values", dicts_as_values, 12, true),
        ("dicts as keys", dicts_as_keys, 8, true),
    ];
    for (version, array, dict) in [(Version::Godot4, 0x1C, 0x1B), (Version::Godot3, 0x13, 0x12)] {
        let o = opts(version);
        assert_eq!(o.max_depth(), 1024);
        for (shape, build, stride, is_dict) in shapes {
            let header = if is_dict { dict } else { array };
            let what = format!("{version:?} {shape}");
            // 1025 levels: depths 0..=1024, accepted.
            let ok = build(header, 1025, false);
            gdvariant::validate(&ok, o).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(gdvariant::parse_prefix(&ok, o).unwrap().len(), ok.len(), "{what}");
            // 1026 levels: the 1026th header (depth 1025) is refused. For dictionaries nested as
            // values, the 1025th dictionary's key (a Nil, also at depth 1025) comes first and is
            // refused first, as in Godot (keys and values are both decoded at depth + 1).
            let deep = build(header, 1026, false);
            let deep_at = if stride == 12 { stride * 1024 + 8 } else { stride * 1025 };
            let expected = Error::new(deep_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&deep, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&deep, o).unwrap_err(), expected, "{what}");
            assert_eq!(expected.godot_error(version), Some(GodotError::OutOfMemory));
            // Lazily: the top parses (O(1)); reaching its child walks down to the problem.
            let top = gdvariant::parse(&deep, o).unwrap();
            let first = match top {
                VariantRef::Array(a) => a.get(0).map(|_| ()),
                VariantRef::Dictionary(d) => d.iter().next().unwrap().map(|_| ()),
                _ => unreachable!(),
            };
            assert_eq!(first.unwrap_err(), expected, "{what}");
            // 1025 levels whose innermost holds an int: the int (an array element, or a
            // dictionary key) is at depth 1025.
            let deep_int = build(header, 1025, true);
            let int_at = stride * 1024 + 8;
            assert_eq!(&deep_int[int_at..int_at + 8], &words(&INT_5)[..], "{what}");
            let expected = Error::new(int_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&deep_int, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&deep_int, o).unwrap_err(), expected, "{what}");
            // One level less is fine.
            gdvariant::validate(&build(header, 1024, true), o).unwrap();

            // A custom limit of 3: depths 0..=3, i.e. exactly 4 levels.
            let o3 = o.with_max_depth(3);
            assert_eq!(o3.max_depth(), 3);
            gdvariant::validate(&build(header, 4, false), o3).unwrap();
            lazy_all(&build(header, 4, false), o3).unwrap();
            let five_at = if stride == 12 { stride * 3 + 8 } else { stride * 4 };
            let expected = Error::new(five_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&build(header, 5, false), o3).unwrap_err(), expected);
            assert_eq!(lazy_all(&build(header, 5, false), o3).unwrap_err(), expected);
            assert_eq!(
                gdvariant::parse_prefix(&build(header, 5, false), o3).unwrap_err(),
                expected
            );
        }
    }
    assert_eq!(Options::godot4().with_max_depth(5000).max_depth(), 1024);
    assert_eq!(Options::godot3().with_max_depth(1025).max_depth(), gdvariant::MAX_DEPTH);
    assert_eq!(Options::godot4().with_max_depth(0).max_depth(), 0);
    // Depth 0: only scalars and empty containers.
    let zero = Options::godot4().with_max_depth(0);
    gdvariant::validate(&words(&[0x1C, 0]), zero).unwrap();
    assert_eq!(
        gdvariant::validate(&words(&[0x1C, 1, 0]), zero).unwrap_err(),
        Error::new(8, ErrorKind::DepthLimit)
    );
}

// ------------------------------------------------------------------------------------------
// 4. Stack safety
// ------------------------------------------------------------------------------------------

/// Descends from the top value through the first element / first key, iteratively.
fn descend(bytes: &[u8], options: Options) -> Result<usize, Error> {
    let mut value = gdvariant::parse(bytes, options)?;
    let mut levels = 1;
    loop {
        let next = match value {
            VariantRef::Array(a) => a.get(0)?,
            VariantRef::Dictionary(d) => match d.iter().next() {
                Some(entry) => Some(entry?.0),
                None => None,
            },
            _ => None,
        };
        match next {
            Some(child) => {
                value = child;
                levels += 1;
            }
            None => return Ok(levels),
        }
    }
}

#[test]
fn a_megabyte_of_nesting_is_refused_without_overflowing_the_stack() {
    const MIB: usize = 1 << 20;
    for (version, header) in
        [(Version::Godot4, 0x1Cu32), (Version::Godot3, 0x13), (Version::Godot4, 0x1B)]
    {
        let bytes: Vec<u8> = words(&[header, 1]).repeat(MIB / 8);
        assert_eq!(bytes.len(), MIB);
        let o = opts(version);
        let expected = Error::new(8 * 1025, ErrorKind::DepthLimit);
        assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected);
        assert_eq!(descend(&bytes, o).unwrap_err(), expected);
        // The same with objects allowed and with a small custom limit.
        let o10 = o.with_allow_objects(true).with_max_depth(10);
        let expected = Error::new(8 * 11, ErrorKind::DepthLimit);
        assert_eq!(gdvariant::validate(&bytes, o10).unwrap_err(), expected);
        assert_eq!(descend(&bytes, o10).unwrap_err(), expected);
    }
    // And the descent really descends: on 100 levels it reaches the innermost array.
    assert_eq!(descend(&nested_arrays(0x1C, 100, false), Options::godot4()), Ok(100));
    assert_eq!(descend(&dicts_as_keys(0x1B, 100, false), Options::godot4()), Ok(100));
}

// ------------------------------------------------------------------------------------------
// 5. String lengths near u32::MAX
// ------------------------------------------------------------------------------------------

#[test]
fn huge_string_lengths_overrun_at_the_length_field() {
    let cases = [
        (Version::Godot4, 4u32, VariantType::String),
        (Version::Godot4, 21, VariantType::StringName),
        (Version::Godot3, 4, VariantType::String),
    ];
    for (version, id, ty) in cases {
        let o = opts(version);
        for declared in [0xFFFF_FFFFu32, 0x8000_0000, 0x7FFF_FFFF, 0x7FFF_FFFC] {
            let mut bytes = words(&[id, declared]);
            bytes.extend(b"abcdefgh");
            let expected = Error::new(4, ErrorKind::StringOverrun { declared });
            let what = format!("{version:?} {ty:?} {declared:#x}");
            assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse(&bytes, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected, "{what}");
            assert_eq!(expected.godot_error(version), Some(GodotError::FileEof));
        }
        // The longest length that fits is fine; one more byte is not.
        let mut bytes = words(&[id, 8]);
        bytes.extend(b"abcdefgh");
        gdvariant::validate(&bytes, o).unwrap();
        let mut bytes = words(&[id, 9]);
        bytes.extend(b"abcdefgh");
        assert_eq!(
            gdvariant::validate(&bytes, o).unwrap_err(),
            Error::new(4, ErrorKind::StringOverrun { declared: 9 })
        );
    }
}

// ------------------------------------------------------------------------------------------
// 6. Objects not allowed
// ------------------------------------------------------------------------------------------

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

// ------------------------------------------------------------------------------------------
// 7. Error API
// ------------------------------------------------------------------------------------------

#[test]
fn error_api_matches_godot() {
    use Version::{Godot3 as G3, Godot4 as G4};
    let g4 = Options::godot4();
    let g3 = Options::godot3();
    let node_object = |id: u32, class: &str, props: &[u8]| {
        let mut b = words(&[id]);
        b.extend(gd_string(class));
        b.extend_from_slice(props);
        b
    };
    // Real errors from real inputs: (version, error, kind, offset, Godot's name)
    let invalid_utf8 = [words(&[4, 2]), vec![0xC3, 0x28, 0, 0]].concat();
    let script_prop = [words(&[1]), gd_string("script"), words(&[2, 1])].concat();
    let errors: Vec<(Version, Error, ErrorKind, usize, Option<&str>)> = vec![
        (
            G4,
            gdvariant::validate(&[2, 0, 0, 0], g4).unwrap_err(),
            ErrorKind::Truncated { needed: 4 },
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&[39, 0, 0, 0], g4).unwrap_err(),
            ErrorKind::UnknownType { id: 39 },
            0,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G3,
            gdvariant::validate(&[27, 0, 0, 0], g3).unwrap_err(),
            ErrorKind::UnknownType { id: 27 },
            0,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[4, 5]), g4).unwrap_err(),
            ErrorKind::StringOverrun { declared: 5 },
            4,
            Some("ERR_FILE_EOF"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[30, 3, 0]), g4).unwrap_err(),
            ErrorKind::BadCount { count: 3 },
            4,
            Some("ERR_INVALID_DATA"),
        ),
        // Godot 4 names the first byte of the bad sequence (the lead C3 at 8), Godot 3 the
        // first byte its decoder refuses (the continuation 28 at 9).
        (
            G4,
            gdvariant::validate(&invalid_utf8, g4).unwrap_err(),
            ErrorKind::InvalidUtf8,
            8,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G3,
            gdvariant::validate(&invalid_utf8, g3).unwrap_err(),
            ErrorKind::InvalidUtf8,
            9,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&nested_arrays(0x1C, 1026, false), g4).unwrap_err(),
            ErrorKind::DepthLimit,
            8200,
            Some("ERR_OUT_OF_MEMORY"),
        ),
        (
            G4,
            gdvariant::validate(&node_object(24, "Node", &words(&[0])), g4).unwrap_err(),
            ErrorKind::ObjectsNotAllowed,
            0,
            Some("ERR_UNAUTHORIZED"),
        ),
        (
            G4,
            gdvariant::validate(
                &node_object(24, "NoSuchClass", &words(&[0])),
                g4.with_allow_objects(true),
            )
            .unwrap_err(),
            ErrorKind::UnknownClass,
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G3,
            gdvariant::validate(
                &node_object(17, "NoSuchClass", &words(&[0])),
                g3.with_allow_objects(true),
            )
            .unwrap_err(),
            ErrorKind::UnknownClass,
            4,
            Some("ERR_UNAVAILABLE"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[22, 1, 0, 0]), g4).unwrap_err(),
            ErrorKind::OldNodePath,
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[0x0001_001C, 99, 0]), g4).unwrap_err(),
            ErrorKind::InvalidContainerType,
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(
                &node_object(24, "Node", &script_prop),
                g4.with_allow_objects(true),
            )
            .unwrap_err(),
            ErrorKind::InvalidScript,
            28,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::parse(&corpus(G4, "dict_simple"), g4)
                .unwrap()
                .as_dictionary()
                .unwrap()
                .get_as::<i64>("b")
                .unwrap_err(),
            ErrorKind::WrongType { expected: VariantType::Int, found: VariantType::String },
            40,
            None,
        ),
    ];
    for (version, error, kind, offset, name) in &errors {
        assert_eq!((error.kind(), error.offset()), (*kind, *offset), "{error}");
        let text = error.to_string();
        assert!(text.ends_with(&format!(" at byte offset {offset}")), "{text}");
        assert!(text.starts_with(&error.kind().to_string()), "{text}");
        assert_eq!(error.godot_error(*version).map(GodotError::name), *name, "{error}");
        assert_eq!(error.is_malformed(), !matches!(kind, ErrorKind::WrongType { .. }), "{error}");
    }
    // NotUnicode: Godot 3 accepts a surrogate in a string, which `str` cannot hold.
    let surrogate = [words(&[4, 3]), vec![0xED, 0xA0, 0x80, 0]].concat();
    gdvariant::validate(&surrogate, g3).unwrap();
    let not_unicode = gdvariant::parse(&surrogate, g3).unwrap().as_gd_str().unwrap().to_str();
    let not_unicode = not_unicode.unwrap_err();
    assert_eq!((not_unicode.kind(), not_unicode.offset()), (ErrorKind::NotUnicode, 8));
    assert!(!not_unicode.is_malformed());
    assert_eq!(not_unicode.godot_error(G3), None);
    assert_eq!(Error::new(0, ErrorKind::NotUnicode).godot_error(G4), None);
    // Godot 4 refuses the same bytes.
    assert_eq!(
        gdvariant::validate(&surrogate, g4).unwrap_err(),
        Error::new(8, ErrorKind::InvalidUtf8)
    );
    // Every kind's mapping, for both versions.
    let all_kinds = [
        (ErrorKind::Truncated { needed: 8 }, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::StringOverrun { declared: 1 }, "ERR_FILE_EOF", "ERR_FILE_EOF"),
        (ErrorKind::UnknownType { id: 200 }, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::BadCount { count: 9 }, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::InvalidUtf8, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::DepthLimit, "ERR_OUT_OF_MEMORY", "ERR_OUT_OF_MEMORY"),
        (ErrorKind::ObjectsNotAllowed, "ERR_UNAUTHORIZED", "ERR_UNAUTHORIZED"),
        (ErrorKind::UnknownClass, "ERR_UNAVAILABLE", "ERR_INVALID_DATA"),
        (ErrorKind::OldNodePath, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::InvalidContainerType, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::InvalidScript, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
    ];
    for (kind, g3_name, g4_name) in all_kinds {
        let e = Error::new(123, kind);
        assert!(e.is_malformed());
        assert_eq!(e.godot_error(G3).unwrap().name(), g3_name, "{kind:?}");
        assert_eq!(e.godot_error(G4).unwrap().name(), g4_name, "{kind:?}");
        assert!(e.to_string().ends_with("at byte offset 123"));
    }
    let wrong = Error::new(
        7,
        ErrorKind::WrongType { expected: VariantType::Array, found: VariantType::Nil },
    );
    assert!(!wrong.is_malformed());
    assert_eq!((wrong.godot_error(G3), wrong.godot_error(G4)), (None, None));
    assert_eq!(wrong.to_string(), "expected Array, found Nil at byte offset 7");
    // Godot's numeric codes.
    let codes = [
        (GodotError::Unavailable, 2, "ERR_UNAVAILABLE"),
        (GodotError::Unauthorized, 4, "ERR_UNAUTHORIZED"),
        (GodotError::OutOfMemory, 6, "ERR_OUT_OF_MEMORY"),
        (GodotError::FileEof, 18, "ERR_FILE_EOF"),
        (GodotError::InvalidData, 30, "ERR_INVALID_DATA"),
    ];
    for (e, code, name) in codes {
        assert_eq!((e.code(), e.name()), (code, name));
    }
    // `Error` is a std error.
    let boxed: Box<dyn std::error::Error> = Box::new(errors[0].1);
    assert!(boxed.to_string().contains("at byte offset 4"));
}
