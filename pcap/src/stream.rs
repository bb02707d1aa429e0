//! Length-prefixed frames (`StreamPeer.put_var`) read from one reassembled TCP direction by
//! the core's `framing::receive`.
//!
//! A frame that lies whole inside one delivered piece is handed out borrowed from the capture;
//! one that spans pieces is gathered in a buffer of at most the frame's size (the prefix's
//! length is checked against [`LengthPrefix::max_frame_size`] before anything is kept). A
//! frame Godot refuses is an item of its own, and reading goes on as Godot's `get_var` does
//! (past its declared length; past the 4 prefix bytes of a negative length).
//!
//! # After a gap
//!
//! Bytes missing from the stream lose the frame boundaries. If the gap falls inside a refused
//! frame still being passed over (its declared length is known), nothing is lost. Otherwise the
//! framing waits for a captured segment whose first bytes start a frame: a sound prefix and a
//! value Godot accepts that fills the payload exactly (as Godot writes frames), of at most
//! [`MAX_CANDIDATE`] bytes with a type id Godot knows. Godot writes
//! each `put_var` in one call, so segments usually start at frames. The bytes passed over are
//! reported with the gap, once the framing is back or when the stream ends. A candidate that
//! fails passes over every segment start inside it, so each byte is checked at most once.

use std::borrow::Cow;
use std::collections::VecDeque;

use gdvariant::Options;
use gdvariant::framing::{self, LengthPrefix, Received};
use gdvariant_multiplayer::Direction;

use crate::{Cut, FlowId, Gap, Item, Refusal, Refused, Timestamp, Value};

/// The largest frame looked for after a gap (64 KiB): see [`Framer::data`].
pub const MAX_CANDIDATE: u32 = 64 << 10;

/// Where the items of one direction come from.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The flow.
    pub flow: FlowId,
    /// The direction.
    pub direction: Direction,
    /// The time of the packet being read.
    pub time: Timestamp,
}

#[derive(Clone, Copy, Debug, Default)]
struct Lost {
    at: u64,
    missing: u64,
    skipped: u64,
}

/// The frames of one direction.
#[derive(Debug)]
pub struct Framer {
    prefix: LengthPrefix,
    options: Options,
    /// A frame's first bytes, when it spans pieces.
    buf: Vec<u8>,
    /// Bytes of a refused frame still to pass over.
    discard: u64,
    lost: Option<Lost>,
}

impl Framer {
    /// Frames with `prefix`, values read with `options`.
    pub fn new(prefix: LengthPrefix, options: Options) -> Self {
        Framer { prefix, options, buf: Vec::new(), discard: 0, lost: None }
    }

    /// Frames of a stream whose start was not captured: the first frame is looked for as
    /// after a gap (of unknown size, reported as 0 bytes missing).
    pub fn mid_stream(prefix: LengthPrefix, options: Options) -> Self {
        Framer { lost: Some(Lost::default()), ..Framer::new(prefix, options) }
    }

    /// Bytes held.
    pub fn held(&self) -> usize {
        self.buf.len()
    }

    /// Reads the frames still to come with `options` (a flow's version was told).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    fn value<'a>(&self, ctx: Context, offset: u64, bytes: Cow<'a, [u8]>) -> Item<'a> {
        Item::Value(Value {
            flow: ctx.flow,
            direction: ctx.direction,
            time: ctx.time,
            offset,
            bytes,
            options: self.options,
        })
    }

    fn resynced(&mut self, ctx: Context, out: &mut VecDeque<Item<'_>>) {
        if let Some(lost) = self.lost.take().filter(|l| l.missing > 0 || l.skipped > 0) {
            out.push_back(Item::Gap(Gap {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                offset: lost.at,
                missing: lost.missing,
                skipped: lost.skipped,
                resynced: true,
            }));
        }
    }

    /// Bytes at stream offset `offset`.
    pub fn data<'a>(
        &mut self,
        offset: u64,
        data: Cow<'a, [u8]>,
        segment_start: bool,
        ctx: Context,
        out: &mut VecDeque<Item<'a>>,
    ) {
        let mut at = offset;
        let mut data = data;
        let mut segment_start = segment_start;
        if self.discard > 0 {
            let n = usize::try_from(self.discard.min(data.len() as u64)).unwrap_or(0);
            self.discard = self.discard.saturating_sub(n as u64);
            let len = data.len();
            data = crate::net::sub(data, n, len);
            at = at.saturating_add(n as u64);
            segment_start = segment_start && n == 0;
        }
        let mut candidate = false;
        if self.lost.is_some() && self.buf.is_empty() {
            if !segment_start {
                if let Some(lost) = &mut self.lost {
                    lost.skipped = lost.skipped.saturating_add(data.len() as u64);
                }
                return;
            }
            if !self.plausible(data.get(..).unwrap_or_default()) {
                if let Some(lost) = &mut self.lost {
                    lost.skipped = lost.skipped.saturating_add(data.len() as u64);
                }
                return;
            }
            candidate = true;
        } else if self.lost.is_some() {
            candidate = true;
        }
        let mut pos = 0usize;
        loop {
            if !self.buf.is_empty() {
                let start = at.saturating_sub(self.buf.len() as u64);
                match framing::receive(&self.buf, start, self.prefix, self.options) {
                    Received::Incomplete { needed } => {
                        let rest = data.get(pos..).unwrap_or_default();
                        if rest.is_empty() {
                            return;
                        }
                        let take = needed.min(rest.len());
                        crate::work(take >> 6);
                        self.buf.extend_from_slice(rest.get(..take).unwrap_or_default());
                        pos = pos.saturating_add(take);
                        at = at.saturating_add(take as u64);
                    }
                    Received::Frame(frame) => {
                        if candidate && !frame.trailing_bytes().is_empty() {
                            self.fail_candidate(&mut data, pos);
                            return;
                        }
                        let payload = frame.payload().to_vec();
                        if candidate {
                            self.resynced(ctx, out);
                            candidate = false;
                        }
                        self.buf.clear();
                        out.push_back(self.value(ctx, start, Cow::Owned(payload)));
                    }
                    Received::Bad { error, len } => {
                        if candidate {
                            self.fail_candidate(&mut data, pos);
                            return;
                        }
                        let bytes = std::mem::take(&mut self.buf);
                        self.discard = len.saturating_sub(bytes.len() as u64);
                        out.push_back(refused(ctx, start, Cow::Owned(bytes), error));
                    }
                }
                continue;
            }
            let rest = match &data {
                Cow::Borrowed(b) => Cow::Borrowed(b.get(pos..).unwrap_or_default()),
                Cow::Owned(v) => Cow::Borrowed(v.get(pos..).unwrap_or_default()),
            };
            if rest.is_empty() {
                return;
            }
            if self.discard > 0 {
                let n = usize::try_from(self.discard.min(rest.len() as u64)).unwrap_or(0);
                self.discard = self.discard.saturating_sub(n as u64);
                pos = pos.saturating_add(n);
                at = at.saturating_add(n as u64);
                continue;
            }
            match framing::receive(&rest, at, self.prefix, self.options) {
                Received::Incomplete { .. } => {
                    crate::work(rest.len() >> 6);
                    self.buf.extend_from_slice(&rest);
                    return;
                }
                Received::Frame(frame) => {
                    if candidate && !frame.trailing_bytes().is_empty() {
                        self.fail_candidate(&mut data, pos);
                        return;
                    }
                    if candidate {
                        self.resynced(ctx, out);
                        candidate = false;
                    }
                    let len = frame.len();
                    let payload = frame.payload().len();
                    let from = pos.saturating_add(framing::PREFIX_LEN);
                    let to = from.saturating_add(payload);
                    let bytes = match &data {
                        Cow::Borrowed(b) => Cow::Borrowed(b.get(from..to).unwrap_or_default()),
                        Cow::Owned(v) => Cow::Owned(v.get(from..to).unwrap_or_default().to_vec()),
                    };
                    out.push_back(self.value(ctx, at, bytes));
                    pos = pos.saturating_add(len);
                    at = at.saturating_add(len as u64);
                }
                Received::Bad { error, len } => {
                    if candidate {
                        self.fail_candidate(&mut data, pos);
                        return;
                    }
                    let available = usize::try_from(len.min(rest.len() as u64)).unwrap_or(0);
                    let bytes = match &data {
                        Cow::Borrowed(b) => Cow::Borrowed(
                            b.get(pos..pos.saturating_add(available)).unwrap_or_default(),
                        ),
                        Cow::Owned(v) => Cow::Owned(
                            v.get(pos..pos.saturating_add(available)).unwrap_or_default().to_vec(),
                        ),
                    };
                    out.push_back(refused(ctx, at, bytes, error));
                    self.discard = len.saturating_sub(available as u64);
                    pos = pos.saturating_add(available);
                    at = at.saturating_add(available as u64);
                }
            }
        }
    }

    /// Whether `data` may start a frame after a gap: a length prefix of at most
    /// [`MAX_CANDIDATE`] bytes (and the prefix's limit), and, when captured, a type id Godot
    /// knows. Larger frames are not looked for after a gap, so that a candidate never holds
    /// more than that while it waits for its bytes. O(1).
    fn plausible(&self, data: &[u8]) -> bool {
        let Some(prefix) = data.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok()) else {
            // Too short to tell: a candidate (held until its prefix is complete).
            return true;
        };
        let length = match self.prefix.byte_order() {
            framing::ByteOrder::BigEndian => u32::from_be_bytes(prefix),
            framing::ByteOrder::LittleEndian => u32::from_le_bytes(prefix),
        };
        if length == 0 || length > MAX_CANDIDATE.min(self.prefix.max_frame_size()) {
            return false;
        }
        data.get(4).is_none_or(|id| {
            gdvariant::VariantType::from_id(self.options.version(), u32::from(*id)).is_some()
        })
    }

    /// The candidate after a gap is not a frame: its bytes and the rest of this piece are
    /// passed over.
    fn fail_candidate(&mut self, data: &mut Cow<'_, [u8]>, pos: usize) {
        let rest = data.len().saturating_sub(pos);
        let skipped = self.buf.len().saturating_add(rest) as u64;
        self.buf.clear();
        if let Some(lost) = &mut self.lost {
            lost.skipped = lost.skipped.saturating_add(skipped);
        }
    }

    /// `missing` bytes at stream offset `offset` were never captured.
    pub fn gap(&mut self, offset: u64, missing: u64, ctx: Context, out: &mut VecDeque<Item<'_>>) {
        if let Some(lost) = &mut self.lost {
            lost.missing = lost.missing.saturating_add(missing);
            lost.skipped = lost.skipped.saturating_add(self.buf.len() as u64);
            self.buf.clear();
            return;
        }
        if self.discard >= missing {
            // Inside a refused frame being passed over: the boundaries are still known.
            self.discard = self.discard.saturating_sub(missing);
            out.push_back(Item::Gap(Gap {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                offset,
                missing,
                skipped: 0,
                resynced: true,
            }));
            return;
        }
        let held = self.buf.len() as u64;
        self.buf.clear();
        self.discard = 0;
        self.lost = Some(Lost { at: offset, missing, skipped: held });
    }

    /// The direction ended: a frame cut short, or framing still lost, is reported.
    pub fn end(&mut self, ctx: Context, out: &mut VecDeque<Item<'_>>) {
        if let Some(mut lost) = self.lost.take() {
            lost.skipped = lost.skipped.saturating_add(self.buf.len() as u64);
            self.buf.clear();
            if lost.missing == 0 && lost.skipped == 0 {
                return;
            }
            out.push_back(Item::Gap(Gap {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                offset: lost.at,
                missing: lost.missing,
                skipped: lost.skipped,
                resynced: false,
            }));
            return;
        }
        if !self.buf.is_empty() {
            let needed = match framing::receive(&self.buf, 0, self.prefix, self.options) {
                Received::Incomplete { needed } => needed,
                _ => 0,
            };
            out.push_back(Item::Cut(Cut {
                flow: ctx.flow,
                direction: ctx.direction,
                time: ctx.time,
                held: self.buf.len(),
                needed,
            }));
            self.buf.clear();
        }
        self.discard = 0;
    }
}

fn refused<'a>(
    ctx: Context,
    offset: u64,
    bytes: Cow<'a, [u8]>,
    error: framing::FrameError,
) -> Item<'a> {
    Item::Refused(Refused {
        flow: ctx.flow,
        direction: ctx.direction,
        time: ctx.time,
        offset,
        bytes,
        refusal: Refusal::Frame(error),
    })
}
