//! [`Writer`]: the streaming builder every encoding goes through.

use zerocopy::IntoBytes;

use super::{EncodeError, EncodeOptions, Output};
use crate::view::element_type::ElementType;
use crate::view::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2,
    Vector3, Vector4,
};
use crate::view::value::FLAG_64;
use crate::wire::exact_float::{narrow_exact, widen_exact};
use crate::wire::work;
use crate::{Element, MAX_DEPTH, Precision, VariantType, Version};

/// The class name Godot declares for class- and script-typed containers without full objects.
pub(crate) const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// Largest string, packed array (in bytes) or element count Godot's signed 32-bit sizes allow.
const MAX_SIZE: usize = i32::MAX as usize;

/// A real number type a math value can be given in: `f32` or `f64`. Written in the precision of
/// [`EncodeOptions::precision`]: an `f32` widens exactly, an `f64` narrows to the nearest `f32`
/// (a NaN stays a NaN with its sign and the top of its payload).
pub trait Real: Copy + sealed::Sealed {
    /// The value as an `f32`.
    #[doc(hidden)]
    fn single(self) -> f32;
    /// The value as an `f64`.
    #[doc(hidden)]
    fn double(self) -> f64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl Real for f32 {
    fn single(self) -> f32 {
        self
    }
    fn double(self) -> f64 {
        widen_exact(self)
    }
}

impl Real for f64 {
    fn single(self) -> f32 {
        narrow_exact(self)
    }
    fn double(self) -> f64 {
        self
    }
}

/// A container still being written.
#[derive(Clone, Copy, Debug)]
struct Open {
    /// Values still expected (a dictionary counts keys and values, an object property values).
    left: u32,
    /// The container is a full object: each value follows a property name.
    properties: bool,
    /// A property name is due.
    name_due: bool,
    /// Always zero: with it an unused slot is all zero bytes (no padding), so setting up a
    /// writer's bookkeeping is one `memset`.
    _zero: u16,
}

impl Open {
    /// An unused slot.
    const UNUSED: Open = Open { left: 0, properties: false, name_due: false, _zero: 0 };
}

/// Containers a [`Writer`] can hold open by default: one per depth from 0 to [`MAX_DEPTH`], so
/// it writes everything Godot reads.
pub const DEFAULT_NESTING: usize = MAX_DEPTH as usize + 1;

/// Writes one value in Godot's format into an [`Output`], piece by piece.
///
/// Scalars, strings, math values and packed arrays are written by one call each. A container is
/// opened with its count ([`begin_array`](Writer::begin_array),
/// [`begin_dictionary`](Writer::begin_dictionary) (then key, value, key, value, ...),
/// [`begin_object`](Writer::begin_object) (then [`property_name`](Writer::property_name), value,
/// ...)) and closes by itself when its last value is written. [`finish`](Writer::finish)
/// checks that the value is complete and returns the output.
///
/// ```
/// use gdvariant::{EncodeOptions, Options, Writer};
/// use gdvariant::math::Vector2;
///
/// // {"type": "move", "pos": Vector2(1.5, -2), "seq": 7}, as Godot 4 writes it.
/// let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
/// writer.begin_dictionary(3)?;
/// writer.string("type")?;
/// writer.string("move")?;
/// writer.string("pos")?;
/// writer.vector2(Vector2 { x: 1.5f32, y: -2.0 })?;
/// writer.string("seq")?;
/// writer.int(7)?;
/// let bytes = writer.finish()?;
///
/// let value = gdvariant::parse(&bytes, Options::godot4())?;
/// let seq = value.as_dictionary().unwrap().get("seq")?.and_then(|v| v.as_int());
/// assert_eq!(seq, Some(7));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Every method checks the value against the [`EncodeOptions`] (the type exists in the version,
/// the depth limit, full objects) and the open containers (no more values than declared). After
/// an error the output holds a partial value and the writer should be dropped.
///
/// The writer never allocates: it keeps 8 bytes of bookkeeping per container it can hold open,
/// `NESTING` of them, by default [`DEFAULT_NESTING`] (8 KiB, every depth Godot accepts). Code
/// that writes many small values (a relay answering packets) can make a lighter writer that
/// nests at most `N` containers with [`Writer::with_nesting`]; deeper values are
/// [`EncodeError::DepthLimit`].
///
/// Costs: each call is O(1) plus O(the bytes it writes) (a packed array of vectors or colors
/// converts each element); a container closes in O(1). No recursion, no allocation of its own
/// (a `Vec<u8>` output grows). The work counter (feature `work-counter`) counts a unit per
/// value and one per 64 bytes of strings, packed arrays and spliced elements
/// (`tests/encoder_bounds.rs`).
pub struct Writer<O, const NESTING: usize = DEFAULT_NESTING> {
    out: O,
    options: EncodeOptions,
    open: [Open; NESTING],
    /// Containers open: the depth of the next value.
    depth: usize,
    /// A top-level value has been started.
    started: bool,
}

impl<O: core::fmt::Debug, const NESTING: usize> core::fmt::Debug for Writer<O, NESTING> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("out", &self.out)
            .field("options", &self.options)
            .field("depth", &self.depth)
            .finish()
    }
}

impl<O: Output> Writer<O> {
    /// A writer of one value into `out`, for values nested as deep as Godot accepts.
    pub fn new(out: O, options: EncodeOptions) -> Self {
        Writer::with_nesting(out, options)
    }
}

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// A writer of one value into `out` that holds at most `NESTING` containers open at once
    /// (`Writer::<_, 8>::with_nesting(out, options)`): 8 bytes each, set up on every call.
    pub fn with_nesting(out: O, options: EncodeOptions) -> Self {
        Writer { out, options, open: [Open::UNUSED; NESTING], depth: 0, started: false }
    }

    /// The options the writer follows.
    pub fn options(&self) -> EncodeOptions {
        self.options
    }

    /// The output so far.
    pub fn output(&self) -> &O {
        &self.out
    }

    /// Checks that the value is complete and returns the output.
    ///
    /// # Errors
    /// [`EncodeError::Unfinished`] when no value was written or a container still expects values.
    pub fn finish(self) -> Result<O, EncodeError> {
        if !self.started {
            return Err(EncodeError::Unfinished { missing: 1 });
        }
        if let Some(open) = self.top() {
            return Err(EncodeError::Unfinished { missing: open.left });
        }
        Ok(self.out)
    }

    /// `null`.
    ///
    /// # Errors
    /// See [`Writer`]: too many values, depth, a full output.
    pub fn nil(&mut self) -> Result<(), EncodeError> {
        self.leaf(VariantType::Nil, 0, &[])
    }

    /// A `bool`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn bool(&mut self, value: bool) -> Result<(), EncodeError> {
        self.leaf_word(VariantType::Bool, u32::from(value))
    }

    /// An `int`: 32 bits when it fits, else 64 bits with header bit 16.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn int(&mut self, value: i64) -> Result<(), EncodeError> {
        match i32::try_from(value) {
            Ok(narrow) => {
                self.leaf_word(VariantType::Int, u32::from_ne_bytes(narrow.to_ne_bytes()))
            }
            Err(_) => self.leaf(VariantType::Int, FLAG_64, &value.to_le_bytes()),
        }
    }

    /// A `float`: `f32` when that is exact (`0.5`, `-0.0`, infinities), else `f64` with header
    /// bit 16 (`0.1`, every NaN).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn float(&mut self, value: f64) -> Result<(), EncodeError> {
        let single = value as f32;
        if f64::from(single) == value {
            self.leaf_word(VariantType::Float, single.to_bits())
        } else {
            self.leaf(VariantType::Float, FLAG_64, &value.to_bits().to_le_bytes())
        }
    }

    /// A `String`.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` bytes; see [`Writer`].
    pub fn string(&mut self, text: &str) -> Result<(), EncodeError> {
        self.text(VariantType::String, text.as_bytes())
    }

    /// A `StringName` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::string`].
    pub fn string_name(&mut self, text: &str) -> Result<(), EncodeError> {
        self.text(VariantType::StringName, text.as_bytes())
    }

    /// A `Vector2`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn vector2<R: Real>(&mut self, value: Vector2<R>) -> Result<(), EncodeError> {
        self.reals::<R, 2>(VariantType::Vector2, |f| value.for_each_component(f))
    }

    /// A `Rect2`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn rect2<R: Real>(&mut self, value: Rect2<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Rect2, |f| value.for_each_component(f))
    }

    /// A `Vector3`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn vector3<R: Real>(&mut self, value: Vector3<R>) -> Result<(), EncodeError> {
        self.reals::<R, 3>(VariantType::Vector3, |f| value.for_each_component(f))
    }

    /// A `Transform2D`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn transform2d<R: Real>(&mut self, value: Transform2D<R>) -> Result<(), EncodeError> {
        self.reals::<R, 6>(VariantType::Transform2D, |f| value.for_each_component(f))
    }

    /// A `Vector4` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector4<R: Real>(&mut self, value: Vector4<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Vector4, |f| value.for_each_component(f))
    }

    /// A `Plane`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn plane<R: Real>(&mut self, value: Plane<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Plane, |f| value.for_each_component(f))
    }

    /// A `Quaternion` (Godot 3: `Quat`).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn quaternion<R: Real>(&mut self, value: Quaternion<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Quaternion, |f| value.for_each_component(f))
    }

    /// An `AABB`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn aabb<R: Real>(&mut self, value: Aabb<R>) -> Result<(), EncodeError> {
        self.reals::<R, 6>(VariantType::Aabb, |f| value.for_each_component(f))
    }

    /// A `Basis` (rows, as Godot stores it).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn basis<R: Real>(&mut self, value: Basis<R>) -> Result<(), EncodeError> {
        self.reals::<R, 9>(VariantType::Basis, |f| value.for_each_component(f))
    }

    /// A `Transform3D` (Godot 3: `Transform`).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn transform3d<R: Real>(&mut self, value: Transform3D<R>) -> Result<(), EncodeError> {
        self.reals::<R, 12>(VariantType::Transform3D, |f| value.for_each_component(f))
    }

    /// A `Projection` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn projection<R: Real>(&mut self, value: Projection<R>) -> Result<(), EncodeError> {
        self.reals::<R, 16>(VariantType::Projection, |f| value.for_each_component(f))
    }

    /// A `Vector2i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector2i(&mut self, value: Vector2<i32>) -> Result<(), EncodeError> {
        self.integers::<2>(VariantType::Vector2i, |f| value.for_each_component(f))
    }

    /// A `Rect2i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn rect2i(&mut self, value: Rect2<i32>) -> Result<(), EncodeError> {
        self.integers::<4>(VariantType::Rect2i, |f| value.for_each_component(f))
    }

    /// A `Vector3i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector3i(&mut self, value: Vector3<i32>) -> Result<(), EncodeError> {
        self.integers::<3>(VariantType::Vector3i, |f| value.for_each_component(f))
    }

    /// A `Vector4i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector4i(&mut self, value: Vector4<i32>) -> Result<(), EncodeError> {
        self.integers::<4>(VariantType::Vector4i, |f| value.for_each_component(f))
    }

    /// A `Color` (always `f32`).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn color(&mut self, value: Color<f32>) -> Result<(), EncodeError> {
        let words: [u32; 4] = components(0, |f| value.for_each_component(f), |c: f32| c.to_bits());
        self.leaf(VariantType::Color, 0, words_le(&words).as_bytes())
    }

    /// A `NodePath`: whether it is absolute, its names, its subnames. The padding of its strings
    /// is written as zeros (Godot leaves it uninitialised).
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] for more than `i32::MAX` names; see [`Writer`].
    pub fn node_path<'s, N, S>(
        &mut self,
        absolute: bool,
        names: N,
        subnames: S,
    ) -> Result<(), EncodeError>
    where
        N: IntoIterator<Item = &'s str>,
        N::IntoIter: ExactSizeIterator,
        S: IntoIterator<Item = &'s str>,
        S::IntoIter: ExactSizeIterator,
    {
        let names = names.into_iter().map(str::as_bytes);
        self.node_path_bytes(absolute, names, subnames.into_iter().map(str::as_bytes))
    }

    /// [`Writer::node_path`] from the bytes of each string (a [`GdString`](crate::GdString)'s).
    pub(crate) fn node_path_bytes<'s, N, S>(
        &mut self,
        absolute: bool,
        names: N,
        subnames: S,
    ) -> Result<(), EncodeError>
    where
        N: ExactSizeIterator<Item = &'s [u8]>,
        S: ExactSizeIterator<Item = &'s [u8]>,
    {
        let name_count = count_u32(names.len(), MAX_SIZE)?;
        let subname_count = count_u32(subnames.len(), MAX_SIZE)?;
        self.begin(VariantType::NodePath, 0)?;
        self.put_u32(name_count | 0x8000_0000)?;
        self.put_u32(subname_count)?;
        self.put_u32(u32::from(absolute))?;
        for name in names.chain(subnames) {
            work::add(1);
            self.put_string(name)?;
        }
        self.end();
        Ok(())
    }

    /// A `RID`. Godot 3 writes no id (the header alone).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn rid(&mut self, id: u64) -> Result<(), EncodeError> {
        match self.options.version() {
            Version::Godot3 => self.leaf(VariantType::Rid, 0, &[]),
            Version::Godot4 => self.leaf(VariantType::Rid, 0, &id.to_le_bytes()),
        }
    }

    /// A null object, which Godot writes as `Nil`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn null_object(&mut self) -> Result<(), EncodeError> {
        self.nil()
    }

    /// An object by instance id (Godot's `EncodedObjectAsID`), header bit 16 set.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn object_id(&mut self, id: u64) -> Result<(), EncodeError> {
        self.leaf(VariantType::Object, FLAG_64, &id.to_le_bytes())
    }

    /// Opens a full object of class `class` with `property_count` properties; then give
    /// [`property_name`](Writer::property_name) and a value for each.
    ///
    /// # Errors
    /// [`EncodeError::FullObjectsNeeded`] without full objects; see [`Writer`].
    pub fn begin_object(&mut self, class: &str, property_count: u32) -> Result<(), EncodeError> {
        if !self.options.full_objects() {
            return Err(EncodeError::FullObjectsNeeded);
        }
        let count = count_u32(property_count as usize, MAX_SIZE)?;
        self.begin(VariantType::Object, 0)?;
        self.put_string(class.as_bytes())?;
        self.put_u32(count)?;
        self.open_container(count, true)
    }

    /// The name of the next property of the innermost open object.
    ///
    /// # Errors
    /// [`EncodeError::PropertyOrder`] when no property name is due; a full output.
    pub fn property_name(&mut self, name: &str) -> Result<(), EncodeError> {
        work::add(1);
        match self.top_mut() {
            Some(open) if open.properties && open.name_due => open.name_due = false,
            _ => return Err(EncodeError::PropertyOrder),
        }
        self.put_string(name.as_bytes())
    }

    /// A `Callable` (Godot 4): the header alone, as Godot writes every callable.
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn callable(&mut self) -> Result<(), EncodeError> {
        self.leaf(VariantType::Callable, 0, &[])
    }

    /// A `Signal` (Godot 4): its name and its object's instance id.
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn signal(&mut self, name: &str, object_id: u64) -> Result<(), EncodeError> {
        self.begin(VariantType::Signal, 0)?;
        self.put_string(name.as_bytes())?;
        self.out.write(&object_id.to_le_bytes())?;
        self.end();
        Ok(())
    }

    /// Opens an untyped `Array` of `count` elements.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` elements; see [`Writer`].
    pub fn begin_array(&mut self, count: usize) -> Result<(), EncodeError> {
        self.begin_typed_array(ElementType::Untyped, count)
    }

    /// Opens a typed `Array` (Godot 4.3+) of `count` elements.
    ///
    /// # Errors
    /// [`EncodeError::TypedContainerNotInVersion`] for a typed array in Godot 3; see
    /// [`Writer::begin_array`].
    pub fn begin_typed_array(
        &mut self,
        element_type: ElementType<&str>,
        count: usize,
    ) -> Result<(), EncodeError> {
        let count = count_u32(count, MAX_SIZE)?;
        let (kind, info) = self.type_info(element_type)?;
        let id = self.begin_checked(VariantType::Array)?;
        self.put_header_and_count(u32::from(id) | kind << 16, [info, TypeInfo::None], count)?;
        self.open_container(count, false)
    }

    /// Opens an untyped `Dictionary` of `count` entries; then give key, value, key, value, ...
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` entries; see [`Writer`].
    pub fn begin_dictionary(&mut self, count: usize) -> Result<(), EncodeError> {
        self.begin_typed_dictionary(ElementType::Untyped, ElementType::Untyped, count)
    }

    /// Opens a typed `Dictionary` (Godot 4.4+) of `count` entries.
    ///
    /// # Errors
    /// [`EncodeError::TypedContainerNotInVersion`] for a typed dictionary in Godot 3; see
    /// [`Writer::begin_dictionary`].
    pub fn begin_typed_dictionary(
        &mut self,
        key_type: ElementType<&str>,
        value_type: ElementType<&str>,
        count: usize,
    ) -> Result<(), EncodeError> {
        let count = count_u32(count, MAX_SIZE)?;
        let (key_kind, key_info) = self.type_info(key_type)?;
        let (value_kind, value_info) = self.type_info(value_type)?;
        let id = self.begin_checked(VariantType::Dictionary)?;
        let header = u32::from(id) | key_kind << 16 | value_kind << 18;
        self.put_header_and_count(header, [key_info, value_info], count)?;
        self.open_container(count.saturating_mul(2), false)
    }

    /// A `PackedByteArray`, zero-padded to 4 bytes.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` bytes; see [`Writer`].
    pub fn packed_bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let count = count_u32(bytes.len(), MAX_SIZE)?;
        self.begin(VariantType::PackedByteArray, 0)?;
        self.put_u32(count)?;
        self.put_bytes(bytes)?;
        self.put_padding(bytes.len())?;
        self.end();
        Ok(())
    }

    /// A `PackedInt32Array` (Godot 3: `PoolIntArray`).
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` bytes of elements; see [`Writer`].
    pub fn packed_int32(&mut self, values: &[i32]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedInt32Array, values)
    }

    /// A `PackedInt64Array` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::packed_int32`].
    pub fn packed_int64(&mut self, values: &[i64]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedInt64Array, values)
    }

    /// A `PackedFloat32Array` (Godot 3: `PoolRealArray`).
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_float32(&mut self, values: &[f32]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedFloat32Array, values)
    }

    /// A `PackedFloat64Array` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::packed_int32`].
    pub fn packed_float64(&mut self, values: &[f64]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedFloat64Array, values)
    }

    /// A `PackedStringArray` (Godot 3: `PoolStringArray`): each length counts a trailing NUL,
    /// which is written.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` strings or a string of `i32::MAX` bytes; see
    /// [`Writer`].
    pub fn packed_strings<'s, I>(&mut self, strings: I) -> Result<(), EncodeError>
    where
        I: IntoIterator<Item = &'s str>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_strings_bytes(strings.into_iter().map(str::as_bytes))
    }

    /// [`Writer::packed_strings`] from the bytes of each string (a
    /// [`GdString`](crate::GdString)'s).
    pub(crate) fn packed_strings_bytes<'s, I>(&mut self, strings: I) -> Result<(), EncodeError>
    where
        I: ExactSizeIterator<Item = &'s [u8]>,
    {
        let count = count_u32(strings.len(), MAX_SIZE)?;
        self.begin(VariantType::PackedStringArray, 0)?;
        self.put_u32(count)?;
        for text in strings {
            let with_nul = text.len().saturating_add(1);
            work::add(1);
            self.put_u32(count_u32(with_nul, MAX_SIZE)?)?;
            self.put_bytes(text)?;
            self.out.write(&[0])?;
            self.put_padding(with_nul)?;
        }
        self.end();
        Ok(())
    }

    /// A `PackedVector2Array` (Godot 3: `PoolVector2Array`).
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_vector2<R: Real>(&mut self, values: &[Vector2<R>]) -> Result<(), EncodeError> {
        self.packed_reals(VariantType::PackedVector2Array, values, 2, |v, f| {
            v.for_each_component(f)
        })
    }

    /// A `PackedVector3Array` (Godot 3: `PoolVector3Array`).
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_vector3<R: Real>(&mut self, values: &[Vector3<R>]) -> Result<(), EncodeError> {
        self.packed_reals(VariantType::PackedVector3Array, values, 3, |v, f| {
            v.for_each_component(f)
        })
    }

    /// A `PackedVector4Array` (Godot 4.3+).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::packed_int32`].
    pub fn packed_vector4<R: Real>(&mut self, values: &[Vector4<R>]) -> Result<(), EncodeError> {
        self.packed_reals(VariantType::PackedVector4Array, values, 4, |v, f| {
            v.for_each_component(f)
        })
    }

    /// A `PackedColorArray` (Godot 3: `PoolColorArray`), always `f32`.
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_colors(&mut self, values: &[Color<f32>]) -> Result<(), EncodeError> {
        let size = values.len().checked_mul(16).filter(|&s| s <= MAX_SIZE);
        let count = match size {
            Some(_) => count_u32(values.len(), MAX_SIZE)?,
            None => return Err(EncodeError::TooLarge { len: values.len() }),
        };
        self.begin(VariantType::PackedColorArray, 0)?;
        self.put_u32(count)?;
        for group in values.chunks(Chunk::per_chunk(16)) {
            work::add(group.len());
            let mut chunk = Chunk::new();
            for color in group {
                color.for_each_component(|c| chunk.put(&c.to_le_bytes()));
            }
            self.out.write(chunk.bytes())?;
        }
        self.end();
        Ok(())
    }

    /// Copies an element read from another buffer, byte for byte (a relay forwarding a subtree
    /// without decoding it). The element counts as one value. Its bytes are what the sender wrote
    /// (NodePath padding included); a final `PackedByteArray` that lacked its padding gets it.
    /// What lies inside it is not re-checked against this writer's options (the options it was
    /// read with decided what it may hold): neither its nesting against the depth limit nor
    /// full objects, which an element read with `allow_objects` may hold even when this writer
    /// writes none.
    ///
    /// # Errors
    /// [`EncodeError::VersionMismatch`] when the element was read as the other version; see
    /// [`Writer`].
    pub fn splice(&mut self, element: &Element<'_>) -> Result<(), EncodeError> {
        if element.options().version() != self.options.version() {
            return Err(EncodeError::VersionMismatch);
        }
        self.begin_checked(element.variant_type())?;
        let raw = element.raw_bytes();
        self.put_bytes(raw)?;
        self.put_padding(raw.len())?;
        self.end();
        Ok(())
    }

    // --- bookkeeping ---

    fn top(&self) -> Option<&Open> {
        self.depth.checked_sub(1).and_then(|top| self.open.get(top))
    }

    fn top_mut(&mut self) -> Option<&mut Open> {
        self.depth.checked_sub(1).and_then(|top| self.open.get_mut(top))
    }

    /// Starts a value of type `ty`: checks it may come here, then writes its header with
    /// `flags`.
    fn begin(&mut self, ty: VariantType, flags: u32) -> Result<(), EncodeError> {
        let id = self.begin_checked(ty)?;
        self.put_u32(u32::from(id) | flags)
    }

    /// Checks that a value of type `ty` may come next and counts it; returns its wire id.
    fn begin_checked(&mut self, ty: VariantType) -> Result<u8, EncodeError> {
        // One unit per value: its checks and its fixed-size header and payload.
        work::add(1);
        let version = self.options.version();
        let id = ty.id(version).ok_or(EncodeError::NotInVersion { ty, version })?;
        if self.depth > usize::from(self.options.max_depth()) {
            return Err(EncodeError::DepthLimit);
        }
        let started = self.started;
        match self.top_mut() {
            None if started => return Err(EncodeError::TooManyValues),
            None => {}
            Some(open) if open.properties && open.name_due => {
                return Err(EncodeError::PropertyOrder);
            }
            Some(open) => {
                open.left = open.left.checked_sub(1).ok_or(EncodeError::TooManyValues)?;
            }
        }
        self.started = true;
        Ok(id)
    }

    /// Ends a value: closes every container it completes.
    fn end(&mut self) {
        while let Some(open) = self.top_mut() {
            if open.left > 0 {
                open.name_due = open.properties;
                return;
            }
            // Each container is closed once.
            work::add(1);
            self.depth = self.depth.saturating_sub(1);
        }
    }

    /// Opens a container that expects `left` values (or ends it at once when empty).
    fn open_container(&mut self, left: u32, properties: bool) -> Result<(), EncodeError> {
        if left == 0 {
            self.end();
            return Ok(());
        }
        let slot = self.open.get_mut(self.depth).ok_or(EncodeError::DepthLimit)?;
        *slot = Open { left, properties, name_due: properties, _zero: 0 };
        self.depth = self.depth.saturating_add(1);
        Ok(())
    }

    // --- pieces ---

    /// A value made of a header and a fixed payload (its length is a constant at every call, so
    /// each write is a fixed-size copy once inlined).
    #[inline]
    fn leaf(&mut self, ty: VariantType, flags: u32, payload: &[u8]) -> Result<(), EncodeError> {
        self.begin(ty, flags)?;
        self.out.write(payload)?;
        self.end();
        Ok(())
    }

    /// A value made of a header and one 32-bit word, written at once.
    #[inline]
    fn leaf_word(&mut self, ty: VariantType, word: u32) -> Result<(), EncodeError> {
        let id = self.begin_checked(ty)?;
        self.out.write(&pair(u32::from(id), word))?;
        self.end();
        Ok(())
    }

    /// A `String` or `StringName`: header and length written at once, the bytes, the padding.
    #[inline]
    pub(crate) fn text(&mut self, ty: VariantType, text: &[u8]) -> Result<(), EncodeError> {
        let id = self.begin_checked(ty)?;
        let len = count_u32(text.len(), MAX_SIZE)?;
        self.out.write(&pair(u32::from(id), len))?;
        self.put_bytes(text)?;
        self.put_padding(text.len())?;
        self.end();
        Ok(())
    }

    /// A real-valued math value of `K` components, which `visit` gives.
    #[inline]
    fn reals<R: Real, const K: usize>(
        &mut self,
        ty: VariantType,
        visit: impl FnOnce(&mut dyn FnMut(R)),
    ) -> Result<(), EncodeError> {
        match self.options.precision() {
            Precision::Single => {
                let words: [u32; K] = components(0, visit, |c: R| c.single().to_bits());
                self.leaf(ty, 0, words_le(&words).as_bytes())
            }
            Precision::Double => {
                let words: [u64; K] = components(0, visit, |c: R| c.double().to_bits());
                self.leaf(ty, FLAG_64, words_le(&words).as_bytes())
            }
        }
    }

    /// An integer math value of `K` components, which `visit` gives.
    #[inline]
    fn integers<const K: usize>(
        &mut self,
        ty: VariantType,
        visit: impl FnOnce(&mut dyn FnMut(i32)),
    ) -> Result<(), EncodeError> {
        let words: [u32; K] = components(0, visit, |c: i32| u32::from_ne_bytes(c.to_ne_bytes()));
        self.leaf(ty, 0, words_le(&words).as_bytes())
    }

    /// A packed array of numbers.
    fn packed_scalars<T: Scalar>(
        &mut self,
        ty: VariantType,
        values: &[T],
    ) -> Result<(), EncodeError> {
        let size = values.len().checked_mul(size_of::<T>()).filter(|&s| s <= MAX_SIZE);
        if size.is_none() {
            return Err(EncodeError::TooLarge { len: values.len() });
        }
        let count = count_u32(values.len(), MAX_SIZE)?;
        self.begin(ty, 0)?;
        self.put_u32(count)?;
        if cfg!(target_endian = "little") {
            // The wire bytes are the memory bytes.
            self.put_bytes(values.as_bytes())?;
        } else {
            for group in values.chunks(Chunk::per_chunk(size_of::<T>())) {
                work::add(group.len());
                let mut chunk = Chunk::new();
                group.iter().for_each(|v| v.put_le(&mut chunk));
                self.out.write(chunk.bytes())?;
            }
        }
        self.end();
        Ok(())
    }

    /// A packed array of real-valued vectors of `components` reals each.
    fn packed_reals<V: Copy, R: Real>(
        &mut self,
        ty: VariantType,
        values: &[V],
        components: usize,
        visit: impl Fn(V, &mut dyn FnMut(R)),
    ) -> Result<(), EncodeError> {
        let precision = self.options.precision();
        let element_size = components.saturating_mul(precision.size());
        let size = values.len().checked_mul(element_size).filter(|&s| s <= MAX_SIZE);
        if size.is_none() {
            return Err(EncodeError::TooLarge { len: values.len() });
        }
        let count = count_u32(values.len(), MAX_SIZE)?;
        let flags = if precision == Precision::Double { FLAG_64 } else { 0 };
        self.begin(ty, flags)?;
        self.put_u32(count)?;
        for group in values.chunks(Chunk::per_chunk(element_size)) {
            // Each element's components are converted one by one.
            work::add(group.len());
            let mut chunk = Chunk::new();
            for value in group {
                visit(*value, &mut |c: R| match precision {
                    Precision::Single => chunk.put(&c.single().to_le_bytes()),
                    Precision::Double => chunk.put(&c.double().to_le_bytes()),
                });
            }
            self.out.write(chunk.bytes())?;
        }
        self.end();
        Ok(())
    }

    /// The kind bits and type information of a typed container's element type.
    fn type_info<'s>(&self, ty: ElementType<&'s str>) -> Result<(u32, TypeInfo<'s>), EncodeError> {
        let version = self.options.version();
        if ty.is_untyped() {
            return Ok((0, TypeInfo::None));
        }
        if version == Version::Godot3 {
            return Err(EncodeError::TypedContainerNotInVersion);
        }
        let full = self.options.full_objects();
        Ok(match ty {
            ElementType::Builtin(builtin) => {
                let id = builtin
                    .id(version)
                    .ok_or(EncodeError::NotInVersion { ty: builtin, version })?;
                (1, TypeInfo::Id(u32::from(id)))
            }
            ElementType::ClassName(name) if full => (2, TypeInfo::Name(name)),
            ElementType::Script(path) if full => (3, TypeInfo::Name(path)),
            _ => (2, TypeInfo::Name(ENCODED_OBJECT_AS_ID)),
        })
    }

    fn put_type_info(&mut self, info: TypeInfo<'_>) -> Result<(), EncodeError> {
        match info {
            TypeInfo::None => Ok(()),
            TypeInfo::Id(id) => self.put_u32(id),
            TypeInfo::Name(name) => self.put_string(name.as_bytes()),
        }
    }

    /// A container's header, its type information, its count; header and count at once when
    /// it is untyped.
    #[inline]
    fn put_header_and_count(
        &mut self,
        header: u32,
        infos: [TypeInfo<'_>; 2],
        count: u32,
    ) -> Result<(), EncodeError> {
        if let [TypeInfo::None, TypeInfo::None] = infos {
            return self.out.write(&pair(header, count));
        }
        self.put_u32(header)?;
        for info in infos {
            self.put_type_info(info)?;
        }
        self.put_u32(count)
    }

    #[inline]
    fn put_u32(&mut self, value: u32) -> Result<(), EncodeError> {
        self.out.write(&value.to_le_bytes())
    }

    /// Bytes of any length: one unit per 64 bytes (the fixed-size writes around them are in
    /// the unit of their value), as [`crate::wire::read`] counts a read.
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        work::add(bytes.len() >> 6);
        self.out.write(bytes)
    }

    /// A string: its length, its bytes, zero padding to 4.
    fn put_string(&mut self, text: &[u8]) -> Result<(), EncodeError> {
        self.put_u32(count_u32(text.len(), MAX_SIZE)?)?;
        self.put_bytes(text)?;
        self.put_padding(text.len())
    }

    /// The zeros that follow `len` bytes up to a multiple of 4 (one fixed-size write each).
    #[inline]
    fn put_padding(&mut self, len: usize) -> Result<(), EncodeError> {
        match crate::wire::read::padding(len) {
            1 => self.out.write(&[0]),
            2 => self.out.write(&[0; 2]),
            3 => self.out.write(&[0; 3]),
            _ => Ok(()),
        }
    }
}

/// Type information written before a typed container's count.
#[derive(Clone, Copy)]
enum TypeInfo<'s> {
    None,
    Id(u32),
    Name(&'s str),
}

/// Two 32-bit words, little-endian: a header and its first word.
#[inline]
fn pair(first: u32, second: u32) -> [u8; 8] {
    (u64::from(first) | u64::from(second) << 32).to_le_bytes()
}

/// Collects the `K` components `visit` gives, each converted by `word` (`zero` fills the rest,
/// which never happens: every caller's `K` is its type's component count).
#[inline]
fn components<R, W: Copy, const K: usize>(
    zero: W,
    visit: impl FnOnce(&mut dyn FnMut(R)),
    word: impl Fn(R) -> W,
) -> [W; K] {
    let mut words = [zero; K];
    let mut slots = words.iter_mut();
    visit(&mut |c| {
        if let Some(slot) = slots.next() {
            *slot = word(c);
        }
    });
    words
}

/// Words whose memory bytes are their little-endian bytes.
#[inline]
fn words_le<W: Word, const K: usize>(words: &[W; K]) -> [W; K] {
    words.map(W::to_le)
}

/// A word of a math value: `u32` or `u64`.
trait Word: Copy + IntoBytes + zerocopy::Immutable {
    fn to_le(self) -> Self;
}

impl Word for u32 {
    fn to_le(self) -> Self {
        u32::to_le(self)
    }
}

impl Word for u64 {
    fn to_le(self) -> Self {
        u64::to_le(self)
    }
}

/// `len` as a u32, if it is at most `max`.
fn count_u32(len: usize, max: usize) -> Result<u32, EncodeError> {
    if len > max {
        return Err(EncodeError::TooLarge { len });
    }
    u32::try_from(len).map_err(|_| EncodeError::TooLarge { len })
}

/// A number packed arrays hold, written little-endian.
trait Scalar: IntoBytes + zerocopy::Immutable + Copy {
    fn put_le(self, chunk: &mut Chunk);
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            fn put_le(self, chunk: &mut Chunk) {
                chunk.put(&self.to_le_bytes());
            }
        }
    )*};
}

scalar!(i32, i64, f32, f64);

/// A small stack buffer that batches the writes of many components.
struct Chunk {
    buf: [u8; Chunk::CAPACITY],
    len: usize,
}

impl Chunk {
    /// A multiple of every element size (4, 8, 12, 16, 24, 32 bytes...): 16 Projection reals
    /// in f64 is 128.
    const CAPACITY: usize = 384;

    fn new() -> Self {
        Chunk { buf: [0; Chunk::CAPACITY], len: 0 }
    }

    /// How many elements of `size` bytes fill a chunk (at least one).
    fn per_chunk(size: usize) -> usize {
        Chunk::CAPACITY.checked_div(size).unwrap_or(1).max(1)
    }

    /// Appends `bytes`; the callers never exceed the capacity (anything past it is dropped).
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len.saturating_add(bytes.len());
        if let Some(target) = self.buf.get_mut(self.len..end) {
            target.copy_from_slice(bytes);
            self.len = end;
        }
    }

    fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}
