//! The lazy view: [`VariantRef`] and everything it hands out, borrowing the caller's buffer.
//!
//! A value is read on demand: [`parse`] reads one head; containers find their elements as they
//! are iterated ([`ArrayRef`], [`DictionaryRef`], [`ObjectRef`]); strings, node paths and packed
//! arrays are views of the input ([`GdStr`], [`NodePathRef`], [`crate::packed`],
//! [`crate::math`]). One iterative walk over a whole value is what [`validate`] and
//! [`parse_prefix`] run and how a container finds where an element ends. A [`Cursor`] reads a
//! whole value once as a stream of events, for consumers that visit every part of it; a `Tape`
//! (feature `alloc`) records where every part sits in one such pass, for consumers that look
//! ahead. Lookups by key, index or path ([`Key`], `parse_path`, [`FromVariant`]) are built on the
//! iterators. [`crate::game`] gives typed containers as the game sees them (Godot's
//! convert-or-drop rules), lazily.
//!
//! # What is validated where
//! * [`parse`] and every head the iterators hand out: the header, the value's fixed part, string
//!   lengths and padding, counts against the bytes that remain, typed-container information,
//!   class names (O(1), or O(name) for a full object's class).
//! * The walk ([`validate`], [`parse_prefix`], finding an element's end): every header, count,
//!   length, the depth limit and `allow_objects`; [`validate`] also checks every string's text.
//! * [`GdStr::to_str`] and friends: a string's text, when asked.
//!
//! # What it may import
//! The ground floor (bounds-checked reads, type ids, UTF-8 rules, class tables, the error and the
//! options) and nothing else of the crate. The files of this folder import each other in a loop,
//! as a recursive value type does: a value holds containers, containers hand out values. Every
//! layer above (owned values, the encoder, framing, serde, text, JSON, detection) reads bytes
//! through this view.

pub(crate) mod array;
pub(crate) mod container_type;
pub(crate) mod cursor;
pub(crate) mod dictionary;
pub(crate) mod element;
pub(crate) mod element_type;
pub(crate) mod from_variant;
pub mod game;
pub(crate) mod key;
pub mod math;
pub(crate) mod node_path;
pub(crate) mod object;
pub mod packed;
pub(crate) mod path;
pub(crate) mod signal;
pub(crate) mod string;
#[cfg(feature = "alloc")]
pub(crate) mod tape;
pub(crate) mod value;
pub(crate) mod walk;

pub use self::array::{ArrayRef, Elements};
pub use self::container_type::{Admission, ContainerType};
pub use self::cursor::{Cursor, Event, Read};
pub use self::dictionary::{DictionaryRef, Entries};
pub use self::element::Element;
pub use self::element_type::ElementType;
pub use self::from_variant::FromVariant;
pub use self::key::Key;
pub use self::node_path::{NodePathRef, NodePathStrings};
pub use self::object::{FullObject, ObjectRef, Properties};
#[cfg(feature = "alloc")]
pub use self::path::parse_path;
pub use self::path::{PathSyntaxError, PathSyntaxErrorKind};
pub use self::signal::SignalRef;
pub use self::string::GdStr;
#[cfg(feature = "alloc")]
pub use self::tape::{Children, Part, Tape};
pub use self::value::VariantRef;
use crate::wire::error::Result;
#[cfg(doc)]
use crate::wire::error::{Error, ErrorKind};
use crate::wire::options::Options;
pub use crate::wire::utf8::CodePoints;

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
#[inline]
pub fn parse_prefix(bytes: &[u8], options: Options) -> Result<Element<'_>> {
    let end = walk::walk(bytes, 0, options, 0, walk::Mode::Skip)?;
    Ok(Element::new(bytes, 0, end, options, 0))
}
