//! Reading an input: a memory-mapped regular file, or standard input and other files read
//! into memory.

use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::Path;

use memmap2::Mmap;

use crate::failure::Failure;

/// The bytes of an input.
pub enum Input {
    /// A regular file, mapped: pages are read as they are touched, and the kernel may drop
    /// them again, so a file larger than memory can be scanned.
    Mapped(Mmap),
    /// Standard input, a pipe, or an empty file, read whole.
    Read(Vec<u8>),
}

impl Deref for Input {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Input::Mapped(map) => map,
            Input::Read(bytes) => bytes,
        }
    }
}

/// How an input is named in messages: its path as given, `-` for standard input.
pub fn name(path: &Path) -> String {
    path.display().to_string()
}

/// Opens `path` (`-`: standard input).
pub fn open(path: &Path) -> Result<Input, Failure> {
    let name = name(path);
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes).map_err(|e| Failure::input(&name, e))?;
        return Ok(Input::Read(bytes));
    }
    let mut file = File::open(path).map_err(|e| Failure::input(&name, e))?;
    let metadata = file.metadata().map_err(|e| Failure::input(&name, e))?;
    if metadata.is_dir() {
        return Err(Failure::input(&name, "is a directory"));
    }
    if !metadata.is_file() || metadata.len() == 0 {
        // Pipes, devices, and empty files (which cannot be mapped).
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| Failure::input(&name, e))?;
        return Ok(Input::Read(bytes));
    }
    #[allow(unsafe_code)]
    // SAFETY: the mapping is only read, and stays valid while `Input` lives. This assumes no
    // other process truncates or rewrites the file while it is mapped: a truncation would make
    // reads past the new end fault (SIGBUS), a rewrite would change bytes under a borrowed
    // slice. A file being changed while it is read cannot be read consistently anyway.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| Failure::input(&name, e))?;
    #[cfg(unix)]
    {
        // Frames are read front to back; a failed hint changes nothing.
        let _ = map.advise(memmap2::Advice::Sequential);
    }
    Ok(Input::Mapped(map))
}
