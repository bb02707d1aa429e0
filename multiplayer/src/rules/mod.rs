//! [`Rules`]: an allow-list for what clients send, and Godot 4's method lists, built in code or
//! read from a rules file (feature `std`: rates need a clock).
//!
//! ```text
//! # Godot 4 method lists (ids on the wire index them): a node's @rpc functions (its script's,
//! # inherited ones included), the methods set up with Node.rpc_config, a script's list for any
//! # node whose checksum matches
//! methods World/Player = jump take_damage say
//! native World/Player = plain
//! script = move shoot
//! # what passes, per client: NODE MEMBER [N/s]; MEMBER a method (or a Godot 3 rset
//! # property), `*` any; NODE a path pattern (`*` one name, `Name*` a prefix, `**` the rest)
//! allow World/Player jump
//! allow World/Player say 2/s
//! allow World/Players/* * 30/s
//! allow-raw 10/s
//! # what clients may replicate (Godot 4, with the project to name the properties): a SYNC or
//! # DELTA_SYNC synchronizer's node (a spawned node: its name) and each property it carries; a
//! # SPAWN's spawner and scene
//! allow-sync World/Player position
//! allow-sync Hero* * 60/s
//! allow-spawn World/Spawner res://bullet.tscn
//! ```
//!
//! With at least one `allow` or `allow-raw` line, [`Rules::judge`] refuses every call that no
//! line allows, every call it cannot name (an unknown cache id, a method id no verified list
//! names, a node path not spelled as Godot spells it, such as `./World/../World/Player`), and
//! RAW packets unless `allow-raw` is given. With at least one `allow-sync` line, a SYNC or
//! DELTA_SYNC passes only when every property of every synchronizer it carries is allowed
//! (properties that cannot be named, as without a project, are not); with at least one
//! `allow-spawn` line, a SPAWN passes only when a line allows its spawner and scene. Without
//! such lines, those pass. Names are compared as the game reads them (a Godot 3 method spelled
//! with overlong UTF-8 is that method). Each line's rate is per client ([`Rates`] is one
//! client's), counted with the `governor` crate (a burst of one second's worth, then the rate).
//!
//! ```
//! use std::sync::Arc;
//! use gdvariant::Version;
//! use gdvariant_multiplayer::rules::{Rates, Rules};
//! use gdvariant_multiplayer::track::Tracker;
//! use gdvariant_multiplayer::{Direction, Framing};
//!
//! let rules = Rules::parse("allow Main jump\n")?;
//! let mut tracker = Tracker::new(Version::Godot3, Framing::Enet3, Arc::clone(rules.methods()));
//! let mut rates = Rates::default();
//! // Godot 3 over ENet: client 7's packets for the server (peer 1), after an 8-byte header.
//! let from_7 = |packet: &[u8]| [&[7u8, 0, 0, 0, 1, 0, 0, 0][..], packet].concat();
//! // SIMPLIFY: cache id 1 is Main; then CALL Main.jump() and Main.quit(), without arguments.
//! tracker.message(Direction::ToServer, 1, &from_7(b"\x02\x01\0\0\0Main\0"))?;
//! let jump = from_7(b"\x00\x01\0\0\0jump\0\0");
//! let message = tracker.message(Direction::ToServer, 1, &jump)?;
//! assert!(rules.judge(&mut rates, &message).passes());
//! let quit = from_7(b"\x00\x01\0\0\0quit\0\0");
//! let message = tracker.message(Direction::ToServer, 1, &quit)?;
//! let decision = rules.judge(&mut rates, &message);
//! assert_eq!(decision.reason(), Some("not_allowed"));
//! assert_eq!(decision.to_string(), "Main::quit");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Costs
//!
//! [`Rules::parse`]: O(text + names log names). [`Rules::judge`]: O(lines x path length) per
//! named member (the first line that allows it wins), no allocation but a rate limiter the
//! first time a line with a rate is used by the client (at most one per line).

mod judge;
mod parse;

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

pub use judge::{Decision, Rates};
pub use parse::RulesError;

use crate::project::ProjectIndex;
use crate::session::{PathPattern, RpcMethods};
use crate::track::ReplicaKind;

/// One `allow`, `allow-sync` or `allow-spawn` line.
#[derive(Clone, Debug)]
pub struct Allow {
    /// The node pattern (SPAWN: the spawner's).
    pub node: PathPattern,
    /// The method or property (SPAWN: the scene path); `None` for `*`.
    pub member: Option<String>,
    /// Messages per second per client.
    pub rate: Option<u32>,
    /// The line as written (or as [`Rules::allow`] would write it), for logs.
    pub text: Arc<str>,
}

impl Allow {
    /// A line letting `member` (`*`: any) of the nodes `node` matches through, at most `rate`
    /// times a second per client.
    pub fn new(keyword: &str, node: &str, member: &str, rate: Option<u32>) -> Self {
        let text = match rate {
            Some(rate) => alloc::format!("{keyword} {node} {member} {rate}/s"),
            None => alloc::format!("{keyword} {node} {member}"),
        };
        Allow {
            node: PathPattern::new(node),
            member: (member != "*").then(|| String::from(member)),
            rate,
            text: Arc::from(text),
        }
    }

    /// Whether it lets `member` of `node` through. O(path length).
    pub fn allows(&self, node: &str, member: &str) -> bool {
        self.node.matches(node) && self.member.as_deref().is_none_or(|m| m == member)
    }
}

/// The allow-list and the method lists. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Rules {
    methods: Arc<RpcMethods>,
    allow: Vec<Allow>,
    /// `allow-raw`: `Some(rate)`; `Some(None)` without a limit.
    raw: Option<Option<u32>>,
    allow_sync: Vec<Allow>,
    allow_spawn: Vec<Allow>,
    /// The node keys of the `methods` and `native` lines, in order, each once.
    keys: Vec<String>,
}

impl Rules {
    /// No method lists and no allow line: everything passes.
    pub fn new() -> Self {
        Rules::default()
    }

    /// The method lists (a rules file's, then a project's).
    pub fn methods(&self) -> &Arc<RpcMethods> {
        &self.methods
    }

    /// Replaces the method lists.
    pub fn with_methods(mut self, methods: RpcMethods) -> Self {
        self.methods = Arc::new(methods);
        self
    }

    /// Adds the project's method lists after these rules' own (a node a `methods` or `native`
    /// pattern matches keeps the rules' list). O(the project's nodes and scripts).
    pub fn with_project(mut self, project: &ProjectIndex) -> Self {
        let mut methods = (*self.methods).clone();
        project.add_methods(&mut methods);
        self.methods = Arc::new(methods);
        self
    }

    /// Lets clients call `member` (`*`: any; Godot 3 SET: a property) on the nodes `node`
    /// matches, at most `rate` times a second each.
    pub fn allow(mut self, node: &str, member: &str, rate: Option<u32>) -> Self {
        self.allow.push(Allow::new("allow", node, member, rate));
        self
    }

    /// Lets clients send RAW packets, at most `rate` a second each.
    pub fn allow_raw(mut self, rate: Option<u32>) -> Self {
        self.raw = Some(rate);
        self
    }

    /// Lets clients synchronize `property` (`*`: any) of the synchronizers on the nodes `node`
    /// matches (a spawned node: its name), at most `rate` messages a second each.
    pub fn allow_sync(mut self, node: &str, property: &str, rate: Option<u32>) -> Self {
        self.allow_sync.push(Allow::new("allow-sync", node, property, rate));
        self
    }

    /// Lets clients spawn `scene` (`*`: any) with the spawners `spawner` matches, at most
    /// `rate` a second each.
    pub fn allow_spawn(mut self, spawner: &str, scene: &str, rate: Option<u32>) -> Self {
        self.allow_spawn.push(Allow::new("allow-spawn", spawner, scene, rate));
        self
    }

    /// Whether calls and RAW packets are filtered (an `allow` or `allow-raw` line;
    /// `allow-sync` and `allow-spawn` lines filter only what they name).
    pub fn filters(&self) -> bool {
        !self.allow.is_empty() || self.raw.is_some()
    }

    /// The `allow` lines, in order.
    pub fn calls(&self) -> &[Allow] {
        &self.allow
    }

    /// The lines of `kind` (`allow-spawn` or `allow-sync`), in order.
    pub fn replicas(&self, kind: ReplicaKind) -> &[Allow] {
        match kind {
            ReplicaKind::Spawn => &self.allow_spawn,
            ReplicaKind::Sync => &self.allow_sync,
        }
    }

    /// `allow-raw`: `Some(rate)` (`Some(None)`: without a limit), `None` without the line.
    pub fn raw(&self) -> Option<Option<u32>> {
        self.raw
    }

    /// The node keys of a rules file's `methods` and `native` lines, in order.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// The node keys ([`Rules::keys`]) that match none of `paths` (likely misspelled).
    /// O(keys x paths x path length).
    pub fn unmatched_keys(&self, paths: &[&str]) -> Vec<&str> {
        self.keys
            .iter()
            .filter(|key| {
                let pattern = PathPattern::new(key);
                !paths.iter().any(|path| pattern.matches(path))
            })
            .map(String::as_str)
            .collect()
    }
}
