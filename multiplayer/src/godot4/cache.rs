//! NETWORK_COMMAND_SIMPLIFY_PATH and NETWORK_COMMAND_CONFIRM_PATH: the path cache.
//!
//! ```text
//! SIMPLIFY_PATH  01, the MD5 of the node's RPC method names (32 lowercase hex characters),
//!                one byte Godot does not read (the sender writes 0), u32 cache id, the node
//!                path relative to the sender's multiplayer root (UTF-8, NUL-terminated)
//!                (at least 38 bytes)
//! CONFIRM_PATH   02, u8 checksum valid (0 or 1), u32 cache id (exactly 6 bytes)
//! ```
//!
//! The sender numbers the paths it announces from 1; the receiver keeps them per sender and
//! answers with CONFIRM_PATH, saying whether the checksum matched its own list (a mismatch is
//! only logged). The same ids name RPC targets, spawners and synchronizers. O(1) to decode.

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{rest, slice, u8_at, u32_at};
use gdvariant::Version;
use gdvariant::view::GdStr;

/// A SIMPLIFY_PATH packet.
#[derive(Clone, Copy, Debug)]
pub struct SimplifyPath<'a> {
    checksum: &'a [u8],
    unread: u8,
    id: u32,
    path: GdStr<'a>,
}

impl<'a> SimplifyPath<'a> {
    pub(crate) fn read(buf: &'a [u8], base: usize) -> Result<Self, PacketError> {
        if buf.len().saturating_sub(base) < 38 {
            return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: 38 }));
        }
        let checksum = slice(buf, base.saturating_add(1), 32)?;
        let unread = u8_at(buf, base.saturating_add(33))?;
        let id = u32_at(buf, base.saturating_add(34))?;
        let at = base.saturating_add(38);
        let path = GdStr::from_raw(rest(buf, at), at, Version::Godot4);
        Ok(SimplifyPath { checksum, unread, id, path })
    }

    /// The 32 bytes of the checksum: the MD5 of the node's RPC method names as lowercase
    /// hexadecimal text (compare with [`checksum_of`](crate::checksum_of)).
    pub fn checksum(&self) -> &'a [u8] {
        self.checksum
    }

    /// The byte after the checksum, which Godot never reads (its sender writes 0).
    pub fn unread_byte(&self) -> u8 {
        self.unread
    }

    /// The cache id the sender gives the path.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The node path, relative to the sender's multiplayer root: the bytes from offset 38 to the
    /// end (Godot's text stops at the first NUL).
    pub fn path(&self) -> GdStr<'a> {
        self.path
    }
}

/// A CONFIRM_PATH packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfirmPath {
    valid: u8,
    id: u32,
}

impl ConfirmPath {
    pub(crate) fn read(buf: &[u8], base: usize) -> Result<Self, PacketError> {
        if buf.len().saturating_sub(base) != 6 {
            return Err(PacketError::new(base, PacketErrorKind::WrongLength { expected: 6 }));
        }
        let valid = u8_at(buf, base.saturating_add(1))?;
        let id = u32_at(buf, base.saturating_add(2))?;
        Ok(ConfirmPath { valid, id })
    }

    /// Whether the receiver's RPC method list had the sender's checksum (any non-zero byte).
    pub fn checksum_valid(&self) -> bool {
        self.valid != 0
    }

    /// The byte as sent (the engine writes 0 or 1).
    pub fn valid_byte(&self) -> u8 {
        self.valid
    }

    /// The confirmed cache id.
    pub fn id(&self) -> u32 {
        self.id
    }
}
