//! Writing frames into memory: a fixed slice, or a `Vec` (feature `alloc`).

use super::error::{FrameError, FrameErrorKind};
use super::prefix::{LengthPrefix, PREFIX_LEN};

/// Bytes a frame with a payload of `payload_len` bytes occupies (`payload_len + 4`); `None` on
/// overflow.
pub const fn frame_len(payload_len: usize) -> Option<usize> {
    payload_len.checked_add(PREFIX_LEN)
}

/// Writes `payload` (an already encoded value) with its length prefix at the start of `out`, as
/// `store_var` / `put_var` do; returns the bytes written (`payload.len() + 4`). O(payload).
///
/// The payload is not checked: it is written as given. (A Godot reader cannot decode an empty
/// payload.)
///
/// ```
/// use gdvariant::framing::{self, LengthPrefix};
///
/// // Godot 4.6: var_to_bytes(42)
/// let value = include_bytes!("../../corpus/godot4/int_42.bin");
/// let mut out = [0u8; 16];
/// let n = framing::write_frame(&mut out, LengthPrefix::store_var(true), value)?;
/// assert_eq!(&out[..n], &[0, 0, 0, 8, 2, 0, 0, 0, 42, 0, 0, 0]);
///
/// let error = framing::write_frame(&mut out[..11], LengthPrefix::store_var(true), value);
/// assert!(error.is_err()); // nothing written
/// # Ok::<(), framing::FrameError>(())
/// ```
///
/// # Errors
/// [`FrameErrorKind::TooLarge`] when the payload exceeds
/// [`LengthPrefix::max_frame_size`]; [`FrameErrorKind::OutputFull`] when `out` is shorter than
/// the frame. Nothing is written then. The error's offset is 0.
pub fn write_frame(
    out: &mut [u8],
    prefix: LengthPrefix,
    payload: &[u8],
) -> Result<usize, FrameError> {
    let head = prefix.encode(payload.len())?;
    let available = out.len();
    let full = |needed| FrameError::new(0, FrameErrorKind::OutputFull { needed, available });
    let total = frame_len(payload.len()).ok_or_else(|| full(usize::MAX))?;
    let frame = out.get_mut(..total).ok_or_else(|| full(total))?;
    let (head_out, payload_out) = frame.split_at_mut(PREFIX_LEN.min(total));
    head_out.copy_from_slice(&head);
    payload_out.copy_from_slice(payload);
    Ok(total)
}

/// Appends `payload` (an already encoded value) with its length prefix to `out`. O(payload).
///
/// The payload is not checked: it is written as given.
///
/// ```
/// use gdvariant::framing::{self, LengthPrefix};
///
/// // Godot 4.6: var_to_bytes(42), then a StreamPeer.put_var frame of it.
/// let value = include_bytes!("../../corpus/godot4/int_42.bin");
/// let mut out = Vec::new();
/// framing::append_frame(&mut out, LengthPrefix::stream_peer(false), value)?;
/// assert_eq!(out, [8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0]);
/// # Ok::<(), framing::FrameError>(())
/// ```
///
/// # Errors
/// [`FrameErrorKind::TooLarge`] when the payload exceeds [`LengthPrefix::max_frame_size`]
/// (`out` is left unchanged); the error's offset is `out.len()`.
#[cfg(feature = "alloc")]
pub fn append_frame(
    out: &mut alloc::vec::Vec<u8>,
    prefix: LengthPrefix,
    payload: &[u8],
) -> Result<(), FrameError> {
    let at = u64::try_from(out.len()).unwrap_or(u64::MAX);
    let head = prefix.encode(payload.len()).map_err(|e| e.offset_by(at))?;
    out.reserve(payload.len().saturating_add(PREFIX_LEN));
    out.extend_from_slice(&head);
    out.extend_from_slice(payload);
    Ok(())
}
