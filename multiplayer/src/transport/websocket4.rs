//! Godot 4's `WebSocketMultiplayerPeer`: each binary message is one multiplayer packet, with
//! nothing around it, but the server's first message to a client is that client's id: exactly 4
//! bytes, an `i32` of at least 2 (the machine's byte order in Godot's source; little-endian on
//! every platform Godot runs on, and in this crate's captures). The client closes the
//! connection on anything else ("Invalid ID received from server"). O(1).

use crate::error::{PacketError, PacketErrorKind};
use crate::field::i32_at;
use gdvariant::{encoder::EncodeError, encoder::Output};

/// Reads the server's first message: the client's id. O(1), no allocation.
///
/// # Errors
/// Not exactly 4 bytes, or an id below 2 ([`PacketErrorKind::BadPeerId`]).
pub fn peer_id(message: &[u8]) -> Result<i32, PacketError> {
    if message.len() != 4 {
        return Err(PacketError::new(0, PacketErrorKind::BadPeerId));
    }
    let id = i32_at(message, 0)?;
    if id < 2 {
        return Err(PacketError::new(0, PacketErrorKind::BadPeerId));
    }
    Ok(id)
}

/// Appends the id message.
///
/// # Errors
/// A full output.
pub fn write_peer_id<O: Output>(out: &mut O, id: i32) -> Result<(), EncodeError> {
    out.write(&id.to_le_bytes())
}
