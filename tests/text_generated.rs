//! `gdvariant::text` against the engines' text of seeded random values (`corpus/text/`): every
//! case's bytes, and the engine's own encoding of the decoded value, must print exactly as Godot
//! 3.2.3 (`var2str`) or Godot 4.6 (`var_to_str`) printed the value, except the few cases listed
//! below with the reason.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::path::Path;

use gdvariant::{Options, Version};
use serde_json::Value;

use Version::{Godot3 as G3, Godot4 as G4};

/// Cases whose text is not reproduced, and why. The test fails if one of them starts to match
/// (it then belongs with the others).
const EXCEPTIONS: &[(Version, &str, &str)] = &[
    (G3, "utf8_0000", NOT_UNICODE),
    (G3, "utf8_0001", NOT_UNICODE),
    (G3, "utf8_0002", NOT_UNICODE),
    (G3, "utf8_0003", NOT_UNICODE),
    (G3, "utf8_0004", NOT_UNICODE),
    (G3, "utf8_0005", NOT_UNICODE),
    (G3, "utf8_0010", NOT_UNICODE),
    (
        G4,
        "objects_scripted_typed_dictionary",
        "Godot 4 prints a typed dictionary's script type as the script's native base class \
         (RefCounted), which only loading the script tells; the bytes hold its path",
    ),
];

/// Godot 3 strings that are not Unicode (surrogates, code points above U+10FFFF, 5- and 6-byte
/// forms): Godot prints the code points, this prints U+FFFD for the bytes.
const NOT_UNICODE: &str = "a Godot 3 string that is not Unicode: Godot prints its code points \
                           (as CESU-like bytes), this prints U+FFFD";

/// One generated case.
struct Case {
    name: String,
    /// The bytes the engine decoded.
    input: Vec<u8>,
    /// The engine's encoding of the decoded value, when it differs from `input`.
    bytes: Option<Vec<u8>>,
    /// The engine's text, as UTF-8 bytes (Godot 3 can print text that is not UTF-8).
    text: Vec<u8>,
    /// The bytes hold full objects (decoded with `allow_objects`).
    full_objects: bool,
}

fn cases(version: Version) -> Vec<Case> {
    let file = match version {
        G3 => "godot3.jsonl",
        G4 => "godot4.jsonl",
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/text").join(file);
    let jsonl =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    jsonl
        .lines()
        .map(|line| {
            let case: Value = serde_json::from_str(line).unwrap();
            let hex_field = |field: &str| case[field].as_str().map(|h| hex::decode(h).unwrap());
            let text = match case["text"].as_str() {
                Some(text) => text.as_bytes().to_vec(),
                None => hex_field("text_hex").unwrap(),
            };
            Case {
                name: case["name"].as_str().unwrap().to_owned(),
                input: hex_field("input").unwrap(),
                bytes: hex_field("bytes"),
                text,
                full_objects: case["full_objects"] == true,
            }
        })
        .collect()
}

/// The crate's text of `bytes`.
fn ours(version: Version, bytes: &[u8], full_objects: bool) -> Vec<u8> {
    let options = Options::new(version).with_allow_objects(full_objects);
    let value = gdvariant::parse(bytes, options).unwrap();
    gdvariant::text::to_text_as(value, version).unwrap().into_bytes()
}

#[test]
fn every_generated_case_prints_as_the_engine_prints_it() {
    let mut failures = Vec::new();
    for version in [G3, G4] {
        let mut matched = 0;
        let all = cases(version);
        for case in &all {
            let mut agree = ours(version, &case.input, case.full_objects) == case.text;
            if let Some(bytes) = &case.bytes {
                agree &= ours(version, bytes, case.full_objects) == case.text;
            }
            let excepted = EXCEPTIONS.iter().any(|(v, n, _)| *v == version && *n == case.name);
            match (agree, excepted) {
                (true, false) => matched += 1,
                (false, true) => {}
                (false, false) => failures.push(format!(
                    "{version:?} {}:\n  engine {:?}\n  ours   {:?}",
                    case.name,
                    String::from_utf8_lossy(&case.text),
                    String::from_utf8_lossy(&ours(version, &case.input, case.full_objects)),
                )),
                (true, true) => failures
                    .push(format!("{version:?} {}: listed as an exception but matches", case.name)),
            }
        }
        eprintln!("{version:?}: {matched} of {} generated cases match", all.len());
        assert!(all.len() > 2000, "{version:?}: only {} cases", all.len());
    }
    let count = failures.len();
    failures.truncate(40);
    assert!(failures.is_empty(), "{count} differences:\n{}", failures.join("\n"));
}

#[test]
fn every_exception_is_a_case() {
    for (version, name, _) in EXCEPTIONS {
        assert!(cases(*version).iter().any(|c| c.name == *name), "{version:?} {name}");
    }
}
