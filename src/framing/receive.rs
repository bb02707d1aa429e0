//! [`receive`]: the frame at the front of a receive buffer, with absolute stream offsets and,
//! for a bad frame, how many bytes to drop to go on.

use super::error::{FrameError, FrameErrorKind};
use super::frame::{Frame, split};
use super::prefix::{LengthPrefix, PREFIX_LEN};
use crate::Options;

/// What the front of a receive buffer holds: see [`receive`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received<'a> {
    /// A complete frame whose value Godot's `get_var` decodes; drop [`Frame::len`] bytes from
    /// the buffer.
    Frame(Frame<'a>),
    /// A frame Godot's `get_var` refuses. Drop `len` bytes and read on: Godot's reader consumes
    /// the same bytes.
    Bad {
        /// What is wrong, at the frame's absolute offset.
        error: FrameError,
        /// Bytes the bad frame occupies in the stream, prefix included. For
        /// [`FrameErrorKind::TooLarge`] this is the declared length plus 4, most of it not
        /// received yet: discard those bytes as they arrive, without keeping them.
        len: u64,
    },
    /// The frame is not complete yet: `needed` more bytes (at least) must arrive.
    Incomplete {
        /// Bytes still missing: to complete the prefix when it is cut short, else the payload.
        needed: usize,
    },
}

/// Reads the frame at the start of `buf`, which sits at absolute byte `offset` of a stream, and
/// checks its value as Godot's `get_var` does. For servers that keep a receive buffer: each
/// outcome says how many bytes to drop, so one bad frame never stops the stream.
///
/// Cost: O(1) when the frame is incomplete (the prefix is read, nothing else), O(frame) once it
/// is complete (one pass over the value, as [`crate::validate`]); no allocation, fixed stack.
/// Bytes after the frame are not looked at.
///
/// | the front of `buf` | outcome | drop |
/// | --- | --- | --- |
/// | a frame Godot accepts | [`Received::Frame`] (offsets absolute) | [`Frame::len`] |
/// | a complete frame whose value Godot refuses (an empty payload included) | [`Received::Bad`] with [`FrameErrorKind::Value`] | the frame |
/// | a length over [`LengthPrefix::max_frame_size`] | [`Received::Bad`] with [`FrameErrorKind::TooLarge`] | 4 + the length, as it arrives |
/// | a negative length ([`LengthPrefix::stream_peer`]) | [`Received::Bad`] with [`FrameErrorKind::NegativeLength`] | the 4 prefix bytes, as `StreamPeer.get_var` does |
/// | part of a frame | [`Received::Incomplete`] | nothing yet |
///
/// ```
/// use gdvariant::framing::{self, FrameErrorKind, LengthPrefix, Received};
/// use gdvariant::Options;
///
/// // Godot 4.6: PacketPeerStream.put_var(v) for 11 values; this buffer starts 1000 bytes
/// // into the connection, and its first frame's value was damaged.
/// let mut stream = include_bytes!("../../corpus/godot4/stream_packetpeerstream_put_var.bin").to_vec();
/// stream[4] = 0xEE; // an unknown type id
/// let prefix = LengthPrefix::packet_peer_stream();
/// let Received::Bad { error, len } = framing::receive(&stream, 1000, prefix, Options::godot4()) else {
///     panic!("a bad frame");
/// };
/// assert_eq!((error.offset(), len), (1000, 12));
/// assert!(matches!(error.kind(), FrameErrorKind::Value(_)));
///
/// let Received::Frame(frame) = framing::receive(&stream[12..], 1012, prefix, Options::godot4()) else {
///     panic!("a good frame");
/// };
/// assert_eq!((frame.offset(), frame.len()), (1012, 20));
/// assert_eq!(frame.value().as_gd_str().unwrap().to_str()?, "hello");
/// # Ok::<(), gdvariant::Error>(())
/// ```
pub fn receive(buf: &[u8], offset: u64, prefix: LengthPrefix, options: Options) -> Received<'_> {
    match split(buf, offset, prefix) {
        Ok(raw) => {
            let len = u64::try_from(raw.raw_bytes().len()).unwrap_or(u64::MAX);
            match raw.decode(options) {
                Ok(frame) => Received::Frame(frame),
                Err(error) => Received::Bad { error, len },
            }
        }
        Err(error) => match error.kind() {
            FrameErrorKind::Incomplete { needed } => Received::Incomplete { needed },
            FrameErrorKind::TooLarge { length, .. } => {
                Received::Bad { error, len: length.saturating_add(PREFIX_LEN as u64) }
            }
            _ => Received::Bad { error, len: PREFIX_LEN as u64 },
        },
    }
}
