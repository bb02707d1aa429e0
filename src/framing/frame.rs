//! [`RawFrame`] (a frame cut out of its input, value not looked at) and [`Frame`] (a frame whose
//! value Godot would decode), and the one function that cuts a frame out of bytes.

use core::fmt;

use super::error::{FrameError, FrameErrorKind};
use super::prefix::{LengthPrefix, PREFIX_LEN};
use crate::view::walk::{Mode, walk_depth};
use crate::{Options, VariantRef, VariantType, view::Element};

/// A complete frame, its value not yet checked: where it starts, its length prefix and its
/// payload. Made in O(1) by [`split_frame`](super::split_frame),
/// [`raw_frames`](super::raw_frames) and [`FrameReader::next_raw`](super::FrameReader::next_raw);
/// [`decode`](Self::decode) checks the value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RawFrame<'a> {
    offset: u64,
    /// Prefix and payload.
    bytes: &'a [u8],
}

impl<'a> RawFrame<'a> {
    /// Absolute offset of the frame's length prefix in the buffer or stream.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Absolute offset of the payload (`offset() + 4`).
    pub fn payload_offset(&self) -> u64 {
        self.offset.saturating_add(PREFIX_LEN as u64)
    }

    /// The same frame with its offset moved `by` bytes further, for a frame cut out of a buffer
    /// that starts `by` bytes into a stream. O(1); saturates instead of overflowing.
    pub fn offset_by(self, by: u64) -> Self {
        RawFrame { offset: self.offset.saturating_add(by), ..self }
    }

    /// The payload: all the bytes the length prefix declares (the value, then any trailing
    /// bytes Godot ignores).
    pub fn payload(&self) -> &'a [u8] {
        self.bytes.get(PREFIX_LEN..).unwrap_or(&[])
    }

    /// The whole frame as it was in the input: prefix, then payload. Forwarding these bytes
    /// reproduces the frame exactly.
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Checks the payload as Godot's `get_var` does (a full decode, without building
    /// anything): one pass over the value, O(payload), no allocation.
    ///
    /// # Errors
    /// [`FrameErrorKind::Value`] with the decoding error, its offset made absolute (payload
    /// offset + offset in the payload, saturating at `usize::MAX`). An empty payload fails
    /// like any value shorter than its 4-byte header, as in Godot.
    pub fn decode(self, options: Options) -> Result<Frame<'a>, FrameError> {
        let payload = self.payload();
        // The walk behind `crate::validate`; it also returns where the value ends.
        let (end, depth) = walk_depth(payload, 0, options, 0, Mode::Validate).map_err(|error| {
            let base = usize::try_from(self.payload_offset()).unwrap_or(usize::MAX);
            FrameError::new(self.offset, FrameErrorKind::Value(error.offset_by(base)))
        })?;
        Ok(Frame { raw: self, element: Element::new(payload, 0, end, options, 0), depth })
    }
}

impl fmt::Debug for RawFrame<'_> {
    /// The offset and the payload length; not the bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawFrame")
            .field("offset", &self.offset)
            .field("payload_len", &self.payload().len())
            .finish()
    }
}

/// A complete frame whose value Godot's `get_var` would decode: where it starts, its bytes, and
/// its value as a lazy [`VariantRef`] borrowing the payload.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    raw: RawFrame<'a>,
    element: Element<'a>,
    /// Nesting depth of the value, found by the check.
    depth: u16,
}

impl<'a> Frame<'a> {
    /// Absolute offset of the frame's length prefix in the buffer or stream.
    pub fn offset(&self) -> u64 {
        self.raw.offset()
    }

    /// Absolute offset of the payload (`offset() + 4`).
    pub fn payload_offset(&self) -> u64 {
        self.raw.payload_offset()
    }

    /// The payload: all the bytes the length prefix declares, the value first.
    pub fn payload(&self) -> &'a [u8] {
        self.raw.payload()
    }

    /// The whole frame as it was in the input: prefix, then payload.
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.raw.raw_bytes()
    }

    /// The value. O(1): it was checked when the frame was read.
    pub fn value(&self) -> VariantRef<'a> {
        self.element.value()
    }

    /// The value's type. O(1).
    pub fn variant_type(&self) -> VariantType {
        self.element.variant_type()
    }

    /// The value as an [`Element`] of the payload: its offsets count from the payload's start
    /// (the value is at 0), and [`Element::raw_bytes`] is the value without the payload's
    /// trailing bytes.
    pub fn element(&self) -> Element<'a> {
        self.element
    }

    /// Bytes of the payload after the value (a length prefix longer than the value); Godot
    /// ignores them.
    pub fn trailing_bytes(&self) -> &'a [u8] {
        self.payload().get(self.element.len()..).unwrap_or(&[])
    }

    /// The value's nesting depth, found when the frame was checked: 0 for a value that is not a
    /// container, 1 for an array, dictionary or full object (empty or not) that holds no
    /// container, and one more per level of containers inside. O(1).
    pub fn depth(&self) -> u16 {
        self.depth
    }

    /// The frame without its checked value.
    pub fn raw(&self) -> RawFrame<'a> {
        self.raw
    }

    /// Bytes the frame occupies, prefix included (`raw_bytes().len()`). O(1).
    pub fn len(&self) -> usize {
        self.raw.bytes.len()
    }

    /// Always `false`: a frame has at least its 4-byte prefix and a value.
    pub fn is_empty(&self) -> bool {
        self.raw.bytes.is_empty()
    }

    /// The same frame with its offset moved `by` bytes further (the value's [`Element`] keeps
    /// counting from the payload's start). O(1); saturates instead of overflowing.
    pub fn offset_by(self, by: u64) -> Self {
        Frame { raw: self.raw.offset_by(by), ..self }
    }
}

impl fmt::Debug for Frame<'_> {
    /// The offset, payload length and value type; not the bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Frame")
            .field("offset", &self.offset())
            .field("payload_len", &self.payload().len())
            .field("type", &self.variant_type())
            .finish()
    }
}

/// Cuts the frame at the start of `bytes`, which sit at absolute `offset`. O(1).
///
/// Checks in order: 4 prefix bytes present, the length's sign (signed prefixes), the length
/// against the limit, the payload present.
pub(crate) fn split(
    bytes: &[u8],
    offset: u64,
    prefix: LengthPrefix,
) -> Result<RawFrame<'_>, FrameError> {
    let error = |kind| FrameError::new(offset, kind);
    let incomplete = |total: usize| {
        error(FrameErrorKind::Incomplete { needed: total.saturating_sub(bytes.len()) })
    };
    let head: [u8; PREFIX_LEN] = bytes
        .get(..PREFIX_LEN)
        .and_then(|head| head.try_into().ok())
        .ok_or_else(|| incomplete(PREFIX_LEN))?;
    let len = prefix.decode(head).map_err(error)?;
    let total = PREFIX_LEN.checked_add(len).ok_or_else(|| {
        error(FrameErrorKind::TooLarge {
            length: u64::try_from(len).unwrap_or(u64::MAX),
            max: prefix.max_frame_size(),
        })
    })?;
    let frame = bytes.get(..total).ok_or_else(|| incomplete(total))?;
    Ok(RawFrame { offset, bytes: frame })
}

/// A frame already known to be complete: `bytes` is its prefix and payload.
#[cfg(feature = "std")]
pub(crate) fn raw_frame(bytes: &[u8], offset: u64) -> RawFrame<'_> {
    RawFrame { offset, bytes }
}
