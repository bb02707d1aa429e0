//! Strings: `String`, `StringName`, and every name inside NodePaths, objects, signals and typed
//! containers.
//!
//! On the wire a string is a u32 byte length N, N bytes, then zero padding to a multiple of 4.
//! Godot reads N as signed; a negative N, or N plus padding running past the input, is
//! [`ErrorKind::StringOverrun`] (`ERR_FILE_EOF`), even for the last string of a buffer: the
//! padding must be present. Padding content is never checked.
//!
//! Reading the length is O(1) and done when the string is parsed. The text is validated only
//! when asked for ([`GdStr::to_str`], [`GdStr::check`]), or by [`validate`](crate::validate).

use core::fmt;

use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::options::Version;
use crate::wire::read::{bytes_at, error_at, padding, remaining, u32_at};
use crate::wire::utf8;

/// The UTF-8 byte order mark, which Godot skips at the start of a string.
const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// Strings up to this long are first tried as plain ASCII by [`GdStr::to_str`].
const SHORT_ASCII: usize = 32;

/// A borrowed Godot string, exactly as it sits in the buffer.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct GdStr<'a> {
    raw: &'a [u8],
    offset: usize,
    version: Version,
}

impl<'a> GdStr<'a> {
    /// All N bytes of the string as declared on the wire, before any NUL or BOM handling. O(1).
    #[inline]
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// The bytes Godot turns into text: a leading UTF-8 byte order mark is skipped, and the text
    /// ends at the first NUL byte (`"a\0b"` is `"a"`). Not validated. O(n) (a `memchr`).
    pub fn text_bytes(&self) -> &'a [u8] {
        utf8::text_of(self.raw)
    }

    /// Absolute offset of the string's first byte (just after its length field).
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The text, checked with the rules of the string's Godot version. O(n).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] at the offending byte when Godot would refuse the string;
    /// [`ErrorKind::NotUnicode`] for Godot 3 strings that Godot accepts but that hold surrogates
    /// or code points above U+10FFFF, which `str` cannot represent.
    pub fn to_str(&self) -> Result<&'a str> {
        // Short ASCII without NUL, the common case (keys, names): the raw bytes are the text,
        // with no byte order mark to skip and no NUL to cut at, so no `memchr` is needed.
        let raw = self.raw;
        if raw.len() <= SHORT_ASCII && raw.iter().all(|&b| b.wrapping_sub(1) < 0x7F) {
            if let Ok(text) = core::str::from_utf8(raw) {
                return Ok(text);
            }
        }
        let text = self.text_bytes();
        match core::str::from_utf8(text) {
            Ok(text) => Ok(text),
            Err(error) => {
                let (kind, index) = match utf8::check(self.version, text) {
                    Ok(()) => (ErrorKind::NotUnicode, error.valid_up_to()),
                    Err(index) => (ErrorKind::InvalidUtf8, index),
                };
                Err(Error::new(self.text_start().saturating_add(index), kind))
            }
        }
    }

    /// Checks that Godot accepts the string's text, without producing a `str`. O(n).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] at the first byte Godot refuses.
    #[inline]
    pub fn check(&self) -> Result<()> {
        // Fast path for the common case: ASCII without NUL (bar a final one, as in
        // PackedStringArray elements) is valid text in both versions.
        let body = self.raw.strip_suffix(&[0]).unwrap_or(self.raw);
        if utf8::is_plain_ascii(body) {
            return Ok(());
        }
        utf8::check(self.version, self.text_bytes()).map_err(|index| {
            Error::new(self.text_start().saturating_add(index), ErrorKind::InvalidUtf8)
        })
    }

    /// Whether the string's text is exactly `text` (Godot's view: BOM skipped, cut at NUL).
    /// O(length of `text`).
    #[inline]
    pub fn eq_str(&self, text: &str) -> bool {
        let text = text.as_bytes();
        let raw = self.raw;
        if raw.starts_with(BOM) {
            return self.text_bytes() == text;
        }
        // Without a BOM, the text is `raw` up to its first NUL: `text` itself (which then holds
        // no NUL), followed by nothing or by a NUL.
        let cut = match raw.get(text.len()) {
            None => raw.len() == text.len(),
            Some(&byte) => byte == 0,
        };
        cut && raw.get(..text.len()) == Some(text) && !text.contains(&0)
    }

    /// The text with anything that is not UTF-8 replaced by U+FFFD. Borrowed when valid.
    #[cfg(feature = "alloc")]
    pub fn to_string_lossy(&self) -> alloc::borrow::Cow<'a, str> {
        alloc::string::String::from_utf8_lossy(self.text_bytes())
    }

    /// An empty string.
    pub(crate) fn empty(version: Version) -> Self {
        GdStr { raw: &[], offset: 0, version }
    }

    /// Offset of the first text byte (after a skipped BOM).
    fn text_start(&self) -> usize {
        let bom = if self.raw.starts_with(BOM) { 3 } else { 0 };
        self.offset.saturating_add(bom)
    }
}

impl fmt::Debug for GdStr<'_> {
    /// The text in quotes, invalid bytes shown as U+FFFD, cut after 64 bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 64;
        let text = self.text_bytes();
        f.write_str("\"")?;
        write_escaped(f, text.get(..SHOWN).unwrap_or(text))?;
        f.write_str("\"")?;
        if text.len() > SHOWN {
            write!(f, "... ({} bytes)", text.len())?;
        }
        Ok(())
    }
}

/// Writes `text` escaped as in `str`'s `Debug`, invalid bytes as U+FFFD, without allocating.
pub(crate) fn write_escaped(f: &mut fmt::Formatter<'_>, text: &[u8]) -> fmt::Result {
    for chunk in text.utf8_chunks() {
        write!(f, "{}", chunk.valid().escape_debug())?;
        if !chunk.invalid().is_empty() {
            f.write_str("\u{fffd}")?;
        }
    }
    Ok(())
}

/// Reads the string whose length field is at `pos`; returns it and the position after its
/// padding. O(1): the text is not looked at.
#[inline]
pub(crate) fn read_string(buf: &[u8], pos: usize, version: Version) -> Result<(GdStr<'_>, usize)> {
    let declared = u32_at(buf, pos)?;
    let overrun = || error_at(buf, pos, ErrorKind::StringOverrun { declared });
    // Godot reads the length as i32: anything with bit 31 set is negative.
    let len =
        usize::try_from(i32::try_from(declared).map_err(|_| overrun())?).map_err(|_| overrun())?;
    let start = pos.saturating_add(4);
    let padded = len.saturating_add(padding(len));
    if padded > remaining(buf, start) {
        return Err(overrun());
    }
    let raw = bytes_at(buf, start, len)?;
    Ok((GdStr { raw, offset: start, version }, start.saturating_add(padded)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_must_be_present() {
        let ok = [1, 0, 0, 0, b'a', 0, 0, 0];
        let (s, end) = read_string(&ok, 0, Version::Godot4).unwrap();
        assert_eq!((s.to_str().unwrap(), end), ("a", 8));
        let err = read_string(&ok[..5], 0, Version::Godot4).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::StringOverrun { declared: 1 });
        let negative = [0xff, 0xff, 0xff, 0xff];
        assert!(read_string(&negative, 0, Version::Godot3).is_err());
    }

    #[test]
    fn eq_str_compares_godots_text() {
        let string = |raw: &'static [u8]| GdStr { raw, offset: 0, version: Version::Godot4 };
        assert!(string(b"abc").eq_str("abc"));
        assert!(!string(b"abc").eq_str("ab"));
        assert!(string(b"a\0b").eq_str("a"));
        assert!(!string(b"a\0b").eq_str("a\0b"));
        assert!(string(b"\xEF\xBB\xBFa").eq_str("a"));
        assert!(!string(b"\xEF\xBB\xBFa").eq_str("\u{feff}a"));
        assert!(string(b"\xEF\xBB\xBF\xEF\xBB\xBFa").eq_str("\u{feff}a"));
        assert!(!string(b"").eq_str("a"));
    }

    #[test]
    fn godot3_only_text_is_not_unicode() {
        let bytes = [3, 0, 0, 0, 0xED, 0xA0, 0x80, 0];
        let (s3, _) = read_string(&bytes, 0, Version::Godot3).unwrap();
        assert!(s3.check().is_ok());
        assert_eq!(s3.to_str().unwrap_err().kind(), ErrorKind::NotUnicode);
        let (s4, _) = read_string(&bytes, 0, Version::Godot4).unwrap();
        assert_eq!(s4.check().unwrap_err().offset(), 4);
    }
}
