//! Frames on every core: the dump is cut into chunks of whole frames (finding frame boundaries
//! reads only the length prefixes), chunks are checked and converted on `--jobs` threads
//! (rayon), and their results are handed on in frame order, so the output is the same bytes
//! whatever the number of threads.
//!
//! Chunks end after [`CHUNK_BYTES`] of frames or [`CHUNK_FRAMES`] frames, whichever comes
//! first: where they end depends on the input only. At most two chunks per thread are in
//! flight, so memory does not grow with the dump.

use std::collections::BTreeMap;
use std::sync::mpsc;

use gdvariant::Options;
use gdvariant::framing::{self, FrameError, LengthPrefix, RawFrame, Skipped};

use crate::failure::Failure;

/// Bytes of frames after which a chunk ends.
pub const CHUNK_BYTES: usize = 8 << 20;
/// Frames after which a chunk ends, by default (`--chunk-frames`).
pub const CHUNK_FRAMES: usize = 1 << 16;

/// A frame, or what stood where a frame should have.
#[derive(Clone, Copy, Debug)]
pub enum Item<'a> {
    /// A frame whose prefix is sound; its value is still to check.
    Frame(RawFrame<'a>),
    /// With `--skip-bad`: bytes after a prefix no frame can follow, up to the next good frame.
    Skipped(Skipped),
    /// Without `--skip-bad`: a prefix no frame can follow; nothing after it is read.
    Broken(FrameError),
}

/// Consecutive items of a dump.
#[derive(Debug)]
pub struct Chunk<'a> {
    /// The chunk's number in the dump (0, 1, ...).
    #[cfg_attr(not(feature = "export"), allow(dead_code))]
    pub number: usize,
    /// The index of the first item's frame in the dump (stretches count as one frame, as in
    /// `frames --skip-bad`).
    pub first: u64,
    /// The items.
    pub items: Vec<Item<'a>>,
    /// Where the chunk ends in the dump (for progress).
    pub end: u64,
}

/// The chunks of a dump: every frame, and what stands between frames that cannot be read.
pub fn chunks<'a>(
    bytes: &'a [u8],
    prefix: LengthPrefix,
    options: Options,
    skip_bad: bool,
    chunk_frames: usize,
) -> impl Iterator<Item = Chunk<'a>> + 'a {
    let chunk_frames = chunk_frames.max(1);
    let mut items: Box<dyn Iterator<Item = Item<'a>> + 'a> = if skip_bad {
        Box::new(framing::raw_scan(bytes, prefix, options).map(|item| match item {
            Ok(raw) => Item::Frame(raw),
            Err(skipped) => Item::Skipped(skipped),
        }))
    } else {
        Box::new(framing::raw_frames(bytes, prefix).map(|item| match item {
            Ok(raw) => Item::Frame(raw),
            Err(error) => Item::Broken(error),
        }))
    };
    let mut first = 0u64;
    let mut number = 0usize;
    std::iter::from_fn(move || {
        let mut chunk = Chunk { number, first, items: Vec::new(), end: 0 };
        number = number.saturating_add(1);
        let mut size = 0usize;
        for item in items.by_ref() {
            let (len, end) = match item {
                Item::Frame(raw) => {
                    let len = raw.raw_bytes().len();
                    (len, raw.offset().saturating_add(len as u64))
                }
                Item::Skipped(skipped) => (
                    usize::try_from(skipped.len).unwrap_or(usize::MAX),
                    skipped.error.offset().saturating_add(skipped.len),
                ),
                Item::Broken(error) => (0, error.offset()),
            };
            chunk.items.push(item);
            chunk.end = end;
            size = size.saturating_add(len);
            if size >= CHUNK_BYTES || chunk.items.len() >= chunk_frames {
                break;
            }
        }
        first = first.saturating_add(chunk.items.len() as u64);
        (!chunk.items.is_empty()).then_some(chunk)
    })
}

/// The number of threads for `--jobs` (0, the default: every core).
pub fn threads(jobs: usize) -> usize {
    if jobs > 0 {
        return jobs;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Whether the sink wants more results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Stop: nothing after this result is wanted.
    Stop,
}

/// Runs `work` on every chunk on `jobs` threads, and `sink` on the results in chunk order.
/// With one job everything runs on the calling thread. Stops when `sink` says so or fails
/// (chunks already started are finished and dropped).
pub fn run<'a, R: Send>(
    jobs: usize,
    chunks: impl Iterator<Item = Chunk<'a>>,
    work: impl Fn(Chunk<'a>) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<Flow, Failure>,
) -> Result<(), Failure> {
    if jobs <= 1 {
        for chunk in chunks {
            if sink(work(chunk))? == Flow::Stop {
                break;
            }
        }
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("gdvariant-{i}"))
        .build()
        .map_err(|e| Failure::Input(format!("cannot start {jobs} threads: {e}")))?;
    let window = jobs.saturating_mul(2);
    let work = &work;
    pool.in_place_scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(u64, R)>();
        let mut chunks = chunks.zip(0u64..);
        let mut pending = BTreeMap::new();
        let (mut next, mut in_flight) = (0u64, 0usize);
        loop {
            while in_flight < window {
                let Some((chunk, index)) = chunks.next() else { break };
                let sender = sender.clone();
                scope.spawn(move |_| {
                    // The receiver is gone only when the sink failed: the result is not needed.
                    let _ = sender.send((index, work(chunk)));
                });
                in_flight = in_flight.saturating_add(1);
            }
            if in_flight == 0 {
                return Ok(());
            }
            let Ok((index, result)) = receiver.recv() else { return Ok(()) };
            pending.insert(index, result);
            while let Some(result) = pending.remove(&next) {
                next = next.saturating_add(1);
                in_flight = in_flight.saturating_sub(1);
                if sink(result)? == Flow::Stop {
                    return Ok(());
                }
            }
        }
    })
}
