//! [`Log`]: an [`Observer`] that writes one JSON line on standard error per dropped message,
//! turned-away client and abnormally closed connection, through the process's
//! [`LogWriter::stderr`]; and the same lines to any [`LogWriter`]. Each line is formatted into
//! one string and queued whole, so lines from concurrent connections do not interleave, and a
//! slow or stuck standard error never blocks the connections (lines are dropped and counted
//! instead).

use std::fmt::Write as _;
use std::net::SocketAddr;

use gdvariant::json::write_escaped;

use crate::filter::Connection;
use crate::observer::{Dropped, End, Observer};
use crate::writer::LogWriter;

/// Writes JSON lines on standard error:
/// `{"event":"drop","peer":..,"direction":..,"offset":..,"len":..,"reason":..,"detail":..}`
/// (with `"dry_run":true` when it was forwarded anyway),
/// `{"event":"refused","peer":..,"reason":"connection_limit"}` and
/// `{"event":"close","peer":..,"reason":..,"detail":..}` for a connection that did not end
/// normally. A closed standard error is ignored.
///
/// The lines go through [`LogWriter::stderr`], a bounded queue written by a thread of its own:
/// logging never waits on standard error. When it is full (standard error is a pipe nobody
/// reads), lines are dropped and counted ([`LogWriter::lines_dropped`]), and
/// `{"event":"log_dropped","lines":N}` is written once the writer gets lines out again. Before
/// the process exits, `LogWriter::stderr().flush(wait)` writes what is still queued.
/// `LogWriter` is an [`Observer`] too, for the same lines to another output.
#[derive(Clone, Copy, Debug, Default)]
pub struct Log;

/// `"key":` and the escaped `text`, after a comma.
fn field(line: &mut String, key: &str, text: &str) {
    let _ = write!(line, ",\"{key}\":");
    let _ = write_escaped(line, text);
}

/// `{"event":"EVENT","peer":"PEER"`.
fn start(event: &str, peer: SocketAddr) -> String {
    let mut line = format!("{{\"event\":\"{event}\"");
    field(&mut line, "peer", &peer.to_string());
    line
}

impl Observer for LogWriter {
    fn refused(&self, peer: SocketAddr) {
        let mut line = start("refused", peer);
        line.push_str(",\"reason\":\"connection_limit\"}");
        self.write_line(line);
    }

    fn dropped(&self, dropped: &Dropped<'_>) {
        let mut line = start("drop", dropped.peer);
        field(&mut line, "direction", dropped.direction.name());
        let _ = write!(line, ",\"offset\":{},\"len\":{}", dropped.offset, dropped.len);
        field(&mut line, "reason", dropped.reason);
        field(&mut line, "detail", dropped.detail);
        if dropped.dry_run {
            line.push_str(",\"dry_run\":true");
        }
        line.push('}');
        self.write_line(line);
    }

    fn closed(&self, connection: &Connection, end: End, detail: Option<&str>) {
        if end == End::Closed {
            return;
        }
        let mut line = start("close", connection.peer);
        field(&mut line, "reason", end.name());
        if let Some(detail) = detail {
            field(&mut line, "detail", detail);
        }
        line.push('}');
        self.write_line(line);
    }
}

impl Observer for Log {
    fn refused(&self, peer: SocketAddr) {
        LogWriter::stderr().refused(peer);
    }

    fn dropped(&self, dropped: &Dropped<'_>) {
        LogWriter::stderr().dropped(dropped);
    }

    fn closed(&self, connection: &Connection, end: End, detail: Option<&str>) {
        LogWriter::stderr().closed(connection, end, detail);
    }
}
