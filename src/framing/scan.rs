//! [`scan`]: the frames of a buffer that may be damaged, going on past every bad frame.

use core::iter::FusedIterator;

use super::error::{FrameError, FrameErrorKind};
use super::frame::{Frame, RawFrame, split};
use super::prefix::LengthPrefix;
use crate::Options;
use crate::wire::error::ErrorKind;
use crate::wire::work;

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
    Scan { raw: raw_scan(buf, prefix, options), options }
}

/// The iterator of [`scan`].
#[derive(Clone, Debug)]
pub struct Scan<'a> {
    raw: RawScan<'a>,
    options: Options,
}

impl Scan<'_> {
    /// Offset in the buffer where the next frame (or stretch) starts.
    pub fn position(&self) -> usize {
        self.raw.pos
    }
}

/// [`scan`] without checking the values of the frames it yields: each item is a frame whose
/// prefix is sound ([`RawFrame::decode`] checks its value, on any thread), or a stretch after
/// a prefix no frame can follow, found as [`scan`] finds it (the candidates' values are
/// checked there, within the same budget). The frames and stretches are those of [`scan`],
/// a frame [`scan`] refuses for its value being here a frame to decode. O(1) per frame; the
/// searches after bad prefixes O(n) in all, as in [`scan`].
///
/// ```
/// use gdvariant::framing::{self, LengthPrefix};
/// use gdvariant::Options;
///
/// let dump = include_bytes!("../../corpus/godot4/stream_file_store_var.bin");
/// let (prefix, options) = (LengthPrefix::store_var(false), Options::godot4());
/// let checked = framing::raw_scan(dump, prefix, options)
///     .map(|item| item.map(|raw| raw.decode(options)))
///     .filter(|item| matches!(item, Ok(Ok(_))))
///     .count();
/// assert_eq!(checked, framing::scan(dump, prefix, options).count());
/// ```
pub fn raw_scan(buf: &[u8], prefix: LengthPrefix, options: Options) -> RawScan<'_> {
    RawScan { buf, pos: 0, prefix, options, credit: Credit::for_bytes(buf.len()) }
}

/// The iterator of [`raw_scan`].
#[derive(Clone, Debug)]
pub struct RawScan<'a> {
    buf: &'a [u8],
    pos: usize,
    prefix: LengthPrefix,
    options: Options,
    /// What every resynchronisation of this scan may still spend on checking candidates.
    credit: Credit,
}

impl RawScan<'_> {
    /// Offset in the buffer where the next frame (or stretch) starts.
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for RawScan<'a> {
    type Item = Result<RawFrame<'a>, Skipped>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.buf.get(self.pos..).filter(|rest| !rest.is_empty())?;
        let offset = u64::try_from(self.pos).unwrap_or(u64::MAX);
        match split(rest, offset, self.prefix) {
            Ok(raw) => {
                self.pos = self.pos.saturating_add(raw.raw_bytes().len());
                Some(Ok(raw))
            }
            Err(error) => {
                let start = self.pos;
                let from = start.saturating_add(1);
                self.pos = search(self.buf, from, self.prefix, self.options, &mut self.credit)
                    .unwrap_or(self.buf.len());
                let len = u64::try_from(self.pos.saturating_sub(start)).unwrap_or(0);
                Some(Err(Skipped { error, len }))
            }
        }
    }
}

impl FusedIterator for RawScan<'_> {}

impl<'a> Iterator for Scan<'a> {
    type Item = Result<Frame<'a>, Skipped>;

    fn next(&mut self) -> Option<Self::Item> {
        let options = self.options;
        Some(self.raw.next()?.and_then(|raw| {
            let len = u64::try_from(raw.raw_bytes().len()).unwrap_or(u64::MAX);
            raw.decode(options).map_err(|error| Skipped { error, len })
        }))
    }
}

impl FusedIterator for Scan<'_> {}

/// The first offset at or after `from` where a good frame starts in `buf`: its prefix is
/// sound, its payload complete and exactly one value that Godot decodes (no trailing bytes, as
/// Godot writes frames), and what follows it is either the end of `buf` or another complete
/// frame. These conditions keep stray bytes inside a damaged stretch (the inside of a
/// container, say) from being taken for a frame. `None` when there is none.
///
/// Tries each offset in turn. The prefix conditions cost O(1) per offset; a candidate that
/// meets them has its value checked, which reads up to its payload. Checking is limited to 8
/// payload bytes per byte of `buf` after `from` (plus 4 KiB) in all: past that, a candidate
/// lying inside the payload of one already checked and refused is passed over, so the
/// candidates still checked have disjoint payloads. O(bytes after `from`) in all, whatever the
/// damage. Damaged data can still contain bytes that happen to form two frames; the frames
/// after a resynchronisation are as trustworthy as the damage allows, and on data built to
/// exhaust the limit, a good frame inside a refused candidate's payload is passed over.
pub fn resync(buf: &[u8], from: usize, prefix: LengthPrefix, options: Options) -> Option<usize> {
    let mut credit = Credit::for_bytes(buf.len().saturating_sub(from));
    search(buf, from, prefix, options, &mut credit)
}

/// Payload bytes that candidates may still have checked, for one scan or one [`resync`].
#[derive(Clone, Copy, Debug)]
struct Credit(usize);

impl Credit {
    /// 8 payload bytes per byte searched, plus 4 KiB.
    fn for_bytes(bytes: usize) -> Self {
        Credit(bytes.saturating_mul(8).saturating_add(4096))
    }
}

/// [`resync`], spending from `credit`.
fn search(
    buf: &[u8],
    from: usize,
    prefix: LengthPrefix,
    options: Options,
    credit: &mut Credit,
) -> Option<usize> {
    // Once the credit is spent, candidates before this offset (inside the payload of one
    // checked and refused) are passed over.
    let mut frontier = from;
    let mut at = from;
    while at < buf.len() {
        work::add(1);
        let rest = buf.get(at..)?;
        let offset = u64::try_from(at).unwrap_or(u64::MAX);
        let candidate = split(rest, offset, prefix).ok().filter(|_| at >= frontier);
        if let Some(raw) = candidate {
            let next = rest.get(raw.raw_bytes().len()..).unwrap_or(&[]);
            let followed = next.is_empty()
                || !matches!(
                    split(next, 0, prefix).map_err(|e| e.kind()),
                    Err(FrameErrorKind::Incomplete { .. }
                        | FrameErrorKind::TooLarge { .. }
                        | FrameErrorKind::NegativeLength { .. })
                );
            if followed {
                let checked = raw.decode(options);
                if checked.is_ok_and(|frame| frame.trailing_bytes().is_empty()) {
                    return Some(at);
                }
                credit.0 = credit.0.saturating_sub(read_by_check(raw, checked));
                if credit.0 == 0 {
                    frontier = at.saturating_add(raw.raw_bytes().len());
                }
            }
        }
        at = at.saturating_add(1);
    }
    None
}

/// How many payload bytes checking a refused candidate read: up to the problem it reported, or
/// the whole payload when it may have read past it (a string's text is searched for its end
/// before its first bad byte is reported) or when its value ended early.
fn read_by_check(raw: RawFrame<'_>, checked: Result<Frame<'_>, FrameError>) -> usize {
    let payload = raw.payload().len();
    let start = usize::try_from(raw.payload_offset()).unwrap_or(usize::MAX);
    match checked.as_ref().map_err(FrameError::kind) {
        Err(FrameErrorKind::Value(error)) if error.kind() != ErrorKind::InvalidUtf8 => {
            error.offset().saturating_sub(start).saturating_add(8).min(payload)
        }
        _ => payload,
    }
}
