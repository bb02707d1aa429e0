//! One direction of a TCP connection put back in order by sequence number.
//!
//! # The overlap policy: the first received wins
//!
//! Where two segments carry the same sequence numbers, the bytes received first are kept and
//! the later copy's are dropped, whatever they hold: data already delivered in order is never
//! rewritten (a retransmission of it is counted and dropped), and a segment waiting out of
//! order keeps its bytes against any later one that overlaps it. A Linux receiver does the
//! same for data it has already received in order (`tcp_data_queue` trims whatever lies before
//! `rcv_nxt`) and for a new out-of-order segment that an earlier one covers
//! (`tcp_data_queue_ofo` drops it); it differs in one case: a new out-of-order segment that
//! wholly covers queued ones replaces them there. Such captures carry contradictory bytes,
//! which only an attacker or a broken stack sends; the counters (`overlap_bytes`) say they were
//! there.
//!
//! # Bounds
//!
//! Segments after a hole wait in a window of at most [`TcpLimits::max_pending_bytes`] bytes and
//! [`TcpLimits::max_pending_segments`] pieces (borrowed from the capture: holding them copies
//! nothing). When a segment would not fit, the first hole is given up: reported as a gap of
//! the bytes missing, and the stream goes on after it. Each segment costs O(its bytes + the
//! waiting pieces it overlaps + log pieces).

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::net::sub;

/// Limits of one direction's reordering window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpLimits {
    /// Bytes waiting after a hole, at most (default 4 MiB).
    pub max_pending_bytes: usize,
    /// Pieces waiting after a hole, at most (default 1024).
    pub max_pending_segments: usize,
}

impl Default for TcpLimits {
    fn default() -> Self {
        TcpLimits { max_pending_bytes: 4 << 20, max_pending_segments: 1024 }
    }
}

/// Counts of one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HalfStats {
    /// Segments that carried data.
    pub segments: u64,
    /// Bytes of those segments, repeats included.
    pub bytes: u64,
    /// Segments whose every byte had been received already (retransmissions), counted once
    /// each and dropped.
    pub retransmitted_segments: u64,
    /// Their bytes.
    pub retransmitted_bytes: u64,
    /// Bytes of segments that partly overlapped data received before (the first copy kept).
    pub overlap_bytes: u64,
    /// Segments that arrived after a hole and waited.
    pub reordered_segments: u64,
    /// Holes given up (the bytes never captured).
    pub gaps: u64,
    /// Bytes in those holes.
    pub gap_bytes: u64,
}

/// What one direction hands to its framing, in stream order.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// Bytes at stream offset `offset` (0: the first byte after the SYN, or the first byte
    /// seen). `segment_start` when they begin where a captured segment began.
    Data {
        /// Where the bytes sit in the stream.
        offset: u64,
        /// The bytes (borrowed from the capture unless IP fragments were put together).
        data: Cow<'a, [u8]>,
        /// They begin where a captured segment began.
        segment_start: bool,
    },
    /// `missing` bytes from `offset` on were never captured.
    Gap {
        /// The first missing byte.
        offset: u64,
        /// How many.
        missing: u64,
    },
    /// The direction ended (FIN reached, RST, or the end of the capture).
    End,
}

/// One direction of a TCP connection.
#[derive(Debug, Default)]
pub struct Half<'a> {
    /// The sequence number of stream offset 0.
    base: Option<u32>,
    /// The next stream offset expected.
    next: u64,
    pending: BTreeMap<u64, (Cow<'a, [u8]>, bool)>,
    pending_bytes: usize,
    fin_at: Option<u64>,
    ended: bool,
    /// Its counters.
    pub stats: HalfStats,
}

impl<'a> Half<'a> {
    /// Bytes held waiting.
    pub fn held(&self) -> usize {
        self.pending_bytes
    }

    /// Whether the direction has ended.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether a SYN or data was seen.
    pub fn started(&self) -> bool {
        self.base.is_some()
    }

    /// A SYN with sequence number `seq`: the stream starts after it. A repeated SYN is a
    /// retransmission.
    pub fn syn(&mut self, seq: u32) {
        if self.base.is_none() {
            self.base = Some(seq.wrapping_add(1));
        }
    }

    /// The stream offset of `seq`, the nearest to the next expected one.
    fn offset_of(&self, seq: u32, base: u32) -> i64 {
        let rel = seq.wrapping_sub(base);
        let next = self.next as i64;
        let delta = rel.wrapping_sub(self.next as u32) as i32;
        next.saturating_add(i64::from(delta))
    }

    /// A segment: sequence number `seq`, payload `data`, `fin` set or not.
    pub fn segment(
        &mut self,
        seq: u32,
        data: Cow<'a, [u8]>,
        fin: bool,
        limits: TcpLimits,
        out: &mut Vec<Event<'a>>,
    ) {
        if self.ended {
            if !data.is_empty() {
                self.count_repeat(data.len());
            }
            return;
        }
        let base = *self.base.get_or_insert(seq);
        let at = self.offset_of(seq, base);
        let len = data.len();
        let end = at.saturating_add(i64::try_from(len).unwrap_or(i64::MAX));
        if fin && self.fin_at.is_none() && end >= 0 {
            self.fin_at = u64::try_from(end).ok();
        }
        if len > 0 {
            self.stats.segments = self.stats.segments.saturating_add(1);
            self.stats.bytes = self.stats.bytes.saturating_add(len as u64);
            crate::work(1);
            let next = self.next as i64;
            if end <= next {
                self.count_repeat(len);
            } else if at <= next {
                let skip = usize::try_from(next.saturating_sub(at)).unwrap_or(0);
                self.stats.overlap_bytes = self.stats.overlap_bytes.saturating_add(skip as u64);
                let data = sub(data, skip, len);
                if self.pending.is_empty() {
                    self.deliver(data, skip == 0, out);
                } else {
                    // Pieces received before it keep their bytes: it fills the holes only.
                    self.insert(self.next, data, skip == 0);
                }
                self.drain(out);
            } else {
                let start = u64::try_from(at).unwrap_or(0);
                self.stats.reordered_segments = self.stats.reordered_segments.saturating_add(1);
                self.wait(start, data, limits, out);
            }
        }
        self.check_end(out);
    }

    fn count_repeat(&mut self, len: usize) {
        self.stats.retransmitted_segments = self.stats.retransmitted_segments.saturating_add(1);
        self.stats.retransmitted_bytes = self.stats.retransmitted_bytes.saturating_add(len as u64);
    }

    fn deliver(&mut self, data: Cow<'a, [u8]>, segment_start: bool, out: &mut Vec<Event<'a>>) {
        if data.is_empty() {
            return;
        }
        let offset = self.next;
        self.next = self.next.saturating_add(data.len() as u64);
        out.push(Event::Data { offset, data, segment_start });
    }

    /// Delivers the waiting pieces that now continue the stream.
    fn drain(&mut self, out: &mut Vec<Event<'a>>) {
        while let Some(entry) = self.pending.first_entry() {
            let start = *entry.key();
            if start > self.next {
                break;
            }
            let (data, segment_start) = entry.remove();
            crate::work(1);
            self.pending_bytes = self.pending_bytes.saturating_sub(data.len());
            let len = data.len();
            let skip = usize::try_from(self.next.saturating_sub(start)).unwrap_or(usize::MAX);
            if skip >= len {
                continue;
            }
            self.deliver(sub(data, skip, len), segment_start && skip == 0, out);
        }
    }

    /// Gives up the first hole: a gap up to the first waiting piece, which is delivered.
    fn give_up_hole(&mut self, up_to: u64, out: &mut Vec<Event<'a>>) {
        let to = self.pending.keys().next().copied().map_or(up_to, |k| k.min(up_to));
        if to > self.next {
            let missing = to.saturating_sub(self.next);
            self.stats.gaps = self.stats.gaps.saturating_add(1);
            self.stats.gap_bytes = self.stats.gap_bytes.saturating_add(missing);
            out.push(Event::Gap { offset: self.next, missing });
            self.next = to;
        }
        self.drain(out);
    }

    /// Keeps an out-of-order segment, without the bytes waiting pieces already hold (the first
    /// received wins).
    fn wait(
        &mut self,
        start: u64,
        data: Cow<'a, [u8]>,
        limits: TcpLimits,
        out: &mut Vec<Event<'a>>,
    ) {
        let end = start.saturating_add(data.len() as u64);
        // Make room: the whole segment must fit in the window past `next`.
        loop {
            let too_far = end.saturating_sub(self.next) > limits.max_pending_bytes as u64;
            let too_many = self.pending.len() >= limits.max_pending_segments.max(1);
            let too_much = self.pending_bytes.saturating_add(data.len()) > limits.max_pending_bytes;
            if !(too_far || too_many || too_much) || self.next >= start {
                break;
            }
            let before = self.next;
            self.give_up_hole(start, out);
            if self.next == before && self.pending.is_empty() {
                break;
            }
        }
        if self.next >= start {
            // The window moved up to it: it continues the stream (or is behind it).
            let next = self.next;
            let skip = usize::try_from(next.saturating_sub(start)).unwrap_or(usize::MAX);
            let len = data.len();
            if skip < len {
                if skip > 0 {
                    self.stats.overlap_bytes = self.stats.overlap_bytes.saturating_add(skip as u64);
                }
                self.deliver(sub(data, skip, len), skip == 0, out);
            }
            self.drain(out);
            return;
        }
        self.insert(start, data, true);
    }

    /// Keeps the bytes of `data` (at `start`) that no waiting piece holds yet (the first
    /// received wins); a segment wholly covered is a retransmission.
    fn insert(&mut self, start: u64, data: Cow<'a, [u8]>, segment_start: bool) {
        let end = start.saturating_add(data.len() as u64);
        let mut cur = start;
        if let Some((&s, (d, _))) = self.pending.range(..=start).next_back() {
            let e = s.saturating_add(d.len() as u64);
            if e > cur {
                let covered = e.min(end).saturating_sub(cur);
                self.stats.overlap_bytes = self.stats.overlap_bytes.saturating_add(covered);
                cur = e;
            }
        }
        if cur >= end {
            self.count_repeat(data.len());
            self.stats.overlap_bytes = self.stats.overlap_bytes.saturating_sub(data.len() as u64);
            return;
        }
        let followers: Vec<(u64, u64)> = self
            .pending
            .range(cur..end)
            .map(|(s, (d, _))| (*s, s.saturating_add(d.len() as u64)))
            .collect();
        crate::work(followers.len());
        let piece = |from: u64, to: u64| {
            let a = usize::try_from(from.saturating_sub(start)).unwrap_or(0);
            let b = usize::try_from(to.saturating_sub(start)).unwrap_or(0);
            (a, b)
        };
        let mut pieces = Vec::new();
        for (s, e) in followers {
            if s > cur {
                pieces.push((cur, piece(cur, s)));
            }
            let covered = e.min(end).saturating_sub(s.max(cur));
            self.stats.overlap_bytes = self.stats.overlap_bytes.saturating_add(covered);
            cur = cur.max(e);
        }
        if cur < end {
            pieces.push((cur, piece(cur, end)));
        }
        for (at, (a, b)) in pieces {
            let bytes = piece_of(&data, a, b);
            self.pending_bytes = self.pending_bytes.saturating_add(bytes.len());
            self.pending.insert(at, (bytes, segment_start && at == start));
        }
    }

    fn check_end(&mut self, out: &mut Vec<Event<'a>>) {
        if !self.ended && self.fin_at.is_some_and(|fin| self.next >= fin) {
            self.ended = true;
            out.push(Event::End);
        }
    }

    /// Ends the direction now (RST, or the end of the capture): the waiting pieces are
    /// delivered, each hole before them reported as a gap.
    pub fn finish(&mut self, out: &mut Vec<Event<'a>>) {
        if self.ended {
            return;
        }
        while !self.pending.is_empty() {
            self.give_up_hole(u64::MAX, out);
        }
        self.ended = true;
        out.push(Event::End);
    }
}

/// `data[a..b]`, borrowed when `data` is, else copied (only that range).
fn piece_of<'a>(data: &Cow<'a, [u8]>, a: usize, b: usize) -> Cow<'a, [u8]> {
    match data {
        Cow::Borrowed(bytes) => Cow::Borrowed(bytes.get(a..b).unwrap_or_default()),
        Cow::Owned(bytes) => {
            crate::work(b.saturating_sub(a) >> 6);
            Cow::Owned(bytes.get(a..b).unwrap_or_default().to_vec())
        }
    }
}
