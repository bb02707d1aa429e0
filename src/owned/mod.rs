//! Owned values: [`Variant`], the owned twin of [`VariantRef`](crate::VariantRef) (feature
//! `alloc`).
//!
//! A [`Variant`] holds any value of either Godot version. Getting one from bytes
//! ([`decode`](fn@crate::decode), or [`Variant::try_from`] on a [`VariantRef`](crate::VariantRef))
//! reads the whole value in one iterative pass, with the checks of [`validate`](crate::validate),
//! sizing every container once from its count (running [`validate`](crate::validate)'s walk first
//! when the room reserved that way could be more than the bytes hold); no input can make it
//! recurse. Encoding is [`Variant::encode`] (see [`encode`](crate::encode)).
//!
//! What the owned form keeps, and what it normalises:
//!
//! * Values as Godot decodes them: strings after Godot's BOM and NUL handling, `int` and `float`
//!   whatever their width on the wire, and typed-container type information. Elements of typed
//!   containers are kept as they are on the wire (Godot would convert or drop mismatching ones,
//!   see [`ContainerType::admission`](crate::view::ContainerType::admission)), unless the value is
//!   read with [`Options::with_game_view`](crate::Options::with_game_view): then typed
//!   containers hold what the game holds (`game/`; the rules in [`game`](crate::game)).
//! * Real-valued math types and packed vector arrays hold `f64` components. A single-precision
//!   component is widened bit for bit (a signalling NaN stays signalling), so it narrows back to
//!   the same `f32` bits when encoded for a single-precision build. `float` values are Godot's
//!   own `f64` (an `f32` NaN on the wire becomes quiet, as in the engine).
//! * Dictionaries keep wire order and Godot's key semantics; see [`Dictionary`].
//! * Strings (`String`, `StringName`, NodePath names, `PackedStringArray` elements) are
//!   [`GdString`]s, the code points the game holds: a Godot 3 string spelled with overlong forms
//!   is normalised (`E0 81 B4` is `t`), and one holding code points Rust's `str` cannot carry
//!   (surrogates, values above U+10FFFF) keeps them. Class names, property names, signal names
//!   and script paths stay Rust `String`s: a Godot 3 class or property name holding such code
//!   points cannot be made owned ([`ErrorKind::NotUnicode`](crate::ErrorKind::NotUnicode)).
//!
//! Costs: conversion and encoding are O(n) in the bytes of the value; conversion allocates at
//! most 32 bytes per input byte (`decode`'s docs), 192 with the game view (what the game makes of
//! a value can be larger than its bytes). A [`Dictionary`] keeps a hash of each of its
//! keys, computed once when the key goes in from the hashes of what the key holds (a nested
//! dictionary's keys are not hashed again), so lookups and inserts are O(1) expected after the
//! key's hash (O(size of the key)), plus one comparison with the key that matches (O(size of the
//! key), comparing no pair of nested containers twice). Cloning, `==`, [`Variant::same`],
//! `Debug` and dropping are O(n) and need no deep call stack (dropping recurses at most 8 levels,
//! then walks, and allocates nothing; full objects nested directly in full objects excepted:
//! they drop one call per level). So every owned operation on
//! hostile input is linear, and the deepest values Godot accepts need no deep call stack
//! (`tests/owned_bounds.rs`).
//!
//! ## Arbitrary values (feature `arbitrary`)
//!
//! `Variant::arbitrary_for(u, options)` (and the same function on [`Array`], [`Dictionary`] and
//! [`Object`]) turns `arbitrary` input bytes into a value that Godot round-trips under an
//! [`EncodeOptions`](crate::EncodeOptions): [`encode`](crate::encode) writes it, and
//! [`decode`](fn@crate::decode) with the same version (and `allow_objects` as the options'
//! `full_objects`) reads back a value [`same`](Variant::same) as it, bit for bit. The plain
//! `Arbitrary` impls of [`Variant`], [`Array`], [`Dictionary`] and [`Object`] are
//! `arbitrary_for(u, EncodeOptions::godot4())`: Godot 4, single precision, no full objects. The
//! math structs, [`VariantType`](crate::VariantType), [`ElementType`](crate::ElementType),
//! [`NodePath`] and [`Signal`] derive `Arbitrary` (any components, any type), the strings of a
//! `NodePath` and a `Signal` following the string rule below. The feature needs `std` (the
//! `arbitrary` crate does).
//!
//! Size: nesting is at most `Variant::ARBITRARY_MAX_DEPTH` (6) levels below the generated value,
//! and never past the options' depth limit; deeper positions get values that hold no others
//! (containers there are empty). One value holds at most 100 values in all, a container at most
//! 8, a packed array at most 16 elements, a string at most 16 characters. Running out of input
//! gives smaller values, never an error.
//!
//! What is never generated, because it would not come back the same:
//!
//! * Strings (values, keys, names, class names, packed strings) containing `\0` or starting with
//!   U+FEFF: Godot's decoder cuts the text at the first NUL and strips a leading byte order
//!   mark.
//! * `Object::Null` (Godot writes a null object as `Nil`, which reads back as
//!   [`Variant::Nil`]) and `Object::Id(0)` (id 0 reads back as a null object).
//! * Full objects without full objects, or of a class the version's decoder cannot instantiate
//!   (the engines' own lists); in Godot 4, a `script` property other than `Nil` or a `res://`
//!   path.
//! * Types the version lacks; in Godot 3, typed containers and RID ids (`Rid(0)` only: Godot 3
//!   puts no id on the wire).
//! * Real components of math types and packed vector arrays that are not `f32` values (widened
//!   bit for bit, NaN payloads included), unless the options ask for
//!   [`Precision::Double`](crate::math::Precision::Double) in Godot 4; then they are any `f64`.
//!   `float`, `Color` and `PackedFloat32Array` values are any bits.
//! * Typed containers Godot does not write: `Builtin(Nil)` (written as untyped),
//!   `Builtin(Object)` (Godot types object containers by class), and without full objects any
//!   class or script other than `"EncodedObjectAsID"` (what Godot writes and reads back then).
//!   With full objects a container names an instantiable class or a made-up `res://` script
//!   path. Elements, keys and values match the declared type, so Godot keeps them as they are:
//!   `Nil` or objects for class- and script-typed containers (instance ids without full
//!   objects; with them, full objects of the class or carrying the script).
//! * Dictionary keys that are equal under the version's key equality as a program sees it
//!   (Godot 4: `1` and `1.0` differ, `"a"` and `&"a"` do not, all NaNs are one key; Godot 3:
//!   dictionaries as keys compare by reference): a repeated key replaces the value, as
//!   `d[k] = v` does.
//!
//! What only this crate can check: a made-up script path must exist in the game for Godot to
//! load it, and Godot sets a full object's properties by name, keeping only those its class
//! has; this crate's decoder keeps every property.

#[cfg(feature = "arbitrary")]
mod arbitrary;
mod array;
mod debug;
mod deep;
mod dictionary;
mod dismantle;
mod from_ref;
pub(crate) mod key_hash;
pub(crate) mod key_semantics;
mod lookup;
mod node_path;
mod object;
mod string;
pub(crate) mod typed;
mod variant;

pub use array::Array;
pub use dictionary::Dictionary;
pub use from_ref::{decode, decode_into};
pub use lookup::LookupKey;
pub use node_path::NodePath;
pub use object::{FullObject, Object, Signal};
pub use string::GdString;
pub use variant::Variant;
