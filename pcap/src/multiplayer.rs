//! A capture's multiplayer traffic: each flow's ENet messages ([`Item::Enet`](crate::Item::Enet))
//! and WebSocket binary messages ([`Config::websocket_raw`](crate::Config::websocket_raw))
//! followed by one `gdvariant_multiplayer::track::Tracker` per flow ([`Sessions`]), with the
//! flow's version and framing, Godot 4 methods named by the game's method lists and project;
//! and what they carried counted per flow, direction and method ([`MethodStats`]).
//!
//! Costs: a message is the tracker's work (see `gdvariant_multiplayer::track`) plus O(log
//! flows) to find its tracker; a count O(log keys) plus the key's length, allocating only for a
//! new key ([`MethodStats::tracked`] also reads the values the message leaves lazy, as
//! printing it would, without formatting them). Memory: a tracker per
//! flow until [`Sessions::end`], at most [`Sessions::max_flows`] of them (past it the oldest
//! flow's is forgotten, counted in [`Sessions::forgotten`]; the tracker's own limits bound
//! each), and at most [`MethodStats::max_keys`] distinct keys, past which messages are counted
//! as overflow.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::sync::Arc;

use gdvariant::Version;
use gdvariant_multiplayer::project::ProjectIndex;
use gdvariant_multiplayer::session::RpcMethods;
use gdvariant_multiplayer::track::{Message, Packet, Refusal, Tracker};
use gdvariant_multiplayer::{Direction, Framing};

use crate::{EnetMessage, FlowId, WebSocket};

/// One tracker per flow, named with shared method lists and project.
#[derive(Debug)]
pub struct Sessions {
    allow_objects: bool,
    methods: Arc<RpcMethods>,
    project: Option<Arc<ProjectIndex>>,
    trackers: BTreeMap<FlowId, Tracker>,
    max_flows: usize,
    forgotten: u64,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions::new(false)
    }
}

impl Sessions {
    /// No method lists, no project; objects in values refused unless `allow_objects`; at most
    /// 10,000 trackers (the [`Reader`](crate::Reader)'s default
    /// [`Config::max_flows`](crate::Config::max_flows)).
    pub fn new(allow_objects: bool) -> Self {
        Sessions {
            allow_objects,
            methods: Arc::default(),
            project: None,
            trackers: BTreeMap::new(),
            max_flows: 10_000,
            forgotten: 0,
        }
    }

    /// At most `max_flows` trackers at once (at least 1): past it the oldest flow's is
    /// forgotten (a later message of it starts a new session, which may refuse what needs the
    /// old one's state).
    pub fn with_max_flows(mut self, max_flows: usize) -> Self {
        self.max_flows = max_flows.max(1);
        self
    }

    /// The bound on trackers.
    pub fn max_flows(&self) -> usize {
        self.max_flows
    }

    /// Trackers forgotten to keep within [`Sessions::max_flows`].
    pub fn forgotten(&self) -> u64 {
        self.forgotten
    }

    /// Godot 4 RPC methods named by `methods` (a rules file's lists, the project's).
    pub fn with_methods(mut self, methods: Arc<RpcMethods>) -> Self {
        self.methods = methods;
        self
    }

    /// The game's project names what SPAWN and SYNC carry (Godot 4).
    pub fn with_project(mut self, project: Option<Arc<ProjectIndex>>) -> Self {
        self.project = project;
        self
    }

    /// An ENet message through its flow's tracker (Godot 3: [`Framing::Enet3`]; Godot 4:
    /// [`Framing::Packets`], the client's id from the CONNECT).
    ///
    /// # Errors
    /// What the tracker refuses.
    pub fn enet<'s>(&'s mut self, message: &'s EnetMessage<'_>) -> Result<Message<'s>, Refusal> {
        let client = message.client_id.and_then(|id| i32::try_from(id).ok());
        let framing = Framing::of(message.version, true);
        self.tracker(message.flow, message.version, framing, client).message(
            message.direction,
            message.channel,
            &message.bytes,
        )
    }

    /// A WebSocket binary message (`bytes`, of `ws`'s [`WsEvent::Binary`](crate::WsEvent::Binary))
    /// through its flow's tracker (Godot 3's 9-byte header, or Godot 4's client id first).
    ///
    /// # Errors
    /// What the tracker refuses.
    pub fn websocket<'s>(
        &'s mut self,
        ws: &WebSocket<'_>,
        bytes: &'s [u8],
    ) -> Result<Message<'s>, Refusal> {
        let framing = Framing::of(ws.version, false);
        self.tracker(ws.flow, ws.version, framing, None).message(ws.direction, 0, bytes)
    }

    /// The flow's tracker, made on its first message.
    fn tracker(
        &mut self,
        flow: FlowId,
        version: Version,
        framing: Framing,
        client: Option<i32>,
    ) -> &mut Tracker {
        if !self.trackers.contains_key(&flow) && self.trackers.len() >= self.max_flows {
            if let Some(oldest) = self.trackers.keys().next().copied() {
                self.trackers.remove(&oldest);
                self.forgotten = self.forgotten.saturating_add(1);
            }
        }
        let (methods, project, allow) = (&self.methods, &self.project, self.allow_objects);
        self.trackers.entry(flow).or_insert_with(|| {
            let tracker = Tracker::new(version, framing, Arc::clone(methods))
                .with_allow_objects(allow)
                .with_project(project.clone());
            match client {
                Some(id) if version == Version::Godot4 => tracker.with_client(id),
                _ => tracker,
            }
        })
    }

    /// Forgets a flow's tracker (the flow was evicted: a later packet of its 5-tuple is a new
    /// flow).
    pub fn end(&mut self, flow: FlowId) {
        self.trackers.remove(&flow);
    }

    /// The node paths the peers announced (Godot 4 SIMPLIFY_PATH), over all flows still
    /// followed.
    pub fn paths_seen(&self) -> impl Iterator<Item = &str> {
        self.trackers.values().flat_map(Tracker::paths_seen)
    }
}

/// What a [`MethodStats`] row counts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Member {
    /// A call or SET: `node::member` as [`Call`](gdvariant_multiplayer::track::Call) displays it.
    Call(String),
    /// Another packet: its command's name (`simplify_path`, `spawn`, `peer_id`, ...).
    Command(&'static str),
    /// A refused message: the reason (`invalid_packet`, `session`).
    Refused(&'static str),
}

impl fmt::Display for Member {
    /// `node::member`, `(command)` or `(refused: reason)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Member::Call(key) => f.write_str(key),
            Member::Command(command) => write!(f, "({command})"),
            Member::Refused(reason) => write!(f, "(refused: {reason})"),
        }
    }
}

/// Messages and bytes of one row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Messages.
    pub messages: u64,
    /// Their bytes, as the transport delivered them (headers included).
    pub bytes: u64,
}

impl Counts {
    fn add(&mut self, bytes: usize) {
        self.messages = self.messages.saturating_add(1);
        self.bytes = self.bytes.saturating_add(u64::try_from(bytes).unwrap_or(u64::MAX));
    }
}

/// A row's key: the flow, the direction, what was called.
pub type MethodKey = (FlowId, Direction, Member);

/// Multiplayer messages counted per flow, direction and called method (or command, or
/// refusal), at most [`MethodStats::max_keys`] distinct keys: a capture naming more methods
/// counts the rest in [`MethodStats::overflow`]. A message already given a row is counted
/// without allocating (a call's key is written into a buffer kept for it).
#[derive(Clone, Debug)]
pub struct MethodStats {
    max_keys: usize,
    keys: usize,
    rows: BTreeMap<(FlowId, Direction), Rows>,
    overflow: Counts,
    /// The key of the call being counted.
    scratch: String,
}

/// The rows of one flow and direction: calls by `node::member`, then the other keys.
#[derive(Clone, Debug, Default)]
struct Rows {
    calls: BTreeMap<String, Counts>,
    other: BTreeMap<Member, Counts>,
}

impl Default for MethodStats {
    fn default() -> Self {
        MethodStats::new(MethodStats::DEFAULT_MAX_KEYS)
    }
}

impl MethodStats {
    /// The default bound on distinct keys.
    pub const DEFAULT_MAX_KEYS: usize = 4096;

    /// No counts; at most `max_keys` distinct keys.
    pub fn new(max_keys: usize) -> Self {
        MethodStats {
            max_keys,
            keys: 0,
            rows: BTreeMap::new(),
            overflow: Counts::default(),
            scratch: String::new(),
        }
    }

    /// The bound on distinct keys.
    pub fn max_keys(&self) -> usize {
        self.max_keys
    }

    /// Counts what a flow's tracker gave for a message `bytes` long, as printing it would
    /// count it: a refusal under its reason, a message whose values do not read
    /// ([`Message::check`]) under `invalid_packet`, any other under what it calls
    /// ([`MethodStats::message`]). O(the message's bytes + log keys), nothing formatted.
    ///
    /// # Errors
    /// The refusal counted.
    pub fn tracked(
        &mut self,
        flow: FlowId,
        direction: Direction,
        read: &Result<Message<'_>, Refusal>,
        bytes: usize,
    ) -> Result<(), Refusal> {
        let refusal = match read {
            Ok(message) => match message.check() {
                Ok(()) => {
                    self.message(flow, direction, message, bytes);
                    return Ok(());
                }
                Err(error) => Refusal::Packet(error),
            },
            Err(refusal) => *refusal,
        };
        self.refused(flow, direction, refusal.reason(), bytes);
        Err(refusal)
    }

    /// Counts a message the tracker read (`bytes` long) under what it calls, or its command.
    pub fn message(
        &mut self,
        flow: FlowId,
        direction: Direction,
        message: &Message<'_>,
        bytes: usize,
    ) {
        let command = match (&message.call, &message.packet) {
            (Some(call), _) => {
                self.scratch.clear();
                // Writing to a String does not fail.
                let _ = write!(self.scratch, "{call}");
                return self.count_call(flow, direction, bytes);
            }
            (None, Packet::Godot4(packet)) => packet.command().name(),
            (None, Packet::Godot3(packet)) => packet.command().name(),
            (None, Packet::PeerId(_)) => "peer_id",
            (None, Packet::System { name, .. }) => name,
            (None, _) => "unknown",
        };
        self.count_other(flow, direction, Member::Command(command), bytes);
    }

    /// Counts a refused message (`bytes` long) under its reason.
    pub fn refused(
        &mut self,
        flow: FlowId,
        direction: Direction,
        reason: &'static str,
        bytes: usize,
    ) {
        self.count_other(flow, direction, Member::Refused(reason), bytes);
    }

    /// Counts a call under the key in `scratch`, allocating only for a new row.
    fn count_call(&mut self, flow: FlowId, direction: Direction, bytes: usize) {
        let key = self.scratch.as_str();
        if let Some(counts) =
            self.rows.get_mut(&(flow, direction)).and_then(|rows| rows.calls.get_mut(key))
        {
            counts.add(bytes);
        } else if self.keys < self.max_keys {
            self.keys = self.keys.saturating_add(1);
            let rows = self.rows.entry((flow, direction)).or_default();
            rows.calls.entry(key.to_owned()).or_default().add(bytes);
        } else {
            self.overflow.add(bytes);
        }
    }

    /// Counts a command or a refusal (never a [`Member::Call`]).
    fn count_other(&mut self, flow: FlowId, direction: Direction, member: Member, bytes: usize) {
        if let Some(counts) =
            self.rows.get_mut(&(flow, direction)).and_then(|rows| rows.other.get_mut(&member))
        {
            counts.add(bytes);
        } else if self.keys < self.max_keys {
            self.keys = self.keys.saturating_add(1);
            let rows = self.rows.entry((flow, direction)).or_default();
            rows.other.entry(member).or_default().add(bytes);
        } else {
            self.overflow.add(bytes);
        }
    }

    /// The rows, by flow, direction and key (calls, then commands, then refusals). Each key
    /// is made (a call's copied) as the row is given: O(keys) in all.
    pub fn rows(&self) -> impl Iterator<Item = (MethodKey, Counts)> + '_ {
        self.rows.iter().flat_map(|(&(flow, direction), rows)| {
            let calls = rows.calls.iter().map(|(key, counts)| (Member::Call(key.clone()), *counts));
            let other = rows.other.iter().map(|(member, counts)| (member.clone(), *counts));
            calls.chain(other).map(move |(member, counts)| ((flow, direction, member), counts))
        })
    }

    /// What was not given a row of its own (past [`MethodStats::max_keys`]).
    pub fn overflow(&self) -> Counts {
        self.overflow
    }
}
