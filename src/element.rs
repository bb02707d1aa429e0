//! [`Element`]: a value together with where it sits and its exact bytes, for relays that
//! forward a subtree byte for byte without decoding it.

use crate::VariantType;
use crate::value::VariantRef;

/// One value of a container (or the top-level value of [`parse_prefix`](crate::parse_prefix)):
/// its head, its absolute offset and its raw bytes. Finding the end walked the value's
/// structure once; nothing was copied.
#[derive(Clone, Copy, Debug)]
pub struct Element<'a> {
    buf: &'a [u8],
    offset: usize,
    end: usize,
    value: VariantRef<'a>,
}

impl<'a> Element<'a> {
    pub(crate) fn new(buf: &'a [u8], offset: usize, end: usize, value: VariantRef<'a>) -> Self {
        Element { buf, offset, end, value }
    }

    /// The value.
    pub fn value(&self) -> VariantRef<'a> {
        self.value
    }

    /// The value's type.
    pub fn variant_type(&self) -> VariantType {
        self.value.variant_type()
    }

    /// Absolute offset of the value's header in the caller's buffer.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The value's bytes, header included, exactly as in the buffer. For a `PackedByteArray`
    /// that ends the buffer without its padding, the padding is absent here too.
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.buf.get(self.offset..self.end.min(self.buf.len())).unwrap_or(&[])
    }

    /// Number of bytes the value occupies in the buffer (`raw_bytes().len()`).
    pub fn len(&self) -> usize {
        self.end.min(self.buf.len()).saturating_sub(self.offset)
    }

    /// Always `false`: every value has at least its 4-byte header.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where the next value would start, as Godot counts it (may lie past the buffer's end by
    /// the missing padding of a final `PackedByteArray`).
    pub(crate) fn end(&self) -> usize {
        self.end
    }
}
