//! The output of a printing run: text gathered in a `String` of a few KiB and handed to the
//! caller's `fmt::Write` in large pieces, so that the many small pieces of the text (a
//! separator, a bracket, a number) cost a push each, not a call through the caller's output.
//! One buffer per printing run, never one per value.

use alloc::string::String;
use core::fmt::{self, Write};

/// What a [`Sink`] gathers before it hands the text on.
const CAPACITY: usize = 8 * 1024;

/// Text gathered before it is written to `out`; [`Sink::finish`] writes what is left
/// (nothing is written on drop).
pub(super) struct Sink<'w, W: ?Sized> {
    out: &'w mut W,
    buf: String,
}

impl<'w, W: Write + ?Sized> Sink<'w, W> {
    /// An empty sink in front of `out`.
    pub(super) fn new(out: &'w mut W) -> Self {
        Sink { out, buf: String::new() }
    }

    /// Hands what was gathered to `out`.
    fn flush(&mut self) -> fmt::Result {
        if self.buf.is_empty() {
            return Ok(());
        }
        let result = self.out.write_str(&self.buf);
        self.buf.clear();
        result
    }

    /// Writes what is left to `out`.
    pub(super) fn finish(mut self) -> fmt::Result {
        self.flush()
    }
}

impl<W: Write + ?Sized> Write for Sink<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.buf.len().saturating_add(s.len()) > CAPACITY {
            self.flush()?;
            if s.len() >= CAPACITY {
                return self.out.write_str(s);
            }
        }
        self.buf.push_str(s);
        Ok(())
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        if self.buf.len() >= CAPACITY {
            self.flush()?;
        }
        self.buf.push(c);
        Ok(())
    }
}
