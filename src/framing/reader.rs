//! [`FrameReader`]: frames read one at a time from a `std::io::Read`, for inputs larger than
//! memory and for sockets.

use std::io::{ErrorKind, Read};
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::frame::{Frame, RawFrame, raw_frame};
use super::prefix::{LengthPrefix, PREFIX_LEN};
use crate::Options;

/// The buffer grows by at least this much at a time (and at most doubles), so that a length
/// prefix costs memory only as its payload actually arrives.
const MIN_GROWTH: usize = 8 << 10;

/// Reads frames one at a time from a [`Read`], into one internal buffer that holds the current
/// frame (prefix and payload) and is reused for the next.
///
/// * **Memory**: the buffer grows with the bytes that actually arrive (at most doubling), never
///   from the length prefix alone, and never beyond [`LengthPrefix::max_frame_size`] + 4 bytes.
///   A prefix over the limit is refused before its payload is read.
/// * **No read-ahead**: the reader asks the inner reader for the bytes of the current frame
///   only, so after each frame the inner reader sits at the next frame's first byte
///   ([`into_inner`](Self::into_inner) hands it back there). Each frame takes at least two
///   reads: wrap an unbuffered file in a `BufReader`.
/// * **End of input**: exactly between frames, iteration ends (`None`); inside a frame, it yields
///   [`FrameErrorKind::Incomplete`] with the number of missing bytes, then ends.
/// * **I/O errors**: `Interrupted` is retried; any other error is yielded as
///   [`FrameErrorKind::Io`] and the bytes read so far are kept, so calling again resumes the
///   frame where it stopped (`WouldBlock` on a non-blocking socket is safe).
/// * **Bad frames**: a value Godot would refuse yields [`FrameErrorKind::Value`] and the next call
///   reads the next frame; [`FrameErrorKind::NegativeLength`] and [`FrameErrorKind::TooLarge`]
///   end the iteration (the position of the next frame is unknown).
///
/// Offsets count from the position of the inner reader when the `FrameReader` was created.
///
/// ```
/// use gdvariant::framing::{FrameReader, LengthPrefix};
/// use gdvariant::Options;
///
/// // Godot 3.2.3: StreamPeerBuffer.put_var(v) for 10 values; any `Read` works (a file, a socket).
/// let stream = &include_bytes!("../../corpus/godot3/stream_streampeer_put_var.bin")[..];
/// let mut reader = FrameReader::new(stream, LengthPrefix::stream_peer(false), Options::godot3());
///
/// let mut ints = Vec::new();
/// while let Some(frame) = reader.next_frame() {
///     let frame = frame?;
///     ints.extend(frame.value().as_int());
/// }
/// assert_eq!(ints, [1, 4294967296]);
/// assert_eq!(reader.position(), 216);
/// # Ok::<(), gdvariant::framing::FrameError>(())
/// ```
pub struct FrameReader<R> {
    inner: R,
    prefix: LengthPrefix,
    options: Options,
    /// Initialised bytes; the current frame's are `buf[..filled]`.
    buf: Vec<u8>,
    filled: usize,
    /// Stream offset of the current frame's first byte.
    start: u64,
    state: State,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Reading the frame at `start` (`filled` bytes of it so far).
    Reading,
    /// The frame at `start` was handed out; the next call moves past it.
    Yielded,
    /// The input ended or a prefix was refused.
    Done,
}

impl<R: Read> FrameReader<R> {
    /// Frames of `inner` with `prefix`, values checked with `options`.
    pub fn new(inner: R, prefix: LengthPrefix, options: Options) -> Self {
        FrameReader {
            inner,
            prefix,
            options,
            buf: Vec::new(),
            filled: 0,
            start: 0,
            state: State::Reading,
        }
    }

    /// Reads the next frame and checks its value as Godot's `get_var` does. O(frame): the reads,
    /// then one pass over the value. `None` when the input ended between frames, or after an
    /// error that ends the iteration.
    ///
    /// The frame borrows the reader's buffer until the next call.
    ///
    /// # Errors
    /// [`FrameErrorKind::Incomplete`], [`FrameErrorKind::TooLarge`],
    /// [`FrameErrorKind::NegativeLength`], [`FrameErrorKind::Io`] and [`FrameErrorKind::Value`]
    /// (its inner offset absolute in the stream), as described on [`FrameReader`].
    pub fn next_frame(&mut self) -> Option<Result<Frame<'_>, FrameError>> {
        let options = self.options;
        self.next_raw().map(|raw| raw.and_then(|raw| raw.decode(options)))
    }

    /// Reads the next frame without looking at its value (a relay that forwards frames
    /// unchanged, or checks them later with [`RawFrame::decode`]). O(frame) for the reads.
    ///
    /// # Errors
    /// As [`next_frame`](Self::next_frame), without [`FrameErrorKind::Value`].
    pub fn next_raw(&mut self) -> Option<Result<RawFrame<'_>, FrameError>> {
        match self.advance()? {
            Ok(()) => Some(Ok(raw_frame(self.buf.get(..self.filled).unwrap_or(&[]), self.start))),
            Err(error) => Some(Err(error)),
        }
    }

    /// Brings the next frame whole into `buf[..filled]`.
    fn advance(&mut self) -> Option<Result<(), FrameError>> {
        match self.state {
            State::Done => return None,
            State::Yielded => {
                let len = u64::try_from(self.filled).unwrap_or(u64::MAX);
                self.start = self.start.saturating_add(len);
                self.filled = 0;
                self.state = State::Reading;
            }
            State::Reading => {}
        }
        let start = self.start;
        let error = |kind| Some(Err(FrameError::new(start, kind)));
        match self.fill_to(PREFIX_LEN) {
            Ok(true) => {}
            Ok(false) if self.filled == 0 => {
                self.state = State::Done;
                return None;
            }
            Ok(false) => return self.end_incomplete(PREFIX_LEN),
            Err(kind) => return error(FrameErrorKind::Io(kind)),
        }
        let head: [u8; PREFIX_LEN] =
            match self.buf.get(..PREFIX_LEN).and_then(|head| head.try_into().ok()) {
                Some(head) => head,
                None => return self.end_incomplete(PREFIX_LEN),
            };
        let total = match self.prefix.decode(head) {
            Ok(len) => len.checked_add(PREFIX_LEN).ok_or(FrameErrorKind::TooLarge {
                length: u64::try_from(len).unwrap_or(u64::MAX),
                max: self.prefix.max_frame_size(),
            }),
            Err(kind) => Err(kind),
        };
        let total = match total {
            Ok(total) => total,
            Err(kind) => {
                self.state = State::Done;
                return error(kind);
            }
        };
        match self.fill_to(total) {
            Ok(true) => {
                self.state = State::Yielded;
                Some(Ok(()))
            }
            Ok(false) => self.end_incomplete(total),
            Err(kind) => error(FrameErrorKind::Io(kind)),
        }
    }

    /// Ends the iteration on an input that stopped short of `total` bytes of the frame.
    fn end_incomplete(&mut self, total: usize) -> Option<Result<(), FrameError>> {
        self.state = State::Done;
        let needed = total.saturating_sub(self.filled);
        Some(Err(FrameError::new(self.start, FrameErrorKind::Incomplete { needed })))
    }

    /// Reads until the current frame has `target` bytes: `Ok(false)` if the input ends first.
    fn fill_to(&mut self, target: usize) -> Result<bool, ErrorKind> {
        while self.filled < target {
            if self.filled >= self.buf.len() {
                let grown = self
                    .filled
                    .saturating_mul(2)
                    .max(self.filled.saturating_add(MIN_GROWTH))
                    .min(target);
                self.buf.reserve_exact(grown.saturating_sub(self.buf.len()));
                self.buf.resize(grown, 0);
            }
            let end = self.buf.len().min(target);
            let Some(window) = self.buf.get_mut(self.filled..end) else {
                return Ok(false);
            };
            let room = window.len();
            match self.inner.read(window) {
                Ok(0) => return Ok(false),
                // `min`: a misbehaving reader may claim more than it was given room for.
                Ok(n) => self.filled = self.filled.saturating_add(n.min(room)),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.kind()),
            }
        }
        Ok(true)
    }

    /// Stream offset of the next byte to read: after a frame, where the next frame starts.
    pub fn position(&self) -> u64 {
        self.start.saturating_add(u64::try_from(self.filled).unwrap_or(u64::MAX))
    }

    /// Bytes the internal buffer has allocated. It grows only as bytes arrive: to at most twice
    /// the bytes received for the largest frame so far plus 8 KiB, and never beyond
    /// [`LengthPrefix::max_frame_size`] + 4.
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// The prefix frames are read with.
    pub fn prefix(&self) -> LengthPrefix {
        self.prefix
    }

    /// The options values are checked with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader, mutably (reading from it directly desynchronises the frames).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The inner reader, positioned after the last byte read: after a complete frame, at the
    /// next frame's first byte.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R> core::fmt::Debug for FrameReader<R> {
    /// The position and settings; not the buffer.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameReader")
            .field("frame_start", &self.start)
            .field("filled", &self.filled)
            .field("prefix", &self.prefix)
            .field("options", &self.options)
            .field("state", &self.state)
            .finish()
    }
}
