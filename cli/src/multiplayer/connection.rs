//! [`Connection`]: one multiplayer connection's messages, decoded with the library
//! (`gdvariant_multiplayer`) and followed with a session, as text and JSON. Shared by
//! `gdvariant multiplayer` and `gdvariant proxy --multiplayer`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use gdvariant::{Options, Version};
use gdvariant_multiplayer::capture::{Direction, Transport};
use gdvariant_multiplayer::godot4::{self, Godot4Packet, NodeAddress, Sys};
use gdvariant_multiplayer::project::{ProjectIndex, ReplicationConfig, property_name};
use gdvariant_multiplayer::session::{Limits, Route, RpcMethods, Session3, Session4, SyncTarget};
use gdvariant_multiplayer::transport::{enet3, websocket3, websocket4};
use gdvariant_multiplayer::{PacketError, godot3};
use serde_json::{Value, json};

use super::values::{carried_json, hex, named, set, text, values4};

/// What a connection's session keeps at most: 16,384 ids, paths of up to 1 KiB, 1 MiB in all (a
/// proxy serves up to `--max-connections` of them).
const LIMITS: Limits = Limits { max_entries: 16_384, max_path: 1024, max_bytes: 1 << 20 };

/// A call: an RPC (Godot 4), a CALL or a SET (Godot 3), possibly inside a relay.
#[derive(Debug, Clone)]
pub struct Call {
    /// The node's path, when known.
    pub node: Option<String>,
    /// The method (or, for a SET, the property), when known.
    pub member: Option<String>,
    /// Whether the path is spelled as Godot's sender spells it.
    pub canonical: bool,
    /// The arguments (a SET: the value) as Godot's text.
    pub args: Vec<String>,
}

impl Call {
    /// `node::member`, with `?` for what is unknown: the key of the statistics.
    pub fn key(&self) -> String {
        format!(
            "{}::{}",
            self.node.as_deref().unwrap_or("?"),
            self.member.as_deref().unwrap_or("?")
        )
    }
}

/// What one message means.
#[derive(Debug, Clone)]
pub struct Message {
    /// The sending peer (0 when not known yet).
    pub from: i32,
    /// The target peer.
    pub to: i32,
    /// The call it makes, if it is one.
    pub call: Option<Call>,
    /// It carries RAW bytes (`send_bytes`).
    pub raw: bool,
    /// The decoded message as JSON (`command` and its fields).
    pub json: Value,
    /// The decoded message on one line.
    pub text: String,
    /// What it replicates (Godot 4 SYNC, DELTA_SYNC, SPAWN), for the allow-list.
    pub replicas: Vec<Replica>,
}

/// What a SYNC, DELTA_SYNC or SPAWN replicates, as the allow-list names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replica {
    /// A SPAWN (else a synchronizer's values).
    pub spawn: bool,
    /// SYNC: the synchronizer's node path, or a spawned node's name; SPAWN: the spawner's path.
    /// `None` when the session cannot name it.
    pub node: Option<String>,
    /// SYNC: the properties carried, in order; SPAWN: the scene's path. `None` when they cannot
    /// be named (without `--project`, or a synchronizer the project does not describe).
    pub members: Option<Vec<String>>,
}

/// Why a message is refused.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// `invalid_packet` (Godot refuses the bytes) or `session` (the ids make no sense).
    pub reason: &'static str,
    /// What and where.
    pub detail: String,
}

impl From<PacketError> for Refusal {
    fn from(error: PacketError) -> Self {
        Refusal { reason: "invalid_packet", detail: error.to_string() }
    }
}

impl From<gdvariant_multiplayer::session::SessionError> for Refusal {
    fn from(error: gdvariant_multiplayer::session::SessionError) -> Self {
        Refusal { reason: "session", detail: error.to_string() }
    }
}

/// One connection: its transport, its client's id once known, and its session.
#[derive(Debug)]
pub struct Connection {
    version: Version,
    transport: Transport,
    options: Options,
    client: Option<i32>,
    first_from_server: bool,
    four: Session4,
    three: Session3,
    natural_json: bool,
    /// The project (`--project`): names the properties SPAWN and SYNC carry.
    project: Option<Arc<ProjectIndex>>,
    /// The project scene each spawned node (route, network id) was made from, and whether it
    /// was inferred; kept while the session keeps the node.
    scenes: BTreeMap<(Route, u32), (usize, bool)>,
    /// The paths announced with SIMPLIFY_PATH (bounded by the session's limits).
    seen: BTreeSet<String>,
}

impl Connection {
    /// A connection of `version` traffic over `transport`, naming Godot 4 methods with
    /// `methods`.
    pub fn new(
        version: Version,
        transport: Transport,
        allow_objects: bool,
        methods: Arc<RpcMethods>,
    ) -> Self {
        Connection {
            version,
            transport,
            options: Options::new(version).with_allow_objects(allow_objects),
            client: None,
            first_from_server: true,
            four: Session4::new(methods, LIMITS),
            three: Session3::new(LIMITS),
            natural_json: false,
            project: None,
            scenes: BTreeMap::new(),
            seen: BTreeSet::new(),
        }
    }

    /// Names the properties of SPAWN and SYNC packets from `project`'s scenes.
    pub fn with_project(mut self, project: Option<Arc<ProjectIndex>>) -> Self {
        self.project = project;
        self
    }

    /// The node paths peers announced on this connection (Godot 4 SIMPLIFY_PATH).
    pub fn paths_seen(&self) -> impl Iterator<Item = &str> {
        self.seen.iter().map(String::as_str)
    }

    /// The client's peer id, when the transport tells it before any packet (ENet's connect
    /// data; Godot 4 packets carry no ids).
    pub fn set_client(&mut self, id: i32) {
        self.client = Some(id);
    }

    /// Values in [`Message::json`] as natural JSON (objects, numbers) instead of lossless JSON.
    pub fn with_natural_json(mut self, natural: bool) -> Self {
        self.natural_json = natural;
        self
    }

    /// Decodes one message (on `channel`, for Godot 3 ENet) going `direction`, and follows it.
    pub fn message(
        &mut self,
        direction: Direction,
        channel: u8,
        bytes: &[u8],
    ) -> Result<Message, Refusal> {
        let first = self.first_from_server;
        self.first_from_server = first && direction == Direction::ToServer;
        match (self.version, self.transport) {
            (Version::Godot4, Transport::WebSocket4)
                if direction == Direction::ToClient && first =>
            {
                let id = websocket4::peer_id(bytes)?;
                self.client = Some(id);
                Ok(Message {
                    from: 1,
                    to: id,
                    call: None,
                    raw: false,
                    json: json!({"command": "peer_id", "peer": id}),
                    text: format!("peer_id {id}"),
                    replicas: Vec::new(),
                })
            }
            (Version::Godot4, _) => {
                let client = self.client.unwrap_or(0);
                let (from, to) = match direction {
                    Direction::ToServer => (client, 1),
                    Direction::ToClient => (1, client),
                };
                self.packet4(from, to, bytes)
            }
            (Version::Godot3, Transport::Enet3) => match enet3::decode(bytes, channel)? {
                enet3::EnetPacket::Data { source, target, payload } => {
                    let from = i32::try_from(source).unwrap_or(i32::MAX);
                    if direction == Direction::ToServer {
                        self.client = Some(from);
                    }
                    self.packet3(from, target, payload)
                }
                enet3::EnetPacket::System { message, peer } => {
                    let name = match message {
                        enet3::SystemMessage::AddPeer => "add_peer",
                        enet3::SystemMessage::RemovePeer => "remove_peer",
                        enet3::SystemMessage::Other(_) => "system",
                    };
                    Ok(system(1, self.client.unwrap_or(0), name, i64::from(peer)))
                }
            },
            (Version::Godot3, _) => {
                let message = websocket3::decode(bytes)?;
                match message.kind {
                    websocket3::MessageType::Payload => {
                        self.packet3(message.from, message.to, message.payload)
                    }
                    kind => {
                        let peer = message.peer().unwrap_or(0);
                        let name = match kind {
                            websocket3::MessageType::AddPeer => "add_peer",
                            websocket3::MessageType::DelPeer => "del_peer",
                            _ => {
                                self.client = Some(peer);
                                "peer_id"
                            }
                        };
                        Ok(system(message.from, message.to, name, i64::from(peer)))
                    }
                }
            }
        }
    }

    /// A Godot 4 packet from `from` to `to`.
    fn packet4(&mut self, from: i32, to: i32, bytes: &[u8]) -> Result<Message, Refusal> {
        let packet = godot4::decode(bytes, self.options)?;
        packet.validate()?;
        let (route, inner) = Route::of(from, to, &packet)
            .ok_or_else(|| Refusal { reason: "invalid_packet", detail: "relayed packet".into() })?;
        // A despawned node's name, before the session forgets it.
        let despawned = match inner {
            Godot4Packet::Despawn(despawn) => {
                self.four.spawned(route, despawn.net_id()).map(|(n, _)| n.to_string())
            }
            _ => None,
        };
        self.four.observe(from, to, &packet)?;
        match inner {
            Godot4Packet::SimplifyPath(simplify) => {
                let path = std::str::from_utf8(simplify.path().text_bytes()).ok();
                if let Some(path) = path.filter(|p| !self.seen.contains(*p)) {
                    self.seen.insert(path.to_string());
                }
            }
            Godot4Packet::Spawn(spawn) => {
                if let Some(project) = &self.project {
                    let spawner = self.four.path(route, spawn.spawner());
                    let found = project.spawn_scene(
                        spawner,
                        spawn.scene(),
                        spawn.sync_ids().len(),
                        spawn.state().count(),
                    );
                    if let Some(found) = found {
                        self.scenes.insert((route, spawn.net_id()), (found.scene, found.inferred));
                    }
                }
            }
            Godot4Packet::Despawn(despawn) => {
                self.scenes.remove(&(route, despawn.net_id()));
            }
            _ => {}
        }
        let mut replicas = Vec::new();
        let (mut json, mut text, call, raw) =
            self.describe4(route, &inner, despawned, &mut replicas)?;
        if let Godot4Packet::Sys(Sys::Relay(relay)) = packet {
            let way = if from == 1 { "from" } else { "to" };
            text = format!("relay {way} {}: {text}", relay.peer());
            json = json!({"command": "relay", "peer": relay.peer(), "packet": json});
        }
        Ok(Message { from, to, call, raw, json, text, replicas })
    }

    /// A Godot 4 packet (not a relay) on `route`: JSON, text, the call, whether it is RAW; what
    /// it replicates is added to `replicas`.
    fn describe4(
        &self,
        route: Route,
        packet: &Godot4Packet<'_>,
        despawned: Option<String>,
        replicas: &mut Vec<Replica>,
    ) -> Result<(Value, String, Option<Call>, bool), Refusal> {
        let command = packet.command().name();
        Ok(match packet {
            Godot4Packet::Rpc(rpc) => {
                let named = self.four.rpc(route, rpc);
                let (args, json_args) = values4(rpc.arguments(), self.natural_json)?;
                let node = named.path.map(String::from);
                let node_text = match (node.as_deref(), rpc.node()) {
                    (Some(path), _) => path.to_string(),
                    (None, NodeAddress::Cached(id)) => format!("#{id}"),
                    (None, NodeAddress::Path { .. }) => "?".into(),
                };
                let method = named.method.map(String::from);
                let method_text = method.clone().unwrap_or_else(|| format!("#{}", rpc.method_id()));
                let text = format!("rpc {node_text}::{method_text}({})", args.join(", "));
                let json = json!({
                    "command": command, "node": node, "node_id": match rpc.node() {
                        NodeAddress::Cached(id) => json!(id), NodeAddress::Path { .. } => Value::Null },
                    "method": method, "method_id": rpc.method_id(), "checksum": named.checksum.name(),
                    "byte_only": rpc.is_byte_only(), "args": json_args,
                });
                let canonical =
                    node.as_deref().is_some_and(gdvariant_multiplayer::session::is_canonical_path);
                (json, text, Some(Call { node, member: method, canonical, args }), false)
            }
            Godot4Packet::SimplifyPath(simplify) => {
                let path = simplify.path().to_string_lossy().into_owned();
                let checksum =
                    self.four.checksum(route, simplify.id()).map_or("unlisted", |c| c.name());
                let text =
                    format!("simplify_path #{} = {path} (methods {checksum})", simplify.id());
                let json = json!({"command": command, "id": simplify.id(), "path": path,
                    "checksum": String::from_utf8_lossy(simplify.checksum()), "methods": checksum});
                (json, text, None, false)
            }
            Godot4Packet::ConfirmPath(confirm) => {
                let valid = confirm.checksum_valid();
                let text = format!(
                    "confirm_path #{} (checksum {})",
                    confirm.id(),
                    if valid { "valid" } else { "invalid" }
                );
                (
                    json!({"command": command, "id": confirm.id(), "checksum_valid": valid}),
                    text,
                    None,
                    false,
                )
            }
            Godot4Packet::Raw(payload) => {
                let hex = hex(payload);
                (
                    json!({"command": command, "hex": hex}),
                    format!("raw {} bytes {hex}", payload.len()),
                    None,
                    true,
                )
            }
            Godot4Packet::Spawn(spawn) => {
                let spawner = self.four.path(route, spawn.spawner()).map(String::from);
                let name = spawn.name().to_string_lossy().into_owned();
                let (state, state_json) = values4(spawn.state(), self.natural_json)?;
                let argument =
                    spawn.argument_carried().map(|a| text(a.value.value(), Version::Godot4));
                let sync_ids: Vec<u32> = spawn.sync_ids().collect();
                let known = self.scenes.get(&(route, spawn.net_id())).copied();
                let project = self.project.as_deref();
                let names = known
                    .and_then(|(scene, _)| {
                        project.map(|p| {
                            p.spawn_properties(scene).into_iter().map(property_name).collect()
                        })
                    })
                    .filter(|names: &Vec<&str>| names.len() == state.len());
                let scene_path =
                    known.and_then(|(scene, _)| project.and_then(|p| p.scene_path(scene)));
                let text = format!(
                    "spawn {} by {} scene {}{}{} net {} sync {:?} state [{}]",
                    name,
                    spawner.as_deref().unwrap_or("?"),
                    spawn.scene(),
                    match (scene_path, known) {
                        (Some(path), Some((_, true))) => format!(" ({path}?)"),
                        (Some(path), _) => format!(" ({path})"),
                        _ => String::new(),
                    },
                    argument.as_ref().map(|a| format!(" argument {a}")).unwrap_or_default(),
                    spawn.net_id(),
                    sync_ids,
                    named(&state, names.as_deref())
                );
                let mut json = json!({"command": command, "name": name, "spawner": spawner, "spawner_id": spawn.spawner(),
                    "scene": spawn.scene(), "net_id": spawn.net_id(), "sync_ids": sync_ids,
                    "argument": spawn.argument_carried().map(|a| carried_json(a.value.value(), a.bytes, self.natural_json)),
                    "state": state_json});
                if let (Some(path), Some((_, inferred))) = (scene_path, known) {
                    set(&mut json, "scene_path", json!(path));
                    set(&mut json, "scene_inferred", json!(inferred));
                }
                if let Some(names) = names {
                    set(&mut json, "properties", json!(names));
                }
                replicas.push(Replica {
                    spawn: true,
                    node: spawner,
                    members: scene_path.map(|path| vec![path.to_string()]),
                });
                (json, text, None, false)
            }
            Godot4Packet::Despawn(despawn) => {
                let text = match &despawned {
                    Some(name) => format!("despawn net {} ({name})", despawn.net_id()),
                    None => format!("despawn net {}", despawn.net_id()),
                };
                (
                    json!({"command": command, "net_id": despawn.net_id(), "name": despawned}),
                    text,
                    None,
                    false,
                )
            }
            Godot4Packet::Sync(sync) => {
                let mut parts = Vec::new();
                let mut elements = Vec::new();
                for element in sync.elements() {
                    let element = element?;
                    let (values, values_json) = values4(element.values(), self.natural_json)?;
                    let target = self.sync_target(route, element.net_id());
                    let names = self
                        .sync_config(route, element.net_id())
                        .map(|c| c.sync().map(property_name).collect::<Vec<_>>())
                        .filter(|names| names.len() == values.len());
                    parts.push(format!("{target} [{}]", named(&values, names.as_deref())));
                    replicas.push(self.replica(route, element.net_id(), names.as_deref()));
                    let mut element_json =
                        json!({"net_id": element.net_id(), "node": target, "values": values_json});
                    if let Some(names) = names {
                        set(&mut element_json, "properties", json!(names));
                    }
                    elements.push(element_json);
                }
                let text = format!("sync time {}: {}", sync.time(), parts.join("; "));
                (
                    json!({"command": command, "time": sync.time(), "elements": elements}),
                    text,
                    None,
                    false,
                )
            }
            Godot4Packet::DeltaSync(delta) => {
                let mut parts = Vec::new();
                let mut elements = Vec::new();
                for element in delta.elements() {
                    let element = element?;
                    let (values, values_json) = values4(element.values(), self.natural_json)?;
                    let target = self.sync_target(route, element.net_id());
                    let indexes: Vec<u32> = element.indexes().collect();
                    let names = self
                        .sync_config(route, element.net_id())
                        .and_then(|c| {
                            let watch: Vec<&str> = c.watch().map(property_name).collect();
                            indexes
                                .iter()
                                .map(|&i| {
                                    usize::try_from(i).ok().and_then(|i| watch.get(i).copied())
                                })
                                .collect::<Option<Vec<&str>>>()
                        })
                        .filter(|names| names.len() == values.len());
                    parts.push(format!(
                        "{target} {indexes:?} [{}]",
                        named(&values, names.as_deref())
                    ));
                    replicas.push(self.replica(route, element.net_id(), names.as_deref()));
                    let mut element_json = json!({"net_id": element.net_id(), "node": target, "indexes": indexes, "values": values_json});
                    if let Some(names) = names {
                        set(&mut element_json, "properties", json!(names));
                    }
                    elements.push(element_json);
                }
                let text = format!("delta_sync: {}", parts.join("; "));
                (json!({"command": "delta_sync", "elements": elements}), text, None, false)
            }
            Godot4Packet::Sys(Sys::Auth(data)) => {
                let hex = hex(data);
                (
                    json!({"command": "auth", "hex": hex}),
                    format!("auth {} bytes {hex}", data.len()),
                    None,
                    false,
                )
            }
            Godot4Packet::Sys(Sys::AddPeer(peer)) => (
                json!({"command": "add_peer", "peer": peer}),
                format!("add_peer {peer}"),
                None,
                false,
            ),
            Godot4Packet::Sys(Sys::DelPeer(peer)) => (
                json!({"command": "del_peer", "peer": peer}),
                format!("del_peer {peer}"),
                None,
                false,
            ),
            Godot4Packet::Sys(Sys::Relay(_)) | _ => {
                (json!({"command": command}), command.to_string(), None, false)
            }
        })
    }

    /// The replication config of synchronizer `net_id` on `route`, from the project: a
    /// spawned node's synchronizer by its scene and index, a scene's by its path.
    fn sync_config(&self, route: Route, net_id: u32) -> Option<&ReplicationConfig> {
        let project = self.project.as_deref()?;
        match self.four.synchronizer(route, net_id)? {
            SyncTarget::Path(path) => project.synchronizer(path),
            SyncTarget::Spawned { net_id, index, .. } => {
                let &(scene, _) = self.scenes.get(&(route, net_id))?;
                project.spawned_synchronizer(scene, index)
            }
        }
    }

    /// What a synchronizer's element replicates: its node (a spawned node's name) and the
    /// properties `names` it carries.
    fn replica(&self, route: Route, net_id: u32, names: Option<&[&str]>) -> Replica {
        let node = match self.four.synchronizer(route, net_id) {
            Some(SyncTarget::Path(path)) => Some(path.to_string()),
            Some(SyncTarget::Spawned { name, .. }) => Some(name.to_string()),
            None => None,
        };
        let members = names.map(|names| names.iter().map(|n| n.to_string()).collect());
        Replica { spawn: false, node, members }
    }

    /// A synchronizer's node, as text.
    fn sync_target(&self, route: Route, net_id: u32) -> String {
        match self.four.synchronizer(route, net_id) {
            Some(SyncTarget::Path(path)) => path.to_string(),
            Some(SyncTarget::Spawned { name, net_id, .. }) => format!("{name} (net {net_id})"),
            None => format!("net {net_id:#x}"),
        }
    }

    /// A Godot 3 packet from `from` to `to`.
    fn packet3(&mut self, from: i32, to: i32, bytes: &[u8]) -> Result<Message, Refusal> {
        let packet = godot3::decode(bytes, self.options)?;
        packet.validate()?;
        let sender = from as u32;
        self.three.observe(sender, &packet)?;
        let command = packet.command().name();
        let version = Version::Godot3;
        let node_of = |node: &godot3::NodeAddress<'_>| -> (Option<String>, String) {
            let path = self.three.node(sender, node).map(|p| p.into_owned());
            let shown = match (&path, node) {
                (Some(p), _) => p.clone(),
                (None, godot3::NodeAddress::Cached(id)) => format!("#{id}"),
                (None, godot3::NodeAddress::Path { .. }) => "?".into(),
            };
            (path, shown)
        };
        let (json, text, call, raw) = match packet {
            godot3::Godot3Packet::Call(call) => {
                let (node, shown) = node_of(&call.node());
                let method = call.method().to_text().ok().map(|m| m.into_owned());
                let mut args = Vec::new();
                let mut json_args = Vec::new();
                for arg in call.arguments() {
                    let arg = arg?;
                    let value = arg.value();
                    args.push(text(value, version));
                    json_args.push(carried_json(value, arg.raw_bytes(), self.natural_json));
                }
                let text = format!(
                    "call {shown}::{}({})",
                    method.as_deref().unwrap_or("?"),
                    args.join(", ")
                );
                let json =
                    json!({"command": command, "node": node, "method": method, "args": json_args});
                let canonical =
                    node.as_deref().is_some_and(gdvariant_multiplayer::session::is_canonical_path);
                (json, text, Some(Call { node, member: method, canonical, args }), false)
            }
            godot3::Godot3Packet::Set(set) => {
                let (node, shown) = node_of(&set.node());
                let property = set.property().to_text().ok().map(|m| m.into_owned());
                let element = set.value()?;
                let value = element.value();
                let value_text = text(value, version);
                let text =
                    format!("set {shown}.{} = {value_text}", property.as_deref().unwrap_or("?"));
                let json = json!({"command": command, "node": node, "property": property,
                    "value": carried_json(value, element.raw_bytes(), self.natural_json)});
                let canonical =
                    node.as_deref().is_some_and(gdvariant_multiplayer::session::is_canonical_path);
                (
                    json,
                    text,
                    Some(Call { node, member: property, canonical, args: vec![value_text] }),
                    false,
                )
            }
            godot3::Godot3Packet::SimplifyPath { id, path } => {
                let path = path.to_string_lossy().into_owned();
                (
                    json!({"command": command, "id": id, "path": path}),
                    format!("simplify_path #{id} = {path}"),
                    None,
                    false,
                )
            }
            godot3::Godot3Packet::ConfirmPath { path } => {
                let path = path.to_string_lossy().into_owned();
                (
                    json!({"command": command, "path": path}),
                    format!("confirm_path {path}"),
                    None,
                    false,
                )
            }
            godot3::Godot3Packet::Raw(payload) => {
                let hex = hex(payload);
                (
                    json!({"command": command, "hex": hex}),
                    format!("raw {} bytes {hex}", payload.len()),
                    None,
                    true,
                )
            }
            _ => (json!({"command": command}), command.to_string(), None, false),
        };
        Ok(Message { from, to, call, raw, json, text, replicas: Vec::new() })
    }
}

/// A transport's system message.
fn system(from: i32, to: i32, name: &str, peer: i64) -> Message {
    Message {
        from,
        to,
        call: None,
        raw: false,
        json: json!({"command": name, "peer": peer}),
        text: format!("{name} {peer}"),
        replicas: Vec::new(),
    }
}
