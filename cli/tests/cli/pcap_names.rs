//! `gdvariant pcap` with the names and counts of `gdvariant multiplayer`: a Godot 4 ENet
//! capture derived from the real engine packets of `corpus/multiplayer/godot4.jsonl` (client
//! A's session, each packet in a reliable ENet command after the client's CONNECT) told Godot 4
//! without `--godot`, named by `--rules` and `--project` exactly as `gdvariant multiplayer`
//! names the same packets; `--stats` per method; the real Godot 3 ENet capture converted with
//! `--to-capture` and read back by `gdvariant multiplayer` with the same calls; the Godot 3
//! captures told Godot 3 in `--flows`.

#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::ffi::OsString as OsArg;

use gdvariant_multiplayer::Direction;
use serde_json::Value;

use crate::multiplayer::{
    HAND_LIST, godot4_capture, godot4_project, godot4_records, rpc_of, scratch,
};
use crate::pcap::{enet_capture, run_enet, udp_pcap};
use crate::support::*;

/// Client A's id (its CONNECT's data).
const A: u32 = 1_234_567_890;

/// Client A's Godot 4 session over ENet: the CONNECT, then each packet reliable on its channel.
fn godot4_enet_pcap() -> (Vec<u8>, usize) {
    let mut connect = vec![0x0F, 0xFF, 0x82, 0xFF, 0, 1, 0x0F, 0xFF, 0, 0];
    for n in [1400u32, 32768, 3, 0, 0, 5000, 2, 2, 0x1234, A] {
        connect.extend_from_slice(&n.to_be_bytes());
    }
    let mut datagrams = vec![(true, connect)];
    let mut sequences: BTreeMap<(bool, u8), u16> = BTreeMap::new();
    let records = godot4_records();
    for (direction, bytes, record) in &records {
        let to_server = *direction == Direction::ToServer;
        let channel = record["channel"].as_u64().unwrap() as u8;
        let sequence = sequences.entry((to_server, channel)).or_insert(0);
        *sequence += 1;
        let mut datagram = vec![0, 0, 0x86, channel];
        datagram.extend_from_slice(&sequence.to_be_bytes());
        datagram.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        datagram.extend_from_slice(bytes);
        datagrams.push((to_server, datagram));
    }
    (udp_pcap(&datagrams), records.len())
}

/// `gdvariant pcap --multiplayer --format json` of the derived capture, with `extra`.
fn pcap_json(file: &std::path::Path, extra: &[OsArg]) -> Vec<Value> {
    let mut args = vec![OsArg::from("pcap"), "--multiplayer".into(), "--allow-objects".into()];
    args.extend(["--format".into(), "json".into()]);
    args.extend_from_slice(extra);
    args.push(file.into());
    let output = run(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    stdout(&output).lines().map(parse_json).collect()
}

/// `gdvariant multiplayer --format json` of the same packets over WebSocket, with `extra`
/// (the peer id line and the statistics left out).
fn multiplayer_json(extra: &[OsArg]) -> Vec<Value> {
    let file = scratch("names-godot4.capture");
    godot4_capture(&file);
    let mut args = vec![OsArg::from("multiplayer"), "--allow-objects".into()];
    args.extend(["--format".into(), "json".into()]);
    args.extend_from_slice(extra);
    args.push(file.clone().into());
    let output = run(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    let _ = std::fs::remove_file(&file);
    lines[1..lines.len() - 1].to_vec()
}

/// (node, method, checksum) of each RPC line.
fn rpcs(lines: &[Value]) -> Vec<(Value, Value, Value)> {
    lines
        .iter()
        .filter_map(rpc_of)
        .map(|rpc| (rpc["node"].clone(), rpc["method"].clone(), rpc["checksum"].clone()))
        .collect()
}

#[test]
fn pcap_names_godot4_rpcs_with_rules_and_project_as_multiplayer_does() {
    let (capture, count) = godot4_enet_pcap();
    let file = scratch("names-godot4-enet.pcap");
    std::fs::write(&file, &capture).unwrap();
    let rules = scratch("names-rules.txt");
    std::fs::write(&rules, HAND_LIST).unwrap();
    let project = godot4_project();
    for extra in [
        vec![],
        vec![OsArg::from("--rules"), rules.clone().into()],
        vec![OsArg::from("--project"), project.clone().into()],
    ] {
        let from_pcap = pcap_json(&file, &extra);
        assert_eq!(from_pcap.len(), count);
        let from_multiplayer = multiplayer_json(&extra);
        assert_eq!(rpcs(&from_pcap), rpcs(&from_multiplayer), "{extra:?}");
        let named = rpcs(&from_pcap).iter().filter(|(_, m, _)| m.is_string()).count();
        assert_eq!(named > 100, !extra.is_empty(), "{extra:?}: {named}");
        // The message JSON is the same, value for value (the client's id from the CONNECT).
        for (a, b) in from_pcap.iter().zip(&from_multiplayer) {
            assert_eq!(a["message"], b["message"]);
            assert_eq!((&a["from"], &a["to"]), (&b["from"], &b["to"]));
        }
    }
    // Text, with the project: the spawn's properties are named.
    let output = run(&[
        OsArg::from("pcap"),
        "--multiplayer".into(),
        "--allow-objects".into(),
        "--project".into(),
        project.clone().into(),
        file.clone().into(),
    ]);
    assert!(stdout(&output).contains("rpc World/Child::child1(1)"), "{}", stdout(&output));
    assert!(stdout(&output).contains("state [position = Vector2(10, 20), hp = 250"));
    // Told Godot 4 without --godot; --godot 3 forces it (and the packets are then refused).
    let flows = run(&[OsArg::from("pcap"), "--flows".into(), file.clone().into()]);
    assert!(
        stdout(&flows).contains("\tgodot 4 (the first message is a Godot 4 packet"),
        "{}",
        stdout(&flows)
    );
    let forced = run(&[
        OsArg::from("pcap"),
        "--flows".into(),
        "--godot".into(),
        "3".into(),
        file.clone().into(),
    ]);
    assert!(stdout(&forced).contains("\tgodot 3 (given)"), "{}", stdout(&forced));
    // --project and --rules need --multiplayer.
    let output =
        run(&[OsArg::from("pcap"), "--project".into(), project.into(), file.clone().into()]);
    assert_eq!(code(&output), 2);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&rules);
}

#[test]
fn pcap_stats_count_per_flow_direction_and_method() {
    let (capture, count) = godot4_enet_pcap();
    let rules = scratch("stats-rules.txt");
    std::fs::write(&rules, HAND_LIST).unwrap();
    let rules_arg = rules.clone().into_os_string();
    let args = |json: bool| {
        let mut args = vec![OsArg::from("pcap"), "--multiplayer".into(), "--stats".into()];
        args.extend(["--allow-objects".into(), "--rules".into(), rules_arg.clone()]);
        if json {
            args.extend(["--format".into(), "json".into()]);
        }
        args.push("-".into());
        args
    };
    let output = run_with_input(&args(true), &capture);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    // The flow's line, then one per key.
    let rows: Vec<&Value> = lines.iter().filter(|l| l["member"].is_string()).collect();
    let total: u64 = rows.iter().map(|r| r["messages"].as_u64().unwrap()).sum();
    assert_eq!(total as usize, count);
    // Each key's count is the number of lines naming it in the listing.
    let listing = pcap_json_stdin(&capture, &rules_arg);
    let mut by_key: BTreeMap<(String, String), u64> = BTreeMap::new();
    for line in &listing {
        let key = match rpc_of(line) {
            Some(rpc) => format!(
                "{}::{}",
                rpc["node"].as_str().unwrap_or("?"),
                rpc["method"].as_str().unwrap_or("?")
            ),
            None => continue,
        };
        *by_key.entry((line["direction"].as_str().unwrap().into(), key)).or_default() += 1;
    }
    let mut counted: BTreeMap<(String, String), u64> = BTreeMap::new();
    for row in &rows {
        let member = row["member"].as_str().unwrap();
        if member.starts_with('(') {
            continue;
        }
        assert_eq!(row["flow"], "f0");
        counted.insert(
            (row["direction"].as_str().unwrap().into(), member.into()),
            row["messages"].as_u64().unwrap(),
        );
    }
    assert!(
        counted.keys().any(|(d, k)| d == "to_server" && k == "World/Player::r1"),
        "{counted:?}"
    );
    // Relayed RPCs are counted under the relay's key; the RPCs listed directly match.
    for (key, n) in &by_key {
        if let Some(c) = counted.get(key) {
            assert!(c >= n, "{key:?}: {c} < {n}");
        }
    }
    // Text: a header line, then tab-separated rows.
    let text = stdout(&run_with_input(&args(false), &capture));
    assert!(text.contains("flow\tdirection\tmessages\tbytes\tnode::member"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("f0\tto_server\t") && l.ends_with("\tWorld/Player::r1")),
        "{text}"
    );
    let _ = std::fs::remove_file(&rules);
}

fn pcap_json_stdin(capture: &[u8], rules: &std::ffi::OsStr) -> Vec<Value> {
    let args = [
        OsArg::from("pcap"),
        "--multiplayer".into(),
        "--allow-objects".into(),
        "--rules".into(),
        rules.into(),
        "--format".into(),
        "json".into(),
        "-".into(),
    ];
    stdout(&run_with_input(&args, capture)).lines().map(parse_json).collect()
}

#[test]
fn pcap_enet_to_capture_is_read_by_gdvariant_multiplayer_with_the_same_calls() {
    let out = scratch("godot3-enet.capture");
    let _ = std::fs::remove_file(&out);
    // No --godot: the flows are told Godot 3.
    let output = run(&[
        OsArg::from("pcap"),
        "--to-capture".into(),
        out.clone().into(),
        enet_capture().into(),
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("messages of 0 WebSocket and 2 ENet flows written"),
        "{}",
        stderr(&output)
    );
    let output =
        run(&[OsArg::from("multiplayer"), "--format".into(), "json".into(), out.clone().into()]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let from_capture: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    let from_capture = &from_capture[..from_capture.len() - 1];
    let from_pcap: Vec<Value> = stdout(&run_enet(&["pcap", "--multiplayer", "--format", "json"]))
        .lines()
        .map(parse_json)
        .collect();
    assert_eq!(from_capture.len(), from_pcap.len());
    let mut calls = 0;
    for (a, b) in from_capture.iter().zip(&from_pcap) {
        assert_eq!(a["message"], b["message"], "{a} {b}");
        assert_eq!(
            (&a["from"], &a["to"], &a["direction"]),
            (&b["from"], &b["to"], &b["direction"])
        );
        assert_eq!((&a["channel"], &a["hex"]), (&b["channel"], &b["hex"]));
        calls += usize::from(a["message"]["command"] == "call");
    }
    assert!(calls > 150, "{calls}");
    let _ = std::fs::remove_file(&out);
}

#[test]
fn pcap_flows_tell_the_real_godot3_captures_without_godot() {
    for name in
        ["godot3_tcp_put_var.pcap", "godot3_websocket_mp.pcap", "godot3_enet_multiplayer.pcap"]
    {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures").join(name);
        let output = run(&[
            OsArg::from("pcap"),
            "--flows".into(),
            "--format".into(),
            "json".into(),
            path.clone().into(),
        ]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let flows: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
        let read: Vec<&Value> =
            flows.iter().filter(|f| f["carries"] != "other" && f["carries"] != "none").collect();
        assert!(!read.is_empty(), "{name}");
        for flow in read {
            assert_eq!(flow["godot"], 3, "{name}: {flow}");
            assert!(flow["godot_why"].as_str().unwrap().contains("Godot 3"), "{flow}");
        }
        // The values print as --godot 3 prints them.
        let told = run(&[OsArg::from("pcap"), path.clone().into()]);
        let given = run(&[OsArg::from("pcap"), "--godot".into(), "3".into(), path.into()]);
        assert_eq!(stdout(&told), stdout(&given), "{name}");
    }
}
