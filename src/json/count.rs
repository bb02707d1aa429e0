//! What the JSON writers count as work (feature `work-counter`; nothing without it): each
//! write to the output is a unit, plus one per 64 bytes written, as a read of the input is
//! ([`crate::wire::read`]). The loops that write many small pieces (escapes, hex, base64, the
//! numbers of packed arrays) gather them on the stack first ([`Buffered`]), so that one write
//! carries many pieces, and count a unit per element they format.

use core::fmt::{self, Write};

use crate::wire::work;

/// The output of a JSON writer, counting its writes as work. Without the feature it only
/// forwards.
pub(super) struct Counted<'w, W: ?Sized>(pub(super) &'w mut W);

impl<W: Write + ?Sized> Write for Counted<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        work::add((s.len() >> 6).saturating_add(1));
        self.0.write_str(s)
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        work::add(1);
        self.0.write_char(c)
    }
}

/// Bytes gathered before a write.
const CAPACITY: usize = 128;
/// Pieces at least this long are written as they are (after what was gathered).
const LONG: usize = 32;

/// Small pieces of text gathered on the stack and written to `out` in one piece when the
/// buffer is full, when a long piece comes, or at [`Buffered::flush`] (which the writer must
/// call: nothing is written on drop).
pub(super) struct Buffered<'o, W: ?Sized> {
    out: &'o mut W,
    buf: [u8; CAPACITY],
    len: usize,
}

impl<'o, W: Write + ?Sized> Buffered<'o, W> {
    /// An empty buffer in front of `out`.
    pub(super) fn new(out: &'o mut W) -> Self {
        Buffered { out, buf: [0; CAPACITY], len: 0 }
    }

    /// Appends one ASCII byte.
    #[inline]
    pub(super) fn push_byte(&mut self, byte: u8) -> fmt::Result {
        if self.len >= CAPACITY {
            self.flush()?;
        }
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = byte;
            self.len = self.len.saturating_add(1);
        }
        Ok(())
    }

    /// Writes what was gathered.
    pub(super) fn flush(&mut self) -> fmt::Result {
        let gathered = self.buf.get(..self.len).unwrap_or(&[]);
        self.len = 0;
        if gathered.is_empty() {
            return Ok(());
        }
        // Whole `str`s and ASCII bytes only, so always UTF-8.
        self.out.write_str(core::str::from_utf8(gathered).map_err(|_| fmt::Error)?)
    }
}

impl<W: Write + ?Sized> Write for Buffered<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.len() >= LONG {
            self.flush()?;
            return self.out.write_str(s);
        }
        if self.len.saturating_add(s.len()) > CAPACITY {
            self.flush()?;
        }
        let end = self.len.saturating_add(s.len());
        match self.buf.get_mut(self.len..end) {
            Some(target) => {
                target.copy_from_slice(s.as_bytes());
                self.len = end;
                Ok(())
            }
            None => self.out.write_str(s),
        }
    }
}
