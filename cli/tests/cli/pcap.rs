//! `gdvariant pcap`: the real Godot 3.2.3 capture of `corpus/captures/` printed as text and
//! JSON (every value's bytes as the engines logged them), its flow list and counts, and the
//! argument and input errors.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::*;

fn capture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures/godot3_tcp_put_var.pcap")
}

/// What the engines logged they sent: (direction, hex, refused), client's first.
fn logged() -> Vec<(String, String, bool)> {
    let path = capture().with_extension("json");
    let json: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut out = Vec::new();
    for key in ["to_server", "to_client"] {
        for entry in json[key].as_array().unwrap() {
            out.push((
                key.to_owned(),
                entry["hex"].as_str().unwrap().to_owned(),
                entry["refused"].as_bool().unwrap(),
            ));
        }
    }
    out
}

#[test]
fn pcap_json_lines_carry_every_frame_the_engines_sent() {
    let output = run(&["pcap", "--godot", "3", "--format", "json"]
        .map(std::ffi::OsString::from)
        .into_iter()
        .chain([capture().into_os_string()])
        .collect::<Vec<_>>());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let mut got: Vec<(String, String, bool)> = stdout(&output)
        .lines()
        .map(|line| {
            let json = parse_json(line);
            assert_eq!(json["flow"], "f0");
            assert!(json["time"].as_f64().unwrap() > 1.7e9);
            let refused = json.get("error").is_some();
            let hex = json["hex"].as_str().unwrap();
            // A refused frame's bytes are shown with their 4-byte prefix.
            let hex = if refused { hex[8..].to_owned() } else { hex.to_owned() };
            (json["direction"].as_str().unwrap().to_owned(), hex, refused)
        })
        .collect();
    // The client's frames all precede the server's reply.
    got.sort_by_key(|(direction, _, _)| direction != "to_server");
    assert_eq!(got, logged());
    assert!(stderr(&output).contains("81 values, 2 refused; gaps 0"), "{}", stderr(&output));
}

#[test]
fn pcap_text_lines_flows_and_stats() {
    let path = capture();
    let output = run(&["pcap".as_ref(), "--godot".as_ref(), "3".as_ref(), path.as_os_str()]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 83);
    assert!(lines[0].ends_with("\tf0\tto_server\tnull"), "{}", lines[0]);
    assert!(lines[5].contains("\terror: "), "{}", lines[5]);
    assert!(lines.iter().any(|l| l.ends_with("\"Héllo wörld 日本 😀\"")));
    let output = run(&[
        "pcap".as_ref(),
        "--flows".as_ref(),
        "--stats".as_ref(),
        "--godot".as_ref(),
        "3".as_ref(),
        path.as_os_str(),
    ]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("f0\ttcp\t127.0.0.1:"), "{}", lines[0]);
    assert!(lines[0].contains("\tput_var\t"), "{}", lines[0]);
    assert!(lines[1].contains("values 41/40\trefused 2/0"), "{}", lines[1]);
    // Forced to UDP, the TCP port is not read: no values.
    let port = logged_port();
    let output = run(&[
        "pcap".as_ref(),
        "--port".as_ref(),
        format!("{port}=udp").as_ref(),
        "--flows".as_ref(),
        path.as_os_str(),
    ]);
    assert!(stdout(&output).contains("\tother\tport"), "{}", stdout(&output));
}

fn logged_port() -> u64 {
    let json: Value =
        serde_json::from_slice(&std::fs::read(capture().with_extension("json")).unwrap()).unwrap();
    json["port"].as_u64().unwrap()
}

#[test]
fn pcap_refuses_bad_arguments_and_files_that_are_not_captures() {
    let path = capture();
    let output = run(&["pcap".as_ref(), "--port".as_ref(), "80=http".as_ref(), path.as_os_str()]);
    assert_eq!(code(&output), 2);
    let output = run_with_input(&["pcap", "-"], b"not a capture");
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).contains("not a pcap or pcapng file"), "{}", stderr(&output));
    // Cut short: what was read is printed, the exit code says the file is damaged.
    let bytes = std::fs::read(&path).unwrap();
    let output = run_with_input(&["pcap", "--godot", "3", "-"], &bytes[..bytes.len() - 10]);
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).contains("ends inside the record"), "{}", stderr(&output));
    assert!(stdout(&output).lines().count() > 70);
}

pub(crate) fn enet_capture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/captures/godot3_enet_multiplayer.pcap")
}

pub(crate) fn run_enet(args: &[&str]) -> std::process::Output {
    run(&args
        .iter()
        .map(std::ffi::OsString::from)
        .chain([enet_capture().into_os_string()])
        .collect::<Vec<_>>())
}

#[test]
fn pcap_multiplayer_prints_enet_calls_with_channel_and_transfer() {
    let output = run_enet(&["pcap", "--godot", "3", "--multiplayer", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    let mut transfers = std::collections::BTreeSet::new();
    let mut calls = 0;
    for line in &lines {
        transfers.insert(line["transfer"].as_str().unwrap().to_owned());
        assert!(line["channel"].as_u64().is_some(), "{line}");
        if line["message"]["command"] == "call" && line["message"]["node"] == "World/Player" {
            calls += 1;
        }
    }
    assert!(calls > 150, "{calls}");
    assert_eq!(transfers, ["reliable", "unreliable"].map(String::from).into_iter().collect());
    // The client's rpc("r1", 0): from the client's id (its CONNECT data) to the server.
    assert!(lines.iter().any(|l| l["direction"] == "to_server"
        && l["to"] == 1
        && l["message"]["method"] == "r1"
        && l["message"]["args"][0]["hex"] == "0200000000000000"));

    let text = run_enet(&["pcap", "--godot", "3", "--multiplayer"]);
    assert!(
        stdout(&text)
            .lines()
            .any(|l| l.contains("\tch1 reliable\t") && l.contains("call World/Player::r1(0)")),
        "{}",
        stdout(&text)
    );
}

#[test]
fn pcap_enet_flows_detection_and_port_override() {
    let flows = run_enet(&["pcap", "--godot", "3", "--flows"]);
    let listed = stdout(&flows);
    assert_eq!(listed.lines().count(), 2, "{listed}");
    for line in listed.lines() {
        assert!(line.contains("\tenet\tthe first datagram is an ENet CONNECT"), "{line}");
        assert!(line.contains("(server: the CONNECT was sent to it)"), "{line}");
    }
    let port = listed.lines().next().unwrap().split(" -> ").nth(1).unwrap();
    let port = port.split(['\t', ':']).nth(1).unwrap().to_owned();
    // Without --multiplayer: a line per message, read as one value after Godot 3's header
    // (the scenario's multiplayer packets are no values: error lines), system messages named.
    let plain = run_enet(&["pcap", "--godot", "3"]);
    let detected = stdout(&plain);
    assert_eq!(detected.lines().count(), 286, "{detected}");
    assert!(detected.lines().any(|l| l.contains("\tch0 reliable\tsystem message 0 (peer ")));
    assert!(detected.lines().any(|l| l.contains("\tch1 reliable\terror: ")));
    let forced = run_enet(&["pcap", "--godot", "3", "--port", &format!("{port}=enet")]);
    assert_eq!(stdout(&forced), detected);
    let ignored = run_enet(&["pcap", "--godot", "3", "--port", &format!("{port}=ignore")]);
    assert_eq!(stdout(&ignored), "");
}

/// A pcap file (raw IPv4) of UDP datagrams `(to_server, payload)` between 10.0.0.1:50000 and
/// 10.0.0.2:9000.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(crate) fn udp_pcap(datagrams: &[(bool, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for n in [0xa1b2_c3d4u32, 0x0004_0002, 0, 0, 65_535, 101] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    for (i, (to_server, payload)) in datagrams.iter().enumerate() {
        let (src, dst, sport, dport) = if *to_server {
            ([10, 0, 0, 1], [10, 0, 0, 2], 50_000u16, 9_000u16)
        } else {
            ([10, 0, 0, 2], [10, 0, 0, 1], 9_000, 50_000)
        };
        let total = (28 + payload.len()) as u16;
        let mut ip = vec![0x45, 0];
        ip.extend_from_slice(&total.to_be_bytes());
        ip.extend_from_slice(&[0, 0, 0x40, 0, 64, 17, 0, 0]);
        ip.extend_from_slice(&src);
        ip.extend_from_slice(&dst);
        let sum = ip.chunks(2).map(|c| u32::from(u16::from_be_bytes([c[0], c[1]]))).sum::<u32>();
        let sum = !(((sum & 0xFFFF) + (sum >> 16)) as u16);
        ip[10..12].copy_from_slice(&sum.to_be_bytes());
        ip.extend_from_slice(&sport.to_be_bytes());
        ip.extend_from_slice(&dport.to_be_bytes());
        ip.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
        ip.extend_from_slice(&[0, 0]);
        ip.extend_from_slice(payload);
        for n in [1_700_000_000u32, i as u32, ip.len() as u32, ip.len() as u32] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&ip);
    }
    out
}

#[test]
#[allow(clippy::indexing_slicing)]
fn pcap_godot4_enet_fragments_retransmissions_and_modes() {
    let mut connect = vec![0x0F, 0xFF, 0x82, 0xFF, 0, 1, 0x0F, 0xFF, 0, 0];
    for n in [1400u32, 32768, 3, 0, 0, 5000, 2, 2, 0x1234, 7] {
        connect.extend_from_slice(&n.to_be_bytes());
    }
    // SEND_RELIABLE on channel 1: a Godot 4 RAW packet (command 3) "hi".
    let reliable = vec![0, 0, 0x86, 1, 0, 1, 0, 3, 3, b'h', b'i'];
    // SEND_FRAGMENT: RAW "abcd" in two fragments, the second first.
    let fragment = |sequence: u8, number: u32, offset: u32, data: &[u8]| {
        let mut out = vec![0, 0, 0x88, 1, 0, sequence, 0, 2, 0, data.len() as u8];
        for n in [2u32, number, 5, offset] {
            out.extend_from_slice(&n.to_be_bytes());
        }
        out.extend_from_slice(data);
        out
    };
    // SEND_UNRELIABLE on channel 2 (plain unreliable: unreliable_ordered).
    let unreliable = vec![0, 0, 0x07, 2, 0, 0, 0, 1, 0, 2, 3, b'u'];
    let capture = udp_pcap(&[
        (true, connect),
        (true, reliable.clone()),
        (true, reliable),
        (true, fragment(3, 1, 3, b"cd")),
        (true, fragment(2, 0, 0, &[3, b'a', b'b'])),
        (true, fragment(3, 1, 3, b"cd")),
        (true, unreliable),
    ]);
    let output = run_with_input(&["pcap", "--multiplayer", "--format", "json", "-"], &capture);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    let got: Vec<(String, String, i64, String)> = lines
        .iter()
        .map(|l| {
            assert_eq!((l["from"].as_i64(), l["to"].as_i64()), (Some(7), Some(1)), "{l}");
            (
                l["transfer"].as_str().unwrap().to_owned(),
                l["message"]["command"].as_str().unwrap().to_owned(),
                l["channel"].as_i64().unwrap(),
                l["hex"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("reliable", "raw", 1, "036869"),
        ("reliable", "raw", 1, "0361626364"),
        ("unreliable_ordered", "raw", 2, "0375"),
    ];
    assert_eq!(
        got,
        expected.map(|(t, c, ch, h)| (t.to_owned(), c.to_owned(), ch, h.to_owned())).to_vec()
    );
    assert!(
        stderr(&output)
            .contains("ENet: 7 commands, 2 reliable ones seen again (counted once), 2 fragments"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn pcap_lossy_enet_capture_reports_retransmissions_counted_once() {
    // The real lossy capture (record_enet.py --lossy): the relay dropped datagrams before and
    // after the captured hop, so ENet sent reliable commands again, some after later ones.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/captures/godot3_enet_lossy.pcap")
        .into_os_string();
    let args = ["pcap", "--godot", "3", "--multiplayer", "--format", "json"];
    let output = run(&args.iter().map(std::ffi::OsString::from).chain([path]).collect::<Vec<_>>());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse_json).collect();
    let errors = stderr(&output);
    let number_before = |text: &str| -> u64 {
        let at = errors.find(text).unwrap_or_else(|| panic!("{text}: {errors}"));
        errors[..at].rsplit([' ', ',']).find(|w| !w.is_empty()).unwrap().parse().unwrap()
    };
    assert_eq!(number_before(" values"), lines.len() as u64);
    assert!(number_before(" reliable ones seen again (counted once)") > 100, "{errors}");
    assert!(number_before(" fragments") > 20, "{errors}");
    assert!(number_before(" reliable messages held until an earlier one came") > 20, "{errors}");
    // Each call of the reliable bursts once, in the order sent: 30 from A to the server, 30
    // from the server to each client.
    let burst = |text: &str| -> Vec<(String, String, i64)> {
        lines
            .iter()
            .filter(|l| l["message"]["method"] == "r2" && l["message"]["args"][1]["value"] == text)
            .map(|l| {
                assert_eq!(l["transfer"], "reliable", "{l}");
                let flow = l["flow"].as_str().unwrap().to_owned();
                let direction = l["direction"].as_str().unwrap().to_owned();
                (flow, direction, l["message"]["args"][0]["value"].as_i64().unwrap())
            })
            .collect()
    };
    let to_server = burst("reliable burst");
    assert_eq!(to_server.iter().map(|b| b.2).collect::<Vec<_>>(), (0..30).collect::<Vec<_>>());
    assert!(to_server.iter().all(|b| b.1 == "to_server"));
    let to_clients = burst("reliable burst to all");
    for flow in ["f0", "f1"] {
        let got: Vec<i64> = to_clients.iter().filter(|b| b.0 == flow).map(|b| b.2).collect();
        assert_eq!(got, (0..30).collect::<Vec<_>>(), "{flow}");
    }
    // The messages over ENet's MTU, once each: 6000 bytes to the server, 9000 to each client
    // (reliable), 4000 and 3000 (sent unreliable, over the MTU: reliable fragments).
    let mut large: Vec<(String, usize)> = lines
        .iter()
        .filter_map(|l| {
            let hex = l["message"]["args"][0]["hex"].as_str()?;
            (hex.len() > 2800).then(|| (l["direction"].as_str().unwrap().to_owned(), hex.len() / 2))
        })
        .collect();
    large.sort();
    let expected = [("to_client", 3008), ("to_client", 3008), ("to_client", 9008)];
    let mut expected: Vec<(String, usize)> = expected
        .into_iter()
        .chain([("to_client", 9008), ("to_server", 4008), ("to_server", 6008)])
        .map(|(d, n)| (d.to_owned(), n))
        .collect();
    expected.sort();
    assert_eq!(large, expected);
}
