//! How a multiplayer message prints: [`describe`] turns what the library's tracker read
//! (`gdvariant_multiplayer::track::Message`) into one line of text and one JSON object. Shared
//! by `gdvariant multiplayer` and `gdvariant proxy --multiplayer`; it only formats.

use gdvariant::Version;
use gdvariant_multiplayer::PacketError;
use gdvariant_multiplayer::godot3::Godot3Packet;
use gdvariant_multiplayer::godot4::{Godot4Packet, NodeAddress, Sys};
use gdvariant_multiplayer::session::SyncTarget;
use gdvariant_multiplayer::track::{Call, Message, Packet, Synced};
use serde_json::{Value, json};

use super::values::{carried_json, hex, named, set, text, values4};

/// A message as the command prints it.
#[derive(Debug, Clone)]
pub struct Described {
    /// The decoded message as JSON (`command` and its fields).
    pub json: Value,
    /// The decoded message on one line.
    pub text: String,
    /// A call's arguments (a SET: its value) as Godot's text.
    pub args: Vec<String>,
}

/// The text and JSON of `message` (values as natural JSON with `natural`). O(its bytes).
pub fn describe(message: &Message<'_>, natural: bool) -> Result<Described, PacketError> {
    let (json, text, args) = match message.packet {
        Packet::PeerId(id) => {
            (json!({"command": "peer_id", "peer": id}), format!("peer_id {id}"), vec![])
        }
        Packet::System { name, peer } => {
            (json!({"command": name, "peer": peer}), format!("{name} {peer}"), vec![])
        }
        Packet::Godot3(packet) => describe3(message, &packet, natural)?,
        Packet::Godot4(packet) => {
            let (mut json, mut text, args) = describe4(message, &packet, natural)?;
            if let Some(peer) = message.relay {
                let way = if message.from == 1 { "from" } else { "to" };
                text = format!("relay {way} {peer}: {text}");
                json = json!({"command": "relay", "peer": peer, "packet": json});
            }
            (json, text, args)
        }
        _ => (json!({"command": "unknown"}), "unknown".into(), vec![]),
    };
    Ok(Described { json, text, args })
}

/// A call's arguments as text and JSON.
fn arguments(
    call: &Call<'_>,
    version: Version,
    natural: bool,
) -> Result<(Vec<String>, Vec<Value>), PacketError> {
    let mut texts = Vec::new();
    let mut jsons = Vec::new();
    for argument in call.arguments() {
        let argument = argument?;
        texts.push(text(argument.value, version));
        jsons.push(carried_json(argument.value, argument.bytes, natural));
    }
    Ok((texts, jsons))
}

/// The node as shown: its path, `#id` for an unknown cache id, `?` for a path that is not text.
fn node_text(call: &Call<'_>) -> String {
    match (&call.node, call.node_id) {
        (Some(path), _) => path.to_string(),
        (None, Some(id)) => format!("#{id}"),
        (None, None) => "?".into(),
    }
}

/// A Godot 4 packet (not a relay).
fn describe4(
    message: &Message<'_>,
    packet: &Godot4Packet<'_>,
    natural: bool,
) -> Result<(Value, String, Vec<String>), PacketError> {
    let command = packet.command().name();
    Ok(match packet {
        Godot4Packet::Rpc(rpc) => {
            let Some(call) = &message.call else {
                return Ok((json!({"command": command}), command.into(), vec![]));
            };
            let (args, json_args) = arguments(call, Version::Godot4, natural)?;
            let method_text = call
                .member
                .as_deref()
                .map_or_else(|| format!("#{}", rpc.method_id()), String::from);
            let text = format!("rpc {}::{method_text}({})", node_text(call), args.join(", "));
            let json = json!({
                "command": command, "node": call.node, "node_id": match rpc.node() {
                    NodeAddress::Cached(id) => json!(id), NodeAddress::Path { .. } => Value::Null },
                "method": call.member, "method_id": rpc.method_id(),
                "checksum": call.checksum.map(|c| c.name()),
                "byte_only": rpc.is_byte_only(), "args": json_args,
            });
            (json, text, args)
        }
        Godot4Packet::SimplifyPath(simplify) => {
            let path = simplify.path().to_string_lossy().into_owned();
            let checksum = message.methods.map_or("unlisted", |c| c.name());
            let text = format!("simplify_path #{} = {path} (methods {checksum})", simplify.id());
            let json = json!({"command": command, "id": simplify.id(), "path": path,
                "checksum": String::from_utf8_lossy(simplify.checksum()), "methods": checksum});
            (json, text, vec![])
        }
        Godot4Packet::ConfirmPath(confirm) => {
            let valid = confirm.checksum_valid();
            let text = format!(
                "confirm_path #{} (checksum {})",
                confirm.id(),
                if valid { "valid" } else { "invalid" }
            );
            (json!({"command": command, "id": confirm.id(), "checksum_valid": valid}), text, vec![])
        }
        Godot4Packet::Raw(payload) => {
            let hex = hex(payload);
            (
                json!({"command": command, "hex": hex}),
                format!("raw {} bytes {hex}", payload.len()),
                vec![],
            )
        }
        Godot4Packet::Spawn(spawn) => {
            let named_spawn = message.spawn.clone().unwrap_or_default();
            let name = spawn.name().to_string_lossy().into_owned();
            let (state, state_json) = values4(spawn.state(), natural)?;
            let argument = spawn.argument_carried().map(|a| text(a.value.value(), Version::Godot4));
            let sync_ids: Vec<u32> = spawn.sync_ids().collect();
            let names =
                named_spawn.properties.as_deref().filter(|names| names.len() == state.len());
            let scene_path = named_spawn.scene_path;
            let text = format!(
                "spawn {} by {} scene {}{}{} net {} sync {:?} state [{}]",
                name,
                named_spawn.spawner.unwrap_or("?"),
                spawn.scene(),
                match scene_path {
                    Some(path) if named_spawn.inferred => format!(" ({path}?)"),
                    Some(path) => format!(" ({path})"),
                    None => String::new(),
                },
                argument.as_ref().map(|a| format!(" argument {a}")).unwrap_or_default(),
                spawn.net_id(),
                sync_ids,
                named(&state, names)
            );
            let mut json = json!({"command": command, "name": name, "spawner": named_spawn.spawner,
                "spawner_id": spawn.spawner(), "scene": spawn.scene(), "net_id": spawn.net_id(),
                "sync_ids": sync_ids,
                "argument": spawn.argument_carried().map(|a| carried_json(a.value.value(), a.bytes, natural)),
                "state": state_json});
            if let Some(path) = scene_path {
                set(&mut json, "scene_path", json!(path));
                set(&mut json, "scene_inferred", json!(named_spawn.inferred));
            }
            if let Some(names) = names {
                set(&mut json, "properties", json!(names));
            }
            (json, text, vec![])
        }
        Godot4Packet::Despawn(despawn) => {
            let text = match &message.despawned {
                Some(name) => format!("despawn net {} ({name})", despawn.net_id()),
                None => format!("despawn net {}", despawn.net_id()),
            };
            (
                json!({"command": command, "net_id": despawn.net_id(), "name": message.despawned}),
                text,
                vec![],
            )
        }
        Godot4Packet::Sync(sync) => {
            let mut parts = Vec::new();
            let mut elements = Vec::new();
            for (element, synced) in sync.elements().zip(&message.synced) {
                let element = element?;
                let (values, values_json) = values4(element.values(), natural)?;
                let target = target_text(synced);
                let names =
                    synced.properties.as_deref().filter(|names| names.len() == values.len());
                parts.push(format!("{target} [{}]", named(&values, names)));
                let mut element_json =
                    json!({"net_id": element.net_id(), "node": target, "values": values_json});
                if let Some(names) = names {
                    set(&mut element_json, "properties", json!(names));
                }
                elements.push(element_json);
            }
            let text = format!("sync time {}: {}", sync.time(), parts.join("; "));
            (json!({"command": command, "time": sync.time(), "elements": elements}), text, vec![])
        }
        Godot4Packet::DeltaSync(delta) => {
            let mut parts = Vec::new();
            let mut elements = Vec::new();
            for (element, synced) in delta.elements().zip(&message.synced) {
                let element = element?;
                let (values, values_json) = values4(element.values(), natural)?;
                let target = target_text(synced);
                let indexes: Vec<u32> = element.indexes().collect();
                let names =
                    synced.properties.as_deref().filter(|names| names.len() == values.len());
                parts.push(format!("{target} {indexes:?} [{}]", named(&values, names)));
                let mut element_json = json!({"net_id": element.net_id(), "node": target,
                    "indexes": indexes, "values": values_json});
                if let Some(names) = names {
                    set(&mut element_json, "properties", json!(names));
                }
                elements.push(element_json);
            }
            let text = format!("delta_sync: {}", parts.join("; "));
            (json!({"command": "delta_sync", "elements": elements}), text, vec![])
        }
        Godot4Packet::Sys(Sys::Auth(data)) => {
            let hex = hex(data);
            (
                json!({"command": "auth", "hex": hex}),
                format!("auth {} bytes {hex}", data.len()),
                vec![],
            )
        }
        Godot4Packet::Sys(Sys::AddPeer(peer)) => {
            (json!({"command": "add_peer", "peer": peer}), format!("add_peer {peer}"), vec![])
        }
        Godot4Packet::Sys(Sys::DelPeer(peer)) => {
            (json!({"command": "del_peer", "peer": peer}), format!("del_peer {peer}"), vec![])
        }
        _ => (json!({"command": command}), command.to_string(), vec![]),
    })
}

/// A synchronizer's node, as text.
fn target_text(synced: &Synced<'_>) -> String {
    match synced.target {
        Some(SyncTarget::Path(path)) => path.to_string(),
        Some(SyncTarget::Spawned { name, net_id, .. }) => format!("{name} (net {net_id})"),
        _ => format!("net {:#x}", synced.net_id),
    }
}

/// A Godot 3 packet.
fn describe3(
    message: &Message<'_>,
    packet: &Godot3Packet<'_>,
    natural: bool,
) -> Result<(Value, String, Vec<String>), PacketError> {
    let command = packet.command().name();
    let version = Version::Godot3;
    Ok(match (packet, &message.call) {
        (Godot3Packet::Call(_), Some(call)) => {
            let (args, json_args) = arguments(call, version, natural)?;
            let text = format!(
                "call {}::{}({})",
                node_text(call),
                call.member.as_deref().unwrap_or("?"),
                args.join(", ")
            );
            let json = json!({"command": command, "node": call.node, "method": call.member, "args": json_args});
            (json, text, args)
        }
        (Godot3Packet::Set(_), Some(call)) => {
            let (args, json_args) = arguments(call, version, natural)?;
            let value_text = args.first().cloned().unwrap_or_default();
            let text = format!(
                "set {}.{} = {value_text}",
                node_text(call),
                call.member.as_deref().unwrap_or("?")
            );
            let json = json!({"command": command, "node": call.node, "property": call.member,
                "value": json_args.into_iter().next().unwrap_or(Value::Null)});
            (json, text, args)
        }
        (Godot3Packet::SimplifyPath { id, path }, _) => {
            let path = path.to_string_lossy().into_owned();
            (
                json!({"command": command, "id": id, "path": path}),
                format!("simplify_path #{id} = {path}"),
                vec![],
            )
        }
        (Godot3Packet::ConfirmPath { path }, _) => {
            let path = path.to_string_lossy().into_owned();
            (json!({"command": command, "path": path}), format!("confirm_path {path}"), vec![])
        }
        (Godot3Packet::Raw(payload), _) => {
            let hex = hex(payload);
            (
                json!({"command": command, "hex": hex}),
                format!("raw {} bytes {hex}", payload.len()),
                vec![],
            )
        }
        _ => (json!({"command": command}), command.to_string(), vec![]),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
mod tests {
    use gdvariant::Options;
    use gdvariant_multiplayer::godot4;
    use gdvariant_multiplayer::track::{Message, Packet, Synced};

    use super::describe;

    /// `Message::check` (what `gdvariant pcap --stats` counts with) refuses exactly what
    /// `describe` refuses, with the same error: a SPAWN's state, a SYNC's and a DELTA_SYNC's
    /// values (0x3f: a value of no type), read only for the synchronizers named, relayed or not.
    #[test]
    fn check_refuses_what_describe_refuses() {
        let mut spawn = vec![0x04, 0x00, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0];
        spawn.extend_from_slice(b"a\0\x3f");
        let mut good_spawn = spawn.clone();
        *good_spawn.last_mut().unwrap() = 0x81; // true
        let sync = [0x06, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0x3f];
        let delta = [0x16, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x3f];
        let mut refused = 0;
        for bytes in [&spawn[..], &good_spawn, &sync, &delta] {
            let packet = godot4::decode(bytes, Options::godot4()).unwrap();
            for (named, relay) in [(false, None), (true, None), (true, Some(3))] {
                let message = Message {
                    from: 2,
                    to: 1,
                    relay,
                    packet: Packet::Godot4(packet),
                    call: None,
                    spawn: None,
                    synced: if named {
                        vec![Synced { net_id: 3, target: None, properties: None }]
                    } else {
                        vec![]
                    },
                    despawned: None,
                    methods: None,
                };
                let described = describe(&message, false).err();
                assert_eq!(message.check().err(), described, "{bytes:02x?} {named} {relay:?}");
                refused += usize::from(described.is_some());
            }
        }
        // The bad spawn thrice, each sync twice (named).
        assert_eq!(refused, 7);
    }
}
