//! String lengths near `u32::MAX`: refused at the length field, nothing allocated.

use super::*;

/// Strings of every kind with a length field of `declared`: (what, version, options, bytes,
/// offset of the length field). Eight bytes of text follow the length field.
fn huge_strings(declared: u32) -> Vec<(String, Options, Vec<u8>, usize)> {
    let mut cases = Vec::new();
    let tail = words(&[declared, 0x6161_6161, 0x6161_6161]);
    for ids in [G4, G3] {
        let v = ids.version;
        let o = Options::new(v);
        let objects = o.with_allow_objects(true);
        let (string_array, signal) = match v {
            Version::Godot4 => (34, Some(26)),
            Version::Godot3 => (23, None),
        };
        let mut push = |what: &str, options: Options, head: Vec<u8>| {
            let at = head.len();
            let bytes = [head, tail.clone()].concat();
            cases.push((format!("{v:?} {what} length {declared:#x}"), options, bytes, at));
        };
        push("String", o, words(&[ids.string]));
        push("array element", o, words(&[ids.array, 1, ids.string]));
        push("dictionary key", o, words(&[ids.dictionary, 1, ids.string]));
        push("dictionary value", o, words(&[ids.dictionary, 1, 0, ids.string]));
        push("NodePath name", o, words(&[ids.node_path, 0x8000_0001, 0, 0]));
        push("NodePath subname", o, words(&[ids.node_path, 0x8000_0000, 1, 0]));
        push("packed string", o, words(&[string_array, 1]));
        push("class name", objects, words(&[ids.object]));
        push(
            "property name",
            objects,
            [words(&[ids.object]), gd_string("Node"), words(&[1])].concat(),
        );
        push(
            "deep: [[{null: String}]]",
            o,
            words(&[ids.array, 1, ids.array, 1, ids.dictionary, 1, 0, ids.string]),
        );
        if let Some(signal) = signal {
            push("StringName", o, words(&[21]));
            push("Signal name", o, words(&[signal]));
            push("Array[class] class name", o, words(&[0x0002_001C]));
            push("Array[script] script path", o, words(&[0x0003_001C]));
            push("Dictionary[int, class] class name", o, words(&[0x0009_001B, 2]));
        }
    }
    cases
}

#[test]
fn string_lengths_near_u32_max_overrun_at_the_length_field() {
    let mut checked = 0;
    for declared in [u32::MAX, 0xFFFF_FFFC, 0xFFFF_FFF9, 0x8000_0000, 0x7FFF_FFFF, 0x7FFF_FFFC, 13]
    {
        for (what, options, bytes, at) in huge_strings(declared) {
            let what = what.as_str();
            let expected = Error::new(at, ErrorKind::StringOverrun { declared });
            let (validated, prefix, walked) = lazy_results(what, &bytes, options);
            assert_eq!(validated, Err(expected), "{what}");
            assert_eq!(prefix, Err(expected), "{what}");
            assert_eq!(walked, Err(expected), "{what}");
            assert_eq!(bounded_decode(what, &bytes, options).0, Err(expected), "{what}");
            checked += 1;
        }
        // The same strings with a length that fits are read (the control).
    }
    for (what, options, mut bytes, at) in huge_strings(8) {
        // Complete what follows the string: enough zeros (nulls, counts) for the rest.
        bytes.extend([0; 64]);
        let result = gdvariant::validate(&bytes, options);
        assert!(
            !matches!(result, Err(e) if matches!(e.kind(), ErrorKind::StringOverrun { .. })),
            "{what}: a fitting length overruns: {result:?} (field at {at})"
        );
    }
    assert_eq!(checked, 7 * (15 + 10));
}
