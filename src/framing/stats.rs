//! [`FrameStats`]: what a dump holds, gathered frame by frame in O(1) memory.

use super::frame::Frame;
use crate::{VariantType, Version};

/// How many of the largest frames [`FrameStats`] keeps.
pub const LARGEST_KEPT: usize = 5;

/// Types by Godot 4 id (every type has one).
const TYPES: usize = 39;

/// One frame, summarised: where it is, how big, what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameSummary {
    /// Absolute offset of the frame's length prefix.
    pub offset: u64,
    /// Bytes of the frame, prefix included.
    pub len: u64,
    /// The value's type.
    pub variant_type: VariantType,
    /// The value's nesting depth ([`Frame::depth`]).
    pub depth: u16,
}

impl FrameSummary {
    /// The summary of `frame`. O(1).
    pub fn of(frame: &Frame<'_>) -> Self {
        FrameSummary {
            offset: frame.offset(),
            len: u64::try_from(frame.raw_bytes().len()).unwrap_or(u64::MAX),
            variant_type: frame.variant_type(),
            depth: frame.depth(),
        }
    }
}

/// Counts for one value type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TypeCount {
    /// Frames whose value has this type.
    pub frames: u64,
    /// Bytes of those frames, prefixes included.
    pub bytes: u64,
}

/// Statistics over the frames of a dump or stream: counts and bytes per value type, the
/// largest frames, the deepest value, and the bad frames and bytes skipped. Fixed size (about
/// 1 KiB, no allocation); each [`add`](Self::add) is O(1).
///
/// ```
/// use gdvariant::framing::{self, FrameStats, LengthPrefix};
/// use gdvariant::{Options, VariantType};
///
/// // Godot 4.6: FileAccess.store_var(v) for 11 values.
/// let dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin");
/// let mut stats = FrameStats::new();
/// for frame in framing::frames(dump, LengthPrefix::store_var(false), Options::godot4()) {
///     stats.add(&frame?);
/// }
/// assert_eq!(stats.frames(), 11);
/// assert_eq!(stats.bytes(), dump.len() as u64);
/// assert_eq!(stats.count(VariantType::Int).frames, 2);
/// let largest = stats.largest().next().unwrap();
/// assert!(stats.largest().all(|f| f.len <= largest.len));
/// # Ok::<(), framing::FrameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameStats {
    frames: u64,
    bytes: u64,
    bad_frames: u64,
    bad_bytes: u64,
    by_type: [TypeCount; TYPES],
    /// The largest frames, largest first; ties keep the earlier frame first.
    largest: [Option<FrameSummary>; LARGEST_KEPT],
    deepest: Option<FrameSummary>,
}

impl Default for FrameStats {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameStats {
    /// No frames yet.
    pub const fn new() -> Self {
        FrameStats {
            frames: 0,
            bytes: 0,
            bad_frames: 0,
            bad_bytes: 0,
            by_type: [TypeCount { frames: 0, bytes: 0 }; TYPES],
            largest: [None; LARGEST_KEPT],
            deepest: None,
        }
    }

    /// Counts a good frame. O(1).
    pub fn add(&mut self, frame: &Frame<'_>) {
        self.add_summary(FrameSummary::of(frame));
    }

    /// Counts a good frame from its summary. O(1).
    pub fn add_summary(&mut self, summary: FrameSummary) {
        self.frames = self.frames.saturating_add(1);
        self.bytes = self.bytes.saturating_add(summary.len);
        let index = usize::from(summary.variant_type.id(Version::Godot4).unwrap_or(0));
        if let Some(count) = self.by_type.get_mut(index) {
            count.frames = count.frames.saturating_add(1);
            count.bytes = count.bytes.saturating_add(summary.len);
        }
        if self.deepest.is_none_or(|deepest| summary.depth > deepest.depth) {
            self.deepest = Some(summary);
        }
        // Insert into the largest frames, keeping them sorted.
        let mut carried = Some(summary);
        for slot in &mut self.largest {
            let Some(candidate) = carried else { break };
            match slot {
                Some(kept) if kept.len >= candidate.len => {}
                _ => carried = slot.replace(candidate),
            }
        }
    }

    /// Counts a bad frame, or a stretch of bytes that held no readable frame, of `len` bytes.
    pub fn add_bad(&mut self, len: u64) {
        self.bad_frames = self.bad_frames.saturating_add(1);
        self.bad_bytes = self.bad_bytes.saturating_add(len);
    }

    /// Good frames counted.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Bytes of the good frames, prefixes included.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Bad frames (or unreadable stretches) counted.
    pub fn bad_frames(&self) -> u64 {
        self.bad_frames
    }

    /// Bytes of the bad frames and unreadable stretches.
    pub fn bad_bytes(&self) -> u64 {
        self.bad_bytes
    }

    /// Frames and bytes whose value has type `ty`.
    pub fn count(&self, ty: VariantType) -> TypeCount {
        let index = usize::from(ty.id(Version::Godot4).unwrap_or(0));
        self.by_type.get(index).copied().unwrap_or_default()
    }

    /// The types met at least once, with their counts, in Godot 4's type order.
    pub fn by_type(&self) -> impl Iterator<Item = (VariantType, TypeCount)> + '_ {
        self.by_type.iter().zip(0u32..).filter(|(count, _)| count.frames > 0).filter_map(
            |(count, id)| VariantType::from_id(Version::Godot4, id).map(|ty| (ty, *count)),
        )
    }

    /// The largest good frames (at most [`LARGEST_KEPT`]), largest first; of equal sizes, the
    /// earliest first.
    pub fn largest(&self) -> impl Iterator<Item = FrameSummary> + '_ {
        self.largest.iter().flatten().copied()
    }

    /// The first of the deepest good frames, if any.
    pub fn deepest(&self) -> Option<FrameSummary> {
        self.deepest
    }
}
