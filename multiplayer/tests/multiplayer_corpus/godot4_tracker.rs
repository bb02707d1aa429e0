//! Godot 4's capture through the library's connection tracker (`track::Tracker`), as a server
//! guard sees client A's connection: with the capture's own project (`corpus/multiplayer/godot4`,
//! no hand-written list), every call is named as the engine's receiver named it, every argument
//! is the value the receiver got and re-reads from its own bytes, and spawns and syncs carry
//! their property names.

use std::sync::Arc;

use gdvariant_multiplayer::project::Project;
use gdvariant_multiplayer::track::{Message, Packet, Tracker};
use gdvariant_multiplayer::{Direction, Framing};

use super::*;

/// Client A's id in the capture.
const A: i64 = 1_234_567_890;

/// The effects the receivers reported for a record.
fn effects(record: &Json) -> Vec<&Json> {
    record["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["effects"].as_array().unwrap())
        .collect()
}

/// Checks a call the tracker named against what the receiver called; returns whether it was
/// one the engine ran.
fn check_call(message: &Message<'_>, record: &Json) -> bool {
    let Some(call) = &message.call else { return false };
    let calls: Vec<&Json> = effects(record).into_iter().filter(|e| e["kind"] == "call").collect();
    let node = call.node.as_deref().unwrap_or("?");
    match node {
        // Its script is built at run time (GDScript.new()): no file names its methods.
        "World/ManyMethods" => assert!(call.member.is_none(), "seq {}", record["seq"]),
        // The peers' lists differ: named as the sender's script names it.
        "World/Mismatch" => assert!(matches!(call.member.as_deref(), Some("alpha" | "beta"))),
        _ => {
            for effect in &calls {
                assert_eq!(Some(node), effect["node"].as_str(), "seq {}", record["seq"]);
                assert_eq!(
                    call.member.as_deref(),
                    effect["method"].as_str(),
                    "seq {}",
                    record["seq"]
                );
                let expected = effect["args"].as_array().unwrap();
                let got: Vec<_> = call.arguments().map(Result::unwrap).collect();
                assert_eq!(got.len(), expected.len(), "seq {}", record["seq"]);
                let options = options4(record);
                for (argument, desc) in got.iter().zip(expected) {
                    let value = gdvariant::Variant::try_from(argument.value).unwrap();
                    assert!(
                        matches_description(&value, desc, gdvariant::Version::Godot4),
                        "seq {}: {value:?} vs {desc}",
                        record["seq"]
                    );
                    // The bytes it travelled in read back as the same value, all of them.
                    let byte_only = matches!(message.packet,
                        Packet::Godot4(Godot4Packet::Rpc(rpc)) if rpc.is_byte_only());
                    if !byte_only {
                        let (again, used) =
                            godot4::read_compressed(argument.bytes, options).unwrap();
                        assert_eq!(used, argument.bytes.len(), "seq {}", record["seq"]);
                        // Compared as their bytes: NaN is not equal to itself.
                        let bytes = |v: &gdvariant::Variant| {
                            v.encode(EncodeOptions::godot4().with_full_objects(true)).unwrap()
                        };
                        assert_eq!(
                            bytes(&owned(&again, options)),
                            bytes(&value),
                            "seq {}",
                            record["seq"]
                        );
                    }
                }
            }
            return !calls.is_empty();
        }
    }
    false
}

#[test]
fn godot4_capture_through_the_tracker_names_what_the_engine_did() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/multiplayer/godot4");
    let project = Arc::new(Project::read_index(&dir).unwrap());
    let rules = gdvariant_multiplayer::rules::Rules::new().with_project(&project);
    let mut tracker =
        Tracker::new(gdvariant::Version::Godot4, Framing::Packets, Arc::clone(rules.methods()))
            .with_project(Some(Arc::clone(&project)))
            .with_client(A as i32);
    let (mut calls, mut spawns, mut syncs) = (0, 0, 0);
    for record in corpus::godot4().iter().filter(|r| sent_by_the_engine(r) && r["net"] == "main") {
        let direction = if record["from"] == A && record["to"][0] == 1 {
            Direction::ToServer
        } else if record["from"] == 1 && record["to"][0] == A {
            Direction::ToClient
        } else {
            continue;
        };
        let bytes = corpus::bytes(record);
        let mut tracker_for =
            tracker.clone().with_allow_objects(record["step"] == "rpc_full_objects");
        let message = tracker_for
            .message(direction, 0, &bytes)
            .unwrap_or_else(|e| panic!("seq {}: {e}", record["seq"]));
        calls += usize::from(check_call(&message, record));
        if let Some(spawn) = &message.spawn
            && effects(record).iter().any(|e| e["kind"] == "spawned")
        {
            assert_eq!(spawn.spawner, Some("World/Spawner"));
            assert_eq!(spawn.scene_path, Some("res://spawned.tscn"));
            assert_eq!(
                spawn.properties.as_deref(),
                Some(&["position", "hp", "label", "inventory"][..])
            );
            spawns += 1;
        }
        for synced in &message.synced {
            if let Some(properties) = &synced.properties {
                assert!(
                    [
                        &["position", "flag"][..],
                        &["score"],
                        &["hp", "label"],
                        &["hp"],
                        &["label"],
                        &["motd"]
                    ]
                    .contains(&properties.as_slice()),
                    "seq {}: {properties:?}",
                    record["seq"]
                );
                syncs += 1;
            }
        }
        drop(message);
        tracker = tracker_for;
    }
    assert!(calls > 100 && spawns >= 1 && syncs >= 2, "{calls} {spawns} {syncs}");
}
