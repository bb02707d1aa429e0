//! Truncation table: every truncation of real values refused at the same offset by every
//! reader.

use super::*;

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
