//! Full objects without `allow_objects`: refused anywhere at their header.

use super::*;

/// The forms of a full object: complete, and the ones Godot refuses before reading the class.
fn object_forms(id: u32) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("Node", [words(&[id]), gd_string("Node"), words(&[0])].concat()),
        ("header alone", words(&[id])),
        ("class length past the end", words(&[id, u32::MAX])),
        ("class not UTF-8", [words(&[id, 2]), vec![0xC3, 0x28, 0, 0], words(&[0])].concat()),
        ("unknown class", [words(&[id]), gd_string("NoSuchClass"), words(&[0])].concat()),
        ("header bit 17", [words(&[id | 1 << 17]), gd_string("Node"), words(&[0])].concat()),
    ]
}

/// Places `object` in containers: (where, bytes, offset of the object).
fn object_positions(ids: &Ids, object: &[u8]) -> Vec<(String, Vec<u8>, usize)> {
    let (a, d, o) = (ids.array, ids.dictionary, ids.object);
    let nil = words(&[0]);
    let mut out = vec![
        ("top level".to_owned(), object.to_vec(), 0),
        ("array element".to_owned(), [&words(&[a, 1])[..], object].concat(), 8),
        (
            "after an object id".to_owned(),
            [&words(&[a, 2, o | 1 << 16, 7, 0])[..], object].concat(),
            20,
        ),
        ("dictionary key".to_owned(), [&words(&[d, 1])[..], object, &nil].concat(), 8),
        ("dictionary value".to_owned(), [&words(&[d, 1, 0])[..], object].concat(), 12),
        (
            "key of a dictionary key".to_owned(),
            [&words(&[d, 1, d, 1])[..], object, &nil, &nil].concat(),
            16,
        ),
        (
            "[{null: [5, obj]}]".to_owned(),
            [&words(&[a, 1, d, 1, 0, a, 2, 2, 5])[..], object].concat(),
            36,
        ),
    ];
    let mut deep = words(&[a, 1]).repeat(1000);
    deep.extend_from_slice(object);
    out.push(("1000 arrays deep".to_owned(), deep, 8000));
    if ids.version == Version::Godot4 {
        let node = gd_string("Node");
        out.push((
            "Array[Node] element".to_owned(),
            [&words(&[0x0002_001C])[..], &node, &words(&[1]), object].concat(),
            16,
        ));
        out.push((
            "Dictionary[int, Node] value".to_owned(),
            [&words(&[0x0009_001B, 2])[..], &node, &words(&[1, 2, 5]), object].concat(),
            28,
        ));
        out.push((
            "Dictionary[Node, int] key".to_owned(),
            [&words(&[0x0006_001B])[..], &node, &words(&[2, 1]), object, &words(&[2, 5])].concat(),
            20,
        ));
    }
    out
}

#[test]
fn full_objects_are_refused_anywhere_at_their_header() {
    let mut checked = 0;
    for ids in [G4, G3] {
        let refused = Options::new(ids.version);
        let allowed = refused.with_allow_objects(true);
        for (form, object) in object_forms(ids.object) {
            for (position, bytes, at) in object_positions(&ids, &object) {
                let what = format!("{:?} {form} at {position}", ids.version);
                let what = what.as_str();
                let expected = Error::new(at, ErrorKind::ObjectsNotAllowed);
                let (validated, prefix, walked) = lazy_results(what, &bytes, refused);
                assert_eq!(validated, Err(expected), "{what}");
                assert_eq!(prefix, Err(expected), "{what}");
                assert_eq!(walked, Err(expected), "{what}");
                assert_eq!(bounded_decode(what, &bytes, refused).0, Err(expected), "{what}");
                // With objects allowed, the complete object is read, and the damaged ones are
                // refused for what is wrong with them, further in.
                let verdict = gdvariant::validate(&bytes, allowed);
                if form == "Node" || form == "header bit 17" {
                    verdict.unwrap_or_else(|e| panic!("{what} (allowed): {e}"));
                    gdvariant::decode(&bytes, allowed).unwrap();
                } else {
                    let e = verdict.unwrap_err();
                    assert!(e.offset() > at, "{what} (allowed): {e}");
                    assert_ne!(e.kind(), ErrorKind::ObjectsNotAllowed, "{what}");
                }
                checked += 1;
            }
        }
        // An object id is never refused.
        let id = words(&[ids.object | 1 << 16, 7, 0]);
        for (position, bytes, _) in object_positions(&ids, &id) {
            let what = format!("{:?} object id at {position}", ids.version);
            no_alloc(&what, || gdvariant::validate(&bytes, refused)).unwrap();
            gdvariant::decode(&bytes, refused).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
    assert_eq!(checked, 6 * (11 + 8));
}
