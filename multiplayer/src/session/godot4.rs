//! [`Session4`]: a Godot 4 connection's ids.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use super::methods::{Checksum, RpcMethods};
use super::{Limits, SessionError, entry_bytes};
use crate::godot4::{Godot4Packet, NodeAddress, PATH_ID, Rpc, Sys};
use gdvariant::view::GdStr;

/// A path a sender announced.
#[derive(Clone, Debug)]
struct PathEntry {
    path: String,
    /// The method list that names this node's ids, when verified.
    list: Option<usize>,
    checksum: Checksum,
    /// Whether a receiver confirmed the id.
    confirmed: bool,
}

/// A node a sender spawned.
#[derive(Clone, Debug)]
struct SpawnEntry {
    spawner: u32,
    scene: u8,
    name: String,
    sync_ids: Vec<u32>,
}

/// Which leg of its way a packet is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Leg {
    /// Straight from its sender to its receiver.
    Direct,
    /// Inside a SYS RELAY from a client to the server.
    ToServer,
    /// Inside a SYS RELAY from the server to a client.
    FromServer,
}

/// Who sent a packet to whom, and how: ids are kept per route (a sender announces the same id
/// to each peer, each receiver keeps its own table, and both legs of a relay carry the same
/// announcement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Route {
    /// The peer that wrote the packet (1: the server).
    pub sender: i32,
    /// The peer it is for (for a relay from a client to everyone, 0 or `-id`).
    pub receiver: i32,
    /// The leg.
    pub leg: Leg,
}

impl Route {
    /// A packet going straight from `sender` to `receiver`.
    pub const fn direct(sender: i32, receiver: i32) -> Self {
        Route { sender, receiver, leg: Leg::Direct }
    }

    /// The route and the packet that the receiving peer acts on, for a packet `sender` sent to
    /// `receiver`: the packet itself, or what a SYS RELAY carries (from the server: the packet
    /// of the peer the relay names; from a client: the client's own packet for the peer it
    /// names). `None` for a relay whose packet does not decode. O(1).
    pub fn of<'a>(
        sender: i32,
        receiver: i32,
        packet: &Godot4Packet<'a>,
    ) -> Option<(Route, Godot4Packet<'a>)> {
        match packet {
            Godot4Packet::Sys(Sys::Relay(relay)) => {
                let inner = relay.packet().ok()?;
                let route = if sender == 1 {
                    Route { sender: relay.peer(), receiver, leg: Leg::FromServer }
                } else {
                    Route { sender, receiver: relay.peer(), leg: Leg::ToServer }
                };
                Some((route, inner))
            }
            other => Some((Route::direct(sender, receiver), *other)),
        }
    }
}

/// What one sender defined for one receiver on one leg.
#[derive(Clone, Debug, Default)]
struct Sender {
    paths: BTreeMap<u32, PathEntry>,
    by_path: BTreeMap<String, u32>,
    spawned: BTreeMap<u32, SpawnEntry>,
    /// Synchronizer network id -> (node network id, index among the node's synchronizers).
    sync_ids: BTreeMap<u32, (u32, usize)>,
}

/// The ids of one Godot 4 connection (or of a whole session seen from one place), per sender
/// and receiver.
///
/// ```
/// use std::sync::Arc;
/// use gdvariant_multiplayer::godot4::{self, Godot4Packet};
/// use gdvariant_multiplayer::session::{Checksum, Limits, MethodList, Route, RpcMethods, Session4};
///
/// let mut methods = RpcMethods::new();
/// methods.node("Main/Player", MethodList::script(["take_damage", "jump"]));
/// let mut session = Session4::new(Arc::new(methods), Limits::default());
///
/// // Client 7 announces Main/Player as cache id 1, then calls method 0 on it.
/// let mut simplify = vec![0x01];
/// simplify.extend_from_slice(b"8c9db814c76add40efb4f84ba37edf87\0");
/// simplify.extend_from_slice(&1u32.to_le_bytes());
/// simplify.extend_from_slice(b"Main/Player\0");
/// let options = gdvariant::Options::godot4();
/// session.observe(7, 1, &godot4::decode(&simplify, options)?)?;
/// let call = [0x00, 0x01, 0x00, 0x01, 0x02, 0x05];
/// let Godot4Packet::Rpc(rpc) = godot4::decode(&call, options)? else { panic!() };
/// let named = session.rpc(Route::direct(7, 1), &rpc);
/// assert_eq!((named.path, named.method, named.checksum), (Some("Main/Player"), Some("jump"), Checksum::Verified));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Session4 {
    methods: Arc<RpcMethods>,
    limits: Limits,
    /// Per route.
    senders: BTreeMap<Route, Sender>,
    entries: usize,
    /// What [`Limits::max_bytes`] counts.
    bytes: usize,
}

/// What an RPC names, as far as the session knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RpcName<'s> {
    /// The node's path, relative to the sender's multiplayer root (`None`: an unknown cache id,
    /// or a path that is not UTF-8).
    pub path: Option<&'s str>,
    /// The method's name (`None`: no verified list names the id).
    pub method: Option<&'s str>,
    /// How the method list was found.
    pub checksum: Checksum,
}

/// The node a synchronizer network id stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncTarget<'s> {
    /// A synchronizer present in every peer's scene, by its path.
    Path(&'s str),
    /// A synchronizer of a spawned node.
    Spawned {
        /// The node's name.
        name: &'s str,
        /// The node's network id.
        net_id: u32,
        /// The spawner's path, when known.
        spawner: Option<&'s str>,
        /// The spawner's scene index ([`CUSTOM_SPAWN`](crate::godot4::CUSTOM_SPAWN)
        /// for a custom spawn).
        scene: u8,
        /// Which of the node's synchronizers (in the order of the spawn packet).
        index: usize,
    },
}

/// Counts the work of one step on a table of `entries` entries with a string of `len` bytes: a
/// B-tree step per level, and the string's bytes (`gdvariant::work`).
fn count(entries: usize, len: usize) {
    let levels = usize::BITS.saturating_sub(entries.leading_zeros()) as usize;
    crate::work(1usize.saturating_add(levels).saturating_add(len >> 4));
}

/// The text of a path or name, if it is UTF-8 (Godot 4 replaces other bytes; such a path
/// never names a node of a project).
fn text<'a>(s: &GdStr<'a>) -> Result<&'a str, SessionError> {
    core::str::from_utf8(s.text_bytes()).map_err(|_| SessionError::NotText)
}

impl Session4 {
    /// A session naming methods with `methods`, keeping at most what `limits` allow.
    pub fn new(methods: Arc<RpcMethods>, limits: Limits) -> Self {
        Session4 { methods, limits, senders: BTreeMap::new(), entries: 0, bytes: 0 }
    }

    /// Entries kept (paths, spawned nodes, synchronizer ids).
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// The method lists it names methods with.
    pub fn methods(&self) -> &Arc<RpcMethods> {
        &self.methods
    }

    /// Follows one packet sent by peer `sender` (1: the server) to peer `receiver`: records the
    /// paths the sender announces, the confirmations of the receiver's paths, the nodes the
    /// sender spawns and despawns, on the packet's [`Route`] (a relay is followed as the packet
    /// it carries). Other packets change nothing. O(log entries + strings stored).
    ///
    /// # Errors
    /// What Godot refuses that only a session sees (a cache id announced twice, a network id
    /// spawned twice or never), or a [`Limits`] bound; the session is unchanged then.
    pub fn observe(
        &mut self,
        sender: i32,
        receiver: i32,
        packet: &Godot4Packet<'_>,
    ) -> Result<(), SessionError> {
        let Some((route, packet)) = Route::of(sender, receiver, packet) else { return Ok(()) };
        count(self.entries, 0);
        match packet {
            Godot4Packet::SimplifyPath(simplify) => {
                let path = text(&simplify.path())?;
                count(self.entries, path.len());
                self.room(path.len(), entry_bytes(path.len().saturating_mul(2), 0))?;
                let id = simplify.id();
                let state = self.senders.entry(route).or_default();
                if state.paths.contains_key(&id) {
                    return Err(SessionError::DuplicateId { id });
                }
                let (list, checksum) = self.methods.resolve(path, simplify.checksum());
                state.paths.insert(
                    id,
                    PathEntry { path: path.to_string(), list, checksum, confirmed: false },
                );
                state.by_path.entry(path.to_string()).or_insert(id);
                self.entries = self.entries.saturating_add(1);
                self.bytes =
                    self.bytes.saturating_add(entry_bytes(path.len().saturating_mul(2), 0));
                Ok(())
            }
            Godot4Packet::ConfirmPath(confirm) => {
                // The sender confirms an id the receiver announced to it (on whichever leg);
                // ids it does not know are ignored, as Godot ignores them.
                for leg in [Leg::Direct, Leg::ToServer, Leg::FromServer] {
                    let announced = Route { sender: route.receiver, receiver: route.sender, leg };
                    if let Some(entry) = self
                        .senders
                        .get_mut(&announced)
                        .and_then(|s| s.paths.get_mut(&confirm.id()))
                    {
                        entry.confirmed = true;
                    }
                }
                Ok(())
            }
            Godot4Packet::Spawn(spawn) => {
                let name = text(&spawn.name())?;
                let count = spawn.sync_ids().len();
                crate::work(count.saturating_add(name.len() >> 4));
                self.room(name.len(), entry_bytes(name.len(), count))?;
                if self.entries.saturating_add(count).saturating_add(1) > self.limits.max_entries {
                    return Err(SessionError::Limit);
                }
                let state = self.senders.entry(route).or_default();
                let net_id = spawn.net_id();
                if state.spawned.contains_key(&net_id) {
                    return Err(SessionError::DuplicateNetId { net_id });
                }
                let sync_ids: Vec<u32> = spawn.sync_ids().collect();
                for (index, id) in sync_ids.iter().enumerate() {
                    state.sync_ids.insert(*id, (net_id, index));
                }
                state.spawned.insert(
                    net_id,
                    SpawnEntry {
                        spawner: spawn.spawner(),
                        scene: spawn.scene(),
                        name: name.to_string(),
                        sync_ids,
                    },
                );
                self.entries = self.entries.saturating_add(count).saturating_add(1);
                self.bytes = self.bytes.saturating_add(entry_bytes(name.len(), count));
                Ok(())
            }
            Godot4Packet::Despawn(despawn) => {
                let net_id = despawn.net_id();
                let state = self.senders.get_mut(&route);
                let Some(entry) = state.as_ref().and_then(|s| s.spawned.get(&net_id)) else {
                    return Err(SessionError::UnknownNetId { net_id });
                };
                let sync_ids = entry.sync_ids.clone();
                let freed = entry_bytes(entry.name.len(), sync_ids.len());
                if let Some(state) = state {
                    state.spawned.remove(&net_id);
                    for id in &sync_ids {
                        if state.sync_ids.get(id).is_some_and(|&(node, _)| node == net_id) {
                            state.sync_ids.remove(id);
                        }
                    }
                }
                self.entries = self.entries.saturating_sub(sync_ids.len().saturating_add(1));
                self.bytes = self.bytes.saturating_sub(freed);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Room for one more entry whose text holds `len` bytes and that counts `bytes`.
    fn room(&self, len: usize, bytes: usize) -> Result<(), SessionError> {
        if len > self.limits.max_path
            || self.entries >= self.limits.max_entries
            || self.bytes.saturating_add(bytes) > self.limits.max_bytes
        {
            return Err(SessionError::Limit);
        }
        Ok(())
    }

    /// The path cache id `id` stands for on `route`. O(log entries).
    pub fn path(&self, route: Route, id: u32) -> Option<&str> {
        self.senders.get(&route)?.paths.get(&id).map(|e| e.path.as_str())
    }

    /// What the checksum announced with cache id `id` on `route` says about the method list.
    /// O(log entries).
    pub fn checksum(&self, route: Route, id: u32) -> Option<Checksum> {
        self.senders.get(&route)?.paths.get(&id).map(|e| e.checksum)
    }

    /// Whether the receiver confirmed cache id `id` of `route`. O(log entries).
    pub fn is_confirmed(&self, route: Route, id: u32) -> bool {
        self.senders.get(&route).and_then(|s| s.paths.get(&id)).is_some_and(|e| e.confirmed)
    }

    /// What an RPC on `route` names: its node's path and its method's name, when the session
    /// knows them. O(log entries + path length).
    pub fn rpc<'s>(&'s self, route: Route, rpc: &Rpc<'s>) -> RpcName<'s> {
        count(self.entries, rpc.path_text().map_or(0, <[u8]>::len));
        let state = self.senders.get(&route);
        let (path, list, checksum) = match rpc.node() {
            NodeAddress::Cached(id) => match state.and_then(|s| s.paths.get(&id)) {
                Some(entry) => (Some(entry.path.as_str()), entry.list, entry.checksum),
                None => (None, None, Checksum::Unlisted),
            },
            NodeAddress::Path { path, .. } => {
                let path = text(&path).ok();
                let announced = path
                    .and_then(|p| state.and_then(|s| s.by_path.get(p)))
                    .and_then(|id| state.and_then(|s| s.paths.get(id)));
                match (path, announced) {
                    (_, Some(entry)) => (path, entry.list, entry.checksum),
                    (Some(p), None) => match self.methods.for_path(p) {
                        Some(index) => (Some(p), Some(index), Checksum::Unchecked),
                        None => (Some(p), None, Checksum::Unlisted),
                    },
                    (None, None) => (None, None, Checksum::Unlisted),
                }
            }
        };
        let method = list.and_then(|i| self.methods.list(i)).and_then(|l| l.name(rpc.method_id()));
        RpcName { path, method, checksum }
    }

    /// The node behind synchronizer network id `net_id` of a SYNC on `route`. O(log entries).
    pub fn synchronizer(&self, route: Route, net_id: u32) -> Option<SyncTarget<'_>> {
        let state = self.senders.get(&route)?;
        if net_id & PATH_ID != 0 {
            return state.paths.get(&(net_id & !PATH_ID)).map(|e| SyncTarget::Path(&e.path));
        }
        let &(node, index) = state.sync_ids.get(&net_id)?;
        let entry = state.spawned.get(&node)?;
        Some(SyncTarget::Spawned {
            name: &entry.name,
            net_id: node,
            spawner: state.paths.get(&entry.spawner).map(|e| e.path.as_str()),
            scene: entry.scene,
            index,
        })
    }

    /// The node `net_id` spawned on `route`: its name and its spawner's path. O(log entries).
    pub fn spawned(&self, route: Route, net_id: u32) -> Option<(&str, Option<&str>)> {
        let state = self.senders.get(&route)?;
        let entry = state.spawned.get(&net_id)?;
        Some((&entry.name, state.paths.get(&entry.spawner).map(|e| e.path.as_str())))
    }
}
