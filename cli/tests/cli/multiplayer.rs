//! `gdvariant multiplayer`: captures built from the real-engine packets of
//! `corpus/multiplayer` print decoded, named with a rules file, as text and JSON, with
//! per-call statistics; files that are not captures, and bad rules files, are refused.
#![allow(clippy::arithmetic_side_effects)]

use std::path::{Path, PathBuf};

use gdvariant::Version;
use gdvariant_multiplayer::capture::{self, Header, RecordHead};
use gdvariant_multiplayer::{Direction, Framing};
use serde_json::Value;

use crate::support::*;

/// `corpus/multiplayer/NAME.jsonl`.
fn records(name: &str) -> Vec<Value> {
    read_jsonl(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/multiplayer")
            .join(format!("{name}.jsonl")),
    )
}

/// A scratch path.
pub(crate) fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gdvariant-cli-mp-{}-{name}", std::process::id()))
}

/// A capture of `packets` (direction, channel, bytes) on one connection.
fn write_capture(path: &Path, header: Header, packets: &[(Direction, u8, Vec<u8>)]) {
    let mut file = Vec::new();
    capture::write_header(&mut file, header).unwrap();
    for (i, (direction, channel, bytes)) in packets.iter().enumerate() {
        let head = RecordHead {
            micros: i as u64 * 1000,
            connection: 0,
            direction: *direction,
            channel: *channel,
            mode: 0,
            flags: 0,
        };
        capture::write_record(&mut file, &head, bytes).unwrap();
    }
    std::fs::write(path, file).unwrap();
}

/// The Godot 4 capture's packets between the server and client A, in order, with their
/// records.
pub(crate) fn godot4_records() -> Vec<(Direction, Vec<u8>, Value)> {
    const A: i64 = 1_234_567_890;
    let mut packets = Vec::new();
    for record in records("godot4") {
        if !record["injected"].is_null()
            || record["net"] != "main"
            || record["step"].as_str().unwrap().contains("hostile")
        {
            continue;
        }
        let bytes = unhex(record["hex"].as_str().unwrap());
        if record["from"] == A && record["to"][0] == 1 {
            packets.push((Direction::ToServer, bytes, record));
        } else if record["from"] == 1 && record["to"][0] == A {
            packets.push((Direction::ToClient, bytes, record));
        }
    }
    packets
}

/// The Godot 4 capture's traffic between the server and client A, as client A's connection
/// would carry it over WebSocket: its id first, then every packet of either way.
pub(crate) fn godot4_capture(path: &Path) -> usize {
    const A: i64 = 1_234_567_890;
    let mut packets = vec![(Direction::ToClient, 0, (A as i32).to_le_bytes().to_vec())];
    for (direction, bytes, _) in godot4_records() {
        packets.push((direction, 0, bytes));
    }
    write_capture(
        path,
        Header { version: Version::Godot4, framing: Framing::WebSocket4 },
        &packets,
    );
    packets.len()
}

/// The hand-written method lists of the corpus session's nodes (`corpus/multiplayer/godot4`).
pub(crate) const HAND_LIST: &str = "methods World/Player = r0 r1 r2 r3 rv u1 o1 local1 auth1\n\
    native World/Player = plain\n\
    methods World/Nodes/* = r0 r1 r2 r3 rv u1 o1 local1 auth1\n";

#[test]
fn a_godot4_capture_prints_named_calls_and_statistics() {
    let file = scratch("godot4.capture");
    let count = godot4_capture(&file);
    let rules = scratch("rules.txt");
    std::fs::write(&rules, HAND_LIST).unwrap();
    let output = run(&[
        OsArg::from("multiplayer"),
        "--allow-objects".into(),
        "--rules".into(),
        rules.clone().into(),
        file.clone().into(),
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("peer_id 1234567890"), "{text}");
    assert!(text.contains("rpc World/Player::r1(Vector2(1.5, -2))"), "{text}");
    assert!(text.contains("rpc World/Player::r1(\"héllo wörld 日本 😀\")"), "{text}");
    assert!(text.contains("rpc World/Player::plain(\"native\")"), "{text}");
    assert!(text.contains("simplify_path #1 = World/Player (methods verified)"), "{text}");
    assert!(text.contains("spawn Hero by World/Spawner scene 0"), "{text}");
    assert!(text.contains("relay from 987654321: rpc World/Player::r0()"), "{text}");
    assert!(!text.contains("refused"), "{text}");
    assert!(text.contains("state [Vector2(10, 20), 250, \"hero\", { \"gold\": 99, \"items\": [\"sword\", \"shield\"] }]"), "{text}");
    // Without --allow-objects, the RPCs carrying full objects are refused as Godot refuses them.
    let strict = stdout(&run(&[OsArg::from("multiplayer"), file.clone().into()]));
    assert_eq!(
        strict.matches("refused (invalid_packet): invalid value: full object").count(),
        2,
        "{strict}"
    );
    // The statistics: r1 on World/Player was called most.
    let stats: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("calls\t")).collect();
    assert!(stats[1].ends_with("World/Player::r1"), "{stats:?}");
    // Without the method lists, ids stay unnamed but everything decodes.
    let plain =
        stdout(&run(&[OsArg::from("multiplayer"), "--allow-objects".into(), file.clone().into()]));
    assert!(plain.contains("rpc World/Player::#4(Vector2(1.5, -2))"), "{plain}");
    // JSON: one object per record, then the statistics.
    let json = stdout(&run(&[
        OsArg::from("multiplayer"),
        "--format".into(),
        "json".into(),
        "--allow-objects".into(),
        "--rules".into(),
        rules.clone().into(),
        file.clone().into(),
    ]));
    let lines: Vec<Value> = json.lines().map(parse_json).collect();
    assert_eq!(lines.len(), count + 1);
    let call = lines.iter().find(|l| l["message"]["method"] == "r3").unwrap();
    assert_eq!(
        call["message"]["args"],
        serde_json::json!([
            {"value": true, "hex": "81"},
            {"value": 2.5, "hex": "0300000000002040"},
            {"value": {"type": "Vector2", "value": [3.0, 4.0]}, "hex": "050000000000404000008040"},
        ])
    );
    assert!(lines.last().unwrap()["stats"]["calls"].as_array().unwrap().len() > 5);
    // Natural JSON: the same records, the arguments as natural JSON.
    let natural = stdout(&run(&[
        OsArg::from("multiplayer"),
        "--format".into(),
        "natural".into(),
        "--allow-objects".into(),
        "--rules".into(),
        rules.clone().into(),
        file.clone().into(),
    ]));
    let natural: Vec<Value> = natural.lines().map(parse_json).collect();
    assert_eq!(natural.len(), count + 1);
    let call = natural.iter().find(|l| l["message"]["method"] == "r3").unwrap();
    assert_eq!(
        call["message"]["args"],
        serde_json::json!([
            {"value": true, "hex": "81"},
            {"value": 2.5, "hex": "0300000000002040"},
            {"value": {"x": 3.0, "y": 4.0}, "hex": "050000000000404000008040"},
        ])
    );
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&rules);
}

/// `corpus/multiplayer/godot4`, the capture's own project.
pub(crate) fn godot4_project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/multiplayer/godot4")
}

/// The RPC of a JSON line (inside a relay too).
pub(crate) fn rpc_of(line: &Value) -> Option<&Value> {
    let message = &line["message"];
    let message = if message["command"] == "relay" { &message["packet"] } else { message };
    (message["command"] == "rpc").then_some(message)
}

/// `--project corpus/multiplayer/godot4`, without a rules file, names every RPC the
/// hand-written list names, with the same name and a verified checksum, and more: every call
/// the engine received is named as the engine's receiver named it, except the nodes whose
/// script the capture builds at run time (`World/ManyMethods`: GDScript.new()) and the node
/// whose lists differ between the peers (`World/Mismatch`: named as the sender's script names
/// it). SPAWN and SYNC values print with their property names, from `spawned.tscn`.
#[test]
fn a_godot4_project_names_methods_and_replicated_properties() {
    let file = scratch("godot4-project.capture");
    let count = godot4_capture(&file);
    let rules = scratch("project-rules.txt");
    std::fs::write(&rules, HAND_LIST).unwrap();
    let project = godot4_project();
    let json = |extra: &[OsArg]| -> Vec<Value> {
        let mut args = vec![OsArg::from("multiplayer"), "--format".into(), "json".into()];
        args.extend_from_slice(extra);
        args.extend(["--allow-objects".into(), file.clone().into()]);
        let output = run(&args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
        assert_eq!(lines.len(), count + 1);
        lines
    };
    let by_rules = json(&["--rules".into(), rules.clone().into()]);
    let by_project = json(&["--project".into(), project.clone().into()]);
    let mut named = 0;
    for (hand, read) in by_rules.iter().zip(&by_project) {
        let (Some(hand), Some(read)) = (rpc_of(hand), rpc_of(read)) else { continue };
        if hand["method"].is_string() {
            assert_eq!(hand["method"], read["method"], "{hand} {read}");
            assert_eq!(read["checksum"], "verified", "{read}");
            named += 1;
        }
    }
    assert!(named > 100, "{named}");
    // Against what the engine's receiver called (the first line is the peer id message).
    let mut checked = 0;
    for ((_, _, record), line) in godot4_records().iter().zip(&by_project[1..]) {
        let Some(rpc) = rpc_of(line) else { continue };
        let calls: Vec<&Value> = record["deliveries"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["effects"].as_array().unwrap())
            .filter(|e| e["kind"] == "call")
            .collect();
        let node = rpc["node"].as_str().unwrap_or("?");
        match node {
            "World/ManyMethods" => assert!(rpc["method"].is_null(), "{rpc}"),
            "World/Mismatch" => assert!(rpc["method"] == "alpha" || rpc["method"] == "beta"),
            _ => {
                for call in calls {
                    assert_eq!(rpc["method"], call["method"], "{rpc} {call}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
    // Text: every call of World/Child (an inherited script) is named; values have names.
    let text = stdout(&run(&[
        OsArg::from("multiplayer"),
        "--allow-objects".into(),
        "--project".into(),
        project.clone().into(),
        file.clone().into(),
    ]));
    assert!(text.contains("rpc World/Child::child1(1)"), "{text}");
    assert!(text.contains("rpc World/Player::plain(\"native\")"), "{text}");
    assert!(
        text.contains("spawn Hero by World/Spawner scene 0 (res://spawned.tscn?) net 1 sync [2] state [position = Vector2(10, 20), hp = 250, label = \"hero\", inventory = { \"gold\": 99, \"items\": [\"sword\", \"shield\"] }]"),
        "{text}"
    );
    assert!(text.contains("Hero (net 1) [position = Vector2(11, 21), flag = true]"), "{text}");
    assert!(text.contains("Hero (net 1) [0, 1] [hp = 230, label = \"wounded\"]"), "{text}");
    // JSON: the property names beside the values.
    let spawn = by_project.iter().find(|l| l["message"]["name"] == "Hero").unwrap();
    assert_eq!(
        spawn["message"]["properties"],
        serde_json::json!(["position", "hp", "label", "inventory"])
    );
    assert_eq!(spawn["message"]["scene_path"], "res://spawned.tscn");
    let sync = by_project
        .iter()
        .flat_map(|l| l["message"]["elements"].as_array().cloned().unwrap_or_default())
        .find(|e| e["node"] == "Hero (net 1)")
        .unwrap();
    assert_eq!(sync["properties"], serde_json::json!(["position", "flag"]));
    // Without --project the same values print by position only.
    for line in &by_rules {
        assert!(line["message"]["properties"].is_null(), "{line}");
        for element in line["message"]["elements"].as_array().into_iter().flatten() {
            assert!(element["properties"].is_null(), "{element}");
        }
    }
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&rules);
}

/// A rules-file node key that names no node of the project or of the capture is a warning;
/// one that names a node of either is not.
#[test]
fn a_rules_key_naming_no_node_is_a_warning() {
    let file = scratch("godot4-keys.capture");
    godot4_capture(&file);
    let rules = scratch("keys-rules.txt");
    std::fs::write(
        &rules,
        "methods World/Plyer = r0 r1\nmethods World/Player = r0 r1 r2 r3 rv u1 o1 local1 auth1\nnative World/Player = plain\nmethods Main = x\n",
    )
    .unwrap();
    for project in [false, true] {
        let mut args = vec![OsArg::from("multiplayer"), "--stats".into()];
        if project {
            args.extend(["--project".into(), godot4_project().into()]);
        }
        args.extend(["--rules".into(), rules.clone().into(), file.clone().into()]);
        let output = run(&args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let warnings = stderr(&output);
        assert!(
            warnings.contains("gdvariant: warning: rules file: `World/Plyer` names no node"),
            "{warnings}"
        );
        assert!(!warnings.contains("`World/Player`"), "{warnings}");
        // `Main` is the project's main scene root: named with --project, not without.
        assert_eq!(warnings.contains("`Main`"), !project, "{warnings}");
    }
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&rules);
}

#[test]
fn a_godot3_capture_prints_calls_sets_and_system_messages() {
    for (name, transport) in [("enet", Framing::Enet3), ("websocket", Framing::WebSocket3)] {
        let file = scratch(&format!("godot3-{name}.capture"));
        let packets: Vec<(Direction, u8, Vec<u8>)> = records(&format!("godot3-{name}"))
            .iter()
            .filter(|r| r["conn"] == 0 && r["injected"].is_null())
            .map(|r| {
                let direction =
                    if r["dir"] == "to_server" { Direction::ToServer } else { Direction::ToClient };
                (direction, r["channel"].as_u64().unwrap() as u8, unhex(r["hex"].as_str().unwrap()))
            })
            .collect();
        write_capture(&file, Header { version: Version::Godot3, framing: transport }, &packets);
        let text = stdout(&run(&[
            OsArg::from("multiplayer"),
            "--allow-objects".into(),
            file.clone().into(),
        ]));
        assert!(text.contains("call World/Player::r1(Vector2( 1.5, -2 ))"), "{name}: {text}");
        assert!(text.contains("set World/Player.hp = 42"), "{name}: {text}");
        assert!(text.contains("call World/Jöker::r1(\"unicode node name\")"), "{name}: {text}");
        assert!(text.contains("raw 13 bytes 746f2074686520736572766572"), "{name}: {text}");
        assert!(text.contains("set World/Player.hp = { \"a\": 1 }"), "{name}: {text}");
        assert!(!text.contains("refused"), "{name}: {text}");
        let stats =
            stdout(&run(&[OsArg::from("multiplayer"), "--stats".into(), file.clone().into()]));
        assert!(stats.starts_with("calls\tbytes\tnode::method\n"), "{stats}");
        assert!(stats.contains("\tWorld/Player::hp\n"), "{stats}");
        let _ = std::fs::remove_file(&file);
    }
}

#[test]
fn refused_messages_are_listed_and_bad_inputs_fail() {
    let file = scratch("bad.capture");
    let header = Header { version: Version::Godot4, framing: Framing::Packets };
    write_capture(
        &file,
        header,
        &[
            (Direction::ToServer, 0, vec![0x30, 1, 0, 0]),
            (Direction::ToServer, 0, vec![0x03, b'x']),
        ],
    );
    let output = run(&[OsArg::from("multiplayer"), file.clone().into()]);
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(
        text.contains("refused (invalid_packet): node id width 3 names no width at byte offset 0"),
        "{text}"
    );
    assert!(text.contains("raw 1 bytes 78"), "{text}");
    // Not a capture: exit 1. A bad rules file: exit 2.
    std::fs::write(&file, b"not a capture").unwrap();
    let output = run(&[OsArg::from("multiplayer"), file.clone().into()]);
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).contains("not a capture"), "{}", stderr(&output));
    let rules = scratch("bad-rules.txt");
    std::fs::write(&rules, "allow World/Player\n").unwrap();
    let output = run(&[
        OsArg::from("multiplayer"),
        "--rules".into(),
        rules.clone().into(),
        file.clone().into(),
    ]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("line 1: expected allow NODE MEMBER [N/s]"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&rules);
}

/// An argument for [`run`].
type OsArg = std::ffi::OsString;

/// Bytes from hexadecimal text.
fn unhex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

/// Every argument's JSON in `gdvariant multiplayer --format json` and `--format natural` is the
/// library's own text, unchanged: a 64-bit float one step above the largest 32-bit float keeps
/// every digit (a JSON parser without exact float parsing in between rounds it), and a value
/// nested deeper than a JSON parser's default recursion limit is printed, not replaced by null.
#[test]
fn argument_json_is_the_library_text_unchanged() {
    use gdvariant::{EncodeOptions, Variant};
    use gdvariant_multiplayer::godot4::write::{self, Arg, Target};
    const A: i32 = 1_234_567_890;
    let float = Variant::Float(f64::from(f32::MAX).next_up());
    let mut deep = Variant::Int(7);
    for _ in 0..300 {
        deep = Variant::Array(vec![deep].into());
    }
    let mut packet = Vec::new();
    write::rpc(
        &mut packet,
        Target::Path("Main"),
        0,
        &[Arg::Variant(&float), Arg::Variant(&deep)],
        EncodeOptions::godot4(),
    )
    .unwrap();
    let file = scratch("exact.capture");
    write_capture(
        &file,
        Header { version: Version::Godot4, framing: Framing::WebSocket4 },
        &[(Direction::ToClient, 0, A.to_le_bytes().to_vec()), (Direction::ToServer, 0, packet)],
    );
    for (format, natural) in [("json", false), ("natural", true)] {
        let output = stdout(&run(&[
            OsArg::from("multiplayer"),
            "--format".into(),
            format.into(),
            file.clone().into(),
        ]));
        for value in [&float, &deep] {
            let bytes = value.encode(EncodeOptions::godot4()).unwrap();
            let parsed = gdvariant::parse(&bytes, gdvariant::Options::godot4()).unwrap();
            let expected = if natural {
                gdvariant::json::to_natural_json(parsed).unwrap()
            } else {
                gdvariant::json::to_json(parsed).unwrap()
            };
            assert!(output.contains(&expected), "{format}: {expected} not in {output}");
        }
    }
    let _ = std::fs::remove_file(&file);
}

/// Godot's text on one line, as `gdvariant multiplayer` prints a value: the final line break
/// left out, the others spaces, but inside string literals `\n`, `\t`, `\r` (the corpora's
/// strings hold no other control characters).
fn one_line(text: &str) -> String {
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in text.strip_suffix('\n').unwrap_or(text).chars() {
        match (in_string, escaped, c) {
            (true, false, '\n') => out.push_str("\\n"),
            (true, false, '\t') => out.push_str("\\t"),
            (true, false, '\r') => out.push_str("\\r"),
            (false, _, '\n') => out.push(' '),
            _ => out.push(c),
        }
        (in_string, escaped) = match (in_string, escaped, c) {
            (false, _, '"') => (true, false),
            (true, false, '\\') => (true, true),
            (true, false, '"') => (false, false),
            (true, true, _) => (true, false),
            state => (state.0, state.1),
        };
    }
    out
}

/// Every Variant type of both versions, as an argument of a call, prints as something in the
/// text output: each value case of the real-engine corpora (`corpus/godot{3,4}`), sent as the
/// one argument of a Godot 3 CALL (over ENet) or a Godot 4 RPC, prints as the engine's
/// `var2str` / `var_to_str` on one line, but for Godot 3 RIDs, which Godot prints as nothing
/// and which print `RID()` here, and the cases whose text the bytes do not hold (objects sent by
/// id, `tests/text.rs`), which print the library's text.
#[test]
fn every_variant_type_prints_as_a_call_argument() {
    use gdvariant::view::Element;
    use gdvariant::{EncodeOptions, Options, VariantType};
    for (version, field, count) in
        [(Version::Godot3, "var2str", 27u32), (Version::Godot4, "var_to_str", 39)]
    {
        let folder = if version == Version::Godot3 { "godot3" } else { "godot4" };
        let options = Options::new(version).with_allow_objects(true);
        let mut cases = Vec::new();
        let mut packets = Vec::new();
        for case in read_jsonl(&corpus_dir(folder).join("manifest.jsonl")) {
            let name = case["name"].as_str().unwrap();
            let Some(engine) = case[field].as_str() else { continue };
            let path = corpus_dir(folder).join(format!("{name}.bin"));
            let Ok(bytes) = std::fs::read(&path) else { continue };
            if bytes.is_empty() || bytes.len() > 4096 {
                continue;
            }
            let element = Element::validate_at(&bytes, 0, options).unwrap();
            let mut packet = Vec::new();
            if version == Version::Godot3 {
                use gdvariant_multiplayer::godot3::write::{self, Arg, Target};
                packet.extend_from_slice(&7u32.to_le_bytes());
                packet.extend_from_slice(&1i32.to_le_bytes());
                let options = EncodeOptions::godot3().with_full_objects(true);
                write::call(
                    &mut packet,
                    Target::Path("Main"),
                    "m",
                    &[Arg::Element(element)],
                    options,
                )
                .unwrap();
            } else {
                use gdvariant_multiplayer::godot4::write::{self, Arg, Target};
                let options = EncodeOptions::godot4().with_full_objects(true);
                write::rpc(&mut packet, Target::Path("Main"), 0, &[Arg::Element(element)], options)
                    .unwrap();
            }
            packets.push((Direction::ToServer, 1, packet));
            cases.push((name.to_string(), element.variant_type(), engine.to_string(), bytes));
        }
        let transport = if version == Version::Godot3 { Framing::Enet3 } else { Framing::Packets };
        let file = scratch(&format!("{folder}-types.capture"));
        write_capture(&file, Header { version, framing: transport }, &packets);
        let output =
            run(&[OsArg::from("multiplayer"), "--allow-objects".into(), file.clone().into()]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let text = stdout(&output);
        let lines: Vec<&str> = text.lines().take(cases.len()).collect();
        assert_eq!(lines.len(), cases.len());
        let (open, close) = if version == Version::Godot3 {
            ("call Main::m(", ")")
        } else {
            ("rpc Main::#0(", ")")
        };
        let mut types = std::collections::BTreeSet::new();
        let mut as_the_engine = 0;
        for ((name, variant_type, engine, bytes), line) in cases.iter().zip(&lines) {
            let shown = line.split('\t').nth(4).unwrap();
            if version == Version::Godot4 && bytes == b"\x1d\0\0\0\0\0\0\0" {
                // A lone PackedByteArray goes in the byte-only form, where an empty one is no
                // argument at all (Godot calls the method without one).
                assert_eq!(shown, "rpc Main::#0()", "{name}");
                continue;
            }
            let argument = shown
                .strip_prefix(open)
                .and_then(|s| s.strip_suffix(close))
                .unwrap_or_else(|| panic!("{name}: {line}"));
            assert!(!argument.is_empty(), "{version:?} {name}: {line}");
            assert_eq!(line.split('\t').count(), 5, "{version:?} {name}: {line}");
            types.insert(*variant_type);
            let value = gdvariant::parse(bytes, options).unwrap();
            let library = gdvariant::text::to_text_as(value, version).unwrap();
            let display = gdvariant::text::to_display_text_as(value, version).unwrap();
            assert_eq!(argument, one_line(&display), "{version:?} {name}");
            if *variant_type == VariantType::Rid && version == Version::Godot3 {
                assert_eq!((engine.as_str(), argument), ("", "RID()"), "{name}");
            } else if library == *engine {
                assert_eq!(argument, one_line(engine), "{version:?} {name}");
                as_the_engine += 1;
            } else {
                // The bytes do not hold what Godot prints (a live object sent by id, ...).
                assert!(name.contains("object") || name.contains("typed"), "{name}");
            }
        }
        // A string's line break and tab are escaped, so the line keeps its columns and the text
        // reads back (`str_to_var`) as the same string.
        assert!(
            text.contains(r#"("line1\nline2\t\"quoted\" back\\slash")"#),
            "{version:?}: {text}"
        );
        let every: std::collections::BTreeSet<VariantType> =
            (0..count).map(|id| VariantType::from_id(version, id).unwrap()).collect();
        assert_eq!(types, every, "{version:?}");
        assert!(
            as_the_engine + 12 >= cases.len(),
            "{version:?}: {as_the_engine} of {}",
            cases.len()
        );
        let _ = std::fs::remove_file(&file);
    }
}

/// Every value a message carries, in `--format json`: the `{"value", "hex"}` objects of call
/// arguments, a SET's value, a spawn's argument and state, a sync's values.
fn carried_values<'a>(message: &'a Value, out: &mut Vec<&'a Value>) {
    let message = if message["command"] == "relay" { &message["packet"] } else { message };
    for field in ["args", "state"] {
        out.extend(message[field].as_array().into_iter().flatten());
    }
    for field in ["value", "argument"] {
        if message[field].is_object() {
            out.push(&message[field]);
        }
    }
    for element in message["elements"].as_array().into_iter().flatten() {
        out.extend(element["values"].as_array().into_iter().flatten());
    }
}

/// `gdvariant multiplayer --format json` on the real-engine captures: every argument (and every
/// other value a message carries) gives its lossless value and its bytes as the packet carried
/// them, in hex; those bytes lie in the packet, and decoded (Godot 3: `var2bytes` bytes; Godot 4:
/// one compressed value, or a byte-only RPC's `PackedByteArray`) they are that value.
#[test]
fn every_argument_gives_its_value_and_its_bytes() {
    use gdvariant::Options;
    use gdvariant_multiplayer::godot4;
    let godot4_file = scratch("godot4-bytes.capture");
    godot4_capture(&godot4_file);
    let mut files = vec![(Version::Godot4, godot4_file)];
    for (name, transport) in [("enet", Framing::Enet3), ("websocket", Framing::WebSocket3)] {
        let packets: Vec<(Direction, u8, Vec<u8>)> = records(&format!("godot3-{name}"))
            .iter()
            .filter(|r| r["conn"] == 0 && r["injected"].is_null())
            .map(|r| {
                let direction =
                    if r["dir"] == "to_server" { Direction::ToServer } else { Direction::ToClient };
                (direction, r["channel"].as_u64().unwrap() as u8, unhex(r["hex"].as_str().unwrap()))
            })
            .collect();
        let file = scratch(&format!("godot3-{name}-bytes.capture"));
        write_capture(&file, Header { version: Version::Godot3, framing: transport }, &packets);
        files.push((Version::Godot3, file));
    }
    for (version, file) in &files {
        let options = Options::new(*version).with_allow_objects(true);
        let output = run(&[
            OsArg::from("multiplayer"),
            "--format".into(),
            "json".into(),
            "--allow-objects".into(),
            file.clone().into(),
        ]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let (mut checked, mut compressed, mut byte_only) = (0, 0, 0);
        let mut types = std::collections::BTreeSet::new();
        for line in stdout(&output).lines().map(parse_json) {
            let mut values = Vec::new();
            carried_values(&line["message"], &mut values);
            let packet = line["hex"].as_str().unwrap_or("");
            for carried in values {
                let hex = carried["hex"].as_str().unwrap();
                assert!(packet.contains(hex), "{version:?}: {hex} not in {packet}");
                let bytes = unhex(hex);
                let expected = &carried["value"];
                let decoded = if *version == Version::Godot3 {
                    let value = gdvariant::parse(&bytes, options).unwrap();
                    types.insert(value.variant_type());
                    gdvariant::json::to_json(value).unwrap()
                } else if line["message"]["byte_only"] == true
                    || line["message"]["packet"]["byte_only"] == true
                {
                    byte_only += 1;
                    let value = gdvariant::Variant::PackedByteArray(bytes.clone());
                    let encoded = value.encode(gdvariant::EncodeOptions::godot4()).unwrap();
                    let value = gdvariant::parse(&encoded, options).unwrap();
                    gdvariant::json::to_json(value).unwrap()
                } else {
                    let (value, used) = godot4::read_compressed(&bytes, options).unwrap();
                    assert_eq!(used, bytes.len(), "{hex}");
                    if matches!(value, godot4::Value::Bool(_) | godot4::Value::Int { .. }) {
                        compressed += 1;
                    }
                    types.insert(value.variant_type());
                    gdvariant::json::to_json(value.value()).unwrap()
                };
                assert_eq!(&parse_json(&decoded), expected, "{version:?}: {hex}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{version:?}: {checked}");
        // Every type of the version was an argument (the captures send one of each).
        let count = if *version == Version::Godot3 { 27 } else { 39 };
        assert_eq!(types.len(), count, "{version:?}: {types:?}");
        if *version == Version::Godot4 {
            assert!(compressed > 50 && byte_only > 0, "{compressed} {byte_only}");
        }
        let _ = std::fs::remove_file(file);
    }
}
