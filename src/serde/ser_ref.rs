//! `Serialize` for [`VariantRef`] and [`Element`]: the owned representation, read straight from
//! the buffer.
//!
//! A container is first read onto a tape ([`Source`]), one pass; the serializer then visits the
//! tape, each part once and its children in O(1) each, so the whole value costs O(n) plus the
//! repeated-key checks of [`dedup`](super::dedup), whatever the nesting. Each level of nesting
//! recurses through the serializer (serde's API is recursive); the frames of this file on that
//! path hold a reference and an index.

use ::serde::ser::{
    Error as _, Serialize, SerializeSeq, SerializeStruct, SerializeTuple, Serializer,
};

use alloc::borrow::Cow;

use crate::{ErrorKind, VariantType};

use super::repr::{
    ARRAY, ARRAY_FIELDS, Bytes, CodePointSeq, DICTIONARY, DICTIONARY_FIELDS, NODE_PATH, OBJECT,
    OBJECT_NAMES, Pair, SIGNAL, Seq, VARIANT, tag,
};
use super::ser_owned::serialize_full_object;
use super::source::{Siblings, Source};
use crate::view::packed::{PackedElement, PackedStringsIter};
use crate::view::tape::Part;
use crate::wire::exact_float::widen_exact;
use crate::{
    ElementType, VariantRef, packed::Packed, packed::PackedReals, view::ContainerType,
    view::Element, view::GdStr, view::NodePathRef, view::NodePathStrings, view::ObjectRef,
    view::SignalRef,
};

/// A malformed element met while serializing, as the serializer's error (its message carries
/// the byte offset). Never inlined: formatting the message takes stack that the recursive path
/// should not hold.
#[cold]
#[inline(never)]
fn fail<E: ::serde::ser::Error>(error: crate::Error) -> E {
    E::custom(error)
}

/// The text the game reads from a name (a class name, script path or signal name), or the
/// serializer's error.
fn text<'a, E: ::serde::ser::Error>(string: &GdStr<'a>) -> Result<Cow<'a, str>, E> {
    string.to_text().map_err(fail)
}

/// A string value (a `String`, `StringName`, NodePath name, `PackedStringArray` element), as the
/// owned [`GdString`](crate::owned::GdString) writes it: the text the game reads, or its code points
/// when `str` cannot hold them.
struct GameString<'a>(GdStr<'a>);

impl Serialize for GameString<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.to_text() {
            Ok(text) => serializer.serialize_str(&text),
            Err(error) if error.kind() == ErrorKind::NotUnicode => {
                CodePointSeq(self.0.code_points().map_err(fail)?).serialize(serializer)
            }
            Err(error) => Err(fail(error)),
        }
    }
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
        let ty = self.part().element().variant_type();
        let (index, name) = tag(ty);
        // Each kind in a function of its own, so that each level's frame is that kind's.
        match ty {
            VariantType::Array => array_node(*self, index, name, serializer),
            VariantType::Dictionary => dictionary_node(*self, index, name, serializer),
            _ => leaf_or_object(*self, index, name, serializer),
        }
    }
}

/// An array of a tape.
#[inline(never)]
fn array_node<S: Serializer>(
    node: Node<'_, '_>,
    index: u32,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_variant(VARIANT, index, name, &ArrayNode(node))
}

/// A dictionary of a tape.
#[inline(never)]
fn dictionary_node<S: Serializer>(
    node: Node<'_, '_>,
    index: u32,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_variant(VARIANT, index, name, &DictionaryNode(node))
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
        V::String(s) | V::StringName(s) => newtype!(&GameString(s)),
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
            seq.serialize_element(&GameString(string.map_err(fail)?))?;
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
        out.serialize_field("name", &text::<S::Error>(&self.0.name())?)?;
        out.serialize_field("object_id", &self.0.object_id())?;
        out.end()
    }
}

/// A container's declared type in the owned form, borrowing its names.
fn element_type<'a, E: ::serde::ser::Error>(
    declared: crate::Result<ContainerType<'a>>,
) -> Result<ElementType<Cow<'a, str>>, E> {
    Ok(match declared.map_err(fail)? {
        ContainerType::Untyped => ElementType::Untyped,
        ContainerType::Builtin(ty) => ElementType::Builtin(ty),
        ContainerType::ClassName(name) => ElementType::ClassName(text(&name)?),
        ContainerType::Script(path) => ElementType::Script(text(&path)?),
    })
}

struct ArrayNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for ArrayNode<'_, '_> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The calls of `serialize_array`, with nothing but the node living across the
        // elements (the declared type is read again after them).
        let node = self.0;
        let typed = declared::<S::Error>(node, Declared::Elements)?;
        let [elements_field, type_field] = ARRAY_FIELDS;
        let mut array = serializer.serialize_struct(ARRAY, if typed { 2 } else { 1 })?;
        array.serialize_field(elements_field, &ElementsNode(node))?;
        if typed {
            array.serialize_field(type_field, &DeclaredSer(node, Declared::Elements))?;
        } else {
            array.skip_field(type_field)?;
        }
        array.end()
    }
}

/// Which declared type of a container.
#[derive(Clone, Copy)]
enum Declared {
    Elements,
    Keys,
    Values,
}

/// A container's declared type, read from its head.
fn declared_type<'a>(node: Node<'_, 'a>, which: Declared) -> crate::Result<ContainerType<'a>> {
    match (node.part().value(), which) {
        (VariantRef::Array(array), _) => array.element_type(),
        (VariantRef::Dictionary(dictionary), Declared::Keys) => dictionary.key_type(),
        (VariantRef::Dictionary(dictionary), _) => dictionary.value_type(),
        _ => Ok(ContainerType::Untyped),
    }
}

/// Whether a container declares a type (for a dictionary, either type): checked in full (names
/// are text), written later by [`DeclaredSer`]. Outside the recursive path, so that what lives
/// across the children is a flag.
#[inline(never)]
fn declared<E: ::serde::ser::Error>(node: Node<'_, '_>, which: Declared) -> Result<bool, E> {
    let typed = |which| -> Result<bool, E> {
        Ok(element_type::<E>(declared_type(node, which))? != ElementType::Untyped)
    };
    match which {
        Declared::Elements => typed(Declared::Elements),
        _ => Ok(typed(Declared::Keys)? | typed(Declared::Values)?),
    }
}

/// A container's declared type, in the owned form.
struct DeclaredSer<'s, 'a>(Node<'s, 'a>, Declared);

impl Serialize for DeclaredSer<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        element_type::<S::Error>(declared_type(self.0, self.1))?.serialize(serializer)
    }
}

struct ElementsNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for ElementsNode<'_, '_> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let node = self.0;
        let part = node.part();
        let mut seq = serializer.serialize_seq(Some(wire_len(part)))?;
        let mut children = Siblings::of(part);
        while let Some(index) = next_child(node.source, &mut children).map_err(fail)? {
            seq.serialize_element(&Node { source: node.source, index })?;
        }
        seq.end()
    }
}

struct DictionaryNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for DictionaryNode<'_, '_> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The calls of `serialize_dictionary`, with nothing but the node living across the
        // entries.
        let node = self.0;
        let typed = declared::<S::Error>(node, Declared::Keys)?;
        let [entries_field, key_field, value_field] = DICTIONARY_FIELDS;
        let mut dictionary = serializer.serialize_struct(DICTIONARY, if typed { 3 } else { 1 })?;
        dictionary.serialize_field(entries_field, &EntriesNode(node))?;
        if typed {
            dictionary.serialize_field(key_field, &DeclaredSer(node, Declared::Keys))?;
            dictionary.serialize_field(value_field, &DeclaredSer(node, Declared::Values))?;
        } else {
            dictionary.skip_field(key_field)?;
            dictionary.skip_field(value_field)?;
        }
        dictionary.end()
    }
}

/// A dictionary's entries as Godot decodes them: a repeated key keeps its first position and
/// key, and takes its last value.
struct EntriesNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for EntriesNode<'_, '_> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let node = self.0;
        let (mut entries, len) = entries(node).map_err(fail)?;
        let mut seq = serializer.serialize_seq(Some(len))?;
        while let Some((key, value)) = next_entry(node.source, &mut entries).map_err(fail)? {
            seq.serialize_element(&EntryNode { source: node.source, key, value })?;
        }
        seq.end()
    }
}

/// The number of elements, entries or properties of a container, as its head declares.
#[inline(never)]
fn wire_len(part: Part<'_, '_>) -> usize {
    match part.value() {
        VariantRef::Array(array) => array.len(),
        VariantRef::Dictionary(dictionary) => dictionary.len(),
        VariantRef::Object(ObjectRef::Full(object)) => object.len(),
        _ => 0,
    }
}

/// A dictionary's entries as Godot decodes them, and how many there are. Outside the recursive
/// path (the plan's work and temporaries stay out of each level's frame).
#[inline(never)]
fn entries(node: Node<'_, '_>) -> crate::Result<(Siblings, usize)> {
    let part = node.part();
    let entries = node.source.entry_siblings(part)?;
    let len = entries.kept_len().unwrap_or_else(|| wire_len(part));
    Ok((entries, len))
}

/// The index of the next child. Outside the recursive path.
#[inline(never)]
fn next_child(source: &Source<'_>, children: &mut Siblings) -> crate::Result<Option<u32>> {
    children.next(source).transpose().map(|child| child.map(|part| part.index()))
}

/// The indices of the next entry's key and value. Outside the recursive path.
#[inline(never)]
fn next_entry(source: &Source<'_>, entries: &mut Siblings) -> crate::Result<Option<(u32, u32)>> {
    let entry = entries.next_pair(source).transpose()?;
    Ok(entry.map(|(key, value)| (key.index(), value.index())))
}

/// A dictionary entry on a tape, written as a `[key, value]` pair.
struct EntryNode<'s, 'a> {
    source: &'s Source<'a>,
    key: u32,
    value: u32,
}

impl Serialize for EntryNode<'_, '_> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&Node { source: self.source, index: self.key })?;
        tuple.serialize_element(&Node { source: self.source, index: self.value })?;
        tuple.end()
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
        let class = text::<S::Error>(&object.class_name())?;
        serialize_full_object(serializer, full, &class, PropertiesNode(self.0))
    }
}

struct PropertiesNode<'s, 'a>(Node<'s, 'a>);

impl Serialize for PropertiesNode<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let node = self.0;
        let part = node.part();
        let mut seq = serializer.serialize_seq(Some(wire_len(part)))?;
        for property in node.source.all_properties(part) {
            let (name, value) = property.map_err(fail)?;
            seq.serialize_element(&Pair(&*text::<S::Error>(&name)?, &node.at(value)))?;
        }
        seq.end()
    }
}
