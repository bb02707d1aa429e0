//! Serde support (feature `serde`): two representations, for two jobs.
//!
//! ## The lossless form: `Serialize` for [`Variant`] and [`VariantRef`], `Deserialize` for [`Variant`]
//!
//! Every value keeps its Godot type, so a value written with any self-describing serde format
//! and read back is the same value ([`Variant::same`]) and encodes to the same Godot bytes. A
//! value is externally tagged with its type, the names of [`Variant`]'s variants:
//!
//! | value | written as |
//! | --- | --- |
//! | `null`, `Callable` | `"Nil"`, `"Callable"` |
//! | `bool`, `int`, `float` | `{"Bool": true}`, `{"Int": 5}`, `{"Float": 0.5}` |
//! | `String`, `StringName` | `{"String": "a"}`, `{"StringName": "a"}` |
//! | math types | their struct, field names as in [`math`](crate::math): `{"Vector2": {"x": 1.0, "y": 2.0}}`, `{"Basis": {"rows": [{"x": ..}, ..]}}`; reals as `f64` (an `f32` widened bit for bit), `Color` as `f32` |
//! | `NodePath` | `{"NodePath": {"names": [..], "subnames": [..], "absolute": false}}` |
//! | `RID` | `{"Rid": 7}` (0 for Godot 3, which writes no id) |
//! | `Object` | `{"Object": "Null"}`, `{"Object": {"Id": 5}}`, `{"Object": {"Full": {"class": "Resource", "properties": [["name", value], ..]}}}` |
//! | `Signal` | `{"Signal": {"name": "pressed", "object_id": 5}}` |
//! | `Array` | `{"Array": {"elements": [..], "element_type": ..}}`, `element_type` left out when [`ElementType::Untyped`](crate::ElementType::Untyped) |
//! | `Dictionary` | `{"Dictionary": {"entries": [[key, value], ..], "key_type": .., "value_type": ..}}`, both types left out when both are untyped; keys are any value, so entries are pairs, not a map |
//! | `PackedByteArray` | `{"PackedByteArray": bytes}` (`serialize_bytes`; an array of numbers in JSON) |
//! | other packed arrays | sequences of their elements |
//!
//! A [`VariantRef`] (and an [`Element`](crate::Element)) writes exactly what the owned
//! [`Variant`] of the same value writes, straight from the buffer: no owned copy, strings as the
//! text Godot decodes ([`GdStr::to_str`](crate::GdStr::to_str)). A
//! dictionary whose keys repeat on the wire is written as Godot (and [`decode`](crate::decode))
//! sees it: one entry per key, at its first position with its last value; finding out hashes the
//! keys first (O(n log n), no allocation up to 16 entries), and only a dictionary whose keys
//! actually collide has its keys made owned to compare them exactly. A malformed element met on
//! the way is the serializer's error (`S::Error::custom`), whose message carries the byte offset.
//! Cost: one pass over the value, plus what the lazy iterators cost: finding where each element
//! ends walks it, so a nested container is walked once more per level above it (twice per
//! dictionary level, whose keys are hashed before its entries are written).
//!
//! Reading back checks the depth: a value nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH)
//! (Godot's 1024) is refused, so a hostile stream cannot make `Variant::deserialize` recurse
//! without bound (serde_json has its own recursion limit of 128 unless it is disabled). Each
//! level costs a few stack frames, mostly the format's: reading 1000 levels takes about 1.2 MiB
//! of stack from JSON and 1.6 MiB from MessagePack in an optimised build, 6.4 MiB and 11 MiB
//! unoptimised (serde_json alone needs 5.5 MiB to read 1000 nested JSON arrays into its own
//! `Value` there); serializing 1000 levels takes under 1.1 MiB optimised and 3.5 MiB
//! unoptimised. Give deep values a big enough stack (a spawned thread has 2 MiB unless told
//! otherwise). Repeated keys are merged with
//! [`Dictionary::insert`](crate::Dictionary::insert), under Godot 4's key rules (keys holding
//! objects are never merged): a dictionary decoded from Godot 3 bytes that held two equal
//! dictionary keys (Godot 3 compares those by reference) comes back with them merged.
//! Unknown field names are refused.
//!
//! Floats: JSON has no NaN or infinity (serde_json writes `null`, which does not read back as a
//! float), so values holding them round-trip only through formats that carry every float bit,
//! such as MessagePack or CBOR (CBOR via ciborium turns an `f32` signalling NaN into a quiet one).
//! Formats that read structs by position work when they accept a short struct (MessagePack);
//! ones that need every field (postcard, bincode) cannot read an untyped array or dictionary.
//!
//! ```
//! use gdvariant::{Options, Variant};
//!
//! // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
//! let bytes = include_bytes!("../../corpus/godot4/dict_order.bin");
//! let value = gdvariant::parse(bytes, Options::godot4())?;
//! let json = serde_json::to_string(&value)?;
//! assert_eq!(
//!     json,
//!     r#"{"Dictionary":{"entries":[[{"String":"z"},{"Int":1}],[{"String":"a"},{"Int":2}],[{"String":"m"},{"Int":3}]]}}"#
//! );
//! let owned: Variant = serde_json::from_str(&json)?;
//! assert!(owned.same(&gdvariant::decode(bytes, Options::godot4())?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The natural mapping: [`from_bytes`] and [`from_variant_ref`] into your own types
//!
//! [`VariantDeserializer`] reads a value into any `Deserialize` type, the way the value reads in
//! GDScript, borrowing what it can from the buffer:
//!
//! | Godot | Rust |
//! | --- | --- |
//! | `null` (and a null object) | `()`, `None` (anything else is `Some`) |
//! | `bool`, `int`, `float` | `bool`; any integer type (range-checked: `300` is not a `u8`); `f64`, `f32` |
//! | `String`, `StringName` | `&'de str` (zero copy), `String`, `char` |
//! | `NodePath` | its text (`"/root/Main:position"`; `&'de str` for a single relative name) |
//! | math types | maps with their field names, so [`math::Vector2<f32>`](crate::math::Vector2) or your own `struct V { x: f32, y: f32 }` both read; also sequences of their fields, for tuples; single-precision components exactly as on the wire |
//! | `Color` | `r`, `g`, `b`, `a` |
//! | `Array`, packed arrays | sequences (`Vec<T>`, tuples, arrays, structs by position) |
//! | `PackedByteArray` | `&'de [u8]` (zero copy) or `Vec<u8>` |
//! | `Dictionary` | maps and structs, keys read from the key values (string keys name fields; an int key names the field with that index, as serde reads integer identifiers) |
//! | `RID`, object id | `u64` |
//! | full object | a map of its properties |
//! | `Signal` | `{name, object_id}` |
//! | enums | a string names a unit variant, an int is a variant index, a one-entry dictionary `{variant: content}` the others |
//!
//! A dictionary key that repeats on the wire takes its **last** value, as in Godot (found as for
//! serialization, without quadratic work). Ignored fields are not read at all.
//!
//! What is checked where: [`from_bytes`] runs [`validate`](crate::validate) first, so it accepts
//! exactly what Godot accepts, then reads lazily. [`from_variant_ref`] reads only what the target
//! type asks for, and checks it as it goes (a malformed element or bad text is an error when it
//! is reached). Either way a [`DeError`] names the path to the offending value (`pos.x`,
//! `items[3].name`) and its absolute byte offset:
//!
//! ```
//! use gdvariant::Options;
//! use serde::Deserialize;
//!
//! #[derive(Debug, Deserialize)]
//! struct Order {
//!     z: u8,
//!     a: bool,
//! }
//!
//! // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
//! let bytes = include_bytes!("../../corpus/godot4/dict_order.bin");
//! let error = gdvariant::serde::from_bytes::<Order>(bytes, Options::godot4()).unwrap_err();
//! assert_eq!(error.path(), "a");
//! assert_eq!(error.to_string(), "invalid type: integer `2`, expected a boolean at a (byte offset 40)");
//! ```
//!
//! Deserializing recurses once per level of the target type; a recursive target type (a tree,
//! `serde_json::Value`) recurses as deep as the value, at most the depth limit of the
//! [`Options`](crate::Options) the value was read with (1000 levels into `serde_json::Value`:
//! about 0.8 MiB of stack optimised, 2.8 MiB unoptimised).
//!
//! [`Variant`]'s own `Deserialize` reads the lossless form, not this mapping, so a field of type
//! `Variant` does not read from Godot bytes: look such a value up in the lazy view
//! ([`DictionaryRef::get`](crate::DictionaryRef::get)) and convert it with
//! [`Variant::try_from`].

mod de_math;
mod de_owned;
mod de_ref;
mod dedup;
mod error;
mod key_ids;
mod raw;
mod repr;
mod ser_owned;
mod ser_ref;
mod source;

pub use de_ref::{VariantDeserializer, from_bytes, from_variant_ref};
pub use error::{DeError, PathSegment};

#[cfg(doc)]
use crate::{Variant, VariantRef};
