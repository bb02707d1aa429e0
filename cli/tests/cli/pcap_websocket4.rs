//! `gdvariant pcap --godot 4 --multiplayer` on the real Godot 4.6 WebSocket capture of
//! `corpus/captures/` (`godot4_websocket_mp.pcap`, recorded by `record_godot4_ws.py`): every
//! call each engine logged it received is printed, in order and direction, with its node path,
//! its method id (the method's place in the capture project's `player.gd`, as Godot numbers
//! them), and arguments whose printed bytes read back as the receiver's `var_to_bytes`; the
//! client's id, the spawn, the syncs and the despawn; nothing refused.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use gdvariant::{EncodeOptions, Options, Variant};
use gdvariant_multiplayer::godot4::read_compressed;
use gdvariant_multiplayer::project::Project;
use gdvariant_multiplayer::session::MethodList;
use serde_json::Value;

use crate::support::*;

/// A call: (direction, node, method, arguments as `var_to_bytes` hex).
type Call = (String, String, String, Vec<String>);

/// corpus/captures/.
fn captures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures")
}

/// The Godot 4.6 capture.
fn capture() -> PathBuf {
    captures().join("godot4_websocket_mp.pcap")
}

/// Bytes from hexadecimal text.
fn unhex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

/// Bytes as hexadecimal text.
fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// player.gd's methods as Godot numbers them (sorted by name).
fn methods() -> MethodList {
    let project = Project::read_dir(&captures().join("godot4_ws")).unwrap();
    let script = &project.scripts()["res://player.gd"];
    MethodList::script(script.rpc.iter().map(|f| f.name.clone()))
}

/// (direction, node, method, arguments as `var_to_bytes` hex) of every call the engines
/// logged they received.
fn logged(log: &Value) -> Vec<Call> {
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "got")
        .map(|e| {
            let direction = if e["side"] == "server" { "to_server" } else { "to_client" };
            (
                direction.to_owned(),
                e["node"].as_str().unwrap().to_owned(),
                e["method"].as_str().unwrap().to_owned(),
                e["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

/// A call's argument as printed (its compressed bytes), read back and written as
/// `var_to_bytes` writes it.
fn var_to_bytes(arg: &Value) -> String {
    let bytes = unhex(arg["hex"].as_str().unwrap());
    let (value, used) = read_compressed(&bytes, Options::godot4()).unwrap();
    assert_eq!(used, bytes.len());
    let value = Variant::try_from(value.value()).unwrap();
    to_hex(&value.encode(EncodeOptions::godot4()).unwrap())
}

/// The JSON lines' calls as (direction, node, method, arguments as `var_to_bytes` hex), the
/// method named by the line or by its id in `methods`; and the count of each command.
fn calls(text: &str, methods: &MethodList) -> (Vec<Call>, BTreeMap<String, usize>, Option<i64>) {
    let (mut calls, mut commands, mut peer_id) = (Vec::new(), BTreeMap::new(), None);
    for line in text.lines().filter(|l| l.contains("\"direction\"")) {
        let json = parse_json(line);
        assert!(json.get("refused").is_none(), "{line}");
        let message = &json["message"];
        // The WebSocket lines (upgrade, close) have none.
        let Some(command) = message["command"].as_str() else { continue };
        *commands.entry(command.to_owned()).or_default() += 1;
        if command == "peer_id" {
            peer_id = message["peer"].as_i64();
        }
        if command != "rpc" {
            continue;
        }
        let method = message["method"].as_str().map(String::from).unwrap_or_else(|| {
            let id = message["method_id"].as_u64().unwrap() as u16;
            methods.name(id).unwrap().to_owned()
        });
        calls.push((
            json["direction"].as_str().unwrap().to_owned(),
            message["node"].as_str().unwrap().to_owned(),
            method,
            message["args"].as_array().unwrap().iter().map(var_to_bytes).collect(),
        ));
    }
    (calls, commands, peer_id)
}

fn log() -> Value {
    serde_json::from_slice(&std::fs::read(capture().with_extension("json")).unwrap()).unwrap()
}

fn event_count(log: &Value, event: &str) -> usize {
    log["events"].as_array().unwrap().iter().filter(|x| x["event"] == event).count()
}

#[test]
fn pcap_godot4_websocket_multiplayer_prints_every_logged_call() {
    let log = log();
    let output = run(&[
        "pcap".as_ref(),
        "--godot".as_ref(),
        "4".as_ref(),
        "--multiplayer".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        capture().as_os_str(),
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(stderr(&output).contains(" 0 refused;"), "{}", stderr(&output));
    let methods = methods();
    let (calls, commands, peer_id) = calls(&stdout(&output), &methods);
    let want = logged(&log);
    assert_eq!(want.len(), 24);
    assert_eq!(calls, want);
    assert_eq!(peer_id, log["client_id"].as_i64());
    let count = |c: &str| commands.get(c).copied().unwrap_or(0);
    assert_eq!((count("spawn"), count("despawn"), count("raw")), (1, 1, 2));
    assert_eq!(count("sync"), event_count(&log, "synchronized"));
    assert_eq!(count("delta_sync"), event_count(&log, "delta_synchronized"));

    // The text form: the same calls, named by id without a project.
    let output = run(&[
        "pcap".as_ref(),
        "--godot".as_ref(),
        "4".as_ref(),
        "--multiplayer".as_ref(),
        capture().as_os_str(),
    ]);
    let text = stdout(&output);
    let hello = methods.id("hello").unwrap();
    assert!(text.contains("websocket upgrade: GET /client HTTP/1.1"), "{text}");
    assert!(text.contains(&format!("peer_id {}", log["client_id"])), "{text}");
    assert!(text.contains(&format!("rpc World/Player::#{hello}(\"from the server\")")), "{text}");
    let pair = methods.id("pair").unwrap();
    assert!(text.contains(&format!("rpc World/Player::#{pair}(\"héllo ✓\", 0.1)")), "{text}");
    assert!(text.contains("spawn Hero by World/Spawner"), "{text}");
    assert!(text.contains("despawn net 1 (Hero)"), "{text}");
    assert!(text.contains("websocket close: 3001"), "{text}");
}

#[test]
fn pcap_godot4_to_capture_then_multiplayer_with_the_project_names_every_call() {
    let log = log();
    let dir = std::env::temp_dir().join(format!("gdvariant-pcap-ws4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("session4.capture");
    let _ = std::fs::remove_file(&out);
    let output = run(&[
        "pcap".as_ref(),
        "--godot".as_ref(),
        "4".as_ref(),
        "--to-capture".as_ref(),
        out.as_os_str(),
        capture().as_os_str(),
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("51 messages of 1 WebSocket and 0 ENet flows"),
        "{}",
        stderr(&output)
    );
    let project = captures().join("godot4_ws");
    let output = run(&[
        "multiplayer".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--project".as_ref(),
        project.as_os_str(),
        out.as_os_str(),
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    // Every method named by the project (no list of this test's own: an empty one).
    let (calls, commands, peer_id) =
        calls(&stdout(&output), &MethodList::script(Vec::<String>::new()));
    assert_eq!(calls, logged(&log));
    assert_eq!(peer_id, log["client_id"].as_i64());
    assert_eq!(commands.get("sync").copied(), Some(event_count(&log, "synchronized")));
    let _ = std::fs::remove_dir_all(&dir);
}
