//! Typed containers as the game sees them (`Options::with_game_view`): every case of the
//! real-engine probe `corpus/probes/typed/` must decode to exactly the container Godot 4.6
//! built (its `result`, bit for bit, and its `size`), through `decode` and through serde into a
//! `Variant`. The few values that only the running game can know must be reported as such.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use gdvariant::{EncodeOptions, ErrorKind, Options, Variant, Version};
use serde_json::Value;

/// Cases whose result holds a value the running game makes (an instance id, a RID): decoding
/// them with the game view must give `ErrorKind::GameDependent`.
/// Besides these, every `Array[RID]` holding a full object to which the engine gave a RID other
/// than 0 (a new object of its class allocates one).
const GAME_DEPENDENT: &[(&str, &str)] = &[
    ("pk_t34_object_id", "the text of an object holds its run-time instance id"),
    ("str_object_nested", "the text of an object holds its run-time instance id"),
];

/// Whether the engine's result for `case` holds a value only the running game knows.
fn game_dependent(case: &Value) -> bool {
    let name = case["name"].as_str().unwrap();
    let runtime_rid = case["result"]["elem_type"] == "RID"
        && case["allow_objects"] == true
        && case["result"]["items"].as_array().unwrap().iter().any(|item| item["id"] != 0);
    runtime_rid || GAME_DEPENDENT.iter().any(|(n, _)| *n == name)
}

/// The description of an owned value in the probes' `result` shape, and its element count.
fn describe_owned(value: &Variant, allow_objects: bool) -> (Value, Option<usize>) {
    let encode = EncodeOptions::godot4().with_full_objects(allow_objects);
    let bytes = gdvariant::encode(value, encode).unwrap();
    let parsed = gdvariant::parse(&bytes, Options::godot4().with_allow_objects(allow_objects));
    let described = describe_marked(parsed.unwrap(), Version::Godot4);
    let size = match value {
        Variant::Array(array) => Some(array.len()),
        Variant::Dictionary(dictionary) => Some(dictionary.len()),
        _ => None,
    };
    (without_props(strip_markers(described)), size)
}

/// Runs every case of `file` through `read`; returns the failures and the number of cases.
fn run(
    file: &str,
    read: impl Fn(&[u8], Options) -> Result<Variant, gdvariant::Error>,
) -> (Vec<String>, usize) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes/typed").join(file);
    let cases = read_jsonl(&path);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let bytes = unhex(case["input_hex"].as_str().unwrap());
        let allow_objects = case["allow_objects"] == true;
        let options = Options::godot4().with_allow_objects(allow_objects).with_game_view(true);
        let dependent = game_dependent(case);
        match (read(&bytes, options), dependent) {
            (Err(e), true) if e.kind() == ErrorKind::GameDependent => {}
            (Ok(_), true) => failures.push(format!("{name}: decoded, but only the game can know")),
            (Err(e), _) => failures.push(format!("{name}: {e}")),
            (Ok(value), false) => {
                let (ours, size) = describe_owned(&value, allow_objects);
                let theirs = without_props(normalize(&case["result"], Version::Godot4));
                if let Some(d) = first_difference(&ours, &theirs, name) {
                    failures.push(d);
                } else if size.map(|s| s as u64) != case["size"].as_u64() {
                    failures.push(format!("{name}: size {size:?}, Godot {}", case["size"]));
                }
            }
        }
    }
    (failures, cases.len())
}

fn assert_none(failures: &[String], count: usize, at_least: usize) {
    assert!(count >= at_least, "{count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases differ:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

#[test]
fn decode_with_the_game_view_builds_what_godot_builds() {
    let (failures, count) = run("godot4.jsonl", gdvariant::decode);
    assert_none(&failures, count, 5_849);
}

#[test]
fn decode_with_the_game_view_builds_what_godot_builds_in_the_follow_up_probe() {
    let (failures, count) = run("godot4-extra.jsonl", gdvariant::decode);
    assert_none(&failures, count, 874);
}

#[test]
fn a_full_object_that_crashes_the_engine_is_game_dependent() {
    // Array[RID] holding a full Tree (allow_objects): Godot 4.6 crashes converting it
    // (`corpus/probes/typed/crashes-godot4-extra.json`, case rid_full_Tree).
    let mut bytes = vec![28, 0, 1, 0, 23, 0, 0, 0, 1, 0, 0, 0, 24, 0, 0, 0, 4, 0, 0, 0];
    bytes.extend_from_slice(b"Tree");
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    let options = Options::godot4().with_allow_objects(true);
    gdvariant::validate(&bytes, options).unwrap();
    let error = gdvariant::decode(&bytes, options.with_game_view(true)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::GameDependent);
    assert_eq!(error.offset(), 0);
    // The wire view still decodes it.
    assert!(gdvariant::decode(&bytes, options).is_ok());
}
