//! Writing to standard output or a file, with a closed pipe ending the command quietly; files
//! written safely ([`OutputFile`]): beside the target first, renamed over it on success; an
//! output that is the input refused ([`check_not_input`]).

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tempfile::NamedTempFile;

use crate::failure::{self, Failure};
use crate::interrupt::Partial;

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
///   temporary file beside the target, `.NAME.gdvariant-partial.XXXXXX` (six random letters and
///   digits), renamed over it by [`commit`](Self::commit). Dropped without `commit` (any
///   failure), or on SIGINT, SIGTERM or SIGHUP ([`crate::interrupt`]), only the temporary file
///   is removed: an existing target is left as it was, byte for byte.
///
/// The temporary file is locked (`flock`) while it is written. One that a command stopped by
/// SIGKILL or a crash left behind is removed by the next command that writes the same target:
/// only names of exactly that pattern, regular files, that no running command holds locked;
/// each removal is said on standard error.
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
    Temp {
        file: NamedTempFile,
        target: PathBuf,
        /// Whether a file is replaced (else one is created).
        replaces: bool,
        /// Removed on a signal; dropped after `file` (which removes the file itself).
        partial: Partial,
    },
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
                    let (file, partial) = temp_beside(&target, &name, Some(meta.permissions()))?;
                    Target::Temp { file, target, replaces: true, partial }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    let (file, partial) = temp_beside(path, &name, None)?;
                    Target::Temp { file, target: path.to_owned(), replaces: false, partial }
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

    /// Whether [`commit`](Self::commit) replaces a file that existed when this was created.
    pub fn replaces(&self) -> bool {
        matches!(self.inner, Target::Temp { replaces: true, .. })
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
            Target::Temp { file, target, partial, .. } => {
                let persisted = partial.commit(|| file.persist(&target));
                persisted.map_err(|e| Failure::input(&self.name, e.error))?;
                Ok(())
            }
        }
    }
}

/// [`Failure::Closed`] if `closed` was set, else `name: error` as an input failure.
pub fn closed_or(closed: &AtomicBool, name: &str, error: &dyn std::fmt::Display) -> Failure {
    if closed.load(Ordering::Relaxed) { Failure::Closed } else { Failure::input(name, error) }
}

/// What follows `.NAME.` in a temporary file's name, before its random letters.
const PARTIAL_MARK: &str = "gdvariant-partial.";
/// The random letters and digits that end a temporary file's name.
const RANDOM_LEN: usize = 6;

/// A new temporary file in the folder of `target` (named `name` in messages), locked and
/// registered for removal on a signal, with `permissions` (those of the file it replaces) or
/// the permissions a new file gets (0666 less the umask). Stale temporary files of the same
/// target are removed first ([`remove_stale`]).
fn temp_beside(
    target: &Path,
    name: &str,
    permissions: Option<Permissions>,
) -> Result<(NamedTempFile, Partial), Failure> {
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    let prefix = format!(
        ".{}.{PARTIAL_MARK}",
        target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    );
    remove_stale(folder, &prefix);
    builder.prefix(&prefix).suffix("").rand_bytes(RANDOM_LEN);
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        Some(permissions.unwrap_or_else(|| Permissions::from_mode(0o666)))
    };
    let make = || {
        let file = match permissions {
            Some(permissions) => builder.permissions(permissions).tempfile_in(folder),
            None => builder.tempfile_in(folder),
        };
        let file = file.map_err(|e| Failure::input(name, e))?;
        // Held until the file is closed: tells a later command that this one is still
        // running. A file system without locks leaves it unlocked (the file is then removed
        // only by this command, or as stale by the next).
        let _ = file.as_file().try_lock();
        Ok(file)
    };
    Partial::create(name, make, |file: &NamedTempFile| file.path())
}

/// Removes the temporary files in `folder` named `PREFIX` + six letters and digits (`PREFIX` is
/// `.NAME.gdvariant-partial.` for the target `NAME`) that are regular files no running command
/// holds locked: what a command stopped by SIGKILL or a crash left. Says each on standard error.
/// Nothing else is touched, and a file that cannot be looked at is left alone.
fn remove_stale(folder: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|name| name.strip_prefix(prefix)) else {
            continue;
        };
        if rest.len() != RANDOM_LEN || !rest.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        // Not a symbolic link, a folder or a FIFO.
        if !entry.file_type().is_ok_and(|kind| kind.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else { continue };
        if file.try_lock().is_err() {
            // A running command is writing it.
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            failure::error_line(format_args!(
                "removed {}: the temporary file of an earlier command that was stopped before \
                 it finished",
                path.display()
            ));
        }
    }
}

/// Refuses (a usage error) an output that is one of the inputs, or another output: the same
/// file, by device and inode, whatever the path (a hard link, a symbolic link, `./x` for `x`;
/// `-` for standard input is the file or pipe it is). `outputs` are `(option, path)`, such as
/// `("-o", out)`. An output is compared with the inputs when it is an existing regular file
/// (a target that does not exist yet, `-`, a pipe or a device is never replaced); two outputs
/// also by name, as neither may exist yet. Checked before anything is read or written.
pub fn check_not_input(outputs: &[(&str, &Path)], inputs: &[&Path]) -> Result<(), Failure> {
    for (at, (option, output)) in outputs.iter().enumerate() {
        let id = file_id(output);
        for input in inputs {
            if id.is_some() && stream_id(input) == id {
                return Err(Failure::Usage(format!(
                    "{option} {}: is the input {} (the same file); write to another file",
                    output.display(),
                    crate::input::name(input)
                )));
            }
        }
        for (other_option, other) in outputs.iter().take(at) {
            if (id.is_some() && file_id(other) == id) || same_target(output, other) {
                return Err(Failure::Usage(format!(
                    "{option} {}: is the file of {other_option} {}; give each its own file",
                    output.display(),
                    other.display()
                )));
            }
        }
    }
    Ok(())
}

/// Whether two outputs name the same file, which may not exist yet: the same name in the same
/// folder (symbolic links resolved), or the same file (a hard link).
fn same_target(a: &Path, b: &Path) -> bool {
    let resolved = |path: &Path| -> Option<PathBuf> {
        if path.as_os_str() == "-" {
            return None;
        }
        if let Ok(path) = std::fs::canonicalize(path) {
            return Some(path);
        }
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(folder).ok()?.join(path.file_name()?))
    };
    resolved(a).is_some_and(|a| Some(a) == resolved(b))
}

/// What tells two files apart: the device and inode (elsewhere, the canonical path).
#[cfg(unix)]
type FileId = (u64, u64);
#[cfg(not(unix))]
type FileId = PathBuf;

/// A regular file's identity (a symbolic link followed); `None` for `-`, a missing file, or
/// what is not a regular file.
fn file_id(path: &Path) -> Option<FileId> {
    if path.as_os_str() == "-" {
        return None;
    }
    let meta = std::fs::metadata(path).ok().filter(|meta| meta.is_file())?;
    id_of(path, &meta)
}

/// The identity of what `path` reads (`-`: standard input).
fn stream_id(path: &Path) -> Option<FileId> {
    if path.as_os_str() != "-" {
        return id_of(path, &std::fs::metadata(path).ok()?);
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stdin = io::stdin().as_fd().try_clone_to_owned().ok()?;
        let meta = File::from(stdin).metadata().ok()?;
        id_of(path, &meta)
    }
    #[cfg(not(unix))]
    None
}

/// Device and inode.
#[cfg(unix)]
fn id_of(_path: &Path, meta: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

/// The canonical path.
#[cfg(not(unix))]
fn id_of(path: &Path, _meta: &std::fs::Metadata) -> Option<FileId> {
    std::fs::canonicalize(path).ok()
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
