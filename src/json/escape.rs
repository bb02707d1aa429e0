//! The one JSON string escaper of the crate and its export: both JSON forms, the CSV export's
//! lists and the command's JSON Lines keys write their strings through [`write_escaped`].
//!
//! It escapes what JSON requires and nothing else: `"` and `\` as `\"` and `\\`, line feed,
//! carriage return and tab as `\n`, `\r`, `\t`, every other control character below U+0020 as
//! `\u00XX` (lowercase hex; so U+0008 and U+000C are `\u0008` and `\u000c`, not `\b` and `\f`).
//! Everything else, U+007F, U+2028 and U+2029 included, is copied as UTF-8. A `&str` holds no
//! lone surrogate, so no `\uD8XX` form is ever written: a Godot 3 string that is not Unicode
//! never reaches the escaper (lossless JSON writes its bytes in hex, natural JSON its text with
//! U+FFFD in place of each such code point).
//!
//! `serde_json` escapes the same set but writes U+0008 and U+000C as `\b` and `\f`, which
//! would change every byte-exact output written before; hence this one implementation.

use core::fmt::{self, Write};

use super::count::{Buffered, Out};
use crate::wire::work;

/// Writes `text` as a JSON string literal, quotes included (the escapes are in the module
/// docs). O(`text`): escapes and plain runs shorter than 32 bytes are gathered into writes of
/// about 128 bytes, so that text needing escapes everywhere costs a write per hundred bytes or
/// so, not one per character; with the feature `work-counter`, the scan counts a unit per 64
/// bytes of `text`.
///
/// ```
/// let mut out = String::new();
/// gdvariant::json::write_escaped(&mut out, "a\"b\\c\nd\u{1}\u{8}é\u{2028}").unwrap();
/// assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001\\u0008é\u{2028}\"");
/// ```
pub fn write_escaped<W: Write + ?Sized>(out: &mut W, text: &str) -> fmt::Result {
    let mut out = Buffered::new(out);
    escape_into(&mut out, text.as_bytes())?;
    out.flush()
}

/// [`write_escaped`] of `text`, bytes that are UTF-8, straight into `out`, a piece per plain
/// run and per escape (the JSON writers' output gathers pieces itself). The scan is by bytes:
/// every byte to escape is ASCII, and no byte of a multi-byte character is below 0x80, so each
/// plain run is UTF-8 too.
pub(super) fn escape_into<W: Out + ?Sized>(out: &mut W, text: &[u8]) -> fmt::Result {
    // The scan for characters to escape.
    work::add(text.len() >> 6);
    let Some(first) = text.iter().position(|&byte| needs_escape(byte)) else {
        // Nothing to escape (most strings): the text between quotes, in one piece.
        return out.push_quoted(text);
    };
    out.write_char('"')?;
    let mut plain = 0usize;
    let mut escape = [0u8; 6];
    for (i, &byte) in text.iter().enumerate().skip(first) {
        let escaped: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => unicode_escape(u32::from(byte), &mut escape),
            _ => continue,
        };
        out.push_text(text.get(plain..i).unwrap_or(&[]))?;
        out.write_str(escaped)?;
        plain = i.saturating_add(1);
    }
    out.push_text(text.get(plain..).unwrap_or(&[]))?;
    out.write_char('"')
}

/// Whether JSON escapes `byte`: `"`, `\\` and the control characters below U+0020.
#[inline]
fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// `\u00XX` for a control character `code` (below U+0020).
fn unicode_escape(code: u32, buf: &mut [u8; 6]) -> &str {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit = |shift: u32| {
        let index = usize::try_from(code.checked_shr(shift).unwrap_or(0) & 15).unwrap_or(0);
        DIGITS.get(index).copied().unwrap_or(b'0')
    };
    *buf = [b'\\', b'u', digit(12), digit(8), digit(4), digit(0)];
    core::str::from_utf8(buf).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use alloc::string::String;

    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = String::new();
        write_escaped(&mut out, text).unwrap();
        out
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(escaped("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }

    #[test]
    fn only_what_json_requires_is_escaped() {
        assert_eq!(escaped("\u{8}\u{c}\u{1f}\r\t"), "\"\\u0008\\u000c\\u001f\\r\\t\"");
        assert_eq!(escaped("\u{7f}\u{2028}\u{2029}/<"), "\"\u{7f}\u{2028}\u{2029}/<\"");
        assert_eq!(escaped(""), "\"\"");
    }

    #[test]
    fn long_runs_of_escapes_come_out_whole() {
        let text: String = core::iter::repeat_n("\"\u{1}x", 100).collect();
        let expected: String = core::iter::repeat_n("\\\"\\u0001x", 100).collect();
        assert_eq!(escaped(&text), alloc::format!("\"{expected}\""));
    }
}
