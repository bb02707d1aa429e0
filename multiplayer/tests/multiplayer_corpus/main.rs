//! The multiplayer packets real engines sent (`corpus/multiplayer`): every one decodes, means
//! what the receiving engine did with it (the node and method it called, with the arguments it
//! got; the node it spawned, with its state; the values it synchronized), re-encodes byte for
//! byte, and every crafted packet gets the engine's own verdict.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use common::multiplayer as corpus;
use gdvariant::{EncodeOptions, Options, Variant, owned::Object};
use gdvariant_multiplayer::godot3;
use gdvariant_multiplayer::godot4::{self, Godot4Packet, IdWidth, NodeAddress, Sys, Value, write};
use gdvariant_multiplayer::session::{Checksum, Limits, Route, Session3, Session4, SyncTarget};
use serde_json::Value as Json;

/// Godot 4 options for a record: the capture's full-object step turned
/// `allow_object_decoding` on.
fn options4(record: &Json) -> Options {
    Options::godot4().with_allow_objects(record["step"] == "rpc_full_objects")
}

/// Packets the engine wrote on its own: not crafted, and not what the server forwarded of a
/// crafted packet (the hostile steps are checked apart).
fn sent_by_the_engine(record: &Json) -> bool {
    record["injected"].is_null()
        && !record["step"].as_str().unwrap().contains("hostile")
        && record["step"] != "spawn_count_wraps"
}

/// A compressed value as an owned value.
fn owned(value: &Value<'_>, options: Options) -> Variant {
    match *value {
        Value::Bool(b) => Variant::Bool(b),
        Value::Int { value, .. } => Variant::Int(value),
        Value::Bytes(bytes) => Variant::PackedByteArray(bytes.to_vec()),
        Value::Plain(element) => gdvariant::decode(element.raw_bytes(), options).unwrap(),
    }
}

/// Whether `got` is the value an engine described (`desc` of the capture scripts: its
/// `var_to_bytes`, or for objects the instance id or class).
fn matches_description(got: &Variant, desc: &Json, version: gdvariant::Version) -> bool {
    match desc["object"].as_str() {
        Some("null") => matches!(got, Variant::Nil | Variant::Object(Object::Null)),
        Some("id") => *got == Variant::Object(Object::Id(desc["id"].as_u64().unwrap())),
        Some("full") => {
            matches!(got, Variant::Object(Object::Full(object)) if object.class == desc["class"].as_str().unwrap())
        }
        _ => {
            let options = Options::new(version).with_allow_objects(true);
            let bytes = common::unhex(desc["bytes"].as_str().unwrap());
            let expected = gdvariant::decode(&bytes, options).unwrap();
            expected.same(got)
        }
    }
}

mod godot3_captures;
mod godot3_crafted;
mod godot4_captures;
mod godot4_checksums;
mod godot4_crafted;
mod godot4_tracker;
