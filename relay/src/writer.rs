//! [`LogWriter`]: a bounded queue of log lines and the thread that writes them, so that the
//! tasks serving connections never wait on a slow or stuck log (a pipe nobody reads).

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// Lines a [`LogWriter`] holds by default ([`LogWriter::new`], [`LogWriter::stderr`]).
pub const LOG_QUEUE_LINES: usize = 4096;

/// Bytes a [`LogWriter`] holds by default (a newline counted per line): 1 MiB.
pub const LOG_QUEUE_BYTES: usize = 1 << 20;

/// The writer thread takes lines off the queue until it holds this many bytes, then writes
/// them with one call.
const CHUNK: usize = 64 << 10;

/// A bounded, non-blocking log: callers hand it finished lines ([`LogWriter::write_line`]), a
/// thread of its own writes them, in order, to its output.
///
/// **Never blocks the caller on the output.** When the queue is full (the output is slow, or a
/// pipe nobody reads), a line is dropped and counted, not waited for; the caller only takes a
/// mutex that the writer holds to move at most 64 KiB of lines off the queue, never while
/// writing. When the writer gets
/// lines out again, it writes `{"event":"log_dropped","lines":N}` after them: N lines were
/// dropped since its last such line. [`LogWriter::lines_dropped`] is the total so far.
///
/// **Bounds**: at most `lines` lines and `bytes` bytes (a newline counted per line) wait in the
/// queue ([`LOG_QUEUE_LINES`] = 4096 lines and [`LOG_QUEUE_BYTES`] = 1 MiB by default), plus at
/// most 64 KiB (and one line) the writer is writing. A line longer than `bytes` is always
/// dropped.
///
/// **Costs**: per line, the caller's own `String` (moved into the queue, not copied), the
/// queue's lock held for O(1), and a wake-up of the writer when it was idle; one thread per
/// writer, which copies the lines it takes into one buffer and writes up to 64 KiB (and one
/// line) per call. Write errors (a closed standard error)
/// are ignored, and those lines are not counted as dropped.
///
/// **At exit**, call [`LogWriter::flush`] or [`LogWriter::close`] with a bounded wait: lines
/// still queued when the process exits are lost (a stuck output may never take them).
///
/// Clones share the queue and the thread. A `LogWriter` is also an
/// [`Observer`](crate::Observer) that writes [`Log`](crate::Log)'s lines to its own output.
#[derive(Clone, Debug)]
pub struct LogWriter {
    shared: Arc<Shared>,
}

/// What callers and the writer thread share.
#[derive(Debug)]
struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the writer: a line was queued or dropped, or the writer is closing.
    work: Condvar,
    /// Wakes those waiting for a flush: the writer wrote what it took.
    written: Condvar,
    /// Most lines queued.
    max_lines: usize,
    /// Most bytes queued.
    max_bytes: usize,
    /// Lines dropped since the start.
    dropped: AtomicU64,
}

/// The lines waiting, and the writer's state.
#[derive(Debug, Default)]
struct Queue {
    lines: VecDeque<String>,
    /// Their bytes, a newline counted per line.
    bytes: usize,
    /// Lines dropped since the last `log_dropped` line was taken to be written.
    unreported: u64,
    /// The writer waits for work (wake it when there is some).
    idle: bool,
    /// The writer holds lines it has not written yet.
    writing: bool,
    /// No more lines are queued; the writer ends once the queue is written.
    closed: bool,
    /// The writer thread runs.
    alive: bool,
}

impl Queue {
    /// Nothing left to write.
    fn is_done(&self) -> bool {
        self.lines.is_empty() && self.unreported == 0 && !self.writing
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Marks the writer gone when its thread ends (even by a panic in the output's `write`).
struct Alive(Arc<Shared>);

impl Drop for Alive {
    fn drop(&mut self) {
        let mut queue = self.0.lock();
        queue.alive = false;
        queue.writing = false;
        drop(queue);
        self.0.written.notify_all();
    }
}

impl LogWriter {
    /// A writer to `out` with the default bounds ([`LOG_QUEUE_LINES`], [`LOG_QUEUE_BYTES`]).
    /// Fails if its thread cannot be started.
    pub fn new<W: Write + Send + 'static>(out: W) -> io::Result<Self> {
        LogWriter::with_bounds(out, LOG_QUEUE_LINES, LOG_QUEUE_BYTES)
    }

    /// A writer to `out` that queues at most `lines` lines and `bytes` bytes (a newline
    /// counted per line). Fails if its thread cannot be started.
    pub fn with_bounds<W: Write + Send + 'static>(
        out: W,
        lines: usize,
        bytes: usize,
    ) -> io::Result<Self> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue { alive: true, ..Queue::default() }),
            work: Condvar::new(),
            written: Condvar::new(),
            max_lines: lines,
            max_bytes: bytes,
            dropped: AtomicU64::new(0),
        });
        let alive = Alive(Arc::clone(&shared));
        let spawned = std::thread::Builder::new()
            .name("gdvariant-log".into())
            .spawn(move || write_lines(&alive.0, out));
        // If the thread did not start, its closure (and `Alive`) is dropped: the writer is gone.
        spawned.map(|_| LogWriter { shared })
    }

    /// The process's writer to standard error, started on first use, with the default bounds
    /// ([`Log`](crate::Log) writes through it). If its thread cannot be started, every line is
    /// dropped and counted.
    pub fn stderr() -> &'static LogWriter {
        static STDERR: OnceLock<LogWriter> = OnceLock::new();
        STDERR.get_or_init(|| {
            LogWriter::new(io::stderr()).unwrap_or_else(|_| LogWriter::without_thread())
        })
    }

    /// A writer without a thread, that drops and counts every line.
    fn without_thread() -> Self {
        let queue = Queue { closed: true, ..Queue::default() };
        LogWriter {
            shared: Arc::new(Shared {
                queue: Mutex::new(queue),
                work: Condvar::new(),
                written: Condvar::new(),
                max_lines: 0,
                max_bytes: 0,
                dropped: AtomicU64::new(0),
            }),
        }
    }

    /// Queues `line` (without its newline; the writer adds one), or drops and counts it when
    /// the queue is full or the writer closed. Never waits for the output. Returns whether it
    /// was queued.
    pub fn write_line(&self, line: String) -> bool {
        let shared = &*self.shared;
        let len = line.len().saturating_add(1);
        let mut queue = shared.lock();
        let fits = !queue.closed
            && queue.lines.len() < shared.max_lines
            && queue.bytes.checked_add(len).is_some_and(|bytes| bytes <= shared.max_bytes);
        if fits {
            queue.bytes = queue.bytes.saturating_add(len);
            queue.lines.push_back(line);
        } else {
            queue.unreported = queue.unreported.saturating_add(1);
            shared.dropped.fetch_add(1, Ordering::Relaxed);
        }
        let wake = queue.idle;
        drop(queue);
        if wake {
            shared.work.notify_one();
        }
        fits
    }

    /// Lines dropped so far, because the queue was full (or the writer closed).
    pub fn lines_dropped(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// Waits at most `wait` for every line queued so far (and the report of any dropped) to be
    /// written. Returns whether they were; `false` if the output did not take them in time (or
    /// the writer thread is gone).
    pub fn flush(&self, wait: Duration) -> bool {
        let shared = &*self.shared;
        let deadline = Instant::now().checked_add(wait);
        let mut queue = shared.lock();
        loop {
            if queue.is_done() {
                return true;
            }
            if !queue.alive {
                return false;
            }
            let left = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                None => wait,
            };
            if left.is_zero() {
                return false;
            }
            queue = shared
                .written
                .wait_timeout(queue, left)
                .map_or_else(|e| e.into_inner().0, |(queue, _)| queue);
        }
    }

    /// Stops taking lines (later ones are dropped and counted, and reported only while the
    /// writer has not ended), then flushes as [`LogWriter::flush`] does; the writer thread ends
    /// once everything is written.
    pub fn close(&self, wait: Duration) -> bool {
        let mut queue = self.shared.lock();
        queue.closed = true;
        drop(queue);
        self.shared.work.notify_one();
        self.flush(wait)
    }
}

/// The writer thread: takes up to [`CHUNK`] bytes of lines at a time and writes them, followed
/// by a `log_dropped` line when lines were dropped since the last; ends when closed and done.
fn write_lines<W: Write>(shared: &Shared, mut out: W) {
    let mut taken: Vec<String> = Vec::new();
    let mut buffer: Vec<u8> = Vec::new();
    loop {
        let mut queue = shared.lock();
        queue.writing = false;
        if queue.lines.is_empty() && queue.unreported == 0 {
            shared.written.notify_all();
        }
        while queue.lines.is_empty() && queue.unreported == 0 {
            if queue.closed {
                return;
            }
            queue.idle = true;
            queue = shared.work.wait(queue).unwrap_or_else(PoisonError::into_inner);
            queue.idle = false;
        }
        let mut size = 0usize;
        while size < CHUNK {
            let Some(line) = queue.lines.pop_front() else { break };
            let len = line.len().saturating_add(1);
            queue.bytes = queue.bytes.saturating_sub(len);
            size = size.saturating_add(len);
            taken.push(line);
        }
        let unreported = std::mem::take(&mut queue.unreported);
        queue.writing = true;
        drop(queue);

        buffer.clear();
        for line in taken.drain(..) {
            buffer.extend_from_slice(line.as_bytes());
            buffer.push(b'\n');
        }
        if unreported > 0 {
            let mut report = String::new();
            let _ = writeln!(report, "{{\"event\":\"log_dropped\",\"lines\":{unreported}}}");
            buffer.extend_from_slice(report.as_bytes());
        }
        let _ = out.write_all(&buffer).and_then(|()| out.flush());
        // A line far longer than the others leaves no large buffer behind.
        buffer.shrink_to(CHUNK.saturating_mul(2));
    }
}
