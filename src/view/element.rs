//! [`Element`]: a value together with where it sits and its exact bytes, for relays that
//! forward a subtree byte for byte without decoding it.

use super::cursor::Cursor;
use super::string::{GdStr, read_string};
use super::value::{VariantRef, parse_head};
use super::walk::{Mode, walk};
use crate::wire::error::Result;
use crate::wire::options::Options;
use crate::wire::read::u32_at;
use crate::wire::types::VariantType;

/// One value of a container (or the top-level value of [`parse_prefix`](crate::parse_prefix)):
/// where it sits, its raw bytes, and its value on demand. Finding the end walked the value's
/// structure once; nothing was copied or decoded.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Element<'a> {
    buf: &'a [u8],
    offset: usize,
    end: usize,
    options: Options,
    depth: u16,
}

impl<'a> Element<'a> {
    pub(crate) fn new(
        buf: &'a [u8],
        offset: usize,
        end: usize,
        options: Options,
        depth: u16,
    ) -> Self {
        Element { buf, offset, end, options, depth }
    }

    /// Reads the value whose header is at absolute `offset` in `buf` and checks all of it as
    /// [`validate`](crate::validate) does (every string's text included): for values embedded
    /// in a format of their own, such as the arguments of a multiplayer packet, whose element
    /// and error offsets must name places in the whole buffer. Bytes before `offset` are not
    /// read, bytes after the value are ignored. O(size of the value), iterative, no allocation.
    ///
    /// # Errors
    /// The first problem [`validate`](crate::validate) finds, at its absolute offset in `buf`
    /// ([`ErrorKind::Truncated`](crate::ErrorKind::Truncated) when `offset` is at or past the
    /// end).
    pub fn validate_at(buf: &'a [u8], offset: usize, options: Options) -> Result<Element<'a>> {
        let end = walk(buf, offset, options, 0, Mode::Validate)?;
        Ok(Element::new(buf, offset, end, options, 0))
    }

    /// The value. O(1): reads the head again (it was checked when the element was found).
    #[inline]
    pub fn value(&self) -> VariantRef<'a> {
        // Cannot fail: the same bytes were read with the same options to find this element.
        parse_head(self.buf, self.offset, self.options, self.depth)
            .map_or(VariantRef::Nil, |(v, _)| v)
    }

    /// A [`Cursor`] over the element's value and everything inside it, each part read once.
    pub fn cursor(&self) -> Cursor<'a> {
        Cursor::at(self.buf, self.offset, self.options, self.depth)
    }

    /// The buffer and settings the element was read with, its position and depth.
    #[cfg(feature = "alloc")]
    pub(crate) fn origin(&self) -> (&'a [u8], usize, Options, u16) {
        (self.buf, self.offset, self.options, self.depth)
    }

    /// The options the element was read with (its Godot version, whether full objects were
    /// allowed, the depth limit): what a writer that copies its bytes must check them against.
    /// O(1).
    #[inline]
    pub fn options(&self) -> Options {
        self.options
    }

    /// The string of a `String` or `StringName` element, read without the rest of the head.
    #[inline]
    pub(crate) fn string(&self) -> Option<GdStr<'a>> {
        read_string(self.buf, self.offset.saturating_add(4), self.options.version())
            .ok()
            .map(|(s, _)| s)
    }

    /// The value's type. O(1).
    #[inline]
    pub fn variant_type(&self) -> VariantType {
        u32_at(self.buf, self.offset)
            .ok()
            .and_then(|header| VariantType::from_id(self.options.version(), header & 0xFF))
            .unwrap_or(VariantType::Nil)
    }

    /// Absolute offset of the value's header in the caller's buffer.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The value's bytes, header included, exactly as in the buffer. For a `PackedByteArray`
    /// that ends the buffer without its padding, the padding is absent here too.
    #[inline]
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.buf.get(self.offset..self.end.min(self.buf.len())).unwrap_or(&[])
    }

    /// Number of bytes the value occupies in the buffer (`raw_bytes().len()`).
    #[inline]
    pub fn len(&self) -> usize {
        self.end.min(self.buf.len()).saturating_sub(self.offset)
    }

    /// Always `false`: every value has at least its 4-byte header.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Absolute offset where the next value would start, as Godot counts it: `offset() + len()`,
    /// except after a final `PackedByteArray` without its padding, where it lies past the
    /// buffer's end by the missing padding. O(1).
    #[inline]
    pub fn end(&self) -> usize {
        self.end
    }
}

impl core::fmt::Debug for Element<'_> {
    /// The type, offset and length; not the bytes.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Element")
            .field("type", &self.variant_type())
            .field("offset", &self.offset)
            .field("len", &self.len())
            .finish()
    }
}
