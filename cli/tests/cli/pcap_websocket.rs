//! `gdvariant pcap` on WebSocket: the real Godot 3.2.3 WebSocket multiplayer capture of
//! `corpus/captures/` decoded with `--multiplayer --godot 3` (every call the engine logged, by
//! node and method, arguments byte-exact and in order), its flow list, `--to-capture` read back
//! by `gdvariant multiplayer`, and the refusals of `--to-capture`.

use std::ffi::OsString;
use std::path::PathBuf;

use serde_json::Value;

use crate::support::*;

fn capture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures/godot3_websocket_mp.pcap")
}

fn args(list: &[&str], file: PathBuf) -> Vec<OsString> {
    list.iter().map(OsString::from).chain([file.into_os_string()]).collect()
}

/// Every call the engine logged as received: (direction, node, method, argument hexes).
fn logged() -> Vec<(String, String, String, Vec<String>)> {
    let json: Value =
        serde_json::from_slice(&std::fs::read(capture().with_extension("json")).unwrap()).unwrap();
    json["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let direction = if c["side"] == "server" { "to_server" } else { "to_client" };
            let args = c["args"].as_array().unwrap();
            (
                direction.to_owned(),
                c["node"].as_str().unwrap().to_owned(),
                c["method"].as_str().unwrap().to_owned(),
                args.iter().map(|a| a.as_str().unwrap().to_owned()).collect(),
            )
        })
        .collect()
}

/// The calls and sets of `gdvariant pcap --multiplayer` or `gdvariant multiplayer` JSON lines.
fn calls(text: &str) -> Vec<(String, String, String, Vec<String>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let json = parse_json(line);
        let message = &json["message"];
        let args: Vec<String> = match message["command"].as_str() {
            Some("call") => message["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["hex"].as_str().unwrap().to_owned())
                .collect(),
            Some("set") => vec![message["value"]["hex"].as_str().unwrap().to_owned()],
            _ => continue,
        };
        let member = message.get("method").or_else(|| message.get("property")).unwrap();
        out.push((
            json["direction"].as_str().unwrap().to_owned(),
            message["node"].as_str().unwrap().to_owned(),
            member.as_str().unwrap().to_owned(),
            args,
        ));
    }
    out
}

fn by_direction(
    all: &[(String, String, String, Vec<String>)],
    direction: &str,
) -> Vec<(String, String, String, Vec<String>)> {
    all.iter().filter(|c| c.0 == direction).cloned().collect()
}

#[test]
fn pcap_websocket_multiplayer_every_logged_call_byte_exact_in_order() {
    let output =
        run(&args(&["pcap", "--multiplayer", "--godot", "3", "--format", "json"], capture()));
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let got = calls(&stdout(&output));
    let want = logged();
    assert_eq!(want.len(), 12);
    for direction in ["to_server", "to_client"] {
        assert_eq!(by_direction(&got, direction), by_direction(&want, direction), "{direction}");
    }
    // The text form names the same calls.
    let output = run(&args(&["pcap", "--multiplayer", "--godot", "3"], capture()));
    let text = stdout(&output);
    assert!(text.contains("websocket upgrade: GET / HTTP/1.1"), "{text}");
    assert!(text.contains("call World/Player::hello(\"from the server\")"), "{text}");
    assert!(text.contains("call World/Player::pair(\"a\", 2)"), "{text}");
    assert!(text.contains("set World/Player.hp = 7"), "{text}");
}

#[test]
fn pcap_websocket_flows_say_why() {
    let output = run(&args(&["pcap", "--flows", "--godot", "3"], capture()));
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "\twebsocket\tthe client's first data is an HTTP GET with `Upgrade: websocket`"
        ),
        "{text}"
    );
}

#[test]
fn pcap_to_capture_is_read_by_gdvariant_multiplayer() {
    let dir = std::env::temp_dir().join(format!("gdvariant-pcap-ws-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("session.capture");
    let _ = std::fs::remove_file(&out);
    let mut list = args(&["pcap", "--godot", "3", "--to-capture"], out.clone());
    list.push(capture().into_os_string());
    let output = run(&list);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("18 messages of 1 WebSocket and 0 ENet flows"),
        "{}",
        stderr(&output)
    );
    let output = run(&args(&["multiplayer", "--format", "json"], out.clone()));
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    // The last line is the statistics.
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("\"direction\"")).collect();
    let got = calls(&lines.join("\n"));
    let want = logged();
    for direction in ["to_server", "to_client"] {
        assert_eq!(by_direction(&got, direction), by_direction(&want, direction), "{direction}");
    }
    // The output may not be the input.
    let mut list = args(&["pcap", "--to-capture"], capture());
    list.push(capture().into_os_string());
    let output = run(&list);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(stderr(&output).contains("is the input"), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&dir);
}
