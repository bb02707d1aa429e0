//! [`Session4`]: a Godot 4 connection's ids.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use super::methods::{Checksum, RpcMethods};
use super::{Limits, SessionError};
use crate::GdStr;
use crate::multiplayer::godot4::{NodeAddress, PATH_ID, Packet, Rpc, Sys};

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

/// What one sender defined.
#[derive(Clone, Debug, Default)]
struct Sender {
    paths: BTreeMap<u32, PathEntry>,
    by_path: BTreeMap<String, u32>,
    spawned: BTreeMap<u32, SpawnEntry>,
    /// Synchronizer network id -> (node network id, index among the node's synchronizers).
    sync_ids: BTreeMap<u32, (u32, usize)>,
}

/// The ids of one Godot 4 connection (or of a whole session seen from one place), per sender.
///
/// ```
/// use std::sync::Arc;
/// use gdvariant::multiplayer::godot4::{self, Packet};
/// use gdvariant::multiplayer::session::{Checksum, Limits, MethodList, RpcMethods, Session4};
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
/// let Packet::Rpc(rpc) = godot4::decode(&call, options)? else { panic!() };
/// let named = session.rpc(7, &rpc);
/// assert_eq!((named.path, named.method, named.checksum), (Some("Main/Player"), Some("jump"), Checksum::Verified));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Session4 {
    methods: Arc<RpcMethods>,
    limits: Limits,
    senders: BTreeMap<i32, Sender>,
    entries: usize,
}

/// What an RPC names, as far as the session knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call<'s> {
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
        /// The spawner's scene index ([`CUSTOM_SPAWN`](crate::multiplayer::godot4::CUSTOM_SPAWN)
        /// for a custom spawn).
        scene: u8,
        /// Which of the node's synchronizers (in the order of the spawn packet).
        index: usize,
    },
}

/// The text of a path or name, if it is UTF-8 (Godot 4 replaces other bytes; such a path
/// never names a node of a project).
fn text<'a>(s: &GdStr<'a>) -> Result<&'a str, SessionError> {
    core::str::from_utf8(s.text_bytes()).map_err(|_| SessionError::NotText)
}

impl Session4 {
    /// A session naming methods with `methods`, keeping at most what `limits` allow.
    pub fn new(methods: Arc<RpcMethods>, limits: Limits) -> Self {
        Session4 { methods, limits, senders: BTreeMap::new(), entries: 0 }
    }

    /// Entries kept (paths, spawned nodes, synchronizer ids).
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Follows one packet sent by peer `sender` (1: the server) to peer `receiver`: records the
    /// paths the sender announces, the confirmations of the receiver's paths, the nodes the
    /// sender spawns and despawns; a relayed packet is followed as sent by the peer it comes
    /// from to the peer it goes to (a relay from a client is the client's own packet, for the
    /// peer it names). Other packets change nothing. O(log entries + strings stored).
    ///
    /// # Errors
    /// What Godot refuses that only a session sees (a repeated cache id, a repeated or unknown
    /// network id), or a [`Limits`] bound; the session is unchanged then.
    pub fn observe(
        &mut self,
        sender: i32,
        receiver: i32,
        packet: &Packet<'_>,
    ) -> Result<(), SessionError> {
        match packet {
            Packet::SimplifyPath(simplify) => {
                let path = text(&simplify.path())?;
                self.room(path.len())?;
                let id = simplify.id();
                let state = self.senders.entry(sender).or_default();
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
                Ok(())
            }
            Packet::ConfirmPath(confirm) => {
                // The sender confirms an id the receiver defined; ids it does not know are
                // ignored, as Godot ignores them.
                if let Some(entry) =
                    self.senders.get_mut(&receiver).and_then(|s| s.paths.get_mut(&confirm.id()))
                {
                    entry.confirmed = true;
                }
                Ok(())
            }
            Packet::Spawn(spawn) => {
                let name = text(&spawn.name())?;
                let count = spawn.sync_ids().len();
                self.room(name.len())?;
                if self.entries.saturating_add(count).saturating_add(1) > self.limits.max_entries {
                    return Err(SessionError::Limit);
                }
                let state = self.senders.entry(sender).or_default();
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
                Ok(())
            }
            Packet::Despawn(despawn) => {
                let net_id = despawn.net_id();
                let state = self.senders.get_mut(&sender);
                let Some(entry) = state.as_ref().and_then(|s| s.spawned.get(&net_id)) else {
                    return Err(SessionError::UnknownNetId { net_id });
                };
                let sync_ids = entry.sync_ids.clone();
                if let Some(state) = state {
                    state.spawned.remove(&net_id);
                    for id in &sync_ids {
                        if state.sync_ids.get(id).is_some_and(|&(node, _)| node == net_id) {
                            state.sync_ids.remove(id);
                        }
                    }
                }
                self.entries = self.entries.saturating_sub(sync_ids.len().saturating_add(1));
                Ok(())
            }
            Packet::Sys(Sys::Relay(relay)) => {
                let Ok(inner) = relay.packet() else { return Ok(()) };
                let (origin, target) =
                    if sender == 1 { (relay.peer(), receiver) } else { (sender, relay.peer()) };
                self.observe(origin, target, &inner)
            }
            _ => Ok(()),
        }
    }

    /// Room for one more entry holding `len` bytes.
    fn room(&self, len: usize) -> Result<(), SessionError> {
        if len > self.limits.max_path || self.entries >= self.limits.max_entries {
            return Err(SessionError::Limit);
        }
        Ok(())
    }

    /// The path peer `sender` gave cache id `id`.
    pub fn path(&self, sender: i32, id: u32) -> Option<&str> {
        self.senders.get(&sender)?.paths.get(&id).map(|e| e.path.as_str())
    }

    /// Whether a receiver confirmed peer `sender`'s cache id `id`.
    pub fn is_confirmed(&self, sender: i32, id: u32) -> bool {
        self.senders.get(&sender).and_then(|s| s.paths.get(&id)).is_some_and(|e| e.confirmed)
    }

    /// What an RPC from peer `sender` names: its node's path and its method's name, when the
    /// session knows them. O(log entries + path length).
    pub fn rpc<'s>(&'s self, sender: i32, rpc: &Rpc<'s>) -> Call<'s> {
        let state = self.senders.get(&sender);
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
        Call { path, method, checksum }
    }

    /// The node behind synchronizer network id `net_id` of a SYNC from peer `sender`.
    pub fn synchronizer(&self, sender: i32, net_id: u32) -> Option<SyncTarget<'_>> {
        let state = self.senders.get(&sender)?;
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

    /// The spawned node `net_id` of peer `sender`: its name and its spawner's path.
    pub fn spawned(&self, sender: i32, net_id: u32) -> Option<(&str, Option<&str>)> {
        let state = self.senders.get(&sender)?;
        let entry = state.spawned.get(&net_id)?;
        Some((&entry.name, state.paths.get(&entry.spawner).map(|e| e.path.as_str())))
    }
}
