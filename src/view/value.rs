//! [`VariantRef`]: one decoded value head, borrowing the buffer.
//!
//! [`parse_head`] reads a value's header and its fixed part, and nothing more: scalars and math
//! values are read whole (they are small), strings have their length checked, containers their
//! count and type information. It is O(1) (for a full object, O(class name)) and allocates
//! nothing. What lies further inside (the elements of a container, the characters of a string,
//! the strings of a NodePath) is read when the caller asks for it.

use super::array::ArrayRef;
use super::container_type::{kind_bits, read_container_type};
use super::dictionary::DictionaryRef;
use super::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, RealValue, Reals, Rect2,
    Transform2D, Transform3D, Vector2, Vector3, Vector4,
};
use super::node_path::NodePathRef;
use super::object::{FullObject, ObjectRef};
use super::packed::{Packed, PackedElement, PackedReals, PackedStrings, read_bytes, read_fixed};
use super::signal::SignalRef;
use super::string::{GdStr, read_string};
use crate::wire::classes;
use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::options::{Options, Version};
use crate::wire::read::{bytes_at, error_at, remaining, u32_at, u64_at, widen_f32};
use crate::wire::types::VariantType;

/// Header bit 16: 64-bit int or float, f64 reals (Godot 4), or object-as-id.
pub(crate) const FLAG_64: u32 = 1 << 16;

/// One Godot value, borrowed from the caller's buffer.
///
/// Small and `Copy`: scalars are held by value, everything else as a view into the buffer that
/// reads on demand. Obtain one with [`parse`](crate::parse), or from a container's iterators.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum VariantRef<'a> {
    /// `null`.
    Nil,
    /// `bool` (any non-zero payload is `true`, as in Godot).
    Bool(bool),
    /// `int`, from its 32-bit or 64-bit form.
    Int(i64),
    /// `float`, from its f32 or f64 form (f32 widened exactly; NaNs quieted as Godot does).
    Float(f64),
    /// `String`.
    String(GdStr<'a>),
    /// `Vector2`.
    Vector2(Reals<'a, Vector2<f64>>),
    /// `Vector2i`.
    Vector2i(Vector2<i32>),
    /// `Rect2`.
    Rect2(Reals<'a, Rect2<f64>>),
    /// `Rect2i`.
    Rect2i(Rect2<i32>),
    /// `Vector3`.
    Vector3(Reals<'a, Vector3<f64>>),
    /// `Vector3i`.
    Vector3i(Vector3<i32>),
    /// `Transform2D`.
    Transform2D(Reals<'a, Transform2D<f64>>),
    /// `Vector4`.
    Vector4(Reals<'a, Vector4<f64>>),
    /// `Vector4i`.
    Vector4i(Vector4<i32>),
    /// `Plane`.
    Plane(Reals<'a, Plane<f64>>),
    /// `Quaternion` (Godot 3: `Quat`).
    Quaternion(Reals<'a, Quaternion<f64>>),
    /// `AABB`.
    Aabb(Reals<'a, Aabb<f64>>),
    /// `Basis`.
    Basis(Reals<'a, Basis<f64>>),
    /// `Transform3D` (Godot 3: `Transform`).
    Transform3D(Reals<'a, Transform3D<f64>>),
    /// `Projection`.
    Projection(Reals<'a, Projection<f64>>),
    /// `Color` (always f32; the bits are kept exactly).
    Color(Color<f32>),
    /// `StringName`.
    StringName(GdStr<'a>),
    /// `NodePath`.
    NodePath(NodePathRef<'a>),
    /// `RID`: Godot 4 carries the id; Godot 3 writes no payload, so it is `None`.
    Rid(Option<u64>),
    /// `Object`: null, an instance id, or a full object.
    Object(ObjectRef<'a>),
    /// `Callable`: Godot writes the header alone (the callable is lost).
    Callable,
    /// `Signal`: its name and the id of its object.
    Signal(SignalRef<'a>),
    /// `Dictionary`.
    Dictionary(DictionaryRef<'a>),
    /// `Array`.
    Array(ArrayRef<'a>),
    /// `PackedByteArray` (Godot 3: `PoolByteArray`).
    PackedByteArray(&'a [u8]),
    /// `PackedInt32Array` (Godot 3: `PoolIntArray`).
    PackedInt32Array(Packed<'a, i32>),
    /// `PackedInt64Array`.
    PackedInt64Array(Packed<'a, i64>),
    /// `PackedFloat32Array` (Godot 3: `PoolRealArray`).
    PackedFloat32Array(Packed<'a, f32>),
    /// `PackedFloat64Array`.
    PackedFloat64Array(Packed<'a, f64>),
    /// `PackedStringArray` (Godot 3: `PoolStringArray`).
    PackedStringArray(PackedStrings<'a>),
    /// `PackedVector2Array` (Godot 3: `PoolVector2Array`).
    PackedVector2Array(PackedReals<'a, Vector2<f32>, Vector2<f64>>),
    /// `PackedVector3Array` (Godot 3: `PoolVector3Array`).
    PackedVector3Array(PackedReals<'a, Vector3<f32>, Vector3<f64>>),
    /// `PackedColorArray` (Godot 3: `PoolColorArray`).
    PackedColorArray(Packed<'a, Color<f32>>),
    /// `PackedVector4Array` (Godot 4.3+).
    PackedVector4Array(PackedReals<'a, Vector4<f32>, Vector4<f64>>),
}

/// Where a value's bytes end, as far as its head tells.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Extent {
    /// The value ends at this position.
    End(usize),
    /// `count` strings follow from `first` (NodePath names, PackedStringArray elements).
    Strings { first: usize, count: u32 },
    /// `items` values follow from `first` (array elements, or dictionary keys and values
    /// interleaved).
    Values { first: usize, items: u32 },
    /// `count` properties (a name string, then a value) follow from `first`.
    Properties { first: usize, count: u32 },
}

/// The buffer and settings a container reads its children with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scope<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) options: Options,
    /// Depth of the container itself; its children are one deeper.
    pub(crate) depth: u16,
}

impl core::fmt::Debug for Scope<'_> {
    /// Short: the buffer's length, not its bytes.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scope")
            .field("buffer_len", &self.buf.len())
            .field("options", &self.options)
            .field("depth", &self.depth)
            .finish()
    }
}

impl<'a> VariantRef<'a> {
    /// The value's type.
    #[inline]
    pub fn variant_type(&self) -> VariantType {
        use VariantRef as V;
        match self {
            V::Nil => VariantType::Nil,
            V::Bool(_) => VariantType::Bool,
            V::Int(_) => VariantType::Int,
            V::Float(_) => VariantType::Float,
            V::String(_) => VariantType::String,
            V::Vector2(_) => VariantType::Vector2,
            V::Vector2i(_) => VariantType::Vector2i,
            V::Rect2(_) => VariantType::Rect2,
            V::Rect2i(_) => VariantType::Rect2i,
            V::Vector3(_) => VariantType::Vector3,
            V::Vector3i(_) => VariantType::Vector3i,
            V::Transform2D(_) => VariantType::Transform2D,
            V::Vector4(_) => VariantType::Vector4,
            V::Vector4i(_) => VariantType::Vector4i,
            V::Plane(_) => VariantType::Plane,
            V::Quaternion(_) => VariantType::Quaternion,
            V::Aabb(_) => VariantType::Aabb,
            V::Basis(_) => VariantType::Basis,
            V::Transform3D(_) => VariantType::Transform3D,
            V::Projection(_) => VariantType::Projection,
            V::Color(_) => VariantType::Color,
            V::StringName(_) => VariantType::StringName,
            V::NodePath(_) => VariantType::NodePath,
            V::Rid(_) => VariantType::Rid,
            V::Object(_) => VariantType::Object,
            V::Callable => VariantType::Callable,
            V::Signal(_) => VariantType::Signal,
            V::Dictionary(_) => VariantType::Dictionary,
            V::Array(_) => VariantType::Array,
            V::PackedByteArray(_) => VariantType::PackedByteArray,
            V::PackedInt32Array(_) => VariantType::PackedInt32Array,
            V::PackedInt64Array(_) => VariantType::PackedInt64Array,
            V::PackedFloat32Array(_) => VariantType::PackedFloat32Array,
            V::PackedFloat64Array(_) => VariantType::PackedFloat64Array,
            V::PackedStringArray(_) => VariantType::PackedStringArray,
            V::PackedVector2Array(_) => VariantType::PackedVector2Array,
            V::PackedVector3Array(_) => VariantType::PackedVector3Array,
            V::PackedColorArray(_) => VariantType::PackedColorArray,
            V::PackedVector4Array(_) => VariantType::PackedVector4Array,
        }
    }

    /// Whether the value is `null` (or a null object).
    #[inline]
    pub fn is_nil(&self) -> bool {
        matches!(self, VariantRef::Nil | VariantRef::Object(ObjectRef::Null))
    }

    /// The `bool`, if this is one.
    #[inline]
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            VariantRef::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The `int`, if this is one.
    #[inline]
    pub fn as_int(&self) -> Option<i64> {
        match *self {
            VariantRef::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The `float`, if this is one.
    #[inline]
    pub fn as_float(&self) -> Option<f64> {
        match *self {
            VariantRef::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The string, if this is a `String` or a `StringName`.
    #[inline]
    pub fn as_gd_str(&self) -> Option<GdStr<'a>> {
        match *self {
            VariantRef::String(s) | VariantRef::StringName(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is a `String` or a `StringName` whose text, as the game reads it, is exactly
    /// `text` ([`GdStr::eq_str`]: a leading BOM skipped, the text cut at its first NUL, a Godot 3
    /// string spelled with overlong forms read as the characters they encode); any other value
    /// is not `text`. The way to decide anything by a string value: `as_str() == Some(text)`
    /// and `get_as::<&str>` see the bytes, not the game's text, and fail on Godot 3 spellings
    /// the game reads.
    ///
    /// ```
    /// use gdvariant::Options;
    ///
    /// // Godot 3: "type", its `t` spelled with the overlong form E0 81 B4.
    /// let bytes = [4, 0, 0, 0, 6, 0, 0, 0, 0xE0, 0x81, 0xB4, b'y', b'p', b'e', 0, 0];
    /// let value = gdvariant::parse(&bytes, Options::godot3())?;
    /// assert!(value.is_text("type"));
    /// assert_eq!(value.as_str(), None); // no &str of the buffer holds "type"
    /// # Ok::<(), gdvariant::Error>(())
    /// ```
    ///
    /// Cost: O(length of `text`) time, O(1) stack, no allocation.
    #[inline]
    pub fn is_text(&self, text: &str) -> bool {
        self.as_gd_str().is_some_and(|string| string.eq_str(text))
    }

    /// The array, if this is one.
    #[inline]
    pub fn as_array(&self) -> Option<ArrayRef<'a>> {
        match *self {
            VariantRef::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The dictionary, if this is one.
    #[inline]
    pub fn as_dictionary(&self) -> Option<DictionaryRef<'a>> {
        match *self {
            VariantRef::Dictionary(d) => Some(d),
            _ => None,
        }
    }
}

/// Reads the head of the value whose header is at `pos`, at nesting `depth`.
#[inline(always)]
pub(crate) fn parse_head(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<(VariantRef<'_>, Extent)> {
    use VariantRef as V;
    if depth > options.max_depth() {
        return Err(error_at(buf, pos, ErrorKind::DepthLimit));
    }
    let header = u32_at(buf, pos)?;
    let version = options.version();
    let id = header & 0xFF;
    let ty = VariantType::from_id(version, id)
        .ok_or_else(|| error_at(buf, pos, ErrorKind::UnknownType { id: id as u8 }))?;
    let body = pos.saturating_add(4);
    let flag64 = header & FLAG_64 != 0;
    // Godot 3 ignores bit 16 on math types; Godot 4 reads f64 reals when it is set.
    let precision = match (version, flag64) {
        (Version::Godot4, true) => Precision::Double,
        _ => Precision::Single,
    };
    let fixed = |size: usize| -> Result<(&[u8], Extent)> {
        let raw = bytes_at(buf, body, size)?;
        Ok((raw, Extent::End(body.saturating_add(size))))
    };
    Ok(match ty {
        VariantType::Nil => (V::Nil, Extent::End(body)),
        VariantType::Bool => {
            (V::Bool(u32_at(buf, body)? != 0), Extent::End(body.saturating_add(4)))
        }
        VariantType::Int if flag64 => {
            (V::Int(u64_at(buf, body)? as i64), Extent::End(body.saturating_add(8)))
        }
        VariantType::Int => {
            (V::Int(i64::from(u32_at(buf, body)? as i32)), Extent::End(body.saturating_add(4)))
        }
        VariantType::Float if flag64 => {
            (V::Float(f64::from_bits(u64_at(buf, body)?)), Extent::End(body.saturating_add(8)))
        }
        VariantType::Float => {
            (V::Float(widen_f32(u32_at(buf, body)?)), Extent::End(body.saturating_add(4)))
        }
        VariantType::String => {
            let (s, end) = read_string(buf, body, version)?;
            (V::String(s), Extent::End(end))
        }
        VariantType::StringName => {
            let (s, end) = read_string(buf, body, version)?;
            (V::StringName(s), Extent::End(end))
        }
        VariantType::Vector2 => reals(buf, body, precision, V::Vector2)?,
        VariantType::Rect2 => reals(buf, body, precision, V::Rect2)?,
        VariantType::Vector3 => reals(buf, body, precision, V::Vector3)?,
        VariantType::Transform2D => reals(buf, body, precision, V::Transform2D)?,
        VariantType::Vector4 => reals(buf, body, precision, V::Vector4)?,
        VariantType::Plane => reals(buf, body, precision, V::Plane)?,
        VariantType::Quaternion => reals(buf, body, precision, V::Quaternion)?,
        VariantType::Aabb => reals(buf, body, precision, V::Aabb)?,
        VariantType::Basis => reals(buf, body, precision, V::Basis)?,
        VariantType::Transform3D => reals(buf, body, precision, V::Transform3D)?,
        VariantType::Projection => reals(buf, body, precision, V::Projection)?,
        VariantType::Vector2i => {
            let (raw, end) = fixed(8)?;
            (V::Vector2i(first_of::<Vector2<i32>>(raw)), end)
        }
        VariantType::Rect2i => {
            let (raw, end) = fixed(16)?;
            (V::Rect2i(first_of::<Rect2<i32>>(raw)), end)
        }
        VariantType::Vector3i => {
            let (raw, end) = fixed(12)?;
            (V::Vector3i(first_of::<Vector3<i32>>(raw)), end)
        }
        VariantType::Vector4i => {
            let (raw, end) = fixed(16)?;
            (V::Vector4i(first_of::<Vector4<i32>>(raw)), end)
        }
        VariantType::Color => {
            let (raw, end) = fixed(16)?;
            (V::Color(first_of::<Color<f32>>(raw)), end)
        }
        VariantType::NodePath => {
            let path = NodePathRef::read(buf, body, version)?;
            let (first, count) = path.strings();
            (V::NodePath(path), Extent::Strings { first, count })
        }
        VariantType::Rid => match version {
            Version::Godot3 => (V::Rid(None), Extent::End(body)),
            Version::Godot4 => {
                (V::Rid(Some(u64_at(buf, body)?)), Extent::End(body.saturating_add(8)))
            }
        },
        VariantType::Object => read_object(buf, pos, header, options, depth)?,
        VariantType::Callable => (V::Callable, Extent::End(body)),
        VariantType::Signal => {
            let (name, after) = read_string(buf, body, version)?;
            let object_id = u64_at(buf, after)?;
            (V::Signal(SignalRef::new(name, object_id)), Extent::End(after.saturating_add(8)))
        }
        VariantType::Array => {
            let kind = kind_bits(version, header, 16);
            let after =
                if kind == 0 { body } else { read_container_type(buf, body, kind, options)?.1 };
            let count = u32_at(buf, after)? & 0x7FFF_FFFF;
            let first = after.saturating_add(4);
            check_count(buf, after, count, 4, first)?;
            let scope = Scope { buf, options, depth };
            (
                V::Array(ArrayRef::new(scope, pos, count, first)),
                Extent::Values { first, items: count },
            )
        }
        VariantType::Dictionary => {
            let (key_kind, value_kind) =
                (kind_bits(version, header, 16), kind_bits(version, header, 18));
            let after = if key_kind | value_kind == 0 {
                body
            } else {
                let (_, after_keys) = read_container_type(buf, body, key_kind, options)?;
                read_container_type(buf, after_keys, value_kind, options)?.1
            };
            let count = u32_at(buf, after)? & 0x7FFF_FFFF;
            let first = after.saturating_add(4);
            check_count(buf, after, count, 8, first)?;
            let scope = Scope { buf, options, depth };
            let items = count.saturating_mul(2);
            (
                V::Dictionary(DictionaryRef::new(scope, pos, count, first)),
                Extent::Values { first, items },
            )
        }
        VariantType::PackedByteArray => {
            let (raw, end) = read_bytes(buf, body)?;
            (V::PackedByteArray(raw), Extent::End(end))
        }
        VariantType::PackedInt32Array => packed(buf, body, V::PackedInt32Array)?,
        VariantType::PackedInt64Array => packed(buf, body, V::PackedInt64Array)?,
        VariantType::PackedFloat32Array => packed(buf, body, V::PackedFloat32Array)?,
        VariantType::PackedFloat64Array => packed(buf, body, V::PackedFloat64Array)?,
        VariantType::PackedColorArray => packed(buf, body, V::PackedColorArray)?,
        VariantType::PackedStringArray => {
            let strings = PackedStrings::read(buf, body, version)?;
            let count = u32::try_from(strings.len()).unwrap_or(0);
            (
                V::PackedStringArray(strings),
                Extent::Strings { first: body.saturating_add(4), count },
            )
        }
        VariantType::PackedVector2Array => {
            packed_reals(buf, body, precision, V::PackedVector2Array)?
        }
        VariantType::PackedVector3Array => {
            packed_reals(buf, body, precision, V::PackedVector3Array)?
        }
        VariantType::PackedVector4Array => {
            packed_reals(buf, body, precision, V::PackedVector4Array)?
        }
    })
}

/// Fails when `count` elements of at least `min_size` bytes each cannot fit after `first`.
/// Every element needs at least its 4-byte header, so a larger count can never decode.
fn check_count(
    buf: &[u8],
    count_pos: usize,
    count: u32,
    min_size: u64,
    first: usize,
) -> Result<()> {
    if u64::from(count).saturating_mul(min_size) > remaining(buf, first) as u64 {
        return Err(error_at(buf, count_pos, ErrorKind::BadCount { count }));
    }
    Ok(())
}

/// Decodes the one element that `raw` holds (its length was checked by the caller).
fn first_of<T: PackedElement + Default>(raw: &[u8]) -> T {
    Packed::<T>::new(raw).get(0).unwrap_or_default()
}

fn reals<'a, V: RealValue>(
    buf: &'a [u8],
    body: usize,
    precision: Precision,
    wrap: fn(Reals<'a, V>) -> VariantRef<'a>,
) -> Result<(VariantRef<'a>, Extent)> {
    let size = V::COMPONENTS.saturating_mul(precision.size());
    let raw = bytes_at(buf, body, size)?;
    Ok((wrap(Reals::new(raw, precision)), Extent::End(body.saturating_add(size))))
}

fn packed<'a, T: PackedElement>(
    buf: &'a [u8],
    body: usize,
    wrap: fn(Packed<'a, T>) -> VariantRef<'a>,
) -> Result<(VariantRef<'a>, Extent)> {
    let (raw, end) = read_fixed(buf, body, size_of::<T>())?;
    Ok((wrap(Packed::new(raw)), Extent::End(end)))
}

fn packed_reals<'a, S: PackedElement, D: PackedElement>(
    buf: &'a [u8],
    body: usize,
    precision: Precision,
    wrap: fn(PackedReals<'a, S, D>) -> VariantRef<'a>,
) -> Result<(VariantRef<'a>, Extent)> {
    let (value, end) = match precision {
        Precision::Single => {
            let (raw, end) = read_fixed(buf, body, size_of::<S>())?;
            (PackedReals::Single(Packed::new(raw)), end)
        }
        Precision::Double => {
            let (raw, end) = read_fixed(buf, body, size_of::<D>())?;
            (PackedReals::Double(Packed::new(raw)), end)
        }
    };
    Ok((wrap(value), Extent::End(end)))
}

/// Reads an object: an instance id (header bit 16), or a full object (class name, property
/// count, properties), which needs `allow_objects` and a class Godot can instantiate.
fn read_object(
    buf: &[u8],
    pos: usize,
    header: u32,
    options: Options,
    depth: u16,
) -> Result<(VariantRef<'_>, Extent)> {
    let body = pos.saturating_add(4);
    if header & FLAG_64 != 0 {
        let id = u64_at(buf, body)?;
        let object = if id == 0 { ObjectRef::Null } else { ObjectRef::Id(id) };
        return Ok((VariantRef::Object(object), Extent::End(body.saturating_add(8))));
    }
    if !options.allow_objects() {
        return Err(error_at(buf, pos, ErrorKind::ObjectsNotAllowed));
    }
    let version = options.version();
    let (class, after) = read_string(buf, body, version)?;
    class.check()?;
    if class.text_bytes().is_empty() {
        return Ok((VariantRef::Object(ObjectRef::Null), Extent::End(after)));
    }
    // A Godot 3 class name may spell its characters with overlong forms (the game instantiates
    // the class they spell).
    let instantiable = match core::str::from_utf8(class.text_bytes()) {
        Ok(name) => classes::is_instantiable(version, name.as_bytes()),
        Err(_) => classes::is_instantiable_code_points(version, class.code_points()?),
    };
    if !instantiable {
        return Err(Error::new(body, ErrorKind::UnknownClass));
    }
    // Godot reads the count as i32; a negative count means no properties.
    let declared = u32_at(buf, after)?;
    let count = if declared > i32::MAX as u32 { 0 } else { declared };
    let first = after.saturating_add(4);
    // Each property is at least a 4-byte name length and a 4-byte header.
    check_count(buf, after, count, 8, first)?;
    let scope = Scope { buf, options, depth };
    let object = FullObject::new(scope, body, count);
    Ok((VariantRef::Object(ObjectRef::Full(object)), Extent::Properties { first, count }))
}
