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
const GAME_DEPENDENT: &[(&str, &str)] = &[
    ("pk_t34_object_id", "the text of an object holds its run-time instance id"),
    ("arr_t23_allowed_full_ImageTexture", "a new ImageTexture allocates a RID"),
    ("arr_t23_allowed_full_PlaceholderTexture2D", "a new PlaceholderTexture2D allocates a RID"),
];

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
        let dependent = GAME_DEPENDENT.iter().any(|(n, _)| *n == name);
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
