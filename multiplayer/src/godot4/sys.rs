//! NETWORK_COMMAND_SYS: authentication, peers joining and leaving, and the server relay.
//!
//! ```text
//! AUTH      07 00, then the authentication data (none: "my side is done")
//! ADD_PEER  07 01, i32 peer id (6 bytes): the server tells a client another client joined
//! DEL_PEER  07 02, i32 peer id: another client left
//! RELAY     07 03, i32 peer, the relayed packet (at least one byte). From a client, `peer` is
//!           the destination (0: everyone, -id: everyone but id); from the server, the source
//! ```
//!
//! Every form but AUTH needs at least 6 bytes, RELAY 7. An AUTH packet is data while the peer
//! authenticates and must be exactly `07 00` afterwards (Godot's checks of state, which this
//! crate leaves to the caller). The relayed packet is any packet but SYS (relays do not nest),
//! decoded by [`RelayPacket::packet`]. O(1) to decode.

use super::{Godot4Packet, decode_at};
use crate::error::{PacketError, PacketErrorKind};
use crate::field::{i32_at, rest, u8_at};
use gdvariant::Options;

/// The sub-commands.
const AUTH: u8 = 0;
const ADD_PEER: u8 = 1;
const DEL_PEER: u8 = 2;
const RELAY: u8 = 3;

/// A SYS packet.
#[derive(Clone, Copy, Debug)]
pub enum Sys<'a> {
    /// Authentication data (`auth_callback`'s bytes), or, when empty, "my side is done".
    Auth(&'a [u8]),
    /// A peer joined (server to client).
    AddPeer(i32),
    /// A peer left (server to client).
    DelPeer(i32),
    /// A packet relayed through the server.
    Relay(RelayPacket<'a>),
}

impl<'a> Sys<'a> {
    pub(crate) fn read(buf: &'a [u8], base: usize, options: Options) -> Result<Self, PacketError> {
        let len = buf.len().saturating_sub(base);
        if len >= 2 && u8_at(buf, base.saturating_add(1))? == AUTH {
            return Ok(Sys::Auth(rest(buf, base.saturating_add(2))));
        }
        if len < 6 {
            return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: 6 }));
        }
        let command = u8_at(buf, base.saturating_add(1))?;
        let peer = i32_at(buf, base.saturating_add(2))?;
        match command {
            ADD_PEER => Ok(Sys::AddPeer(peer)),
            DEL_PEER => Ok(Sys::DelPeer(peer)),
            RELAY => {
                if len < 7 {
                    return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: 7 }));
                }
                let inner = base.saturating_add(6);
                // The relayed packet must itself be one Godot reads.
                decode_at(buf, inner, options, true)?;
                Ok(Sys::Relay(RelayPacket { buf, inner, peer, options }))
            }
            _ => Err(PacketError::new(
                base.saturating_add(1),
                PacketErrorKind::UnknownSysCommand { command },
            )),
        }
    }
}

/// A relayed packet and its peer.
#[derive(Clone, Copy, Debug)]
pub struct RelayPacket<'a> {
    buf: &'a [u8],
    inner: usize,
    peer: i32,
    options: Options,
}

impl<'a> RelayPacket<'a> {
    /// From a client: the destination (0 everyone, negative: everyone but `-peer`); from the
    /// server: the source.
    pub fn peer(&self) -> i32 {
        self.peer
    }

    /// The relayed packet's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        rest(self.buf, self.inner)
    }

    /// The relayed packet's offset in the carrying packet (6).
    pub fn offset(&self) -> usize {
        self.inner
    }

    /// The relayed packet, decoded (its offsets count from the start of the carrying packet):
    /// O(1) as [`decode`](super::decode), no recursion (a relay holds no SYS).
    /// It was checked when the relay was decoded, so this does not fail but in theory.
    ///
    /// # Errors
    /// Never for a relay [`decode`](super::decode) returned.
    pub fn packet(&self) -> Result<Godot4Packet<'a>, PacketError> {
        decode_at(self.buf, self.inner, self.options, true)
    }
}
