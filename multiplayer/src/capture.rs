//! Capture files: multiplayer traffic as `gdvariant proxy --capture` records it, for
//! `gdvariant multiplayer` (and any other reader) to decode later.
//!
//! ```text
//! header   "GDMPCAP\0", u16 format (1), u8 Godot version (3 or 4), u8 framing
//!          (0 packets as the multiplayer peer hands them, 1 Godot 3 ENet with its 8-byte
//!          header, 2 Godot 3 WebSocket with its 9-byte header, 3 Godot 4 WebSocket, whose
//!          first server message is the client's id), u32 reserved (0): 16 bytes
//! record   u32 length of what follows, u64 microseconds since the capture began,
//!          u32 connection, u8 direction (0 client to server, 1 server to client),
//!          u8 channel, u8 transfer mode (0 reliable, 1 unreliable, 2 unreliable ordered),
//!          u8 flags (bit 0: the recorder dropped the message), then the message's bytes
//!          (length - 16)
//! ```
//!
//! Integers are little-endian. Reading is zero-copy and O(1) per record; a record cut short or
//! claiming more bytes than remain ends the reading with an error at its offset (a capture
//! whose writer died keeps every record before). Writing allocates nothing.

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{slice, u8_at, u16_at, u32_at, u64_at};
use crate::{Direction, Framing};
use gdvariant::Version;
use gdvariant::{encoder::EncodeError, encoder::Output};

/// The first 8 bytes of a capture file.
pub const MAGIC: &[u8; 8] = b"GDMPCAP\0";

/// The format this crate writes and reads.
pub const FORMAT: u16 = 1;

/// A record flag: the recorder (a filtering proxy) did not forward the message.
pub const DROPPED: u8 = 1;

/// A capture's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Which Godot sent the traffic.
    pub version: Version,
    /// What each record holds.
    pub framing: Framing,
}

/// A record's fixed fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordHead {
    /// Microseconds since the capture began.
    pub micros: u64,
    /// The connection (numbered by the writer).
    pub connection: u32,
    /// Which way.
    pub direction: Direction,
    /// The transport channel (0 where the transport has none).
    pub channel: u8,
    /// The transfer mode: 0 reliable, 1 unreliable, 2 unreliable ordered.
    pub mode: u8,
    /// Flags ([`DROPPED`]).
    pub flags: u8,
}

/// One record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// Its fixed fields.
    pub head: RecordHead,
    /// The message's bytes.
    pub bytes: &'a [u8],
    /// The offset of the message's bytes in the file.
    pub offset: usize,
}

/// Reads a capture's header; the records follow at byte 16. O(1), no allocation.
///
/// # Errors
/// Not a capture ([`PacketErrorKind::UnknownCommand`] for a wrong magic, format, version or
/// framing), or fewer than 16 bytes.
pub fn header(file: &[u8]) -> Result<Header, PacketError> {
    let magic = slice(file, 0, 8)?;
    if magic != MAGIC {
        return Err(PacketError::new(
            0,
            PacketErrorKind::UnknownCommand { command: magic.first().copied().unwrap_or(0) },
        ));
    }
    let format = u16_at(file, 8)?;
    if format != FORMAT {
        return Err(PacketError::new(
            8,
            PacketErrorKind::UnknownCommand { command: format.to_le_bytes()[0] },
        ));
    }
    let version = match u8_at(file, 10)? {
        3 => Version::Godot3,
        4 => Version::Godot4,
        other => {
            return Err(PacketError::new(10, PacketErrorKind::UnknownCommand { command: other }));
        }
    };
    let byte = u8_at(file, 11)?;
    let framing = Framing::from_byte(byte)
        .ok_or(PacketError::new(11, PacketErrorKind::UnknownCommand { command: byte }))?;
    u32_at(file, 12)?;
    Ok(Header { version, framing })
}

/// The records of a capture (after its header), in order: O(1) per record, zero-copy.
pub fn records(file: &[u8]) -> Records<'_> {
    Records { file, pos: 16, failed: false }
}

/// The records of a capture: each record, or an error that ends the reading.
#[derive(Clone, Debug)]
pub struct Records<'a> {
    file: &'a [u8],
    pos: usize,
    failed: bool,
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.file.len() {
            return None;
        }
        let at = self.pos;
        let read = || -> Result<(Record<'a>, usize), PacketError> {
            let len = u32_at(self.file, at)? as usize;
            if len < 16 {
                return Err(PacketError::new(at, PacketErrorKind::TooShort { minimum: 16 }));
            }
            let body = at.saturating_add(4);
            let micros = u64_at(self.file, body)?;
            let connection = u32_at(self.file, body.saturating_add(8))?;
            let direction = match u8_at(self.file, body.saturating_add(12))? {
                0 => Direction::ToServer,
                1 => Direction::ToClient,
                other => {
                    return Err(PacketError::new(
                        body.saturating_add(12),
                        PacketErrorKind::UnknownCommand { command: other },
                    ));
                }
            };
            let channel = u8_at(self.file, body.saturating_add(13))?;
            let mode = u8_at(self.file, body.saturating_add(14))?;
            let flags = u8_at(self.file, body.saturating_add(15))?;
            let bytes_at = body.saturating_add(16);
            // Checked before the read, so that a length that lies costs nothing.
            if len.saturating_sub(16) > self.file.len().saturating_sub(bytes_at) {
                return Err(PacketError::new(at, PacketErrorKind::BadSize { size: len as u32 }));
            }
            let bytes = slice(self.file, bytes_at, len.saturating_sub(16))?;
            let head = RecordHead { micros, connection, direction, channel, mode, flags };
            Ok((Record { head, bytes, offset: bytes_at }, body.saturating_add(len)))
        };
        match read() {
            Ok((record, next)) => {
                self.pos = next;
                Some(Ok(record))
            }
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

/// Appends a capture's header.
///
/// # Errors
/// A full output.
pub fn write_header<O: Output>(out: &mut O, header: Header) -> Result<(), EncodeError> {
    out.write(MAGIC)?;
    out.write(&FORMAT.to_le_bytes())?;
    out.write(&[if header.version == Version::Godot3 { 3 } else { 4 }, header.framing.byte()])?;
    out.write(&[0; 4])
}

/// Appends one record.
///
/// # Errors
/// A message over 4 GiB ([`EncodeError::TooLarge`]), or a full output.
pub fn write_record<O: Output>(
    out: &mut O,
    head: &RecordHead,
    bytes: &[u8],
) -> Result<(), EncodeError> {
    let len = bytes
        .len()
        .checked_add(16)
        .and_then(|len| u32::try_from(len).ok())
        .ok_or(EncodeError::TooLarge { len: bytes.len() })?;
    out.write(&len.to_le_bytes())?;
    out.write(&head.micros.to_le_bytes())?;
    out.write(&head.connection.to_le_bytes())?;
    let direction = match head.direction {
        Direction::ToServer => 0,
        Direction::ToClient => 1,
    };
    out.write(&[direction, head.channel, head.mode, head.flags])?;
    out.write(bytes)
}
