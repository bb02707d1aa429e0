//! [`Packet`] (a received value that owns its bytes) and [`BadFrame`] (received bytes Godot
//! would refuse, with where they were and how long).

use core::fmt;

use bytes::Bytes;

use crate::framing::{FrameError, FrameErrorKind};
use crate::view::cursor::Cursor;
use crate::view::element::Element;
use crate::view::value::VariantRef;
use crate::view::walk::{Mode, walk_depth};
use crate::wire::options::Options;
use crate::wire::types::VariantType;

/// A value received from the network that Godot's `get_var` accepts, holding the bytes it came
/// in (a `Bytes` cut from the receive buffer, not a copy). Its value is read from those bytes on
/// demand: [`value`](Self::value) is O(1), as the whole value was checked once when the packet
/// was made.
///
/// For a stream frame, [`raw_bytes`](Self::raw_bytes) is the length prefix and the payload
/// exactly as received; for a datagram (no prefix) it is the payload. Cloning is O(1) (a
/// reference count).
#[derive(Clone, PartialEq, Eq)]
pub struct Packet {
    bytes: Bytes,
    /// Bytes of the length prefix in front of the payload: 4 or 0.
    head: usize,
    /// Bytes of the value at the start of the payload.
    value_len: usize,
    depth: u16,
    offset: u64,
    options: Options,
}

impl Packet {
    /// A checked packet (crate use only: the codecs check before they build one).
    pub(crate) fn checked(
        bytes: Bytes,
        head: usize,
        value_len: usize,
        depth: u16,
        offset: u64,
        options: Options,
    ) -> Self {
        Packet { bytes, head, value_len, depth, offset, options }
    }

    /// Checks `bytes` as one whole value with no length prefix (a `PacketPeerUDP`, ENet or
    /// WebSocket packet: `PacketPeer.put_var` writes one value per packet), as Godot's
    /// `get_var` does. O(bytes), one pass, no allocation, fixed stack.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use gdvariant::net::Packet;
    /// use gdvariant::Options;
    ///
    /// // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
    /// let message = Bytes::from_static(include_bytes!("../../corpus/godot4/dict_nested.bin"));
    /// let packet = Packet::datagram(message.clone(), Options::godot4()).unwrap();
    /// assert!(packet.value().as_dictionary().is_some());
    /// assert_eq!(packet.raw_bytes(), &message[..]);
    ///
    /// let bad = Packet::datagram(message.slice(..9), Options::godot4()).unwrap_err();
    /// assert_eq!((bad.offset(), bad.len(), bad.reason()), (0, 9, "invalid_value"));
    /// ```
    ///
    /// # Errors
    /// A [`BadFrame`] (offset 0, the whole packet) with [`FrameErrorKind::Value`] when Godot
    /// would refuse the bytes (an empty packet included).
    pub fn datagram(bytes: Bytes, options: Options) -> Result<Packet, BadFrame> {
        Packet::datagram_at(bytes, 0, options)
    }

    /// [`datagram`](Self::datagram) for a packet that starts at byte `offset` of what a peer
    /// sent (the bytes of its earlier packets), so that error offsets are absolute.
    ///
    /// # Errors
    /// As [`datagram`](Self::datagram).
    pub fn datagram_at(bytes: Bytes, offset: u64, options: Options) -> Result<Packet, BadFrame> {
        match walk_depth(&bytes, 0, options, 0, Mode::Validate) {
            Ok((end, depth)) => {
                let value_len = end.min(bytes.len());
                Ok(Packet { bytes, head: 0, value_len, depth, offset, options })
            }
            Err(error) => {
                let base = usize::try_from(offset).unwrap_or(usize::MAX);
                let error = FrameError::new(offset, FrameErrorKind::Value(error.offset_by(base)));
                Err(BadFrame::new(error, bytes))
            }
        }
    }

    /// Absolute offset of the packet's first byte in what its peer sent (for a stream, its
    /// length prefix).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Bytes of the packet as received, prefix included.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Always `false`: a packet holds at least a value's 4-byte header.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The packet exactly as received: the length prefix (stream frames) and the payload.
    /// Forwarding these bytes to a peer of the same framing reproduces the packet.
    pub fn raw_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The payload: the value, then any trailing bytes the prefix declared (Godot ignores them).
    pub fn payload(&self) -> &[u8] {
        self.bytes.get(self.head..).unwrap_or(&[])
    }

    /// The payload as a `Bytes` sharing this packet's memory (O(1)): to relay a stream frame as
    /// a datagram, say.
    pub fn payload_bytes(&self) -> Bytes {
        self.bytes.slice(self.head.min(self.bytes.len())..)
    }

    /// The bytes as received, giving up the parsed view. O(1).
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The value, read from the packet's bytes. O(1) (a full object: O(class name)).
    pub fn value(&self) -> VariantRef<'_> {
        self.element().value()
    }

    /// The value as an [`Element`] of the payload (offsets count from the payload's start),
    /// for [`Writer::splice`](crate::Writer::splice) and typed getters. O(1).
    pub fn element(&self) -> Element<'_> {
        Element::new(self.payload(), 0, self.value_len, self.options, 0)
    }

    /// A [`Cursor`] over the whole value: one forward pass, each byte read once, for walks of the
    /// whole tree. O(1) to make.
    pub fn cursor(&self) -> Cursor<'_> {
        self.element().cursor()
    }

    /// The value's type. O(1).
    pub fn variant_type(&self) -> VariantType {
        self.element().variant_type()
    }

    /// The value's nesting depth, found when it was checked (as [`Frame::depth`]). O(1).
    ///
    /// [`Frame::depth`]: crate::framing::Frame::depth
    pub fn depth(&self) -> u16 {
        self.depth
    }

    /// Bytes of the payload after the value; Godot ignores them.
    pub fn trailing_bytes(&self) -> &[u8] {
        self.payload().get(self.value_len..).unwrap_or(&[])
    }

    /// The options the value was checked with.
    pub fn options(&self) -> Options {
        self.options
    }
}

impl fmt::Debug for Packet {
    /// The offset, the length and the value's type; not the bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Packet")
            .field("offset", &self.offset)
            .field("len", &self.bytes.len())
            .field("type", &self.variant_type())
            .finish()
    }
}

/// Received bytes that Godot's `get_var` would refuse: what is wrong, where they started in
/// what the peer sent, and how many bytes they took. A decoder yields one and goes on with the
/// next frame; the caller chooses to log and continue, or to close the connection.
#[derive(Clone, PartialEq, Eq)]
pub struct BadFrame {
    error: FrameError,
    len: u64,
    bytes: Option<Bytes>,
}

impl BadFrame {
    /// A bad frame whose bytes were all received.
    pub(crate) fn new(error: FrameError, bytes: Bytes) -> Self {
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        BadFrame { error, len, bytes: Some(bytes) }
    }

    /// A bad frame of `len` bytes that are discarded as they arrive, never kept.
    pub(crate) fn discarded(error: FrameError, len: u64) -> Self {
        BadFrame { error, len, bytes: None }
    }

    /// Absolute offset of the bad frame's first byte (its prefix, for a stream).
    pub fn offset(&self) -> u64 {
        self.error.offset()
    }

    /// Bytes the bad frame takes in the stream, prefix included. For a frame over the size
    /// limit, the declared length plus 4: the decoder discards those bytes as they arrive.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the bad frame took no bytes (never: even a refused prefix takes its 4 bytes).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The error, at the frame's absolute offset; a [`FrameErrorKind::Value`] error's inner
    /// offset is absolute too.
    pub fn error(&self) -> FrameError {
        self.error
    }

    /// What is wrong.
    pub fn kind(&self) -> FrameErrorKind {
        self.error.kind()
    }

    /// The bad frame's bytes when they were received whole; `None` for a frame over the size
    /// limit, whose bytes are never kept.
    pub fn bytes(&self) -> Option<&Bytes> {
        self.bytes.as_ref()
    }

    /// A short, stable name for logs and counters: `invalid_value`, `too_large`,
    /// `negative_length`, `incomplete` (the stream ended inside the frame), `io` or
    /// `output_full`.
    pub fn reason(&self) -> &'static str {
        self.error.reason()
    }
}

impl fmt::Debug for BadFrame {
    /// The error and the length; not the bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BadFrame").field("error", &self.error).field("len", &self.len).finish()
    }
}

impl fmt::Display for BadFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} bytes)", self.error, self.len)
    }
}

impl core::error::Error for BadFrame {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}
