//! Serde support on real engine bytes: the borrowed and the owned serializers agree on every
//! corpus case of both engines, owned values round-trip through MessagePack bit for bit (and
//! through JSON when they hold no NaN or infinity), your own types read straight from the bytes
//! (borrowing), errors name the path and the byte offset, repeated keys behave as in Godot, and
//! 1000-level values fit an ordinary 8 MiB stack.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use std::collections::{BTreeMap, HashMap};

use common::*;
use gdvariant::math::{Basis, Color, Rect2, Transform3D, Vector2, Vector3};
use gdvariant::serde::{DeError, PathSegment, from_bytes, from_variant_ref};
use gdvariant::{EncodeOptions, ErrorKind, Options, Variant, Version, Writer};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

/// Runs `f` on a thread with the 8 MiB stack of a program's main thread (test threads get 2 MiB).
fn on_8_mib_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(8 << 20).spawn(f).unwrap().join().unwrap()
}

/// A value case of a corpus: its name, bytes and options.
struct Case {
    version: Version,
    name: String,
    bytes: Vec<u8>,
    full_objects: bool,
}

impl Case {
    fn options(&self) -> Options {
        Options::new(self.version).with_allow_objects(self.full_objects)
    }

    fn encode_options(&self) -> EncodeOptions {
        EncodeOptions::new(self.version).with_full_objects(self.full_objects)
    }
}

/// Every value case of both corpora that Godot encoded.
fn value_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for version in VERSIONS {
        for case in manifest(version) {
            if !matches!(case["kind"].as_str(), Some("var2bytes" | "var_to_bytes"))
                || case["encode_failed"] == Value::Bool(true)
            {
                continue;
            }
            let name = case["name"].as_str().unwrap().to_string();
            cases.push(Case {
                version,
                bytes: corpus(version, &name),
                name,
                full_objects: case["full_objects"] == Value::Bool(true),
            });
        }
    }
    assert!(cases.len() > 290, "only {} value cases", cases.len());
    cases
}

/// Reads JSON with no recursion limit (the depth limit of `Variant` still applies).
fn variant_from_json(text: &str) -> Result<Variant, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    Variant::deserialize(&mut deserializer)
}

/// Reads MessagePack with no recursion limit of its own.
fn variant_from_msgpack(bytes: &[u8]) -> Result<Variant, rmp_serde::decode::Error> {
    let mut deserializer = rmp_serde::Deserializer::from_read_ref(bytes);
    deserializer.set_max_depth(usize::MAX);
    Variant::deserialize(&mut deserializer)
}

fn contains_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(contains_null),
        Value::Object(map) => map.values().any(contains_null),
        _ => false,
    }
}

mod errors;
mod godot_types;
mod limits;
mod lossless;
mod one_pass;
mod repeated_keys;
mod structs;
mod support;

use support::*;
