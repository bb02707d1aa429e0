//! `Serialize` for [`VariantRef`] and [`Element`]: the owned representation, read straight from
//! the buffer.

use ::serde::ser::{Error as _, Serialize, SerializeSeq, SerializeStruct, Serializer};

use super::dedup::{self, Plan};
use super::repr::{Bytes, NODE_PATH, OBJECT, OBJECT_NAMES, Pair, SIGNAL, Seq, VARIANT, tag};
use super::ser_owned::{serialize_array, serialize_dictionary, serialize_full_object};
use crate::view::packed::{PackedElement, PackedStringsIter};
use crate::wire::exact_float::widen_exact;
use crate::{
    ArrayRef, ContainerType, DictionaryRef, Element, ElementType, FullObject, GdStr, NodePathRef,
    NodePathStrings, ObjectRef, Packed, PackedReals, SignalRef, VariantRef,
};

/// A malformed element met while serializing, as the serializer's error (its message carries
/// the byte offset).
fn fail<E: ::serde::ser::Error>(error: crate::Error) -> E {
    E::custom(error)
}

/// The text of a string, or the serializer's error.
fn text<'a, E: ::serde::ser::Error>(string: &GdStr<'a>) -> Result<&'a str, E> {
    string.to_str().map_err(fail)
}

/// A real-valued math value with `f64` components, `f32` ones widened bit for bit (as the owned
/// conversion does).
macro_rules! widened {
    ($reals:expr) => {
        match $reals.get_f32() {
            Some(single) => single.map(widen_exact),
            None => $reals.get(),
        }
    };
}

impl Serialize for VariantRef<'_> {
    /// Exactly what the owned [`Variant`](crate::Variant) of the same value writes; see the
    /// [module docs](crate::serde). A malformed element met on the way is the serializer's
    /// error, carrying its byte offset.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Containers first, in a small frame: deep values recurse through here.
        let (index, name) = tag(self.variant_type());
        match *self {
            VariantRef::Array(array) => {
                serializer.serialize_newtype_variant(VARIANT, index, name, &ArraySer(array))
            }
            VariantRef::Dictionary(dictionary) => serializer.serialize_newtype_variant(
                VARIANT,
                index,
                name,
                &DictionarySer(dictionary),
            ),
            VariantRef::Object(object) => {
                serializer.serialize_newtype_variant(VARIANT, index, name, &ObjectSer(object))
            }
            _ => leaf(self, index, name, serializer),
        }
    }
}

impl Serialize for Element<'_> {
    /// The element's value, as [`VariantRef`] writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}

/// The elements of a packed array, decoded from its little-endian bytes.
fn items<'a, T: PackedElement>(packed: &Packed<'a, T>) -> impl Iterator<Item = T> + Clone + 'a {
    packed.as_le_slice().iter().map(|&le| T::from_le(le))
}

/// Every variant but the containers.
#[inline(never)]
fn leaf<S: Serializer>(
    value: &VariantRef<'_>,
    index: u32,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use VariantRef as V;
    macro_rules! newtype {
        ($value:expr) => {
            serializer.serialize_newtype_variant(VARIANT, index, name, $value)
        };
    }
    macro_rules! packed_reals {
        ($packed:expr) => {
            match $packed {
                PackedReals::Single(p) => {
                    newtype!(&Seq(p.len(), items(&p).map(|v| v.map(widen_exact))))
                }
                PackedReals::Double(p) => newtype!(&Seq(p.len(), items(&p))),
            }
        };
    }
    match *value {
        V::Nil | V::Callable => serializer.serialize_unit_variant(VARIANT, index, name),
        V::Bool(b) => newtype!(&b),
        V::Int(i) => newtype!(&i),
        V::Float(f) => newtype!(&f),
        V::String(s) | V::StringName(s) => newtype!(text::<S::Error>(&s)?),
        V::Vector2(v) => newtype!(&widened!(v)),
        V::Vector2i(v) => newtype!(&v),
        V::Rect2(v) => newtype!(&widened!(v)),
        V::Rect2i(v) => newtype!(&v),
        V::Vector3(v) => newtype!(&widened!(v)),
        V::Vector3i(v) => newtype!(&v),
        V::Transform2D(v) => newtype!(&widened!(v)),
        V::Vector4(v) => newtype!(&widened!(v)),
        V::Vector4i(v) => newtype!(&v),
        V::Plane(v) => newtype!(&widened!(v)),
        V::Quaternion(v) => newtype!(&widened!(v)),
        V::Aabb(v) => newtype!(&widened!(v)),
        V::Basis(v) => newtype!(&widened!(v)),
        V::Transform3D(v) => newtype!(&widened!(v)),
        V::Projection(v) => newtype!(&widened!(v)),
        V::Color(c) => newtype!(&c),
        V::NodePath(path) => newtype!(&NodePathSer(path)),
        // Godot 3 writes no id: the owned value holds 0.
        V::Rid(id) => newtype!(&id.unwrap_or(0)),
        V::Signal(signal) => newtype!(&SignalSer(signal)),
        V::PackedByteArray(bytes) => newtype!(&Bytes(bytes)),
        V::PackedInt32Array(p) => newtype!(&Seq(p.len(), items(&p))),
        V::PackedInt64Array(p) => newtype!(&Seq(p.len(), items(&p))),
        V::PackedFloat32Array(p) => newtype!(&Seq(p.len(), items(&p))),
        V::PackedFloat64Array(p) => newtype!(&Seq(p.len(), items(&p))),
        V::PackedStringArray(strings) => newtype!(&Strings(strings.len(), strings.iter())),
        V::PackedVector2Array(p) => packed_reals!(p),
        V::PackedVector3Array(p) => packed_reals!(p),
        V::PackedVector4Array(p) => packed_reals!(p),
        V::PackedColorArray(p) => newtype!(&Seq(p.len(), items(&p))),
        V::Array(array) => newtype!(&ArraySer(array)),
        V::Dictionary(dictionary) => newtype!(&DictionarySer(dictionary)),
        V::Object(object) => newtype!(&ObjectSer(object)),
    }
}

/// Strings read one after the other (a NodePath's names, a PackedStringArray).
struct Strings<I>(usize, I);

/// The iterators [`Strings`] reads.
trait StringIter<'a>: Iterator<Item = crate::Result<GdStr<'a>>> + Clone {}
impl<'a> StringIter<'a> for PackedStringsIter<'a> {}
impl<'a> StringIter<'a> for NodePathStrings<'a> {}

impl<'a, I: StringIter<'a>> Serialize for Strings<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0))?;
        for string in self.1.clone() {
            seq.serialize_element(text::<S::Error>(&string.map_err(fail)?)?)?;
        }
        seq.end()
    }
}

/// A NodePath, as the owned `NodePath`'s derive writes it.
struct NodePathSer<'a>(NodePathRef<'a>);

impl Serialize for NodePathSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let path = &self.0;
        let mut out = serializer.serialize_struct(NODE_PATH, 3)?;
        out.serialize_field("names", &Strings(path.name_count(), path.names()))?;
        out.serialize_field("subnames", &Strings(path.subname_count(), path.subnames()))?;
        out.serialize_field("absolute", &path.is_absolute())?;
        out.end()
    }
}

/// A Signal, as the owned `Signal`'s derive writes it.
struct SignalSer<'a>(SignalRef<'a>);

impl Serialize for SignalSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct(SIGNAL, 2)?;
        out.serialize_field("name", text::<S::Error>(&self.0.name())?)?;
        out.serialize_field("object_id", &self.0.object_id())?;
        out.end()
    }
}

/// A container's declared type in the owned form, borrowing its names.
fn element_type<'a, E: ::serde::ser::Error>(
    declared: crate::Result<ContainerType<'a>>,
) -> Result<ElementType<&'a str>, E> {
    Ok(match declared.map_err(fail)? {
        ContainerType::Untyped => ElementType::Untyped,
        ContainerType::Builtin(ty) => ElementType::Builtin(ty),
        ContainerType::ClassName(name) => ElementType::ClassName(text(&name)?),
        ContainerType::Script(path) => ElementType::Script(text(&path)?),
    })
}

struct ArraySer<'a>(ArrayRef<'a>);

impl Serialize for ArraySer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let declared = element_type::<S::Error>(self.0.element_type())?;
        serialize_array(serializer, ElementsSer(self.0), declared)
    }
}

struct ElementsSer<'a>(ArrayRef<'a>);

impl Serialize for ElementsSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for element in self.0.elements() {
            seq.serialize_element(&element.map_err(fail)?)?;
        }
        seq.end()
    }
}

struct DictionarySer<'a>(DictionaryRef<'a>);

impl Serialize for DictionarySer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let key_type = element_type::<S::Error>(self.0.key_type())?;
        let value_type = element_type::<S::Error>(self.0.value_type())?;
        serialize_dictionary(serializer, EntriesSer(self.0), key_type, value_type)
    }
}

/// A dictionary's entries as Godot decodes them: a repeated key keeps its first position and
/// key, and takes its last value.
struct EntriesSer<'a>(DictionaryRef<'a>);

impl Serialize for EntriesSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match dedup::plan(self.0).map_err(fail)? {
            Plan::Unique => {
                let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
                for entry in self.0.entries() {
                    let (key, value) = entry.map_err(fail)?;
                    seq.serialize_element(&Pair(&key, &value))?;
                }
                seq.end()
            }
            Plan::Merged(entries) => {
                let mut seq = serializer.serialize_seq(Some(entries.len()))?;
                for (key, value) in &entries {
                    seq.serialize_element(&Pair(key, value))?;
                }
                seq.end()
            }
        }
    }
}

struct ObjectSer<'a>(ObjectRef<'a>);

impl Serialize for ObjectSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let [null, id, full] = OBJECT_NAMES;
        match self.0 {
            ObjectRef::Null => serializer.serialize_unit_variant(OBJECT, 0, null),
            ObjectRef::Id(object_id) => {
                serializer.serialize_newtype_variant(OBJECT, 1, id, &object_id)
            }
            ObjectRef::Full(object) => {
                let class = object.class_name().to_str().map_err(S::Error::custom)?;
                serialize_full_object(serializer, full, class, PropertiesSer(object))
            }
        }
    }
}

struct PropertiesSer<'a>(FullObject<'a>);

impl Serialize for PropertiesSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for property in self.0.properties() {
            let (name, value) = property.map_err(fail)?;
            seq.serialize_element(&Pair(text::<S::Error>(&name)?, &value))?;
        }
        seq.end()
    }
}
