//! Godot's dictionary key identity and key order, replayed from the real engines
//! (`corpus/probes/dict-keys/godot{3,4}-identity.jsonl`, made by `identity.py` there): for
//! every case, the owned decode holds as many entries as Godot's dictionary (and serde's
//! reading of a `Variant` holds the same value), the text is
//! Godot's `var2str` / `var_to_str`, and the re-encoding is Godot's `var2bytes` /
//! `var_to_bytes` of the decoded value. The few known differences are listed with their
//! reason, and the test fails if one of them stops being a difference.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod common;

// The check of the `identity` fuzz target, and what it uses, as the fuzz crate has them (its
// `super::` is this file).
#[path = "../fuzz/src/identity.rs"]
mod identity_check;
#[path = "../fuzz/src/options.rs"]
#[allow(dead_code)]
mod options;
#[path = "../fuzz/src/reencode.rs"]
#[allow(dead_code)]
mod reencode;

use common::*;
use gdvariant::{EncodeOptions, Variant, Version};

/// Cases where this crate knowingly differs from the engine, and in what.
const KNOWN_DIFFERENCES: &[(Version, &str, &str, &str)] = &[
    // Godot 3.2.3 encodes a dictionary holding a key its lookup cannot find (a pool of reals
    // holding a NaN) by reading freed memory: the keys come out as "[Deleted Object]".
    (Version::Godot3, "pfloat32_nan_top", "reencoded", LOST),
    (Version::Godot3, "pfloat32_nan_payload_top", "reencoded", LOST),
    (Version::Godot3, "pfloat32_nan_arr", "reencoded", LOST),
    (Version::Godot3, "pfloat32_one_nan_twice", "reencoded", LOST),
];

const LOST: &str = "Godot 3 reads freed memory";

/// Godot 4 stops comparing keys past its recursion limit, logging "Max recursion reached":
/// arrays more than 100 levels down hash alike, and more than 50 levels down compare equal
/// (`hash_compare` and `Array::recursive_equal` each add one level), so keys that differ only
/// there are one key. This crate compares keys at every depth: these cases differ in size,
/// text and re-encoding, and the test fails if their size stops differing.
const PAST_THE_RECURSION_LIMIT: &[&str] =
    &["deep_102", "deep_105", "deep_nan_51", "deep_nan_60", "deep_sname_51", "deep_sname_60"];

/// Whether `what` of case `name` is not compared: an object id decodes to an
/// `EncodedObjectAsID` instance of Godot's, which Godot re-encodes as that instance's own id, and
/// which Godot 3 orders by address.
fn not_compared(version: Version, name: &str, what: &str) -> bool {
    name.starts_with("type_objectid_")
        && (what == "reencoded" || (version == Version::Godot3 && what == "text"))
}

fn file(version: Version) -> std::path::PathBuf {
    let name = match version {
        Version::Godot3 => "godot3-identity.jsonl",
        Version::Godot4 => "godot4-identity.jsonl",
    };
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes/dict-keys").join(name)
}

/// The differences between the crate and the engine for one case: (what, detail).
fn differences(version: Version, case: &serde_json::Value) -> Vec<(&'static str, String)> {
    let options = options_for(version, false);
    let bytes = unhex(case["input_hex"].as_str().unwrap());
    let mut out = Vec::new();
    let value = gdvariant::decode(&bytes, options).unwrap();
    if let Some(size) = case["size"].as_u64() {
        match &value {
            Variant::Dictionary(d) if d.len() as u64 == size => {}
            Variant::Dictionary(d) => {
                out.push(("size", format!("{} entries, Godot {size}", d.len())))
            }
            other => out.push(("size", format!("not a dictionary: {other:?}"))),
        }
    }
    let text =
        gdvariant::text::to_text_as(gdvariant::parse(&bytes, options).unwrap(), version).unwrap();
    if text != case["text"].as_str().unwrap() {
        out.push(("text", format!("{text:?}\n  Godot {:?}", case["text"].as_str().unwrap())));
    }
    // serde's reading of a Variant keeps the entries `decode` keeps (its own last-wins rule).
    #[cfg(feature = "serde")]
    {
        let read: Variant = gdvariant::serde::from_bytes(&bytes, options).unwrap();
        if !read.same(&value) {
            out.push(("serde", format!("{read:?}\n  decode {value:?}")));
        }
    }
    let encoded = value.encode(EncodeOptions::new(version)).unwrap();
    let godot = unhex(case["reencoded_hex"].as_str().unwrap());
    // Godot leaves NodePath padding unwritten: compare it as zeros.
    let ours = with_zeroed_node_path_padding(&encoded, options);
    let theirs = gdvariant::parse(&godot, options)
        .map(|_| with_zeroed_node_path_padding(&godot, options))
        .unwrap_or(godot);
    if ours != theirs {
        out.push((
            "reencoded",
            format!("{}\n  Godot {}", hex::encode(&ours), hex::encode(&theirs)),
        ));
    }
    out
}

#[test]
fn key_identity_order_and_reencoding_match_both_engines() {
    let mut failures = Vec::new();
    for (version, at_least) in [(Version::Godot3, 300), (Version::Godot4, 450)] {
        let cases = read_jsonl(&file(version));
        assert!(cases.len() >= at_least, "{version:?}: {} cases", cases.len());
        for case in &cases {
            let name = case["name"].as_str().unwrap();
            let found = differences(version, case);
            for (what, detail) in &found {
                if not_compared(version, name, what) {
                    continue;
                }
                let known = KNOWN_DIFFERENCES
                    .iter()
                    .any(|(v, n, w, _)| *v == version && *n == name && w == what)
                    || (version == Version::Godot4 && PAST_THE_RECURSION_LIMIT.contains(&name));
                if !known {
                    failures.push(format!("{version:?} {name} {what}: {detail}"));
                }
            }
            for (v, n, w, _) in KNOWN_DIFFERENCES {
                if *v == version && *n == name && !found.iter().any(|(what, _)| what == w) {
                    failures.push(format!(
                        "{version:?} {name}: {w} listed as a known difference but agrees"
                    ));
                }
            }
            if version == Version::Godot4
                && PAST_THE_RECURSION_LIMIT.contains(&name)
                && !found.iter().any(|(what, _)| *what == "size")
            {
                failures.push(format!("{name}: past Godot 4's recursion limit, but agrees"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The text's rule and the owned values' rule of key identity are one relation on every probe
/// input of `corpus/probes/dict-keys` (the `identity` fuzz target's check: the text of a value is
/// the text of its owned value re-encoded).
#[test]
fn text_and_owned_values_agree_on_every_dict_keys_probe() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes/dict-keys");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        for case in read_jsonl(&path) {
            if let Some(hex) = case["input_hex"].as_str() {
                identity_check::check(&unhex(hex));
                checked += 1;
            }
        }
    }
    assert!(checked > 900, "{checked} inputs");
}
