//! Godot 3's `NetworkedMultiplayerENet`: an 8-byte header on every packet, and system messages
//! on ENet channel 0.
//!
//! ```text
//! data (channels 1 and up)  u32 source id, i32 target (0: everyone, -id: everyone but id,
//!                           1: the server), then the multiplayer packet
//! system (channel 0)        u32 message (0: a peer joined, 1: a peer left), u32 peer id;
//!                           only from the server, only with server relay on
//! ```
//!
//! The server checks that `source` is the sending peer's id and forwards packets meant for
//! other clients unchanged, header included. Anything shorter than 8 bytes is dropped; a system
//! message with another number is ignored. O(1).

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{i32_at, rest, u32_at};
use gdvariant::{encoder::EncodeError, encoder::Output};

/// The ENet channel of system messages (`SYSCH_CONFIG`).
pub const SYSTEM_CHANNEL: u8 = 0;

/// A packet on one of Godot 3's ENet channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnetPacket<'a> {
    /// A multiplayer packet with its header.
    Data {
        /// The sender's unique id (the server checks it against the sending peer).
        source: u32,
        /// The target: 1 the server, 0 everyone, negative everyone but `-target`, else a client.
        target: i32,
        /// The multiplayer packet.
        payload: &'a [u8],
    },
    /// A system message from the server.
    System {
        /// What happened.
        message: SystemMessage,
        /// To whom.
        peer: u32,
    },
}

/// A system message's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SystemMessage {
    /// 0: a peer joined (`SYSMSG_ADD_PEER`).
    AddPeer,
    /// 1: a peer left (`SYSMSG_REMOVE_PEER`).
    RemovePeer,
    /// Another number, which Godot ignores.
    Other(u32),
}

impl SystemMessage {
    /// The number on the wire.
    pub const fn number(self) -> u32 {
        match self {
            SystemMessage::AddPeer => 0,
            SystemMessage::RemovePeer => 1,
            SystemMessage::Other(n) => n,
        }
    }
}

/// Reads a packet that arrived on ENet channel `channel`. O(1), no allocation.
///
/// # Errors
/// Fewer than 8 bytes ([`PacketErrorKind::TooShort`]): Godot drops the packet.
pub fn decode(packet: &[u8], channel: u8) -> Result<EnetPacket<'_>, PacketError> {
    if packet.len() < 8 {
        return Err(PacketError::new(0, PacketErrorKind::TooShort { minimum: 8 }));
    }
    if channel == SYSTEM_CHANNEL {
        let message = match u32_at(packet, 0)? {
            0 => SystemMessage::AddPeer,
            1 => SystemMessage::RemovePeer,
            n => SystemMessage::Other(n),
        };
        return Ok(EnetPacket::System { message, peer: u32_at(packet, 4)? });
    }
    Ok(EnetPacket::Data {
        source: u32_at(packet, 0)?,
        target: i32_at(packet, 4)?,
        payload: rest(packet, 8),
    })
}

/// Appends a data packet's header and payload.
///
/// # Errors
/// A full output.
pub fn write_data<O: Output>(
    out: &mut O,
    source: u32,
    target: i32,
    payload: &[u8],
) -> Result<(), EncodeError> {
    out.write(&source.to_le_bytes())?;
    out.write(&target.to_le_bytes())?;
    out.write(payload)
}

/// Appends a system message.
///
/// # Errors
/// A full output.
pub fn write_system<O: Output>(
    out: &mut O,
    message: SystemMessage,
    peer: u32,
) -> Result<(), EncodeError> {
    out.write(&message.number().to_le_bytes())?;
    out.write(&peer.to_le_bytes())
}
