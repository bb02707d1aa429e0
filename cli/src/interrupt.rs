//! SIGINT, SIGTERM and SIGHUP while a command writes files: every temporary file still being
//! written is removed, every target is left as it was, and the command exits with 128 + the
//! signal's number (130, 143, 129), as a shell reports a command a signal ended.
//!
//! The signals are watched from the first temporary file a command creates
//! ([`Partial::create`]) to its end: a thread waits for them (`signal-hook`), so the command
//! is stopped at whatever it is doing, reading, converting or writing. Putting a file in place
//! ([`Partial::commit`]) and the thread's removals take one lock, so a signal either comes
//! before the rename (the target is untouched, the temporary file removed) or after it (the
//! target is complete).
//!
//! A command stopped by SIGKILL (or a crash) cannot clean up: its temporary file is named to be
//! found again ([`crate::output`]) and the next command that writes the same target removes it.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::failure::{self, Failure};

/// The temporary files being written, with their targets' names.
static PARTIAL: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

/// Whether the watching thread was started (or why it could not be).
static WATCHING: OnceLock<Result<(), String>> = OnceLock::new();

/// A temporary file registered for removal on SIGINT, SIGTERM or SIGHUP (until it is put in
/// place or dropped).
#[derive(Debug)]
pub struct Partial {
    path: PathBuf,
}

impl Partial {
    /// Creates a temporary file with `make` and registers it (at `path_of` it), for `target`
    /// (its name, for the message). The signals are watched before the file exists, and a
    /// signal that comes while it is being created is handled once it is registered, so no
    /// signal leaves it behind.
    pub fn create<T>(
        target: &str,
        make: impl FnOnce() -> Result<T, Failure>,
        path_of: impl FnOnce(&T) -> &Path,
    ) -> Result<(T, Partial), Failure> {
        watch()?;
        let mut partial = lock();
        let made = make()?;
        let path = path_of(&made).to_owned();
        partial.push((path.clone(), target.to_owned()));
        Ok((made, Partial { path }))
    }

    /// Runs `put` (the rename that puts the file in place) while no signal is being handled,
    /// then forgets the file.
    pub fn commit<T>(self, put: impl FnOnce() -> T) -> T {
        let mut partial = lock();
        let result = put();
        partial.retain(|(path, _)| *path != self.path);
        result
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        lock().retain(|(path, _)| *path != self.path);
    }
}

/// The list of temporary files (still usable after a panic elsewhere).
fn lock() -> std::sync::MutexGuard<'static, Vec<(PathBuf, String)>> {
    PARTIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the thread that waits for the signals, once.
fn watch() -> Result<(), Failure> {
    let started = WATCHING.get_or_init(|| {
        let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).map_err(|e| e.to_string())?;
        std::thread::Builder::new()
            .name("signals".to_owned())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    stop(signal);
                }
            })
            .map(drop)
            .map_err(|e| e.to_string())
    });
    started.clone().map_err(|e| Failure::Input(format!("cannot watch for signals: {e}")))
}

/// Removes every temporary file, says which targets were left as they were, and exits with
/// 128 + `signal`. The lock is kept to the end, so no file is put in place meanwhile.
fn stop(signal: i32) -> ! {
    let partial = lock();
    let mut targets = Vec::new();
    for (path, target) in partial.iter() {
        // Already gone when the command was removing it itself.
        let _ = std::fs::remove_file(path);
        targets.push(target.as_str());
    }
    let name = match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    match targets.as_slice() {
        [] => failure::error_line(format_args!("interrupted by {name}")),
        [target] => failure::error_line(format_args!(
            "interrupted by {name}: {target} left as it was, its temporary file removed"
        )),
        targets => failure::error_line(format_args!(
            "interrupted by {name}: {} left as they were, their temporary files removed",
            targets.join(", ")
        )),
    }
    std::process::exit(128_i32.saturating_add(signal))
}
