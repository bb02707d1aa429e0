//! [`CaptureFile`]: the proxy's `--capture FILE`, every message it receives in the library's
//! capture format (`gdvariant_multiplayer::capture`), for `gdvariant multiplayer FILE`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use gdvariant_multiplayer::Direction;
use gdvariant_multiplayer::capture::{self, Header, RecordHead};

use gdvariant_relay::Channel;

use crate::failure::Failure;
use crate::output;

/// A capture file being written, shared by every connection.
#[derive(Debug)]
pub struct CaptureFile {
    file: Mutex<BufWriter<File>>,
    start: Instant,
}

impl CaptureFile {
    /// Creates `path` and writes the header. The file is written in place as messages come
    /// (so that a proxy that is killed leaves every message before), so an existing file is
    /// refused rather than truncated ([`output::create_log`]); a FIFO is written directly.
    pub fn create(path: &Path, header: Header) -> Result<Self, Failure> {
        let name = path.display().to_string();
        let file = output::create_log(path)?;
        let mut file = BufWriter::new(file);
        let mut bytes = Vec::new();
        capture::write_header(&mut bytes, header).map_err(|e| Failure::input(&name, e))?;
        file.write_all(&bytes).map_err(|e| Failure::input(&name, e))?;
        file.flush().map_err(|e| Failure::input(&name, e))?;
        Ok(CaptureFile { file: Mutex::new(file), start: Instant::now() })
    }

    /// Appends one message of connection number `connection` that came on `channel` (channel 0,
    /// reliable, over transports without channels), and flushes it, so that a capture of a
    /// proxy that is killed keeps everything before. A write error is ignored: capturing never
    /// stops the traffic.
    pub fn record(
        &self,
        connection: u32,
        direction: Direction,
        channel: Option<Channel>,
        dropped: bool,
        bytes: &[u8],
    ) {
        let head = RecordHead {
            micros: u64::try_from(self.start.elapsed().as_micros()).unwrap_or(u64::MAX),
            connection,
            direction,
            channel: channel.map_or(0, |c| c.number),
            mode: channel.map_or(0, |c| c.mode.number()),
            flags: if dropped { capture::DROPPED } else { 0 },
        };
        let mut record = Vec::with_capacity(bytes.len().saturating_add(20));
        if capture::write_record(&mut record, &head, bytes).is_err() {
            return;
        }
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = file.write_all(&record).and_then(|()| file.flush());
    }
}
