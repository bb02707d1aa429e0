//! [`scan`]: the frames of a buffer that may be damaged, going on past every bad frame.

use core::iter::FusedIterator;

use super::error::{FrameError, FrameErrorKind};
use super::frame::{Frame, split};
use super::prefix::LengthPrefix;
use crate::Options;

/// Bytes of a buffer that held no good frame: the first error met there, and the extent of the
/// stretch, from the bad frame's first byte to where the next good frame starts (or to the
/// end of the buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The problem with the first frame of the stretch (its offset is the stretch's start).
    pub error: FrameError,
    /// Length of the stretch in bytes.
    pub len: u64,
}

/// Iterates over the frames of `buf` like [`frames`](super::frames), but goes on past every
/// bad frame: a frame whose value is refused is skipped by its length (as Godot's `get_var`
/// does); after a prefix that no frame can follow ([`FrameErrorKind::TooLarge`],
/// [`FrameErrorKind::NegativeLength`], or [`FrameErrorKind::Incomplete`] before the end of the
/// buffer), scanning resumes at the next offset where a good frame starts, found with
/// [`resync`]. Each bad stretch is yielded once, as [`Skipped`], and every good frame after it
/// is still yielded.
///
/// Good frames cost what they cost with [`frames`](super::frames); finding the next good frame
/// after a bad prefix tries each offset in turn (see [`resync`]).
///
/// ```
/// use gdvariant::framing::{self, FrameErrorKind, LengthPrefix};
/// use gdvariant::Options;
///
/// // Godot 4.6: FileAccess.store_var(v) for 11 values; damage the first frame's prefix.
/// let mut dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin").to_vec();
/// dump[3] = 0x7f;
/// let mut scan = framing::scan(&dump, LengthPrefix::store_var(false), Options::godot4());
/// let skipped = scan.next().unwrap().unwrap_err();
/// assert!(matches!(skipped.error.kind(), FrameErrorKind::TooLarge { .. }));
/// assert_eq!(skipped.len, 12); // the first frame
/// assert_eq!(scan.filter(|f| f.is_ok()).count(), 10);
/// ```
pub fn scan(buf: &[u8], prefix: LengthPrefix, options: Options) -> Scan<'_> {
    Scan { buf, pos: 0, prefix, options }
}

/// The iterator of [`scan`].
#[derive(Clone, Debug)]
pub struct Scan<'a> {
    buf: &'a [u8],
    pos: usize,
    prefix: LengthPrefix,
    options: Options,
}

impl Scan<'_> {
    /// Offset in the buffer where the next frame (or stretch) starts.
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Scan<'a> {
    type Item = Result<Frame<'a>, Skipped>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.buf.get(self.pos..).filter(|rest| !rest.is_empty())?;
        let offset = u64::try_from(self.pos).unwrap_or(u64::MAX);
        let len = |from: usize, to: usize| u64::try_from(to.saturating_sub(from)).unwrap_or(0);
        match split(rest, offset, self.prefix) {
            Ok(raw) => {
                let start = self.pos;
                self.pos = self.pos.saturating_add(raw.raw_bytes().len());
                Some(
                    raw.decode(self.options)
                        .map_err(|error| Skipped { error, len: len(start, self.pos) }),
                )
            }
            Err(error) => {
                let start = self.pos;
                let from = start.saturating_add(1);
                self.pos =
                    resync(self.buf, from, self.prefix, self.options).unwrap_or(self.buf.len());
                Some(Err(Skipped { error, len: len(start, self.pos) }))
            }
        }
    }
}

impl FusedIterator for Scan<'_> {}

/// The first offset at or after `from` where a good frame starts in `buf`: its prefix is
/// sound, its payload complete and exactly one value that Godot decodes (no trailing bytes, as
/// Godot writes frames), and what follows it is either the end of `buf` or another complete
/// frame. These conditions keep stray bytes inside a damaged stretch (the inside of a
/// container, say) from being taken for a frame. `None` when there is none.
///
/// Tries each offset in turn: O(bytes passed over), times the size of the frames tried at each
/// (a candidate's value is checked only when its prefix and payload fit). Damaged data can
/// still contain bytes that happen to form two frames; the frames after a resynchronisation
/// are as trustworthy as the damage allows.
pub fn resync(buf: &[u8], from: usize, prefix: LengthPrefix, options: Options) -> Option<usize> {
    let mut at = from;
    while at < buf.len() {
        let rest = buf.get(at..)?;
        let offset = u64::try_from(at).unwrap_or(u64::MAX);
        if let Ok(raw) = split(rest, offset, prefix) {
            let next = rest.get(raw.raw_bytes().len()..).unwrap_or(&[]);
            let followed = next.is_empty()
                || !matches!(
                    split(next, 0, prefix).map_err(|e| e.kind()),
                    Err(FrameErrorKind::Incomplete { .. }
                        | FrameErrorKind::TooLarge { .. }
                        | FrameErrorKind::NegativeLength { .. })
                );
            let exact = |frame: Frame<'_>| frame.trailing_bytes().is_empty();
            if followed && raw.decode(options).is_ok_and(exact) {
                return Some(at);
            }
        }
        at = at.saturating_add(1);
    }
    None
}
