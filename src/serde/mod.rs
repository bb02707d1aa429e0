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
//! | `String`, `StringName` | `{"String": "a"}`, `{"StringName": "a"}`; a Godot 3 string holding code points Rust's `str` cannot (surrogates, values above U+10FFFF) as the sequence of its code points, `{"String": [97, 55296]}` (reading it back needs a self-describing format); NodePath names and `PackedStringArray` elements likewise |
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
//! A [`VariantRef`] (and an [`Element`](crate::view::Element)) writes exactly what the owned
//! [`Variant`] of the same value writes, straight from the buffer: no owned copy, strings as the
//! text the game reads ([`GdStr::to_text`](crate::view::GdStr::to_text): a Godot 3 string spelled
//! with overlong forms is written as the text it spells). A dictionary whose keys repeat on the
//! wire is written as Godot (and [`decode`](crate::decode)) sees it: one entry per key (keys
//! compared by code point), at its first position with its last value. A malformed element
//! met on the way is the serializer's error (`S::Error::custom`), whose message carries the byte
//! offset, reported where the lazy iterators would meet it.
//!
//! Cost: O(n log n) in the size of the value, whatever its nesting and however its keys repeat.
//! A container is first read onto a [`Tape`](crate::view::Tape) (one pass, 24 bytes per part, up to
//! the first structural problem), then written from it, each part once. Repeated keys: each
//! dictionary's keys are hashed where they lie (a container key by its type and length, O(1));
//! only when two hashes agree are the keys compared exactly, by numbers given to every value
//! inside them, equal for values Godot's key equality calls equal, given bottom-up once per part
//! of the tape (a leaf made owned and looked up among the leaves seen, an array by its
//! elements' numbers, a Godot 4 dictionary by its merged entries' numbers, sorted), so keys
//! nested in keys are not compared again at each level.
//!
//! Reading back checks the depth: a value nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH)
//! (Godot's 1024) is refused, so a hostile stream cannot make `Variant::deserialize` recurse
//! without bound (serde_json has its own recursion limit of 128 unless it is disabled). Repeated
//! keys are merged with [`Dictionary::insert`](crate::owned::Dictionary::insert)'s rules, under Godot
//! 4's key rules (keys holding objects are never merged): a dictionary decoded from Godot 3
//! bytes that held two equal dictionary keys (Godot 3 compares those by reference) comes back
//! with them merged. Unknown field names are refused.
//!
//! Stack: serde's API is recursive, so writing and reading the lossless form recurse through
//! the format once per level; the crate keeps its own frames on that path small (references
//! and indices, values written into their place). Measured on x86-64 for the deepest values
//! Godot accepts (1025 levels of arrays / of dictionaries nested as keys or values), with
//! serde_json's own share (the same serde calls with do-nothing impls) for scale:
//!
//! | 1025 levels | optimised | unoptimised | serde_json alone |
//! | --- | --- | --- | --- |
//! | `serde_json::to_vec` of a [`VariantRef`] | 232 KiB | 1.9 / 2.5 MiB | 120 KiB; 1.2 / 1.6 MiB |
//! | `serde_json::to_vec` of a [`Variant`] | 200 / 216 KiB | 1.7 / 2.3 MiB | the same |
//! | `Variant` from serde_json | 552 / 744 KiB | 2.8 / 3.9 MiB | 343 / 423 KiB; 2.1 / 2.8 MiB |
//! | `Variant` from MessagePack (rmp-serde) | 728 / 968 KiB | 7.5 / 11 MiB | |
//! | [`from_bytes`]`::<Variant>` | 23 KiB | 47 KiB | |
//!
//! So writing the deepest values into JSON fits a 256 KiB stack in an optimised build; reading
//! them back does not, because serde_json itself needs more. Give deep values a big enough
//! stack (a spawned thread has 2 MiB unless told otherwise; the main thread usually 8 MiB).
//! [`from_bytes`] into a [`Variant`] does not recurse at all (see below).
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
//! | `String`, `StringName` | `&'de str` (zero copy), `String`, `char`: the text the game reads; a Godot 3 string spelled with overlong forms has no `&'de str` in the buffer, and reads into `String` only (a `&'de str` field reports the offset and path); code points `str` cannot hold (Godot 3 surrogates, values above U+10FFFF) are `NotUnicode` (a [`Variant`] field holds them) |
//! | `NodePath` | its text (`"/root/Main:position"`; `&'de str` for a single relative name) |
//! | math types | maps with their field names, so [`math::Vector2<f32>`](crate::math::Vector2) or your own `struct V { x: f32, y: f32 }` both read; also sequences of their fields, for tuples; single-precision components exactly as on the wire |
//! | `Color` | `r`, `g`, `b`, `a` |
//! | `Array`, packed arrays | sequences (`Vec<T>`, tuples, arrays, structs by position) |
//! | `PackedByteArray` | `&'de [u8]` (zero copy) or `Vec<u8>` |
//! | `Dictionary` | maps and structs, keys read from the key values (string keys name fields by the text the game reads, so `E0 81 B4 "ype"` fills the field `type`; an int key names the field with that index, as serde reads integer identifiers) |
//! | `RID`, object id | `u64` |
//! | full object | a map of its properties |
//! | `Signal` | `{name, object_id}` |
//! | enums | a string names a unit variant, an int is a variant index, a one-entry dictionary `{variant: content}` the others |
//!
//! A dictionary key that repeats on the wire takes its **last** value, as in Godot (found as for
//! serialization, without quadratic work). Ignored fields are not read at all.
//!
//! What is checked where: [`from_bytes`] runs [`validate`](crate::validate) first, so it accepts
//! exactly what Godot accepts; a small dictionary of leaves (most packets) it checks as it reads
//! it instead, in one pass that accepts and refuses what `validate` does. [`from_variant_ref`] checks what the target type reaches, as it
//! reaches it (a malformed element or bad text is an error when it is reached, not before).
//! Either way a [`DeError`] names the path to the offending value (`pos.x`, `items[3].name`) and
//! its absolute byte offset:
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
//! Cost: O(n log n) whatever the nesting: the first container met is read onto a
//! [`Tape`](crate::view::Tape) (one pass, 24 bytes per part), and everything inside it is visited from
//! there, each part once; repeated keys are found as for serialization.
//!
//! Deserializing recurses once per level of the target type; a recursive target type (a tree,
//! `serde_json::Value`) recurses as deep as the value, at most the depth limit of the
//! [`Options`](crate::Options) the value was read with (1025 levels of arrays into
//! `serde_json::Value`: about 0.5 MiB of stack optimised, 1.5 MiB unoptimised; into
//! `struct Nested(Vec<Nested>)`, 1.9 and 4.1 MiB).
//!
//! Typed containers: read with [`Options::with_game_view`](crate::Options::with_game_view), your
//! types see what the game holds (a typed array's elements and a typed dictionary's keys
//! converted or left out, keys merged after conversion, as [`game`](crate::game) describes; a
//! converted value gives its text as an owned string, not `&'de str`); without it, the wire.
//! `Serialize` always writes the wire (decode with the game view, then serialize the
//! [`Variant`], for the game's form).
//!
//! A [`Variant`] (the whole value, or a field of your type) reads as [`decode`](crate::decode)
//! reads it: its `Deserialize` asks for a newtype struct with a private name, which this
//! deserializer answers with the value's bytes; they are decoded in one iterative pass, with no
//! recursion and no tape (other deserializers see a newtype around the lossless form). A bare
//! scalar given to [`from_variant_ref`] without its position reads as a `Variant` when it is
//! `null`, a `bool`, an `int` or a `float`; convert anything else with [`Variant::try_from`].

/// Forwards every `Deserializer` method but `deserialize_any`, `deserialize_map` and
/// `deserialize_struct` (which a deserializer over a value writes itself) to the deserializer
/// that `self.$via()` returns.
macro_rules! forward_but_maps {
    ($via:ident) => {
        forward_but_maps! {
            $via:
            deserialize_bool();
            deserialize_i8();
            deserialize_i16();
            deserialize_i32();
            deserialize_i64();
            deserialize_i128();
            deserialize_u8();
            deserialize_u16();
            deserialize_u32();
            deserialize_u64();
            deserialize_u128();
            deserialize_f32();
            deserialize_f64();
            deserialize_char();
            deserialize_str();
            deserialize_string();
            deserialize_bytes();
            deserialize_byte_buf();
            deserialize_option();
            deserialize_unit();
            deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str);
            deserialize_seq();
            deserialize_tuple(len: usize);
            deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_enum(name: &'static str, variants: &'static [&'static str]);
            deserialize_identifier();
            deserialize_ignored_any();
        }
    };
    ($via:ident: $($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: ::serde::de::Visitor<'de>>(
                self,
                $($arg: $ty,)*
                visitor: V,
            ) -> core::result::Result<V::Value, DeError> {
                self.$via().$method($($arg,)* visitor)
            }
        )*
    };
}

mod de_game;
mod de_math;
mod de_owned;
mod de_ref;
mod dedup;
mod error;
mod gd_string;
mod key_ids;
mod raw;
mod repr;
mod ser_owned;
mod ser_ref;
mod small_map;
mod source;

pub use de_ref::{VariantDeserializer, from_bytes, from_variant_ref};
pub use error::{DeError, PathSegment};

#[cfg(doc)]
use crate::{Variant, VariantRef};
