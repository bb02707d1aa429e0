//! [`FrameCodec`]: length-prefixed frames over a byte stream (`StreamPeer.put_var`,
//! `PacketPeerStream`, `store_var`), decoded zero-copy from a `BytesMut`.

use bytes::{Buf, BytesMut};
use tokio_util::codec::Decoder;

use super::packet::{BadFrame, Packet};
use crate::encoder::EncodeOptions;
use crate::framing::{FrameError, FrameErrorKind, LengthPrefix, PREFIX_LEN, Received, receive};
use crate::wire::options::Options;

/// A tokio-util codec for Godot's length-prefixed frames, in both directions.
///
/// **Decoding** (with `FramedRead` / `Framed`): each item is `Ok(`[`Packet`]`)` for a frame
/// Godot's `get_var` accepts, cut out of the receive buffer without copying, or
/// `Err(`[`BadFrame`]`)` for one it refuses; the stream goes on after a bad frame, as Godot's
/// reader does, and the caller chooses whether to close the connection. Offsets are absolute in
/// the stream.
///
/// * **Time**: O(1) per call while a frame is incomplete (only the prefix is read, once it is
///   there), O(frame) once it is complete (one pass over the value, as
///   [`validate`](crate::validate)): a frame that arrives one byte at a time costs O(frame) in
///   all, never O(frame²). Fixed stack.
/// * **Memory**: nothing is allocated from a length prefix. A length over
///   [`LengthPrefix::max_frame_size`] yields a [`BadFrame`] at once (`too_large`), and the
///   frame's bytes are then discarded as they arrive, never buffered; so the receive buffer
///   holds at most one frame of at most the limit, plus what one read brings.
/// * **Bad frames** ([`BadFrame::reason`]): `invalid_value` (a complete frame whose value is
///   refused: skipped by its length, as `get_var` does), `too_large` (skipped by its declared
///   length as it arrives), `negative_length` (a signed prefix below zero: its 4 bytes are
///   skipped, as `StreamPeer.get_var` does), and `incomplete` at the end of the stream (the
///   bytes of a cut frame).
///
/// **Encoding** (with `FramedWrite` / `Framed`, see [`Encoder`](tokio_util::codec::Encoder)
/// impls): an owned [`Variant`](crate::Variant), a [`Packet`] (its payload, re-framed with this
/// codec's prefix: byte for byte the same frame when the prefixes agree), raw payload bytes
/// (`&[u8]`, `Bytes`, such as [`Element::raw_bytes`](crate::view::Element::raw_bytes)), or a value
/// built in place with [`Build`](super::Build): the prefix is reserved, the
/// [`Writer`](crate::Writer) writes into the output buffer, and the prefix is patched.
///
/// ```
/// use bytes::BytesMut;
/// use gdvariant::framing::LengthPrefix;
/// use gdvariant::net::FrameCodec;
/// use gdvariant::Options;
/// use tokio_util::codec::Decoder;
///
/// // Godot 3.2.3: StreamPeerBuffer.put_var(v) for 10 values, arriving in one read.
/// let stream = include_bytes!("../../corpus/godot3/stream_streampeer_put_var.bin");
/// let mut codec = FrameCodec::new(LengthPrefix::stream_peer(false), Options::godot3());
/// let mut buffer = BytesMut::from(&stream[..]);
/// let mut count = 0;
/// while let Some(item) = codec.decode(&mut buffer)? {
///     let packet = item.expect("Godot accepts every frame it wrote");
///     assert_eq!(packet.offset(), codec.position() - packet.len() as u64);
///     count += 1;
/// }
/// assert_eq!((count, codec.position()), (10, 216));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct FrameCodec {
    pub(crate) prefix: LengthPrefix,
    options: Options,
    pub(crate) encode: EncodeOptions,
    /// Stream offset of the first byte not consumed yet.
    position: u64,
    /// Bytes of a refused frame still to discard as they arrive.
    discard: u64,
    /// Bytes encoded so far (offsets of encoding errors).
    pub(crate) sent: u64,
}

impl FrameCodec {
    /// Frames with `prefix` (which also sets the size limit), values checked with `options` and
    /// encoded with the same Godot version's defaults.
    pub fn new(prefix: LengthPrefix, options: Options) -> Self {
        FrameCodec {
            prefix,
            options,
            encode: EncodeOptions::new(options.version()),
            position: 0,
            discard: 0,
            sent: 0,
        }
    }

    /// The same codec, encoding owned and built values with `encode`.
    pub fn with_encode_options(mut self, encode: EncodeOptions) -> Self {
        self.encode = encode;
        self
    }

    /// The same codec, counting stream offsets from `position` (a stream already partly read).
    pub fn starting_at(mut self, position: u64) -> Self {
        self.position = position;
        self
    }

    /// Stream offset of the next byte the decoder has not consumed: after a frame, where the
    /// next one starts.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The length prefix.
    pub fn prefix(&self) -> LengthPrefix {
        self.prefix
    }

    /// The options values are checked with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The options values are encoded with.
    pub fn encode_options(&self) -> EncodeOptions {
        self.encode
    }

    /// Bytes of a refused frame still to be discarded as they arrive.
    pub fn discarding(&self) -> u64 {
        self.discard
    }

    /// Consumes `n` bytes of `src`.
    fn consume(&mut self, src: &mut BytesMut, n: usize) -> bytes::Bytes {
        self.position = self.position.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        src.split_to(n.min(src.len())).freeze()
    }
}

impl Decoder for FrameCodec {
    type Item = Result<Packet, BadFrame>;
    type Error = std::io::Error;

    /// The next frame at the front of `src`, or `None` until it is complete. See [`FrameCodec`]
    /// for the costs and the bad frames.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        crate::wire::work::add(1);
        if self.discard > 0 {
            let n = usize::try_from(self.discard).unwrap_or(usize::MAX).min(src.len());
            src.advance(n);
            let n = u64::try_from(n).unwrap_or(u64::MAX);
            self.discard = self.discard.saturating_sub(n);
            self.position = self.position.saturating_add(n);
            if self.discard > 0 {
                return Ok(None);
            }
        }
        let offset = self.position;
        let item = match receive(src, offset, self.prefix, self.options) {
            Received::Incomplete { .. } => return Ok(None),
            Received::Frame(frame) => {
                let (len, value_len, depth) = (frame.len(), frame.element().len(), frame.depth());
                let bytes = self.consume(src, len);
                Ok(Packet::checked(bytes, PREFIX_LEN, value_len, depth, offset, self.options))
            }
            Received::Bad { error, len } => match usize::try_from(len) {
                Ok(whole) if whole <= src.len() => {
                    Err(BadFrame::new(error, self.consume(src, whole)))
                }
                _ => {
                    // Over the size limit: discard what is here, and the rest as it arrives.
                    let here = src.len();
                    let _ = self.consume(src, here);
                    let here = u64::try_from(here).unwrap_or(u64::MAX);
                    self.discard = len.saturating_sub(here);
                    Err(BadFrame::discarded(error, len))
                }
            },
        };
        Ok(Some(item))
    }

    /// As [`decode`](Self::decode); then bytes left at the end of the stream (a frame cut short)
    /// are one last [`BadFrame`] (`incomplete`, with the bytes still missing).
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        if let Some(item) = self.decode(src)? {
            return Ok(Some(item));
        }
        if src.is_empty() || self.discard > 0 {
            src.clear();
            self.discard = 0;
            return Ok(None);
        }
        let offset = self.position;
        let needed = match receive(src, offset, self.prefix, self.options) {
            Received::Incomplete { needed } => needed,
            _ => 0,
        };
        let error = FrameError::new(offset, FrameErrorKind::Incomplete { needed });
        let all = src.len();
        Ok(Some(Err(BadFrame::new(error, self.consume(src, all)))))
    }
}
