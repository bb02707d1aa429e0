//! `Deserialize` for the owned values, from the lossless representation. Containers carry
//! their depth down, so no input nests deeper than Godot's limit.

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
        VariantSeed { depth: 0 }.deserialize(deserializer)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Variant, A::Error> {
        raw::read(map)
    }
}

impl<'de> Deserialize<'de> for Array {
    /// Reads `{"elements": [...], "element_type": ...}` (the type may be absent: untyped).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ArraySeed { depth: 0 }.deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Dictionary {
    /// Reads `{"entries": [[key, value], ...], "key_type": ..., "value_type": ...}` (the types
    /// may be absent: untyped), inserting each entry with [`Dictionary::insert`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        DictionarySeed { depth: 0 }.deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Object {
    /// Reads `"Null"`, `{"Id": n}` or `{"Full": {"class": ..., "properties": [...]}}`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ObjectSeed { depth: 0 }.deserialize(deserializer)
    }
}

/// The child depth of a container at `depth`.
fn deeper(depth: u16) -> u16 {
    depth.saturating_add(1)
}

/// A value at nesting `depth`.
#[derive(Clone, Copy)]
struct VariantSeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for VariantSeed {
    type Value = Variant;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Variant, D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(D::Error::custom(format_args!(
                "a Variant nested deeper than {MAX_DEPTH} levels"
            )));
        }
        deserializer.deserialize_enum(VARIANT, &VARIANT_NAMES, VariantVisitor { depth: self.depth })
    }
}

struct VariantVisitor {
    depth: u16,
}

impl<'de> Visitor<'de> for VariantVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Godot Variant")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Variant, A::Error> {
        let (index, access) = data.variant_seed(TagSeed { names: &VARIANT_NAMES })?;
        let ty = type_of(index).ok_or_else(|| A::Error::custom("unknown Variant type"))?;
        // Containers first, in a small frame: deep values recurse through here.
        let depth = self.depth;
        Ok(match ty {
            VariantType::Array => Variant::Array(access.newtype_variant_seed(ArraySeed { depth })?),
            VariantType::Dictionary => {
                Variant::from(access.newtype_variant_seed(DictionarySeed { depth })?)
            }
            VariantType::Object => {
                Variant::Object(access.newtype_variant_seed(ObjectSeed { depth })?)
            }
            other => leaf(other, access)?,
        })
    }
}

/// Every variant but the containers.
#[inline(never)]
fn leaf<'de, A: VariantAccess<'de>>(ty: VariantType, access: A) -> Result<Variant, A::Error> {
    use Variant as V;
    use VariantType as T;
    Ok(match ty {
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
    })
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

/// Values at nesting `depth`, as a sequence.
struct VariantsSeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for VariantsSeed {
    type Value = Vec<Variant>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Variant>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for VariantsSeed {
    type Value = Vec<Variant>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of Variants")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Variant>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(RESERVE_MAX));
        while let Some(value) = seq.next_element_seed(VariantSeed { depth: self.depth })? {
            out.push(value);
        }
        Ok(out)
    }
}

/// An array at nesting `depth`.
struct ArraySeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for ArraySeed {
    type Value = Array;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Array, D::Error> {
        deserializer.deserialize_struct(ARRAY, &ARRAY_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for ArraySeed {
    type Value = Array;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an Array: elements and an optional element type")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Array, A::Error> {
        let [elements_field, type_field] = ARRAY_FIELDS;
        let mut elements = None;
        let mut element_type = None;
        while let Some(field) = map.next_key_seed(FieldSeed { names: &ARRAY_FIELDS })? {
            if field == 0 {
                if elements.is_some() {
                    return Err(A::Error::duplicate_field(elements_field));
                }
                elements = Some(map.next_value_seed(VariantsSeed { depth: deeper(self.depth) })?);
            } else {
                if element_type.is_some() {
                    return Err(A::Error::duplicate_field(type_field));
                }
                element_type = Some(map.next_value::<ElementType<String>>()?);
            }
        }
        let elements = elements.ok_or_else(|| A::Error::missing_field(elements_field))?;
        Ok(Array { element_type: element_type.unwrap_or_default(), elements })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Array, A::Error> {
        let elements = seq
            .next_element_seed(VariantsSeed { depth: deeper(self.depth) })?
            .ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let element_type = seq.next_element::<ElementType<String>>()?.unwrap_or_default();
        Ok(Array { element_type, elements })
    }
}

/// A dictionary at nesting `depth`.
struct DictionarySeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for DictionarySeed {
    type Value = Dictionary;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Dictionary, D::Error> {
        deserializer.deserialize_struct(DICTIONARY, &DICTIONARY_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for DictionarySeed {
    type Value = Dictionary;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Dictionary: entries and optional key and value types")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Dictionary, A::Error> {
        let mut dictionary = Dictionary::new();
        let mut seen = [false; 3];
        while let Some(field) = map.next_key_seed(FieldSeed { names: &DICTIONARY_FIELDS })? {
            let index = field as usize;
            if seen.get(index).copied().unwrap_or(true) {
                let name = DICTIONARY_FIELDS.get(index).copied().unwrap_or_default();
                return Err(A::Error::duplicate_field(name));
            }
            if let Some(slot) = seen.get_mut(index) {
                *slot = true;
            }
            match field {
                0 => map.next_value_seed(EntriesSeed {
                    depth: deeper(self.depth),
                    target: &mut dictionary,
                })?,
                1 => dictionary.key_type = map.next_value()?,
                _ => dictionary.value_type = map.next_value()?,
            }
        }
        let [entries_seen, ..] = seen;
        if !entries_seen {
            let [entries_field, ..] = DICTIONARY_FIELDS;
            return Err(A::Error::missing_field(entries_field));
        }
        Ok(dictionary)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dictionary, A::Error> {
        let mut dictionary = Dictionary::new();
        seq.next_element_seed(EntriesSeed { depth: deeper(self.depth), target: &mut dictionary })?
            .ok_or_else(|| A::Error::invalid_length(0, &self))?;
        dictionary.key_type = seq.next_element()?.unwrap_or_default();
        dictionary.value_type = seq.next_element()?.unwrap_or_default();
        Ok(dictionary)
    }
}

/// A dictionary's entries at nesting `depth`, inserted into `target` as they arrive.
struct EntriesSeed<'t> {
    depth: u16,
    target: &'t mut Dictionary,
}

impl<'de> DeserializeSeed<'de> for EntriesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of [key, value] pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some((key, value)) = seq.next_element_seed(PairSeed { depth: self.depth })? {
            self.target.insert(key, value);
        }
        Ok(())
    }
}

/// A [key, value] pair of values at nesting `depth`.
struct PairSeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for PairSeed {
    type Value = (Variant, Variant);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for PairSeed {
    type Value = (Variant, Variant);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [key, value] pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let seed = VariantSeed { depth: self.depth };
        let key = seq.next_element_seed(seed)?.ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let value =
            seq.next_element_seed(seed)?.ok_or_else(|| A::Error::invalid_length(1, &self))?;
        Ok((key, value))
    }
}

/// An object at nesting `depth` (its properties are one deeper).
struct ObjectSeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for ObjectSeed {
    type Value = Object;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Object, D::Error> {
        deserializer.deserialize_enum(OBJECT, &OBJECT_NAMES, self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed {
    type Value = Object;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an Object: Null, Id or Full")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Object, A::Error> {
        let (index, access) = data.variant_seed(TagSeed { names: &OBJECT_NAMES })?;
        Ok(match index {
            0 => {
                access.unit_variant()?;
                Object::Null
            }
            1 => Object::Id(access.newtype_variant()?),
            _ => access.struct_variant(&FULL_FIELDS, FullSeed { depth: self.depth })?,
        })
    }
}

/// The class and properties of a full object at nesting `depth`.
struct FullSeed {
    depth: u16,
}

impl<'de> Visitor<'de> for FullSeed {
    type Value = Object;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a full object: class and properties")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
        let [class_field, properties_field] = FULL_FIELDS;
        let mut class = None;
        let mut properties = None;
        while let Some(field) = map.next_key_seed(FieldSeed { names: &FULL_FIELDS })? {
            if field == 0 {
                if class.is_some() {
                    return Err(A::Error::duplicate_field(class_field));
                }
                class = Some(map.next_value::<String>()?);
            } else {
                if properties.is_some() {
                    return Err(A::Error::duplicate_field(properties_field));
                }
                properties =
                    Some(map.next_value_seed(PropertiesSeed { depth: deeper(self.depth) })?);
            }
        }
        Ok(Object::Full {
            class: class.ok_or_else(|| A::Error::missing_field(class_field))?,
            properties: properties.ok_or_else(|| A::Error::missing_field(properties_field))?,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Object, A::Error> {
        let class =
            seq.next_element::<String>()?.ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let properties = seq
            .next_element_seed(PropertiesSeed { depth: deeper(self.depth) })?
            .ok_or_else(|| A::Error::invalid_length(1, &self))?;
        Ok(Object::Full { class, properties })
    }
}

/// A full object's properties, values at nesting `depth`.
struct PropertiesSeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for PropertiesSeed {
    type Value = Vec<(String, Variant)>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PropertiesSeed {
    type Value = Vec<(String, Variant)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of [name, value] pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(RESERVE_MAX));
        while let Some(property) = seq.next_element_seed(PropertySeed { depth: self.depth })? {
            out.push(property);
        }
        Ok(out)
    }
}

/// A [name, value] property, its value at nesting `depth`.
struct PropertySeed {
    depth: u16,
}

impl<'de> DeserializeSeed<'de> for PropertySeed {
    type Value = (String, Variant);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for PropertySeed {
    type Value = (String, Variant);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [name, value] property")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let name =
            seq.next_element::<String>()?.ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let value = seq
            .next_element_seed(VariantSeed { depth: self.depth })?
            .ok_or_else(|| A::Error::invalid_length(1, &self))?;
        Ok((name, value))
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
