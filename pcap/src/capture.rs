//! A capture's multiplayer messages written in the multiplayer crate's own capture format
//! (`gdvariant_multiplayer::capture`, what `gdvariant proxy --capture` records and
//! `gdvariant multiplayer` reads): [`write_capture`].
//!
//! Each WebSocket flow is a connection (its [`FlowId`](crate::FlowId) number), each binary
//! message a record: its direction, channel 0, mode 0 (reliable: TCP), microseconds from the
//! capture's first packet. The header's framing is Godot 3's WebSocket header
//! ([`Framing::WebSocket3`]) or Godot 4's ([`Framing::WebSocket4`]), by the configured version.
//! O(the capture); memory as the [`Reader`]'s, plus what `out` keeps.

use std::fmt;

use gdvariant::Version;
use gdvariant::encoder::{EncodeError, Output};
use gdvariant_multiplayer::Framing;
use gdvariant_multiplayer::capture::{self, Header, RecordHead};

use crate::file::{self, FileError};
use crate::flows::{Config, FlowInfo, Reader, Totals};
use crate::{Item, WsEvent};

/// What [`write_capture`] wrote and read.
#[derive(Clone, Debug)]
pub struct Written {
    /// Records written.
    pub records: u64,
    /// The framing written in the header.
    pub framing: Framing,
    /// The capture's counts.
    pub totals: Totals,
    /// Its flows.
    pub flows: Vec<FlowInfo>,
}

/// Why [`write_capture`] stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum WriteError {
    /// The capture file is not one (its header).
    File(FileError),
    /// `out` refused the bytes (full, or a message over 4 GiB).
    Encode(EncodeError),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::File(error) => error.fmt(f),
            WriteError::Encode(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for WriteError {}

/// Reads the capture `file` with `config` (its WebSocket binary messages raw) and appends to
/// `out` a multiplayer capture of every WebSocket flow's binary messages. A damaged file's
/// packets before the damage are written ([`Totals::file_error`] says where it stopped).
///
/// # Errors
/// `file` is not a capture; `out` refused the bytes.
pub fn write_capture<O: Output>(
    file: &[u8],
    mut config: Config,
    out: &mut O,
) -> Result<Written, WriteError> {
    let first = match file::packets(file).map_err(WriteError::File)?.next() {
        Some(Ok(raw)) => raw.time.0,
        _ => 0,
    };
    let version = config.options.version();
    let framing =
        if version == Version::Godot3 { Framing::WebSocket3 } else { Framing::WebSocket4 };
    config.websocket_raw = true;
    let mut reader = Reader::new(file, config).map_err(WriteError::File)?;
    capture::write_header(out, Header { version, framing }).map_err(WriteError::Encode)?;
    let mut records = 0u64;
    for item in reader.by_ref() {
        let Item::WebSocket(ws) = item else { continue };
        let WsEvent::Binary(bytes) = &ws.event else { continue };
        let micros = u64::try_from(ws.time.0.saturating_sub(first) / 1000).unwrap_or(0);
        let head = RecordHead {
            micros,
            connection: u32::try_from(ws.flow.0).unwrap_or(u32::MAX),
            direction: ws.direction,
            channel: 0,
            mode: 0,
            flags: 0,
        };
        capture::write_record(out, &head, bytes).map_err(WriteError::Encode)?;
        records = records.saturating_add(1);
    }
    Ok(Written { records, framing, totals: reader.totals().clone(), flows: reader.flows() })
}
