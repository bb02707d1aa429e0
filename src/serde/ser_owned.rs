//! `Serialize` for the owned values: the lossless, externally tagged representation.

use ::serde::ser::{Serialize, SerializeStruct, SerializeStructVariant, Serializer};

use super::repr::{
    ARRAY, ARRAY_FIELDS, Bytes, DICTIONARY, DICTIONARY_FIELDS, FULL_FIELDS, OBJECT, OBJECT_NAMES,
    Pair, Seq, VARIANT, tag,
};
use crate::ElementType;
use crate::owned::{Array, Dictionary, Object, Variant};

impl Serialize for Variant {
    /// `"Nil"`, `{"Int": 5}`, `{"Vector2": {"x": 1.0, "y": 2.0}}`, `{"Array": {...}}`, ...: see
    /// the [module docs](crate::serde).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Containers first, in a small frame: deep values recurse through here.
        let (index, name) = tag(self.variant_type());
        match self {
            Variant::Array(array) => {
                serializer.serialize_newtype_variant(VARIANT, index, name, array)
            }
            Variant::Dictionary(dictionary) => {
                serializer.serialize_newtype_variant(VARIANT, index, name, dictionary)
            }
            Variant::Object(object) => {
                serializer.serialize_newtype_variant(VARIANT, index, name, object)
            }
            _ => leaf(self, index, name, serializer),
        }
    }
}

/// Every variant but the containers.
#[inline(never)]
fn leaf<S: Serializer>(
    value: &Variant,
    index: u32,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use Variant as V;
    macro_rules! newtype {
        ($value:expr) => {
            serializer.serialize_newtype_variant(VARIANT, index, name, $value)
        };
    }
    match value {
        V::Nil | V::Callable => serializer.serialize_unit_variant(VARIANT, index, name),
        V::Bool(b) => newtype!(b),
        V::Int(i) => newtype!(i),
        V::Float(f) => newtype!(f),
        V::String(text) | V::StringName(text) => newtype!(text),
        V::Vector2(v) => newtype!(v),
        V::Vector2i(v) => newtype!(v),
        V::Rect2(v) => newtype!(v),
        V::Rect2i(v) => newtype!(v),
        V::Vector3(v) => newtype!(v),
        V::Vector3i(v) => newtype!(v),
        V::Transform2D(v) => newtype!(&**v),
        V::Vector4(v) => newtype!(v),
        V::Vector4i(v) => newtype!(v),
        V::Plane(v) => newtype!(v),
        V::Quaternion(v) => newtype!(v),
        V::Aabb(v) => newtype!(&**v),
        V::Basis(v) => newtype!(&**v),
        V::Transform3D(v) => newtype!(&**v),
        V::Projection(v) => newtype!(&**v),
        V::Color(c) => newtype!(c),
        V::NodePath(path) => newtype!(path),
        V::Rid(id) => newtype!(id),
        V::Signal(signal) => newtype!(signal),
        V::PackedByteArray(bytes) => newtype!(&Bytes(bytes)),
        V::PackedInt32Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedInt64Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedFloat32Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedFloat64Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedStringArray(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedVector2Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedVector3Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedColorArray(v) => newtype!(&Seq(v.len(), v.iter())),
        V::PackedVector4Array(v) => newtype!(&Seq(v.len(), v.iter())),
        V::Array(array) => newtype!(array),
        V::Dictionary(dictionary) => newtype!(dictionary),
        V::Object(object) => newtype!(object),
    }
}

impl Serialize for Array {
    /// `{"elements": [...], "element_type": ...}`, without `element_type` when it is
    /// [`ElementType::Untyped`].
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let typed = self.element_type != ElementType::Untyped;
        serialize_array(serializer, Seq(self.len(), self.iter()), typed, &self.element_type)
    }
}

/// An array's struct, from its elements and element type (written when `typed`). Deep values
/// recurse through here: what lives across the elements is a flag and a reference.
/// (`ser_ref.rs` makes the same calls.)
fn serialize_array<S: Serializer, E: Serialize, T: Serialize>(
    serializer: S,
    elements: E,
    typed: bool,
    element_type: T,
) -> Result<S::Ok, S::Error> {
    let [elements_field, type_field] = ARRAY_FIELDS;
    let mut array = serializer.serialize_struct(ARRAY, if typed { 2 } else { 1 })?;
    array.serialize_field(elements_field, &elements)?;
    if typed {
        array.serialize_field(type_field, &element_type)?;
    } else {
        array.skip_field(type_field)?;
    }
    array.end()
}

impl Serialize for Dictionary {
    /// `{"entries": [[key, value], ...], "key_type": ..., "value_type": ...}`, without the two
    /// types when both are [`ElementType::Untyped`].
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entries = Seq(self.len(), self.entries().iter().map(|(key, value)| Pair(key, value)));
        let typed =
            self.key_type != ElementType::Untyped || self.value_type != ElementType::Untyped;
        serialize_dictionary(serializer, entries, typed, &self.key_type, &self.value_type)
    }
}

/// A dictionary's struct, from its entries and types (written when `typed`). (`ser_ref.rs`
/// makes the same calls.)
fn serialize_dictionary<S: Serializer, E: Serialize, K: Serialize, V: Serialize>(
    serializer: S,
    entries: E,
    typed: bool,
    key_type: K,
    value_type: V,
) -> Result<S::Ok, S::Error> {
    let [entries_field, key_field, value_field] = DICTIONARY_FIELDS;
    let mut dictionary = serializer.serialize_struct(DICTIONARY, if typed { 3 } else { 1 })?;
    dictionary.serialize_field(entries_field, &entries)?;
    if typed {
        dictionary.serialize_field(key_field, &key_type)?;
        dictionary.serialize_field(value_field, &value_type)?;
    } else {
        dictionary.skip_field(key_field)?;
        dictionary.skip_field(value_field)?;
    }
    dictionary.end()
}

impl Serialize for Object {
    /// `"Null"`, `{"Id": n}` or `{"Full": {"class": "...", "properties": [[name, value], ...]}}`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let [null, id, full] = OBJECT_NAMES;
        match self {
            Object::Null => serializer.serialize_unit_variant(OBJECT, 0, null),
            Object::Id(object_id) => serializer.serialize_newtype_variant(OBJECT, 1, id, object_id),
            Object::Full(object) => {
                let (class, properties) = (&object.class, &object.properties);
                let properties = Seq(
                    properties.len(),
                    properties.iter().map(|(name, value)| Pair(name.as_str(), value)),
                );
                serialize_full_object(serializer, full, class, properties)
            }
        }
    }
}

/// A full object's struct variant.
pub(crate) fn serialize_full_object<S: Serializer, P: Serialize>(
    serializer: S,
    variant: &'static str,
    class: &str,
    properties: P,
) -> Result<S::Ok, S::Error> {
    let [class_field, properties_field] = FULL_FIELDS;
    let mut object = serializer.serialize_struct_variant(OBJECT, 2, variant, 2)?;
    object.serialize_field(class_field, class)?;
    object.serialize_field(properties_field, &properties)?;
    object.end()
}
