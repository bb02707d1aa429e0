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
//! use gdvariant::{Key, Options, VariantRef};
//!
//! // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
//! let bytes = include_bytes!("../corpus/godot4/dict_nested.bin");
//!
//! // Accept exactly what Godot accepts, in one pass, without allocating.
//! gdvariant::validate(bytes, Options::godot4())?;
//!
//! // Then look at what you need; nothing else is decoded.
//! let value = gdvariant::parse(bytes, Options::godot4())?;
//! let path = [Key::from("a"), Key::from("b"), Key::from("c"), Key::from(1)];
//! assert_eq!(value.lookup(&path)?.and_then(|v| v.as_int()), Some(2));
//!
//! let root = value.as_dictionary().expect("a dictionary");
//! for entry in root.iter() {
//!     let (key, value) = entry?;
//!     println!("{key:?}: {:?}", value.variant_type());
//! }
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! Packed arrays are slices of the input:
//!
//! ```
//! use gdvariant::{Options, VariantRef};
//!
//! // Godot 4.6: var_to_bytes(PackedFloat32Array([0, 1, -2.5, 0.1, 1e30]))
//! let bytes = include_bytes!("../corpus/godot4/packed_float32_basic.bin");
//! let VariantRef::PackedFloat32Array(floats) = gdvariant::parse(bytes, Options::godot4())? else {
//!     panic!("not a PackedFloat32Array");
//! };
//! assert_eq!(floats.len(), 5);
//! assert_eq!(floats.get(2), Some(-2.5));
//! // Always available: alignment-1 little-endian values, no copy.
//! assert_eq!(floats.as_le_slice()[1].get(), 1.0);
//! // Native `&[f32]` when the host is little-endian and the data is 4-aligned in memory.
//! if let Some(native) = floats.as_slice() {
//!     assert_eq!(native[4], 1e30);
//! }
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! Errors say what and where, and which error Godot itself reports:
//!
//! ```
//! use gdvariant::{ErrorKind, GodotError, Options, Version};
//!
//! // Godot 3.2.3: var2bytes("Héllo wörld 日本 😀!") with the last byte cut off.
//! let bytes = include_bytes!("../corpus/godot3/string_utf8_mixed.bin");
//! let cut = &bytes[..bytes.len() - 1];
//! let error = gdvariant::validate(cut, Options::godot3()).unwrap_err();
//! assert_eq!(error.offset(), 4); // the string's length field
//! assert!(matches!(error.kind(), ErrorKind::StringOverrun { declared: 26 }));
//! assert_eq!(error.godot_error(Version::Godot3), Some(GodotError::FileEof));
//! assert_eq!(error.to_string(), "string length 26 (plus padding) runs past the end of the input at byte offset 4");
//! ```
//!
//! Owned values (feature `alloc`) and encoding, byte for byte as Godot writes them:
//!
//! ```
//! use gdvariant::{EncodeOptions, Options, Variant};
//!
//! // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
//! let bytes = include_bytes!("../corpus/godot4/dict_order.bin");
//! let mut value = gdvariant::decode(bytes, Options::godot4())?;
//! let dictionary = value.as_dictionary_mut().expect("a dictionary");
//! dictionary.insert("a", 20); // an existing key keeps its place, as in Godot
//! dictionary.insert("b", Variant::Float(0.5));
//! let encoded = gdvariant::encode(&value, EncodeOptions::godot4())?;
//! let again = gdvariant::decode(&encoded, Options::godot4())?;
//! assert_eq!(again, value);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Guides
//!
//! The [`guide`] module holds the documentation beyond the API, one page per topic, every
//! example a doctest:
//!
//! * [reading](guide::reading): a quick start beyond this page; whole values in one pass
//! * [owned values and encoding](guide::owned)
//! * [strings as the game reads them](guide::strings)
//! * [typed containers as the game sees them](guide::typed_containers)
//! * [framed streams](guide::framing) (`store_var`, `put_var`)
//! * [network](guide::network) (feature `tokio`; the relay examples)
//! * [serde](guide::serde) (feature `serde`)
//! * [Godot 3 and Godot 4](guide::versions): detection; what `parse` and `validate` check
//! * [costs](guide::costs): performance, and the cost of each operation
//! * [differences from the engine](guide::differences)
//! * [security](guide::security)
//!
//! ## Which function to call
//!
//! | you want | call | cost |
//! | --- | --- | --- |
//! | a value to look into | [`parse`] | O(1) |
//! | Godot's accept/reject verdict | [`validate`] | O(n), no allocation |
//! | a value and the bytes it occupies (values back to back, relays) | [`parse_prefix`] | O(n) |
//! | an owned value you can keep and change | [`decode`], [`Variant::from_ref`]; [`decode_into`] to reuse one value's room packet after packet | O(n) |
//! | typed containers as the game holds them (Godot 4.3+) | [`Options::with_game_view`] with [`decode`] or serde; lazily [`ArrayRef::game_elements`], [`DictionaryRef::game_entries`] | O(n) plus what the game makes |
//! | bytes from an owned value | [`encode`], [`Variant::encode_into`] | O(n) |
//! | bytes built piece by piece, or a relayed subtree spliced in | [`Writer`] | O(n), no allocation |
//! | the frames of a `store_var` dump or a stream | [`framing`] | O(n) |
//! | Godot's text of a value (`var_to_str` / `var2str`) | [`text::to_text_as`], [`text::write_text_as`] (feature `alloc`) | O(n), plus sorting dictionary keys: O(n log n) |
//! | which Godot wrote some bytes, and why | [`detect()`] | O(n): two validations |
//! | a value as lossless, type-tagged JSON | [`json::to_json`], [`json::write_json`] | O(n) |
//! | a value as natural JSON (objects, numbers, math values as small objects) | [`json::to_natural_json`], [`json::write_natural_json`] | O(n) |
//! | a value by a textual path such as `players/3/pos` | [`parse_path`], then [`VariantRef::lookup`] / [`Element::lookup`] | O(path), then each step's lookup |
//! | frames from a tokio stream, UDP or WebSocket (feature `tokio`) | `net::FrameCodec`, `net::DatagramCodec`, `net::Packet::datagram` | O(frame) per frame, however the bytes arrive |
//! | statistics over a dump, or the frames of a damaged one | [`framing::FrameStats`], [`framing::scan`] | O(1) per frame / O(n), resynchronisation included |
//! | Godot's high-level multiplayer packets (RPCs, spawns, syncs, relays), sessions, captures | the separate crate `gdvariant-multiplayer` (folder `multiplayer/`), built on this one's public API | O(1) to decode, O(n) to read everything |
//!
//! ## What is checked where
//!
//! [`parse`] reads the top-level header and the value's fixed part: the type id, fixed-size
//! payloads, string lengths (and their padding), container counts and typed-container
//! information, NodePath heads, object class names (the names of classes and scripts are checked
//! as text, in O(length)). Deeper content is checked when it is
//! reached: iterating a container walks each element's structure (headers, counts, lengths,
//! depth, `allow_objects`); [`GdStr::to_str`], [`GdStr::to_text`] and [`GdStr::code_points`]
//! check text. A value that parses can therefore
//! still hold a malformed element further in. [`validate`] walks everything, including every
//! string's text, and accepts exactly the inputs that Godot's `decode_variant` accepts (with the
//! caveats listed in [the differences guide](guide::differences)). Trailing bytes after the value
//! are ignored, as in Godot ([more in the versions guide](guide::versions)).
//!
//! ## Costs
//!
//! | operation | cost |
//! | --- | --- |
//! | [`parse`] | O(1) (a full object: O(class name)) |
//! | iterate a container | O(bytes of the container) |
//! | [`ArrayRef::get`], [`DictionaryRef::get_first`] | O(bytes before the hit) |
//! | [`DictionaryRef::get`] (the last of repeated keys wins, as in Godot) | O(bytes of the dictionary) |
//! | [`DictionaryRef::get_is`] (is the value of a key this text or value, as the game reads it: the filter's question) | O(bytes of the dictionary), no allocation |
//! | [`VariantRef::is_text`] (is this string this text, as the game reads it) | O(length of the text compared with) |
//! | [`validate`], [`parse_prefix`] | O(n), iterative, 8 KiB of stack, no heap |
//! | packed `as_slice` / `as_le_slice` / `len` / `get(i)` | O(1) |
//! | [`GdStr::raw_bytes`] / [`GdStr::text_bytes`] / [`GdStr::to_str`] | O(1) / O(n) / O(n) |
//! | [`GdStr::eq_str`] (the game's text: a Godot 3 string may spell it with overlong forms) | O(length of the text compared with) |
//! | [`GdStr::code_points`] / [`GdStr::to_text`] | O(n), no allocation / O(n), allocating only to normalise overlong forms |
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
//! * `std` (default): implies `alloc`; adds the framing reader over `std::io::Read`.
//! * `alloc`: the owned [`Variant`] and [`GdString`], [`decode`] / [`encode`]; `to_vec`,
//!   `to_string_lossy`, [`GdStr::to_text`], `NodePathRef::to_text`.
//! * `serde`: `Serialize` / `Deserialize` for values, and deserializing your own types straight
//!   from the bytes (the `gdvariant::serde` module).
//! * `arbitrary`: `Arbitrary` for owned values (property tests, fuzzing).
//! * `tokio`: `gdvariant::net`, tokio-util codecs for Godot streams and datagram
//!   transports, whose items own their bytes (`bytes::Bytes`).
//!
//! Without `alloc` or `std`, the crate is `#![no_std]` and needs no allocator: the lazy reader,
//! [`validate`], the [`Writer`] and the framing iterator all work on borrowed buffers.

#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod detection;
pub mod encoder;
pub mod framing;
pub mod guide;
#[cfg(feature = "alloc")]
pub mod json;
#[cfg(feature = "tokio")]
pub mod net;
#[cfg(feature = "alloc")]
pub mod owned;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(feature = "alloc")]
pub mod text;
pub mod view;
mod wire;

// The root holds what nearly every user names: the entry points, the two value types, the
// options and the errors. Everything else has one home: the lazy view's types in `view`, the
// owned ones in `owned`, the writer's in `encoder`, math and packed types in `math` / `packed`.
#[cfg(doc)]
use view::{ArrayRef, DictionaryRef, Element, GdStr};
#[cfg(all(doc, feature = "alloc"))]
use {owned::GdString, view::parse_path};

pub use detection::detect;
#[cfg(feature = "alloc")]
pub use encoder::encode;
pub use encoder::{EncodeOptions, Writer};
#[cfg(feature = "alloc")]
pub use owned::{Variant, decode, decode_into};
pub use view::{ElementType, Key, VariantRef, game, math, packed, parse, parse_prefix, validate};
pub use wire::error::{Error, ErrorKind, GodotError, Result};
pub use wire::options::{MAX_DEPTH, Options, UnknownVersion, Version};
pub use wire::types::VariantType;
/// Counting the units of work an operation does (feature `work-counter`), for tests that prove
/// time bounds by counting instead of timing.
#[cfg(feature = "work-counter")]
pub mod work {
    pub use crate::wire::work::{add, measure};
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
