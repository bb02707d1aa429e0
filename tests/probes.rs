//! Crafted inputs whose verdicts were taken from the real engines for this project
//! (`corpus/probes/`): string encodings, NodePath counts, typed containers, depth, objects,
//! packed arrays, header bits, class names and dictionary keys. Each must get Godot's verdict
//! and, when accepted, Godot's value. The few known differences are listed with their reason,
//! and the test fails if one of them stops being a difference.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use gdvariant::Version;

/// Cases where this crate knowingly differs from the engine that produced the verdict.
const KNOWN_DIFFERENCES: &[(Version, &str, &str)] = &[
    // Godot 3.2.3 has no depth limit (3.3.5+ and 4.x stop at 1024, as this crate does).
    (Version::Godot3, "probe_depth_array_1026", DEPTH3),
    (Version::Godot3, "probe_depth_array_1025_int", DEPTH3),
    (Version::Godot3, "probe_depth_dict_value_1026", DEPTH3),
    (Version::Godot3, "probe_depth_dict_value_1025_int", DEPTH3),
    (Version::Godot3, "probe_depth_dict_key_1026", DEPTH3),
    (Version::Godot3, "probe_depth_array_5000", DEPTH3),
    // A script path is accepted when it starts with res://; Godot also loads it, and the probe's
    // paths do not exist.
    (Version::Godot4, "probe_typed_array_script_res_allowed", SCRIPT),
    (Version::Godot4, "probe_typed_dict_value_script_res_allowed", SCRIPT),
    (Version::Godot4, "probe_typed_dict_int_value_script_res_allowed", SCRIPT),
    (Version::Godot4, "probe_obj_script_res_nope", SCRIPT),
    // Godot converts or drops elements and keys that do not fit a typed container; the lazy
    // view shows the wire. The verdict agrees, and with `Options::with_game_view` the values do
    // too (`tests/game_view.rs`).
    (Version::Godot4, "probe_typed_array_int_holding_string", TYPED),
    (Version::Godot4, "probe_typed_array_int_holding_float", TYPED),
    (Version::Godot4, "probe_typed_array_string_holding_stringname", TYPED),
    (Version::Godot4, "probe_typed_array_class_node_holding_int", TYPED),
    (Version::Godot4, "probe_typed_array_class_node_holding_refcounted", TYPED),
    (Version::Godot4, "probe_typed_dict_int_string_wrong_key", TYPED),
    (Version::Godot4, "keys_typed_si_snamekey", TYPED),
    (Version::Godot4, "keys_typed_si_snamekey_only", TYPED),
    (Version::Godot4, "keys_typed_si_sname_str_dup", TYPED),
    (Version::Godot4, "keys_typed_si_floatkey", TYPED),
    (Version::Godot4, "keys_typed_si_floatkey_only", TYPED),
    (Version::Godot4, "keys_typed_si_intkey", TYPED),
    (Version::Godot4, "keys_typed_sni_strkey", TYPED),
    (Version::Godot4, "keys_typed_fi_int_float_dup", TYPED),
    (Version::Godot4, "keys_typed_fi_intkey", TYPED),
    (Version::Godot4, "keys_typed_ii_float15key", TYPED),
    (Version::Godot4, "keys_typed_si_nilkey", TYPED),
    (Version::Godot4, "keys_typed_ii_float_int_dup", TYPED),
    // Godot's text form of a NodePath leaves out an empty subname; names and subnames agree.
    (Version::Godot4, "probe_np_empty_subname", "NodePath text"),
    // A full object of class EncodedObjectAsID decodes to what an object id decodes to; the
    // test's description of Godot's result cannot tell the two apart. The verdict agrees.
    (Version::Godot3, "probe_obj_class_EncodedObjectAsID", "EncodedObjectAsID"),
    (Version::Godot4, "probe_obj_class_EncodedObjectAsID", "EncodedObjectAsID"),
];

const DEPTH3: &str = "Godot 3.2.3 has no depth limit";
const SCRIPT: &str = "script existence is not checked";
const TYPED: &str = "typed-container conversion";

fn run(version: Version, file: &str) -> (usize, Vec<String>, BTreeMap<String, String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes").join(file);
    let mut failures = Vec::new();
    let mut differing = BTreeMap::new();
    let cases = read_jsonl(&path);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        if std::env::var_os("CORPUS_TRACE").is_some() {
            eprintln!("{version:?} {name}");
        }
        let failure = check_verdict(version, case);
        let known = KNOWN_DIFFERENCES.iter().find(|(v, n, _)| *v == version && *n == name);
        match (failure, known) {
            (Some(f), None) => failures.push(format!("{version:?} {f}")),
            (None, Some(_)) => failures
                .push(format!("{version:?} {name}: listed as a known difference but agrees")),
            (Some(f), Some(_)) => {
                differing.insert(name.to_owned(), f);
            }
            (None, None) => {}
        }
    }
    (cases.len(), failures, differing)
}

#[test]
fn engine_probes_get_godots_verdicts() {
    let mut all = Vec::new();
    for (version, file, at_least) in [
        (Version::Godot3, "godot3.jsonl", 380),
        (Version::Godot4, "godot4.jsonl", 460),
        (Version::Godot3, "dict-keys/godot3.jsonl", 80),
        (Version::Godot4, "dict-keys/godot4.jsonl", 100),
    ] {
        let (count, failures, _) = with_big_stack(move || run(version, file));
        assert!(count >= at_least, "{file}: {count} cases");
        all.extend(failures);
    }
    assert!(all.is_empty(), "{} failures:\n{}", all.len(), all.join("\n"));
}

/// The string bodies of the UTF-8 sweep in `corpus/probes/run.py` (`sweep_inputs`): every 2-byte
/// string, and 3- to 6-byte strings around the lead bytes where the two engines' rules differ.
fn sweep_inputs() -> Vec<Vec<u8>> {
    let mut inputs = Vec::new();
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            inputs.push(vec![a, b]);
        }
    }
    for a in [0xE0u8, 0xED, 0xEF, 0xF0, 0xF4, 0xF8, 0xFC] {
        for b in 0x80..0xC0u8 {
            for c in [0x00u8, 0x41, 0x7F, 0x80, 0xBF, 0xC0] {
                inputs.push(vec![a, b, c]);
            }
        }
    }
    for a in 0xF0..=0xFFu8 {
        for b in 0x80..0xC0u8 {
            for c in [0x80u8, 0xBF] {
                for d in [0x00u8, 0x41, 0x80, 0xBF, 0xC0] {
                    inputs.push(vec![a, b, c, d]);
                }
            }
        }
    }
    for a in 0xF8..=0xFFu8 {
        for b in 0x80..0xC0u8 {
            for c in [0x80u8, 0xBF] {
                for e in [0x41u8, 0x80, 0xBF] {
                    inputs.push(vec![a, b, c, c, e]);
                }
            }
        }
    }
    for a in 0xFC..=0xFFu8 {
        for b in 0x80..0xC0u8 {
            for c in [0x80u8, 0xBF] {
                for f in [0x41u8, 0x80, 0xBF] {
                    inputs.push(vec![a, b, c, c, c, f]);
                }
            }
        }
    }
    inputs
}

/// A Godot String value holding `body`, padded to 4 bytes.
fn string_value(body: &[u8]) -> Vec<u8> {
    let mut bytes = vec![4, 0, 0, 0];
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(body);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    bytes
}

#[test]
fn utf8_sweeps_match_both_engines_exactly() {
    for (version, file) in
        [(Version::Godot3, "sweep-godot3.tsv"), (Version::Godot4, "sweep-godot4.tsv")]
    {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes").join(file);
        let text = std::fs::read_to_string(path).unwrap();
        let accepted: std::collections::HashSet<Vec<u8>> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| unhex(l.split('\t').next().unwrap()))
            .collect();
        let inputs = sweep_inputs();
        assert_eq!(inputs.len(), 83_072);
        let mut mismatches = Vec::new();
        for body in &inputs {
            let ours =
                gdvariant::validate(&string_value(body), gdvariant::Options::new(version)).is_ok();
            if ours != accepted.contains(body) {
                mismatches.push(hex::encode(body));
            }
        }
        assert!(
            mismatches.is_empty(),
            "{version:?}: {} of {} verdicts differ, first: {:?}",
            mismatches.len(),
            inputs.len(),
            &mismatches[..mismatches.len().min(10)]
        );
        assert!(accepted.len() > 19_000, "{file}: {} accepted inputs", accepted.len());
    }
}

/// What Godot did with the one element (or key) of a probe: the decoded size and the type of
/// what it holds, compared with the element's type on the wire.
fn observed_admission(
    size: u64,
    wire: &str,
    decoded: Option<&str>,
    declared_object: bool,
) -> gdvariant::view::Admission {
    use gdvariant::view::Admission;
    match (size, decoded) {
        (0, _) => Admission::Drop,
        (_, Some(t)) if t == wire || (declared_object && wire == "Nil") => Admission::Keep,
        // The corpora describe a null object as Nil.
        (_, Some("Nil")) if wire == "Object" => Admission::Keep,
        _ => Admission::Convert,
    }
}

#[test]
fn typed_container_admission_matches_godot4() {
    use gdvariant::{Options, VariantRef, view::Admission, view::ContainerType};
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes/typed/godot4.jsonl");
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in read_jsonl(&path) {
        let name = case["name"].as_str().unwrap();
        let bytes = unhex(case["input_hex"].as_str().unwrap());
        let options = Options::godot4().with_allow_objects(case["allow_objects"] == true);
        // Godot accepts every one of these inputs.
        assert_eq!(case["accepted"], true, "{name}");
        if let Err(e) = gdvariant::validate(&bytes, options) {
            failures.push(format!("{name}: Godot accepts, we reject: {e}"));
            continue;
        }
        let value = gdvariant::parse(&bytes, options).unwrap();
        let size = case["size"].as_u64().unwrap();
        let result = &case["result"];
        match value {
            VariantRef::Array(array) if array.len() == 1 => {
                let ty = array.element_type().unwrap();
                let element = array.get_element(0).unwrap().unwrap();
                let wire = element.variant_type().name(Version::Godot4);
                let decoded = result["items"].get(0).and_then(|i| i["t"].as_str());
                let declared_object =
                    matches!(ty, ContainerType::Builtin(gdvariant::VariantType::Object));
                let expected = observed_admission(size, wire, decoded, declared_object);
                let ours = ty.admission(element.variant_type(), options.allow_objects());
                let agrees = ours == expected
                    || (ours == Admission::ClassCheck && expected != Admission::Convert);
                if !agrees {
                    failures.push(format!(
                        "{name}: {wire} in {ty:?}: ours {ours:?}, Godot {expected:?}"
                    ));
                }
                checked += 1;
            }
            VariantRef::Dictionary(dictionary) if dictionary.len() == 1 => {
                let (key, value) = dictionary.entries().next().unwrap().unwrap();
                let key_type = dictionary.key_type().unwrap();
                let wire = key.variant_type().name(Version::Godot4);
                let entry = result["entries"].get(0);
                let decoded = entry.and_then(|e| e[0]["t"].as_str());
                let declared_object =
                    matches!(key_type, ContainerType::Builtin(gdvariant::VariantType::Object));
                let expected = observed_admission(size, wire, decoded, declared_object);
                let ours = key_type.admission(key.variant_type(), options.allow_objects());
                if ours != expected {
                    failures.push(format!(
                        "{name}: key {wire} in {key_type:?}: ours {ours:?}, Godot {expected:?}"
                    ));
                }
                // Values are never checked or converted.
                if let Some(entry) = entry {
                    let value_wire = value.variant_type().name(Version::Godot4);
                    // (The corpora describe a null object as Nil.)
                    let decoded = entry[1]["t"].as_str();
                    let null_object = value_wire == "Object" && decoded == Some("Nil");
                    if decoded != Some(value_wire) && !null_object {
                        failures
                            .push(format!("{name}: value {value_wire} became {}", entry[1]["t"]));
                    }
                }
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(checked > 5_000, "{checked} single-element cases");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
