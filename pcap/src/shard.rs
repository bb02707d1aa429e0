//! Reading a capture on several threads, across flows: [`Sharded`].
//!
//! The capture is read in windows of packets (at most [`WINDOW_PACKETS`] packets, or
//! [`Sharded::with_window_packets`], or [`WINDOW_BYTES`] captured bytes). For each window:
//!
//! 1. On the reading thread (the caller's; with [`Sharded::try_each`] a thread of its own),
//!    each packet is read down to TCP or UDP ([`net`]: link, IP, the
//!    transport header; IPv4 and IPv6 fragments are put together here, in one table for the
//!    whole capture, as [`Reader`] does) and handed to a shard chosen by a hash of its flow's
//!    5-tuple, both directions alike. A fragmented datagram is sharded once it is whole (its
//!    later fragments carry no ports), so each flow's packets all go to one shard, in capture
//!    order. Packets not read ([`Skip`]) are counted here.
//! 2. On a `rayon` pool of `jobs` threads, each shard's own [`Reader`] state (flows, TCP
//!    reassembly, framing, WebSocket, ENet, value validation) reads its packets (four shards a
//!    thread, so that uneven flows even out). Payloads stay borrowed from the capture.
//! 3. On the reading thread, flows are numbered in the order of their first packet (as one
//!    [`Reader`] numbers them); on the pool, each shard's items and records are given those
//!    numbers; then, as items are asked for, the shards' items are merged by packet number (a
//!    k-way merge: a heap of the shards' next keys, asked only when the next item comes from
//!    another shard); the items the end of the capture gives (cut frames, gaps) come last, by
//!    flow number.
//!
//! The iterator reads a window when the last one's items are all taken; [`Sharded::try_each`]
//! reads the next window meanwhile, so that the caller's work on the items overlaps the
//! reading.
//!
//! The items therefore come out in capture order, as [`Reader`] hands them out: within the
//! limits below, the items, [`Sharded::flows`] and [`Sharded::totals`] are those of a
//! [`Reader`] of the same capture (tests compare them on every corpus capture, on captures of
//! hundreds of flows with windows of 1 packet up, and in the `pcap` fuzz check).
//!
//! # Limits
//!
//! Each shard holds at most [`Config::max_flows`] and [`Config::max_held_bytes`] divided by
//! the number of shards (at least one flow each), so the totals still hold for the whole
//! capture; a shard over its part evicts its own oldest flow ([`Item::Evicted`]), so past the
//! limits the flows evicted may differ from one [`Reader`]'s. The fragment limits hold for the
//! one table; [`Config::max_flow_records`] for all shards together (past it, which records
//! are kept may differ from one [`Reader`]'s: those of the earlier windows).
//!
//! # Costs
//!
//! The work is a [`Reader`]'s, plus O(1) per packet to choose its shard and per item to move
//! and renumber it, and O(log shards) per change of shard in the merge; with the
//! `work-counter` feature the units counted on the pool and the reading thread are added to
//! the calling thread's count. Memory is a [`Reader`]'s plus one window's packets and items
//! (three windows' items with [`Sharded::try_each`]). The reading of headers (step 1) and the
//! merge (step 3) are not shared out, and a flow is never split: a capture of one flow, or of
//! one flow much heavier than the others, is read at one thread's speed.
//!
//! Measured in instructions (`valgrind --tool=callgrind --separate-threads=yes`, the `count`
//! example built with `--release`, [`Sharded::try_each`]) on a generated 12 MB capture of 16
//! TCP connections (1,448-byte segments interleaved, 640,000 small values): one thread 312 M
//! instructions; 2 jobs 405 M in all, of which 157 M on each pool thread, 9.5 M on the
//! reading thread and 82 M on the caller's (the merge and the example's own loop, 21 M): the
//! longest thread does about half of one thread's work.

use std::cmp::Reverse;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use std::fmt;
use std::hash::{Hash, Hasher};

use rayon::prelude::*;

use crate::file::{self, FileError, Packets, Timestamp};
use crate::flows::{Config, FlowId, FlowInfo, Reader, Totals};
use crate::net::{self, Fragments, Skip, Transport};
use crate::{Item, net::Protocol};

/// Most packets in a window.
pub const WINDOW_PACKETS: usize = 1 << 16;
/// Most captured bytes in a window (a window holds at least one packet).
pub const WINDOW_BYTES: usize = 32 << 20;
/// Shards per thread (more shards than threads let `rayon` even out uneven flows).
const SHARDS_PER_THREAD: usize = 4;

/// Where an item goes in the merge: its packet's number (`u64::MAX`: the end of the capture)
/// then, at the end, its flow's number.
type Key = (u64, u64);

/// One shard: its reader and this window's packets and results.
struct Shard<'a> {
    reader: Reader<'a>,
    /// This window's packets: (number, time, the segment or datagram).
    batch: Vec<(u64, Timestamp, Transport<'a>)>,
    /// The shard's flow numbers to the capture's, for flows followed or whose record has not
    /// been taken yet.
    ids: BTreeMap<u64, u64>,
    /// This window's flows created: (packet number, the shard's flow number).
    created: Vec<(u64, u64)>,
    /// This window's items with their merge keys, in order.
    items: Vec<(Key, Item<'a>)>,
    /// This window's finished flows.
    done: Vec<FlowInfo>,
    /// Work units counted on the threads that read this shard since they were added up.
    #[cfg(feature = "work-counter")]
    units: Vec<(u64, std::thread::ThreadId)>,
}

impl<'a> Shard<'a> {
    /// Runs `step` on this shard, its work units noted with the thread's (feature
    /// `work-counter`).
    fn measured(&mut self, step: impl FnOnce(&mut Self)) {
        #[cfg(feature = "work-counter")]
        {
            let ((), units) = gdvariant::work::measure(|| step(self));
            self.units.push((units, std::thread::current().id()));
        }
        #[cfg(not(feature = "work-counter"))]
        step(self);
    }

    /// Reads this window's packets (then, with `end`, finishes every flow).
    fn read(&mut self, end: bool) {
        for (number, time, transport) in self.batch.drain(..) {
            let before = self.reader.totals().flows;
            self.reader.transport(time, transport);
            if self.reader.totals().flows > before {
                self.created.push((number, before));
            }
            self.items.extend(self.reader.take_items().map(|item| ((number, 0), item)));
        }
        if end {
            self.reader.end();
            self.items.extend(self.reader.take_items().map(|item| ((u64::MAX, 0), item)));
        }
        self.done = self.reader.take_done();
    }

    /// Gives this window's items and records the capture's flow numbers (the items the end
    /// gave are keyed by them), and forgets the numbers of the flows finished.
    fn renumber(&mut self) {
        crate::work(self.items.len());
        for ((packet, flow), item) in &mut self.items {
            let id = renumber(item, &self.ids);
            if *packet == u64::MAX {
                *flow = id;
            }
        }
        for record in &mut self.done {
            if let Some(id) = self.ids.remove(&record.id.0) {
                record.id = FlowId(id);
            }
        }
    }
}

/// A capture's items ([`Item`]) read across flows on several threads, handed out in capture
/// order as [`Reader`] hands them out; [`Sharded::flows`] and [`Sharded::totals`] say what was
/// seen. See the [module](self) for how, what it costs and where it differs from a
/// [`Reader`].
pub struct Sharded<'a> {
    inner: Inner<'a>,
}

enum Inner<'a> {
    /// One job: a plain [`Reader`].
    One(Box<Reader<'a>>),
    /// Several.
    Many(Box<Many<'a>>),
}

struct Many<'a> {
    packets: Packets<'a>,
    fragments: Fragments,
    shards: Vec<Shard<'a>>,
    /// `None`: the threads could not be started; the shards are read one after the other on
    /// the calling thread (same items).
    pool: Option<rayon::ThreadPool>,
    /// The window being handed out (by the iterator).
    merging: Window<'a>,
    /// Packets, skips, fragments and the file error (flows and evictions: the shards').
    totals: Totals,
    /// Finished flows' records (the capture's numbers).
    records: Vec<FlowInfo>,
    max_records: usize,
    next_id: u64,
    window: usize,
    finished: bool,
}

impl fmt::Debug for Sharded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sharded").field("totals", &self.totals()).finish_non_exhaustive()
    }
}

/// Most threads [`Sharded`] starts, whatever `jobs` asks for.
pub const MAX_THREADS: usize = 256;

/// The number of threads for `jobs` (0: one per core), at most [`MAX_THREADS`].
pub fn threads(jobs: usize) -> usize {
    let threads = match jobs {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        n => n,
    };
    threads.min(MAX_THREADS)
}

impl<'a> Sharded<'a> {
    /// Reads the capture `file` with `config` on `jobs` threads (0: one per core; 1: a plain
    /// [`Reader`] on the calling thread; at most [`MAX_THREADS`]). O(threads) to start the
    /// threads and shards: packets are read as items are asked for.
    pub fn new(file: &'a [u8], config: Config, jobs: usize) -> Result<Self, FileError> {
        let threads = threads(jobs);
        if threads <= 1 {
            return Ok(Sharded { inner: Inner::One(Box::new(Reader::new(file, config)?)) });
        }
        let packets = file::packets(file)?;
        let count = threads.saturating_mul(SHARDS_PER_THREAD);
        let mut part = config.clone();
        part.max_flows = config.max_flows.checked_div(count).unwrap_or(0).max(1);
        part.max_held_bytes = config.max_held_bytes.checked_div(count).unwrap_or(0);
        part.max_flow_records = usize::MAX;
        let mut shards = Vec::new();
        for _ in 0..count {
            shards.push(Shard {
                reader: Reader::new(file, part.clone())?,
                batch: Vec::new(),
                ids: BTreeMap::new(),
                created: Vec::new(),
                items: Vec::new(),
                done: Vec::new(),
                #[cfg(feature = "work-counter")]
                units: Vec::new(),
            });
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok();
        Ok(Sharded {
            inner: Inner::Many(Box::new(Many {
                packets,
                fragments: Fragments::new(config.fragments),
                shards,
                pool,
                merging: Window::default(),
                totals: Totals::default(),
                records: Vec::new(),
                max_records: config.max_flow_records,
                next_id: 0,
                window: WINDOW_PACKETS,
                finished: false,
            })),
        })
    }

    /// At most `packets` packets a window (default [`WINDOW_PACKETS`]; at least 1): fewer hold
    /// less memory, more share the work out more evenly.
    pub fn with_window_packets(mut self, packets: usize) -> Self {
        if let Inner::Many(many) = &mut self.inner {
            many.window = packets.max(1);
        }
        self
    }

    /// The number of threads reading (1: a plain [`Reader`]).
    pub fn threads(&self) -> usize {
        match &self.inner {
            Inner::One(_) => 1,
            Inner::Many(many) => {
                many.pool.as_ref().map_or(1, rayon::ThreadPool::current_num_threads)
            }
        }
    }

    /// Hands the items still to come to `sink`, in capture order, as the iterator would, but
    /// reads the next window (on another thread and the pool) while `sink` takes this one's:
    /// the caller's work on the items overlaps the reading. Stops at `sink`'s first error and
    /// returns it (the window being read is finished first); nothing more is handed out after
    /// it ([`Sharded::flows`] and [`Sharded::totals`] say what was read). Memory: up to three
    /// windows' items (one taken, one waiting, one being read).
    pub fn try_each<E>(
        &mut self,
        mut sink: impl FnMut(Item<'a>) -> Result<(), E>,
    ) -> Result<(), E> {
        let many = match &mut self.inner {
            Inner::One(reader) => return reader.try_for_each(sink),
            Inner::Many(many) => many,
        };
        while let Some(item) = many.merging.take() {
            sink(item)?;
        }
        if many.finished {
            return Ok(());
        }
        let reader: &mut Many<'a> = many;
        let result = std::thread::scope(|scope| {
            let (windows, received) = std::sync::mpsc::sync_channel::<Window<'a>>(1);
            let reading = scope.spawn(move || {
                #[cfg(feature = "work-counter")]
                return gdvariant::work::measure(|| reader.send_windows(&windows)).1;
                #[cfg(not(feature = "work-counter"))]
                reader.send_windows(&windows)
            });
            let mut result = Ok(());
            'windows: for mut window in received.iter() {
                while let Some(item) = window.take() {
                    if let Err(error) = sink(item) {
                        result = Err(error);
                        break 'windows;
                    }
                }
            }
            drop(received);
            // The reading thread's units (its own and the pool's), added to this one's.
            #[cfg(feature = "work-counter")]
            if let Ok(units) = reading.join() {
                gdvariant::work::add(usize::try_from(units).unwrap_or(usize::MAX));
            }
            #[cfg(not(feature = "work-counter"))]
            let _ = reading.join();
            result
        });
        if result.is_err() {
            many.finished = true;
        }
        result
    }

    /// The counts so far (final once the iterator has ended).
    pub fn totals(&self) -> Totals {
        match &self.inner {
            Inner::One(reader) => reader.totals().clone(),
            Inner::Many(many) => {
                let mut totals = many.totals.clone();
                totals.flows = many.next_id;
                totals.evicted = many
                    .shards
                    .iter()
                    .map(|s| s.reader.totals().evicted)
                    .fold(0, u64::saturating_add);
                totals
            }
        }
    }

    /// Every flow seen so far (finished ones up to [`Config::max_flow_records`]), by number.
    pub fn flows(&self) -> Vec<FlowInfo> {
        match &self.inner {
            Inner::One(reader) => reader.flows(),
            Inner::Many(many) => {
                let mut all = many.records.clone();
                for shard in &many.shards {
                    all.extend(shard.reader.live_flows().filter_map(|info| {
                        let id = *shard.ids.get(&info.id.0)?;
                        Some(FlowInfo { id: FlowId(id), ..info.clone() })
                    }));
                }
                all.sort_by_key(|info| info.id);
                all
            }
        }
    }
}

impl<'a> Iterator for Sharded<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        match &mut self.inner {
            Inner::One(reader) => reader.next(),
            Inner::Many(many) => loop {
                if let Some(item) = many.merging.take() {
                    return Some(item);
                }
                if many.finished {
                    return None;
                }
                many.merging = many.next_window();
            },
        }
    }
}

impl<'a> Many<'a> {
    /// Reads the next window: headers here, the shards on the pool, then the merge.
    fn next_window(&mut self) -> Window<'a> {
        let end = self.split();
        self.run(end);
        self.number();
        let window = self.merge();
        if end {
            self.finished = true;
        }
        window
    }

    /// Reads window after window until the capture ends or nobody takes them.
    fn send_windows(&mut self, windows: &std::sync::mpsc::SyncSender<Window<'a>>) {
        while !self.finished {
            if windows.send(self.next_window()).is_err() {
                break;
            }
        }
    }

    /// Step 1: the window's packets read down to TCP or UDP and handed to their shards.
    /// Returns whether the capture ended.
    fn split(&mut self) -> bool {
        let count = self.shards.len().max(1);
        let (mut packets, mut bytes) = (0usize, 0usize);
        while packets < self.window && bytes < WINDOW_BYTES {
            let raw = match self.packets.next() {
                Some(Ok(raw)) => raw,
                Some(Err(error)) => {
                    self.totals.file_error = Some(error);
                    continue;
                }
                None => {
                    self.totals.fragments_dropped = self.fragments.dropped;
                    return true;
                }
            };
            let number = self.totals.packets;
            self.totals.packets = self.totals.packets.saturating_add(1);
            packets = packets.saturating_add(1);
            bytes = bytes.saturating_add(raw.data.len());
            match net::transport(raw.link, raw.data, &mut self.fragments) {
                Ok(transport) => {
                    let shard = shard_of(&transport, count);
                    if let Some(shard) = self.shards.get_mut(shard) {
                        shard.batch.push((number, raw.time, transport));
                    }
                }
                Err(why) => {
                    self.totals.fragments_dropped = self.fragments.dropped;
                    skip(&mut self.totals, why);
                }
            }
            crate::work(1);
        }
        false
    }

    /// Runs `step` on every shard, on the pool (or here, without one); the units of work
    /// counted on other threads are added to this one's.
    fn each(&mut self, step: impl Fn(&mut Shard<'a>) + Sync) {
        let step = |shard: &mut Shard<'a>| shard.measured(&step);
        match &self.pool {
            Some(pool) => pool.install(|| self.shards.par_iter_mut().for_each(step)),
            None => self.shards.iter_mut().for_each(step),
        }
        #[cfg(feature = "work-counter")]
        {
            let here = std::thread::current().id();
            for shard in &mut self.shards {
                for (units, thread) in shard.units.drain(..) {
                    if thread != here {
                        gdvariant::work::add(usize::try_from(units).unwrap_or(usize::MAX));
                    }
                }
            }
        }
    }

    /// Step 2: every shard reads its packets, on the pool.
    fn run(&mut self, end: bool) {
        self.each(|shard| shard.read(end));
    }

    /// Step 3a: the flows created in this window numbered in the order of their first packet.
    fn number(&mut self) {
        let mut created: Vec<(u64, usize, u64)> = Vec::new();
        for (index, shard) in self.shards.iter_mut().enumerate() {
            created.extend(shard.created.drain(..).map(|(packet, local)| (packet, index, local)));
        }
        created.sort_unstable();
        crate::work(created.len());
        for (_, index, local) in created {
            if let Some(shard) = self.shards.get_mut(index) {
                shard.ids.insert(local, self.next_id);
            }
            self.next_id = self.next_id.saturating_add(1);
        }
    }

    /// Step 3b: items and records renumbered (on the pool), records kept, the merge set up.
    fn merge(&mut self) -> Window<'a> {
        self.each(Shard::renumber);
        let mut records = Vec::new();
        let mut window = Window::default();
        for (index, shard) in self.shards.iter_mut().enumerate() {
            records.append(&mut shard.done);
            let cursor = VecDeque::from(std::mem::take(&mut shard.items));
            if let Some((key, _)) = cursor.front() {
                window.heads.push(Reverse((*key, index)));
            }
            window.cursors.push(cursor);
        }
        records.sort_by_key(|info| info.id);
        for record in records {
            if self.records.len() < self.max_records {
                self.records.push(record);
            } else {
                self.totals.flows_not_kept = self.totals.flows_not_kept.saturating_add(1);
            }
        }
        window
    }
}

/// One window's items, per shard, merged as they are taken.
#[derive(Default)]
struct Window<'a> {
    /// Each shard's items, in order.
    cursors: Vec<VecDeque<(Key, Item<'a>)>>,
    /// The next key of each shard with items left but the one being taken from.
    heads: BinaryHeap<Reverse<(Key, usize)>>,
    /// The shard being taken from while its items come first.
    current: Option<usize>,
}

impl<'a> Window<'a> {
    /// The next item of the window (a k-way merge by key, then shard): taken from one shard
    /// while its keys come first, the heap asked only when another's do. O(1) per item plus
    /// O(log shards) per change of shard.
    fn take(&mut self) -> Option<Item<'a>> {
        loop {
            if let Some(index) = self.current {
                let cursor = self.cursors.get_mut(index)?;
                match cursor.front() {
                    Some((key, _)) => {
                        let first =
                            self.heads.peek().is_none_or(|Reverse(head)| (*key, index) < *head);
                        if first {
                            return cursor.pop_front().map(|(_, item)| item);
                        }
                        self.heads.push(Reverse((*key, index)));
                        self.current = None;
                    }
                    None => self.current = None,
                }
            }
            let Reverse((_, index)) = self.heads.pop()?;
            crate::work(1);
            self.current = Some(index);
        }
    }
}

fn skip(totals: &mut Totals, why: Skip) {
    let count = totals.skipped.entry(why).or_insert(0);
    *count = count.saturating_add(1);
}

/// The shard of a packet's flow: a hash of its 5-tuple, the same both ways.
fn shard_of(t: &Transport<'_>, count: usize) -> usize {
    let (low, high) = if t.src <= t.dst { (t.src, t.dst) } else { (t.dst, t.src) };
    let mut hasher = DefaultHasher::new();
    (t.protocol == Protocol::Tcp, low, high).hash(&mut hasher);
    let hash = usize::try_from(hasher.finish() >> 32).unwrap_or(0);
    hash.checked_rem(count).unwrap_or(0)
}

/// Gives an item the capture's number of its flow; returns that number.
fn renumber(item: &mut Item<'_>, ids: &BTreeMap<u64, u64>) -> u64 {
    let flow = match item {
        Item::Value(v) => &mut v.flow,
        Item::Refused(r) => &mut r.flow,
        Item::Gap(g) => &mut g.flow,
        Item::Cut(c) => &mut c.flow,
        Item::Enet(e) => &mut e.flow,
        Item::Evicted { flow, .. } => flow,
        Item::WebSocket(w) => &mut w.flow,
    };
    if let Some(id) = ids.get(&flow.0) {
        *flow = FlowId(*id);
    }
    flow.0
}
