//! Hostile input under a counting allocator: what the reader allocates, and how much stack it
//! needs, when the input lies.
//!
//! Allocations are counted per thread (`allocation_counter::measure` counts what the calling
//! thread allocates, including every growth step of a `Vec`), so tests running in parallel, and
//! the harness's own threads, never enter a measurement. What is proved:
//!
//! 1. **Hostile counts, lazy API: no allocation.** A 16-byte input (20 for the container types
//!    whose type information is a string) claiming 2^31-1, 2^32-1, 2^31 and other huge counts
//!    (including counts whose byte size wraps around 2^32 to a size that would fit) of every
//!    container and packed type of both versions: `Array`, `Dictionary`, Godot 4 typed arrays
//!    and dictionaries (builtin, class and script types), every `Packed*Array` / `Pool*Array`
//!    (Godot 4 double-precision vectors too), `PackedStringArray`, NodePath name and subname
//!    counts (with the property flag), and full-object property counts (objects allowed).
//!    `validate`, `parse`, `parse_prefix` and a full lazy walk allocate nothing; they refuse the
//!    count with `BadCount` at the count's offset, or accept exactly Godot's accepted forms
//!    (bit 31 of an Array / Dictionary count is masked, a negative `PackedStringArray` or
//!    property count is empty, NodePath counts add up in wrapping u32), which are then empty.
//!    The lazy walk ([`lazy_walk`]) covers `len`, `is_empty`, `get` / `get_element` (first,
//!    last and one past the end), `element_type` / `key_type` / `value_type`, element, entry
//!    and property iteration with each element's raw bytes, `DictionaryRef::get` and
//!    `get_first`, `FullObject::get`, `lookup`, NodePath names and subnames, packed `len`,
//!    `get`, `iter` (both ends), `as_slice`, `as_le_slice` and `raw_bytes`, and the text of
//!    every string (`to_str`, `check`). Not covered: `to_vec`, `to_string_lossy`,
//!    `NodePathRef::to_text`, which allocate by design.
//! 2. **The same inputs, owned decoding: O(input) bytes.** `decode` gets `validate`'s verdict
//!    and allocates at most [`decode_bound`] bytes in total (every growth step counted): 32
//!    bytes per input byte plus 4 KiB. Why that bound: `decode` sizes each container once from
//!    its count, but keeps the room reserved ahead of the elements within 2 bytes per input
//!    byte: past that (a lying count, or a dense value), and past 8 levels of nesting, it runs
//!    the validating walk over the whole value first (no allocation), after which every count
//!    is true and its own stack of open containers is sized once from the value's depth (40
//!    bytes a level). What remains is what the value holds, plus at most 2 bytes per input byte
//!    reserved for elements that are not there: about 24 bytes per input byte for flat data (an
//!    empty dictionary is a 64-byte `Variant` and a 128-byte box for 8 input bytes; an entry 128
//!    bytes plus its key's 8-byte hash), and up to 29 for the densest inputs found (measured: 14
//!    for 1025 nested arrays, 26 for 1025 dictionaries nested as keys or as values, 27.5 for
//!    dictionaries whose key and value are both dictionaries, nested 1024 deep, 28 for a
//!    1024-deep key decoded twice into one dictionary, 28.7 for a dictionary of 4000 repeated
//!    `{}: {}` entries). The densest flat inputs of every container kind
//!    (`dense_inputs_decode_within_the_bound`), the deepest nested ones, and the shapes that
//!    cost the most before (`hostile_shapes_decode_within_the_bound`: lying counts ahead of
//!    dense contents, nested lying counts, `[[[...]]]`, `{}` and `{{}:{}}` repeated, repeated
//!    deep keys, replaced deep values) stay within it, so the bound holds for what is present,
//!    not only for what is refused.
//! 3. **Nesting, on a 256 KiB stack.** A megabyte of nested array headers, of dictionaries
//!    nested as keys and of dictionaries nested as values (both versions) is refused with
//!    `DepthLimit` at Godot's depth by `validate`, `parse_prefix`, a lazy descent and a full
//!    lazy walk (no allocation) and by `decode` (which validates once it is 8 levels deep, so
//!    it holds at most 8 containers and 8 frames before it refuses, whatever the input's
//!    size), all on a thread whose whole stack is 256 KiB. The deepest accepted values (1025 levels) validate, descend (no allocation),
//!    decode, re-encode byte for byte and drop there too, Godot 4 dictionaries nested as keys
//!    included, whose decoding hashes each key from the hashes of what it holds and compares a
//!    repeated key by content, iteratively: a key nested 1024 levels deep is decoded twice into
//!    one dictionary, with 0 and with 9 other keys, so it is hashed, compared, and its repeat
//!    dropped (`deep_keys_hash_and_compare_on_a_small_stack`); `Dictionary::insert`, `get`,
//!    `contains_key`, `remove` and `Variant::same` on keys 1025 levels deep (arrays,
//!    dictionaries as keys and as values) run there too. A decode that fails after reading deep
//!    values (a Godot 3 property name that is not Unicode) drops them without recursion. `encode`
//!    refuses owned values nested past the limit (arrays, dictionaries as keys and as values,
//!    1026 levels and up to 100,000) with `DepthLimit` on the same small stack, and writes the
//!    deepest accepted ones byte for byte. (`tests/owned_bounds.rs` runs every other
//!    whole-value operation on owned values that deep.)
//! 4. **String lengths near `u32::MAX`** (and 13, just past the end), at the top level
//!    (`String`, `StringName`) and as every kind of string inside a value: array element,
//!    dictionary key and value, NodePath name and subname, packed string, class name, property
//!    name, signal name, typed-container class name and script path, four levels deep.
//!    `StringOverrun` at the length field's offset from `validate`, `parse_prefix`, the lazy
//!    walk and `decode`, with no allocation in the lazy API; the same strings with a length
//!    that fits do not overrun (the control).
//! 5. **`allow_objects` off refuses a full object wherever it sits**: top level, array element,
//!    after an object id in the same array, dictionary key and value, key of a dictionary
//!    nested as a key, `[{null: [5, object]}]`, 1000 arrays deep, and (Godot 4) as the element
//!    of an `Array[Node]`, the value of a `Dictionary[int, Node]` and the key of a
//!    `Dictionary[Node, int]`, in both versions; and it refuses at the object's header, before
//!    reading anything after it (a header alone, a class name length past the end, a class
//!    name that is not UTF-8, an unknown class, header bit 17 set), as Godot's decoder does:
//!    its `ERR_UNAUTHORIZED` check comes first (the engine probes
//!    `probe_obj_empty_class_disallowed` and `probe_obj_in_dict_value_disallowed`).
//!    `validate`, `parse_prefix`, the lazy walk and `decode` all report `ObjectsNotAllowed` at
//!    the object's offset, the lazy ones without allocating. With objects allowed the same
//!    bytes are read, or refused further in for what is wrong with them; object ids are
//!    accepted everywhere either way. (`tests/errors.rs` covers the plain positions without
//!    allocation counting or `decode`.)
//! 6. **Real data: the lazy path allocates nothing.** `validate`, `parse`, `parse_prefix` and
//!    a full lazy walk of every value case of both corpora, and of every frame of their stream
//!    captures, allocate zero bytes.
//!
//! The counter itself is checked first (`the_counter_sees_allocations`), so a zero can be
//! trusted.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use std::hint::black_box;

use allocation_counter::{AllocationInfo, measure};
use gdvariant::framing::{self, LengthPrefix};
use gdvariant::packed::PackedElement;
use gdvariant::{
    EncodeOptions, Error, ErrorKind, Key, Options, Variant, VariantRef, Version,
    encoder::EncodeError, owned::Array, owned::Dictionary, packed::Packed, packed::PackedReals,
    view::ContainerType, view::ObjectRef,
};

// ------------------------------------------------------------------------------------------
// Measuring
// ------------------------------------------------------------------------------------------

/// Runs `f` and returns its result with what this thread allocated while it ran.
fn counted<T>(f: impl FnOnce() -> T) -> (T, AllocationInfo) {
    let mut result = None;
    let info = measure(|| result = Some(f()));
    (result.expect("measured closure ran"), info)
}

/// Runs `f`, asserting that it allocates nothing.
#[track_caller]
fn no_alloc<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let (result, info) = counted(f);
    assert_eq!(info.count_total, 0, "{what}: allocated {} bytes: {info:?}", info.bytes_total);
    result
}

/// The most `decode` may allocate in total (every growth step counted) for an input of `len`
/// bytes: 32 bytes per input byte and 4 KiB of fixed bookkeeping (see the module docs).
fn decode_bound(len: usize) -> u64 {
    32 * len as u64 + 4096
}

/// Runs `decode`, asserting the allocation bound; returns its result and the bytes allocated.
#[track_caller]
fn bounded_decode(what: &str, bytes: &[u8], options: Options) -> (Result<Variant, Error>, u64) {
    let (result, info) = counted(|| gdvariant::decode(bytes, options));
    assert!(
        info.bytes_total <= decode_bound(bytes.len()),
        "{what}: decode allocated {} bytes for {} input bytes: {info:?}",
        info.bytes_total,
        bytes.len()
    );
    (result, info.bytes_total)
}

/// The size of stack the nesting tests run on.
const SMALL_STACK: usize = 256 << 10;

/// Runs `f` on a thread whose stack is [`SMALL_STACK`] bytes, borrowing from the caller.
fn on_small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    on_stack(SMALL_STACK, f)
}

/// Runs `f` on a thread with a stack of `size` bytes, borrowing from the caller.
fn on_stack<T: Send>(size: usize, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new().stack_size(size).spawn_scoped(scope, f).unwrap().join().unwrap()
    })
}

#[test]
fn the_counter_sees_allocations() {
    let info = measure(|| {
        black_box(Box::new(7u64));
    });
    assert_eq!((info.count_total, info.bytes_total), (1, 8));
    // On another thread, and with a growing vector (every growth step is counted).
    let info = on_small_stack(|| {
        measure(|| {
            let mut v = Vec::new();
            for i in 0..20u8 {
                v.push(black_box(i));
            }
            black_box(v);
        })
    });
    assert!(info.count_total >= 2 && info.bytes_total >= 8, "{info:?}");
    // A failing no_alloc fails.
    let caught = std::panic::catch_unwind(|| no_alloc("deliberate", || black_box(vec![1u8])));
    assert!(caught.is_err());
    // And decode of a non-empty array allocates (its elements).
    let bytes = words(&[0x1C, 1, 2, 5]);
    let (value, info) = counted(|| gdvariant::decode(&bytes, Options::godot4()));
    assert_eq!(value.unwrap(), Variant::Array(Array::from(vec![Variant::Int(5)])));
    assert!(info.bytes_total >= 64, "{info:?}");
}

// ------------------------------------------------------------------------------------------
// Inputs
// ------------------------------------------------------------------------------------------

/// Little-endian u32 words to bytes.
fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A Godot string (length, bytes, zero padding).
fn gd_string(text: &str) -> Vec<u8> {
    let mut out = words(&[text.len() as u32]);
    out.extend_from_slice(text.as_bytes());
    out.resize(out.len().next_multiple_of(4), 0);
    out
}

/// Type ids of both versions.
struct Ids {
    version: Version,
    string: u32,
    node_path: u32,
    object: u32,
    dictionary: u32,
    array: u32,
    /// Every packed type id, with its element size in bytes (0: strings).
    packed: &'static [(u32, u32, &'static str)],
}

const G4: Ids = Ids {
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

const G3: Ids = Ids {
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
const HUGE_COUNTS: [u32; 13] = [
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
enum Expect {
    /// Accepted, holding this many items (Nil elements, `null: null` entries).
    Accepted(usize),
    /// Refused with this error.
    Refused(Error),
}

struct Case {
    what: String,
    options: Options,
    bytes: Vec<u8>,
    expect: Expect,
}

fn refused(at: usize, kind: ErrorKind) -> Expect {
    Expect::Refused(Error::new(at, kind))
}

/// An Array or Dictionary count: Godot masks bit 31 off, then each element takes at least 4
/// bytes (a dictionary entry 8); the room after the count is all zeros (Nil elements).
fn container_expect(count: u32, at: usize, room: usize, per_item: usize) -> Expect {
    let masked = count & 0x7FFF_FFFF;
    if masked as usize * per_item <= room {
        Expect::Accepted(masked as usize)
    } else {
        refused(at, ErrorKind::BadCount { count: masked })
    }
}

/// Every hostile-count case of both versions.
fn hostile_count_cases() -> Vec<Case> {
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

// ------------------------------------------------------------------------------------------
// The lazy walk
// ------------------------------------------------------------------------------------------

/// Checks a string's text both ways: `check`, and `to_str` (a Godot 3 string that Godot accepts
/// but `str` cannot hold or borrow, `NotUnicode` or `Overlong`, counts as text).
fn text(s: gdvariant::view::GdStr<'_>) -> Result<(), Error> {
    s.check()?;
    match s.to_str() {
        Ok(text) => assert_eq!(text.len(), s.text_bytes().len()),
        Err(e) if matches!(e.kind(), ErrorKind::NotUnicode | ErrorKind::Overlong) => {}
        Err(e) => return Err(e),
    }
    black_box(s.raw_bytes());
    Ok(())
}

fn check_container_type(ty: ContainerType<'_>) -> Result<(), Error> {
    match ty {
        ContainerType::ClassName(s) | ContainerType::Script(s) => text(s),
        _ => Ok(()),
    }
}

/// Every non-allocating accessor of a fixed-size packed array; returns its length.
fn packed<T: PackedElement>(p: &Packed<'_, T>) -> usize {
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

fn packed_reals<S: PackedElement, D: PackedElement>(p: &PackedReals<'_, S, D>) -> usize {
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
fn lazy_walk(value: VariantRef<'_>) -> Result<usize, Error> {
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
fn declared_items(value: VariantRef<'_>) -> usize {
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
fn parse_and_walk(bytes: &[u8], options: Options) -> Result<usize, Error> {
    lazy_walk(gdvariant::parse(bytes, options)?)
}

/// Runs `validate`, `parse_prefix` and `parse` + the lazy walk, each asserted not to allocate;
/// returns their results.
#[allow(clippy::type_complexity)]
fn lazy_results(
    what: &str,
    bytes: &[u8],
    options: Options,
) -> (Result<(), Error>, Result<usize, Error>, Result<usize, Error>) {
    let validated = no_alloc(what, || gdvariant::validate(bytes, options));
    let prefix = no_alloc(what, || gdvariant::parse_prefix(bytes, options).map(|e| e.len()));
    let walked = no_alloc(what, || parse_and_walk(bytes, options));
    (validated, prefix, walked)
}

// ------------------------------------------------------------------------------------------
// 1 and 2. Hostile counts
// ------------------------------------------------------------------------------------------

#[test]
fn hostile_counts_allocate_nothing_lazily_and_o_n_when_decoded() {
    let cases = hostile_count_cases();
    let (mut accepted, mut refused_count) = (0, 0);
    for Case { what, options, bytes, expect } in &cases {
        let (what, options) = (what.as_str(), *options);
        assert!(bytes.len() <= 20, "{what}: {} bytes", bytes.len());
        let (validated, prefix, walked) = lazy_results(what, bytes, options);
        let parsed = no_alloc(what, || gdvariant::parse(bytes, options).map(|_| ()));
        let (decoded, _) = bounded_decode(what, bytes, options);
        match expect {
            Expect::Accepted(items) => {
                accepted += 1;
                validated.unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(prefix.is_ok_and(|len| len <= bytes.len()), "{what}: {prefix:?}");
                // The container and its Nil items (or `null: null` entries) are visited.
                let per_item = if bytes[0] == 0x1B || bytes[0] == 0x12 { 2 } else { 1 };
                assert_eq!(walked, Ok(1 + per_item * items), "{what}");
                let value = gdvariant::parse(bytes, options).unwrap();
                assert_eq!(declared_items(value), *items, "{what}");
                let decoded = decoded.unwrap_or_else(|e| panic!("{what}: {e}"));
                let len = match &decoded {
                    Variant::Array(a) => a.len(),
                    Variant::Dictionary(d) => d.len(),
                    Variant::PackedStringArray(s) => s.len(),
                    Variant::NodePath(p) => p.names.len() + p.subnames.len(),
                    Variant::Object(gdvariant::owned::Object::Full { properties, .. }) => {
                        properties.len()
                    }
                    other => panic!("{what}: decoded {other:?}"),
                };
                assert_eq!(len, *items, "{what}");
            }
            Expect::Refused(expected) => {
                refused_count += 1;
                assert_eq!(validated, Err(*expected), "{what}");
                assert_eq!(prefix, Err(*expected), "{what}");
                assert_eq!(walked, Err(*expected), "{what}");
                assert_eq!(decoded, Err(*expected), "{what}");
                // The head of every refused case is refused at once, by parse too.
                assert_eq!(parsed, Err(*expected), "{what}");
            }
        }
    }
    // 13 counts x (Godot 4: 2 + 13 packed + 1 object + 6 NodePath + 6 typed = 28;
    // Godot 3: 2 + 7 + 1 + 6 = 16).
    assert_eq!(cases.len(), 13 * (28 + 16));
    assert_eq!(accepted + refused_count, cases.len());
    assert!(accepted >= 20 && refused_count >= 400, "{accepted} accepted, {refused_count} refused");
}

/// The densest valid inputs of each container kind: the most owned memory per input byte.
fn dense_inputs(n: u32) -> Vec<(&'static str, Version, Options, Vec<u8>)> {
    let g4 = Options::godot4();
    let g3 = Options::godot3();
    let nils = |header: u32| {
        let mut ws = vec![header, n];
        ws.extend(std::iter::repeat_n(0, n as usize));
        words(&ws)
    };
    // Distinct keys (a repeated key is one entry): {0: null, 1: null, ...}.
    let int_keys = |header: u32| {
        let mut ws = vec![header, n];
        for i in 0..n {
            ws.extend([2, i, 0]);
        }
        words(&ws)
    };
    let empty_containers = |outer: u32, inner: u32| {
        let mut ws = vec![outer, n];
        for _ in 0..n {
            ws.extend([inner, 0]);
        }
        words(&ws)
    };
    let node_path = |id: u32| {
        let mut ws = vec![id, 0x8000_0000 | n, n, 0];
        ws.extend(std::iter::repeat_n(0, 2 * n as usize));
        words(&ws)
    };
    let strings = |id: u32| {
        let mut ws = vec![id, n];
        ws.extend(std::iter::repeat_n(0, n as usize));
        words(&ws)
    };
    let object = |id: u32| {
        let mut bytes = [words(&[id]), gd_string("Node"), words(&[n])].concat();
        for _ in 0..n {
            bytes.extend(words(&[0, 0])); // "" = null
        }
        bytes
    };
    let one_char_strings = |array: u32| {
        let mut ws = vec![array, n];
        for _ in 0..n {
            ws.extend([4, 1, u32::from(b'x')]);
        }
        words(&ws)
    };
    vec![
        ("Array of nulls", Version::Godot4, g4, nils(0x1C)),
        ("Dictionary of int: null", Version::Godot4, g4, int_keys(0x1B)),
        ("Array of empty Arrays", Version::Godot4, g4, empty_containers(0x1C, 0x1C)),
        ("Array of empty Dictionaries", Version::Godot4, g4, empty_containers(0x1C, 0x1B)),
        ("Array of one-byte Strings", Version::Godot4, g4, one_char_strings(0x1C)),
        ("NodePath of empty names", Version::Godot4, g4, node_path(22)),
        ("PackedStringArray of empty strings", Version::Godot4, g4, strings(34)),
        ("Object of null properties", Version::Godot4, g4.with_allow_objects(true), object(24)),
        ("Array of nulls", Version::Godot3, g3, nils(0x13)),
        ("Dictionary of int: null", Version::Godot3, g3, int_keys(0x12)),
        ("Array of empty Dictionaries", Version::Godot3, g3, empty_containers(0x13, 0x12)),
        ("PoolStringArray of empty strings", Version::Godot3, g3, strings(23)),
        ("Object of null properties", Version::Godot3, g3.with_allow_objects(true), object(17)),
    ]
}

#[test]
fn dense_inputs_decode_within_the_bound() {
    for n in [1, 7, 100, 4099] {
        for (what, version, options, bytes) in dense_inputs(n) {
            let what = format!("{version:?} {what} ({n})");
            gdvariant::validate(&bytes, options).unwrap_or_else(|e| panic!("{what}: {e}"));
            let (decoded, allocated) = bounded_decode(&what, &bytes, options);
            decoded.unwrap_or_else(|e| panic!("{what}: {e}"));
            if std::env::var_os("ALLOC_TRACE").is_some() {
                eprintln!("{what}: {} bytes in, {allocated} allocated", bytes.len());
            }
            // The lazy walk of a valid input allocates nothing either.
            no_alloc(&what, || parse_and_walk(&bytes, options)).unwrap();
        }
    }
}

/// The inputs that cost `decode` the most memory per input byte before it validated first,
/// and the densest ones since: (what, bytes), Godot 4.
fn hostile_shapes() -> Vec<(String, Vec<u8>)> {
    const A: u32 = 0x1C;
    const D: u32 = 0x1B;
    let n = 4000usize;
    let nest = |levels: usize, open: &[u32], innermost: &[u32], close: &[u32]| {
        let mut ws = Vec::new();
        for _ in 1..levels {
            ws.extend(open);
        }
        ws.extend(innermost);
        for _ in 1..levels {
            ws.extend(close);
        }
        ws
    };
    let items: Vec<(&str, Vec<u32>)> = vec![
        ("null", vec![0]),
        ("{}", vec![D, 0]),
        ("[null]", vec![A, 1, 0]),
        ("{{}: {}}", vec![D, 1, D, 0, D, 0]),
        ("{null: {}}", vec![D, 1, 0, D, 0]),
        ("{{null: null}: null}", vec![D, 1, D, 1, 0, 0, 0]),
        ("100 nested arrays", nest(100, &[A, 1], &[A, 0], &[])),
        ("100 dictionaries nested as keys", nest(100, &[D, 1], &[D, 0], &[0])),
        ("100 dictionaries nested as values", nest(100, &[D, 1, 0], &[D, 0], &[])),
    ];
    let mut out = Vec::new();
    for (name, item) in &items {
        let len = 8 + 4 * item.len() * n;
        // An array of the items, and arrays and dictionaries that claim more than they hold
        // (each count reserved as far as the bytes left could hold, before).
        for (what, header, count) in
            [("array", A, n), ("lying array", A, len / 4), ("lying dictionary", D, len / 8 + 100)]
        {
            let mut ws = vec![header, count as u32];
            for i in 0..n {
                if header == D {
                    ws.extend([2, i as u32]);
                }
                ws.extend(item);
            }
            out.push((format!("{what} of {name}"), words(&ws)));
        }
        // A dictionary of int keys and these values.
        let mut ws = vec![D, n as u32];
        for i in 0..n {
            ws.extend([2, i as u32]);
            ws.extend(item);
        }
        out.push((format!("dictionary of int: {name}"), words(&ws)));
    }
    // Nested lying counts.
    for (what, level) in [
        ("arrays", vec![A, 0x3fff_ffff]),
        ("dictionaries as keys", vec![D, 0x3fff_ffff]),
        ("dictionaries as values", vec![D, 0x3fff_ffff, 0]),
    ] {
        out.push((format!("1000 nested lying {what}"), words(&level.repeat(1000))));
    }
    // The deepest nesting of every shape, and its densest: dictionaries whose key and value are
    // both dictionaries.
    out.push(("1025 nested arrays".into(), words(&nest(1025, &[A, 1], &[A, 0], &[]))));
    out.push(("1025 keys".into(), words(&nest(1025, &[D, 1], &[D, 0], &[0]))));
    out.push(("1025 values".into(), words(&nest(1025, &[D, 1, 0], &[D, 0], &[]))));
    out.push(("1024 {key: {}}".into(), words(&nest(1024, &[D, 1], &[D, 0], &[D, 0]))));
    // Repeated keys: each repeat is hashed, compared and dropped; a replaced value is dropped.
    for (what, entry) in [
        ("{}: null", vec![D, 0, 0]),
        ("{}: {}", vec![D, 0, D, 0]),
        ("null: {}", vec![0, D, 0]),
        ("null: null", vec![0, 0]),
    ] {
        let mut ws = vec![D, n as u32];
        for _ in 0..n {
            ws.extend(&entry);
        }
        out.push((format!("{n} x {what}"), words(&ws)));
    }
    let deep_key = nest(1024, &[D, 1], &[D, 0], &[0]);
    let deep_value = nest(1023, &[D, 1, 0], &[D, 0], &[]);
    for fillers in [0u32, 9] {
        let mut twice = vec![D, fillers + 2];
        let mut replaced = vec![D, fillers + 2];
        for i in 0..fillers {
            twice.extend([2, i, 0]);
            replaced.extend([2, i, 0]);
        }
        for value in [1, 2] {
            twice.extend(&deep_key);
            twice.extend([2, value]);
            replaced.extend([2, 1000]);
            replaced.extend(&deep_value);
        }
        out.push((format!("a 1024-deep key twice, {fillers} other keys"), words(&twice)));
        out.push((format!("a 1023-deep value replaced, {fillers} other keys"), words(&replaced)));
    }
    // A key holding every dictionary: all of them are hashed.
    let mut ws = vec![D, 1, A, n as u32];
    for _ in 0..n {
        ws.extend([D, 0]);
    }
    ws.push(0);
    out.push((format!("a key of {n} {{}}"), words(&ws)));
    out
}

#[test]
fn hostile_shapes_decode_within_the_bound() {
    let shapes = hostile_shapes();
    let mut report = Vec::new();
    for (what, bytes) in &shapes {
        let (decoded, allocated) = bounded_decode(what, bytes, Options::godot4());
        assert_eq!(decoded.err(), gdvariant::validate(bytes, Options::godot4()).err(), "{what}");
        report.push((allocated as f64 / bytes.len() as f64, what));
    }
    assert!(shapes.len() >= 50, "{}", shapes.len());
    report.sort_by(|a, b| b.0.total_cmp(&a.0));
    if std::env::var_os("ALLOC_TRACE").is_some() {
        for (per_byte, what) in &report {
            eprintln!("{per_byte:5.1} bytes per input byte: {what}");
        }
    }
}

// ------------------------------------------------------------------------------------------
// 3. Nesting on a small stack
// ------------------------------------------------------------------------------------------

const MIB: usize = 1 << 20;

/// Descends from the top value through the first element / first key, iteratively; returns the
/// number of levels reached.
fn descend(bytes: &[u8], options: Options) -> Result<usize, Error> {
    let mut value = gdvariant::parse(bytes, options)?;
    let mut levels = 1;
    loop {
        let next = match value {
            VariantRef::Array(a) => a.get(0)?,
            VariantRef::Dictionary(d) => match d.entries().next() {
                // Dictionaries nested as values: the key is null, the value goes on.
                Some(entry) => {
                    let (key, value) = entry?;
                    Some(if key.value().is_nil() { value.value() } else { key.value() })
                }
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

/// A nesting shape: how one level is written, and where the depth limit's error lands.
struct Shape {
    name: &'static str,
    /// The words before the child, for a container header `header`.
    level: fn(u32) -> Vec<u32>,
    /// The words after the child.
    after: &'static [u32],
    /// Offset of the error when level 1026 (depth 1025) is reached.
    error_at: usize,
}

const SHAPES: [Shape; 3] = [
    Shape { name: "arrays", level: |h| vec![h, 1], after: &[], error_at: 8 * 1025 },
    // Each dictionary's only key is the next one (its value, null, comes after).
    Shape { name: "dictionaries as keys", level: |h| vec![h, 1], after: &[0], error_at: 8 * 1025 },
    // Each dictionary's only entry is null: next. The 1025th dictionary's key (depth 1025)
    // is refused first.
    Shape {
        name: "dictionaries as values",
        level: |h| vec![h, 1, 0],
        after: &[],
        error_at: 12 * 1024 + 8,
    },
];

/// `levels` levels of `shape`, the innermost empty.
fn nested(shape: &Shape, header: u32, levels: usize) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend((shape.level)(header));
    }
    ws.extend([header, 0]);
    for _ in 1..levels {
        ws.extend(shape.after);
    }
    words(&ws)
}

/// A megabyte of headers of `shape`, never closed.
fn megabyte(shape: &Shape, header: u32) -> Vec<u8> {
    let level = words(&(shape.level)(header));
    let bytes = level.repeat(MIB / level.len());
    assert!(bytes.len() > MIB - 12);
    bytes
}

#[test]
fn a_megabyte_of_nesting_is_refused_on_a_small_stack() {
    let mut report = Vec::new();
    for (version, array, dictionary) in
        [(Version::Godot4, 0x1C, 0x1B), (Version::Godot3, 0x13, 0x12)]
    {
        let options = Options::new(version);
        for shape in &SHAPES {
            let header = if shape.name == "arrays" { array } else { dictionary };
            let what = format!("{version:?} a megabyte of {}", shape.name);
            let bytes = megabyte(shape, header);
            let expected = Error::new(shape.error_at, ErrorKind::DepthLimit);
            let decoded = on_small_stack(|| {
                let what = what.as_str();
                let (validated, prefix, walked) = lazy_results(what, &bytes, options);
                assert_eq!(validated, Err(expected), "{what}");
                assert_eq!(prefix, Err(expected), "{what}");
                assert_eq!(walked, Err(expected), "{what}");
                assert_eq!(no_alloc(what, || descend(&bytes, options)), Err(expected), "{what}");
                // With objects allowed and a small custom limit, the same, sooner.
                let o10 = options.with_allow_objects(true).with_max_depth(10);
                let early = no_alloc(what, || gdvariant::validate(&bytes, o10));
                assert_eq!(early.unwrap_err().kind(), ErrorKind::DepthLimit, "{what}");
                let (decoded, allocated) = bounded_decode(what, &bytes, options);
                assert_eq!(decoded, Err(expected), "{what}");
                allocated
            });
            report.push(format!("{what}: decode allocated {decoded} bytes before refusing"));
            // Refused by the validating walk once the decoder is 8 levels deep, whatever the
            // input's size: 8 containers and 8 frames of its stack.
            assert!(decoded <= 4096, "{what}: {decoded} bytes");
        }
    }
    if std::env::var_os("ALLOC_TRACE").is_some() {
        eprintln!("{}", report.join("\n"));
    }
}

#[test]
fn the_deepest_accepted_values_decode_on_a_small_stack() {
    for (version, array, dictionary) in
        [(Version::Godot4, 0x1C, 0x1B), (Version::Godot3, 0x13, 0x12)]
    {
        let options = Options::new(version);
        for shape in &SHAPES {
            let header = if shape.name == "arrays" { array } else { dictionary };
            let what = format!("{version:?} 1025 levels of {}", shape.name);
            let bytes = nested(shape, header, 1025);
            let lazy = |what: &str| {
                no_alloc(what, || gdvariant::validate(&bytes, options)).unwrap();
                let len = no_alloc(what, || gdvariant::parse_prefix(&bytes, options)).unwrap();
                assert_eq!(len.len(), bytes.len(), "{what}");
                assert_eq!(no_alloc(what, || descend(&bytes, options)), Ok(1025), "{what}");
            };
            on_small_stack(|| lazy(&what));
            let (encoded, allocated) = on_small_stack(|| {
                let (decoded, allocated) = bounded_decode(&what, &bytes, options);
                let value = decoded.unwrap_or_else(|e| panic!("{what}: {e}"));
                let encoded = gdvariant::encode(&value, EncodeOptions::new(version));
                // Dropped here, on the small stack: dropping is iterative.
                drop(value);
                (encoded, allocated)
            });
            if std::env::var_os("ALLOC_TRACE").is_some() {
                eprintln!("{what}: {} in, {allocated} allocated", bytes.len());
            }
            assert!(encoded.unwrap() == bytes, "{what}: re-encoded differently");
            // One more level is refused.
            let deeper = nested(shape, header, 1026);
            let expected = Error::new(shape.error_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&deeper, options), Err(expected), "{what}");
        }
        // The full lazy walk of the deepest value (the walk in this file recurses: a big stack).
        let bytes = nested(&SHAPES[0], array, 1025);
        let walked =
            on_stack(64 << 20, || no_alloc("lazy walk", || parse_and_walk(&bytes, options)));
        assert_eq!(walked, Ok(1025));
    }
}

/// Decoding 1025 levels of Godot 4 dictionaries nested as keys (12,296 accepted bytes), on a
/// 256 KiB stack. Godot 4 dictionary keys hash and compare by content: both are iterative.
#[test]
fn decoding_dictionaries_nested_as_keys_fits_a_small_stack() {
    let bytes = nested(&SHAPES[1], 0x1B, 1025);
    let is_dictionary = on_small_stack(|| {
        let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
        matches!(value, Variant::Dictionary(_))
    });
    assert!(is_dictionary);
}

/// A Godot 4 dictionary whose keys are `fillers` ints, then the same key nested 1024 levels
/// deep twice (values 1 and 2): decoding hashes the deep keys and compares them (through the
/// hash index when the dictionary has more than 8 entries).
fn deep_key_twice(fillers: u32) -> Vec<u8> {
    let key = nested(&SHAPES[1], 0x1B, 1024);
    let mut bytes = words(&[0x1B, fillers + 2]);
    for i in 0..fillers {
        bytes.extend(words(&[2, i, 0]));
    }
    for value in [1, 2] {
        bytes.extend(&key);
        bytes.extend(words(&[2, value]));
    }
    bytes
}

#[test]
fn deep_keys_hash_and_compare_on_a_small_stack() {
    // 0 fillers: the keys are compared in order; 9: the dictionary is indexed by hash.
    for fillers in [0, 9] {
        let bytes = deep_key_twice(fillers);
        assert_eq!(gdvariant::validate(&bytes, Options::godot4()), Ok(()));
        let value = on_small_stack(|| {
            let (value, _) = bounded_decode("deep key twice", &bytes, Options::godot4());
            let value = value.unwrap();
            let dictionary = value.as_dictionary().unwrap();
            // The repeated deep key is one key; the second value wins.
            assert_eq!(dictionary.len(), fillers as usize + 1, "{fillers} fillers");
            let (deep, wins) = dictionary.iter().last().unwrap();
            assert_eq!(wins, &Variant::Int(2));
            assert_eq!(dictionary.get(deep), Some(&Variant::Int(2)));
            assert!(deep.same(deep));
            Box::new(value)
        });
        assert!(matches!(*value, Variant::Dictionary(_)));
    }
    // Godot 3 compares dictionary keys by reference: both entries stay.
    let bytes = deep_key_twice(9)
        .chunks(4)
        .flat_map(|w| if w == [0x1B, 0, 0, 0] { [0x12, 0, 0, 0] } else { [w[0], w[1], w[2], w[3]] })
        .collect::<Vec<u8>>();
    let value = on_small_stack(|| Box::new(gdvariant::decode(&bytes, Options::godot3()).unwrap()));
    assert_eq!(value.as_dictionary().unwrap().len(), 11);
}

/// A decode that fails (here before reading anything: the validating walk refuses first) after
/// deep values (an array, a dictionary value, a repeated key whose value is replaced), on a
/// small stack.
#[test]
fn a_failed_decode_drops_deep_values_on_a_small_stack() {
    let deep_array = nested(&SHAPES[0], 0x1C, 1023);
    let deep_key = nested(&SHAPES[1], 0x1B, 1023);
    let cases = [
        // [deep, <bad type 0xFF>]
        [words(&[0x1C, 2]), deep_array.clone(), words(&[0xFF])].concat(),
        // {null: deep, 1: <bad type>}
        [words(&[0x1B, 2, 0]), deep_array.clone(), words(&[2, 1, 0xFF])].concat(),
        // {1: deep, 1: deep, <bad type>: null}: the first deep value is replaced, then the error
        [
            words(&[0x1B, 3, 2, 1]),
            deep_array.clone(),
            words(&[2, 1]),
            deep_array,
            words(&[0xFF, 0]),
        ]
        .concat(),
        // {deep key: null, deep key: <bad type>}: the repeated deep key waits for its value
        [words(&[0x1B, 2]), deep_key.clone(), words(&[0]), deep_key, words(&[0xFF])].concat(),
    ];
    for (i, bytes) in cases.iter().enumerate() {
        let validated = gdvariant::validate(bytes, Options::godot4());
        assert!(validated.is_err(), "case {i}");
        let decoded = on_small_stack(|| gdvariant::decode(bytes, Options::godot4()).map(Box::new));
        assert_eq!(decoded.err(), validated.err(), "case {i}");
    }
    // Godot 3 accepts a property name holding a surrogate, which the `String` of an owned
    // property name cannot hold: the decode fails after reading 1023 nested arrays (in the
    // second case, two dictionary values that are), and drops them on the way out.
    // `Reference` with one property, `<U+D800>`: 7.
    let reference = [0x6566_6552, 0x636e_6572, 0x65];
    let object = [words(&[0x11, 9]), words(&reference), words(&[1, 3, 0x0080_a0ed, 2, 7])].concat();
    let deep3 = nested(&SHAPES[0], 0x13, 1022);
    let options = Options::godot3().with_allow_objects(true);
    for bytes in [
        [words(&[0x13, 2]), deep3.clone(), object.clone()].concat(),
        [words(&[0x12, 3, 0]), deep3.clone(), words(&[2, 1]), deep3, words(&[2, 2]), object]
            .concat(),
    ] {
        assert_eq!(gdvariant::validate(&bytes, options), Ok(()));
        let decoded = on_small_stack(|| gdvariant::decode(&bytes, options).map(|_| ()));
        assert_eq!(decoded.unwrap_err().kind(), ErrorKind::NotUnicode);
    }
}

/// The owned API on deep keys, on a small stack: inserting, looking up, removing, and comparing
/// keys nested 1025 levels deep (arrays, dictionaries as keys and as values).
#[test]
fn dictionary_operations_on_deep_keys_fit_a_small_stack() {
    common::with_big_stack(|| {
        for shape in 0..3 {
            // Two equal values built apart (cloning is recursive, as in all of Rust).
            let (a, b) = (deep_owned(shape, 1025), deep_owned(shape, 1025));
            for fillers in [0, 9] {
                let mut dictionary = Dictionary::new();
                for i in 0..fillers {
                    dictionary.insert(i, Variant::Nil);
                }
                let (a, b) = (&a, &b);
                let dictionary = on_small_stack(move || {
                    // Moves the key in without copying it: the value is dropped on the big stack.
                    let mut d = dictionary;
                    assert!(d.insert(Variant::Array(Array::new()), 0).is_none());
                    assert!(a.same(b) && b.same(a));
                    assert!(!a.same(&Variant::Nil));
                    let what = format!("shape {shape}, {fillers} fillers");
                    assert_eq!(d.get(a), None, "{what}");
                    d
                });
                let mut dictionary = dictionary;
                dictionary.insert(a.clone(), 1);
                let dictionary = on_small_stack(move || {
                    let mut d = dictionary;
                    assert_eq!(d.get(b), Some(&Variant::Int(1)));
                    assert!(d.contains_key(a));
                    assert_eq!(d.remove(b), Some(Variant::Int(1)));
                    assert_eq!(d.get(a), None);
                    d
                });
                drop(dictionary);
            }
        }
    });
}

/// An owned value nested `levels` deep in `shape` (0 arrays, 1 dictionaries as keys, 2 as
/// values), built iteratively.
fn deep_owned(shape: usize, levels: usize) -> Variant {
    let mut value = match shape {
        0 => Variant::Array(Array::new()),
        _ => Variant::Dictionary(Box::default()),
    };
    for _ in 1..levels {
        value = match shape {
            0 => Variant::Array(Array::from(vec![value])),
            1 => {
                let mut d = Dictionary::new();
                d.insert(value, Variant::Nil);
                Variant::Dictionary(Box::new(d))
            }
            _ => {
                let mut d = Dictionary::new();
                d.insert(Variant::Nil, value);
                Variant::Dictionary(Box::new(d))
            }
        };
    }
    value
}

#[test]
fn encoding_past_the_depth_limit_is_refused_on_a_small_stack() {
    common::with_big_stack(|| {
        // (shape, levels): building dictionaries as keys hashes each key from its entries' kept
        // hashes, O(1) a level.
        let cases = [(0, 1026), (0, 100_000), (1, 1026), (1, 100_000), (2, 1026), (2, 100_000)];
        for (shape, levels) in cases {
            let value = deep_owned(shape, levels);
            for version in [Version::Godot4, Version::Godot3] {
                let what = format!("{version:?} {} levels of shape {shape}", levels);
                let result = on_small_stack(|| {
                    let options = EncodeOptions::new(version);
                    let encoded = gdvariant::encode(&value, options).map(|_| ());
                    let mut buffer = [0u8; 64];
                    let into = value
                        .encode_into(gdvariant::encoder::SliceOutput::new(&mut buffer), options)
                        .map(|_| ());
                    (encoded, into)
                });
                assert_eq!(result.0, Err(EncodeError::DepthLimit), "{what}");
                // A small fixed output fills up before the depth limit is reached.
                assert!(result.1.is_err(), "{what}");
            }
            // The deepest value Godot reads is written.
            if levels == 1026 {
                let deepest = deep_owned(shape, 1025);
                let bytes = on_small_stack(|| gdvariant::encode(&deepest, EncodeOptions::godot4()));
                let header = 0x1B + u32::from(shape == 0);
                assert!(bytes.unwrap() == nested(&SHAPES[shape], header, 1025), "shape {shape}");
            }
            // Dropping is iterative: on the small stack too.
            on_small_stack(move || drop(value));
        }
    });
}

// ------------------------------------------------------------------------------------------
// 4. String lengths near u32::MAX
// ------------------------------------------------------------------------------------------

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

// ------------------------------------------------------------------------------------------
// 5. Full objects without allow_objects
// ------------------------------------------------------------------------------------------

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

// ------------------------------------------------------------------------------------------
// 6. Real data
// ------------------------------------------------------------------------------------------

#[test]
fn the_lazy_path_allocates_nothing_on_real_data() {
    common::with_big_stack(|| {
        let (mut values, mut frames) = (0, 0);
        for version in [Version::Godot3, Version::Godot4] {
            for case in common::manifest(version) {
                let name = case["name"].as_str().unwrap().to_owned();
                let kind = case["kind"].as_str().unwrap().to_owned();
                if case["encode_failed"] == true {
                    continue;
                }
                let options = common::options_for(version, case["full_objects"] == true);
                let bytes = common::corpus(version, &name);
                let what = format!("{version:?} {name}");
                let what = what.as_str();
                let prefix = match kind.as_str() {
                    "var2bytes" | "var_to_bytes" => {
                        let (validated, prefix, walked) = lazy_results(what, &bytes, options);
                        validated.unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert_eq!(prefix, Ok(bytes.len()), "{what}");
                        assert!(walked.unwrap_or_else(|e| panic!("{what}: {e}")) >= 1);
                        values += 1;
                        continue;
                    }
                    "file_store_var" => LengthPrefix::store_var(false),
                    "streampeer_put_var" => LengthPrefix::stream_peer(false),
                    "packetpeerstream_put_var" => LengthPrefix::packet_peer_stream(),
                    other => panic!("{what}: unknown kind {other}"),
                };
                let (count, walked) = no_alloc(what, || {
                    let (mut count, mut walked) = (0, 0);
                    for frame in framing::frames(&bytes, prefix, options) {
                        let frame = frame?;
                        gdvariant::validate(frame.payload(), options)?;
                        walked += lazy_walk(frame.value())?;
                        count += 1;
                    }
                    Ok::<_, Box<dyn std::error::Error>>((count, walked))
                })
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(count, case["expected_items"].as_array().unwrap().len(), "{what}");
                assert!(walked >= count);
                frames += count;
            }
        }
        assert!(values > 290, "{values} value cases");
        assert!(frames >= 12, "{frames} frames");
    });
}
