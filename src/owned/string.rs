//! [`GdString`]: an owned Godot string, holding the code points the game holds.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use crate::view::string::GdStr;
use crate::wire::error::{ErrorKind, Result};
use crate::wire::utf8::{self, CodePoints};

/// An owned Godot string: what `String` and `StringName` values, NodePath names and
/// `PackedStringArray` elements hold.
///
/// Every Godot 4 string, and nearly every Godot 3 one, is Rust text: [`as_str`](Self::as_str)
/// gives it. Godot 3.2.3 also holds code points no Rust `str` can (UTF-16 surrogates, values
/// above U+10FFFF up to `0x7FFF_FFFF`, read from its loose UTF-8); a `GdString` holds them too, so
/// [`decode`](crate::decode) never fails on a string Godot accepts, and
/// [`encode`](crate::encode) writes them back as Godot 3 does: each code point in its shortest
/// form of up to 6 bytes, surrogates in 3 ([`as_bytes`](Self::as_bytes)). So a Godot 3 string
/// comes back byte for byte, except overlong forms, which are written in their shortest form
/// (`E0 81 B4` as `t`), as Godot writes them (`corpus/probes/strings`). Godot 4 refuses such
/// code points: encoding one for Godot 4 is [`EncodeError::NotUnicode`](crate::encoder::EncodeError).
///
/// `==`, `Hash` and `Ord` are by code point, as Godot compares strings (dictionary keys,
/// sorting): a string decoded from an overlong spelling of `"type"` is `"type"`, and compares
/// equal to the `&str` `"type"`. Text converts in with `From<&str>` and `From<String>`.
///
/// ```
/// use gdvariant::{owned::GdString, Options, Variant};
///
/// // Godot 3: a String whose 't' is the overlong form E0 81 B4, then U+D800 (a surrogate).
/// let bytes = [4, 0, 0, 0, 6, 0, 0, 0, 0xE0, 0x81, 0xB4, 0xED, 0xA0, 0x80, 0, 0];
/// let value = gdvariant::decode(&bytes, Options::godot3())?;
/// let Variant::String(s) = &value else { unreachable!() };
/// assert_eq!(s.code_points().collect::<Vec<_>>(), [0x74, 0xD800]);
/// assert_eq!(s.as_str(), None);
/// assert_eq!(s.to_string_lossy(), "t\u{FFFD}");
/// assert_eq!(s.as_bytes(), b"t\xED\xA0\x80"); // what Godot 3 writes back
///
/// let plain = gdvariant::decode(&[4, 0, 0, 0, 3, 0, 0, 0, 0xE0, 0x81, 0xB4, 0], Options::godot3())?;
/// assert_eq!(plain, Variant::from("t"));
/// assert_eq!(GdString::from("t"), "t");
/// # Ok::<(), gdvariant::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct GdString(Repr);

/// What a [`GdString`] holds; never two forms of the same code points (text of at most
/// [`SHORT`] bytes is always `Short`), so the derived `==` compares code points.
#[derive(Clone, PartialEq, Eq)]
enum Repr {
    /// Unicode text of at most [`SHORT`] bytes, held in place: most keys and names, read
    /// without an allocation.
    Short { len: u8, bytes: [u8; SHORT] },
    /// Longer Unicode text (all that Godot 4 holds); a boxed `str` rather than a `String`, so a
    /// `GdString` is 24 bytes (and a [`Variant`](crate::Variant) 32).
    Text(Box<str>),
    /// Code points at least one of which is not a Unicode scalar value, as Godot 3's own bytes:
    /// each in its shortest form of up to 6 bytes. Never valid UTF-8.
    Extended(Box<[u8]>),
}

/// The longest text a [`GdString`] holds in place.
const SHORT: usize = 22;

impl Repr {
    /// The canonical form of `text`.
    fn of_str(text: &str) -> Repr {
        let mut bytes = [0u8; SHORT];
        match (bytes.get_mut(..text.len()), u8::try_from(text.len())) {
            (Some(slot), Ok(len)) => {
                slot.copy_from_slice(text.as_bytes());
                Repr::Short { len, bytes }
            }
            _ => Repr::Text(Box::from(text)),
        }
    }

    /// The canonical form of `text`, reusing its allocation when it is long.
    fn of_string(text: String) -> Repr {
        if text.len() <= SHORT { Repr::of_str(&text) } else { Repr::Text(text.into_boxed_str()) }
    }

    /// The text of a `Short` (always UTF-8: it was made from a `str`).
    fn short_str(len: u8, bytes: &[u8; SHORT]) -> &str {
        core::str::from_utf8(bytes.get(..usize::from(len)).unwrap_or(&[])).unwrap_or("")
    }
}

/// The largest code point a [`GdString`] holds: the most Godot 3's 6-byte form carries.
const MAX_CODE_POINT: u32 = 0x7FFF_FFFF;

impl GdString {
    /// An empty string.
    pub const fn new() -> Self {
        GdString(Repr::Short { len: 0, bytes: [0; SHORT] })
    }

    /// The text, when every code point is a Unicode scalar value (always so for Godot 4). O(1).
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            Repr::Short { len, bytes } => Some(Repr::short_str(*len, bytes)),
            Repr::Text(text) => Some(text),
            Repr::Extended(_) => None,
        }
    }

    /// The text, or the string itself when it holds code points `str` cannot. O(1).
    ///
    /// # Errors
    /// The string, unchanged, when [`as_str`](Self::as_str) is `None`.
    pub fn into_string(self) -> core::result::Result<String, GdString> {
        match self.0 {
            Repr::Short { len, bytes } => Ok(String::from(Repr::short_str(len, &bytes))),
            Repr::Text(text) => Ok(String::from(text)),
            extended => Err(GdString(extended)),
        }
    }

    /// The text with code points `str` cannot hold replaced by U+FFFD; borrowed when there are
    /// none. O(1), or O(n) to replace.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Short { len, bytes } => Cow::Borrowed(Repr::short_str(*len, bytes)),
            Repr::Text(text) => Cow::Borrowed(text),
            Repr::Extended(bytes) => Cow::Owned(
                CodePoints::new(bytes)
                    .map(|c| char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect(),
            ),
        }
    }

    /// The code points. O(1) per code point.
    pub fn code_points(&self) -> CodePoints<'_> {
        CodePoints::new(self.as_bytes())
    }

    /// The bytes Godot writes for the string: its UTF-8 when it is text (both versions); for
    /// code points only Godot 3 holds, Godot 3's `String::utf8()`, every code point in its
    /// shortest form of up to 6 bytes. O(1).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Short { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or(&[]),
            Repr::Text(text) => text.as_bytes(),
            Repr::Extended(bytes) => bytes,
        }
    }

    /// Whether the string is empty. O(1).
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }

    /// The string of these code points; `None` when one is 0 (Godot's text ends at a NUL) or
    /// above `0x7FFF_FFFF` (no Godot form carries it). O(n).
    pub fn from_code_points(code_points: impl IntoIterator<Item = u32>) -> Option<GdString> {
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 6];
        for code_point in code_points {
            if code_point == 0 || code_point > MAX_CODE_POINT {
                return None;
            }
            bytes.extend_from_slice(utf8::godot3_encode(code_point, &mut buffer));
        }
        Some(GdString::from_shortest(bytes))
    }

    /// The string whose code points Godot 3 writes as `bytes` (each in its shortest form).
    fn from_shortest(bytes: Vec<u8>) -> GdString {
        match String::from_utf8(bytes) {
            Ok(text) => GdString(Repr::of_string(text)),
            Err(error) => GdString(Repr::Extended(error.into_bytes().into_boxed_slice())),
        }
    }

    /// The string of `raw` when it is short ASCII without NUL (the common case: keys, names):
    /// then the raw bytes are the text (no byte order mark to skip, no NUL to cut at), and ASCII
    /// is UTF-8, so they go in place. O(n), without branches per byte.
    #[inline]
    pub(crate) fn short_ascii(raw: &[u8]) -> Option<GdString> {
        if raw.len() > SHORT {
            return None;
        }
        // Copied and checked in one loop (keys are a few bytes: no call to `memcpy`). A byte is
        // 1..=0x7F exactly when neither it nor it less one has bit 7 set.
        let mut bytes = [0u8; SHORT];
        let mut high = 0u8;
        for (place, &b) in bytes.iter_mut().zip(raw) {
            *place = b;
            high |= b | b.wrapping_sub(1);
        }
        let len = u8::try_from(raw.len()).ok()?;
        (high & 0x80 == 0).then_some(GdString(Repr::Short { len, bytes }))
    }

    /// The string the game reads from `s`: its text, overlong forms normalised, code points
    /// `str` cannot hold kept. O(n).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`] when Godot refuses the string.
    pub(crate) fn from_view(s: &GdStr<'_>) -> Result<GdString> {
        // Short ASCII without NUL, the common case (keys, names): the raw bytes are the text (no
        // byte order mark to skip, no NUL to cut at), and ASCII is UTF-8, so they go in place.
        let raw = s.raw_bytes();
        if let Some(short) = GdString::short_ascii(raw) {
            return Ok(short);
        }
        // Standard UTF-8 (nearly every string): the text `to_str` gives, checked once here.
        if let Ok(text) = core::str::from_utf8(utf8::text_of(raw)) {
            return Ok(GdString(Repr::of_str(text)));
        }
        match s.to_str() {
            Ok(text) => Ok(GdString(Repr::of_str(text))),
            Err(error) if matches!(error.kind(), ErrorKind::NotUnicode | ErrorKind::Overlong) => {
                Ok(GdString::from_shortest(utf8::godot3_shortest(s.text_bytes())))
            }
            Err(error) => Err(error),
        }
    }
}

impl core::hash::Hash for GdString {
    /// The bytes of [`as_bytes`](Self::as_bytes) (so by code point, as `==`), as `str` hashes
    /// its text: a `GdString` and the `str` of the same text hash alike.
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
        state.write_u8(0xff);
    }
}

impl Default for GdString {
    fn default() -> Self {
        GdString::new()
    }
}

impl From<&str> for GdString {
    fn from(text: &str) -> Self {
        GdString(Repr::of_str(text))
    }
}

impl From<String> for GdString {
    fn from(text: String) -> Self {
        GdString(Repr::of_string(text))
    }
}

impl From<&String> for GdString {
    fn from(text: &String) -> Self {
        GdString::from(text.as_str())
    }
}

impl From<char> for GdString {
    fn from(c: char) -> Self {
        GdString(Repr::of_str(c.encode_utf8(&mut [0; 4])))
    }
}

impl PartialEq<str> for GdString {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for GdString {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for GdString {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<GdString> for str {
    fn eq(&self, other: &GdString) -> bool {
        other == self
    }
}

impl PartialEq<GdString> for &str {
    fn eq(&self, other: &GdString) -> bool {
        other == self
    }
}

impl PartialEq<GdString> for String {
    fn eq(&self, other: &GdString) -> bool {
        other == self
    }
}

impl Ord for GdString {
    /// By code point, as Godot's `<` on strings (shortest forms are ordered as their code
    /// points).
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl PartialOrd for GdString {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for GdString {
    /// The text, code points `str` cannot hold as U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl fmt::Debug for GdString {
    /// In quotes, escaped as `str`'s `Debug` escapes; a code point `str` cannot hold as
    /// `\u{d800}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Short { len, bytes } => fmt::Debug::fmt(Repr::short_str(*len, bytes), f),
            Repr::Text(text) => fmt::Debug::fmt(&**text, f),
            Repr::Extended(bytes) => {
                f.write_str("\"")?;
                for code_point in CodePoints::new(bytes) {
                    match char::from_u32(code_point) {
                        Some(c) => write!(f, "{}", c.escape_debug())?,
                        None => write!(f, "\\u{{{code_point:x}}}")?,
                    }
                }
                f.write_str("\"")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;

    #[test]
    fn extended_strings_compare_by_code_point() {
        let surrogate = GdString::from_code_points([0x61, 0xD800]).unwrap();
        assert_eq!(surrogate.as_bytes(), b"a\xED\xA0\x80");
        assert_eq!(surrogate.as_str(), None);
        assert_eq!(format!("{surrogate:?}"), "\"a\\u{d800}\"");
        assert_eq!(surrogate.to_string(), "a\u{FFFD}");
        assert_eq!(surrogate.cmp(&GdString::from("a\u{E000}")), Ordering::Less);
        assert_eq!(surrogate.cmp(&GdString::from("a\u{D7FF}")), Ordering::Greater);
        assert_eq!(GdString::from_code_points([0x74]), Some(GdString::from("t")));
        assert_eq!(GdString::from_code_points([0x74]).unwrap(), "t");
        assert_eq!(GdString::from_code_points([0]), None);
        assert_eq!(GdString::from_code_points([0x8000_0000]), None);
        let top = GdString::from_code_points([0x7FFF_FFFF]).unwrap();
        assert_eq!(top.as_bytes(), b"\xFD\xBF\xBF\xBF\xBF\xBF");
        assert_eq!(top.code_points().collect::<Vec<_>>(), [0x7FFF_FFFF]);
        assert_eq!(surrogate.clone().into_string(), Err(surrogate));
    }
}
