//! [`Tracker`]: one connection's multiplayer traffic, both Godot versions, message by message
//! (feature `alloc`).
//!
//! A tracker takes each message of one connection as the transport delivered it (with its
//! [`Framing`]'s header, its direction and ENet channel) and gives back a [`Message`]: the
//! packet, its sender and target, and every name the connection's history and the game's
//! project give its ids: a call's node path, method (or property) and lazy arguments, a spawn's
//! spawner and scene, each synchronizer's node and property names, a despawned node's name.
//! It learns the client's peer id from the traffic (Godot 4 WebSocket's first server message,
//! Godot 3's ENet and WebSocket headers) or from the caller ([`Tracker::with_client`], ENet's
//! connect data), follows the ids a [`Session4`] or [`Session3`] keeps, and checks a Godot 4
//! path's method list against the checksum its sender announced.
//!
//! ```
//! use std::sync::Arc;
//! use gdvariant::Version;
//! use gdvariant_multiplayer::session::{MethodList, RpcMethods};
//! use gdvariant_multiplayer::track::Tracker;
//! use gdvariant_multiplayer::{Direction, Framing};
//!
//! let mut methods = RpcMethods::new();
//! methods.node("Main/Player", MethodList::script(["take_damage", "jump"]));
//! let mut tracker = Tracker::new(Version::Godot4, Framing::Packets, Arc::new(methods)).with_client(7);
//!
//! // The client announces Main/Player as cache id 1, then calls rpc("jump", 5) on it.
//! let mut simplify = vec![0x01];
//! simplify.extend_from_slice(b"8c9db814c76add40efb4f84ba37edf87\0");
//! simplify.extend_from_slice(&1u32.to_le_bytes());
//! simplify.extend_from_slice(b"Main/Player\0");
//! tracker.message(Direction::ToServer, 0, &simplify)?;
//! let message = tracker.message(Direction::ToServer, 0, &[0x00, 0x01, 0x00, 0x01, 0x02, 0x05])?;
//! let call = message.call.as_ref().unwrap();
//! assert_eq!((message.from, message.to), (7, 1));
//! assert_eq!(call.to_string(), "Main/Player::jump");
//! let five = call.arguments().next().unwrap()?;
//! assert_eq!(five.value.as_int(), Some(5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is validated where
//!
//! [`Tracker::message`] reads the transport's header, decodes the packet and validates all of
//! it (every argument, spawn state and sync value, as the engine reads them, stricter where the
//! [crate docs](crate) say so), then lets the session follow it; a message refused at any step
//! ([`Refusal`]) leaves the session unchanged. Names are resolved only after that, so a [`Message`] is
//! always one the receiving game accepts.
//!
//! # Costs
//!
//! [`Tracker::message`]: O(message bytes + log entries + lengths of the paths it stores or
//! compares), with a project also O(its scenes) for a spawn; it allocates the session's new
//! entries (bounded by [`Limits`]) and, for spawns and syncs, the lists of property names.
//! Memory is the session's (bounded by [`Limits`]) plus, with a project, one entry per spawned
//! node the session keeps.

mod godot3;
mod godot4;
mod message;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::sync::Arc;

use gdvariant::{Options, Version};

pub use message::{
    Argument, Arguments, Call, CallKind, Members, Message, Packet, Refusal, Replica, ReplicaKind,
    Spawned, Synced,
};

use crate::project::ProjectIndex;
use crate::session::{Limits, Route, RpcMethods, Session3, Session4};
use crate::transport::{enet3, websocket3, websocket4};
use crate::{Direction, Framing};

/// What a tracker keeps by default: 16,384 ids, paths of up to 1 KiB, 1 MiB in all, so that a
/// server following a thousand connections holds at most a GiB for them.
pub const LIMITS: Limits = Limits { max_entries: 16_384, max_path: 1024, max_bytes: 1 << 20 };

/// One connection's multiplayer traffic, followed message by message. See the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct Tracker {
    version: Version,
    framing: Framing,
    options: Options,
    client: Option<i32>,
    first_from_server: bool,
    four: Session4,
    three: Session3,
    project: Option<Arc<ProjectIndex>>,
    /// The project scene each spawned node (route, network id) was made from, and whether it
    /// was inferred; kept while the session keeps the node.
    scenes: BTreeMap<(Route, u32), (usize, bool)>,
    /// The paths announced with SIMPLIFY_PATH (each one a session entry: bounded with it).
    seen: BTreeSet<String>,
}

impl Tracker {
    /// A tracker of `version` traffic framed as `framing`, naming Godot 4 methods with
    /// `methods` (Godot 3 packets carry their names), keeping at most [`LIMITS`].
    pub fn new(version: Version, framing: Framing, methods: Arc<RpcMethods>) -> Self {
        Tracker {
            version,
            framing,
            options: Options::new(version),
            client: None,
            first_from_server: true,
            four: Session4::new(methods, LIMITS),
            three: Session3::new(LIMITS),
            project: None,
            scenes: BTreeMap::new(),
            seen: BTreeSet::new(),
        }
    }

    /// Values in packets may hold full objects, as with Godot's `allow_object_decoding`
    /// (refused by default, as Godot does).
    pub fn with_allow_objects(mut self, allow: bool) -> Self {
        self.options = Options::new(self.version).with_allow_objects(allow);
        self
    }

    /// Keeps at most `limits` (a packet past them is refused as
    /// [`SessionError::Limit`](crate::session::SessionError::Limit)).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.four = Session4::new(Arc::clone(self.four.methods()), limits);
        self.three = Session3::new(limits);
        self
    }

    /// Names the properties SPAWN and SYNC packets carry from the game's project (Godot 4).
    pub fn with_project(mut self, project: Option<Arc<ProjectIndex>>) -> Self {
        self.project = project;
        self
    }

    /// The client's peer id, when the transport tells it before any packet (ENet's connect
    /// data); Godot 4 packets carry no ids.
    pub fn with_client(mut self, id: i32) -> Self {
        self.client = Some(id);
        self
    }

    /// The client's peer id, once known.
    pub fn client(&self) -> Option<i32> {
        self.client
    }

    /// The Godot version of the traffic.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The node paths peers announced (Godot 4 SIMPLIFY_PATH), in order of their bytes.
    pub fn paths_seen(&self) -> impl Iterator<Item = &str> {
        self.seen.iter().map(String::as_str)
    }

    /// Entries the session keeps.
    pub fn entries(&self) -> usize {
        self.four.entries().saturating_add(self.three.entries())
    }

    /// Reads one message going `direction` (on ENet `channel`; 0 elsewhere), follows it, and
    /// names what it carries. See the [module docs](self) for what is checked and what it
    /// costs.
    ///
    /// # Errors
    /// What Godot refuses in the bytes ([`Refusal::Packet`]) or ids that make no sense in the
    /// session ([`Refusal::Session`]); the session is then unchanged (what the transport's
    /// header told is kept: the client's id, and that the server has spoken).
    pub fn message<'a>(
        &'a mut self,
        direction: Direction,
        channel: u8,
        bytes: &'a [u8],
    ) -> Result<Message<'a>, Refusal> {
        let first = self.first_from_server;
        self.first_from_server = first && direction == Direction::ToServer;
        match (self.version, self.framing) {
            (Version::Godot4, Framing::WebSocket4) if direction == Direction::ToClient && first => {
                let id = websocket4::peer_id(bytes)?;
                self.client = Some(id);
                Ok(plain(1, id, Packet::PeerId(id)))
            }
            (Version::Godot4, _) => {
                let client = self.client.unwrap_or(0);
                let (from, to) = match direction {
                    Direction::ToServer => (client, 1),
                    Direction::ToClient => (1, client),
                };
                self.packet4(from, to, bytes)
            }
            (Version::Godot3, Framing::Enet3) => match enet3::decode(bytes, channel)? {
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
                    let to = self.client.unwrap_or(0);
                    Ok(plain(1, to, Packet::System { name, peer: i64::from(peer) }))
                }
            },
            (Version::Godot3, Framing::Packets | Framing::WebSocket4) => {
                let client = self.client.unwrap_or(0);
                let (from, to) = match direction {
                    Direction::ToServer => (client, 1),
                    Direction::ToClient => (1, client),
                };
                self.packet3(from, to, bytes)
            }
            (Version::Godot3, Framing::WebSocket3) => {
                let message = websocket3::decode(bytes)?;
                match message.kind {
                    websocket3::MessageType::Payload => {
                        self.packet3(message.from, message.to, message.payload)
                    }
                    websocket3::MessageType::AddPeer | websocket3::MessageType::DelPeer => {
                        let name = if message.kind == websocket3::MessageType::AddPeer {
                            "add_peer"
                        } else {
                            "del_peer"
                        };
                        let peer = i64::from(message.peer().unwrap_or(0));
                        Ok(plain(message.from, message.to, Packet::System { name, peer }))
                    }
                    _ => {
                        let peer = message.peer().unwrap_or(0);
                        self.client = Some(peer);
                        Ok(plain(message.from, message.to, Packet::PeerId(peer)))
                    }
                }
            }
        }
    }
}

/// A message with nothing to name.
fn plain(from: i32, to: i32, packet: Packet<'_>) -> Message<'_> {
    Message {
        from,
        to,
        relay: None,
        packet,
        call: None,
        spawn: None,
        synced: alloc::vec::Vec::new(),
        despawned: None,
        methods: None,
    }
}
