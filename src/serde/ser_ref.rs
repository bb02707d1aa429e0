//! `Serialize` for [`VariantRef`] and [`Element`]: the owned representation, read straight from
//! the buffer.
//!
//! A container is first read onto a tape ([`Source`]), one pass; the serializer then visits the
//! tape, each part once and its children in O(1) each, so the whole value costs O(n) plus the
//! repeated-key checks of [`dedup`](super::dedup), whatever the nesting. Each level of nesting
//! recurses through the serializer (serde's API is recursive); the frames of this file on that
//! path hold a reference and an index.

use ::serde::ser::{Error as _, Serialize, SerializeSeq, SerializeStruct, Serializer};

use crate::VariantType;

use super::repr::{Bytes, NODE_PATH, OBJECT, OBJECT_NAMES, Pair, SIGNAL, Seq, VARIANT, tag};
use super::ser_owned::{serialize_array, serialize_dictionary, serialize_full_object};
use super::source::Source;
use crate::view::packed::{PackedElement, PackedStringsIter};
use crate::view::tape::Part;
use crate::wire::exact_float::widen_exact;
use crate::{
    ContainerType, Element, ElementType, GdStr, NodePathRef, NodePathStrings, ObjectRef, Packed,
    PackedReals, SignalRef, VariantRef,
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
        match Source::of_container(*self) {
            Some(source) => {
                Node { source: &source, index: source.root().index() }.serialize(serializer)
            }
            None => {
                let (index, name) = tag(self.variant_type());
                leaf(self, index, name, serializer)
            }
        }
    }
}

impl Serialize for Element<'_> {
    /// The element's value, as [`VariantRef`] writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}

/// A value on a tape: what every level of a container recurses through, so it is kept small.
#[derive(Clone, Copy)]
struct Node<'s, 'a> {
    source: &'s Source<'a>,
    index: u32,
}

impl<'s, 'a> Node<'s, 'a> {
    fn part(&self) -> Part<'s, 'a> {
        self.source.part(self.index)
    }

    fn at(&self, part: Part<'_, 'a>) -> Self {
        Node { source: self.source, index: part.index() }
    }
}

impl Serialize for Node<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let part = self.part();
        let ty = part.element().variant_type();
        let (index, name) = tag(ty);
        match ty {
            VariantType::Array => {
                serializer.serialize_newtype_variant(VARIANT, index, name, &ArrayNode(*self))
            }
            VariantType::Dictionary => {
                serializer.serialize_newtype_variant(VARIANT, index, name, &DictionaryNode(*self))
            }
            _ => leaf_or_object(*self, index, name, serializer),
        }
    }
}

/// A value of a tape that is not an array or a dictionary.
#[inline(never)]
fn leaf_or_object<S: Serializer>(
    node: Node<'_, '_>,
    index: u32,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match node.part().value() {
        VariantRef::Object(ObjectRef::Full(_)) => {
            serializer.serialize_newtype_variant(VARIANT, index, name, &FullNode(node))
        }
        value => leaf(&value, index, name, serializer),
    }
}

/// The elements of a packed array, decoded from its little-endian bytes.
fn items<'a, T: PackedElement>(packed: &Packed<'a, T>) -> impl Iterator<Item = T> + Clone + 'a {
    packed.as_le_slice().iter().map(|&le| T::from_le(le))
}

/// Every variant but arrays, dictionaries and full objects (which are written from a tape).
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
        V::Object(object @ (ObjectRef::Null | ObjectRef::Id(_))) => newtype!(&ObjectSer(object)),
        V::Array(_) | V::Dictionary(_) | V::Object(ObjectRef::Full(_)) => {
            Err(S::Error::custom("a container is written from its tape"))
        }
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

struct ArrayNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for ArrayNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let VariantRef::Array(array) = self.0.part().value() else {
            return Err(S::Error::custom("not an array"));
        };
        let declared = element_type::<S::Error>(array.element_type())?;
        serialize_array(serializer, ElementsNode(self.0), declared)
    }
}

struct ElementsNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for ElementsNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let node = self.0;
        let part = node.part();
        let len = part.value().as_array().map_or(0, |array| array.len());
        let mut seq = serializer.serialize_seq(Some(len))?;
        for child in node.source.children(part) {
            seq.serialize_element(&node.at(child.map_err(fail)?))?;
        }
        seq.end()
    }
}

struct DictionaryNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for DictionaryNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let VariantRef::Dictionary(dictionary) = self.0.part().value() else {
            return Err(S::Error::custom("not a dictionary"));
        };
        let key_type = element_type::<S::Error>(dictionary.key_type())?;
        let value_type = element_type::<S::Error>(dictionary.value_type())?;
        serialize_dictionary(serializer, EntriesNode(self.0), key_type, value_type)
    }
}

/// A dictionary's entries as Godot decodes them: a repeated key keeps its first position and
/// key, and takes its last value.
struct EntriesNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for EntriesNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let node = self.0;
        let part = node.part();
        let entries = node.source.entries(part).map_err(fail)?;
        let wire_len = part.value().as_dictionary().map_or(0, |d| d.len());
        let mut seq = serializer.serialize_seq(Some(entries.kept_len().unwrap_or(wire_len)))?;
        for entry in entries {
            let (key, value) = entry.map_err(fail)?;
            seq.serialize_element(&Pair(&node.at(key), &node.at(value)))?;
        }
        seq.end()
    }
}

/// A null object or an object id.
struct ObjectSer<'a>(ObjectRef<'a>);

impl Serialize for ObjectSer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let [null, id, _] = OBJECT_NAMES;
        match self.0 {
            ObjectRef::Id(object_id) => {
                serializer.serialize_newtype_variant(OBJECT, 1, id, &object_id)
            }
            _ => serializer.serialize_unit_variant(OBJECT, 0, null),
        }
    }
}

/// A full object on a tape: its class and every property as on the wire.
struct FullNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for FullNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let VariantRef::Object(ObjectRef::Full(object)) = self.0.part().value() else {
            return Err(S::Error::custom("not a full object"));
        };
        let [_, _, full] = OBJECT_NAMES;
        let class = object.class_name().to_str().map_err(S::Error::custom)?;
        serialize_full_object(serializer, full, class, PropertiesNode(self.0))
    }
}

struct PropertiesNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for PropertiesNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let node = self.0;
        let part = node.part();
        let len = match part.value() {
            VariantRef::Object(ObjectRef::Full(object)) => object.len(),
            _ => 0,
        };
        let mut seq = serializer.serialize_seq(Some(len))?;
        for property in node.source.all_properties(part) {
            let (name, value) = property.map_err(fail)?;
            seq.serialize_element(&Pair(text::<S::Error>(&name)?, &node.at(value)))?;
        }
        seq.end()
    }
}
