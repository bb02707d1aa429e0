//! # gdvariant
//!
//! A zero-copy reader for Godot Engine's Variant binary serialization: the bytes of
//! `var_to_bytes` / `var2bytes`, `FileAccess.store_var`, `StreamPeer.put_var`,
//! `PacketPeer.put_var` and multiplayer RPC arguments, for Godot 3.x and Godot 4.x.
//!
//! Built for servers that inspect packets from untrusted clients, tools that scan large dumps,
//! and fuzzers: nothing is copied, nothing is allocated, nothing is decoded before it is asked
//! for, and no input can make it panic, recurse without bound, or allocate from a count.
//!
//! ## Quick start
//!
//! ```
//! use gdvariant::{Options, VariantRef};
//!
//! // Godot 4.6: var_to_bytes({"a": 1, "b": [true, "x"], "c": Vector2(1.5, -2)})
//! let bytes = include_bytes!("../corpus/godot4/dict_simple.bin");
//! let value = gdvariant::parse(bytes, Options::godot4())?;
//! let dict = value.as_dictionary().expect("a dictionary");
//! assert_eq!(dict.get_as::<i64>("a")?, Some(1));
//! for entry in dict.iter() {
//!     let (key, value) = entry?;
//!     println!("{key:?} = {:?}", value.variant_type());
//! }
//! // Accept exactly what Godot accepts, in one pass without allocating:
//! gdvariant::validate(bytes, Options::godot4())?;
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! ## Which function to call
//!
//! | you want | call | cost |
//! | --- | --- | --- |
//! | a value to look into | [`parse`] | O(1) |
//! | Godot's accept/reject verdict | [`validate`] | O(n), no allocation |
//! | a value and the bytes it occupies (values back to back, relays) | [`parse_prefix`] | O(n) |
//!
//! ## What is checked where
//!
//! [`parse`] reads the top-level header and the value's fixed part: the type id, fixed-size
//! payloads, string lengths (and their padding), container counts and typed-container
//! information, NodePath heads, object class names. Deeper content is checked when it is
//! reached: iterating a container walks each element's structure (headers, counts, lengths,
//! depth, `allow_objects`); [`GdStr::to_str`] checks text. A value that parses can therefore
//! still hold a malformed element further in. [`validate`] walks everything, including every
//! string's text, and accepts exactly the inputs that Godot's `decode_variant` accepts (with the
//! caveats listed in the README). Trailing bytes after the value are ignored, as in Godot.
//!
//! ## Costs
//!
//! | operation | cost |
//! | --- | --- |
//! | [`parse`] | O(1) (a full object: O(class name)) |
//! | iterate a container | O(bytes of the container) |
//! | [`ArrayRef::get`], [`DictionaryRef::get_first`] | O(bytes before the hit) |
//! | [`DictionaryRef::get`] (the last of repeated keys wins, as in Godot) | O(bytes of the dictionary) |
//! | [`validate`], [`parse_prefix`] | O(n), iterative, 8 KiB of stack, no heap |
//! | packed `as_slice` / `as_le_slice` / `len` / `get(i)` | O(1) |
//! | [`GdStr::raw_bytes`] / [`GdStr::text_bytes`] / [`GdStr::to_str`] | O(1) / O(n) / O(n) |
//!
//! Iterating nested containers re-walks each inner container once per level above it; for a
//! whole-tree pass, [`validate`] is the one-pass walk.
//!
//! ## Safety
//!
//! `#![forbid(unsafe_code)]`. Every read goes through one bounds-checked module; counts are
//! checked against the remaining bytes before anything depends on them; the walk keeps its
//! stack in a fixed array, so nesting is bounded by [`Options::max_depth`] (at most
//! [`MAX_DEPTH`], Godot's 1024). Errors carry the absolute byte offset of the problem.
//!
//! ## Features
//!
//! * `std` (default): implies `alloc`.
//! * `alloc`: `to_vec`, `to_string_lossy`, `NodePathRef::to_text`.
//!
//! Without either, the crate is `#![no_std]` and needs no allocator.

#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod array;
mod classes;
mod container_type;
mod dictionary;
mod element;
mod error;
mod from_variant;
mod key;
pub mod math;
mod node_path;
mod object;
mod options;
pub mod packed;
mod path;
mod signal;
mod string;
mod types;
mod utf8;
mod value;
mod walk;
mod wire;

pub use array::{ArrayRef, Elements};
pub use container_type::ContainerType;
pub use dictionary::{DictionaryRef, Entries};
pub use element::Element;
pub use error::{Error, ErrorKind, GodotError, Result};
pub use from_variant::FromVariant;
pub use key::Key;
pub use math::{Color, Precision, Reals};
pub use node_path::{NodePathRef, NodePathStrings};
pub use object::{FullObject, ObjectRef, Properties};
pub use options::{MAX_DEPTH, Options, Version};
pub use packed::{Packed, PackedReals, PackedStrings};
pub use signal::SignalRef;
pub use string::GdStr;
pub use types::VariantType;
pub use value::VariantRef;

/// Reads the head of the value at the start of `bytes`. O(1), no allocation.
///
/// Checks the header and the value's fixed part (see the crate docs); what lies inside is read
/// and checked when the caller reaches it. Bytes after the value are ignored.
///
/// # Errors
/// The first problem in the header or fixed part: [`ErrorKind::Truncated`],
/// [`ErrorKind::UnknownType`], [`ErrorKind::StringOverrun`], [`ErrorKind::BadCount`],
/// [`ErrorKind::ObjectsNotAllowed`], [`ErrorKind::UnknownClass`], ...
pub fn parse(bytes: &[u8], options: Options) -> Result<VariantRef<'_>> {
    value::parse_head(bytes, 0, options, 0).map(|(value, _)| value)
}

/// Checks that Godot's decoder accepts `bytes`, in one iterative pass over the whole value with
/// no allocation; O(n). Bytes after the value are ignored, as in Godot.
///
/// # Errors
/// The first problem found, with its absolute offset; [`Error::godot_error`] gives the error
/// Godot reports for it.
pub fn validate(bytes: &[u8], options: Options) -> Result<()> {
    walk::walk(bytes, 0, options, 0, walk::Mode::Validate).map(|_| ())
}

/// Reads the value at the start of `bytes` and finds where it ends, for values stored back to
/// back. Walks the value's structure (not its text): O(n), no allocation.
///
/// The returned [`Element`] gives the value, its length ([`Element::len`]) and its exact bytes.
/// A final `PackedByteArray` may lack its padding (Godot accepts that); the length then stops
/// at the end of `bytes`.
///
/// # Errors
/// The first structural problem, as in [`parse`] and container iteration.
pub fn parse_prefix(bytes: &[u8], options: Options) -> Result<Element<'_>> {
    walk::walk(bytes, 0, options, 0, walk::Mode::Skip)
}

impl<'a> VariantRef<'a> {
    /// Follows `path` (see [`Element::lookup`]) from this value.
    ///
    /// # Errors
    /// As [`Element::lookup`]; a wrong-type error on this value itself carries the offset of
    /// the container, or 0 for a scalar.
    pub fn lookup(&self, path: &[Key<'_>]) -> Result<Option<VariantRef<'a>>> {
        let offset = match self {
            VariantRef::Array(a) => a.offset(),
            VariantRef::Dictionary(d) => d.offset(),
            _ => 0,
        };
        let start = Element::new(&[], offset, offset, *self);
        Ok(start.lookup(path)?.map(|e| e.value()))
    }
}
