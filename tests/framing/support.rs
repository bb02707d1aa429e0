//! Readers with quirks (a trickle, interruptions and `WouldBlock`, a byte count), and a copy of
//! a stream.

use super::*;

/// Returns at most `chunk` bytes per read.
pub(crate) struct Trickle<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.chunk.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Fails every other read with `kind` (before returning up to 3 bytes), and counts the bytes
/// handed out.
pub(crate) struct Flaky<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) kind: io::ErrorKind,
    pub(crate) calls: usize,
    pub(crate) served: usize,
}

impl Read for Flaky<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls % 2 == 1 {
            return Err(io::Error::new(self.kind, "not now"));
        }
        let n = 3.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.served += n;
        Ok(n)
    }
}

/// Counts the bytes read through it.
pub(crate) struct Counting<R> {
    pub(crate) inner: R,
    pub(crate) read: usize,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(out)?;
        self.read += n;
        Ok(n)
    }
}

pub(crate) fn clone_stream(stream: &Stream) -> Stream {
    Stream {
        version: stream.version,
        name: stream.name.clone(),
        bytes: stream.bytes.clone(),
        prefix: stream.prefix,
        options: stream.options,
        sizes: stream.sizes.clone(),
        expected: stream.expected.clone(),
    }
}
