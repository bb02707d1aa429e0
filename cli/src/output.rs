//! Writing to standard output or a file, with a closed pipe ending the command quietly; files
//! written safely ([`OutputFile`]): beside the target first, renamed over it on success.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tempfile::NamedTempFile;

use crate::failure::Failure;

/// Buffered standard output, or a file written safely ([`OutputFile`]).
pub enum Out {
    /// Standard output.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A file, put in place by [`finish`](Self::finish).
    File(BufWriter<OutputFile>),
}

impl Out {
    /// Standard output.
    pub fn stdout() -> Self {
        Out::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock()))
    }

    /// `path` written safely ([`OutputFile`]: an existing file is replaced only by
    /// [`finish`](Self::finish)), or standard output for `-`.
    pub fn create(path: &Path) -> Result<Self, Failure> {
        if path.as_os_str() == "-" {
            return Ok(Self::stdout());
        }
        Ok(Out::File(BufWriter::with_capacity(1 << 16, OutputFile::create(path)?)))
    }

    /// Writes bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        match self {
            Out::Stdout(out) => out.write_all(bytes).map_err(|e| Failure::output(&e)),
            Out::File(file) => file.write_all(bytes).map_err(|e| file.get_ref().failure(&e)),
        }
    }

    /// Writes a line.
    pub fn line(&mut self, text: &str) -> Result<(), Failure> {
        self.bytes(text.as_bytes())?;
        self.bytes(b"\n")
    }

    /// Flushes everything written (and puts a file in place).
    pub fn finish(self) -> Result<(), Failure> {
        match self {
            Out::Stdout(mut out) => out.flush().map_err(|e| Failure::output(&e)),
            Out::File(file) => match file.into_inner() {
                Ok(file) => file.commit(),
                Err(e) => {
                    let (error, file) = e.into_parts();
                    Err(file.get_ref().failure(&error))
                }
            },
        }
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

/// A file a command writes (`-o FILE`, `--rejects FILE`), written safely:
///
/// * `-`: standard output;
/// * a path that exists and is not a regular file (`/dev/stdout` on a pipe, a FIFO, a
///   character device): written directly, as a stream;
/// * otherwise (a new file, or a regular file to replace; a symbolic link is followed): a
///   temporary file beside the target, renamed over it by [`commit`](Self::commit). Dropped
///   without `commit` (any failure), only the temporary file is removed: an existing target is
///   left as it was, byte for byte.
///
/// A write that finds the reader gone (a closed pipe) is remembered: [`closed`](Self::closed)
/// lets the command end quietly ([`Failure::Closed`]) even when the error reached it through a
/// library that wrapped it.
pub struct OutputFile {
    inner: Target,
    name: String,
    closed: Arc<AtomicBool>,
}

/// Where an [`OutputFile`] writes.
enum Target {
    Stdout(io::Stdout),
    Stream(File),
    Temp { file: NamedTempFile, target: PathBuf },
}

#[cfg_attr(not(feature = "export"), allow(dead_code))]
impl OutputFile {
    /// Opens `path` for writing as described on [`OutputFile`]. Nothing is created or
    /// truncated at `path` itself before [`commit`](Self::commit) (a stream target is opened
    /// without truncation).
    pub fn create(path: &Path) -> Result<Self, Failure> {
        let name = if path.as_os_str() == "-" {
            "standard output".to_owned()
        } else {
            path.display().to_string()
        };
        let failure = |e: io::Error| Failure::input(&name, e);
        let inner = if path.as_os_str() == "-" {
            Target::Stdout(io::stdout())
        } else {
            match std::fs::metadata(path) {
                Ok(meta) if !meta.is_file() => {
                    if meta.is_dir() {
                        return Err(Failure::Usage(format!("{name}: is a directory")));
                    }
                    Target::Stream(OpenOptions::new().write(true).open(path).map_err(failure)?)
                }
                Ok(meta) => {
                    // A symbolic link stays one: the file it points to is replaced.
                    let target = std::fs::canonicalize(path).map_err(failure)?;
                    Target::Temp { file: temp_beside(&target, Some(meta.permissions()))?, target }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    Target::Temp { file: temp_beside(path, None)?, target: path.to_owned() }
                }
                Err(e) => return Err(failure(e)),
            }
        };
        Ok(OutputFile { inner, name, closed: Arc::new(AtomicBool::new(false)) })
    }

    /// The target's name for messages (`standard output` for `-`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the output goes to a temporary file first (else it streams to its target).
    pub fn is_temporary(&self) -> bool {
        matches!(self.inner, Target::Temp { .. })
    }

    /// A flag set when a write found the reader gone (shared, so that it can be read after
    /// the file was handed to a writer that swallowed the error's kind).
    pub fn closed(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.closed)
    }

    /// An output error as a [`Failure`]: [`Failure::Closed`] once the reader went away.
    pub fn failure(&self, error: &dyn std::fmt::Display) -> Failure {
        closed_or(&self.closed, &self.name, error)
    }

    /// Flushes everything and, for a temporary file, renames it over the target.
    pub fn commit(mut self) -> Result<(), Failure> {
        self.flush().map_err(|e| self.failure(&e))?;
        match self.inner {
            Target::Stdout(_) | Target::Stream(_) => Ok(()),
            Target::Temp { file, target } => {
                file.persist(&target).map_err(|e| Failure::input(&self.name, e.error))?;
                Ok(())
            }
        }
    }
}

/// [`Failure::Closed`] if `closed` was set, else `name: error` as an input failure.
pub fn closed_or(closed: &AtomicBool, name: &str, error: &dyn std::fmt::Display) -> Failure {
    if closed.load(Ordering::Relaxed) { Failure::Closed } else { Failure::input(name, error) }
}

/// A new temporary file in the folder of `target`, with `permissions` (those of the file it
/// replaces) or the permissions a new file gets (0666 less the umask).
fn temp_beside(target: &Path, permissions: Option<Permissions>) -> Result<NamedTempFile, Failure> {
    let name = target.display().to_string();
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    let prefix = format!(
        ".{}.",
        target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    );
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        Some(permissions.unwrap_or_else(|| Permissions::from_mode(0o666)))
    };
    let file = match permissions {
        Some(permissions) => builder.permissions(permissions).tempfile_in(folder),
        None => builder.tempfile_in(folder),
    };
    file.map_err(|e| Failure::input(&name, e))
}

impl Write for OutputFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let result = match &mut self.inner {
            Target::Stdout(out) => out.write(bytes),
            Target::Stream(file) => file.write(bytes),
            Target::Temp { file, .. } => file.write(bytes),
        };
        self.note(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = match &mut self.inner {
            Target::Stdout(out) => out.flush(),
            Target::Stream(file) => file.flush(),
            Target::Temp { file, .. } => file.flush(),
        };
        self.note(result)
    }
}

impl OutputFile {
    /// Remembers a closed pipe.
    fn note<T>(&self, result: io::Result<T>) -> io::Result<T> {
        if let Err(error) = &result
            && error.kind() == io::ErrorKind::BrokenPipe
        {
            self.closed.store(true, Ordering::Relaxed);
        }
        result
    }
}

/// Opens `path` for a log that is written as it goes and must survive the command being killed
/// (`proxy --capture`): a new file (an existing regular file is refused, never truncated), or
/// an existing pipe, FIFO or device written directly.
pub fn create_log(path: &Path) -> Result<File, Failure> {
    let name = path.display().to_string();
    if path.as_os_str() == "-" {
        return Err(Failure::Usage(format!(
            "{name}: standard output carries the log lines; give a file, FIFO or /dev/fd/N"
        )));
    }
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
        && !meta.is_dir()
    {
        return OpenOptions::new().write(true).open(path).map_err(|e| Failure::input(&name, e));
    }
    OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            Failure::Usage(format!("{name}: exists; remove it or choose another name"))
        } else {
            Failure::input(&name, e)
        }
    })
}
