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
        events.iter().filter(|e| e["event"] == "call" && e["direction"] == "to_server").collect();
    assert_eq!(calls.len(), 3 + 3 + 1 + 5 + 1);
    let forbidden = calls.iter().filter(|c| c["method"] == "forbidden").count();
    assert_eq!(forbidden, 3);
    assert!(calls.iter().all(|c| c["args"] == serde_json::json!(["1"])));
    let summary = summary(&events);
    assert_eq!(summary["calls"][0]["call"], "World/Player::allowed");
    assert_eq!(summary["calls"][0]["count"], 4 + 4);
    let _ = std::fs::remove_file(&rules);
}

/// `--project` reaches the proxy's filter: a Godot 4 client's calls to `World/Child` (the
/// corpus project's inherited script, announced with its checksum) are named from the project's
/// files, so the allow-list lets `child1` through and drops `auth1`; without `--project` the
/// ids cannot be named and both are dropped. A rules key naming no node of the project is a
/// warning at start; `--project` with Godot 3 is refused.
#[test]
fn godot4_calls_are_named_from_the_project() {
    use gdvariant_multiplayer::godot4::write as write4;
    use gdvariant_multiplayer::session::MethodList;
    let rules =
        std::env::temp_dir().join(format!("gdvariant-proxy-project-{}.txt", std::process::id()));
    std::fs::write(&rules, "allow World/Child child1\nallow-raw\nmethods World/Chidl = x\n")
        .unwrap();
    let project = root().join("corpus/multiplayer/godot4");
    let child =
        MethodList::script(["r0", "r1", "r2", "r3", "rv", "u1", "o1", "local1", "auth1", "child1"]);
    let mut raw = Vec::new();
    write4::raw(&mut raw, &[0, 0, 0]).unwrap(); // echoed first: the "peer id" 3
    let mut simplify = Vec::new();
    write4::simplify_path(&mut simplify, child.checksum(), 1, "World/Child").unwrap();
    let call = |name: &str| {
        let one = gdvariant::Variant::Int(1);
        let mut out = Vec::new();
        write4::rpc(
            &mut out,
            write4::Target::Cached(1),
            child.id(name).unwrap(),
            &[write4::Arg::Variant(&one)],
            gdvariant::EncodeOptions::godot4(),
        )
        .unwrap();
        out
    };
    for with_project in [true, false] {
        let project = with_project.then_some(project.as_path());
        let proxy = godot4_proxy(&rules, project, &["--log-calls"]);
        let warned = proxy
            .lines()
            .iter()
            .any(|l| l.starts_with("gdvariant: warning: rules file: `World/Chidl` names no node"));
        assert_eq!(warned, with_project, "{:?}", proxy.lines());
        let sent = [raw.clone(), simplify.clone(), call("child1"), call("auth1"), call("child1")];
        let back: Vec<Vec<u8>> = if with_project {
            vec![raw.clone(), simplify.clone(), call("child1"), call("child1")]
        } else {
            vec![raw.clone(), simplify.clone()]
        };
        exchange(&proxy, &sent, &back, "--project");
        let drops = proxy.wait_for("drop", if with_project { 1 } else { 3 });
        let (status, events) = proxy.stop();
        assert!(status.success());
        let calls: Vec<_> = events
            .iter()
            .filter(|e| e["event"] == "call" && e["direction"] == "to_server")
            .map(|e| e["method"].clone())
            .collect();
        if with_project {
            assert_eq!(calls, ["child1", "auth1", "child1"]);
            assert_eq!(drops[0]["detail"], "World/Child::auth1", "{drops:?}");
        } else {
            assert!(calls.iter().all(serde_json::Value::is_null), "{calls:?}");
        }
    }
    // Godot 3 packets name their methods: refused.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["proxy", "--listen", "127.0.0.1:0", "--websocket", "--multiplayer", "--godot", "3"])
        .args(["--upstream", "127.0.0.1:9", "--project", project.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--project names Godot 4 methods"));
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
        .find(|e| e["event"] == "call" && e["direction"] == "to_server")
        .expect("the call is logged");
    assert_eq!(call["method"], "r1");
    assert_eq!(call["args"], serde_json::json!(["RID()", "[ RID(), 1 ]", r#""a\tb""#]));
}

/// `allow-sync` and `allow-spawn` name what a Godot 4 client replicates, with `--project`
/// naming the properties: a client spawns a `Hero` of the corpus project's `spawned.tscn`
/// (allowed by its spawner and scene), then syncs it twice: `position` and `flag` (the scene's
/// always-synced properties) pass under `allow-sync Hero *` and are dropped under
/// `allow-sync Hero position`, which does not allow `flag`. Without `--project` the properties
/// cannot be named, and the sync is dropped.
#[test]
fn godot4_syncs_and_spawns_are_filtered_by_property_and_scene() {
    use gdvariant_multiplayer::godot4::write::{self as write4, Arg, SpawnFields};
    let project = root().join("corpus/multiplayer/godot4");
    let mut raw = Vec::new();
    write4::raw(&mut raw, &[0, 0, 0]).unwrap(); // echoed first: the "peer id" 3
    let mut simplify = Vec::new();
    write4::simplify_path(&mut simplify, &[0; 32], 1, "World/Spawner").unwrap();
    let state = [Arg::Int(1), Arg::Int(250), Arg::Int(3), Arg::Int(4)];
    let fields = SpawnFields {
        scene: 0,
        spawner: 1,
        net_id: 10,
        sync_ids: &[11],
        name: "Hero",
        argument: None,
        state: &state,
    };
    let mut spawn = Vec::new();
    write4::spawn(&mut spawn, &fields, gdvariant::EncodeOptions::godot4()).unwrap();
    let mut sync = Vec::new();
    let values = [Arg::Int(7), Arg::Bool(true)];
    write4::sync(&mut sync, 1, &[(11, &values[..])], gdvariant::EncodeOptions::godot4()).unwrap();
    let cases = [
        ("allow-spawn World/Spawner res://spawned.tscn\nallow-sync Hero *\n", true, true),
        ("allow-spawn World/Spawner res://spawned.tscn\nallow-sync Hero position\n", true, false),
        ("allow-spawn World/Spawner res://spawned.tscn\nallow-sync Hero *\n", false, false),
        // Without allow-sync or allow-spawn lines, what is replicated passes (named or not).
        ("allow World/Player jump\nallow-raw\n", false, true),
    ];
    for (n, (text, with_project, sync_passes)) in cases.into_iter().enumerate() {
        let rules = std::env::temp_dir()
            .join(format!("gdvariant-proxy-sync-{}-{n}.txt", std::process::id()));
        std::fs::write(&rules, text).unwrap();
        let project = with_project.then_some(project.as_path());
        let proxy = godot4_proxy(&rules, project, &[]);
        // The spawn passes only when the project names its scene (inferred from the
        // synchronizers, the spawner being made at run time): without it, nothing names it.
        let spawn_passes = with_project || text.starts_with("allow ");
        let sent = [raw.clone(), simplify.clone(), spawn.clone(), sync.clone()];
        let mut back = vec![raw.clone(), simplify.clone()];
        if spawn_passes {
            back.push(spawn.clone());
        }
        if sync_passes {
            back.push(sync.clone());
        }
        exchange(&proxy, &sent, &back, &format!("case {n}"));
        let (_, events) = proxy.stop();
        let drops: Vec<String> = events
            .iter()
            .filter(|e| e["event"] == "drop")
            .map(|e| e["detail"].as_str().unwrap_or("").to_string())
            .collect();
        let expected = usize::from(!spawn_passes) + usize::from(!sync_passes);
        assert_eq!(drops.len(), expected, "case {n}: {drops:?}");
        if n == 1 {
            assert_eq!(drops, ["sync Hero: flag"]);
        }
        let _ = std::fs::remove_file(&rules);
    }
}

/// Sends `sent` as binary messages to the WebSocket proxy, then expects `back` from it (the
/// echo server's answers to what passed), in order; `what` names the case in a failure, with
/// the proxy's lines.
fn exchange(proxy: &Proxy, sent: &[Vec<u8>], back: &[Vec<u8>], what: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let url = format!("ws://{}/", proxy.addr);
        let (mut socket, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url))
            .await
            .unwrap()
            .unwrap();
        for m in sent {
            socket.send(Message::Binary(m.clone().into())).await.unwrap();
        }
        for m in back {
            let got = tokio::time::timeout(PATIENCE, socket.next()).await;
            let got = got.unwrap_or_else(|_| panic!("{what}: {:?}", proxy.lines()));
            assert_eq!(got.unwrap().unwrap(), Message::Binary(m.clone().into()), "{what}");
        }
        socket.close(None).await.unwrap();
    });
}

/// A Godot 4 multiplayer proxy over WebSocket to a new echo server, with `rules`, `project`
/// (when given) and `extra` arguments.
fn godot4_proxy(
    rules: &std::path::Path,
    project: Option<&std::path::Path>,
    extra: &[&str],
) -> Proxy {
    let upstream = websocket_echo().to_string();
    let mut args = vec!["--websocket", "--multiplayer", "--godot", "4", "--upstream", &upstream];
    args.extend(["--rules", rules.to_str().unwrap()]);
    if let Some(project) = project {
        args.extend(["--project", project.to_str().unwrap()]);
    }
    args.extend(extra);
    Proxy::start(&args)
}
