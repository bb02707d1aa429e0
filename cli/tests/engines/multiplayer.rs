//! `gdvariant proxy --multiplayer` filtering real multiplayer sessions by RPC: Godot 4.6
//! (`godot4mp/`, the web build; its server side reaches the proxy's upstream through a
//! WebSocket bridge, since the web build cannot listen) and Godot 3.2.3 (`godot3/mp_session.gd`,
//! WebSocketServer and WebSocketClient). The client calls allowed() 5 times, forbidden() 5
//! times and limited() 20 times at once; the rules allow allowed() and limited() at 5 per
//! second: the server must get exactly 5 allowed() calls, no forbidden() call and about 5
//! limited() ones, and the server's hello() must reach the client. The proxy's drops, call log
//! and capture file (read back with `gdvariant multiplayer`) must say the same.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use crate::godot::{Engine, free_port};

/// The handshake callback's signature (its error type is tungstenite's, large by design).
#[allow(clippy::result_large_err)]
fn note_path(
    seen: std::sync::Arc<std::sync::Mutex<String>>,
) -> impl FnOnce(
    &tokio_tungstenite::tungstenite::handshake::server::Request,
    tokio_tungstenite::tungstenite::handshake::server::Response,
) -> Result<
    tokio_tungstenite::tungstenite::handshake::server::Response,
    tokio_tungstenite::tungstenite::handshake::server::ErrorResponse,
> {
    move |request, response| {
        *seen.lock().unwrap() = request.uri().path().to_string();
        Ok(response)
    }
}
use crate::support::*;

/// The client id the bridge gives the Godot 4 client.
const CLIENT_ID: i32 = 1_234_567;

/// A WebSocket bridge: the connection whose path is `/server` (the Godot 4 server's transport)
/// is paired with the next other connection (the proxy's upstream side of the client): the
/// server is told the client's id in a text message, then binary messages pass both ways.
fn bridge() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let (mut server, mut client) = (None, None);
            while server.is_none() || client.is_none() {
                let (stream, _) = listener.accept().await.unwrap();
                let path = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
                let seen = std::sync::Arc::clone(&path);
                let callback = note_path(seen);
                let socket = tokio_tungstenite::accept_hdr_async(stream, callback).await.unwrap();
                if path.lock().unwrap().as_str() == "/server" {
                    server = Some(socket);
                } else {
                    client = Some(socket);
                }
            }
            let (mut server, client) = (server.unwrap(), client.unwrap());
            server.send(Message::Text(CLIENT_ID.to_string().into())).await.unwrap();
            let (mut server_out, mut server_in) = server.split();
            let (mut client_out, mut client_in) = client.split();
            let up = async {
                while let Some(Ok(message)) = client_in.next().await {
                    if message.is_binary() && server_out.send(message).await.is_err() {
                        break;
                    }
                }
            };
            let down = async {
                while let Some(Ok(message)) = server_in.next().await {
                    if message.is_binary() && client_out.send(message).await.is_err() {
                        break;
                    }
                }
            };
            tokio::join!(up, down);
        });
    });
    addr
}

/// A scratch file path.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gdvariant-mp-{}-{}-{name}", std::process::id(), free_port()))
}

/// `RESULT ok a=1 b=2` as a map.
fn counts(result: &str) -> std::collections::BTreeMap<String, u64> {
    result
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), v.parse().unwrap()))
        .collect()
}

/// What both engine tests check in the proxy's lines and capture.
fn check_proxy(events: &[Value], capture: &Path, rules: &Path, limited: u64) {
    let summary = summary(events);
    assert_eq!(summary["drops"]["not_allowed"], 5, "{summary}");
    assert_eq!(summary["drops"]["rate_limit"].as_u64().unwrap(), 20 - limited, "{summary}");
    assert!(summary["drops"]["invalid_packet"].is_null(), "{summary}");
    // The call log names every call, forwarded or not.
    let calls: Vec<&Value> = events.iter().filter(|e| e["event"] == "call").collect();
    let named = |method: &str, forwarded: bool| {
        calls
            .iter()
            .filter(|c| {
                c["method"] == method && c["forwarded"] == forwarded && c["node"] == "World/Player"
            })
            .count()
    };
    assert_eq!((named("allowed", true), named("forbidden", false)), (5, 5), "{calls:?}");
    assert_eq!(named("limited", true) as u64, limited);
    assert_eq!(named("hello", true), 1);
    // The capture holds every message, the dropped ones flagged, and reads back named.
    let out = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["multiplayer", "--format", "json", "--rules"])
        .arg(rules)
        .arg(capture)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let method_of = |l: &Value| {
        l["message"]["method"]
            .as_str()
            .map(String::from)
            .or_else(|| l["message"]["packet"]["method"].as_str().map(String::from))
    };
    let dropped_forbidden = lines
        .iter()
        .filter(|l| method_of(l).as_deref() == Some("forbidden") && l["dropped"] == true)
        .count();
    let passed_allowed = lines
        .iter()
        .filter(|l| method_of(l).as_deref() == Some("allowed") && l["dropped"] == false)
        .count();
    assert_eq!((dropped_forbidden, passed_allowed), (5, 5));
    let stats = &lines.last().unwrap()["stats"]["calls"];
    let count = |key: &str| {
        stats
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["call"] == key)
            .map(|c| c["count"].as_u64().unwrap())
    };
    assert_eq!(
        (
            count("World/Player::allowed"),
            count("World/Player::forbidden"),
            count("World/Player::limited")
        ),
        (Some(5), Some(5), Some(20))
    );
}

#[test]
#[ignore = "needs chromium, python3 and npm (.ci/run installs them)"]
fn godot4_multiplayer_session_filtered_by_rpc_through_the_proxy() {
    let rules = scratch("rules4.txt");
    std::fs::write(
        &rules,
        "methods World/Player = allowed forbidden limited hello\nallow World/Player allowed\nallow World/Player limited 5/s\n",
    )
    .unwrap();
    let capture = scratch("session4.capture");
    let upstream = bridge();
    let proxy = Proxy::start(&[
        "--websocket",
        "--multiplayer",
        "--godot",
        "4",
        "--upstream",
        &upstream.to_string(),
        "--rules",
        rules.to_str().unwrap(),
        "--log-calls",
        "--capture",
        capture.to_str().unwrap(),
    ]);
    let session = Engine::godot4_project(
        "godot4mp",
        &[format!("proxy=ws://{}/", proxy.addr), format!("bridge=ws://{upstream}/")],
    );
    let result = counts(&session.result());
    assert_eq!((result["allowed"], result["forbidden"], result["hello"]), (5, 0, 1), "{result:?}");
    let limited = result["limited"];
    assert!((5..=7).contains(&limited), "{result:?}");
    let (status, events) = proxy.stop();
    assert!(status.success());
    check_proxy(&events, &capture, &rules, limited);
    // The client learned its id from the server's first message, and the capture shows it.
    let out = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["multiplayer", "--rules"])
        .arg(&rules)
        .arg(&capture)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!("peer_id {CLIENT_ID}")), "{text}");
    assert!(text.contains("rpc World/Player::hello(\"from the server\")"), "{text}");
    let _ = std::fs::remove_file(&capture);
    let _ = std::fs::remove_file(&rules);
}

#[test]
#[ignore = "needs godot3-server (.ci/run installs it)"]
fn godot3_multiplayer_session_filtered_by_rpc_through_the_proxy() {
    let rules = scratch("rules3.txt");
    std::fs::write(
        &rules,
        "allow World/Player allowed\nallow World/Player limited 5/s\nallow World/Player hp\n",
    )
    .unwrap();
    let capture = scratch("session3.capture");
    let server_port = free_port();
    // The proxy connects upstream only when a client arrives, after the server listens.
    let proxy = Proxy::start(&[
        "--websocket",
        "--multiplayer",
        "--godot",
        "3",
        "--upstream",
        &format!("127.0.0.1:{server_port}"),
        "--rules",
        rules.to_str().unwrap(),
        "--log-calls",
        "--capture",
        capture.to_str().unwrap(),
    ]);
    let session = Engine::godot3_script(
        "mp_session.gd",
        &[
            ("MP_SERVER_PORT", server_port.to_string()),
            ("MP_PROXY_PORT", proxy.addr.port().to_string()),
        ],
    );
    let result = counts(&session.result());
    assert_eq!(
        (result["allowed"], result["forbidden"], result["hp"], result["hello"]),
        (5, 0, 1, 1),
        "{result:?}"
    );
    let limited = result["limited"];
    assert!((5..=7).contains(&limited), "{result:?}");
    let (status, events) = proxy.stop();
    assert!(status.success());
    check_proxy(&events, &capture, &rules, limited);
    let _ = std::fs::remove_file(&capture);
    let _ = std::fs::remove_file(&rules);
}
