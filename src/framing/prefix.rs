//! [`LengthPrefix`]: how a frame's length is written, and how large a frame may be.

use super::error::{FrameError, FrameErrorKind};

/// Bytes of the length prefix in front of every frame.
pub const PREFIX_LEN: usize = 4;

/// The default of [`LengthPrefix::max_frame_size`]: 16 MiB.
///
/// Godot's own readers take any length up to `u32::MAX` (`FileAccess.get_var`) or `i32::MAX`
/// (`StreamPeer.get_var`) and allocate it up front; a limit is what keeps a hostile prefix from
/// costing memory. 16 MiB holds every value of the corpora with room to spare, and bounds the
/// buffer of a [`FrameReader`](super::FrameReader) to 16 MiB + 4 bytes. Raise it with
/// [`LengthPrefix::with_max_frame_size`] for larger saves.
pub const DEFAULT_MAX_FRAME_SIZE: u32 = 16 << 20;

/// Byte order of a length prefix. The value bytes after it are always little-endian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Least significant byte first: Godot's default everywhere.
    LittleEndian,
    /// Most significant byte first: `FileAccess.big_endian` / `StreamPeer.big_endian` set (Godot
    /// 3: `File.endian_swap`, `StreamPeer.big_endian`).
    BigEndian,
}

/// How the u32 length in front of each frame is written and read, and the largest frame
/// accepted. `Copy`, 8 bytes.
///
/// | Godot API | prefix | constructor |
/// | --- | --- | --- |
/// | `FileAccess.store_var` / `get_var` (Godot 3: `File`) | u32, little-endian unless `big_endian` (3: `endian_swap`) | [`store_var`](Self::store_var) |
/// | `StreamPeer.put_var` / `get_var` (TCP, TLS, `StreamPeerBuffer`, ...) | u32 written; **read as i32**: a negative length fails; little-endian unless `big_endian` | [`stream_peer`](Self::stream_peer) |
/// | `PacketPeerStream.put_var` / `get_var` | u32, always little-endian (not affected by the stream's `big_endian`) | [`packet_peer_stream`](Self::packet_peer_stream) |
///
/// The three write the same bytes when no byte-order flag is set. In every case the length
/// counts the value's bytes only (not the prefix); a length longer than the value leaves
/// trailing bytes that Godot ignores, a shorter one makes the value fail to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LengthPrefix {
    order: ByteOrder,
    signed: bool,
    max_frame_size: u32,
}

impl LengthPrefix {
    /// A prefix in `order`, read as a signed 32-bit number when `signed` (lengths above
    /// `i32::MAX` are then errors), with the [`DEFAULT_MAX_FRAME_SIZE`].
    pub const fn new(order: ByteOrder, signed: bool) -> Self {
        LengthPrefix { order, signed, max_frame_size: DEFAULT_MAX_FRAME_SIZE }
    }

    /// `FileAccess.store_var` / `get_var` (Godot 3: `File.store_var` / `get_var`): an unsigned
    /// length, big-endian when the file's `big_endian` (Godot 3: `endian_swap`) is set.
    pub const fn store_var(big_endian: bool) -> Self {
        Self::new(if big_endian { ByteOrder::BigEndian } else { ByteOrder::LittleEndian }, false)
    }

    /// `StreamPeer.put_var` / `get_var`: big-endian when the peer's `big_endian` is set; read as
    /// a signed 32-bit length, as `get_var` does (a negative length is an error).
    pub const fn stream_peer(big_endian: bool) -> Self {
        Self::new(if big_endian { ByteOrder::BigEndian } else { ByteOrder::LittleEndian }, true)
    }

    /// `PacketPeerStream.put_var` / `get_var`: always little-endian, whatever the underlying
    /// stream's `big_endian` says. (Godot also refuses packets larger than the stream's buffer,
    /// set by the project setting `network/limits/packet_peer_stream/max_buffer_po2`; set
    /// [`with_max_frame_size`](Self::with_max_frame_size) to match.)
    pub const fn packet_peer_stream() -> Self {
        Self::new(ByteOrder::LittleEndian, false)
    }

    /// The same prefix with a different frame size limit (the largest length accepted, prefix
    /// not counted). Values above what the prefix can express (`u32::MAX`, or `i32::MAX` when
    /// signed) are lowered to it.
    pub const fn with_max_frame_size(mut self, max: u32) -> Self {
        let wire_max = self.wire_max();
        self.max_frame_size = if max > wire_max { wire_max } else { max };
        self
    }

    /// The byte order of the length.
    pub const fn byte_order(&self) -> ByteOrder {
        self.order
    }

    /// Whether the length is read as a signed 32-bit number (`StreamPeer.get_var`).
    pub const fn is_signed(&self) -> bool {
        self.signed
    }

    /// The largest frame length accepted (prefix not counted). Readers refuse a larger prefix
    /// before reading or allocating anything for its payload; writers refuse a larger payload.
    pub const fn max_frame_size(&self) -> u32 {
        self.max_frame_size
    }

    /// The largest length the prefix can express.
    const fn wire_max(&self) -> u32 {
        if self.signed { i32::MAX.unsigned_abs() } else { u32::MAX }
    }

    /// The 4 prefix bytes for a payload of `payload_len` bytes.
    ///
    /// # Errors
    /// [`FrameErrorKind::TooLarge`] (at offset 0) when `payload_len` exceeds
    /// [`max_frame_size`](Self::max_frame_size).
    pub fn encode(&self, payload_len: usize) -> Result<[u8; PREFIX_LEN], FrameError> {
        let too_large = || {
            FrameError::new(
                0,
                FrameErrorKind::TooLarge {
                    length: u64::try_from(payload_len).unwrap_or(u64::MAX),
                    max: self.max_frame_size,
                },
            )
        };
        let len = u32::try_from(payload_len).map_err(|_| too_large())?;
        if len > self.max_frame_size {
            return Err(too_large());
        }
        Ok(match self.order {
            ByteOrder::LittleEndian => len.to_le_bytes(),
            ByteOrder::BigEndian => len.to_be_bytes(),
        })
    }

    /// The payload length written in `bytes`, checked against the sign and the limit.
    pub(crate) fn decode(&self, bytes: [u8; PREFIX_LEN]) -> Result<usize, FrameErrorKind> {
        let raw = match self.order {
            ByteOrder::LittleEndian => u32::from_le_bytes(bytes),
            ByteOrder::BigEndian => u32::from_be_bytes(bytes),
        };
        if self.signed {
            let length = i32::from_ne_bytes(raw.to_ne_bytes());
            if length < 0 {
                return Err(FrameErrorKind::NegativeLength { length });
            }
        }
        if raw > self.max_frame_size {
            return Err(FrameErrorKind::TooLarge {
                length: u64::from(raw),
                max: self.max_frame_size,
            });
        }
        // A length that does not fit the address space cannot be in memory either.
        usize::try_from(raw).map_err(|_| FrameErrorKind::TooLarge {
            length: u64::from(raw),
            max: self.max_frame_size,
        })
    }
}

impl Default for LengthPrefix {
    /// `FileAccess.store_var` with Godot's defaults: little-endian, unsigned.
    fn default() -> Self {
        Self::store_var(false)
    }
}
