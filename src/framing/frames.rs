//! Frames in a buffer: the iterators over a whole dump, and single reads from the front of a
//! receive buffer.

use core::iter::FusedIterator;

use super::error::FrameError;
#[cfg(doc)]
use super::error::FrameErrorKind;
use super::frame::{Frame, RawFrame, split};
use super::prefix::LengthPrefix;
use crate::Options;

/// Reads the frame at the start of `buf` and checks its value, for network code that
/// accumulates bytes until a frame is complete. O(frame), no allocation.
///
/// Returns the frame and the number of bytes it occupies (prefix included), which the caller
/// drops from its buffer. Bytes after the frame are not looked at.
///
/// ```
/// use gdvariant::framing::{self, FrameErrorKind, LengthPrefix};
/// use gdvariant::Options;
///
/// // Godot 4.6: PacketPeerStream.put_var(v) for 11 values, as a TCP peer receives them.
/// let stream = include_bytes!("../../corpus/godot4/stream_packetpeerstream_put_var.bin");
/// let prefix = LengthPrefix::packet_peer_stream();
///
/// let (frame, used) = framing::read_frame(stream, prefix, Options::godot4())?;
/// assert_eq!(frame.value().as_int(), Some(1));
/// assert_eq!(used, 4 + 8);
///
/// // Only part of the next frame has arrived yet:
/// let error = framing::read_frame(&stream[used..used + 6], prefix, Options::godot4()).unwrap_err();
/// assert_eq!(error.kind(), FrameErrorKind::Incomplete { needed: 20 - 6 });
/// # Ok::<(), framing::FrameError>(())
/// ```
///
/// # Errors
/// [`FrameErrorKind::Incomplete`] with the bytes still missing (wait for more and call again);
/// [`FrameErrorKind::NegativeLength`] or [`FrameErrorKind::TooLarge`] for a prefix no frame can
/// follow (the connection is unusable); [`FrameErrorKind::Value`] when the frame is complete but
/// its value is refused (to drop that frame and go on, use [`split_frame`] and
/// [`RawFrame::decode`]). Offsets count from the start of `buf`.
pub fn read_frame(
    buf: &[u8],
    prefix: LengthPrefix,
    options: Options,
) -> Result<(Frame<'_>, usize), FrameError> {
    let raw = split(buf, 0, prefix)?;
    let used = raw.raw_bytes().len();
    raw.decode(options).map(|frame| (frame, used))
}

/// Cuts the frame at the start of `buf` without looking at its value. O(1).
///
/// Returns the frame and the number of bytes it occupies (prefix included). A relay can forward
/// [`RawFrame::raw_bytes`] as they are, or check them first with [`RawFrame::decode`].
///
/// # Errors
/// [`FrameErrorKind::Incomplete`], [`FrameErrorKind::NegativeLength`] and
/// [`FrameErrorKind::TooLarge`], as in [`read_frame`].
pub fn split_frame(buf: &[u8], prefix: LengthPrefix) -> Result<(RawFrame<'_>, usize), FrameError> {
    let raw = split(buf, 0, prefix)?;
    Ok((raw, raw.raw_bytes().len()))
}

/// Iterates over the frames stored back to back in `buf` (a `store_var` dump, a captured
/// stream), checking each value as Godot's `get_var` does before yielding it.
///
/// Creating the iterator is O(1); each step is O(frame) and allocates nothing. See [`Frames`]
/// for what happens after an error.
///
/// ```
/// use gdvariant::framing::{self, LengthPrefix};
/// use gdvariant::Options;
///
/// // Godot 4.6: FileAccess.store_var(v) for 11 values (1, "hello", Vector2(1, 2), ...).
/// let dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin");
///
/// let mut count = 0;
/// for frame in framing::frames(dump, LengthPrefix::store_var(false), Options::godot4()) {
///     let frame = frame?;
///     println!("{} at byte {}", frame.variant_type().name(gdvariant::Version::Godot4), frame.offset());
///     count += 1;
/// }
/// assert_eq!(count, 11);
/// # Ok::<(), framing::FrameError>(())
/// ```
pub fn frames(buf: &[u8], prefix: LengthPrefix, options: Options) -> Frames<'_> {
    Frames { inner: raw_frames(buf, prefix), options }
}

/// Iterates over the frames stored back to back in `buf` without looking at their values:
/// O(1) per frame. Errors and stopping as in [`frames`], without value errors.
pub fn raw_frames(buf: &[u8], prefix: LengthPrefix) -> RawFrames<'_> {
    RawFrames { buf, pos: 0, prefix, done: false }
}

/// The iterator of [`frames`]: each item is a checked [`Frame`] or the [`FrameError`] that
/// stopped one.
///
/// * A frame whose value Godot would refuse yields [`FrameErrorKind::Value`] (naming the frame's
///   offset, with the decoding error's absolute offset inside), and iteration **goes on** with
///   the next frame: its length was sound, so the next frame's position is known (Godot's
///   `get_var` has consumed the frame too). A zero-length frame is such a frame.
/// * A frame cut short by the end of the buffer yields [`FrameErrorKind::Incomplete`] with the
///   number of bytes still missing, and a prefix that no frame can follow yields
///   [`FrameErrorKind::NegativeLength`] or [`FrameErrorKind::TooLarge`]; then the iterator
///   ends (it is fused).
///
/// Every frame before a bad one is yielded first.
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    inner: RawFrames<'a>,
    options: Options,
}

impl<'a> Frames<'a> {
    /// Offset in the buffer where the next frame starts (the buffer's length once every frame
    /// has been read; the cut frame's offset after [`FrameErrorKind::Incomplete`]).
    pub fn position(&self) -> usize {
        self.inner.position()
    }

    /// The bytes from [`position`](Self::position) on: after [`FrameErrorKind::Incomplete`],
    /// the start of the frame that is not complete yet, to keep for when more bytes arrive.
    pub fn remainder(&self) -> &'a [u8] {
        self.inner.remainder()
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        let options = self.options;
        self.inner.next().map(|raw| raw.and_then(|raw| raw.decode(options)))
    }
}

impl FusedIterator for Frames<'_> {}

/// The iterator of [`raw_frames`].
#[derive(Clone, Debug)]
pub struct RawFrames<'a> {
    buf: &'a [u8],
    pos: usize,
    prefix: LengthPrefix,
    done: bool,
}

impl<'a> RawFrames<'a> {
    /// Offset in the buffer where the next frame starts.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes from [`position`](Self::position) on.
    pub fn remainder(&self) -> &'a [u8] {
        self.buf.get(self.pos..).unwrap_or(&[])
    }
}

impl<'a> Iterator for RawFrames<'a> {
    type Item = Result<RawFrame<'a>, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let rest = self.remainder();
        if rest.is_empty() {
            self.done = true;
            return None;
        }
        let offset = u64::try_from(self.pos).unwrap_or(u64::MAX);
        match split(rest, offset, self.prefix) {
            Ok(raw) => {
                // Within the buffer: cannot overflow.
                self.pos = self.pos.saturating_add(raw.raw_bytes().len());
                Some(Ok(raw))
            }
            Err(error) => {
                self.done = true;
                Some(Err(error))
            }
        }
    }
}

impl FusedIterator for RawFrames<'_> {}
