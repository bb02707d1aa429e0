//! Writing values in Godot's format, byte for byte as Godot writes them.
//!
//! Two ways in:
//!
//! * [`encode`](fn@crate::encode) / [`Variant::encode`](crate::Variant::encode) (feature `alloc`):
//!   an owned [`Variant`](crate::Variant) to bytes.
//! * [`Writer`]: a streaming builder that writes each value as it is given, containers count
//!   first, straight into an [`Output`] (a `Vec<u8>`, or a fixed `&mut [u8]` through
//!   [`SliceOutput`]). It takes borrowed strings and packed slices without copying them first,
//!   and can [`splice`](Writer::splice) the exact bytes of an [`Element`](crate::view::Element) read
//!   from another buffer (a relay forwarding a subtree). It needs no allocator.
//!
//! Godot's encoder rules, all followed here: an `int` takes 32 bits unless it does not fit, then
//! 64 with header bit 16; a `float` takes 32 bits exactly when converting it to `f32` and back
//! gives the same value (so `0.1` and every NaN take 64); strings are padded with zeros to 4
//! bytes; a `PackedStringArray` element's length counts a trailing NUL; a null object is written
//! as `Nil`; typed containers get their type information, and without
//! [`full_objects`](EncodeOptions::with_full_objects) a class- or script-typed container declares
//! the class `"EncodedObjectAsID"`; values nest at most [`MAX_DEPTH`](crate::MAX_DEPTH) deep. A
//! type that does not exist in the target version is an error, never a silent conversion.
//!
//! Costs: O(bytes written); the [`Writer`] keeps 8 bytes of bookkeeping per container it can
//! hold open (8 KiB by default, less with [`Writer::with_nesting`]), zeroed when it is made
//! and moved by [`finish`](Writer::finish), and allocates nothing; encoding an owned value keeps
//! one iterator per open container. A `Vec<u8>` output grows as needed (amortised O(1) per
//! byte); nothing is measured ahead.

mod error;
mod options;
mod output;
#[cfg(feature = "alloc")]
mod variant;
mod writer;

pub use error::EncodeError;
pub use options::EncodeOptions;
pub use output::{Output, SliceOutput};
#[cfg(feature = "alloc")]
pub use variant::encode;
#[cfg(feature = "arbitrary")]
pub(crate) use writer::ENCODED_OBJECT_AS_ID;
pub use writer::{DEFAULT_NESTING, Real, Writer};
