//! Building a value straight into a frame: the length prefix is reserved, the [`Writer`] writes
//! the value after it, and the prefix is patched once the length is known. No second buffer, no
//! copy.

use core::fmt;

use super::error::{FrameError, FrameErrorKind};
use super::prefix::{LengthPrefix, PREFIX_LEN};
use crate::{EncodeOptions, Writer, encoder::EncodeError, encoder::SliceOutput};

/// Why a frame could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The value could not be written (see [`EncodeError`]).
    Encode(EncodeError),
    /// The frame does not fit: a payload over [`LengthPrefix::max_frame_size`]
    /// ([`FrameErrorKind::TooLarge`]) or an output too small ([`FrameErrorKind::OutputFull`]).
    Frame(FrameError),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Encode(error) => write!(f, "cannot encode the value: {error}"),
            WriteError::Frame(error) => error.fmt(f),
        }
    }
}

impl core::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            WriteError::Encode(error) => Some(error),
            WriteError::Frame(error) => Some(error),
        }
    }
}

impl From<EncodeError> for WriteError {
    fn from(error: EncodeError) -> Self {
        WriteError::Encode(error)
    }
}

impl From<FrameError> for WriteError {
    fn from(error: FrameError) -> Self {
        WriteError::Frame(error)
    }
}

/// Appends one frame to `out` whose value `build` writes with a [`Writer`] straight after the
/// reserved length prefix; returns the frame's length (prefix included). O(bytes written); the
/// writer's bookkeeping is 8 KiB of stack; `out` grows as a `Vec` does.
///
/// ```
/// use gdvariant::framing::{self, LengthPrefix};
/// use gdvariant::{EncodeOptions, Options};
///
/// let mut out = Vec::new();
/// let len = framing::append_frame_with(&mut out, LengthPrefix::stream_peer(false), EncodeOptions::godot4(), |w| {
///     w.begin_dictionary(1)?;
///     w.string("hp")?;
///     w.int(90)
/// })?;
/// assert_eq!(len, out.len());
/// let (frame, _) = framing::read_frame(&out, LengthPrefix::stream_peer(false), Options::godot4())?;
/// assert_eq!(frame.value().as_dictionary().unwrap().get_as::<i64>("hp")?, Some(90));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`WriteError::Encode`] from the writer or from [`Writer::finish`] (an unfinished value);
/// [`WriteError::Frame`] with [`FrameErrorKind::TooLarge`] when the value exceeds
/// [`LengthPrefix::max_frame_size`] (offset: where the frame would have started). `out` is left
/// as it was.
#[cfg(feature = "alloc")]
pub fn append_frame_with<F>(
    out: &mut alloc::vec::Vec<u8>,
    prefix: LengthPrefix,
    options: EncodeOptions,
    build: F,
) -> Result<usize, WriteError>
where
    F: FnOnce(&mut Writer<&mut alloc::vec::Vec<u8>>) -> Result<(), EncodeError>,
{
    let start = out.len();
    out.extend_from_slice(&[0; PREFIX_LEN]);
    let built = {
        let mut writer = Writer::new(&mut *out, options);
        build(&mut writer).and_then(|()| writer.finish().map(|_| ()))
    };
    let result = built.map_err(WriteError::from).and_then(|()| {
        let payload = out.len().saturating_sub(start).saturating_sub(PREFIX_LEN);
        let at = u64::try_from(start).unwrap_or(u64::MAX);
        let head = prefix.encode(payload).map_err(|e| e.offset_by(at))?;
        let slot = out.get_mut(start..).and_then(|rest| rest.get_mut(..PREFIX_LEN));
        if let Some(slot) = slot {
            slot.copy_from_slice(&head);
        }
        Ok(payload.saturating_add(PREFIX_LEN))
    });
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Writes one frame at the start of `out` whose value `build` writes with a [`Writer`] straight
/// after the reserved length prefix; returns the frame's length. O(bytes written), no
/// allocation.
///
/// # Errors
/// As [`append_frame_with`]; a full output is [`WriteError::Encode`] with
/// [`EncodeError::OutputFull`] (or [`FrameErrorKind::OutputFull`] when not even the prefix
/// fits). The bytes of `out` after an error are unspecified.
pub fn write_frame_with<F>(
    out: &mut [u8],
    prefix: LengthPrefix,
    options: EncodeOptions,
    build: F,
) -> Result<usize, WriteError>
where
    F: FnOnce(&mut Writer<SliceOutput<'_>>) -> Result<(), EncodeError>,
{
    let available = out.len();
    if available < PREFIX_LEN {
        let kind = FrameErrorKind::OutputFull { needed: PREFIX_LEN, available };
        return Err(WriteError::Frame(FrameError::new(0, kind)));
    }
    let (head, body) = out.split_at_mut(PREFIX_LEN);
    let mut writer = Writer::new(SliceOutput::new(body), options);
    build(&mut writer)?;
    let payload = writer.finish()?.into_bytes().len();
    head.copy_from_slice(&prefix.encode(payload)?);
    Ok(payload.saturating_add(PREFIX_LEN))
}
