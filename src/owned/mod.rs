//! Owned values: [`Variant`], the owned twin of [`VariantRef`](crate::VariantRef) (feature
//! `alloc`).
//!
//! A [`Variant`] holds any value of either Godot version. Getting one from bytes
//! ([`decode`](fn@crate::decode), or [`Variant::try_from`] on a [`VariantRef`](crate::VariantRef))
//! reads the whole value in one iterative pass, with the checks of
//! [`validate`](crate::validate), and allocates as it goes; no input can make it recurse, and
//! nothing is sized from a count before the bytes behind it are read. Encoding is
//! [`Variant::encode`] (see [`encode`](crate::encode)).
//!
//! What the owned form keeps, and what it normalises:
//!
//! * Values as Godot decodes them: strings after Godot's BOM and NUL handling, `int` and `float`
//!   whatever their width on the wire, and typed-container type information. Elements of typed
//!   containers are kept as they are on the wire (Godot would convert or drop mismatching ones,
//!   see [`ContainerType::admission`](crate::ContainerType::admission)).
//! * Real-valued math types and packed vector arrays hold `f64` components. A single-precision
//!   component is widened bit for bit (a signalling NaN stays signalling), so it narrows back to
//!   the same `f32` bits when encoded for a single-precision build. `float` values are Godot's
//!   own `f64` (an `f32` NaN on the wire becomes quiet, as in the engine).
//! * Dictionaries keep wire order and Godot's key semantics; see [`Dictionary`].
//! * A Godot 3 string that Godot accepts but that holds code points Rust's `str` cannot carry
//!   (surrogates, values above U+10FFFF) cannot be made owned:
//!   [`ErrorKind::NotUnicode`](crate::ErrorKind::NotUnicode).
//!
//! Costs: conversion and encoding are O(n) in the bytes of the value; [`Dictionary`] lookups
//! and inserts are O(1) expected (a hash of the key, then Godot's key comparison), apart from
//! container keys, which hash and compare in O(size of the key).

mod array;
mod dictionary;
mod from_ref;
mod key_semantics;
mod node_path;
mod object;
mod variant;

pub use array::Array;
pub use dictionary::Dictionary;
pub use from_ref::decode;
pub use node_path::NodePath;
pub use object::{Object, Signal};
pub use variant::Variant;
