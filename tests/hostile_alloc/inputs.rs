//! Hostile inputs: words, strings, the type ids of both versions, and the hostile count cases.

use super::*;

/// Little-endian u32 words to bytes.
pub(crate) fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A Godot string (length, bytes, zero padding).
pub(crate) fn gd_string(text: &str) -> Vec<u8> {
    let mut out = words(&[text.len() as u32]);
    out.extend_from_slice(text.as_bytes());
    out.resize(out.len().next_multiple_of(4), 0);
    out
}

/// Type ids of both versions.
pub(crate) struct Ids {
    pub(crate) version: Version,
    pub(crate) string: u32,
    pub(crate) node_path: u32,
    pub(crate) object: u32,
    pub(crate) dictionary: u32,
    pub(crate) array: u32,
    /// Every packed type id, with its element size in bytes (0: strings).
    pub(crate) packed: &'static [(u32, u32, &'static str)],
}

pub(crate) const G4: Ids = Ids {
    version: Version::Godot4,
    string: 4,
    node_path: 22,
    object: 24,
    dictionary: 27,
    array: 28,
    packed: &[
        (29, 1, "PackedByteArray"),
        (30, 4, "PackedInt32Array"),
        (31, 8, "PackedInt64Array"),
        (32, 4, "PackedFloat32Array"),
        (33, 8, "PackedFloat64Array"),
        (34, 0, "PackedStringArray"),
        (35, 8, "PackedVector2Array"),
        (36, 12, "PackedVector3Array"),
        (37, 16, "PackedColorArray"),
        (38, 16, "PackedVector4Array"),
        // Double-precision vectors (header bit 16).
        (0x0001_0023, 16, "PackedVector2Array (f64)"),
        (0x0001_0024, 24, "PackedVector3Array (f64)"),
        (0x0001_0026, 32, "PackedVector4Array (f64)"),
    ],
};

pub(crate) const G3: Ids = Ids {
    version: Version::Godot3,
    string: 4,
    node_path: 15,
    object: 17,
    dictionary: 18,
    array: 19,
    packed: &[
        (20, 1, "PoolByteArray"),
        (21, 4, "PoolIntArray"),
        (22, 4, "PoolRealArray"),
        (23, 0, "PoolStringArray"),
        (24, 8, "PoolVector2Array"),
        (25, 12, "PoolVector3Array"),
        (26, 16, "PoolColorArray"),
    ],
};

/// Huge counts: the largest i32, all ones, bit 31 alone and with 1, and counts whose size in
/// bytes wraps around 2^32 to 0 or to 8 for some element size (4, 8, 12, 16, 24, 32 bytes), and
/// 16, just past what 16 bytes can hold.
pub(crate) const HUGE_COUNTS: [u32; 13] = [
    0x7FFF_FFFF,
    0xFFFF_FFFF,
    0x8000_0000,
    0x8000_0001,
    0x4000_0000,
    0x4000_0002,
    0x2000_0000,
    0x2000_0001,
    0x1555_5556,
    0x1000_0000,
    0x0AAA_AAAB,
    0x0800_0000,
    16,
];

/// What Godot does with a hostile input.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Expect {
    /// Accepted, holding this many items (Nil elements, `null: null` entries).
    Accepted(usize),
    /// Refused with this error.
    Refused(Error),
}

pub(crate) struct Case {
    pub(crate) what: String,
    pub(crate) options: Options,
    pub(crate) bytes: Vec<u8>,
    pub(crate) expect: Expect,
}

pub(crate) fn refused(at: usize, kind: ErrorKind) -> Expect {
    Expect::Refused(Error::new(at, kind))
}

/// An Array or Dictionary count: Godot masks bit 31 off, then each element takes at least 4
/// bytes (a dictionary entry 8); the room after the count is all zeros (Nil elements).
pub(crate) fn container_expect(count: u32, at: usize, room: usize, per_item: usize) -> Expect {
    let masked = count & 0x7FFF_FFFF;
    if masked as usize * per_item <= room {
        Expect::Accepted(masked as usize)
    } else {
        refused(at, ErrorKind::BadCount { count: masked })
    }
}

/// Every hostile-count case of both versions.
pub(crate) fn hostile_count_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for ids in [G4, G3] {
        let v = ids.version;
        let options = Options::new(v);
        for count in HUGE_COUNTS {
            let mut push = |what: String, options: Options, bytes: Vec<u8>, expect: Expect| {
                let what = format!("{v:?} {what} count {count:#x}");
                cases.push(Case { what, options, bytes, expect });
            };
            // Array and Dictionary: header, count, 8 bytes of room.
            push(
                "Array".into(),
                options,
                words(&[ids.array, count, 0, 0]),
                container_expect(count, 4, 8, 4),
            );
            push(
                "Dictionary".into(),
                options,
                words(&[ids.dictionary, count, 0, 0]),
                container_expect(count, 4, 8, 8),
            );
            // Packed arrays: header, count, 8 bytes of room.
            for &(id, size, name) in ids.packed {
                let expect = if size == 0 && (count as i32) < 0 {
                    // A negative PackedStringArray count is an empty array.
                    Expect::Accepted(0)
                } else {
                    refused(4, ErrorKind::BadCount { count })
                };
                push(name.into(), options, words(&[id, count, 0, 0]), expect);
            }
            // Full objects: header, class "Node", property count (objects allowed). A negative
            // count is no properties.
            let object = [words(&[ids.object]), gd_string("Node"), words(&[count])].concat();
            let expect = if (count as i32) < 0 {
                Expect::Accepted(0)
            } else {
                refused(12, ErrorKind::BadCount { count })
            };
            push("Object properties".into(), options.with_allow_objects(true), object, expect);
            // NodePath: name count (bit 31 set: the current format), subname count, flags. The
            // strings are `names + subnames (+ 1 with the property flag)`, in wrapping u32.
            for (names, subnames, flags) in [
                (count | 0x8000_0000, 0, 0),
                (0x8000_0000, count, 0),
                (0x8000_0001, count, 0),
                (count | 0x8000_0000, count, 0),
                (count | 0x8000_0000, count, 2),
                (0x8000_0000, count, 3),
            ] {
                let total = (names & 0x7FFF_FFFF).wrapping_add(subnames).wrapping_add(flags >> 1);
                let expect = if total == 0 {
                    Expect::Accepted(0)
                } else {
                    refused(4, ErrorKind::BadCount { count: total })
                };
                let what =
                    format!("NodePath names {names:#x} subnames {subnames:#x} flags {flags}");
                push(what, options, words(&[ids.node_path, names, subnames, flags]), expect);
            }
            if v == Version::Godot3 {
                continue;
            }
            // Godot 4 typed containers: the type information sits between header and count.
            let typed: [(&str, u32, Vec<u8>, usize); 6] = [
                ("Array[int]", 0x0001_001C, words(&[2]), 4),
                ("Array[Node]", 0x0002_001C, gd_string("Node"), 4),
                ("Array[script]", 0x0003_001C, gd_string("res://"), 4),
                ("Dictionary[int, String]", 0x0005_001B, words(&[2, 4]), 8),
                (
                    "Dictionary[Node, int]",
                    0x0006_001B,
                    [gd_string("Node"), words(&[2])].concat(),
                    8,
                ),
                (
                    "Dictionary[int, Node]",
                    0x0009_001B,
                    [words(&[2]), gd_string("Node")].concat(),
                    8,
                ),
            ];
            for (name, header, info, per_item) in typed {
                let bytes = [words(&[header]), info, words(&[count])].concat();
                let at = bytes.len() - 4;
                let expect = container_expect(count, at, 0, per_item);
                push(name.into(), options, bytes, expect);
            }
        }
    }
    cases
}
