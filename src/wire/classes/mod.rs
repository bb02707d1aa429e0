//! The classes Godot's decoder can instantiate as full objects.
//!
//! Godot refuses a full object whose class it cannot instantiate (Godot 3: `ClassDB::instance`
//! fails, `ERR_UNAVAILABLE`; Godot 4.3+: `ClassDB::can_instantiate` is false,
//! `ERR_INVALID_DATA`). The lists were taken from the real engines (Godot 3.2.3 server build,
//! Godot 4.6 official export template) by feeding each class to their decoders; see
//! `corpus/probes/`. A game built with extra modules or GDExtensions has more classes: those are
//! refused here as the stock engine refuses them.
//!
//! The parent of every Godot 4.6 class (`ClassDB.get_parent_class`, `godot4_parents.rs`) decides
//! which full objects a class-typed container keeps ([`inherits`]).

use crate::wire::options::Version;
use crate::wire::utf8::CodePoints;

mod godot3;
mod godot4;
mod godot4_parents;

/// Whether Godot `version` decodes a full object of class `name` (the class name's text).
/// O(log n) string comparisons.
pub(crate) fn is_instantiable(version: Version, name: &[u8]) -> bool {
    let list: &[&str] = match version {
        Version::Godot3 => godot3::CLASSES,
        Version::Godot4 => godot4::CLASSES,
    };
    list.binary_search_by(|class| class.as_bytes().cmp(name)).is_ok()
}

/// [`is_instantiable`] for a name given by its code points: a Godot 3 class name spelled with
/// overlong forms is the class it decodes to (`corpus/probes/strings`). O(log n) comparisons,
/// each of at most the class name's length.
pub(crate) fn is_instantiable_code_points(version: Version, name: CodePoints<'_>) -> bool {
    let list: &[&str] = match version {
        Version::Godot3 => godot3::CLASSES,
        Version::Godot4 => godot4::CLASSES,
    };
    list.binary_search_by(|class| class.chars().map(u32::from).cmp(name.clone())).is_ok()
}

/// Whether Godot 4.6's class `class` is `ancestor` or inherits from it
/// (`ClassDB::is_parent_class`), by the classes' text. A name that is not one of the engine's
/// classes inherits from nothing but itself. O(levels x log n) string comparisons.
pub(crate) fn inherits(class: &[u8], ancestor: &[u8]) -> bool {
    let mut current = class;
    // The chain ends at `Object`, whose parent is empty; no chain is longer than the table.
    for _ in 0..=godot4_parents::PARENTS.len() {
        if current.is_empty() {
            return false;
        }
        if current == ancestor {
            return true;
        }
        let parent = godot4_parents::PARENTS
            .binary_search_by(|(name, _)| name.as_bytes().cmp(current))
            .ok()
            .and_then(|index| godot4_parents::PARENTS.get(index));
        current = parent.map_or(&[], |(_, parent)| parent.as_bytes());
    }
    false
}

/// The classes Godot `version` decodes as full objects, sorted.
#[cfg(feature = "arbitrary")]
pub(crate) fn instantiable_classes(version: Version) -> &'static [&'static str] {
    match version {
        Version::Godot3 => godot3::CLASSES,
        Version::Godot4 => godot4::CLASSES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for list in [godot3::CLASSES, godot4::CLASSES] {
            assert!(list.windows(2).all(|w| matches!(w, [a, b] if a.as_bytes() < b.as_bytes())));
        }
    }

    #[test]
    fn lists_match_the_engine_probes() {
        let probes = [
            (godot3::CLASSES, include_str!("../../../corpus/probes/godot3-classes.txt")),
            (godot4::CLASSES, include_str!("../../../corpus/probes/godot4-classes.txt")),
        ];
        for (list, text) in probes {
            assert!(text.lines().eq(list.iter().copied()));
        }
    }

    #[test]
    fn parents_match_the_engine_probe() {
        let parents = godot4_parents::PARENTS;
        assert!(parents.windows(2).all(|w| matches!(w, [a, b] if a.0.as_bytes() < b.0.as_bytes())));
        let text = include_str!("../../../corpus/probes/typed/class-parents-godot4.tsv");
        let rows = text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split_once('\t'));
        assert!(rows.eq(parents.iter().map(|&(c, p)| Some((c, p)))));
        assert!(inherits(b"EncodedObjectAsID", b"RefCounted"));
        assert!(inherits(b"EncodedObjectAsID", b"Object"));
        assert!(inherits(b"Node", b"Node"));
        assert!(!inherits(b"EncodedObjectAsID", b"Node"));
        assert!(!inherits(b"NoSuchClass", b"Object"));
        assert!(inherits(b"NoSuchClass", b"NoSuchClass"));
    }

    #[test]
    fn known_classes() {
        assert!(is_instantiable(Version::Godot3, b"Reference"));
        assert!(!is_instantiable(Version::Godot3, b"String"));
        assert!(!is_instantiable(Version::Godot3, b"NoSuchClass"));
        assert!(is_instantiable(Version::Godot3, b"_OS"));
        assert!(!is_instantiable(Version::Godot3, b"OS"));
        assert!(is_instantiable(Version::Godot4, b"RefCounted"));
        assert!(is_instantiable(Version::Godot4, b"OS"));
        // Decoding it aborts Godot 4.6.
        assert!(!is_instantiable(Version::Godot4, b"ProjectSettings"));
        assert!(!is_instantiable(Version::Godot4, b"NoSuchClass"));
        // Godot 3.2.3 instantiates a class named with an overlong 'R' (corpus/probes/strings).
        let overlong = CodePoints::new(b"\xE0\x81\x92eference");
        assert!(is_instantiable_code_points(Version::Godot3, overlong));
        assert!(!is_instantiable_code_points(Version::Godot3, CodePoints::new(b"Referenc")));
        assert!(!is_instantiable_code_points(Version::Godot3, CodePoints::new(b"References")));
    }
}
