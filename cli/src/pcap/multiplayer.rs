//! `gdvariant pcap --multiplayer`: each flow's ENet and WebSocket messages through the
//! library's trackers (`gdvariant_pcap::Sessions`, named by `--rules` and `--project` as in
//! `gdvariant multiplayer`: `multiplayer/project.rs`), described as `gdvariant multiplayer`
//! prints them (`multiplayer/describe.rs`), counted per flow, direction and method
//! (`gdvariant_pcap::MethodStats`) for `--stats`. With `--flows` or `--stats` nothing is
//! described: `MethodStats::tracked` reads what describing would read, to count the same.

use std::collections::BTreeSet;

use gdvariant_multiplayer::track::{Message, Refusal};
use gdvariant_pcap::{Direction, EnetMessage, FlowId, MethodStats, Sessions, WebSocket};
use serde_json::json;

use crate::failure;
use crate::multiplayer::describe::{Described, describe};
use crate::multiplayer::project::Names;

/// A message as read: (from, to, how it prints), or (the reason, the detail) it was refused.
pub type Decoded = Result<(i32, i32, Described), (&'static str, String)>;

/// The trackers, the counts, and the names.
pub struct Multiplayer {
    sessions: Sessions,
    stats: MethodStats,
    names: Names,
    /// The node paths called (for the rules keys' warning), at most `stats`' bound of them.
    called: BTreeSet<String>,
    natural: bool,
    godot4: bool,
}

impl Multiplayer {
    /// Trackers named by `names`; values as natural JSON with `natural`.
    pub fn new(allow_objects: bool, names: Names, natural: bool) -> Self {
        let sessions =
            Sessions::new(allow_objects).with_methods(names.methods()).with_project(names.index());
        Multiplayer {
            sessions,
            stats: MethodStats::default(),
            names,
            called: BTreeSet::new(),
            natural,
            godot4: false,
        }
    }

    /// An ENet message, read, counted and described.
    pub fn enet(&mut self, message: &EnetMessage<'_>) -> Decoded {
        self.godot4 |= message.version == gdvariant::Version::Godot4;
        let read = self.sessions.enet(message);
        list(
            &mut self.stats,
            &mut self.called,
            (message.flow, message.direction, message.bytes.len()),
            read,
            self.natural,
        )
    }

    /// An ENet message, read and counted only (nothing described: `--flows`, `--stats`).
    pub fn count_enet(&mut self, message: &EnetMessage<'_>) {
        self.godot4 |= message.version == gdvariant::Version::Godot4;
        let read = self.sessions.enet(message);
        count(
            &mut self.stats,
            &mut self.called,
            (message.flow, message.direction, message.bytes.len()),
            &read,
        );
    }

    /// A WebSocket binary message, read, counted and described.
    pub fn websocket(&mut self, ws: &WebSocket<'_>, bytes: &[u8]) -> Decoded {
        self.godot4 |= ws.version == gdvariant::Version::Godot4;
        let read = self.sessions.websocket(ws, bytes);
        list(
            &mut self.stats,
            &mut self.called,
            (ws.flow, ws.direction, bytes.len()),
            read,
            self.natural,
        )
    }

    /// A WebSocket binary message, read and counted only.
    pub fn count_websocket(&mut self, ws: &WebSocket<'_>, bytes: &[u8]) {
        self.godot4 |= ws.version == gdvariant::Version::Godot4;
        let read = self.sessions.websocket(ws, bytes);
        count(&mut self.stats, &mut self.called, (ws.flow, ws.direction, bytes.len()), &read);
    }

    /// A flow was evicted: its tracker is dropped.
    pub fn end(&mut self, flow: FlowId) {
        self.sessions.end(flow);
    }

    /// The per-method lines of `--stats`: text (flow, direction, messages, bytes, what) or one
    /// JSON object each; a last line for what went past the bound of keys (also warned about).
    pub fn stats_lines(&self, json: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if !json {
            lines.push(
                "flow\tdirection\tmessages\tbytes\tnode::member (command) (refused: reason)".into(),
            );
        }
        for ((flow, direction, member), counts) in self.stats.rows() {
            lines.push(if json {
                json!({"flow": flow.to_string(), "direction": direction.name(),
                    "member": member.to_string(), "messages": counts.messages, "bytes": counts.bytes})
                .to_string()
            } else {
                format!("{flow}\t{}\t{}\t{}\t{member}", direction.name(), counts.messages, counts.bytes)
            });
        }
        let overflow = self.stats.overflow();
        if overflow.messages > 0 {
            failure::error_line(format!(
                "warning: more than {} distinct flow, direction and method keys: {} messages counted as (other)",
                self.stats.max_keys(),
                overflow.messages
            ));
            lines.push(if json {
                json!({"member": "(other)", "messages": overflow.messages, "bytes": overflow.bytes})
                    .to_string()
            } else {
                format!("*\t*\t{}\t{}\t(other)", overflow.messages, overflow.bytes)
            });
        }
        lines
    }

    /// The warnings at the end: sessions forgotten past the bound of trackers, and those of
    /// `gdvariant multiplayer`: a project unused (Godot 3 traffic), a rules key naming no node.
    pub fn finish(&self) {
        if self.sessions.forgotten() > 0 {
            failure::error_line(format!(
                "warning: more than {} flows of multiplayer traffic: {} sessions forgotten (the oldest flow's first)",
                self.sessions.max_flows(),
                self.sessions.forgotten()
            ));
        }
        if self.stats.rows().next().is_some() && !self.godot4 {
            self.names.warn_godot3("Godot 3 traffic");
        }
        self.names.warn_unmatched(
            self.called.iter().map(String::as_str).chain(self.sessions.paths_seen()),
        );
    }
}

/// Counts a message the tracker read (or refused) and describes it: a message `describe`
/// refuses is counted as refused (`invalid_packet`), as [`MethodStats::tracked`] counts it
/// without describing (`count`).
fn list(
    stats: &mut MethodStats,
    called: &mut BTreeSet<String>,
    (flow, direction, len): (FlowId, Direction, usize),
    read: Result<Message<'_>, Refusal>,
    natural: bool,
) -> Decoded {
    let message = match read {
        Ok(message) => message,
        Err(refusal) => {
            stats.refused(flow, direction, refusal.reason(), len);
            return Err((refusal.reason(), refusal.to_string()));
        }
    };
    let described = match describe(&message, natural) {
        Ok(described) => described,
        Err(error) => {
            stats.refused(flow, direction, "invalid_packet", len);
            return Err(("invalid_packet", error.to_string()));
        }
    };
    stats.message(flow, direction, &message, len);
    note_called(called, stats.max_keys(), &message);
    Ok((message.from, message.to, described))
}

/// Counts a message the tracker read (or refused), describing nothing
/// ([`MethodStats::tracked`]).
fn count(
    stats: &mut MethodStats,
    called: &mut BTreeSet<String>,
    (flow, direction, len): (FlowId, Direction, usize),
    read: &Result<Message<'_>, Refusal>,
) {
    if let (Ok(()), Ok(message)) = (stats.tracked(flow, direction, read, len), read) {
        note_called(called, stats.max_keys(), message);
    }
}

/// Keeps the node a message calls, for the rules keys' warning (at most `max` of them).
fn note_called(called: &mut BTreeSet<String>, max: usize, message: &Message<'_>) {
    if let Some(node) = message.call.as_ref().and_then(|call| call.node.as_deref())
        && called.len() < max
        && !called.contains(node)
    {
        called.insert(node.to_owned());
    }
}
