//! Godot 3's `WebSocketMultiplayerPeer` (a server `listen`ing, or a client connecting, with
//! `gd_mp_api` on): a 9-byte header on every binary message.
//!
//! ```text
//! u8 type   0 a multiplayer packet, 1 a peer joined, 2 a peer left, 3 your id
//! i32 from  the sender (1 for the server's system messages)
//! i32 to    the target (0: everyone, -id: everyone but id, 1: the server)
//! then      the multiplayer packet, or for types 1 to 3 an i32 peer id
//! ```
//!
//! On a new connection the server sends the client its id, then "peer 1 joined", then the other
//! clients both ways. The server checks that a client sends type 0 with its own id as `from`,
//! and forwards messages for other clients unchanged. Anything shorter than 9 bytes is dropped;
//! a client refuses other types ("Invalid multiplayer message") and system messages without a
//! peer id. The integers are the machine's own byte order in Godot's source, little-endian on
//! every platform Godot runs on (and in every capture of `corpus/multiplayer`). O(1).

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{i32_at, rest, u8_at};
use gdvariant::{encoder::EncodeError, encoder::Output};

/// The header's length (`PROTO_SIZE`).
pub const HEADER: usize = 9;

/// A message's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageType {
    /// 0: a multiplayer packet.
    Payload,
    /// 1: a peer joined (`SYS_ADD`).
    AddPeer,
    /// 2: a peer left (`SYS_DEL`).
    DelPeer,
    /// 3: the receiving client's id (`SYS_ID`).
    Id,
}

impl MessageType {
    /// The type byte.
    pub const fn byte(self) -> u8 {
        match self {
            MessageType::Payload => 0,
            MessageType::AddPeer => 1,
            MessageType::DelPeer => 2,
            MessageType::Id => 3,
        }
    }
}

/// One message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message<'a> {
    /// The type.
    pub kind: MessageType,
    /// The sender.
    pub from: i32,
    /// The target.
    pub to: i32,
    /// What follows the header: the multiplayer packet, or a system message's peer id bytes.
    pub payload: &'a [u8],
}

impl Message<'_> {
    /// A system message's peer id (its first 4 bytes); `None` for a payload.
    pub fn peer(&self) -> Option<i32> {
        if self.kind == MessageType::Payload {
            return None;
        }
        i32_at(self.payload, 0).ok()
    }
}

/// Reads one message. O(1), no allocation.
///
/// # Errors
/// Fewer than 9 bytes ([`PacketErrorKind::TooShort`]), a type above 3
/// ([`PacketErrorKind::UnknownCommand`]), or a system message without its 4-byte peer id
/// ([`PacketErrorKind::Truncated`]).
pub fn decode(message: &[u8]) -> Result<Message<'_>, PacketError> {
    if message.len() < HEADER {
        return Err(PacketError::new(0, PacketErrorKind::TooShort { minimum: HEADER }));
    }
    let kind = match u8_at(message, 0)? {
        0 => MessageType::Payload,
        1 => MessageType::AddPeer,
        2 => MessageType::DelPeer,
        3 => MessageType::Id,
        command => return Err(PacketError::new(0, PacketErrorKind::UnknownCommand { command })),
    };
    let payload = rest(message, HEADER);
    if kind != MessageType::Payload && payload.len() < 4 {
        return Err(PacketError::new(HEADER, PacketErrorKind::Truncated { needed: 4 }));
    }
    Ok(Message { kind, from: i32_at(message, 1)?, to: i32_at(message, 5)?, payload })
}

/// Appends a message.
///
/// # Errors
/// A full output.
pub fn write<O: Output>(
    out: &mut O,
    kind: MessageType,
    from: i32,
    to: i32,
    payload: &[u8],
) -> Result<(), EncodeError> {
    out.write(&[kind.byte()])?;
    out.write(&from.to_le_bytes())?;
    out.write(&to.to_le_bytes())?;
    out.write(payload)
}
