//! Lossless JSON: every Godot type tagged, every real exact (the schema is in the
//! [module docs](super)). One [`Cursor`](crate::view::Cursor) pass, O(n).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::JsonError;
use super::count::{Buffered, Out, Sink};
use super::escape::escape_into as string;
use super::number::{write_f32, write_f64, write_int};
use crate::view::cursor::{HeapCursor, Read, opens};
use crate::view::math::Precision;
use crate::view::packed::PackedElement;
use crate::wire::error::{Error, ErrorKind};
use crate::wire::{utf8, work};
use crate::{
    VariantRef, VariantType, Version, math::Reals, packed::Packed, packed::PackedReals,
    view::ContainerType, view::GdStr, view::ObjectRef,
};

/// Writes `value` as one line of lossless JSON (the schema is in the [module docs](super)).
/// O(n): containers are read by one [`Cursor`](crate::view::Cursor) pass, each byte once; no recursion, and one
/// small heap entry per open container. The text is gathered in a buffer of up to 8 KiB (one
/// per call) and written to `out` in pieces of about that size.
///
/// # Errors
/// [`JsonError::Value`] at the first malformed element or string (part of the JSON may have
/// been written), [`JsonError::Write`] when `out` fails.
pub fn write_json<W: Write + ?Sized>(value: VariantRef<'_>, out: &mut W) -> Result<(), JsonError> {
    let mut sink = Sink::new(out);
    let written = write_lossless(value, &mut sink);
    // What was written before an error is handed on too.
    let finished = sink.finish();
    written?;
    Ok(finished?)
}

/// [`write_json`] into an output that counts its writes.
fn write_lossless<W: Out + ?Sized>(value: VariantRef<'_>, out: &mut W) -> Result<(), JsonError> {
    // A cursor whose open containers live in a `Vec` grown on demand: nothing to set up for a
    // small value (the public `Cursor` fills an 8 KiB array first).
    let Some(mut cursor) = HeapCursor::heap_of_container(value) else {
        return write_leaf(value, out);
    };
    let mut stack: Vec<Frame> = Vec::new();
    while let Some(event) = cursor.next_read() {
        match event? {
            Read::Value(value) if opens(&value) => {
                before_child(out, stack.last_mut())?;
                stack.push(Frame { kind: open(out, value)?, items: 0 });
            }
            Read::Value(value) => {
                before_child(out, stack.last_mut())?;
                write_leaf(value, out)?;
                after_child(out, stack.last())?;
            }
            Read::Property(name) => {
                if let Some(frame) = stack.last_mut() {
                    if frame.items > 0 {
                        out.write_char(',')?;
                    }
                    frame.items = frame.items.saturating_add(1);
                    out.write_char('[')?;
                    name_string(out, name)?;
                    out.write_char(',')?;
                }
            }
            Read::Close => {
                if let Some(frame) = stack.pop() {
                    out.write_str(match frame.kind {
                        Kind::Array { close } => close,
                        Kind::Dictionary | Kind::Object => "]}",
                    })?;
                }
                after_child(out, stack.last())?;
            }
        }
    }
    Ok(())
}

/// `value` as a `String` of lossless JSON (see [`write_json`]).
///
/// # Errors
/// The first malformed element or string, with its byte offset.
pub fn to_json(value: VariantRef<'_>) -> Result<String, Error> {
    let mut out = String::new();
    match write_json(value, &mut out) {
        Err(JsonError::Value(error)) => Err(error),
        // `String`'s `fmt::Write` never fails, so `Write` does not occur.
        Ok(()) | Err(JsonError::Write) => Ok(out),
    }
}

/// An open container: what it is, and how many children (dictionary keys and values counted
/// apart, object properties once) have begun.
struct Frame {
    kind: Kind,
    items: u64,
}

/// What an open container writes around its children.
#[derive(Clone, Copy)]
enum Kind {
    /// An array's elements, then `close`.
    Array { close: &'static str },
    /// `[key, value]` pairs, then `]}`.
    Dictionary,
    /// `[name, value]` pairs (the name is written on its `Property` event), then `]}`.
    Object,
}

/// What comes before a child of `parent`: `,` between elements, `[` before a key, `,` between
/// a key and its value. A property's opening was written with its name.
fn before_child<W: Out + ?Sized>(out: &mut W, parent: Option<&mut Frame>) -> fmt::Result {
    let Some(frame) = parent else { return Ok(()) };
    match frame.kind {
        Kind::Array { .. } => {
            if frame.items > 0 {
                out.write_char(',')?;
            }
        }
        Kind::Dictionary if frame.items % 2 == 0 => {
            if frame.items > 0 {
                out.write_char(',')?;
            }
            out.write_char('[')?;
        }
        Kind::Dictionary => out.write_char(',')?,
        Kind::Object => return Ok(()),
    }
    frame.items = frame.items.saturating_add(1);
    Ok(())
}

/// What comes after a child of `parent`: `]` after a dictionary's value or a property's value.
fn after_child<W: Out + ?Sized>(out: &mut W, parent: Option<&Frame>) -> fmt::Result {
    match parent {
        Some(Frame { kind: Kind::Dictionary, items }) if items % 2 == 0 => out.write_char(']'),
        Some(Frame { kind: Kind::Object, .. }) => out.write_char(']'),
        _ => Ok(()),
    }
}

/// Writes a value that holds no other values; a container's head is written by [`open`].
pub(super) fn write_leaf<W: Out + ?Sized>(
    value: VariantRef<'_>,
    out: &mut W,
) -> Result<(), JsonError> {
    use VariantRef as V;
    match value {
        V::Nil => out.write_str("null")?,
        V::Bool(b) => out.write_str(if b { "true" } else { "false" })?,
        V::Int(i) => write_int(out, i)?,
        V::Float(f) if f.is_finite() => real64(out, f)?,
        V::Float(f) => {
            out.write_str(r#"{"type":"float","value":"#)?;
            nonfinite64(out, f)?;
            out.write_char('}')?;
        }
        V::String(s) => {
            if !try_string(out, &s)? {
                tagged_bytes(out, VariantType::String, s)?;
            }
        }
        V::StringName(s) => match text(&s)? {
            Some(text) => {
                head(out, VariantType::StringName)?;
                out.write_str(",\"value\":")?;
                string(out, text.as_bytes())?;
                out.write_char('}')?;
            }
            None => tagged_bytes(out, VariantType::StringName, s)?,
        },
        V::Vector2(r) => reals(out, VariantType::Vector2, r)?,
        V::Rect2(r) => reals(out, VariantType::Rect2, r)?,
        V::Vector3(r) => reals(out, VariantType::Vector3, r)?,
        V::Transform2D(r) => reals(out, VariantType::Transform2D, r)?,
        V::Vector4(r) => reals(out, VariantType::Vector4, r)?,
        V::Plane(r) => reals(out, VariantType::Plane, r)?,
        V::Quaternion(r) => reals(out, VariantType::Quaternion, r)?,
        V::Aabb(r) => reals(out, VariantType::Aabb, r)?,
        V::Basis(r) => reals(out, VariantType::Basis, r)?,
        V::Transform3D(r) => reals(out, VariantType::Transform3D, r)?,
        V::Projection(r) => reals(out, VariantType::Projection, r)?,
        V::Vector2i(v) => ints(out, VariantType::Vector2i, [v.x, v.y])?,
        V::Rect2i(v) => {
            let components = [v.position.x, v.position.y, v.size.x, v.size.y];
            ints(out, VariantType::Rect2i, components)?;
        }
        V::Vector3i(v) => ints(out, VariantType::Vector3i, [v.x, v.y, v.z])?,
        V::Vector4i(v) => ints(out, VariantType::Vector4i, [v.x, v.y, v.z, v.w])?,
        V::Color(c) => {
            head(out, VariantType::Color)?;
            out.write_str(",\"value\":[")?;
            for (i, component) in [c.r, c.g, c.b, c.a].into_iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                real32(out, component)?;
            }
            out.write_str("]}")?;
        }
        V::NodePath(path) => {
            head(out, VariantType::NodePath)?;
            out.write_str(if path.is_absolute() {
                ",\"absolute\":true,\"names\":["
            } else {
                ",\"absolute\":false,\"names\":["
            })?;
            names(out, path.names())?;
            out.write_str("],\"subnames\":[")?;
            names(out, path.subnames())?;
            out.write_str("]}")?;
        }
        V::Rid(Some(id)) => {
            head(out, VariantType::Rid)?;
            out.write_str(",\"value\":")?;
            write_int(out, id)?;
            out.write_char('}')?;
        }
        V::Rid(None) => {
            head(out, VariantType::Rid)?;
            out.write_char('}')?;
        }
        V::Callable => {
            head(out, VariantType::Callable)?;
            out.write_char('}')?;
        }
        V::Signal(signal) => {
            head(out, VariantType::Signal)?;
            out.write_str(",\"name\":")?;
            name_string(out, signal.name())?;
            out.write_str(",\"object_id\":")?;
            write_int(out, signal.object_id())?;
            out.write_char('}')?;
        }
        V::Object(ObjectRef::Null) => {
            head(out, VariantType::Object)?;
            out.write_str(",\"value\":null}")?;
        }
        V::Object(ObjectRef::Id(id)) => {
            head(out, VariantType::Object)?;
            out.write_str(",\"id\":")?;
            write_int(out, id)?;
            out.write_char('}')?;
        }
        V::Object(ObjectRef::Full(_)) | V::Array(_) | V::Dictionary(_) => {
            open(out, value)?;
        }
        V::PackedByteArray(bytes) => {
            head(out, VariantType::PackedByteArray)?;
            out.write_str(",\"value\":\"")?;
            hex(out, bytes)?;
            out.write_str("\"}")?;
        }
        V::PackedInt32Array(p) => {
            packed(out, VariantType::PackedInt32Array, p, |out, v| write_int(out, v))?
        }
        V::PackedInt64Array(p) => {
            packed(out, VariantType::PackedInt64Array, p, |out, v| write_int(out, v))?
        }
        V::PackedFloat32Array(p) => {
            packed(out, VariantType::PackedFloat32Array, p, |out, v| real32(out, v))?
        }
        V::PackedFloat64Array(p) => {
            packed(out, VariantType::PackedFloat64Array, p, |out, v| real64(out, v))?
        }
        V::PackedStringArray(strings) => {
            head(out, VariantType::PackedStringArray)?;
            out.write_str(",\"value\":[")?;
            names(out, strings.iter())?;
            out.write_str("]}")?;
        }
        V::PackedVector2Array(p) => packed_reals(out, VariantType::PackedVector2Array, p, 2)?,
        V::PackedVector3Array(p) => packed_reals(out, VariantType::PackedVector3Array, p, 3)?,
        V::PackedVector4Array(p) => packed_reals(out, VariantType::PackedVector4Array, p, 4)?,
        V::PackedColorArray(p) => {
            head(out, VariantType::PackedColorArray)?;
            out.write_str(",\"value\":[")?;
            groups(out, p.raw_bytes(), Precision::Single, 4)?;
            out.write_str("]}")?;
        }
    }
    Ok(())
}

/// `{"type":"Name"` (the object is left open).
fn head<W: Out + ?Sized>(out: &mut W, ty: VariantType) -> fmt::Result {
    out.write_str("{\"type\":\"")?;
    out.write_str(ty.name(Version::Godot4))?;
    out.write_char('"')
}

/// A container type: a builtin type's name, `{"class": ..}` or `{"script": ..}`.
fn container_type<W: Out + ?Sized>(
    out: &mut W,
    declared: ContainerType<'_>,
) -> Result<(), JsonError> {
    match declared {
        ContainerType::Untyped => out.write_str("null")?,
        ContainerType::Builtin(ty) => {
            out.write_char('"')?;
            out.write_str(ty.name(Version::Godot4))?;
            out.write_char('"')?;
        }
        ContainerType::ClassName(name) => {
            out.write_str("{\"class\":")?;
            name_string(out, name)?;
            out.write_char('}')?;
        }
        ContainerType::Script(path) => {
            out.write_str("{\"script\":")?;
            name_string(out, path)?;
            out.write_char('}')?;
        }
    }
    Ok(())
}

/// Writes the head of a container (everything before its children) and says what it is.
fn open<W: Out + ?Sized>(out: &mut W, value: VariantRef<'_>) -> Result<Kind, JsonError> {
    match value {
        VariantRef::Array(array) => {
            let declared = array.element_type()?;
            if declared == ContainerType::Untyped {
                out.write_char('[')?;
                return Ok(Kind::Array { close: "]" });
            }
            head(out, VariantType::Array)?;
            out.write_str(",\"element_type\":")?;
            container_type(out, declared)?;
            out.write_str(",\"value\":[")?;
            Ok(Kind::Array { close: "]}" })
        }
        VariantRef::Dictionary(dictionary) => {
            head(out, VariantType::Dictionary)?;
            let (keys, values) = dictionary.types()?;
            if keys != ContainerType::Untyped || values != ContainerType::Untyped {
                out.write_str(",\"key_type\":")?;
                container_type(out, keys)?;
                out.write_str(",\"value_type\":")?;
                container_type(out, values)?;
            }
            out.write_str(",\"entries\":[")?;
            Ok(Kind::Dictionary)
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            head(out, VariantType::Object)?;
            out.write_str(",\"class\":")?;
            name_string(out, object.class_name())?;
            out.write_str(",\"properties\":[")?;
            Ok(Kind::Object)
        }
        // The cursor opens nothing else.
        _ => Ok(Kind::Array { close: "]" }),
    }
}

/// The text the game reads from a string (overlong forms normalised); `None` for a Godot 3
/// string that is not Unicode.
pub(super) fn text<'a>(s: &GdStr<'a>) -> Result<Option<Cow<'a, str>>, Error> {
    // Its bytes are checked again.
    #[cfg(feature = "work-counter")]
    work::add(s.text_bytes().len() >> 6);
    match s.to_text() {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == ErrorKind::NotUnicode => Ok(None),
        Err(error) => Err(error),
    }
}

/// `{"type":"String","bytes":"<hex>"}`.
fn tagged_bytes<W: Out + ?Sized>(
    out: &mut W,
    ty: VariantType,
    s: GdStr<'_>,
) -> Result<(), JsonError> {
    head(out, ty)?;
    out.write_str(",\"bytes\":\"")?;
    hex(out, s.text_bytes())?;
    out.write_str("\"}")?;
    Ok(())
}

/// A string that names something: a JSON string, or `{"bytes":"<hex>"}`.
fn name_string<W: Out + ?Sized>(out: &mut W, s: GdStr<'_>) -> Result<(), JsonError> {
    if !try_string(out, &s)? {
        out.write_str("{\"bytes\":\"")?;
        hex(out, s.text_bytes())?;
        out.write_str("\"}")?;
    }
    Ok(())
}

/// Writes the text of `s` as a JSON string, or nothing and `false` for a Godot 3 string that
/// is not Unicode. Plain ASCII without NUL (most keys and names) is its own text in both
/// versions: its bytes go to the output as they are.
pub(super) fn try_string<W: Out + ?Sized>(out: &mut W, s: &GdStr<'_>) -> Result<bool, JsonError> {
    let raw = s.raw_bytes();
    if utf8::is_plain_ascii(raw) {
        // The check of its bytes.
        work::add(raw.len() >> 6);
        string(out, raw)?;
        return Ok(true);
    }
    match text(s)? {
        Some(text) => string(out, text.as_bytes())?,
        None => return Ok(false),
    }
    Ok(true)
}

/// Strings one after the other, comma-separated.
fn names<'a, W: Out + ?Sized>(
    out: &mut W,
    strings: impl Iterator<Item = crate::Result<GdStr<'a>>>,
) -> Result<(), JsonError> {
    for (i, s) in strings.enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        name_string(out, s?)?;
    }
    Ok(())
}

/// Bytes as lowercase hex digits, 64 bytes to a write.
pub(super) fn hex<W: Out + ?Sized>(out: &mut W, bytes: &[u8]) -> fmt::Result {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit = |nibble: u8| DIGITS.get(usize::from(nibble & 15)).copied().unwrap_or(b'0');
    let mut out = Buffered::new(out);
    for &byte in bytes {
        out.push_byte(digit(byte >> 4))?;
        out.push_byte(digit(byte))?;
    }
    out.flush()
}

/// A finite f32 as a number, anything else as a string (see the module docs).
pub(super) fn real32<W: Out + ?Sized>(out: &mut W, value: f32) -> fmt::Result {
    if value.is_finite() {
        write_f32(out, value)
    } else if value.is_nan() {
        match value.to_bits() {
            0x7fc0_0000 => out.write_str("\"nan\""),
            bits => write!(out, "\"nan:{bits:08x}\""),
        }
    } else {
        out.write_str(if value > 0.0 { "\"inf\"" } else { "\"-inf\"" })
    }
}

/// A finite f64 as a number, anything else as a string (see the module docs).
pub(super) fn real64<W: Out + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    if value.is_finite() { write_f64(out, value) } else { nonfinite64(out, value) }
}

/// `"inf"`, `"-inf"`, `"nan"` or `"nan:<bits>"`.
pub(super) fn nonfinite64<W: Out + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    if value.is_nan() {
        match value.to_bits() {
            0x7ff8_0000_0000_0000 => out.write_str("\"nan\""),
            bits => write!(out, "\"nan:{bits:016x}\""),
        }
    } else {
        out.write_str(if value > 0.0 { "\"inf\"" } else { "\"-inf\"" })
    }
}

/// Reals from little-endian bytes of `precision`, comma-separated: a unit per real (its
/// shortest digits, at most 17, are bounded work).
fn real_list<W: Out + ?Sized>(out: &mut W, raw: &[u8], precision: Precision) -> fmt::Result {
    work::add(raw.len().checked_div(precision.size()).unwrap_or(0));
    match precision {
        Precision::Single => {
            for (i, chunk) in raw.chunks_exact(4).enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                let bytes: [u8; 4] = chunk.try_into().unwrap_or_default();
                real32(out, f32::from_le_bytes(bytes))?;
            }
        }
        Precision::Double => {
            for (i, chunk) in raw.chunks_exact(8).enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                let bytes: [u8; 8] = chunk.try_into().unwrap_or_default();
                real64(out, f64::from_le_bytes(bytes))?;
            }
        }
    }
    Ok(())
}

/// `,"precision":"double"` for f64 reals, nothing for f32.
fn precision_field<W: Out + ?Sized>(out: &mut W, precision: Precision) -> fmt::Result {
    match precision {
        Precision::Single => Ok(()),
        Precision::Double => out.write_str(",\"precision\":\"double\""),
    }
}

/// A real-valued math value.
fn reals<W: Out + ?Sized, V>(out: &mut W, ty: VariantType, value: Reals<'_, V>) -> fmt::Result
where
    V: crate::view::math::RealValue,
{
    head(out, ty)?;
    precision_field(out, value.precision())?;
    out.write_str(",\"value\":[")?;
    real_list(out, value.raw_bytes(), value.precision())?;
    out.write_str("]}")
}

/// An integer vector or rectangle.
fn ints<W: Out + ?Sized, const N: usize>(
    out: &mut W,
    ty: VariantType,
    components: [i32; N],
) -> fmt::Result {
    head(out, ty)?;
    out.write_str(",\"value\":[")?;
    for (i, component) in components.into_iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        write_int(out, component)?;
    }
    out.write_str("]}")
}

/// A packed array of scalars: a unit per element.
fn packed<W: Out + ?Sized, T: PackedElement>(
    out: &mut W,
    ty: VariantType,
    packed: Packed<'_, T>,
    mut element: impl FnMut(&mut W, T) -> fmt::Result,
) -> fmt::Result {
    head(out, ty)?;
    out.write_str(",\"value\":[")?;
    for (i, value) in packed.iter().enumerate() {
        work::add(1);
        if i > 0 {
            out.write_char(',')?;
        }
        element(out, value)?;
    }
    out.write_str("]}")
}

/// A packed array of real vectors.
fn packed_reals<W: Out + ?Sized, S: PackedElement, D: PackedElement>(
    out: &mut W,
    ty: VariantType,
    packed: PackedReals<'_, S, D>,
    components: usize,
) -> fmt::Result {
    head(out, ty)?;
    let (raw, precision) = match packed {
        PackedReals::Single(p) => (p.raw_bytes(), Precision::Single),
        PackedReals::Double(p) => (p.raw_bytes(), Precision::Double),
    };
    precision_field(out, precision)?;
    out.write_str(",\"value\":[")?;
    groups(out, raw, precision, components)?;
    out.write_str("]}")
}

/// Elements of `components` reals each, as arrays (each real counts a unit).
fn groups<W: Out + ?Sized>(
    out: &mut W,
    raw: &[u8],
    precision: Precision,
    components: usize,
) -> fmt::Result {
    let size = precision.size().saturating_mul(components).max(1);
    for (i, element) in raw.chunks_exact(size).enumerate() {
        out.write_str(if i > 0 { ",[" } else { "[" })?;
        real_list(out, element, precision)?;
        out.write_char(']')?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_text(value: f32) -> String {
        let mut out = String::new();
        real32(&mut out, value).unwrap();
        out
    }

    #[test]
    fn reals_are_exact_and_never_bare_non_numbers() {
        assert_eq!(f32_text(0.1), "0.1");
        assert_eq!(f32_text(1.0), "1.0");
        assert_eq!(f32_text(-0.0), "-0.0");
        assert_eq!(f32_text(1e30), "1e30");
        assert_eq!(f32_text(f32::INFINITY), "\"inf\"");
        assert_eq!(f32_text(f32::NEG_INFINITY), "\"-inf\"");
        assert_eq!(f32_text(f32::NAN), "\"nan\"");
        assert_eq!(f32_text(f32::from_bits(0xffc0_0001)), "\"nan:ffc00001\"");
        let mut out = String::new();
        real64(&mut out, f64::from_bits(0x7ff0_0000_0000_0001)).unwrap();
        assert_eq!(out, "\"nan:7ff0000000000001\"");
    }
}
