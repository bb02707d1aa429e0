//! The real-engine multiplayer captures of `corpus/multiplayer` and what a test needs to read
//! them: the packets, the engines' method lists, and Godot 4's payload of a Godot 3 transport
//! message.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use gdvariant_multiplayer::session::{MethodList, RpcMethods};
use gdvariant_multiplayer::transport::{enet3, websocket3};
use serde_json::Value;

/// `corpus/multiplayer` at the workspace's root.
pub fn dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/multiplayer"))
}

/// The records of `corpus/multiplayer/NAME.jsonl`.
pub fn records(name: &str) -> Vec<Value> {
    super::read_jsonl(&dir().join(format!("{name}.jsonl")))
}

/// Godot 4's packets (`godot4.jsonl`).
pub fn godot4() -> Vec<Value> {
    records("godot4")
}

/// A record's bytes.
pub fn bytes(record: &Value) -> Vec<u8> {
    super::unhex(record["hex"].as_str().unwrap())
}

/// The RPC method lists Godot 4.6 reported for the capture's nodes (`godot4-rpc.json`, the
/// server's side), plus the nodes the capture made by the hundred (`World/Nodes/*`, the
/// RPC script without its native method) and the authentication peers' copies.
pub fn godot4_methods() -> Arc<RpcMethods> {
    let configs: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir().join("godot4-rpc.json")).unwrap())
            .unwrap();
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    let mut methods = RpcMethods::new();
    for config in configs.iter().filter(|c| c["side"] == "S") {
        let list = MethodList::new(names(&config["native"]), names(&config["script"]));
        methods.node(config["node"].as_str().unwrap(), list);
    }
    let player = configs.iter().find(|c| c["node"] == "World/Player").unwrap();
    methods.node("World/Nodes/*", MethodList::script(names(&player["script"])));
    Arc::new(methods)
}

/// The Godot 3 capture `godot3-enet` or `godot3-websocket`.
pub fn godot3(transport: &str) -> Vec<Value> {
    records(&format!("godot3-{transport}"))
}

/// The log next to a Godot 3 capture (peer ids, errors per step, ENet connect data).
pub fn godot3_log(transport: &str) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(dir().join(format!("godot3-{transport}-log.json"))).unwrap(),
    )
    .unwrap()
}

/// A Godot 3 record's multiplayer packet and its header's source and target (`None` for ENet
/// system messages and WebSocket system messages).
pub fn payload3(transport: &str, record: &Value) -> Option<(i64, i64, Vec<u8>)> {
    let data = bytes(record);
    if transport == "enet" {
        match enet3::decode(&data, record["channel"].as_u64().unwrap() as u8).unwrap() {
            enet3::EnetPacket::Data { source, target, payload } => {
                Some((i64::from(source), i64::from(target), payload.to_vec()))
            }
            enet3::EnetPacket::System { .. } => None,
        }
    } else {
        let message = websocket3::decode(&data).unwrap();
        (message.kind == websocket3::MessageType::Payload)
            .then(|| (i64::from(message.from), i64::from(message.to), message.payload.to_vec()))
    }
}
