//! `Deserialize` for the owned values, from the lossless representation. Containers carry
//! their depth down, so no input nests deeper than Godot's limit.
//!
//! Each level of nesting recurses through the format's deserializer (serde's API is
//! recursive), so the seeds on that path are kept small: a value is written into a slot its
//! container made for it (a placeholder pushed onto the elements, a local key and value of a
//! dictionary entry), not returned through every frame, and leaves are read out of line.
//!
//! This file holds the entry points, the seed that reads any value into its slot, the leaves,
//! and arrays; `dictionary.rs` dictionaries, `object.rs` objects.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use ::serde::de::{
    Deserialize, DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use super::raw::{self, RAW};
use super::repr::{
    ARRAY, ARRAY_FIELDS, DICTIONARY, DICTIONARY_FIELDS, FULL_FIELDS, OBJECT, OBJECT_NAMES, VARIANT,
    VARIANT_NAMES, type_of,
};
use crate::owned::{Array, Dictionary, Object, Variant};
use crate::{ElementType, MAX_DEPTH, VariantType};

mod dictionary;
mod object;

use dictionary::*;
use object::*;

/// The most elements reserved ahead from a size hint: beyond that, vectors grow as elements
/// arrive.
const RESERVE_MAX: usize = 4096;

impl<'de> Deserialize<'de> for Variant {
    /// Reads the representation [`Variant`]'s `Serialize` writes. Values nested deeper than
    /// [`MAX_DEPTH`] (Godot's 1024) are refused.
    ///
    /// From Godot bytes ([`from_bytes`](crate::serde::from_bytes), a field read by the
    /// [`VariantDeserializer`](crate::serde::VariantDeserializer)), it reads the value as
    /// [`decode`](crate::decode) does instead: O(n), iterative, without recursion.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // The struct-mapping deserializer answers this name with the value's bytes; any other
        // sees a newtype struct around the lossless form.
        deserializer.deserialize_newtype_struct(RAW, TopVisitor)
    }
}

/// [`Variant`]'s own `Deserialize`: the lossless form, or the bytes of a Godot value.
struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Godot Variant")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Variant, D::Error> {
        let mut value = Variant::Nil;
        Into { depth: 0, slot: &mut value }.deserialize(deserializer)?;
        Ok(value)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Variant, A::Error> {
        raw::read(map)
    }
}

impl<'de> Deserialize<'de> for Array {
    /// Reads `{"elements": [...], "element_type": ...}` (the type may be absent: untyped).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut array = Array::default();
        ArrayInto { depth: 0, target: &mut array }.deserialize(deserializer)?;
        Ok(array)
    }
}

impl<'de> Deserialize<'de> for Dictionary {
    /// Reads `{"entries": [[key, value], ...], "key_type": ..., "value_type": ...}` (the types
    /// may be absent: untyped), inserting each entry with [`Dictionary::insert`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut dictionary = Dictionary::new();
        DictionaryInto { depth: 0, target: &mut dictionary }.deserialize(deserializer)?;
        Ok(dictionary)
    }
}

impl<'de> Deserialize<'de> for Object {
    /// Reads `"Null"`, `{"Id": n}` or `{"Full": {"class": ..., "properties": [...]}}`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut slot = Variant::Nil;
        ObjectInto { depth: 0, slot: &mut slot }.deserialize(deserializer)?;
        match slot {
            Variant::Object(object) => Ok(object),
            _ => Ok(Object::Null),
        }
    }
}

/// The child depth of a container at `depth`.
fn deeper(depth: u16) -> u16 {
    depth.saturating_add(1)
}

/// A value at nesting `depth`, written into `slot`.
struct Into<'t> {
    depth: u16,
    slot: &'t mut Variant,
}

impl<'de> DeserializeSeed<'de> for Into<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(too_deep());
        }
        deserializer.deserialize_enum(VARIANT, &VARIANT_NAMES, self)
    }
}

/// The error for a value nested past Godot's limit.
#[cold]
#[inline(never)]
fn too_deep<E: Error>() -> E {
    E::custom(format_args!("a Variant nested deeper than {MAX_DEPTH} levels"))
}

impl<'de> Visitor<'de> for Into<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Godot Variant")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let (index, access) = data.variant_seed(TagSeed { names: &VARIANT_NAMES })?;
        let ty = type_of(index).ok_or_else(|| A::Error::custom("unknown Variant type"))?;
        // Containers first, each filled where it will stay: deep values recurse through here.
        let depth = self.depth;
        match ty {
            VariantType::Array => {
                let target = make_array(self.slot);
                access.newtype_variant_seed(ArrayInto { depth, target })
            }
            VariantType::Dictionary => {
                let target = make_dictionary(self.slot);
                access.newtype_variant_seed(DictionaryInto { depth, target })
            }
            VariantType::Object => {
                access.newtype_variant_seed(ObjectInto { depth, slot: self.slot })
            }
            other => leaf(other, access, self.slot),
        }
    }
}

/// Every variant but the containers, into `slot`.
#[inline(never)]
fn leaf<'de, A: VariantAccess<'de>>(
    ty: VariantType,
    access: A,
    slot: &mut Variant,
) -> Result<(), A::Error> {
    use Variant as V;
    use VariantType as T;
    *slot = match ty {
        T::Nil => {
            access.unit_variant()?;
            V::Nil
        }
        T::Callable => {
            access.unit_variant()?;
            V::Callable
        }
        T::Bool => V::Bool(access.newtype_variant()?),
        T::Int => V::Int(access.newtype_variant()?),
        T::Float => V::Float(access.newtype_variant()?),
        T::String => V::String(access.newtype_variant()?),
        T::Vector2 => V::Vector2(access.newtype_variant()?),
        T::Vector2i => V::Vector2i(access.newtype_variant()?),
        T::Rect2 => V::Rect2(access.newtype_variant()?),
        T::Rect2i => V::Rect2i(access.newtype_variant()?),
        T::Vector3 => V::Vector3(access.newtype_variant()?),
        T::Vector3i => V::Vector3i(access.newtype_variant()?),
        T::Transform2D => V::Transform2D(Box::new(access.newtype_variant()?)),
        T::Vector4 => V::Vector4(access.newtype_variant()?),
        T::Vector4i => V::Vector4i(access.newtype_variant()?),
        T::Plane => V::Plane(access.newtype_variant()?),
        T::Quaternion => V::Quaternion(access.newtype_variant()?),
        T::Aabb => V::Aabb(Box::new(access.newtype_variant()?)),
        T::Basis => V::Basis(Box::new(access.newtype_variant()?)),
        T::Transform3D => V::Transform3D(Box::new(access.newtype_variant()?)),
        T::Projection => V::Projection(Box::new(access.newtype_variant()?)),
        T::Color => V::Color(access.newtype_variant()?),
        T::StringName => V::StringName(access.newtype_variant()?),
        T::NodePath => V::NodePath(access.newtype_variant()?),
        T::Rid => V::Rid(access.newtype_variant()?),
        T::Signal => V::Signal(access.newtype_variant()?),
        T::PackedByteArray => V::PackedByteArray(access.newtype_variant_seed(BytesSeed)?),
        T::PackedInt32Array => V::PackedInt32Array(access.newtype_variant()?),
        T::PackedInt64Array => V::PackedInt64Array(access.newtype_variant()?),
        T::PackedFloat32Array => V::PackedFloat32Array(access.newtype_variant()?),
        T::PackedFloat64Array => V::PackedFloat64Array(access.newtype_variant()?),
        T::PackedStringArray => V::PackedStringArray(access.newtype_variant()?),
        T::PackedVector2Array => V::PackedVector2Array(access.newtype_variant()?),
        T::PackedVector3Array => V::PackedVector3Array(access.newtype_variant()?),
        T::PackedColorArray => V::PackedColorArray(access.newtype_variant()?),
        T::PackedVector4Array => V::PackedVector4Array(access.newtype_variant()?),
        T::Array | T::Dictionary | T::Object => {
            return Err(A::Error::custom("containers are read by the caller"));
        }
    };
    Ok(())
}

/// A variant or field name (or index) among `names`, as its index.
struct TagSeed {
    names: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = u32;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u32, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for TagSeed {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of {:?}", self.names)
    }

    fn visit_u64<E: Error>(self, index: u64) -> Result<u32, E> {
        match u32::try_from(index) {
            Ok(index) if (index as usize) < self.names.len() => Ok(index),
            _ => Err(E::invalid_value(::serde::de::Unexpected::Unsigned(index), &self)),
        }
    }

    fn visit_str<E: Error>(self, name: &str) -> Result<u32, E> {
        self.names
            .iter()
            .position(|&n| n == name)
            .and_then(|index| u32::try_from(index).ok())
            .ok_or_else(|| E::unknown_variant(name, self.names))
    }

    fn visit_bytes<E: Error>(self, name: &[u8]) -> Result<u32, E> {
        match core::str::from_utf8(name) {
            Ok(name) => self.visit_str(name),
            Err(_) => Err(E::invalid_value(::serde::de::Unexpected::Bytes(name), &self)),
        }
    }
}

/// A struct field name among `names`, as its index (unknown names are refused).
struct FieldSeed {
    names: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = u32;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u32, D::Error> {
        deserializer.deserialize_identifier(FieldVisitor { names: self.names })
    }
}

struct FieldVisitor {
    names: &'static [&'static str],
}

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of the fields {:?}", self.names)
    }

    fn visit_u64<E: Error>(self, index: u64) -> Result<u32, E> {
        TagSeed { names: self.names }.visit_u64(index)
    }

    fn visit_str<E: Error>(self, name: &str) -> Result<u32, E> {
        self.names
            .iter()
            .position(|&n| n == name)
            .and_then(|index| u32::try_from(index).ok())
            .ok_or_else(|| E::unknown_field(name, self.names))
    }

    fn visit_bytes<E: Error>(self, name: &[u8]) -> Result<u32, E> {
        match core::str::from_utf8(name) {
            Ok(name) => self.visit_str(name),
            Err(_) => Err(E::invalid_value(::serde::de::Unexpected::Bytes(name), &self)),
        }
    }
}

/// Values at nesting `depth`, as a sequence, pushed onto `out`.
struct ElementsInto<'t> {
    depth: u16,
    out: &'t mut Vec<Variant>,
}

impl<'de> DeserializeSeed<'de> for ElementsInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ElementsInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of Variants")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        reserve(self.out, seq.size_hint());
        loop {
            // Each element is read into its place at the end.
            let slot = push_slot(self.out);
            if seq.next_element_seed(Into { depth: self.depth, slot })?.is_none() {
                self.out.pop();
                return Ok(());
            }
        }
    }
}

/// An empty array made in `slot`, to be read into. Out of line, as the next two.
#[inline(never)]
fn make_array(slot: &mut Variant) -> &mut Array {
    *slot = Variant::from(Array::default());
    match slot {
        Variant::Array(array) => array,
        _ => Box::leak(Box::default()),
    }
}

/// An empty dictionary made in `slot`, to be read into.
#[inline(never)]
fn make_dictionary(slot: &mut Variant) -> &mut Dictionary {
    *slot = Variant::from(Dictionary::new());
    match slot {
        Variant::Dictionary(dictionary) => dictionary,
        _ => Box::leak(Box::default()),
    }
}

/// A new last element of `out`, to be read into. Out of line: growing the vector takes stack
/// that the recursive path should not hold.
#[inline(never)]
fn push_slot(out: &mut Vec<Variant>) -> &mut Variant {
    out.push(Variant::Nil);
    match out.last_mut() {
        Some(slot) => slot,
        None => unreachable_slot(),
    }
}

/// Never reached: a slot was just made. A leaked `Nil`, so that no path panics.
#[cold]
fn unreachable_slot<'a>() -> &'a mut Variant {
    Box::leak(Box::new(Variant::Nil))
}

/// Room for the elements a format announces, up to [`RESERVE_MAX`]. Out of line.
#[inline(never)]
fn reserve(out: &mut Vec<Variant>, hint: Option<usize>) {
    out.reserve(hint.unwrap_or(0).min(RESERVE_MAX));
}

/// The declared type of a container, read out of line.
#[inline(never)]
fn read_type<'de, A: MapAccess<'de>>(map: &mut A) -> Result<ElementType<String>, A::Error> {
    map.next_value::<ElementType<String>>()
}

/// An array at nesting `depth`, read into `target`.
struct ArrayInto<'t> {
    depth: u16,
    target: &'t mut Array,
}

impl<'de> DeserializeSeed<'de> for ArrayInto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_struct(ARRAY, &ARRAY_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for ArrayInto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an Array: elements and an optional element type")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let [elements_field, type_field] = ARRAY_FIELDS;
        let (mut elements, mut element_type) = (false, false);
        while let Some(field) = map.next_key_seed(FieldSeed { names: &ARRAY_FIELDS })? {
            if field == 0 {
                if elements {
                    return Err(A::Error::duplicate_field(elements_field));
                }
                elements = true;
                let out = &mut self.target.elements;
                map.next_value_seed(ElementsInto { depth: deeper(self.depth), out })?;
            } else {
                if element_type {
                    return Err(A::Error::duplicate_field(type_field));
                }
                element_type = true;
                self.target.element_type = read_type(&mut map)?;
            }
        }
        if !elements {
            return Err(A::Error::missing_field(elements_field));
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let out = &mut self.target.elements;
        seq.next_element_seed(ElementsInto { depth: deeper(self.depth), out })?.ok_or_else(
            || A::Error::invalid_length(0, &"an Array: elements and an optional element type"),
        )?;
        self.target.element_type = seq.next_element::<ElementType<String>>()?.unwrap_or_default();
        Ok(())
    }
}

/// A `PackedByteArray`: bytes, or a sequence of numbers (formats without a byte type, such as
/// JSON).
struct BytesSeed;

impl<'de> DeserializeSeed<'de> for BytesSeed {
    type Value = Vec<u8>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<u8>, D::Error> {
        deserializer.deserialize_byte_buf(self)
    }
}

impl<'de> Visitor<'de> for BytesSeed {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytes")
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Vec<u8>, E> {
        Ok(bytes.to_vec())
    }

    fn visit_byte_buf<E: Error>(self, bytes: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(bytes)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(RESERVE_MAX));
        while let Some(byte) = seq.next_element::<u8>()? {
            out.push(byte);
        }
        Ok(out)
    }
}
