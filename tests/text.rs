//! `gdvariant::text` against the text the real engines print: every value case of both corpora
//! (Godot 3.2.3 `var2str`, Godot 4.6 `var_to_str`) and every value of their stream captures;
//! Godot's key order, repeated keys and nesting cut-off; errors at the right offsets; 1025 levels
//! of nesting on a 2 MiB stack.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::{corpus, manifest, options_for};
use gdvariant::framing::{self, LengthPrefix};
use gdvariant::text::{self, TextError};
use gdvariant::{EncodeOptions, ErrorKind, Options, Version, Writer};

use Version::{Godot3 as G3, Godot4 as G4};

/// Cases whose text cannot be reproduced from the bytes, and why. The test fails if one of them
/// starts to match (it then belongs with the others).
const EXCEPTIONS: &[(Version, &str, &str)] = &[
    (
        G3,
        "object_reference_id",
        "sent by id: Godot prints the live Reference, the bytes hold its id",
    ),
    (G3, "object_resource_id", "sent by id: Godot prints the live Resource, the bytes hold its id"),
    (G3, "object_node_id", "sent by id: Godot prints the live Node, the bytes hold its id"),
    (G3, "object_scripted_id", "sent by id: Godot prints the live object, the bytes hold its id"),
    (G3, "array_with_object_id", "holds an object sent by id"),
    (
        G3,
        "object_scripted_full",
        "Godot prints the script variable plain_var, which the encoder does not store",
    ),
    (
        G4,
        "object_refcounted_id",
        "sent by id: Godot prints the live RefCounted, the bytes hold its id",
    ),
    (G4, "object_resource_id", "sent by id: Godot prints the live Resource, the bytes hold its id"),
    (G4, "array_with_object_id", "holds an object sent by id"),
    (
        G4,
        "array_typed_node_empty",
        "without full objects Godot writes the class EncodedObjectAsID, not Node",
    ),
    (
        G4,
        "dict_typed_stringname_node_empty",
        "without full objects Godot writes the value class EncodedObjectAsID, not Node",
    ),
];

/// The manifest field holding the engine's text.
fn text_field(version: Version) -> &'static str {
    match version {
        G3 => "var2str",
        G4 => "var_to_str",
    }
}

/// (name, engine text, our text) for every value case of a corpus.
fn cases(version: Version) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for case in manifest(version) {
        let Some(expected) = case[text_field(version)].as_str() else { continue };
        if case["encode_failed"] == true {
            continue; // Godot could not encode it: there are no bytes
        }
        let name = case["name"].as_str().unwrap().to_owned();
        let bytes = corpus(version, &name);
        let options = options_for(version, case["full_objects"] == true);
        let value = gdvariant::parse(&bytes, options).unwrap();
        let ours = text::to_text_as(value, version).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, expected.to_owned(), ours));
    }
    out
}

#[test]
fn every_value_case_prints_as_the_engine_prints_it() {
    let mut failures = Vec::new();
    let mut matched = 0;
    for version in [G3, G4] {
        for (name, expected, ours) in cases(version) {
            let excepted = EXCEPTIONS.iter().any(|(v, n, _)| *v == version && *n == name);
            match (expected == ours, excepted) {
                (true, false) => matched += 1,
                (false, true) => {}
                (false, false) => failures
                    .push(format!("{version:?} {name}:\n  engine {expected:?}\n  ours   {ours:?}")),
                (true, true) => {
                    failures.push(format!("{version:?} {name}: listed as an exception but matches"))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(matched > 280, "only {matched} cases compared");
}

#[test]
fn every_exception_is_a_case() {
    for (version, name, _) in EXCEPTIONS {
        assert!(cases(*version).iter().any(|(n, _, _)| n == name), "{version:?} {name}");
    }
}

#[test]
fn godot4_shorthand_prints_godot4_text() {
    for (name, expected, _) in cases(G4) {
        if EXCEPTIONS.iter().any(|(v, n, _)| *v == G4 && *n == name) {
            continue;
        }
        let case = manifest(G4).into_iter().find(|c| c["name"] == name.as_str()).unwrap();
        let bytes = corpus(G4, &name);
        let value =
            gdvariant::parse(&bytes, options_for(G4, case["full_objects"] == true)).unwrap();
        assert_eq!(text::to_text(value).unwrap(), expected, "{name}");
        let mut written = String::new();
        text::write_text(value, &mut written).unwrap();
        assert_eq!(written, expected, "{name}");
    }
}

#[test]
fn every_value_of_the_stream_captures_prints_as_the_engine_prints_it() {
    let mut compared = 0;
    for version in [G3, G4] {
        let field = match version {
            G3 => "var2str_items",
            G4 => "var_to_str_items",
        };
        for case in manifest(version) {
            let Some(items) = case[field].as_array() else { continue };
            let prefix = match case["kind"].as_str().unwrap() {
                "file_store_var" => LengthPrefix::store_var(false),
                "streampeer_put_var" => LengthPrefix::stream_peer(false),
                "packetpeerstream_put_var" => LengthPrefix::packet_peer_stream(),
                other => panic!("unknown stream kind {other}"),
            };
            let name = case["name"].as_str().unwrap();
            let bytes = corpus(version, name);
            let options = options_for(version, case["full_objects"] == true);
            let frames: Vec<_> = framing::frames(&bytes, prefix, options).collect();
            assert_eq!(frames.len(), items.len(), "{name}");
            for (frame, expected) in frames.into_iter().zip(items) {
                let ours = text::to_text_as(frame.unwrap().value(), version).unwrap();
                assert_eq!(ours, expected.as_str().unwrap(), "{version:?} {name}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "{compared}");
}

fn encode(version: Version, build: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let options = match version {
        G3 => EncodeOptions::godot3(),
        G4 => EncodeOptions::godot4(),
    };
    let mut writer = Writer::new(Vec::new(), options);
    build(&mut writer);
    writer.finish().unwrap()
}

fn text_of(version: Version, bytes: &[u8]) -> String {
    let value = gdvariant::parse(bytes, Options::new(version)).unwrap();
    text::to_text_as(value, version).unwrap()
}

#[test]
fn repeated_keys_print_once_with_the_last_value_in_the_first_place() {
    let bytes = encode(G4, |w| {
        w.begin_dictionary(4).unwrap();
        w.string("b").unwrap();
        w.int(1).unwrap();
        w.string("a").unwrap();
        w.int(2).unwrap();
        w.string_name("b").unwrap(); // one key with "b" in Godot 4
        w.int(3).unwrap();
        w.float(0.0).unwrap();
        w.int(4).unwrap();
    });
    assert_eq!(text_of(G4, &bytes), "{\n0.0: 4,\n\"a\": 2,\n\"b\": 3\n}");

    let bytes = encode(G3, |w| {
        w.begin_dictionary(3).unwrap();
        w.string("k").unwrap();
        w.int(1).unwrap();
        w.string("k").unwrap();
        w.int(2).unwrap();
        w.int(-1).unwrap();
        w.int(0).unwrap();
    });
    assert_eq!(text_of(G3, &bytes), "{\n-1: 0,\n\"k\": 2\n}");
}

#[test]
fn large_dictionaries_are_sorted_too() {
    // More than 16 keys: Godot switches from insertion sort to introsort.
    let bytes = encode(G4, |w| {
        w.begin_dictionary(40).unwrap();
        for i in (0..20).rev() {
            w.int(i).unwrap();
            w.int(i * 10).unwrap();
            w.string(&format!("k{i:02}")).unwrap();
            w.bool(i % 2 == 0).unwrap();
        }
    });
    let text = text_of(G4, &bytes);
    let ints: String = (0..20).map(|i| format!("{i}: {},\n", i * 10)).collect();
    let strings: Vec<String> = (0..20).map(|i| format!("\"k{i:02}\": {}", i % 2 == 0)).collect();
    assert_eq!(text, format!("{{\n{ints}{}\n}}", strings.join(",\n")));
}

#[test]
fn strings_are_escaped_as_godot_escapes_them() {
    let tricky = "a\\b\"c\nd\te'f?g\u{7}";
    let bytes = encode(G4, |w| {
        w.begin_array(3).unwrap();
        w.string(tricky).unwrap();
        w.string_name(tricky).unwrap();
        w.packed_strings([tricky]).unwrap();
    });
    assert_eq!(
        text_of(G4, &bytes),
        "[\"a\\\\b\\\"c\nd\te'f?g\u{7}\", &\"a\\\\b\\\"c\\nd\\te\\'f?g\\a\", \
         PackedStringArray(\"a\\\\b\\\"c\\nd\\te\\'f?g\\a\")]"
    );
}

#[test]
fn typed_containers_and_special_values() {
    let bytes = encode(G4, |w| {
        w.begin_array(6).unwrap();
        let int = gdvariant::ElementType::Builtin(gdvariant::VariantType::Int);
        w.begin_typed_dictionary(int, gdvariant::ElementType::Untyped, 1).unwrap();
        w.int(1).unwrap();
        w.float(f64::NAN).unwrap();
        w.rid(0).unwrap();
        w.rid(7).unwrap();
        w.callable().unwrap();
        w.float(-0.0).unwrap();
        w.packed_float32(&[f32::NEG_INFINITY, 0.5, -0.0]).unwrap();
    });
    assert_eq!(
        text_of(G4, &bytes),
        "[Dictionary[int, Variant]({\n1: nan\n}), RID(), RID(7), Callable(), 0.0, \
         PackedFloat32Array(inf_neg, 0.5, 0)]"
    );
}

/// `depth` nested arrays (the innermost empty), in `version`'s numbering.
fn nested_arrays(version: Version, depth: usize) -> Vec<u8> {
    let id: u8 = match version {
        G3 => 19,
        G4 => 28,
    };
    let mut bytes = Vec::new();
    for level in 0..depth {
        let count: u32 = if level + 1 < depth { 1 } else { 0 };
        bytes.extend_from_slice(&[id, 0, 0, 0]);
        bytes.extend_from_slice(&count.to_le_bytes());
    }
    bytes
}

/// `depth` dictionaries nested as keys (`{{{...}: 0}: 0}`, the innermost empty), in `version`'s
/// numbering.
fn nested_dictionary_keys(version: Version, depth: usize) -> Vec<u8> {
    let id: u8 = match version {
        G3 => 18,
        G4 => 27,
    };
    let mut bytes = Vec::new();
    for level in 0..depth {
        let count: u32 = if level + 1 < depth { 1 } else { 0 };
        bytes.extend_from_slice(&[id, 0, 0, 0]);
        bytes.extend_from_slice(&count.to_le_bytes());
    }
    for _ in 1..depth {
        bytes.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
    }
    bytes
}

#[test]
fn the_deepest_values_print_on_a_small_stack() {
    let printed = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let godot3 = text_of(G3, &nested_arrays(G3, 1025));
            let godot4 = text_of(G4, &nested_arrays(G4, 1025));
            let keys3 = text_of(G3, &nested_dictionary_keys(G3, 1025));
            let keys4 = text_of(G4, &nested_dictionary_keys(G4, 1025));
            (godot3, godot4, keys3, keys4)
        })
        .unwrap()
        .join()
        .unwrap();
    // Godot 3 prints every level.
    assert_eq!(printed.0, format!("{}[  ]{}", "[ ".repeat(1024), " ]".repeat(1024)));
    // Godot 4 prints containers more than 100 levels down as empty.
    assert_eq!(printed.1, format!("{}[]{}", "[".repeat(101), "]".repeat(101)));
    assert_eq!(printed.2, format!("{}{{\n\n}}{}", "{\n".repeat(1024), ": 0\n}".repeat(1024)));
    assert_eq!(printed.3, format!("{}{{}}{}", "{\n".repeat(101), ": 0\n}".repeat(101)));
}

/// The error printing reports, which must be validate's.
fn error_of(version: Version, bytes: &[u8]) -> gdvariant::Error {
    let value = gdvariant::parse(bytes, Options::new(version)).unwrap();
    let error = text::to_text_as(value, version).unwrap_err();
    assert_eq!(Err(error), gdvariant::validate(bytes, Options::new(version)));
    error
}

#[test]
fn malformed_values_fail_at_the_offset_of_the_problem() {
    // One level too deep.
    let error = error_of(G3, &nested_arrays(G3, 1026));
    assert_eq!((error.kind(), error.offset()), (ErrorKind::DepthLimit, 1025 * 8));

    // [1, 2] with the last int cut short: the payload at byte 20 is missing.
    let bytes = encode(G4, |w| {
        w.begin_array(2).unwrap();
        w.int(1).unwrap();
        w.int(2).unwrap();
    });
    let error = error_of(G4, &bytes[..bytes.len() - 4]);
    assert_eq!((error.kind(), error.offset()), (ErrorKind::Truncated { needed: 4 }, 20));

    // {"ok": 1, "b\xFFd": 2}: the bad byte of the second key.
    let mut bytes = encode(G4, |w| {
        w.begin_dictionary(2).unwrap();
        w.string("ok").unwrap();
        w.int(1).unwrap();
        w.string("bxd").unwrap();
        w.int(2).unwrap();
    });
    let at = bytes.windows(3).position(|w| w == b"bxd").unwrap() + 1;
    bytes[at] = 0xFF;
    let error = error_of(G4, &bytes);
    assert_eq!((error.kind(), error.offset()), (ErrorKind::InvalidUtf8, at));

    // A NodePath name that is not text, inside a Godot 3 array.
    let mut bytes = encode(G3, |w| {
        w.begin_array(1).unwrap();
        w.node_path(false, ["a", "q"], []).unwrap();
    });
    let at = bytes.iter().rposition(|&b| b == b'q').unwrap();
    bytes[at] = 0xC0;
    let error = error_of(G3, &bytes);
    assert_eq!((error.kind(), error.offset()), (ErrorKind::InvalidUtf8, at));
}

#[test]
fn a_failing_output_is_reported() {
    struct Full;
    impl std::fmt::Write for Full {
        fn write_str(&mut self, _: &str) -> std::fmt::Result {
            Err(std::fmt::Error)
        }
    }
    let bytes = corpus(G4, "dict_nested");
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let error = text::write_text(value, &mut Full).unwrap_err();
    assert_eq!(error, TextError::Write(std::fmt::Error));
    assert_eq!(error.to_string(), "the text output failed");

    let error = TextError::from(gdvariant::Error::new(12, ErrorKind::InvalidUtf8));
    assert_eq!(error.to_string(), "string is not valid UTF-8 at byte offset 12");
    assert!(std::error::Error::source(&error).is_some());
}

/// `corpus/text/display/godot{3,4}.jsonl`: RIDs, objects sent by id, `Callable` and `Signal`,
/// alone and inside containers, with each engine's `var2str` / `var_to_str` of the decoded value.
fn display_cases(version: Version) -> Vec<serde_json::Value> {
    let name = match version {
        G3 => "godot3.jsonl",
        G4 => "godot4.jsonl",
    };
    common::read_jsonl(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/text/display").join(name),
    )
}

#[test]
fn rids_and_objects_by_id_print_as_the_engines_print_them() {
    let mut godot3_rids = 0;
    for version in [G3, G4] {
        let cases = display_cases(version);
        assert!(cases.len() >= 7, "{version:?}");
        for case in &cases {
            let name = case["name"].as_str().unwrap();
            let Some(input) = case["input"].as_str() else { continue };
            let bytes = common::unhex(input);
            let value = gdvariant::parse(&bytes, Options::new(version)).unwrap();
            let engine = case["var2str"].as_str().unwrap();
            assert_eq!(text::to_text_as(value, version).unwrap(), engine, "{version:?} {name}");
            // The display text differs only where Godot 3 prints an RID as nothing.
            let display = text::to_display_text_as(value, version).unwrap();
            assert!(!display.is_empty(), "{version:?} {name}");
            if version == G3 && name.starts_with("rid") {
                godot3_rids += 1;
                assert_ne!(display, engine, "{name}");
                assert!(display.contains("RID()"), "{name}: {display}");
                assert_eq!(display.replace("RID()", ""), engine, "{name}");
            } else {
                assert_eq!(display, engine, "{version:?} {name}");
            }
        }
    }
    assert_eq!(godot3_rids, 4);
    // Godot 3 prints nothing for an RID: `[ , 1 ]`; the display text names it.
    let bytes = common::unhex("1300000002000000100000000200000001000000");
    let value = gdvariant::parse(&bytes, Options::godot3()).unwrap();
    assert_eq!(text::to_display_text_as(value, G3).unwrap(), "[ RID(), 1 ]");
}
