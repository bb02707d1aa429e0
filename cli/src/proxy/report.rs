//! [`Report`]: the proxy's JSON lines on standard error (one per dropped frame, refused or
//! abnormally closed connection) and its counters, printed as one summary line at exit.

use std::collections::BTreeMap;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Mutex, PoisonError};

use gdvariant::net::{BadFrame, Packet};
use gdvariant::{VariantType, Version};
use serde_json::{Value, json};

use super::{Direction, End};
use crate::multiplayer::stats::Stats;

/// Godot 4 type ids run from 0 to 38.
const TYPES: usize = 39;

/// Frames and bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Count {
    frames: u64,
    bytes: u64,
}

impl Count {
    fn add(&mut self, frames: u64, bytes: u64) {
        self.frames = self.frames.saturating_add(frames);
        self.bytes = self.bytes.saturating_add(bytes);
    }

    fn json(self) -> Value {
        json!({"frames": self.frames, "bytes": self.bytes})
    }
}

/// What one direction of one connection forwarded since it last reported: counted without a
/// lock, merged into the [`Report`] once per batch of frames.
#[derive(Debug)]
pub struct Tally {
    direction: Direction,
    forwarded: Count,
    by_type: [Count; TYPES],
}

impl Tally {
    /// Nothing counted yet.
    pub fn new(direction: Direction) -> Self {
        Tally { direction, forwarded: Count::default(), by_type: [Count::default(); TYPES] }
    }

    /// Counts a forwarded message that is not a value (a multiplayer packet). O(1).
    pub fn add_bytes(&mut self, len: usize) {
        self.forwarded.add(1, u64::try_from(len).unwrap_or(u64::MAX));
    }

    /// Counts a forwarded packet. O(1).
    pub fn add(&mut self, packet: &Packet) {
        let bytes = u64::try_from(packet.len()).unwrap_or(u64::MAX);
        self.forwarded.add(1, bytes);
        let id = usize::from(packet.variant_type().id(Version::Godot4).unwrap_or(0));
        if let Some(count) = self.by_type.get_mut(id) {
            count.add(1, bytes);
        }
    }
}

/// Everything counted so far.
#[derive(Debug)]
struct Totals {
    connections: u64,
    refused: u64,
    closes: BTreeMap<&'static str, u64>,
    drops: BTreeMap<&'static str, u64>,
    forwarded: [Count; 2],
    by_type: [Count; TYPES],
    /// Multiplayer calls forwarded, per `node::method` (bounded).
    calls: Stats,
}

/// The proxy's counters and log lines, shared by every connection.
#[derive(Debug)]
pub struct Report {
    version: Version,
    totals: Mutex<Totals>,
}

/// Writes one JSON line on standard error (nothing if it is closed).
fn line(value: &Value) {
    let _ = writeln!(std::io::stderr().lock(), "{value}");
}

impl Report {
    /// Empty counters; type names are spelled as `version` spells them.
    pub fn new(version: Version) -> Self {
        Report {
            version,
            totals: Mutex::new(Totals {
                connections: 0,
                refused: 0,
                closes: BTreeMap::new(),
                drops: BTreeMap::new(),
                forwarded: [Count::default(); 2],
                by_type: [Count::default(); TYPES],
                calls: Stats::default(),
            }),
        }
    }

    /// Runs `f` on the counters.
    fn with<R>(&self, f: impl FnOnce(&mut Totals) -> R) -> R {
        f(&mut self.totals.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The proxy is ready: `{"event":"listening","addr":..,"transport":..}`.
    pub fn listening(&self, addr: SocketAddr, transport: &str) {
        line(&json!({"event": "listening", "addr": addr.to_string(), "transport": transport}));
    }

    /// Writes one JSON line (a logged call).
    pub fn line(&self, value: &Value) {
        line(value);
    }

    /// Counts a multiplayer call of `key` (`node::method`), when it was forwarded.
    pub fn call(&self, key: String, bytes: usize, forwarded: bool) {
        if forwarded {
            self.with(|t| t.calls.call(key, bytes));
        }
    }

    /// A connection (or UDP client) was accepted.
    pub fn connection(&self) {
        self.with(|t| t.connections = t.connections.saturating_add(1));
    }

    /// A connection over the limit was closed at once; logged when `log` is set.
    pub fn refused(&self, peer: SocketAddr, log: bool) {
        self.with(|t| t.refused = t.refused.saturating_add(1));
        if log {
            line(
                &json!({"event": "refused", "peer": peer.to_string(), "reason": "connection_limit"}),
            );
        }
    }

    /// A connection ended; anything but a normal close is logged.
    pub fn closed(&self, peer: SocketAddr, end: End, detail: Option<String>) {
        self.with(|t| {
            let count = t.closes.entry(end.name()).or_insert(0);
            *count = count.saturating_add(1);
        });
        if end != End::Closed {
            let mut value =
                json!({"event": "close", "peer": peer.to_string(), "reason": end.name()});
            if let (Some(detail), Some(object)) = (detail, value.as_object_mut()) {
                object.insert("detail".into(), Value::String(detail));
            }
            line(&value);
        }
    }

    /// A frame Godot would refuse was dropped.
    pub fn bad_frame(&self, peer: SocketAddr, direction: Direction, bad: &BadFrame) {
        self.dropped(
            peer,
            direction,
            bad.offset(),
            bad.len(),
            bad.reason(),
            bad.error().to_string(),
        );
    }

    /// A frame was dropped for `reason`.
    pub fn dropped(
        &self,
        peer: SocketAddr,
        direction: Direction,
        offset: u64,
        len: u64,
        reason: &'static str,
        detail: String,
    ) {
        self.with(|t| {
            let count = t.drops.entry(reason).or_insert(0);
            *count = count.saturating_add(1);
        });
        line(&json!({
            "event": "drop",
            "peer": peer.to_string(),
            "direction": direction.name(),
            "offset": offset,
            "len": len,
            "reason": reason,
            "detail": detail,
        }));
    }

    /// Adds what a direction forwarded, and clears its tally.
    pub fn merge(&self, tally: &mut Tally) {
        if tally.forwarded.frames == 0 {
            return;
        }
        self.with(|t| {
            if let Some(count) = t.forwarded.get_mut(tally.direction.index()) {
                count.add(tally.forwarded.frames, tally.forwarded.bytes);
            }
            for (total, count) in t.by_type.iter_mut().zip(&tally.by_type) {
                total.add(count.frames, count.bytes);
            }
        });
        *tally = Tally::new(tally.direction);
    }

    /// Prints the summary line: connections, frames and bytes forwarded per direction and per
    /// type, drops by reason, closes by reason.
    pub fn summary(&self) {
        let value = self.with(|t| {
            let mut by_type = serde_json::Map::new();
            for (id, count) in (0u32..).zip(&t.by_type) {
                if count.frames == 0 {
                    continue;
                }
                if let Some(ty) = VariantType::from_id(Version::Godot4, id) {
                    by_type.insert(ty.name(self.version).into(), count.json());
                }
            }
            let [up, down] = t.forwarded;
            json!({
                "event": "summary",
                "connections": t.connections,
                "refused_connections": t.refused,
                "forwarded": {"to_upstream": up.json(), "to_client": down.json()},
                "by_type": by_type,
                "drops": t.drops,
                "closes": t.closes,
                "calls": t.calls.calls_json(),
            })
        });
        line(&value);
    }
}
