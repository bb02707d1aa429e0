//! `LogWriter`, the bounded log: while its output is stuck, callers never wait, lines over the
//! bound are dropped and counted, and once the output takes lines again the drops are reported
//! after what was queued; flushing waits at most as long as it is told.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects, missing_docs)]

use std::io::Write;
use std::net::SocketAddr;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use gdvariant_relay::{LOG_QUEUE_BYTES, LOG_QUEUE_LINES, LogWriter, Observer};

/// How long a wait that should succeed may take.
const PATIENCE: Duration = Duration::from_secs(10);

/// An output that blocks every write until it is opened (a pipe nobody reads), and says when a
/// write began.
struct Gate {
    began: mpsc::Sender<()>,
    open: Arc<(Mutex<bool>, Condvar)>,
    out: Arc<Mutex<Vec<u8>>>,
}

impl Write for Gate {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = self.began.send(());
        let (open, opened) = &*self.open;
        let mut is_open = open.lock().unwrap();
        while !*is_open {
            is_open = opened.wait(is_open).unwrap();
        }
        self.out.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A writer with these bounds to a closed gate; the gate's opener, its write signal and what
/// it let through.
struct Stuck {
    writer: LogWriter,
    began: mpsc::Receiver<()>,
    open: Arc<(Mutex<bool>, Condvar)>,
    out: Arc<Mutex<Vec<u8>>>,
}

impl Stuck {
    fn new(lines: usize, bytes: usize) -> Stuck {
        let (began_tx, began) = mpsc::channel();
        let open = Arc::new((Mutex::new(false), Condvar::new()));
        let out = Arc::new(Mutex::new(Vec::new()));
        let gate = Gate { began: began_tx, open: Arc::clone(&open), out: Arc::clone(&out) };
        let writer = LogWriter::with_bounds(gate, lines, bytes).unwrap();
        Stuck { writer, began, open, out }
    }

    /// Queues a first line and waits until the writer is blocked writing it.
    fn block(&self, line: &str) {
        assert!(self.writer.write_line(line.into()));
        self.began.recv_timeout(PATIENCE).expect("the writer writes");
    }

    fn open(&self) {
        let (open, opened) = &*self.open;
        *open.lock().unwrap() = true;
        opened.notify_all();
    }

    fn lines(&self) -> Vec<String> {
        let out = self.out.lock().unwrap();
        String::from_utf8(out.clone()).unwrap().lines().map(String::from).collect()
    }
}

#[test]
fn a_full_queue_drops_and_counts_without_waiting_and_reports_once_written() {
    let stuck = Stuck::new(4, LOG_QUEUE_BYTES);
    stuck.block("0");
    let start = Instant::now();
    for n in 1..=4 {
        assert!(stuck.writer.write_line(n.to_string()), "line {n} fits");
    }
    for n in 5..=14 {
        assert!(!stuck.writer.write_line(n.to_string()), "line {n} is over the bound");
    }
    assert!(start.elapsed() < Duration::from_secs(2), "queuing never waits for the output");
    assert_eq!(stuck.writer.lines_dropped(), 10);

    // The output is stuck: a flush gives up when told.
    let start = Instant::now();
    assert!(!stuck.writer.flush(Duration::from_millis(100)));
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(100) && waited < PATIENCE, "{waited:?}");
    assert!(stuck.lines().is_empty());

    // The output takes lines again: what was queued, then the report.
    stuck.open();
    assert!(stuck.writer.flush(PATIENCE));
    let expected = ["0", "1", "2", "3", "4", r#"{"event":"log_dropped","lines":10}"#];
    assert_eq!(stuck.lines(), expected);

    // No drops since: no new report.
    assert!(stuck.writer.write_line("15".into()));
    assert!(stuck.writer.flush(PATIENCE));
    assert_eq!(stuck.lines().last().map(String::as_str), Some("15"));
    assert_eq!(stuck.lines().len(), 7);
    assert_eq!(stuck.writer.lines_dropped(), 10, "the total stays");
}

#[test]
fn the_byte_bound_counts_a_newline_per_line() {
    let stuck = Stuck::new(LOG_QUEUE_LINES, 10);
    stuck.block("first");
    assert!(stuck.writer.write_line("1234".into())); // 5 bytes queued
    assert!(stuck.writer.write_line("abcd".into())); // 10
    assert!(!stuck.writer.write_line(String::new())); // 11: over
    stuck.open();
    assert!(stuck.writer.flush(PATIENCE));
    assert!(!stuck.writer.write_line("a line longer than the bound".into()));
    assert!(stuck.writer.flush(PATIENCE), "an idle writer reports a drop too");
    let expected = [
        "first",
        "1234",
        "abcd",
        r#"{"event":"log_dropped","lines":1}"#,
        r#"{"event":"log_dropped","lines":1}"#,
    ];
    assert_eq!(stuck.lines(), expected);
    assert_eq!(stuck.writer.lines_dropped(), 2);
}

#[test]
fn close_writes_what_is_queued_and_drops_what_comes_after() {
    let stuck = Stuck::new(LOG_QUEUE_LINES, LOG_QUEUE_BYTES);
    stuck.block("0");
    assert!(stuck.writer.write_line("1".into()));
    assert!(!stuck.writer.close(Duration::from_millis(50)), "the output is stuck");
    assert!(!stuck.writer.write_line("2".into()), "closed");
    stuck.open();
    assert!(stuck.writer.flush(PATIENCE));
    // The drop after closing is counted, and reported since the writer had not ended.
    assert_eq!(stuck.lines(), ["0", "1", r#"{"event":"log_dropped","lines":1}"#]);
    assert_eq!(stuck.writer.lines_dropped(), 1);
    // Once it has ended, drops are only counted: a flush says at once that their report was
    // not written.
    assert!(!stuck.writer.write_line("3".into()));
    let start = Instant::now();
    assert!(!stuck.writer.flush(PATIENCE));
    assert!(start.elapsed() < PATIENCE);
    assert_eq!(stuck.lines().len(), 3);
    assert_eq!(stuck.writer.lines_dropped(), 2);
}

#[test]
fn as_an_observer_it_writes_the_log_lines() {
    let out = Arc::new(Mutex::new(Vec::new()));
    let (began, _) = mpsc::channel();
    let open = Arc::new((Mutex::new(true), Condvar::new()));
    let gate = Gate { began, open, out: Arc::clone(&out) };
    let writer = LogWriter::new(gate).unwrap();
    let peer: SocketAddr = "127.0.0.1:4000".parse().unwrap();
    Observer::refused(&writer, peer);
    assert!(writer.close(PATIENCE));
    let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
    assert_eq!(
        text,
        "{\"event\":\"refused\",\"peer\":\"127.0.0.1:4000\",\"reason\":\"connection_limit\"}\n"
    );
}
