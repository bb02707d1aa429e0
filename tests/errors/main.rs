//! Error behaviour of the reader on hostile and damaged input, proved against real engine bytes:
//!
//! * every truncation of real corpus values (both Godot versions) is refused by `validate`,
//!   `parse_prefix` and a full lazy walk, at the same offset, never past the cut (except the
//!   missing final padding of a `PackedByteArray`, which Godot accepts);
//! * hostile counts of every container and packed type are refused up front (no allocation, no
//!   long iteration), except the forms Godot accepts (negative `PackedStringArray` count, the
//!   masked bit 31 of Array / Dictionary counts, negative object property counts);
//! * the depth limit sits exactly where Godot's does (1025 levels decode, 1026 do not), for
//!   arrays, dictionaries nested as values and as keys, and custom limits;
//! * a megabyte of nested headers is refused with `DepthLimit` without overflowing the stack;
//! * string lengths near `u32::MAX` are `StringOverrun` at the length field;
//! * full objects are refused wherever they sit exactly when `allow_objects` is off, and
//!   object ids are always accepted;
//! * the `Error` API (`Display`, Godot error names and codes, `is_malformed`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use common::corpus;

use gdvariant::{
    Error, ErrorKind, GodotError, Options, VariantRef, VariantType, Version, view::ContainerType,
    view::ObjectRef,
};

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

fn opts(version: Version) -> Options {
    Options::new(version)
}

/// Little-endian u32 words to bytes.
fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A Godot string (length, bytes, zero padding).
fn gd_string(text: &str) -> Vec<u8> {
    let mut out = (text.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(text.as_bytes());
    while out.len() % 4 != 0 {
        out.push(0);
    }
    out
}

fn check_container_type(ty: ContainerType<'_>) -> Result<(), Error> {
    match ty {
        ContainerType::ClassName(s) | ContainerType::Script(s) => s.to_str().map(|_| ()),
        _ => Ok(()),
    }
}

/// A full lazy walk: every container is iterated through its public iterators, every string
/// (String, StringName, NodePath names and subnames, PackedStringArray elements, property
/// names, class names, signal names, container class names) is turned into a `&str`.
fn lazy_walk(value: VariantRef<'_>) -> Result<(), Error> {
    match value {
        VariantRef::String(s) | VariantRef::StringName(s) => {
            s.to_str()?;
        }
        VariantRef::Signal(signal) => {
            signal.name().to_str()?;
        }
        VariantRef::NodePath(path) => {
            for name in path.names() {
                name?.to_str()?;
            }
            for subname in path.subnames() {
                subname?.to_str()?;
            }
        }
        VariantRef::PackedStringArray(strings) => {
            for s in strings.iter() {
                s?.to_str()?;
            }
        }
        VariantRef::Array(array) => {
            check_container_type(array.element_type()?)?;
            for item in array.iter() {
                lazy_walk(item?)?;
            }
        }
        VariantRef::Dictionary(dict) => {
            check_container_type(dict.key_type()?)?;
            check_container_type(dict.value_type()?)?;
            for entry in dict.iter() {
                let (k, v) = entry?;
                lazy_walk(k)?;
                lazy_walk(v)?;
            }
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            object.class_name().to_str()?;
            for property in object.properties() {
                let (name, value) = property?;
                name.to_str()?;
                lazy_walk(value.value())?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `parse` followed by the full lazy walk.
fn lazy_all(bytes: &[u8], options: Options) -> Result<(), Error> {
    lazy_walk(gdvariant::parse(bytes, options)?)
}

mod counts;
mod depth;
mod error_api;
mod objects;
mod strings;
mod truncation;
