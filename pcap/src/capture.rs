//! A capture's multiplayer messages written in the multiplayer crate's own capture format
//! (`gdvariant_multiplayer::capture`, what `gdvariant proxy --capture` records and
//! `gdvariant multiplayer` reads): [`write_capture`].
//!
//! Each flow carrying multiplayer messages is a connection (its [`FlowId`]
//! number): a WebSocket flow's binary messages (channel 0, mode 0: reliable, TCP) and an ENet
//! flow's messages (their ENet channel and transfer mode), each a record with its direction
//! and the microseconds from the capture's first packet. The format's header holds one Godot
//! version and one framing for the whole file, told by the flows (see the crate docs'
//! "Detection"): Godot 3's ENet header ([`Framing::Enet3`]), Godot 3's WebSocket header
//! ([`Framing::WebSocket3`]), Godot 4's packets over ENet ([`Framing::Packets`]; the client's
//! id from the CONNECT is not in the format) or over WebSocket ([`Framing::WebSocket4`]). A
//! capture whose flows need two headers is refused ([`WriteError::Mixed`], naming the flows of
//! each) rather than written in part: leave flows out by port ([`Config::ports`] with
//! [`Carrier::Other`](crate::Carrier::Other)) to write the rest. A capture without such flows
//! gets the configured version's WebSocket header and no records.
//!
//! O(the capture); memory as the [`Reader`]'s, plus the records until the header is known
//! (at most the messages' bytes and 20 bytes each), plus what `out` keeps.

use std::fmt;

use std::collections::BTreeSet;

use gdvariant::Version;
use gdvariant::encoder::{EncodeError, Output};
use gdvariant_multiplayer::Framing;
use gdvariant_multiplayer::capture::{self, Header, RecordHead};

use crate::file::{self, FileError};
use crate::flows::{Config, FlowId, FlowInfo, Reader, Totals};
use crate::{Item, WsEvent};

/// What [`write_capture`] wrote and read.
#[derive(Clone, Debug)]
pub struct Written {
    /// Records written.
    pub records: u64,
    /// The Godot version written in the header.
    pub version: Version,
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
    /// The flows need more than one header (version and framing): the flows of each, in
    /// order of first message.
    Mixed(Vec<(Version, Framing, Vec<FlowId>)>),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::File(error) => error.fmt(f),
            WriteError::Encode(error) => error.fmt(f),
            WriteError::Mixed(kinds) => {
                write!(f, "one capture file holds one version and framing; these flows need")?;
                for (i, (version, framing, flows)) in kinds.iter().enumerate() {
                    let names: Vec<String> = flows.iter().map(FlowId::to_string).collect();
                    let sep = if i == 0 { " " } else { "; " };
                    write!(f, "{sep}{version} {} ({})", framing_name(*framing), names.join(" "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for WriteError {}

/// A framing's name, as `gdvariant pcap` says it.
pub fn framing_name(framing: Framing) -> &'static str {
    match framing {
        Framing::Packets => "ENet packets",
        Framing::Enet3 => "ENet with the 8-byte header",
        Framing::WebSocket3 => "WebSocket with the 9-byte header",
        Framing::WebSocket4 => "WebSocket",
    }
}

/// Reads the capture `file` with `config` (its WebSocket binary messages raw) and appends to
/// `out` a multiplayer capture of every WebSocket and ENet flow's messages (see the
/// [module docs](self)). A damaged file's packets before the damage are written
/// ([`Totals::file_error`] says where it stopped).
///
/// # Errors
/// `file` is not a capture; its flows need two headers ([`WriteError::Mixed`], nothing
/// written); `out` refused the bytes.
pub fn write_capture<O: Output>(
    file: &[u8],
    mut config: Config,
    out: &mut O,
) -> Result<Written, WriteError> {
    let first = match file::packets(file).map_err(WriteError::File)?.next() {
        Some(Ok(raw)) => raw.time.0,
        _ => 0,
    };
    config.websocket_raw = true;
    let default = (config.options.version(), Framing::of(config.options.version(), false));
    let mut reader = Reader::new(file, config).map_err(WriteError::File)?;
    // The header (version, framing) of each kind seen, with its flows, in order.
    let mut kinds: Vec<(Version, Framing, Vec<FlowId>)> = Vec::new();
    let mut known: BTreeSet<FlowId> = BTreeSet::new();
    let mut body = Vec::new();
    let mut records = 0u64;
    for item in reader.by_ref() {
        let (flow, version, enet, direction, channel, mode, bytes, time) = match &item {
            Item::WebSocket(ws) => match &ws.event {
                WsEvent::Binary(bytes) => {
                    (ws.flow, ws.version, false, ws.direction, 0, 0, bytes, ws.time)
                }
                _ => continue,
            },
            Item::Enet(m) => {
                let mode = m.transfer.number();
                (m.flow, m.version, true, m.direction, m.channel, mode, &m.bytes, m.time)
            }
            _ => continue,
        };
        if known.insert(flow) {
            let framing = Framing::of(version, enet);
            let kind = match kinds.iter().position(|k| (k.0, k.1) == (version, framing)) {
                Some(kind) => kind,
                None => {
                    kinds.push((version, framing, Vec::new()));
                    kinds.len().saturating_sub(1)
                }
            };
            if let Some(k) = kinds.get_mut(kind) {
                k.2.push(flow);
            }
        }
        if kinds.len() > 1 {
            continue;
        }
        let micros = u64::try_from(time.0.saturating_sub(first) / 1000).unwrap_or(0);
        let head = RecordHead {
            micros,
            connection: u32::try_from(flow.0).unwrap_or(u32::MAX),
            direction,
            channel,
            mode,
            flags: 0,
        };
        capture::write_record(&mut body, &head, bytes).map_err(WriteError::Encode)?;
        records = records.saturating_add(1);
    }
    if kinds.len() > 1 {
        return Err(WriteError::Mixed(kinds));
    }
    let (version, framing) = kinds.first().map_or(default, |k| (k.0, k.1));
    capture::write_header(out, Header { version, framing }).map_err(WriteError::Encode)?;
    out.write(&body).map_err(WriteError::Encode)?;
    Ok(Written {
        records,
        version,
        framing,
        totals: reader.totals().clone(),
        flows: reader.flows(),
    })
}
