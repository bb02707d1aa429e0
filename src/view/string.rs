//! Strings: `String`, `StringName`, and every name inside NodePaths, objects, signals and typed
//! containers.
//!
//! On the wire a string is a u32 byte length N, N bytes, then zero padding to a multiple of 4.
//! Godot reads N as signed; a negative N, or N plus padding running past the input, is
//! [`ErrorKind::StringOverrun`] (`ERR_FILE_EOF`), even for the last string of a buffer: the
//! padding must be present. Padding content is never checked.
//!
//! Reading the length is O(1) and done when the string is parsed. The text is validated only
//! when asked for ([`GdStr::to_str`], [`GdStr::check`], ...), or by [`validate`](crate::validate).
//!
//! ## What the game sees
//!
//! A Godot 4 string is standard UTF-8, and its text is its bytes (after Godot's BOM and NUL
//! handling). Godot 3.2.3 reads more: overlong forms (`E0 81 B4` is `t`, so `E0 81 B4 "ype"` is
//! the dictionary key `"type"` to the game), UTF-16 surrogates, code points above U+10FFFF and
//! 5- and 6-byte forms. Every comparison here is the game's: [`GdStr::eq_str`], dictionary
//! lookups, paths, and [`GdStr::code_points`] give what Godot reads. For the text:
//!
//! | accessor | gives | fails with |
//! | --- | --- | --- |
//! | [`GdStr::to_str`] | the bytes as a borrowed `&str`, exactly as received | [`ErrorKind::Overlong`] for Godot 3 text spelled with overlong forms, [`ErrorKind::NotUnicode`] for surrogates and code points above U+10FFFF |
//! | [`GdStr::to_text`] (`alloc`) | the text the game sees: borrowed when the bytes are standard UTF-8, owned when overlong forms are normalised | [`ErrorKind::NotUnicode`] only |
//! | [`GdStr::code_points`] | the game's code points, whatever they are, without allocating | only for text Godot refuses |
//! | [`GdStr::to_string_lossy`] (`alloc`) | the game's text, code points `str` cannot hold as U+FFFD | never |
//!
//! Use `to_str` to forward or store the bytes as they are; use `to_text`, `eq_str` or
//! `code_points` to decide anything from the text, so that a Godot 3 peer cannot spell a word
//! another way past a filter. For a filter, [`DictionaryRef::get_is`](crate::view::DictionaryRef::get_is)
//! (`dictionary.get_is("cmd", "shutdown_server")`) and
//! [`VariantRef::is_text`](crate::VariantRef::is_text) are the shortest spellings.

use core::fmt;

use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::options::Version;
use crate::wire::read::{bytes_at, error_at, padding, remaining, u32_at};
use crate::wire::utf8::{self, CodePoints};

/// The UTF-8 byte order mark, which Godot skips at the start of a string.
const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// Strings up to this long are first tried as plain ASCII by [`GdStr::to_str`].
const SHORT_ASCII: usize = 32;

/// A borrowed Godot string, exactly as it sits in the buffer.
///
/// A string read by [`Cursor::next_read`](crate::view::Cursor::next_read) or by the value
/// iterators ([`ArrayRef::iter`](crate::view::ArrayRef::iter),
/// [`DictionaryRef::iter`](crate::view::DictionaryRef::iter)) carries its bytes as text when
/// they are standard UTF-8: the reader checked them once (`core::str::from_utf8`), and
/// [`to_str`](Self::to_str) and [`check`](Self::check) then answer without reading them again.
///
/// `PartialEq` and `Hash` compare where and what the bytes are (whether they were checked does
/// not count); compare texts with [`eq_str`](Self::eq_str) or [`code_points`](Self::code_points).
#[derive(Clone, Copy)]
pub struct GdStr<'a> {
    raw: Raw<'a>,
    offset: usize,
}

/// A string's bytes and the Godot version that reads them; as `str` once checked as standard
/// UTF-8. One enum for both, so that a [`GdStr`] stays four words.
#[derive(Clone, Copy)]
enum Raw<'a> {
    /// Godot 3 bytes, not (yet) checked.
    Godot3(&'a [u8]),
    /// Godot 4 bytes, not (yet) checked.
    Godot4(&'a [u8]),
    /// Godot 3 bytes that are standard UTF-8.
    Godot3Text(&'a str),
    /// Godot 4 bytes that are standard UTF-8.
    Godot4Text(&'a str),
}

impl PartialEq for GdStr<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.offset == other.offset
            && self.version() == other.version()
            && self.raw_bytes() == other.raw_bytes()
    }
}

impl Eq for GdStr<'_> {}

impl core::hash::Hash for GdStr<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.raw_bytes().hash(state);
        self.offset.hash(state);
        self.version().hash(state);
    }
}

impl<'a> GdStr<'a> {
    /// A string whose bytes are `raw`, found at absolute `offset` of the caller's buffer, read
    /// with the rules of `version`: for text that is not a Variant string but that the engine
    /// reads as one (a method name or node path inside a multiplayer packet). O(1): nothing is
    /// read or checked until asked for ([`check`](Self::check), [`eq_str`](Self::eq_str), ...),
    /// whose error offsets count from `offset`.
    pub const fn from_raw(raw: &'a [u8], offset: usize, version: Version) -> Self {
        let raw = match version {
            Version::Godot3 => Raw::Godot3(raw),
            Version::Godot4 => Raw::Godot4(raw),
        };
        GdStr { raw, offset }
    }

    /// The same string, its bytes checked once as standard UTF-8 (`core::str::from_utf8`, the
    /// strict check) and kept as `str` when they pass and are their own text (no NUL, no byte
    /// order mark in front), so that [`to_str`](Self::to_str) and [`check`](Self::check) answer
    /// in O(1). Other bytes are kept as they are: Godot's own rules (Godot 3's overlong forms,
    /// the errors) are applied when asked. O(n).
    #[inline]
    pub(crate) fn checked(self) -> Self {
        let bytes = self.raw_bytes();
        // Without `unsafe`, a `&str` comes only from `from_utf8`; NUL is found by a loop without
        // early exit, which the compiler turns into whole words.
        let Ok(text) = core::str::from_utf8(bytes) else { return self };
        if bytes.iter().fold(false, |nul, &b| nul | (b == 0)) || bytes.starts_with(BOM) {
            return self;
        }
        let raw = match self.raw {
            Raw::Godot3(_) | Raw::Godot3Text(_) => Raw::Godot3Text(text),
            Raw::Godot4(_) | Raw::Godot4Text(_) => Raw::Godot4Text(text),
        };
        GdStr { raw, offset: self.offset }
    }

    /// The bytes as `str` when a reader checked them ([`checked`](Self::checked)): then they are
    /// the text. O(1).
    #[inline]
    fn checked_text(&self) -> Option<&'a str> {
        match self.raw {
            Raw::Godot3Text(text) | Raw::Godot4Text(text) => Some(text),
            Raw::Godot3(_) | Raw::Godot4(_) => None,
        }
    }

    /// All N bytes of the string as declared on the wire, before any NUL or BOM handling. O(1).
    #[inline]
    pub fn raw_bytes(&self) -> &'a [u8] {
        match self.raw {
            Raw::Godot3(bytes) | Raw::Godot4(bytes) => bytes,
            Raw::Godot3Text(text) | Raw::Godot4Text(text) => text.as_bytes(),
        }
    }

    /// The bytes Godot turns into text: a leading UTF-8 byte order mark is skipped, and the text
    /// ends at the first NUL byte (`"a\0b"` is `"a"`). Not validated, and not decoded: a Godot 3
    /// string may spell its characters with overlong forms ([`code_points`](Self::code_points)
    /// reads what the game reads). O(n) (a `memchr`).
    pub fn text_bytes(&self) -> &'a [u8] {
        if let Some(text) = self.checked_text() {
            return text.as_bytes();
        }
        utf8::text_of(self.raw_bytes())
    }

    /// Absolute offset of the string's first byte (just after its length field).
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The Godot version whose rules read the string.
    #[inline]
    pub fn version(&self) -> Version {
        match self.raw {
            Raw::Godot3(_) | Raw::Godot3Text(_) => Version::Godot3,
            Raw::Godot4(_) | Raw::Godot4Text(_) => Version::Godot4,
        }
    }

    /// The text exactly as it is in the buffer, checked with the rules of the string's Godot
    /// version. O(n).
    ///
    /// This is the bytes, borrowed: use it to forward or keep them. To decide anything from a
    /// Godot 3 string's text use [`to_text`](Self::to_text), [`eq_str`](Self::eq_str) or
    /// [`code_points`](Self::code_points), which read it as the game does.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] at the offending byte when Godot would refuse the string. For
    /// Godot 3 strings Godot accepts that are not standard UTF-8, at their first such sequence:
    /// [`ErrorKind::NotUnicode`] when they hold surrogates or code points above U+10FFFF, which
    /// `str` cannot represent, else [`ErrorKind::Overlong`] (the text exists, spelled with
    /// overlong forms: [`to_text`](Self::to_text) gives it).
    #[inline]
    pub fn to_str(&self) -> Result<&'a str> {
        // Checked by the reader that found it: standard UTF-8, no NUL, no byte order mark.
        match self.checked_text() {
            Some(text) => Ok(text),
            None => self.check_to_str(),
        }
    }

    /// [`to_str`](Self::to_str) of bytes no reader checked.
    #[inline(never)]
    fn check_to_str(&self) -> Result<&'a str> {
        // Short ASCII without NUL, the common case (keys, names): the raw bytes are the text,
        // with no byte order mark to skip and no NUL to cut at, so no `memchr` is needed.
        let raw = self.raw_bytes();
        if raw.len() <= SHORT_ASCII && raw.iter().all(|&b| b.wrapping_sub(1) < 0x7F) {
            if let Ok(text) = core::str::from_utf8(raw) {
                return Ok(text);
            }
        }
        let text = self.text_bytes();
        match core::str::from_utf8(text) {
            Ok(text) => Ok(text),
            Err(_) => {
                let (kind, index) = match utf8::check(self.version(), text) {
                    Err(index) => (ErrorKind::InvalidUtf8, index),
                    Ok(()) => match utf8::godot3_first_not_scalar(text) {
                        Some(index) => (ErrorKind::NotUnicode, index),
                        None => {
                            let index = utf8::godot3_first_overlong(text).unwrap_or(0);
                            (ErrorKind::Overlong, index)
                        }
                    },
                };
                Err(Error::new(self.text_start().saturating_add(index), kind))
            }
        }
    }

    /// The text the game sees, as Rust text: borrowed when the bytes are standard UTF-8 (every
    /// Godot 4 string, nearly every Godot 3 one), owned when a Godot 3 string spells characters
    /// with overlong forms, which are normalised (`E0 81 B4 "ype"` is `"type"`). O(n).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] when Godot would refuse the string; [`ErrorKind::NotUnicode`]
    /// for a Godot 3 string holding surrogates or code points above U+10FFFF (read those with
    /// [`code_points`](Self::code_points), or own them as a [`GdString`](crate::owned::GdString)).
    #[cfg(feature = "alloc")]
    pub fn to_text(&self) -> Result<alloc::borrow::Cow<'a, str>> {
        match self.to_str() {
            Ok(text) => Ok(alloc::borrow::Cow::Borrowed(text)),
            Err(error) if error.kind() == ErrorKind::Overlong => {
                let text = CodePoints::new(self.text_bytes())
                    .map(|c| char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect();
                Ok(alloc::borrow::Cow::Owned(text))
            }
            Err(error) => Err(error),
        }
    }

    /// The code points the game reads from the string: Godot 3.2.3's decoding for Godot 3
    /// (overlong forms as the characters they encode, surrogates and values up to `0x7FFF_FFFF`
    /// as they are), the standard decoding for Godot 4. No allocation; O(n) to check the text,
    /// then O(1) per code point.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] at the first byte Godot refuses.
    pub fn code_points(&self) -> Result<CodePoints<'a>> {
        self.check()?;
        Ok(CodePoints::new(self.text_bytes()))
    }

    /// Checks that Godot accepts the string's text, without producing a `str`. O(n).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] at the first byte Godot refuses.
    // Always inlined: the walk checks every string with it, and a call per string costs the
    // walk about a quarter of its instructions.
    #[inline(always)]
    pub fn check(&self) -> Result<()> {
        // Standard UTF-8 (checked by the reader that found it) is valid text in both versions.
        if self.checked_text().is_some() {
            return Ok(());
        }
        // Fast path for the common case: ASCII without NUL (bar a final one, as in
        // PackedStringArray elements) is valid text in both versions.
        let raw = self.raw_bytes();
        let body = raw.strip_suffix(&[0]).unwrap_or(raw);
        if utf8::is_plain_ascii(body) {
            return Ok(());
        }
        utf8::check(self.version(), self.text_bytes()).map_err(|index| {
            Error::new(self.text_start().saturating_add(index), ErrorKind::InvalidUtf8)
        })
    }

    /// Whether the game reads the string as exactly `text` (after Godot's BOM and NUL handling;
    /// a Godot 3 string may spell characters with overlong forms, `E0 81 B4 "ype"` is `"type"`).
    /// A string Godot refuses equals nothing, bar the bytes of `text` followed by a NUL or the
    /// end. O(length of `text`): bytes that are `text` itself are one comparison, and only a
    /// Godot 3 string longer than `text` whose first differing byte leads an overlong form is
    /// decoded.
    #[inline]
    pub fn eq_str(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let raw = self.raw_bytes();
        let body = match raw.strip_prefix(BOM) {
            Some(body) => {
                if self.text_bytes() == bytes {
                    return true;
                }
                body
            }
            None => {
                // Without a BOM, the text is `raw` up to its first NUL: `text` itself (which then
                // holds no NUL), followed by nothing or by a NUL.
                let cut = match raw.get(bytes.len()) {
                    None => raw.len() == bytes.len(),
                    Some(&byte) => byte == 0,
                };
                if cut && raw.get(..bytes.len()) == Some(bytes) && !bytes.contains(&0) {
                    return true;
                }
                raw
            }
        };
        // Only a Godot 3 string longer than `text` can spell it with overlong forms, and it
        // differs from `text` first at an overlong lead (most strings differ at their first byte).
        if self.version() != Version::Godot3 || body.len() <= bytes.len() {
            return false;
        }
        match (body.first(), bytes.first()) {
            (Some(&a), Some(&b)) if a != b && !is_overlong_lead(a) => false,
            _ => respelled(body, text),
        }
    }

    /// The text the game sees, code points `str` cannot hold (and, in a string Godot refuses,
    /// bytes that are not UTF-8) replaced by U+FFFD. Borrowed when the bytes are standard UTF-8.
    /// O(n).
    #[cfg(feature = "alloc")]
    pub fn to_string_lossy(&self) -> alloc::borrow::Cow<'a, str> {
        let text = self.text_bytes();
        if let Ok(text) = core::str::from_utf8(text) {
            return alloc::borrow::Cow::Borrowed(text);
        }
        if utf8::check(self.version(), text).is_err() {
            return alloc::string::String::from_utf8_lossy(text);
        }
        let lossy = CodePoints::new(text)
            .map(|c| char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        alloc::borrow::Cow::Owned(lossy)
    }

    /// The text as Godot compares it, checked: for dictionary keys, sorting and repeated names.
    /// O(n).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] at the first byte Godot refuses.
    #[cfg(feature = "alloc")]
    pub(crate) fn game_text(&self) -> Result<GameText<'a>> {
        // Standard UTF-8, as a reader checked it: the shortest form of every code point.
        if let Some(text) = self.checked_text() {
            return Ok(GameText { bytes: text.as_bytes(), shortest: true });
        }
        self.check()?;
        let bytes = self.text_bytes();
        let shortest = self.version() == Version::Godot4
            || core::str::from_utf8(bytes).is_ok()
            || utf8::godot3_first_overlong(bytes).is_none();
        Ok(GameText { bytes, shortest })
    }

    /// An empty string.
    pub(crate) fn empty(version: Version) -> Self {
        GdStr::from_raw(&[], 0, version)
    }

    /// Offset of the first text byte (after a skipped BOM).
    fn text_start(&self) -> usize {
        let bom = if self.raw_bytes().starts_with(BOM) { 3 } else { 0 };
        self.offset.saturating_add(bom)
    }
}

/// Whether Godot 3 reads `raw` (a string's bytes after a skipped BOM), whose bytes are not `text`
/// itself, as `text`: only overlong forms spell a character with other bytes, and an overlong
/// form never leads with the byte that leads the character's own form, so the first byte where
/// `raw` and `text` differ must be an overlong lead (E0, F0, F8, FC) at a character boundary of
/// `text`. O(length of `text`).
#[cold]
#[inline(never)]
fn respelled(raw: &[u8], text: &str) -> bool {
    let bytes = text.as_bytes();
    let same = raw.iter().zip(bytes).take_while(|(a, b)| a == b).count();
    if !raw.get(same).is_some_and(|&lead| is_overlong_lead(lead)) || bytes.contains(&0) {
        return false;
    }
    match (raw.get(same..), text.get(same..)) {
        (Some(raw), Some(text)) => utf8::godot3_spells(raw, text),
        _ => false,
    }
}

/// Whether `byte` can lead an overlong form Godot 3 accepts (3 to 6 bytes: E0, F0, F8, FC).
#[inline]
fn is_overlong_lead(byte: u8) -> bool {
    matches!(byte, 0xE0 | 0xF0 | 0xF8 | 0xFC)
}

/// A string's text as Godot compares it (dictionary keys, sorting, repeated property names):
/// by code points. Checked text, with whether its bytes are already the shortest form of each
/// code point (every Godot 4 string, and every Godot 3 one without overlong forms); then they
/// compare and hash as bytes, since shortest forms are equal for equal code points and ordered
/// as them. Otherwise the code points are decoded for each comparison.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameText<'a> {
    bytes: &'a [u8],
    shortest: bool,
}

#[cfg(feature = "alloc")]
impl<'a> GameText<'a> {
    /// The text's length in bytes, as on the wire (for counting work).
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Godot's order of two texts (by code point, a prefix first), `Equal` exactly when the
    /// game holds them equal. O(the shorter text, up to its first difference).
    pub(crate) fn cmp(&self, other: &GameText<'_>) -> core::cmp::Ordering {
        if self.shortest && other.shortest {
            self.bytes.cmp(other.bytes)
        } else {
            CodePoints::new(self.bytes).cmp(CodePoints::new(other.bytes))
        }
    }

    /// Whether the game holds the two texts equal: [`cmp`](Self::cmp) is `Equal`, found
    /// without ordering them (texts of different lengths in shortest form differ at once).
    #[cfg(feature = "serde")]
    pub(crate) fn same(&self, other: &GameText<'_>) -> bool {
        if self.shortest && other.shortest {
            self.bytes == other.bytes
        } else {
            self.cmp(other).is_eq()
        }
    }

    /// The text in the shortest form of each code point (as Godot 3 writes it): equal for
    /// texts that compare equal. O(1), or O(n) and one allocation for a text spelled with
    /// overlong forms.
    pub(crate) fn shortest_bytes(&self) -> alloc::borrow::Cow<'a, [u8]> {
        if self.shortest {
            alloc::borrow::Cow::Borrowed(self.bytes)
        } else {
            alloc::borrow::Cow::Owned(utf8::godot3_shortest(self.bytes))
        }
    }

    /// Feeds `state` the text's [`shortest_bytes`](Self::shortest_bytes): the same for texts
    /// that compare equal.
    pub(crate) fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let bytes = self.shortest_bytes();
        state.write_usize(bytes.len());
        state.write(&bytes);
    }
}

impl fmt::Debug for GdStr<'_> {
    /// The text in quotes as the game reads it, escaped as `str`'s `Debug` escapes, code points
    /// `str` cannot hold (and bytes Godot refuses) shown as U+FFFD, cut after 64 bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 64;
        let text = self.text_bytes();
        f.write_str("\"")?;
        write_escaped(f, self, SHOWN)?;
        f.write_str("\"")?;
        if text.len() > SHOWN {
            write!(f, "... ({} bytes)", text.len())?;
        }
        Ok(())
    }
}

/// Writes at most the first `limit` bytes of the text of `s` escaped as in `str`'s `Debug`, as
/// the game reads it, code points `str` cannot hold (and bytes Godot refuses) as U+FFFD, without
/// allocating.
pub(crate) fn write_escaped(
    f: &mut fmt::Formatter<'_>,
    s: &GdStr<'_>,
    limit: usize,
) -> fmt::Result {
    let text = s.text_bytes();
    let shown = text.get(..limit).unwrap_or(text);
    if core::str::from_utf8(text).is_ok() || s.check().is_err() {
        for chunk in shown.utf8_chunks() {
            write!(f, "{}", chunk.valid().escape_debug())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{fffd}")?;
            }
        }
        return Ok(());
    }
    let mut points = CodePoints::new(text);
    while text.len().saturating_sub(points.rest().len()) < shown.len() {
        let Some(point) = points.next() else { break };
        let c = char::from_u32(point).unwrap_or(char::REPLACEMENT_CHARACTER);
        write!(f, "{}", c.escape_debug())?;
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
    Ok((GdStr::from_raw(raw, start, version), start.saturating_add(padded)))
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
        let string = |raw: &'static [u8]| GdStr::from_raw(raw, 0, Version::Godot4);
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
    fn eq_str_reads_godot3_overlong_forms() {
        let string = |raw: &'static [u8], version| GdStr::from_raw(raw, 0, version);
        let g3 = Version::Godot3;
        assert!(string(b"\xE0\x81\xB4ype", g3).eq_str("type"));
        assert!(string(b"\xEF\xBB\xBF\xE0\x81\xB4ype\0\xFF", g3).eq_str("type"));
        assert!(string(b"ty\xE0\x81\xB0e", g3).eq_str("type"));
        assert!(string(b"\xF0\x80\xA0\x80", g3).eq_str("\u{800}"));
        assert!(!string(b"\xE0\x81\xB4ype", g3).eq_str("typ"));
        assert!(!string(b"\xE0\x81\xB4ype", g3).eq_str("types"));
        assert!(!string(b"\xE0\x81\xB4ype", Version::Godot4).eq_str("type"));
        // A character that begins where the overlong form begins, but is not it.
        assert!(!string(b"\xE0\x81\xB4", g3).eq_str("\u{800}"));
    }

    /// A string checked by a reader answers every question as the same bytes unchecked, and is
    /// kept as text only when its bytes are standard UTF-8 and their own text.
    #[test]
    fn checked_strings_answer_as_unchecked_ones() {
        let samples: [&[u8]; 10] = [
            b"",
            b"type",
            b"a\0b",
            b"\xEF\xBB\xBFa",
            b"\xE0\x81\xB4ype",
            b"\xED\xA0\x80",
            b"\xFF",
            "caf\u{e9} \u{1F600}".as_bytes(),
            b"a string of more than sixteen bytes",
            b"sixteen bytes...\0",
        ];
        for version in [Version::Godot3, Version::Godot4] {
            for raw in samples {
                let plain = GdStr::from_raw(raw, 8, version);
                let checked = plain.checked();
                let what = alloc::format!("{version:?} {raw:?}");
                assert_eq!(checked, plain, "{what}");
                assert_eq!(checked.to_str(), plain.to_str(), "{what}");
                assert_eq!(checked.check(), plain.check(), "{what}");
                assert_eq!(checked.text_bytes(), plain.text_bytes(), "{what}");
                assert_eq!(checked.raw_bytes(), raw, "{what}");
                assert_eq!(checked.version(), version, "{what}");
                assert_eq!(checked.offset(), 8, "{what}");
                assert_eq!(checked.eq_str("type"), plain.eq_str("type"), "{what}");
                assert_eq!(alloc::format!("{checked:?}"), alloc::format!("{plain:?}"), "{what}");
                let own_text =
                    core::str::from_utf8(raw).is_ok() && !raw.contains(&0) && !raw.starts_with(BOM);
                assert_eq!(checked.checked_text().is_some(), own_text, "{what}");
                assert!(plain.checked_text().is_none(), "{what}");
            }
        }
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
