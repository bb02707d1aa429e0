//! The output of the JSON writers, and what they count as work (feature `work-counter`;
//! nothing without it): each write to the caller's output is a unit, plus one per 64 bytes
//! written, as a read of the input is ([`crate::wire::read`]); the writers count a unit per
//! element they format, whose pieces are bounded.
//!
//! The writers write into a [`Sink`]: a buffer of a few KiB in front of the caller's output,
//! handed on in large pieces, so that the many small pieces of JSON (a bracket, a comma, a
//! number) cost a push each, not a call through the caller's `fmt::Write`. It is allocated once
//! per value written, never per element. A checked string's text goes in as bytes ([`Out`]),
//! and the buffer is checked as UTF-8 once when it is handed on, not each string apart. The
//! public string escaper, which writes to any output, gathers its small pieces on the stack
//! instead ([`Buffered`]).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::wire::work;

/// What a [`Sink`] gathers before it hands the text on.
const SINK_CAPACITY: usize = 8 * 1024;

/// An output of the JSON writers: `fmt::Write`, and bytes known to be UTF-8 (a checked
/// string's text), which a [`Sink`] takes without checking them again.
pub(super) trait Out: Write {
    /// Writes `text`, bytes that are UTF-8 (else [`fmt::Error`]).
    fn push_text(&mut self, text: &[u8]) -> fmt::Result {
        self.write_str(core::str::from_utf8(text).map_err(|_| fmt::Error)?)
    }

    /// Writes `text` (UTF-8, needing no escapes) between double quotes.
    fn push_quoted(&mut self, text: &[u8]) -> fmt::Result {
        self.write_char('"')?;
        self.push_text(text)?;
        self.write_char('"')
    }
}

impl Out for String {}

impl<W: Write + ?Sized> Out for Buffered<'_, W> {}

/// The output of a JSON writer: text gathered in a buffer and written to `out` in pieces of
/// about [`SINK_CAPACITY`] bytes (longer pieces go through as they are), counting those writes
/// as work. [`Sink::finish`] writes what is left (nothing is written on drop).
pub(super) struct Sink<'w, W: ?Sized> {
    out: &'w mut W,
    /// Whole pieces of UTF-8 only (never a character cut), so always UTF-8.
    buf: Vec<u8>,
}

impl<'w, W: Write + ?Sized> Sink<'w, W> {
    /// An empty sink in front of `out`.
    pub(super) fn new(out: &'w mut W) -> Self {
        Sink { out, buf: Vec::new() }
    }

    /// Hands what was gathered to `out`.
    fn flush(&mut self) -> fmt::Result {
        if self.buf.is_empty() {
            return Ok(());
        }
        // One check of the gathered text (an ASCII run is checked a word at a time).
        let result = match core::str::from_utf8(&self.buf) {
            Ok(text) => pass(self.out, text),
            Err(_) => Err(fmt::Error),
        };
        self.buf.clear();
        result
    }

    /// Writes what is left to `out`.
    pub(super) fn finish(mut self) -> fmt::Result {
        self.flush()
    }
}

/// Writes `s` to `out`, counting a unit plus one per 64 bytes.
fn pass<W: Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    work::add((s.len() >> 6).saturating_add(1));
    out.write_str(s)
}

impl<W: Write + ?Sized> Write for Sink<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_text(s.as_bytes())
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        if self.buf.len() >= SINK_CAPACITY {
            self.flush()?;
        }
        match u8::try_from(c) {
            Ok(byte) if byte.is_ascii() => self.buf.push(byte),
            _ => self.buf.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
        Ok(())
    }
}

impl<W: Write + ?Sized> Out for Sink<'_, W> {
    /// Gathered as they are; they are checked with the rest of the buffer when it is handed on.
    #[inline]
    fn push_text(&mut self, text: &[u8]) -> fmt::Result {
        if self.buf.len().saturating_add(text.len()) > SINK_CAPACITY {
            self.flush()?;
            if text.len() >= SINK_CAPACITY {
                return pass(self.out, core::str::from_utf8(text).map_err(|_| fmt::Error)?);
            }
        }
        self.buf.extend_from_slice(text);
        Ok(())
    }

    #[inline]
    fn push_quoted(&mut self, text: &[u8]) -> fmt::Result {
        let len = text.len().saturating_add(2);
        if self.buf.len().saturating_add(len) > SINK_CAPACITY {
            self.flush()?;
            if len >= SINK_CAPACITY {
                self.write_char('"')?;
                self.push_text(text)?;
                return self.write_char('"');
            }
        }
        self.buf.reserve(len);
        self.buf.push(b'"');
        self.buf.extend_from_slice(text);
        self.buf.push(b'"');
        Ok(())
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
