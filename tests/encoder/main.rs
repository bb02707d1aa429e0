//! The encoder against the real engines' bytes, and its rules and errors.
//!
//! Values are built with the [`Writer`] directly, by hand or from what Godot reported for each
//! corpus case (its `expected` description, not this crate's decoder), and must reproduce the
//! corpus files byte for byte (NodePath string padding aside: Godot leaves it uninitialised, the
//! encoder writes zeros). Then the width rules of `int` and `float` at their boundaries, the
//! version checks, depth, the writer's count bookkeeping, splicing elements of other buffers,
//! and the precision option.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../common/mod.rs"]
mod common;

use common::{
    corpus, expected_value, manifest, unhex, with_big_stack, with_zeroed_node_path_padding,
};
use gdvariant::math::{
    Aabb, Basis, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2, Vector3,
    Vector4,
};
use gdvariant::{
    ElementType, EncodeOptions, Options, Variant, VariantRef, VariantType, Version, Writer,
    encoder::EncodeError, math::Color, math::Precision, owned::Array, owned::Dictionary,
    owned::Object, owned::Signal,
};
use serde_json::Value;

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

type W = Writer<Vec<u8>>;
type Step = Result<(), EncodeError>;

/// The bytes `build` writes under `options`; panics on any error.
fn write(options: EncodeOptions, build: impl FnOnce(&mut W) -> Step) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), options);
    build(&mut writer).unwrap_or_else(|e| panic!("writing failed: {e}"));
    writer.finish().unwrap_or_else(|e| panic!("finish failed: {e}"))
}

/// The first error of `build`, then of `finish`; panics when there is none.
fn write_err(options: EncodeOptions, build: impl FnOnce(&mut W) -> Step) -> EncodeError {
    let mut writer = Writer::new(Vec::new(), options);
    match build(&mut writer) {
        Err(e) => e,
        Ok(()) => writer.finish().expect_err("an error"),
    }
}

/// Corpus case `name` with the padding of its NodePath strings zeroed.
fn corpus_bytes(version: Version, name: &str, allow_objects: bool) -> Vec<u8> {
    let options = Options::new(version).with_allow_objects(allow_objects);
    with_zeroed_node_path_padding(&corpus(version, name), options)
}

/// Checks that `build` writes corpus case `name` of `version`.
fn assert_case(
    version: Version,
    name: &str,
    full_objects: bool,
    build: impl FnOnce(&mut W) -> Step,
) {
    let ours = write(EncodeOptions::new(version).with_full_objects(full_objects), build);
    let theirs = corpus_bytes(version, name, full_objects);
    assert_eq!(hex::encode(&ours), hex::encode(&theirs), "{version:?} {name}");
}

/// [`assert_case`] in both versions.
fn assert_both(name: &str, build: impl Fn(&mut W) -> Step) {
    for version in VERSIONS {
        assert_case(version, name, false, &build);
    }
}

mod by_hand;
mod counts;
mod depth;
mod described;
mod precision;
mod splicing;
mod versions;
mod widths;
