//! Every case of the real-engine corpora (Godot 3.2.3 and Godot 4.6): encoder output decodes to
//! the value Godot recorded, stream captures decode frame by frame, and every crafted input gets
//! Godot's own verdict (and error code).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use gdvariant::Version;
use serde_json::Value;

const VERSIONS: [Version; 2] = [Version::Godot3, Version::Godot4];

fn is_value_case(case: &Value) -> bool {
    matches!(case["kind"].as_str(), Some("var2bytes" | "var_to_bytes"))
}

/// Decodes one encoded value and compares it with Godot's description; returns a failure.
fn check_value(
    version: Version,
    name: &str,
    bytes: &[u8],
    allow_objects: bool,
    expected: &Value,
) -> Option<String> {
    let options = options_for(version, allow_objects);
    if let Err(e) = gdvariant::validate(bytes, options) {
        return Some(format!("{name}: validate failed: {e}"));
    }
    let element = match gdvariant::parse_prefix(bytes, options) {
        Ok(element) => element,
        Err(e) => return Some(format!("{name}: parse_prefix failed: {e}")),
    };
    if element.len() != bytes.len() {
        return Some(format!("{name}: value occupies {} of {} bytes", element.len(), bytes.len()));
    }
    let value = gdvariant::parse(bytes, options).unwrap();
    let ours = describe(value, version);
    let theirs = normalize(expected, version);
    first_difference(&ours, &theirs, name)
}

#[test]
fn every_encoded_value_decodes_to_godots_value() {
    let failures = with_big_stack(|| {
        let mut failures = Vec::new();
        let mut checked = 0;
        let mut sample = MiriSample::default();
        for version in VERSIONS {
            for case in manifest(version).iter().filter(|c| is_value_case(c)) {
                let name = case["name"].as_str().unwrap().to_owned();
                if case["encode_failed"] == true || sample.skips(version, case) {
                    continue;
                }
                let bytes = std::fs::read(corpus_dir(version).join(format!("{name}.bin"))).unwrap();
                let full_objects = case["full_objects"] == true;
                if std::env::var_os("CORPUS_TRACE").is_some() {
                    eprintln!("{version:?} {name}");
                }
                let expected = expected_value(version, case);
                if let Some(f) = check_value(version, &name, &bytes, full_objects, &expected) {
                    failures.push(format!("{version:?} {f}"));
                }
                checked += 1;
            }
        }
        // Under Miri: one case of each of the 27 + 39 types.
        let expected = if cfg!(miri) { 66 } else { 281 };
        assert!(checked >= expected, "only {checked} cases found");
        failures
    });
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_stream_decodes_frame_by_frame() {
    let mut streams = 0;
    for version in VERSIONS {
        for case in manifest(version).iter().filter(|c| !is_value_case(c)) {
            let name = case["name"].as_str().unwrap();
            let bytes = std::fs::read(corpus_dir(version).join(format!("{name}.bin"))).unwrap();
            let items = case["expected_items"].as_array().unwrap();
            let sizes = case["item_encoded_sizes"].as_array().unwrap();
            let full_objects = case["full_objects"] == true;
            let mut pos = 0;
            for (i, (item, size)) in items.iter().zip(sizes).enumerate() {
                let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
                assert_eq!(len as u64, size.as_u64().unwrap(), "{name} frame {i} length");
                let frame = &bytes[pos + 4..pos + 4 + len];
                let failure =
                    check_value(version, &format!("{name}[{i}]"), frame, full_objects, item);
                assert!(failure.is_none(), "{version:?} {}", failure.unwrap());
                pos += 4 + len;
            }
            assert_eq!(pos, bytes.len(), "{name}: bytes after the last frame");
            streams += 1;
        }
    }
    assert!(streams >= 6, "three stream kinds per engine, found {streams} streams");
}

#[test]
fn every_crafted_input_gets_godots_verdict() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for version in VERSIONS {
        for case in read_jsonl(&corpus_dir(version).join("decode.jsonl")) {
            if let Some(f) = check_verdict(version, &case) {
                failures.push(format!("{version:?} {f}"));
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 58 + 28);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
