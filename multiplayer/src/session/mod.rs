//! Following one connection's multiplayer traffic: what ids mean (feature `alloc`).
//!
//! Packets name things by ids that earlier packets defined: a path-cache id by SIMPLIFY_PATH, a
//! spawned node and its synchronizers by SPAWN, and, in Godot 4, a method by its index in the
//! node's sorted RPC list (which the project must supply, [`RpcMethods`]; the MD5 SIMPLIFY_PATH
//! carries tells whether the list is the peer's). Ids belong to the peer that defined them and
//! to the peer it defined them for (a sender announces the same id to each peer, and each
//! receiver keeps its own table), so a session keeps them per [`Route`]: sender, receiver, and the
//! leg (direct, or inside a relay to or from the server). The server is peer 1, a client its own
//! id; [`Route::of`] gives the route and packet a receiver acts on ([`Session4::observe`]
//! follows relays itself).
//!
//! | version | type | learns | answers |
//! | --- | --- | --- | --- |
//! | Godot 4 | [`Session4`] | cache ids (SIMPLIFY_PATH, CONFIRM_PATH), network ids (SPAWN, DESPAWN) | [`Session4::rpc`]: node path and method name; [`Session4::synchronizer`], [`Session4::spawned`] |
//! | Godot 3 | [`Session3`] | cache ids (SIMPLIFY, CONFIRM) | [`Session3::node`]: node path (method names are on the wire) |
//!
//! Memory grows with what a peer announces, so it is bounded: [`Limits`] caps the entries a
//! session keeps, the length of a path it stores and the bytes of all of them, and a packet past
//! a limit is refused ([`SessionError::Limit`]) without changing anything. Maps are B-trees: every step is
//! O(log entries) plus the length of the strings it stores or compares, whatever ids or paths
//! a peer chooses, so following n bytes of traffic is O(n log n).

mod godot3;
mod godot4;
mod methods;

use core::fmt;

pub use godot3::Session3;
pub use godot4::{Leg, Route, RpcName, Session4, SyncTarget};
pub use methods::{Checksum, MethodList, PathPattern, RpcMethods};

/// Bounds on what a session keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Entries (paths, spawned nodes, synchronizer ids) over every sender. Default 65,536.
    pub max_entries: usize,
    /// Bytes of a path or node name. Default 4,096.
    pub max_path: usize,
    /// Bytes the entries take, counted as their strings (twice for a Godot 4 path, which is
    /// also indexed), 4 per synchronizer id and 64 per entry. Default 4 MiB.
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_entries: 65_536, max_path: 4096, max_bytes: 4 << 20 }
    }
}

/// What [`Limits::max_bytes`] counts for an entry holding `len` bytes of text and `ids`
/// synchronizer ids.
pub(crate) fn entry_bytes(len: usize, ids: usize) -> usize {
    len.saturating_add(ids.saturating_mul(4)).saturating_add(64)
}

/// Why a session refuses a packet (it changes nothing then).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SessionError {
    /// A [`Limits`] bound would be passed.
    Limit,
    /// SIMPLIFY_PATH with a cache id the sender already announced on the route: Godot 4
    /// refuses it ("Duplicate remote cache ID") and sends no confirmation.
    DuplicateId {
        /// The id.
        id: u32,
    },
    /// A SPAWN with a network id the sender already used: Godot refuses it.
    DuplicateNetId {
        /// The id.
        net_id: u32,
    },
    /// A packet names a cache id the sender never defined (Godot: "ID not found in cache").
    UnknownCacheId {
        /// The id.
        id: u32,
    },
    /// A DESPAWN of a network id the sender never spawned.
    UnknownNetId {
        /// The id.
        net_id: u32,
    },
    /// A path or node name that is not text Godot reads as one (its bytes are not UTF-8).
    NotText,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SessionError::Limit => f.write_str("session limit reached"),
            SessionError::DuplicateId { id } => write!(f, "cache id {id} defined twice"),
            SessionError::DuplicateNetId { net_id } => {
                write!(f, "network id {net_id} spawned twice")
            }
            SessionError::UnknownCacheId { id } => write!(f, "unknown cache id {id}"),
            SessionError::UnknownNetId { net_id } => write!(f, "unknown network id {net_id}"),
            SessionError::NotText => f.write_str("path is not text"),
        }
    }
}

impl core::error::Error for SessionError {}

/// Whether `path` is spelled as Godot's sender spells a node path relative to the multiplayer
/// root (`Node.get_path_to`): names separated by single `/`, none empty, none holding a
/// character node names cannot hold (`. : @ " %` and `/`), no leading `/`. Godot's receiver
/// also finds nodes by other spellings (`./World/../World/Player`, subnames, `%Unique`); a
/// filter that matches paths by text should refuse those. O(length).
pub fn is_canonical_path(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|name| {
            !name.is_empty() && !name.bytes().any(|b| matches!(b, b'.' | b':' | b'@' | b'"' | b'%'))
        })
}
