//! Encoding an owned [`Variant`]: an iterative walk that feeds the [`Writer`].

use alloc::string::String;
use alloc::vec::Vec;
use core::slice;

use super::{EncodeError, EncodeOptions, Output, Writer};
use crate::owned::{GdString, Object, Variant};
use crate::{VariantType, Version};

/// Encodes `value` as Godot would (`var_to_bytes`, or `var2bytes` for Godot 3). O(n) time,
/// counted by the work counter (`tests/encoder_bounds.rs`); no recursion: one iterator per
/// open container on the heap, besides the output.
///
/// ```
/// use gdvariant::{EncodeOptions, Options, Variant};
///
/// // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3}), decoded then encoded again.
/// let bytes = include_bytes!("../../corpus/godot4/dict_order.bin");
/// let value = gdvariant::decode(bytes, Options::godot4())?;
/// assert_eq!(gdvariant::encode(&value, EncodeOptions::godot4())?, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Strings are written as Godot writes them ([`GdString::as_bytes`]): a Godot 3 string decoded
/// from overlong forms is written in the shortest forms, everything else byte for byte.
///
/// # Errors
/// A type that does not exist in the target version, a full object without full objects,
/// nesting past the depth limit, a size past Godot's 32-bit limits, a string holding code points
/// Godot 4 refuses ([`EncodeError::NotUnicode`]) written for Godot 4.
pub fn encode(value: &Variant, options: EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    value.encode(options)
}

/// Open containers [`Variant::encode`] tries first.
const SHALLOW_NESTING: usize = 16;

impl Variant {
    /// Encodes the value into a new `Vec<u8>`; see [`encode`](crate::encode).
    ///
    /// # Errors
    /// See [`encode`](crate::encode).
    pub fn encode(&self, options: EncodeOptions) -> Result<Vec<u8>, EncodeError> {
        // Most values nest a few levels: a writer with room for 16 open containers has 128
        // bytes to set up where the full one fills 8 KiB, which is most of the work of writing
        // a small packet. A value nested deeper is written again by the full writer (at most
        // twice the work), which gives the final answer.
        let mut out = Vec::new();
        let mut writer = Writer::<_, SHALLOW_NESTING>::with_nesting(&mut out, options);
        match writer.value(self).and_then(|()| writer.finish().map(drop)) {
            Ok(()) => Ok(out),
            Err(EncodeError::DepthLimit) => {
                out.clear();
                self.encode_into(out, options)
            }
            Err(error) => Err(error),
        }
    }

    /// Encodes the value at the end of `out` (a `Vec<u8>`, a [`SliceOutput`](crate::encoder::SliceOutput),
    /// `&mut` either) and returns it.
    ///
    /// # Errors
    /// See [`encode`](crate::encode); [`EncodeError::OutputFull`] when a fixed output is full.
    pub fn encode_into<O: Output>(&self, out: O, options: EncodeOptions) -> Result<O, EncodeError> {
        let mut writer = Writer::new(out, options);
        writer.value(self)?;
        writer.finish()
    }
}

/// What remains to be written of an open container.
enum Rest<'v> {
    Elements(slice::Iter<'v, Variant>),
    /// `value` is the value of the key just written.
    Entries {
        entries: slice::Iter<'v, (Variant, Variant)>,
        value: Option<&'v Variant>,
    },
    Properties(slice::Iter<'v, (String, Variant)>),
}

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// Writes an owned value, and everything inside it, as one value. Iterative: nesting costs
    /// heap (one iterator per open container), not stack. O(n) time, O(depth) memory.
    ///
    /// # Errors
    /// See [`encode`](crate::encode) and [`Writer`].
    pub fn value(&mut self, value: &Variant) -> Result<(), EncodeError> {
        let mut stack: Vec<Rest<'_>> = Vec::new();
        let mut next = value;
        loop {
            if let Some(rest) = self.one(next)? {
                stack.push(rest);
            }
            // The next value to write, from the innermost container that has one.
            loop {
                let Some(rest) = stack.last_mut() else {
                    return Ok(());
                };
                let found = match rest {
                    Rest::Elements(elements) => elements.next(),
                    Rest::Entries { entries, value } => match value.take() {
                        Some(value) => Some(value),
                        None => entries.next().map(|(key, value_of_key)| {
                            *value = Some(value_of_key);
                            key
                        }),
                    },
                    Rest::Properties(properties) => match properties.next() {
                        Some((name, value)) => {
                            self.property_name(name)?;
                            Some(value)
                        }
                        None => None,
                    },
                };
                match found {
                    Some(found) => {
                        next = found;
                        break;
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        }
    }

    /// Writes a value that holds no others, or opens a container and returns what it holds.
    #[inline(always)]
    fn one<'v>(&mut self, value: &'v Variant) -> Result<Option<Rest<'v>>, EncodeError> {
        use Variant as V;
        match value {
            V::Nil => self.nil()?,
            V::Bool(b) => self.bool(*b)?,
            V::Int(i) => self.int(*i)?,
            V::Float(f) => self.float(*f)?,
            V::String(s) => self.text(VariantType::String, self.readable(s)?)?,
            V::Vector2(v) => self.vector2(*v)?,
            V::Vector2i(v) => self.vector2i(*v)?,
            V::Rect2(v) => self.rect2(**v)?,
            V::Rect2i(v) => self.rect2i(*v)?,
            V::Vector3(v) => self.vector3(*v)?,
            V::Vector3i(v) => self.vector3i(*v)?,
            V::Transform2D(v) => self.transform2d(**v)?,
            V::Vector4(v) => self.vector4(**v)?,
            V::Vector4i(v) => self.vector4i(*v)?,
            V::Plane(v) => self.plane(**v)?,
            V::Quaternion(v) => self.quaternion(**v)?,
            V::Aabb(v) => self.aabb(**v)?,
            V::Basis(v) => self.basis(**v)?,
            V::Transform3D(v) => self.transform3d(**v)?,
            V::Projection(v) => self.projection(**v)?,
            V::Color(c) => self.color(*c)?,
            V::StringName(s) => self.text(VariantType::StringName, self.readable(s)?)?,
            V::NodePath(path) => {
                self.all_readable(&path.names)?;
                self.all_readable(&path.subnames)?;
                self.node_path_bytes(
                    path.absolute,
                    path.names.iter().map(GdString::as_bytes),
                    path.subnames.iter().map(GdString::as_bytes),
                )?
            }
            V::Rid(id) => self.rid(*id)?,
            V::Object(Object::Null) => self.null_object()?,
            V::Object(Object::Id(id)) => self.object_id(*id)?,
            V::Object(Object::Full(full)) => {
                let (class, properties) = (&full.class, &full.properties);
                let count = u32::try_from(properties.len())
                    .map_err(|_| EncodeError::TooLarge { len: properties.len() })?;
                self.begin_object(class, count)?;
                return Ok(Some(Rest::Properties(properties.iter())));
            }
            V::Callable => self.callable()?,
            V::Signal(signal) => self.signal(&signal.name, signal.object_id)?,
            V::Dictionary(dictionary) => {
                self.begin_typed_dictionary(
                    dictionary.key_type.as_deref(),
                    dictionary.value_type.as_deref(),
                    dictionary.len(),
                )?;
                let entries = dictionary.entries().iter();
                return Ok(Some(Rest::Entries { entries, value: None }));
            }
            V::Array(array) => {
                self.begin_typed_array(array.element_type.as_deref(), array.len())?;
                return Ok(Some(Rest::Elements(array.elements.iter())));
            }
            V::PackedByteArray(bytes) => self.packed_bytes(bytes)?,
            V::PackedInt32Array(values) => self.packed_int32(values)?,
            V::PackedInt64Array(values) => self.packed_int64(values)?,
            V::PackedFloat32Array(values) => self.packed_float32(values)?,
            V::PackedFloat64Array(values) => self.packed_float64(values)?,
            V::PackedStringArray(strings) => {
                self.all_readable(strings)?;
                self.packed_strings_bytes(strings.iter().map(GdString::as_bytes))?
            }
            V::PackedVector2Array(values) => self.packed_vector2(values)?,
            V::PackedVector3Array(values) => self.packed_vector3(values)?,
            V::PackedColorArray(values) => self.packed_colors(values)?,
            V::PackedVector4Array(values) => self.packed_vector4(values)?,
        }
        Ok(None)
    }

    /// The bytes of `s`, when the target version reads its code points (Godot 4 reads Unicode
    /// text only).
    fn readable<'s>(&self, s: &'s GdString) -> Result<&'s [u8], EncodeError> {
        match (self.options().version(), s.as_str()) {
            (Version::Godot4, None) => Err(EncodeError::NotUnicode),
            _ => Ok(s.as_bytes()),
        }
    }

    /// Checks that the target version reads every string of `strings`.
    fn all_readable(&self, strings: &[GdString]) -> Result<(), EncodeError> {
        crate::wire::work::add(strings.len());
        strings.iter().try_for_each(|s| self.readable(s).map(|_| ()))
    }
}
