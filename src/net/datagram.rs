//! [`DatagramCodec`]: one value per packet, no length prefix (`PacketPeerUDP`, ENet, WebSocket).

use bytes::BytesMut;
use tokio_util::codec::Decoder;

use super::packet::{BadFrame, Packet};
use crate::encoder::EncodeOptions;
use crate::framing::{DEFAULT_MAX_FRAME_SIZE, FrameError, FrameErrorKind};
use crate::wire::options::Options;

/// A tokio-util codec for message transports, where `PacketPeer.put_var` sends one value per
/// packet with no length prefix: `PacketPeerUDP` (with `tokio_util::udp::UdpFramed`), and the
/// packets of ENet or WebSocket (there, check each message with [`Packet::datagram`]).
///
/// **Decoding**: each call takes everything in the buffer as one packet (a `UdpFramed` hands
/// the decoder one datagram at a time), checks it as Godot's `get_var` does, and yields
/// `Ok(`[`Packet`]`)` (zero-copy: the packet holds the datagram's `Bytes`) or
/// `Err(`[`BadFrame`]`)`. O(packet), one pass, no allocation, fixed stack. A packet over
/// [`max_size`](Self::max_size) is refused before its value is looked at. Offsets count the
/// bytes of the peer's earlier packets. (`UdpFramed` skips empty datagrams without calling the
/// decoder; Godot would refuse them.) Do not use it on a byte stream: a read is not a packet.
///
/// **Encoding**: the same items as [`FrameCodec`](super::FrameCodec), without a prefix.
#[derive(Clone, Debug)]
pub struct DatagramCodec {
    options: Options,
    pub(crate) encode: EncodeOptions,
    pub(crate) max_size: u32,
    position: u64,
    pub(crate) sent: u64,
}

impl DatagramCodec {
    /// Packets checked with `options`, encoded with the same version's defaults, at most
    /// [`DEFAULT_MAX_FRAME_SIZE`] bytes.
    pub fn new(options: Options) -> Self {
        DatagramCodec {
            options,
            encode: EncodeOptions::new(options.version()),
            max_size: DEFAULT_MAX_FRAME_SIZE,
            position: 0,
            sent: 0,
        }
    }

    /// The same codec with a different size limit for packets read and written.
    pub fn with_max_size(mut self, max: u32) -> Self {
        self.max_size = max;
        self
    }

    /// The same codec, encoding owned and built values with `encode`.
    pub fn with_encode_options(mut self, encode: EncodeOptions) -> Self {
        self.encode = encode;
        self
    }

    /// The size limit.
    pub fn max_size(&self) -> u32 {
        self.max_size
    }

    /// Bytes of the packets decoded so far (where the next one starts).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The options values are checked with.
    pub fn options(&self) -> Options {
        self.options
    }
}

impl Decoder for DatagramCodec {
    type Item = Result<Packet, BadFrame>;
    type Error = std::io::Error;

    /// The whole of `src` as one packet; `None` when it is empty.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        crate::wire::work::add(1);
        if src.is_empty() {
            return Ok(None);
        }
        let offset = self.position;
        let bytes = src.split().freeze();
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        self.position = self.position.saturating_add(len);
        if len > u64::from(self.max_size) {
            let kind = FrameErrorKind::TooLarge { length: len, max: self.max_size };
            return Ok(Some(Err(BadFrame::new(FrameError::new(offset, kind), bytes))));
        }
        Ok(Some(Packet::datagram_at(bytes, offset, self.options)))
    }
}
