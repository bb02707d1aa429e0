//! Writing to standard output or a file, with a closed pipe ending the command quietly.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use crate::failure::Failure;

/// Buffered standard output.
pub struct Out {
    inner: BufWriter<Box<dyn Write>>,
}

impl Out {
    /// Standard output.
    pub fn stdout() -> Self {
        Out { inner: BufWriter::with_capacity(1 << 16, Box::new(io::stdout().lock())) }
    }

    /// `path` (created or truncated), or standard output for `-`.
    pub fn create(path: &Path) -> Result<Self, Failure> {
        if path.as_os_str() == "-" {
            return Ok(Self::stdout());
        }
        let file =
            File::create(path).map_err(|e| Failure::input(&path.display().to_string(), e))?;
        Ok(Out { inner: BufWriter::with_capacity(1 << 16, Box::new(file)) })
    }

    /// Writes bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.inner.write_all(bytes).map_err(|e| Failure::output(&e))
    }

    /// Writes a line.
    pub fn line(&mut self, text: &str) -> Result<(), Failure> {
        self.bytes(text.as_bytes())?;
        self.bytes(b"\n")
    }

    /// Flushes everything written.
    pub fn finish(mut self) -> Result<(), Failure> {
        self.inner.flush().map_err(|e| Failure::output(&e))
    }
}

/// Refuses to write binary output to a terminal.
pub fn check_binary_target(out: Option<&Path>) -> Result<(), Failure> {
    let to_stdout = out.is_none_or(|path| path.as_os_str() == "-");
    if to_stdout && io::stdout().is_terminal() {
        return Err(Failure::Usage(
            "binary output to a terminal: redirect it or give -o FILE".to_owned(),
        ));
    }
    Ok(())
}
