//! `gdvariant proxy --websocket --multiplayer` on loopback, with a test client sending Godot 3
//! multiplayer messages (9-byte header) to an echo server: the allow-list, its rates, Godot's
//! verdict and the game's reading of names (an overlong spelling cannot pass for another
//! method) decide what is echoed back.

use futures_util::{SinkExt, StreamExt};
use gdvariant_multiplayer::godot3::write::{self, Arg, Target};
use gdvariant_multiplayer::transport::websocket3::{self, MessageType};
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// A Godot 3 payload from client 55 to the server.
fn message(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    websocket3::write(&mut out, MessageType::Payload, 55, 1, payload).unwrap();
    out
}

/// A call of `method` (raw name bytes) with one int argument on cache id 1, or by path.
fn call(method: &[u8], path: Option<&str>) -> Vec<u8> {
    let one = gdvariant::Variant::Int(1);
    let mut out = Vec::new();
    let target = path.map_or(Target::Cached(1), Target::Path);
    write::call(&mut out, target, "m", &[Arg::Variant(&one)], gdvariant::EncodeOptions::godot3())
        .unwrap();
    // Put the raw name bytes in place of "m".
    let mut spliced = out[..5].to_vec();
    spliced.extend_from_slice(method);
    spliced.extend_from_slice(&out[6..]);
    if let Some(path) = path {
        let offset = (spliced.len() - path.len() - 1) as u32 | 0x8000_0000;
        spliced[1..5].copy_from_slice(&offset.to_le_bytes());
    }
    message(&spliced)
}

#[test]
fn calls_are_filtered_by_the_allow_list_and_its_rates() {
    let rules =
        std::env::temp_dir().join(format!("gdvariant-proxy-rules-{}.txt", std::process::id()));
    std::fs::write(&rules, "allow World/Player allowed\nallow World/Player limited 2/s\n").unwrap();
    let upstream = websocket_echo();
    let proxy = Proxy::start(&[
        "--websocket",
        "--multiplayer",
        "--godot",
        "3",
        "--upstream",
        &upstream.to_string(),
        "--rules",
        rules.to_str().unwrap(),
        "--log-calls",
    ]);
    let mut simplify = Vec::new();
    write::simplify_path(&mut simplify, 1, "World/Player").unwrap();
    let overlong_forbidden = [&[0xE0, 0x81, 0xA6][..], b"orbidden"].concat(); // "f" spelled long
    let overlong_allowed = [&[0xE0, 0x81, 0xA1][..], b"llowed"].concat(); // "a" spelled long
    let mut sent = vec![message(&simplify)];
    let mut expected_back = vec![message(&simplify)];
    for _ in 0..3 {
        sent.push(call(b"allowed", None));
        expected_back.push(call(b"allowed", None));
    }
    sent.push(call(b"forbidden", None));
    sent.push(call(b"forbidden", None));
    sent.push(call(&overlong_forbidden, None));
    sent.push(call(b"allowed", Some("./World/Player")));
    sent.push(message(&[4, b'x']));
    sent.push(message(&[9, 1, 2]));
    for _ in 0..5 {
        sent.push(call(b"limited", None));
    }
    expected_back.push(call(b"limited", None));
    expected_back.push(call(b"limited", None));
    sent.push(call(&overlong_allowed, None));
    expected_back.push(call(&overlong_allowed, None));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let url = format!("ws://{}/", proxy.addr);
        let (mut socket, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url))
            .await
            .unwrap()
            .unwrap();
        for m in &sent {
            socket.send(Message::Binary(m.clone().into())).await.unwrap();
        }
        for m in &expected_back {
            let got =
                tokio::time::timeout(PATIENCE, socket.next()).await.unwrap().unwrap().unwrap();
            assert_eq!(got, Message::Binary(m.clone().into()));
        }
        socket.close(None).await.unwrap();
    });
    let drops = proxy.wait_for("drop", 9);
    let (status, events) = proxy.stop();
    assert!(status.success());
    let reasons: Vec<&str> = drops.iter().map(|d| d["reason"].as_str().unwrap()).collect();
    let count = |reason: &str| reasons.iter().filter(|r| **r == reason).count();
    assert_eq!(
        (count("not_allowed"), count("rate_limit"), count("invalid_packet")),
        (5, 3, 1),
        "{drops:?}"
    );
    assert!(
        drops
            .iter()
            .any(|d| d["detail"].as_str().unwrap().contains("not spelled as Godot spells it"))
    );
    // The call log: every call, named as the game reads it, with its arguments' text.
    let calls: Vec<_> =
        events.iter().filter(|e| e["event"] == "call" && e["direction"] == "to_upstream").collect();
    assert_eq!(calls.len(), 3 + 3 + 1 + 5 + 1);
    let forbidden = calls.iter().filter(|c| c["method"] == "forbidden").count();
    assert_eq!(forbidden, 3);
    assert!(calls.iter().all(|c| c["args"] == serde_json::json!(["1"])));
    let summary = summary(&events);
    assert_eq!(summary["calls"][0]["call"], "World/Player::allowed");
    assert_eq!(summary["calls"][0]["count"], 4 + 4);
    let _ = std::fs::remove_file(&rules);
}

/// `--log-calls` prints every argument as something: a Godot 3 RID (which Godot's `var2str`
/// prints as nothing) as `RID()`, alone and in an array, and a string's tab escaped.
#[test]
fn logged_calls_print_every_argument() {
    use gdvariant::Variant;
    let upstream = websocket_echo();
    let proxy = Proxy::start(&[
        "--websocket",
        "--multiplayer",
        "--godot",
        "3",
        "--upstream",
        &upstream.to_string(),
        "--log-calls",
    ]);
    let args = [
        Variant::Rid(0),
        Variant::Array(vec![Variant::Rid(0), Variant::Int(1)].into()),
        Variant::String("a\tb".into()),
    ];
    let args: Vec<Arg<'_>> = args.iter().map(Arg::Variant).collect();
    let mut packet = Vec::new();
    write::call(&mut packet, Target::Path("Main"), "r1", &args, gdvariant::EncodeOptions::godot3())
        .unwrap();
    let sent = message(&packet);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let url = format!("ws://{}/", proxy.addr);
        let (mut socket, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url))
            .await
            .unwrap()
            .unwrap();
        socket.send(Message::Binary(sent.clone().into())).await.unwrap();
        let got = tokio::time::timeout(PATIENCE, socket.next()).await.unwrap().unwrap().unwrap();
        assert_eq!(got, Message::Binary(sent.into()));
        socket.close(None).await.unwrap();
    });
    let (status, events) = proxy.stop();
    assert!(status.success());
    let call = events
        .iter()
        .find(|e| e["event"] == "call" && e["direction"] == "to_upstream")
        .expect("the call is logged");
    assert_eq!(call["method"], "r1");
    assert_eq!(call["args"], serde_json::json!(["RID()", "[ RID(), 1 ]", r#""a\tb""#]));
}
