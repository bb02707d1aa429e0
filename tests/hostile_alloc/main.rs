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
//!    byte plus 1 KiB: past that (a lying count, or a dense value), and past 8 levels of nesting, it runs
//!    the validating walk over the whole value first (no allocation), after which every count
//!    is true and its own stack of open containers is sized once from the value's depth (40
//!    bytes a level). What remains is what the value holds, plus at most 2 bytes per input byte and 1 KiB
//!    reserved for elements that are not there: about 26 bytes per input byte for flat data (an
//!    empty dictionary is a 32-byte `Variant` and a 176-byte box, which holds the hashes of up
//!    to 8 keys, for 8 input bytes; an entry 64 bytes), and up to 30 for the densest inputs
//!    found (measured: 17 for 1025 nested arrays, 24 for 1025 dictionaries nested as keys or as
//!    values, 24.7 for a 1024-deep key decoded twice into one dictionary, 29.7 for a dictionary
//!    of 4000 repeated `{}: {}` entries, whose 4000 slots and key hashes are reserved before the
//!    repeats collapse). The densest flat inputs of every container kind
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
//!    accepted everywhere either way. (`tests/errors/` covers the plain positions without
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
    assert_eq!(value.unwrap(), Variant::from(Array::from(vec![Variant::Int(5)])));
    assert!(info.bytes_total >= 64, "{info:?}");
}

mod counts;
mod inputs;
mod nesting;
mod objects;
mod real_data;
mod strings;
mod walk;

use inputs::*;
use walk::*;
