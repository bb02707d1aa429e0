//! [`Report`]: the proxy's JSON lines on standard error (one per dropped frame, refused or
//! abnormally closed connection) and its counters, printed as one summary line at exit; and
//! [`Events`], the relay's observer that feeds it (and the `--capture` file with what is
//! dropped). The lines go through the library's bounded log (`LogWriter::stderr`): a slow or
//! stuck standard error never blocks a connection; lines that do not fit are dropped, counted,
//! reported (`log_dropped` lines) and counted in the summary.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gdvariant::{VariantType, Version};
use gdvariant_relay::{Channel, Connection, Direction, Dropped, End, LogWriter, Observer, Tally};
use serde_json::{Value, json};

use super::capture::CaptureFile;
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
    capture: Option<CaptureFile>,
}

/// How long the exit waits for standard error to take the lines still queued, before the
/// summary and again after it.
const FLUSH_WAIT: Duration = Duration::from_secs(2);

/// Queues one JSON line for standard error, or drops and counts it when the log's queue is
/// full; never waits for standard error.
fn line(value: &Value) {
    LogWriter::stderr().write_line(value.to_string());
}

impl Report {
    /// Empty counters; type names are spelled as `version` spells them; messages are captured
    /// to `capture`, if given.
    pub fn new(version: Version, capture: Option<CaptureFile>) -> Self {
        Report {
            version,
            capture,
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

    /// Appends a message to the capture file, if there is one (`dropped` flags it).
    pub fn capture(
        &self,
        connection: u32,
        direction: Direction,
        channel: Option<Channel>,
        dropped: bool,
        bytes: &[u8],
    ) {
        if let Some(capture) = &self.capture {
            capture.record(connection, direction, channel, dropped, bytes);
        }
    }

    /// A connection ended; anything but a normal close is logged.
    fn closed(&self, peer: SocketAddr, end: End, detail: Option<&str>) {
        self.with(|t| {
            let count = t.closes.entry(end.name()).or_insert(0);
            *count = count.saturating_add(1);
        });
        if end != End::Closed {
            let mut value =
                json!({"event": "close", "peer": peer.to_string(), "reason": end.name()});
            if let (Some(detail), Some(object)) = (detail, value.as_object_mut()) {
                object.insert("detail".into(), Value::String(detail.to_string()));
            }
            line(&value);
        }
    }

    /// A message was dropped (with `--monitor`, forwarded anyway: logged, not counted): a
    /// line, and the message in the capture.
    fn dropped(&self, dropped: &Dropped<'_>) {
        let mut value = json!({
            "event": "drop",
            "peer": dropped.peer.to_string(),
            "direction": dropped.direction.name(),
            "offset": dropped.offset,
            "len": dropped.len,
            "reason": dropped.reason,
            "detail": dropped.detail,
        });
        if dropped.dry_run {
            if let Some(object) = value.as_object_mut() {
                object.insert("monitor".into(), Value::Bool(true));
            }
        } else {
            self.with(|t| {
                let count = t.drops.entry(dropped.reason).or_insert(0);
                *count = count.saturating_add(1);
            });
        }
        line(&value);
        let whole = u64::try_from(dropped.bytes.len()).is_ok_and(|len| len == dropped.len);
        if let (Some(connection), true) = (dropped.connection, whole) {
            let direction = dropped.direction;
            let number = u32::try_from(connection).unwrap_or(u32::MAX);
            self.capture(number, direction, dropped.channel, !dropped.dry_run, dropped.bytes);
        }
    }

    /// Adds what a direction forwarded.
    fn forwarded(&self, tally: &Tally) {
        self.with(|t| {
            let total = tally.total();
            if let Some(count) = t.forwarded.get_mut(tally.direction().index()) {
                count.add(total.messages, total.bytes);
            }
            for (ty, count) in tally.by_type() {
                let id = ty.id(Version::Godot4).map_or(0, usize::from);
                if let Some(total) = t.by_type.get_mut(id) {
                    total.add(count.messages, count.bytes);
                }
            }
        });
    }

    /// Prints the summary line: connections, frames and bytes forwarded per direction and per
    /// type, drops by reason, closes by reason, log lines dropped. The lines queued before it
    /// are written first, and the summary after them, each waiting at most [`FLUSH_WAIT`] for
    /// standard error.
    pub fn summary(&self) {
        let log = LogWriter::stderr();
        log.flush(FLUSH_WAIT);
        let log_dropped = log.lines_dropped();
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
                "forwarded": {"to_server": up.json(), "to_client": down.json()},
                "by_type": by_type,
                "drops": t.drops,
                "closes": t.closes,
                "calls": t.calls.calls_json(),
                "log_dropped": log_dropped,
            })
        });
        line(&value);
        log.close(FLUSH_WAIT);
    }
}

/// The relay's observer: every event goes to the shared [`Report`].
#[derive(Debug)]
pub struct Events {
    /// The report.
    pub report: Arc<Report>,
    /// Log a line per client turned away (not over UDP, where any sender is a client).
    pub log_refused: bool,
}

impl Observer for Events {
    fn accepted(&self, _: &Connection) {
        self.report.with(|t| t.connections = t.connections.saturating_add(1));
    }

    fn refused(&self, peer: SocketAddr) {
        self.report.with(|t| t.refused = t.refused.saturating_add(1));
        if self.log_refused {
            line(
                &json!({"event": "refused", "peer": peer.to_string(), "reason": "connection_limit"}),
            );
        }
    }

    fn dropped(&self, dropped: &Dropped<'_>) {
        self.report.dropped(dropped);
    }

    fn forwarded(&self, _: &Connection, tally: &Tally) {
        self.report.forwarded(tally);
    }

    fn closed(&self, connection: &Connection, end: End, detail: Option<&str>) {
        self.report.closed(connection.peer, end, detail);
    }
}
