//! The names and shapes of the lossless representation, shared by the owned and the borrowed
//! serializers (which must agree call for call) and by the owned deserializer.

use ::serde::ser::{Serialize, SerializeSeq, SerializeTuple, Serializer};

use crate::{VariantType, Version, view::CodePoints};

/// The enum name of a `Variant`.
pub(crate) const VARIANT: &str = "Variant";

/// The variant names, indexed by the variant index, which is Godot 4's type id.
pub(crate) const VARIANT_NAMES: [&str; 39] = [
    "Nil",
    "Bool",
    "Int",
    "Float",
    "String",
    "Vector2",
    "Vector2i",
    "Rect2",
    "Rect2i",
    "Vector3",
    "Vector3i",
    "Transform2D",
    "Vector4",
    "Vector4i",
    "Plane",
    "Quaternion",
    "Aabb",
    "Basis",
    "Transform3D",
    "Projection",
    "Color",
    "StringName",
    "NodePath",
    "Rid",
    "Object",
    "Callable",
    "Signal",
    "Dictionary",
    "Array",
    "PackedByteArray",
    "PackedInt32Array",
    "PackedInt64Array",
    "PackedFloat32Array",
    "PackedFloat64Array",
    "PackedStringArray",
    "PackedVector2Array",
    "PackedVector3Array",
    "PackedColorArray",
    "PackedVector4Array",
];

/// The enum name of an `Object`, and its variants.
pub(crate) const OBJECT: &str = "Object";
pub(crate) const OBJECT_NAMES: [&str; 3] = ["Null", "Id", "Full"];
/// The fields of `Object::Full`.
pub(crate) const FULL_FIELDS: [&str; 2] = ["class", "properties"];

/// The struct name and fields of an `Array`.
pub(crate) const ARRAY: &str = "Array";
pub(crate) const ARRAY_FIELDS: [&str; 2] = ["elements", "element_type"];

/// The struct name and fields of a `Dictionary`.
pub(crate) const DICTIONARY: &str = "Dictionary";
pub(crate) const DICTIONARY_FIELDS: [&str; 3] = ["entries", "key_type", "value_type"];

/// The struct name and fields of a `NodePath` and a `Signal` (as their derives write them).
pub(crate) const NODE_PATH: &str = "NodePath";
pub(crate) const SIGNAL: &str = "Signal";

/// The variant index and name of a value of type `ty`.
pub(crate) fn tag(ty: VariantType) -> (u32, &'static str) {
    // Every type has a Godot 4 id, and the names follow that order.
    let index = ty.id(Version::Godot4).unwrap_or(0);
    let name = VARIANT_NAMES.get(usize::from(index)).copied().unwrap_or("Nil");
    (u32::from(index), name)
}

/// The type of variant `index`.
pub(crate) fn type_of(index: u32) -> Option<VariantType> {
    VariantType::from_id(Version::Godot4, index)
}

/// A pair written as a 2-tuple: a dictionary entry or an object property.
pub(crate) struct Pair<'p, A: ?Sized, B: ?Sized>(pub(crate) &'p A, pub(crate) &'p B);

impl<A: Serialize + ?Sized, B: Serialize + ?Sized> Serialize for Pair<'_, A, B> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(self.0)?;
        tuple.serialize_element(self.1)?;
        tuple.end()
    }
}

/// A `PackedByteArray`, written with `serialize_bytes`.
pub(crate) struct Bytes<'b>(pub(crate) &'b [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A sequence of known length from an iterator that can be restarted (cloned).
pub(crate) struct Seq<I>(pub(crate) usize, pub(crate) I);

impl<I> Serialize for Seq<I>
where
    I: Iterator + Clone,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0))?;
        for item in self.1.clone() {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }
}

/// The code points of a string Rust's `str` cannot hold (a Godot 3 string with surrogates or
/// values above U+10FFFF), written as a sequence of `u32`: the lossless form of such a string.
pub(crate) struct CodePointSeq<'a>(pub(crate) CodePoints<'a>);

impl Serialize for CodePointSeq<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.clone().count()))?;
        for point in self.0.clone() {
            seq.serialize_element(&point)?;
        }
        seq.end()
    }
}
