//! Compressed values (`encode_and_compress_variant`): how Godot 4's multiplayer writes RPC
//! arguments, spawn arguments and synchronized state.
//!
//! The first byte's low six bits are the type, the top two the form. A `bool` is that one byte
//! (bit 7 the value; the form bits are not checked). An `int` takes 1, 2, 4 or 8 more bytes as
//! the form says (the sender picks the narrowest). Every other type is the value exactly as
//! `var_to_bytes` writes it (the first byte is its header's type, form bits clear), read here by
//! the core's own walk ([`validate`](gdvariant::validate)'s checks, Godot's verdict). Values follow
//! each other without counts or lengths: each one says where it ends.
//!
//! Reading one value is O(its size); nothing is allocated.

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{array, u8_at};
use gdvariant::Options;
use gdvariant::VariantRef;
use gdvariant::VariantType;
use gdvariant::view::Element;

/// `VARIANT_MAX` in Godot 4: type ids are below it.
const TYPE_COUNT: u8 = 39;

/// How many bytes a compressed `int` takes after its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntWidth {
    /// One byte (form 0, first byte `0x02`).
    I8,
    /// Two bytes (form 1, `0x42`).
    I16,
    /// Four bytes (form 2, `0x82`).
    I32,
    /// Eight bytes (form 3, `0xC2`).
    I64,
}

impl IntWidth {
    /// The narrowest width holding `value`, as Godot's encoder picks it.
    pub const fn of(value: i64) -> IntWidth {
        if value >= i8::MIN as i64 && value <= i8::MAX as i64 {
            IntWidth::I8
        } else if value >= i16::MIN as i64 && value <= i16::MAX as i64 {
            IntWidth::I16
        } else if value >= i32::MIN as i64 && value <= i32::MAX as i64 {
            IntWidth::I32
        } else {
            IntWidth::I64
        }
    }

    /// The form bits (the first byte's top two bits).
    pub(crate) const fn form(self) -> u8 {
        match self {
            IntWidth::I8 => 0x00,
            IntWidth::I16 => 0x40,
            IntWidth::I32 => 0x80,
            IntWidth::I64 => 0xC0,
        }
    }

    /// Bytes after the first.
    pub const fn bytes(self) -> usize {
        match self {
            IntWidth::I8 => 1,
            IntWidth::I16 => 2,
            IntWidth::I32 => 4,
            IntWidth::I64 => 8,
        }
    }
}

/// One compressed value, borrowed from the packet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// A `bool`: one byte.
    Bool(bool),
    /// An `int` in `width` bytes after its first byte.
    Int {
        /// The value, sign-extended.
        value: i64,
        /// The width it was written in.
        width: IntWidth,
    },
    /// Any other type, as `var_to_bytes` writes it.
    Plain(Element<'a>),
    /// The argument of an RPC's byte-only form: a `PackedByteArray` written as its bytes alone.
    Bytes(&'a [u8]),
}

impl<'a> Value<'a> {
    /// The value. O(1).
    pub fn value(&self) -> VariantRef<'a> {
        match *self {
            Value::Bool(b) => VariantRef::Bool(b),
            Value::Int { value, .. } => VariantRef::Int(value),
            Value::Plain(element) => element.value(),
            Value::Bytes(bytes) => VariantRef::PackedByteArray(bytes),
        }
    }

    /// The value's type.
    pub fn variant_type(&self) -> VariantType {
        match self {
            Value::Bool(_) => VariantType::Bool,
            Value::Int { .. } => VariantType::Int,
            Value::Plain(element) => element.variant_type(),
            Value::Bytes(_) => VariantType::PackedByteArray,
        }
    }
}

/// A compressed value and the bytes the packet carried it in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carried<'a> {
    /// The value.
    pub value: Value<'a>,
    /// Its bytes in the packet: the first byte and what follows it (a `bool`'s one byte, form
    /// bits as sent; an `int`'s 2 to 9; any other type's `var_to_bytes` bytes), or, for an RPC's
    /// byte-only form, the `PackedByteArray`'s bytes alone. [`read_compressed`] reads them back
    /// (but for the byte-only form, which has no header).
    pub bytes: &'a [u8],
}

/// The compressed value at the start of `bytes` (as RPC arguments, spawn arguments and
/// synchronized state hold it), and how many bytes it takes. O(its size).
///
/// ```
/// use gdvariant_multiplayer::godot4::{Value, read_compressed};
///
/// // An int in two bytes (form 1), then a byte that belongs to the next value.
/// let (value, used) = read_compressed(&[0x42, 0x2C, 0x01, 0x81], gdvariant::Options::godot4())?;
/// assert_eq!(used, 3);
/// assert!(matches!(value, Value::Int { value: 300, .. }));
/// # Ok::<(), gdvariant_multiplayer::PacketError>(())
/// ```
///
/// # Errors
/// What Godot's reader refuses in it (an unknown type, a cut value, what `var_to_bytes`'s
/// reader refuses).
pub fn read_compressed(bytes: &[u8], options: Options) -> Result<(Value<'_>, usize), PacketError> {
    let (value, next) = read_value(bytes, 0, bytes.len(), options)?;
    Ok((value, next.min(bytes.len())))
}

/// The bytes from `start` to `next` (clamped to `end` and the buffer), as [`Carried::bytes`].
pub(crate) fn carried_bytes(buf: &[u8], start: usize, next: usize, end: usize) -> &[u8] {
    buf.get(start..next.min(end).min(buf.len())).unwrap_or(&[])
}

/// Reads the compressed value at `pos`; `end` is where the bytes it may use end (the packet's or
/// an element's end). Returns the value and where the next one starts (for a final
/// `PackedByteArray`, possibly past `end` by its missing padding, as Godot counts it). O(size).
pub(crate) fn read_value<'a>(
    buf: &'a [u8],
    pos: usize,
    end: usize,
    options: Options,
) -> Result<(Value<'a>, usize), PacketError> {
    let bounded = buf.get(..end).unwrap_or(buf);
    let first = u8_at(bounded, pos)?;
    let ty = first & 0x3F;
    if ty >= TYPE_COUNT {
        return Err(PacketError::new(pos, PacketErrorKind::UnknownType { id: ty }));
    }
    let next = pos.saturating_add(1);
    match ty {
        1 => Ok((Value::Bool(first & 0x80 != 0), next)),
        2 => {
            let (value, width) = match first & 0xC0 {
                0x00 => (i64::from(i8::from_le_bytes(array::<1>(bounded, next)?)), IntWidth::I8),
                0x40 => (i64::from(i16::from_le_bytes(array::<2>(bounded, next)?)), IntWidth::I16),
                0x80 => (i64::from(i32::from_le_bytes(array::<4>(bounded, next)?)), IntWidth::I32),
                _ => (i64::from_le_bytes(array::<8>(bounded, next)?), IntWidth::I64),
            };
            Ok((Value::Int { value, width }, next.saturating_add(width.bytes())))
        }
        _ => {
            let element = Element::validate_at(bounded, pos, options)?;
            Ok((Value::Plain(element), element.end()))
        }
    }
}

/// Compressed values back to back, from a start to an end: the state of a spawn or a sync
/// element. Yields each value, or the first error (then stops). O(bytes read).
#[derive(Clone, Copy, Debug)]
pub struct Values<'a> {
    buf: &'a [u8],
    pos: usize,
    end: usize,
    options: Options,
    failed: bool,
}

impl<'a> Values<'a> {
    pub(crate) fn new(buf: &'a [u8], pos: usize, end: usize, options: Options) -> Self {
        Values { buf, pos, end, options, failed: false }
    }

    /// Where the next value starts (after the last one, where the values end: past `end` only
    /// by a final `PackedByteArray`'s missing padding).
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Values<'a> {
    /// The next value with the bytes it was carried in: [`Iterator::next`] with
    /// [`Carried::bytes`]. O(its size).
    pub fn next_carried(&mut self) -> Option<Result<Carried<'a>, PacketError>> {
        let start = self.pos;
        let value = self.next()?;
        Some(value.map(|value| Carried {
            value,
            bytes: carried_bytes(self.buf, start, self.pos, self.end),
        }))
    }
}

impl<'a> Iterator for Values<'a> {
    type Item = Result<Value<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.end {
            return None;
        }
        match read_value(self.buf, self.pos, self.end, self.options) {
            Ok((value, next)) => {
                self.pos = next;
                Some(Ok(value))
            }
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

impl core::iter::FusedIterator for Values<'_> {}
