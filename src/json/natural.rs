//! Natural JSON: dictionaries as JSON objects, numbers as numbers, math values as small objects
//! (the form and its fallbacks are in the [module docs](super)). One [`Cursor`](crate::view::Cursor) pass, O(n).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::JsonError;
use super::count::{Out, Sink};
use super::escape::escape_into as string;
use super::lossless;
use super::number::{write_f32, write_f64, write_int};
use super::shape::{Field, FieldKind, math_fields};
use crate::view::cursor::{HeapCursor, Read, opens};
use crate::view::math::Precision;
use crate::view::packed::PackedElement;
use crate::wire::error::Error;
use crate::wire::work;
use crate::{
    VariantRef, packed::Packed, packed::PackedReals, view::GdStr, view::NodePathRef,
    view::ObjectRef,
};

/// Writes `value` as one line of natural JSON (the form is in the [module docs](super)).
/// O(n): one [`Cursor`](crate::view::Cursor) pass, each byte read once (a dictionary key that is a container is read
/// twice: once for its lossless text, once to pass over it); no recursion, one small heap
/// entry per open container. The text is gathered in a buffer of up to 8 KiB (one per call)
/// and written to `out` in pieces of about that size.
///
/// # Errors
/// [`JsonError::Value`] at the first malformed element or string (part of the JSON may have
/// been written), [`JsonError::Write`] when `out` fails.
pub fn write_natural_json<W: Write + ?Sized>(
    value: VariantRef<'_>,
    out: &mut W,
) -> Result<(), JsonError> {
    let mut sink = Sink::new(out);
    let written = write_natural(value, &mut sink);
    // What was written before an error is handed on too.
    let finished = sink.finish();
    written?;
    Ok(finished?)
}

/// [`write_natural_json`] into an output that counts its writes.
fn write_natural<W: Out + ?Sized>(value: VariantRef<'_>, out: &mut W) -> Result<(), JsonError> {
    // A cursor whose open containers live in a `Vec` grown on demand: nothing to set up for a
    // small value (the public `Cursor` fills an 8 KiB array first).
    let Some(mut cursor) = HeapCursor::heap_of_container(value) else {
        return leaf(value, out);
    };
    let mut stack: Vec<Open> = Vec::new();
    while let Some(event) = cursor.next_read() {
        match event? {
            Read::Value(value) if opens(&value) => {
                if before_child(out, stack.last_mut())? {
                    // A container used as a key: its lossless JSON, as a string.
                    let mut text = String::new();
                    lossless::write_json(value, &mut text)?;
                    string(out, text.as_bytes())?;
                    out.write_char(':')?;
                    cursor.skip_container()?;
                } else {
                    stack.push(Open { kind: open(out, value)?, items: 0 });
                }
            }
            Read::Value(value) => {
                if before_child(out, stack.last_mut())? {
                    key(value, out)?;
                    out.write_char(':')?;
                } else {
                    leaf(value, out)?;
                }
            }
            Read::Property(name) => {
                if let Some(frame) = stack.last_mut() {
                    if frame.items > 0 {
                        out.write_char(',')?;
                    }
                    frame.items = frame.items.saturating_add(1);
                    text(out, name)?;
                    out.write_char(':')?;
                }
            }
            Read::Close => {
                if let Some(frame) = stack.pop() {
                    out.write_str(match frame.kind {
                        Kind::Array => "]",
                        Kind::Dictionary => "}",
                        Kind::Object => "}}",
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// `value` as a `String` of natural JSON (see [`write_natural_json`]).
///
/// # Errors
/// The first malformed element or string, with its byte offset.
pub fn to_natural_json(value: VariantRef<'_>) -> Result<String, Error> {
    let mut out = String::new();
    match write_natural_json(value, &mut out) {
        Err(JsonError::Value(error)) => Err(error),
        // `String`'s `fmt::Write` never fails.
        Ok(()) | Err(JsonError::Write) => Ok(out),
    }
}

/// An open container and how many children (keys and values counted apart, properties once)
/// have begun.
struct Open {
    kind: Kind,
    items: u64,
}

/// What an open container writes around its children.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `[...]`.
    Array,
    /// `{key: value, ...}`.
    Dictionary,
    /// `{"class": ..., "properties": {name: value, ...}}`.
    Object,
}

/// Writes what comes before a child of `parent` (`,` between entries) and says whether the
/// child is a dictionary key. A property's name was written with its `Property` event.
fn before_child<W: Out + ?Sized>(
    out: &mut W,
    parent: Option<&mut Open>,
) -> Result<bool, fmt::Error> {
    let Some(frame) = parent else { return Ok(false) };
    let is_key = match frame.kind {
        Kind::Array => {
            if frame.items > 0 {
                out.write_char(',')?;
            }
            false
        }
        Kind::Dictionary if frame.items % 2 == 0 => {
            if frame.items > 0 {
                out.write_char(',')?;
            }
            true
        }
        Kind::Dictionary => false,
        Kind::Object => return Ok(false),
    };
    frame.items = frame.items.saturating_add(1);
    Ok(is_key)
}

/// Writes the head of a container and says what it is.
fn open<W: Out + ?Sized>(out: &mut W, value: VariantRef<'_>) -> Result<Kind, JsonError> {
    match value {
        VariantRef::Dictionary(_) => {
            out.write_char('{')?;
            Ok(Kind::Dictionary)
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            out.write_str("{\"class\":")?;
            text(out, object.class_name())?;
            out.write_str(",\"properties\":{")?;
            Ok(Kind::Object)
        }
        // Arrays, typed or not (the cursor opens nothing else).
        _ => {
            out.write_char('[')?;
            Ok(Kind::Array)
        }
    }
}

/// A dictionary key, as a JSON string (the rules are in the module docs).
fn key<W: Out + ?Sized>(value: VariantRef<'_>, out: &mut W) -> Result<(), JsonError> {
    use VariantRef as V;
    match value {
        V::String(s) | V::StringName(s) => return text(out, s),
        V::NodePath(path) => return node_path(out, path),
        V::Nil => out.write_str("\"null\"")?,
        V::Bool(b) => out.write_str(if b { "\"true\"" } else { "\"false\"" })?,
        V::Int(i) => {
            out.write_char('"')?;
            write_int(out, i)?;
            out.write_char('"')?;
        }
        // A non-finite float is already a JSON string.
        V::Float(f) if !f.is_finite() => real64(out, f)?,
        V::Float(f) => {
            out.write_char('"')?;
            write_f64(out, f)?;
            out.write_char('"')?;
        }
        _ => {
            // Any other key: the text of its lossless JSON (a key of this kind is rare).
            let mut buffer = String::new();
            lossless::write_leaf(value, &mut buffer)?;
            string(out, buffer.as_bytes())?;
        }
    }
    Ok(())
}

/// Writes a value that holds no other values.
fn leaf<W: Out + ?Sized>(value: VariantRef<'_>, out: &mut W) -> Result<(), JsonError> {
    use VariantRef as V;
    match value {
        V::Nil | V::Callable | V::Rid(None) | V::Object(ObjectRef::Null) => {
            out.write_str("null")?
        }
        V::Bool(b) => out.write_str(if b { "true" } else { "false" })?,
        V::Int(i) => write_int(out, i)?,
        V::Float(f) => real64(out, f)?,
        V::String(s) | V::StringName(s) => text(out, s)?,
        V::Vector2(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Rect2(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Vector3(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Transform2D(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Vector4(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Plane(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Quaternion(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Aabb(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Basis(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Transform3D(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Projection(r) => reals(out, &value, r.raw_bytes(), r.precision())?,
        V::Vector2i(v) => ints(out, &value, &[v.x, v.y])?,
        V::Rect2i(v) => ints(out, &value, &[v.position.x, v.position.y, v.size.x, v.size.y])?,
        V::Vector3i(v) => ints(out, &value, &[v.x, v.y, v.z])?,
        V::Vector4i(v) => ints(out, &value, &[v.x, v.y, v.z, v.w])?,
        V::Color(c) => fields(out, math_fields(value.variant_type()), &|out, i| {
            real32(out, [c.r, c.g, c.b, c.a].get(i).copied().unwrap_or_default())
        })?,
        V::NodePath(path) => node_path(out, path)?,
        V::Rid(Some(id)) => write_int(out, id)?,
        V::Object(ObjectRef::Id(id)) => {
            out.write_str("{\"id\":")?;
            write_int(out, id)?;
            out.write_char('}')?;
        }
        V::Signal(signal) => {
            out.write_str("{\"name\":")?;
            text(out, signal.name())?;
            out.write_str(",\"object_id\":")?;
            write_int(out, signal.object_id())?;
            out.write_char('}')?;
        }
        // Containers are opened by the cursor; a lone one is written whole.
        V::Object(ObjectRef::Full(_)) | V::Array(_) | V::Dictionary(_) => {
            write_natural(value, out)?
        }
        V::PackedByteArray(bytes) => {
            out.write_char('"')?;
            base64(out, bytes)?;
            out.write_char('"')?;
        }
        V::PackedInt32Array(p) => list(out, p, |out, v| write_int(out, v))?,
        V::PackedInt64Array(p) => list(out, p, |out, v| write_int(out, v))?,
        V::PackedFloat32Array(p) => list(out, p, |out, v| real32(out, v))?,
        V::PackedFloat64Array(p) => list(out, p, |out, v| real64(out, v))?,
        V::PackedStringArray(strings) => {
            out.write_char('[')?;
            for (i, s) in strings.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                text(out, s?)?;
            }
            out.write_char(']')?;
        }
        V::PackedVector2Array(p) => packed_reals(out, p, math_fields(crate::VariantType::Vector2))?,
        V::PackedVector3Array(p) => packed_reals(out, p, math_fields(crate::VariantType::Vector3))?,
        V::PackedVector4Array(p) => packed_reals(out, p, math_fields(crate::VariantType::Vector4))?,
        V::PackedColorArray(p) => {
            let color = math_fields(crate::VariantType::Color);
            groups(out, p.raw_bytes(), Precision::Single, 4, color)?;
        }
    }
    Ok(())
}

/// A string: the game's text, code points JSON cannot hold replaced by U+FFFD.
fn text<W: Out + ?Sized>(out: &mut W, s: GdStr<'_>) -> Result<(), JsonError> {
    if !lossless::try_string(out, &s)? {
        string(out, s.to_string_lossy().as_bytes())?;
    }
    Ok(())
}

/// A NodePath's text as a JSON string (`"/root/Main:position"`), names JSON cannot hold with
/// U+FFFD.
fn node_path<W: Out + ?Sized>(out: &mut W, path: NodePathRef<'_>) -> Result<(), JsonError> {
    let mut text = String::new();
    if path.is_absolute() {
        text.push('/');
    }
    for (i, name) in path.names().enumerate() {
        if i > 0 {
            text.push('/');
        }
        let name = lossy(name?)?;
        work::add((name.len() >> 6).saturating_add(1));
        text.push_str(&name);
    }
    for subname in path.subnames() {
        text.push(':');
        let subname = lossy(subname?)?;
        work::add((subname.len() >> 6).saturating_add(1));
        text.push_str(&subname);
    }
    string(out, text.as_bytes())?;
    Ok(())
}

/// The game's text, or the lossy text of a string that is not Unicode.
fn lossy<'a>(s: GdStr<'a>) -> Result<alloc::borrow::Cow<'a, str>, Error> {
    Ok(lossless::text(&s)?.unwrap_or_else(|| s.to_string_lossy()))
}

/// A finite real as the shortest decimal that reads back to the same f32.
fn real32<W: Out + ?Sized>(out: &mut W, value: f32) -> fmt::Result {
    if value.is_finite() {
        write_f32(out, value)
    } else {
        nonfinite(out, value.is_nan(), value > 0.0)
    }
}

/// A finite real as the shortest decimal that reads back to the same f64.
fn real64<W: Out + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    if value.is_finite() {
        write_f64(out, value)
    } else {
        nonfinite(out, value.is_nan(), value > 0.0)
    }
}

/// `"NaN"`, `"Infinity"` or `"-Infinity"`.
fn nonfinite<W: Out + ?Sized>(out: &mut W, nan: bool, positive: bool) -> fmt::Result {
    out.write_str(match (nan, positive) {
        (true, _) => "\"NaN\"",
        (false, true) => "\"Infinity\"",
        (false, false) => "\"-Infinity\"",
    })
}

/// An object of named fields, each component written by `component`; `null` when `fields` is
/// `None` (not reached: every math type has fields).
fn fields<W: Out + ?Sized>(
    out: &mut W,
    fields: Option<&'static [Field]>,
    component: &dyn Fn(&mut W, usize) -> fmt::Result,
) -> fmt::Result {
    match fields {
        Some(fields) => group(out, fields, component),
        None => out.write_str("null"),
    }
}

/// `{"name": part, ...}`. Recurses on the static tables of [`math_fields`] only (three levels
/// at most: a transform's basis's axes).
fn group<W: Out + ?Sized>(
    out: &mut W,
    fields: &'static [Field],
    component: &dyn Fn(&mut W, usize) -> fmt::Result,
) -> fmt::Result {
    for (i, field) in fields.iter().enumerate() {
        // `{"name":` or `,"name":`, in one piece (the names are a few letters).
        let mut piece = [0u8; 24];
        let lead: &[u8] = if i > 0 { b",\"" } else { b"{\"" };
        let parts = [lead, field.name.as_bytes(), b"\":"];
        let mut len = 0usize;
        for part in parts {
            let end = len.saturating_add(part.len());
            piece.get_mut(len..end).ok_or(fmt::Error)?.copy_from_slice(part);
            len = end;
        }
        out.push_text(piece.get(..len).ok_or(fmt::Error)?)?;
        match field.kind {
            FieldKind::Component(index) => component(out, index)?,
            FieldKind::Group(inner) => group(out, inner, component)?,
        }
    }
    out.write_str(if fields.is_empty() { "{}" } else { "}" })
}

/// A real-valued math value from its wire bytes.
fn reals<W: Out + ?Sized>(
    out: &mut W,
    value: &VariantRef<'_>,
    raw: &[u8],
    precision: Precision,
) -> fmt::Result {
    fields(out, math_fields(value.variant_type()), &|out, i| component(out, raw, precision, i))
}

/// Component `index` of reals of `precision` in `raw`.
fn component<W: Out + ?Sized>(
    out: &mut W,
    raw: &[u8],
    precision: Precision,
    index: usize,
) -> fmt::Result {
    let size = precision.size();
    let start = index.saturating_mul(size);
    let bytes = raw.get(start..start.saturating_add(size)).unwrap_or(&[]);
    match precision {
        Precision::Single => real32(out, f32::from_le_bytes(bytes.try_into().unwrap_or_default())),
        Precision::Double => real64(out, f64::from_le_bytes(bytes.try_into().unwrap_or_default())),
    }
}

/// An integer vector or rectangle.
fn ints<W: Out + ?Sized>(out: &mut W, value: &VariantRef<'_>, components: &[i32]) -> fmt::Result {
    fields(out, math_fields(value.variant_type()), &|out, i| {
        write_int(out, components.get(i).copied().unwrap_or_default())
    })
}

/// A packed array of scalars, as a JSON array: a unit per element.
fn list<W: Out + ?Sized, T: PackedElement>(
    out: &mut W,
    packed: Packed<'_, T>,
    mut element: impl FnMut(&mut W, T) -> fmt::Result,
) -> fmt::Result {
    out.write_char('[')?;
    for (i, value) in packed.iter().enumerate() {
        work::add(1);
        if i > 0 {
            out.write_char(',')?;
        }
        element(out, value)?;
    }
    out.write_char(']')
}

/// A packed array of real vectors, as an array of objects.
fn packed_reals<W: Out + ?Sized, S: PackedElement, D: PackedElement>(
    out: &mut W,
    packed: PackedReals<'_, S, D>,
    shape: Option<&'static [Field]>,
) -> fmt::Result {
    let components = shape.map_or(1, <[Field]>::len);
    match packed {
        PackedReals::Single(p) => groups(out, p.raw_bytes(), Precision::Single, components, shape),
        PackedReals::Double(p) => groups(out, p.raw_bytes(), Precision::Double, components, shape),
    }
}

/// Elements of `components` reals each, as an array of objects of `shape` (each real counts a
/// unit).
fn groups<W: Out + ?Sized>(
    out: &mut W,
    raw: &[u8],
    precision: Precision,
    components: usize,
    shape: Option<&'static [Field]>,
) -> fmt::Result {
    let size = precision.size().saturating_mul(components).max(1);
    out.write_char('[')?;
    for (i, element) in raw.chunks_exact(size).enumerate() {
        // Its reals' shortest digits (at most 17 each) are bounded work.
        work::add(components);
        if i > 0 {
            out.write_char(',')?;
        }
        fields(out, shape, &|out, index| component(out, element, precision, index))?;
    }
    out.write_char(']')
}

/// Bytes in standard, padded base64 (the `base64` crate's `STANDARD` engine), 96 bytes of
/// input (128 of text) to a write.
fn base64<W: Out + ?Sized>(out: &mut W, bytes: &[u8]) -> fmt::Result {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    let mut text = [0u8; 128];
    for chunk in bytes.chunks(96) {
        let len = STANDARD.encode_slice(chunk, &mut text).map_err(|_| fmt::Error)?;
        let digits = text.get(..len).ok_or(fmt::Error)?;
        out.write_str(core::str::from_utf8(digits).map_err(|_| fmt::Error)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_standard_and_padded() {
        for (bytes, expected) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (&[0xff, 0xfe, 0xfd][..], "//79"),
        ] {
            let mut out = String::new();
            base64(&mut out, bytes).unwrap();
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn base64_in_pieces_is_base64_of_the_whole() {
        use base64::Engine as _;
        let bytes: Vec<u8> = (0..=255).cycle().take(400).collect();
        for len in [95, 96, 97, 191, 192, 193, 400] {
            let mut out = String::new();
            base64(&mut out, &bytes[..len]).unwrap();
            assert_eq!(out, base64::engine::general_purpose::STANDARD.encode(&bytes[..len]));
            assert_eq!(out.len(), len.div_ceil(3) * 4);
        }
    }

    #[test]
    fn reals_that_json_cannot_hold_are_named() {
        let mut out = String::new();
        real64(&mut out, f64::NAN).unwrap();
        real32(&mut out, f32::NEG_INFINITY).unwrap();
        real64(&mut out, 0.1).unwrap();
        real32(&mut out, 0.1).unwrap();
        assert_eq!(out, "\"NaN\"\"-Infinity\"0.10.1");
    }
}
