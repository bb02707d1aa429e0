//! [`FrameError`]: what stopped a frame, and where the frame starts.

use core::fmt;

use crate::Error;

/// A frame that could not be read or written, with the absolute offset of the frame's first
/// byte (its length prefix). Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameError {
    offset: u64,
    kind: FrameErrorKind,
}

/// What went wrong with a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// The input ends inside the frame. `needed` is the number of bytes still missing: to
    /// complete the 4-byte prefix when it is cut short (more may be needed for the payload),
    /// else to complete the payload.
    Incomplete {
        /// Bytes still missing.
        needed: usize,
    },
    /// The length prefix (or, when writing, the payload) is larger than
    /// [`LengthPrefix::max_frame_size`](super::LengthPrefix::max_frame_size).
    TooLarge {
        /// The length found (or the payload's length).
        length: u64,
        /// The limit.
        max: u32,
    },
    /// A signed prefix ([`LengthPrefix::stream_peer`](super::LengthPrefix::stream_peer)) holds
    /// a negative length; Godot's `StreamPeer.get_var` fails on it.
    NegativeLength {
        /// The length as read.
        length: i32,
    },
    /// The frame is complete but its value is not one Godot decodes. The inner error's offset is
    /// absolute, counted from the start of the buffer or stream (see
    /// [`Error::offset_by`]).
    Value(Error),
    /// The output slice is too small for the frame; nothing was written.
    OutputFull {
        /// Bytes the frame needs (prefix included).
        needed: usize,
        /// Bytes the output has.
        available: usize,
    },
    /// The underlying reader or writer failed.
    #[cfg(feature = "std")]
    Io(std::io::ErrorKind),
}

impl FrameError {
    /// An error of `kind` for the frame starting at absolute byte `offset`.
    pub const fn new(offset: u64, kind: FrameErrorKind) -> Self {
        FrameError { offset, kind }
    }

    /// Absolute offset of the frame's first byte (its length prefix) in the buffer or stream;
    /// for a writer, where the frame would have started in the output.
    pub const fn offset(&self) -> u64 {
        self.offset
    }

    /// What went wrong.
    pub const fn kind(&self) -> FrameErrorKind {
        self.kind
    }

    /// A short, stable name for logs and counters: `invalid_value`, `too_large`,
    /// `negative_length`, `incomplete` (the stream ended inside the frame), `io` or
    /// `output_full`. O(1).
    pub const fn reason(&self) -> &'static str {
        match self.kind {
            FrameErrorKind::Incomplete { .. } => "incomplete",
            FrameErrorKind::TooLarge { .. } => "too_large",
            FrameErrorKind::NegativeLength { .. } => "negative_length",
            FrameErrorKind::Value(_) => "invalid_value",
            FrameErrorKind::OutputFull { .. } => "output_full",
            #[cfg(feature = "std")]
            FrameErrorKind::Io(_) => "io",
        }
    }

    /// The same error with its offsets moved `by` bytes further (the frame's, and a
    /// [`FrameErrorKind::Value`] error's inner offset), for frames read out of a buffer that
    /// starts `by` bytes into a stream. Saturates instead of overflowing.
    pub fn offset_by(self, by: u64) -> Self {
        let kind = match self.kind {
            FrameErrorKind::Value(error) => {
                FrameErrorKind::Value(error.offset_by(usize::try_from(by).unwrap_or(usize::MAX)))
            }
            other => other,
        };
        FrameError { offset: self.offset.saturating_add(by), kind }
    }
}

impl fmt::Display for FrameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FrameErrorKind::Incomplete { needed } => {
                write!(f, "input ends {needed} bytes before the frame is complete")
            }
            FrameErrorKind::TooLarge { length, max } => {
                write!(f, "frame length {length} exceeds the limit of {max} bytes")
            }
            FrameErrorKind::NegativeLength { length } => {
                write!(f, "negative frame length {length}")
            }
            FrameErrorKind::Value(error) => write!(f, "invalid value: {error}"),
            FrameErrorKind::OutputFull { needed, available } => {
                write!(f, "frame needs {needed} bytes, the output has {available}")
            }
            #[cfg(feature = "std")]
            FrameErrorKind::Io(kind) => write!(f, "I/O error: {kind}"),
        }
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame at byte offset {}: {}", self.offset, self.kind)
    }
}

impl core::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            FrameErrorKind::Value(error) => Some(error),
            _ => None,
        }
    }
}

#[cfg(feature = "std")]
impl From<FrameError> for std::io::Error {
    /// I/O errors keep their kind; a frame cut short is `UnexpectedEof`; the rest are
    /// `InvalidData` (`WriteZero` for a full output), with the [`FrameError`] as the source.
    fn from(error: FrameError) -> Self {
        let kind = match error.kind {
            FrameErrorKind::Io(kind) => kind,
            FrameErrorKind::Incomplete { .. } => std::io::ErrorKind::UnexpectedEof,
            FrameErrorKind::OutputFull { .. } => std::io::ErrorKind::WriteZero,
            _ => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, error)
    }
}
