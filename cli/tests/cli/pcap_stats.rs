//! `gdvariant pcap --multiplayer --stats` counts what `--multiplayer` lists: on every capture
//! of `corpus/captures/` and on a generated Godot 4 ENet capture (`pcap/benches/support/
//! synth.rs`: the corpus's real packets over many connections), the per-method rows of
//! `--stats` (JSON, and the same rows as text) are those derived from the listed messages, each
//! under its call (`node::member`), command or refusal, its bytes from its hex, with the same
//! bound of keys.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gdvariant_pcap::MethodStats;
use serde_json::Value;

use crate::support::*;

#[path = "../../../pcap/benches/support/synth.rs"]
mod synth;

/// (flow, direction, member) → (messages, bytes).
type Rows = BTreeMap<(String, String, String), (u64, u64)>;

fn run_on(args: &[&str], file: &Path) -> Vec<String> {
    let mut all: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    all.push(file.into());
    let output = run(&all);
    assert_eq!(code(&output), 0, "{args:?} {}: {}", file.display(), stderr(&output));
    stdout(&output).lines().map(str::to_owned).collect()
}

/// Each flow's Godot version, from `--flows`.
fn versions(file: &Path) -> BTreeMap<String, u64> {
    run_on(&["pcap", "--flows", "--format", "json"], file)
        .iter()
        .map(|line| {
            let flow = parse_json(line);
            (flow["flow"].as_str().unwrap().to_owned(), flow["godot"].as_u64().unwrap_or(0))
        })
        .collect()
}

/// What `MethodStats` counts a listed message under: a call's `node::member` (`?` for what is
/// not named), `(command)` (Godot 4's SYS messages are `sys`, a delta sync is a `sync`), or
/// `(refused: reason)`.
fn member(line: &Value, godot: u64) -> String {
    if let Some(reason) = line["refused"].as_str() {
        return format!("(refused: {reason})");
    }
    let mut message = &line["message"];
    if message["command"] == "relay" {
        message = &message["packet"];
    }
    if message.get("node").is_some() {
        let name = |v: &Value| v.as_str().unwrap_or("?").to_owned();
        let member = message.get("method").or(message.get("property")).unwrap();
        return format!("{}::{}", name(&message["node"]), name(member));
    }
    let command = message["command"].as_str().unwrap();
    let command = match command {
        "auth" | "add_peer" | "del_peer" if godot == 4 => "sys",
        "delta_sync" => "sync",
        other => other,
    };
    format!("({command})")
}

/// The rows derived from the listing (keys past `MethodStats`' bound counted together, as it
/// does), and what went past it.
fn from_listing(file: &Path) -> (Rows, (u64, u64)) {
    let versions = versions(file);
    let (mut rows, mut other) = (Rows::new(), (0, 0));
    let mut listed = 0;
    for line in run_on(&["pcap", "--multiplayer", "--format", "json"], file) {
        let line = parse_json(&line);
        if line.get("message").is_none() && line.get("refused").is_none() {
            continue;
        }
        listed += 1;
        let flow = line["flow"].as_str().unwrap().to_owned();
        let key = (
            flow.clone(),
            line["direction"].as_str().unwrap().to_owned(),
            member(&line, versions[&flow]),
        );
        let bytes = line["hex"].as_str().unwrap().len() as u64 / 2;
        let counts = if rows.contains_key(&key) || rows.len() < MethodStats::DEFAULT_MAX_KEYS {
            rows.entry(key).or_default()
        } else {
            &mut other
        };
        counts.0 += 1;
        counts.1 += bytes;
    }
    assert!(listed > 0, "{}: no multiplayer message listed", file.display());
    (rows, other)
}

/// The per-method rows of `--stats --multiplayer` as JSON, and the `(other)` row's counts; the
/// text rows are checked to be the same.
fn from_stats(file: &Path) -> (Rows, (u64, u64)) {
    let (mut rows, mut other) = (Rows::new(), (0, 0));
    let lines = run_on(&["pcap", "--stats", "--multiplayer", "--format", "json"], file);
    for line in lines.iter().map(|line| parse_json(line)) {
        let Some(member) = line["member"].as_str() else { continue };
        let counts = (line["messages"].as_u64().unwrap(), line["bytes"].as_u64().unwrap());
        if member == "(other)" {
            other = counts;
            continue;
        }
        let key = (
            line["flow"].as_str().unwrap().to_owned(),
            line["direction"].as_str().unwrap().to_owned(),
            member.to_owned(),
        );
        assert!(rows.insert(key, counts).is_none(), "{}: a row twice: {line}", file.display());
    }
    // Text: the same rows, after the per-flow lines and the header.
    let text = run_on(&["pcap", "--stats", "--multiplayer"], file);
    let header = text.iter().position(|l| l.starts_with("flow\tdirection\tmessages")).unwrap();
    let mut text_rows = Rows::new();
    let mut text_other = (0, 0);
    for line in &text[header + 1..] {
        let fields: Vec<&str> = line.splitn(5, '\t').collect();
        let [flow, direction, messages, bytes, member] = fields[..] else { panic!("{line}") };
        let counts = (messages.parse().unwrap(), bytes.parse().unwrap());
        if member == "(other)" {
            text_other = counts;
        } else {
            text_rows.insert((flow.into(), direction.into(), member.into()), counts);
        }
    }
    assert_eq!(text_rows, rows, "{}: text and JSON rows", file.display());
    assert_eq!(text_other, other, "{}", file.display());
    (rows, other)
}

fn stats_match_listing(file: &Path) -> usize {
    let (listed, listed_other) = from_listing(file);
    let (stats, stats_other) = from_stats(file);
    assert_eq!(stats, listed, "{}", file.display());
    assert_eq!(stats_other, listed_other, "{}", file.display());
    stats.len()
}

#[test]
fn pcap_multiplayer_stats_count_what_the_listing_prints_on_the_corpus_captures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures");
    let mut with_messages = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pcap" && e != "pcapng") {
            continue;
        }
        let has_multiplayer = run_on(&["pcap", "--multiplayer", "--format", "json"], &path)
            .iter()
            .any(|l| l.contains("\"message\"") || l.contains("\"refused\""));
        if !has_multiplayer {
            // A capture without multiplayer traffic: no per-method row either.
            let (rows, other) = from_stats(&path);
            assert!(rows.is_empty() && other == (0, 0), "{}: {rows:?}", path.display());
            continue;
        }
        stats_match_listing(&path);
        with_messages += 1;
    }
    assert!(with_messages >= 4, "{with_messages}");
}

#[test]
fn pcap_multiplayer_stats_count_what_the_listing_prints_on_a_generated_enet_capture() {
    let (capture, flows, messages) = synth::enet(2 << 20, 8, 3);
    assert!(flows > 8 && messages > 10_000, "{flows} {messages}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("enet.pcap");
    std::fs::write(&file, capture).unwrap();
    let rows = stats_match_listing(&file);
    assert!(rows as u64 > flows * 4, "{rows} rows for {flows} flows");
}
