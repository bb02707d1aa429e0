//! Network codecs (feature `tokio`): Godot values over tokio streams and datagram transports,
//! validated as Godot's `get_var` validates them, zero-copy.
//!
//! | transport | Godot API | codec |
//! | --- | --- | --- |
//! | TCP, TLS, any byte stream | `StreamPeer.put_var` / `get_var`, `PacketPeerStream`, `FileAccess.store_var` | [`FrameCodec`] with a [`LengthPrefix`] |
//! | UDP | `PacketPeerUDP.put_var` / `get_var` | [`DatagramCodec`] (with `tokio_util::udp::UdpFramed`) |
//! | WebSocket, ENet, any message transport | `WebSocketPeer.put_var`, `ENetPacketPeer`, `PacketPeer.put_var` | [`Packet::datagram`] on each message, [`DatagramCodec`] to encode |
//!
//! ```
//! use bytes::BytesMut;
//! use gdvariant::framing::LengthPrefix;
//! use gdvariant::net::FrameCodec;
//! use gdvariant::Options;
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! // Godot 4.6: PacketPeerStream.put_var(v) for 11 values, as a server reads them.
//! let stream = include_bytes!("../../corpus/godot4/stream_packetpeerstream_put_var.bin");
//! let mut codec = FrameCodec::new(LengthPrefix::packet_peer_stream(), Options::godot4());
//! let mut received = BytesMut::from(&stream[..]);
//! let mut forwarded = BytesMut::new();
//! while let Some(item) = codec.decode(&mut received)? {
//!     match item {
//!         Ok(packet) => codec.encode(&packet, &mut forwarded)?, // byte for byte
//!         Err(bad) => eprintln!("dropped {} bytes at {}: {}", bad.len(), bad.offset(), bad.reason()),
//!     }
//! }
//! assert_eq!(&forwarded[..], &stream[..]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What is checked where
//!
//! A [`Packet`] exists only for bytes that Godot's `get_var` accepts: the decoder checks the
//! prefix (sign, size limit) as soon as its 4 bytes are there, and the whole value, once, with
//! the walk of [`validate`](crate::validate) when the frame is complete. The packet then holds
//! the frame's `Bytes` (cut out of the receive buffer, not copied) and reads its value from
//! them on demand: [`Packet::value`] is O(1), a [`Packet::cursor`] walks the whole value in one
//! pass. Everything else is a [`BadFrame`]: its absolute offset, its length, why, and (when it
//! was received whole) its bytes. Decoding never stops on a bad frame; closing is the caller's
//! choice.
//!
//! ## Costs
//!
//! | operation | time | memory |
//! | --- | --- | --- |
//! | [`FrameCodec`] decode | O(1) per call while the frame is incomplete, O(frame) once it is complete; O(n) over a stream, however the bytes arrive | nothing from a claimed length; the buffer holds at most one frame (at most the size limit) plus one read |
//! | [`DatagramCodec`] decode, [`Packet::datagram`] | O(packet) | none (the packet keeps its `Bytes`) |
//! | [`Packet::value`], [`Packet::element`], [`Packet::variant_type`] | O(1) | none |
//! | encoding a [`Packet`], `&[u8]`, `Bytes` | O(payload), one copy into the output | the output grows as needed |
//! | encoding a [`Variant`](crate::Variant) or a [`Build`] | O(bytes written), straight into the output (the prefix is patched) | 8 KiB of writer bookkeeping on the stack |
//!
//! Stack use is fixed throughout (the walk keeps its stack in an array).
//!
//! [`LengthPrefix`]: crate::framing::LengthPrefix

mod datagram;
mod packet;
mod send;
mod stream;

pub use datagram::DatagramCodec;
pub use packet::{BadFrame, Packet};
pub use send::{Build, BuildWriter, SendError};
pub use stream::FrameCodec;
