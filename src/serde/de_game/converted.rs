//! [`Converted`]: an owned value the game view made (a converted element, a converted or
//! container key), read with the struct mapping: numbers, text (given owned: a converted value
//! cannot lend `&'de str`), math values (reals single precision when they are, as the game
//! computes them), arrays and packed arrays (as sequences), dictionaries, full objects (their
//! properties merged as Godot sets them) and signals (as maps).
//!
//! What it validates: what serde asks for against the value's type (an "invalid type" error
//! with the wire offset the value was made from). Costs: O(size of the value) to read it, and
//! O(p log p) for a full object of p properties; recursion is one level per level of the value,
//! as serde's is.

use alloc::string::String;
use alloc::vec::Vec;

use ::serde::de::value::{
    F32Deserializer, F64Deserializer, I32Deserializer, I64Deserializer, StrDeserializer,
    U8Deserializer, U32Deserializer,
};
use ::serde::de::{
    DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Unexpected, Visitor,
};

use super::owned_segment;
use crate::owned::{Object, Variant};
use crate::serde::de_math::{Leaf, Part, PartDeserializer};
use crate::serde::error::{DeError, PathSegment};
use crate::serde::raw::{RAW, RawAccess, RawBytes};
use crate::wire::exact_float::{narrow_exact, widen_exact};
use crate::wire::work;
use crate::{EncodeOptions, Options, Version, math::Precision};

/// An owned value the game view made (a converted element, a converted or container key), read
/// with the struct mapping of [`VariantDeserializer`](crate::serde::VariantDeserializer); strings are
/// given owned. Recursive, as serde is, one level per level of the value.
pub(in crate::serde) struct Converted<'v> {
    pub(in crate::serde) value: &'v Variant,
    /// Where the wire element it was made from sits.
    pub(in crate::serde) offset: Option<usize>,
}

/// A real of an owned value: single precision when it is an `f32` (every real the game view
/// computes is, as are those of single-precision bytes), else double.
fn real<'de>(c: f64) -> Leaf<'de> {
    let single = narrow_exact(c);
    if widen_exact(single).to_bits() == c.to_bits() { Leaf::F32(single) } else { Leaf::F64(c) }
}

/// The part of an owned math value (see [`real`]).
fn part_of_owned<'de>(value: &Variant) -> Option<Part<'de>> {
    let f = real;
    use Variant as V;
    Some(match value {
        V::Vector2(v) => Part::Vector2(v.map(f)),
        V::Vector3(v) => Part::Vector3(v.map(f)),
        V::Vector4(v) => Part::Vector4(v.map(f)),
        V::Rect2(v) => Part::Rect2(v.map(f)),
        V::Transform2D(v) => Part::Transform2D(v.map(f)),
        V::Plane(v) => Part::Plane(v.map(f)),
        V::Quaternion(v) => Part::Quaternion(v.map(f)),
        V::Aabb(v) => Part::Aabb(v.map(f)),
        V::Basis(v) => Part::Basis(v.map(f)),
        V::Transform3D(v) => Part::Transform3D(v.map(f)),
        V::Projection(v) => Part::Projection(v.map(f)),
        V::Vector2i(v) => Part::Vector2(v.map(Leaf::I32)),
        V::Vector3i(v) => Part::Vector3(v.map(Leaf::I32)),
        V::Vector4i(v) => Part::Vector4(v.map(Leaf::I32)),
        V::Rect2i(v) => Part::Rect2(v.map(Leaf::I32)),
        V::Color(c) => Part::Color(c.map(Leaf::F32)),
        _ => return None,
    })
}

impl Converted<'_> {
    fn located(&self, error: DeError) -> DeError {
        error.or_offset(self.offset)
    }

    /// What the value is, for "invalid type" messages.
    fn unexpected(&self) -> Unexpected<'_> {
        match self.value {
            Variant::Nil | Variant::Object(Object::Null) => Unexpected::Unit,
            Variant::Bool(b) => Unexpected::Bool(*b),
            Variant::Int(i) => Unexpected::Signed(*i),
            Variant::Float(f) => Unexpected::Float(*f),
            Variant::String(s) | Variant::StringName(s) => {
                s.as_str().map_or(Unexpected::Other("string"), Unexpected::Str)
            }
            other => Unexpected::Other(other.variant_type().name(Version::Godot4)),
        }
    }

    /// Answers a request for the raw bytes of a `Variant`: the value's encoding (lossless:
    /// double precision keeps every real).
    fn raw<'de, V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, DeError> {
        let options = EncodeOptions::godot4().with_precision(Precision::Double);
        let bytes = crate::encode(self.value, options).map_err(DeError::custom)?;
        visitor.visit_map(RawAccess::new(RawBytes::Encoded(bytes), Options::godot4(), 0))
    }
}

impl<'de> Deserializer<'de> for Converted<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        use Variant as V;
        let offset = self.offset;
        let result = match self.value {
            V::Nil | V::Callable | V::Object(Object::Null) => visitor.visit_unit(),
            V::Bool(b) => visitor.visit_bool(*b),
            V::Int(i) => visitor.visit_i64(*i),
            V::Float(f) => visitor.visit_f64(*f),
            // Converted values are Godot 4's, whose strings are always Unicode.
            V::String(s) | V::StringName(s) => visitor.visit_str(&s.to_string_lossy()),
            V::NodePath(path) => visitor.visit_string(path.to_text()),
            V::Rid(id) | V::Object(Object::Id(id)) => visitor.visit_u64(*id),
            V::PackedByteArray(bytes) => visitor.visit_bytes(bytes),
            V::Array(_)
            | V::PackedInt32Array(_)
            | V::PackedInt64Array(_)
            | V::PackedFloat32Array(_)
            | V::PackedFloat64Array(_)
            | V::PackedStringArray(_)
            | V::PackedVector2Array(_)
            | V::PackedVector3Array(_)
            | V::PackedVector4Array(_)
            | V::PackedColorArray(_) => {
                visitor.visit_seq(Items { value: self.value, index: 0, offset })
            }
            V::Dictionary(dictionary) => visitor.visit_map(OwnedEntries {
                entries: OwnedMap::Entries(dictionary.entries().iter()),
                pending: None,
                offset,
            }),
            V::Object(Object::Full(full)) => visitor.visit_map(OwnedEntries {
                entries: OwnedMap::Properties(merged_properties(&full.properties).into_iter()),
                pending: None,
                offset,
            }),
            V::Signal(signal) => visitor.visit_map(SignalFields { signal, index: 0 }),
            other => match part_of_owned(other) {
                Some(part) => PartDeserializer { part, offset }.deserialize_any(visitor),
                // Every type is handled above.
                None => Err(DeError::custom(format_args!(
                    "a {} cannot be read here",
                    other.variant_type().name(Version::Godot4)
                ))),
            },
        };
        result.map_err(|e| self.located(e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.value.is_nil() { visitor.visit_none() } else { visitor.visit_some(self) }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.value.is_nil() {
            visitor.visit_unit()
        } else {
            Err(self.located(DeError::invalid_type(self.unexpected(), &visitor)))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        if name == RAW {
            return self.raw(visitor).map_err(|e| self.located(e));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let offset = self.offset;
        match self.value {
            Variant::PackedByteArray(_) => {
                visitor.visit_seq(Items { value: self.value, index: 0, offset })
            }
            other => match part_of_owned(other) {
                Some(part) => PartDeserializer { part, offset }.deserialize_seq(visitor),
                None => self.deserialize_any(visitor),
            },
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.value {
            Variant::String(s) | Variant::StringName(s) => {
                visitor.visit_enum(StrDeserializer::<DeError>::new(&s.to_string_lossy()))
            }
            Variant::Int(i) => match u32::try_from(*i) {
                Ok(index) => visitor.visit_enum(U32Deserializer::<DeError>::new(index)),
                Err(_) => Err(DeError::invalid_value(Unexpected::Signed(*i), &"a variant index")),
            },
            _ => Err(DeError::invalid_type(self.unexpected(), &visitor)),
        }
        .map_err(|e| self.located(e))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        map struct identifier
    }
}

/// The elements of an owned array or packed array, as a sequence.
struct Items<'v> {
    value: &'v Variant,
    index: usize,
    offset: Option<usize>,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        use Variant as V;
        let i = self.index;
        let offset = self.offset;
        let part = |part: Option<Part<'de>>| part.map(|part| PartDeserializer { part, offset });
        let single = real;
        let result = match self.value {
            V::Array(array) => {
                array.get(i).map(|e| seed.deserialize(Converted { value: e, offset }))
            }
            V::PackedByteArray(x) => x.get(i).map(|b| seed.deserialize(U8Deserializer::new(*b))),
            V::PackedInt32Array(x) => x.get(i).map(|n| seed.deserialize(I32Deserializer::new(*n))),
            V::PackedInt64Array(x) => x.get(i).map(|n| seed.deserialize(I64Deserializer::new(*n))),
            V::PackedFloat32Array(x) => {
                x.get(i).map(|f| seed.deserialize(F32Deserializer::new(*f)))
            }
            V::PackedFloat64Array(x) => {
                x.get(i).map(|f| seed.deserialize(F64Deserializer::new(*f)))
            }
            V::PackedStringArray(x) => {
                x.get(i).map(|s| seed.deserialize(StrDeserializer::new(&s.to_string_lossy())))
            }
            V::PackedVector2Array(x) => {
                part(x.get(i).map(|v| Part::Vector2(v.map(single)))).map(|d| seed.deserialize(d))
            }
            V::PackedVector3Array(x) => {
                part(x.get(i).map(|v| Part::Vector3(v.map(single)))).map(|d| seed.deserialize(d))
            }
            V::PackedVector4Array(x) => {
                part(x.get(i).map(|v| Part::Vector4(v.map(single)))).map(|d| seed.deserialize(d))
            }
            V::PackedColorArray(x) => {
                part(x.get(i).map(|c| Part::Color(c.map(Leaf::F32)))).map(|d| seed.deserialize(d))
            }
            _ => None,
        };
        self.index = i.saturating_add(1);
        result.transpose().map_err(|e| e.within(PathSegment::Index(i)))
    }
}

/// A full object's properties as Godot sets them: a repeated name keeps its first place and
/// takes its last value. O(p log p).
fn merged_properties(properties: &[(String, Variant)]) -> Vec<(&str, &Variant)> {
    let mut places: alloc::collections::BTreeMap<&str, usize> = alloc::collections::BTreeMap::new();
    let mut merged: Vec<(&str, &Variant)> = Vec::new();
    for (name, value) in properties {
        work::add((name.len() / 64).saturating_add(1));
        match places.get(name.as_str()) {
            Some(&place) => {
                if let Some(slot) = merged.get_mut(place) {
                    slot.1 = value;
                }
            }
            None => {
                places.insert(name, merged.len());
                merged.push((name, value));
            }
        }
    }
    merged
}

/// The entries of an owned dictionary, or the properties of an owned object.
enum OwnedMap<'v> {
    Entries(core::slice::Iter<'v, (Variant, Variant)>),
    Properties(alloc::vec::IntoIter<(&'v str, &'v Variant)>),
}

/// An owned dictionary or full object, as a map.
struct OwnedEntries<'v> {
    entries: OwnedMap<'v>,
    /// The value whose key was read, and how the key shows in a path.
    pending: Option<(&'v Variant, PathSegment)>,
    offset: Option<usize>,
}

impl<'de> MapAccess<'de> for OwnedEntries<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let offset = self.offset;
        let (result, value, segment) = match &mut self.entries {
            OwnedMap::Entries(entries) => {
                let Some((key, value)) = entries.next() else { return Ok(None) };
                (seed.deserialize(Converted { value: key, offset }), value, owned_segment(key))
            }
            OwnedMap::Properties(properties) => {
                let Some((name, value)) = properties.next() else { return Ok(None) };
                let segment = PathSegment::Field(String::from(name));
                (seed.deserialize(StrDeserializer::new(name)), value, segment)
            }
        };
        let result = result.map(Some).map_err(|e| e.within(segment.clone()));
        self.pending = Some((value, segment));
        result
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((value, segment)) = self.pending.take() else {
            return Err(DeError::custom("a dictionary value was asked for before its key"));
        };
        seed.deserialize(Converted { value, offset: self.offset }).map_err(|e| e.within(segment))
    }
}

/// An owned signal, as the map `{name, object_id}`.
struct SignalFields<'v> {
    signal: &'v crate::owned::Signal,
    index: u8,
}

impl<'de> MapAccess<'de> for SignalFields<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let name = match self.index {
            0 => "name",
            1 => "object_id",
            _ => return Ok(None),
        };
        seed.deserialize(StrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        self.index = self.index.saturating_add(1);
        match self.index {
            1 => seed.deserialize(StrDeserializer::new(&self.signal.name)),
            _ => seed.deserialize(::serde::de::value::U64Deserializer::new(self.signal.object_id)),
        }
    }
}
