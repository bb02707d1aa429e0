//! Path lookup: following keys and indices down a tree, such as `["players", 3, "pos"]`, and
//! the textual form of such a path, `players/3/pos` ([`parse_path`]).
//!
//! Each step costs what the container's lookup costs (a dictionary step scans the whole
//! dictionary, because the last of repeated keys wins; an array step walks the elements before
//! the index): a lookup is O(bytes of the value x steps of the path), the path being the
//! caller's. Parsing a textual path is O(length) and checks only its syntax.

use core::fmt;

use super::element::Element;
use super::key::Key;
use super::object::ObjectRef;
use super::value::VariantRef;
use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::types::VariantType;

impl<'a> Element<'a> {
    /// Follows `path` from this value: a dictionary step looks up the key, an array step takes
    /// [`Key::Int`] as an index, a full-object step takes [`Key::String`] as a property name.
    /// `Ok(None)` when a key, index or property is absent; an empty path gives this element.
    ///
    /// # Errors
    /// A malformed value on the way, or [`ErrorKind::WrongType`] at the offset of a value that
    /// the path tries to step into but that is not a container.
    pub fn lookup(&self, path: &[Key<'_>]) -> Result<Option<Element<'a>>> {
        if path.is_empty() {
            return Ok(Some(*self));
        }
        follow(self.value(), self.offset(), path)
    }
}

impl<'a> VariantRef<'a> {
    /// Follows `path` (see [`Element::lookup`]) from this value; an empty path gives the value.
    ///
    /// # Errors
    /// As [`Element::lookup`]; a wrong-type error on this value itself carries the offset of
    /// the container, or 0 for a scalar (a `VariantRef` does not know where it sits).
    pub fn lookup(&self, path: &[Key<'_>]) -> Result<Option<VariantRef<'a>>> {
        if path.is_empty() {
            return Ok(Some(*self));
        }
        let offset = match self {
            VariantRef::Array(a) => a.offset(),
            VariantRef::Dictionary(d) => d.offset(),
            _ => 0,
        };
        Ok(follow(*self, offset, path)?.map(|e| e.value()))
    }
}

/// Takes each step of a non-empty `path` from `value`, which sits at `offset`.
fn follow<'a>(
    value: VariantRef<'a>,
    offset: usize,
    path: &[Key<'_>],
) -> Result<Option<Element<'a>>> {
    let (mut value, mut offset) = (value, offset);
    let mut found = None;
    for key in path {
        let next = match (value, *key) {
            (VariantRef::Dictionary(dictionary), key) => dictionary.get_element(key)?,
            (VariantRef::Array(array), Key::Int(index)) => match usize::try_from(index) {
                Ok(index) => array.get_element(index)?,
                Err(_) => None,
            },
            (VariantRef::Object(ObjectRef::Full(object)), Key::String(name)) => {
                let mut found = None;
                for property in object.properties() {
                    let (property_name, value) = property?;
                    if property_name.eq_str(name) {
                        found = Some(value);
                    }
                }
                found
            }
            (value, _) => {
                let found = value.variant_type();
                let kind = ErrorKind::WrongType { expected: VariantType::Dictionary, found };
                return Err(Error::new(offset, kind));
            }
        };
        let Some(element) = next else { return Ok(None) };
        (value, offset) = (element.value(), element.offset());
        found = Some(element);
    }
    Ok(found)
}

/// A textual path that [`parse_path`] refuses, with the byte offset of the problem in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathSyntaxError {
    offset: usize,
    kind: PathSyntaxErrorKind,
}

/// What is wrong with a textual path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathSyntaxErrorKind {
    /// A segment is empty (`a//b`, a leading or trailing `/`).
    EmptySegment,
    /// A quoted segment has no closing `"` followed by `/` or the end of the path.
    UnterminatedQuote,
    /// An integer segment does not fit in 64 bits.
    IntegerOutOfRange,
}

impl PathSyntaxError {
    /// Byte offset of the problem in the path's text.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong.
    pub const fn kind(&self) -> PathSyntaxErrorKind {
        self.kind
    }
}

impl fmt::Display for PathSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            PathSyntaxErrorKind::EmptySegment => "empty path segment",
            PathSyntaxErrorKind::UnterminatedQuote => "quoted path segment is not closed",
            PathSyntaxErrorKind::IntegerOutOfRange => "integer path segment out of range",
        };
        write!(f, "{what} at byte offset {} of the path", self.offset)
    }
}

impl core::error::Error for PathSyntaxError {}

/// Parses a textual path such as `players/3/pos` into the keys that
/// [`VariantRef::lookup`] and [`Element::lookup`] follow. O(length of the text); the keys
/// borrow from it.
///
/// * Segments are separated by `/`; the empty text is the empty path (the value itself).
/// * A segment that is a decimal integer (`3`, `-1`) is [`Key::Int`]: an array index, or an
///   `int` dictionary key.
/// * Any other segment is [`Key::String`]: a `String` or `StringName` key, or a property of a
///   full object.
/// * A segment in double quotes is a string key taken verbatim: `"3"` is the key `"3"`, and
///   `"a/b"` the key `a/b`. It ends at the first `"` that is followed by `/` or by the end of
///   the path.
///
/// Keys of other types (`null`, `bool`, `float`) have no textual form; build a `&[Key]` for
/// them.
///
/// ```
/// use gdvariant::{Key, Options};
///
/// let keys = gdvariant::view::parse_path("players/3/\"pos\"")?;
/// assert_eq!(keys, [Key::String("players"), Key::Int(3), Key::String("pos")]);
///
/// // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
/// let bytes = include_bytes!("../../corpus/godot4/dict_nested.bin");
/// let value = gdvariant::parse(bytes, Options::godot4()).unwrap();
/// let two = value.lookup(&gdvariant::view::parse_path("a/b/c/1")?).unwrap();
/// assert_eq!(two.and_then(|v| v.as_int()), Some(2));
/// # Ok::<(), gdvariant::view::PathSyntaxError>(())
/// ```
///
/// # Errors
/// An empty segment, an unclosed quote, or an integer that does not fit in an `i64`, with the
/// byte offset of the segment.
#[cfg(feature = "alloc")]
pub fn parse_path(text: &str) -> core::result::Result<alloc::vec::Vec<Key<'_>>, PathSyntaxError> {
    let mut keys = alloc::vec::Vec::new();
    if text.is_empty() {
        return Ok(keys);
    }
    let mut start = 0usize;
    loop {
        let rest = text.get(start..).unwrap_or("");
        let error = |kind| PathSyntaxError { offset: start, kind };
        let (key, used) = if let Some(quoted) = rest.strip_prefix('"') {
            // The first `"` followed by `/` or the end closes the segment.
            let close = quoted
                .match_indices('"')
                .map(|(at, _)| at)
                .find(|&at| {
                    matches!(quoted.as_bytes().get(at.saturating_add(1)), None | Some(b'/'))
                })
                .ok_or_else(|| error(PathSyntaxErrorKind::UnterminatedQuote))?;
            let inner = quoted.get(..close).unwrap_or("");
            (Key::String(inner), close.saturating_add(2))
        } else {
            let segment = rest.split('/').next().unwrap_or("");
            if segment.is_empty() {
                return Err(error(PathSyntaxErrorKind::EmptySegment));
            }
            let digits = segment.strip_prefix('-').unwrap_or(segment);
            let key = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                let value: i64 =
                    segment.parse().map_err(|_| error(PathSyntaxErrorKind::IntegerOutOfRange))?;
                Key::Int(value)
            } else {
                Key::String(segment)
            };
            (key, segment.len())
        };
        keys.push(key);
        let after = start.saturating_add(used);
        match text.as_bytes().get(after) {
            None => return Ok(keys),
            Some(_) => {
                start = after.saturating_add(1);
                if start >= text.len() {
                    return Err(PathSyntaxError {
                        offset: start,
                        kind: PathSyntaxErrorKind::EmptySegment,
                    });
                }
            }
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn textual_paths() {
        assert_eq!(parse_path("").unwrap(), []);
        assert_eq!(parse_path("a").unwrap(), [Key::String("a")]);
        assert_eq!(
            parse_path("-2/x1/1x").unwrap(),
            [Key::Int(-2), Key::String("x1"), Key::String("1x")]
        );
        assert_eq!(
            parse_path("\"3\"/\"a/b\"/\"\"").unwrap(),
            [Key::String("3"), Key::String("a/b"), Key::String("")]
        );
        assert_eq!(parse_path("a\"b/-").unwrap(), [Key::String("a\"b"), Key::String("-")]);
        let error = |text| parse_path(text).unwrap_err();
        assert_eq!(error("a//b").kind(), PathSyntaxErrorKind::EmptySegment);
        assert_eq!(error("a//b").offset(), 2);
        assert_eq!(error("a/").offset(), 2);
        assert_eq!(error("/a").offset(), 0);
        assert_eq!(error("a/\"b").kind(), PathSyntaxErrorKind::UnterminatedQuote);
        assert_eq!(error("\"b\"c").kind(), PathSyntaxErrorKind::UnterminatedQuote);
        assert_eq!(error("99999999999999999999").kind(), PathSyntaxErrorKind::IntegerOutOfRange);
        assert_eq!(
            error("a/99999999999999999999").to_string(),
            "integer path segment out of range at byte offset 2 of the path"
        );
    }
}
