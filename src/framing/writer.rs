//! [`FrameWriter`]: frames written to a `std::io::Write`.

use std::io::Write;

use super::error::{FrameError, FrameErrorKind};
use super::prefix::LengthPrefix;

/// Writes frames (length prefix + already encoded value) to a [`Write`], as `store_var` /
/// `put_var` do. Each frame is two `write_all` calls (prefix, then payload): wrap an unbuffered
/// writer such as a `TcpStream` or `File` in a `BufWriter`.
///
/// ```
/// use gdvariant::framing::{FrameWriter, LengthPrefix};
///
/// // Godot 4.6: var_to_bytes(42) and var_to_bytes("abcde")
/// let int = include_bytes!("../../corpus/godot4/int_42.bin");
/// let text = include_bytes!("../../corpus/godot4/string_len5.bin");
///
/// let mut writer = FrameWriter::new(Vec::new(), LengthPrefix::store_var(false));
/// writer.write_frame(int)?;
/// writer.write_frame(text)?;
/// assert_eq!(writer.position(), 4 + 8 + 4 + 16);
/// let bytes = writer.into_inner();
/// assert_eq!(&bytes[..4], &[8, 0, 0, 0]);
/// # Ok::<(), gdvariant::framing::FrameError>(())
/// ```
#[derive(Debug)]
pub struct FrameWriter<W> {
    inner: W,
    prefix: LengthPrefix,
    position: u64,
}

impl<W: Write> FrameWriter<W> {
    /// Frames written to `inner` with `prefix`.
    pub fn new(inner: W, prefix: LengthPrefix) -> Self {
        FrameWriter { inner, prefix, position: 0 }
    }

    /// Writes one frame: the length prefix, then `payload` as given (it is not checked).
    /// O(payload).
    ///
    /// # Errors
    /// [`FrameErrorKind::TooLarge`] when the payload exceeds
    /// [`LengthPrefix::max_frame_size`] (nothing is written); [`FrameErrorKind::Io`] when the
    /// writer fails (`Interrupted` is retried), after which part of the frame may have been
    /// written. The error's offset is where the frame starts in the output.
    pub fn write_frame(&mut self, payload: &[u8]) -> Result<(), FrameError> {
        let at = self.position;
        let head = self.prefix.encode(payload.len()).map_err(|e| e.offset_by(at))?;
        let io = |e: std::io::Error| FrameError::new(at, FrameErrorKind::Io(e.kind()));
        self.inner.write_all(&head).map_err(io)?;
        self.inner.write_all(payload).map_err(io)?;
        let written = u64::try_from(payload.len()).unwrap_or(u64::MAX).saturating_add(4);
        self.position = self.position.saturating_add(written);
        Ok(())
    }

    /// Flushes the inner writer.
    ///
    /// # Errors
    /// [`FrameErrorKind::Io`] from the inner writer, at offset [`position`](Self::position).
    pub fn flush(&mut self) -> Result<(), FrameError> {
        let at = self.position;
        self.inner.flush().map_err(|e| FrameError::new(at, FrameErrorKind::Io(e.kind())))
    }

    /// Bytes written by complete frames so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The prefix frames are written with.
    pub fn prefix(&self) -> LengthPrefix {
        self.prefix
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The inner writer, mutably (writing to it directly puts bytes between frames).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// The inner writer, unflushed.
    pub fn into_inner(self) -> W {
        self.inner
    }
}
