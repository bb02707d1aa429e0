//! [`Variant`]: one owned Godot value of either version.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Array, Dictionary, GdString, NodePath, Object, Signal};
use crate::VariantType;
use crate::view::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2,
    Vector3, Vector4,
};

/// One Godot value, owned.
///
/// The owned twin of [`VariantRef`](crate::VariantRef), with the same variants. Real-valued math
/// types hold `f64` components (exact for the `f32` of single-precision builds, see the
/// [module docs](crate::owned)); every payload larger than 24 bytes is boxed (the math types of
/// 32 bytes and more, `NodePath`, `Signal`, arrays, dictionaries, and a full object's class and
/// properties), which keeps a
/// `Variant` at 32 bytes on 64-bit targets: the scalars, strings of up to 22 bytes, `Vector2`,
/// `Vector3`, `Color` and the packed arrays sit in place, and a dictionary entry is 64 bytes.
/// `Variant::from` boxes for you (`Variant::from(Rect2 { .. })`, `Variant::from(array)`), and
/// a boxed payload matches through `*`/`**` (`Variant::Rect2(r) => r.size`).
/// `PartialEq` compares structurally with `f64` equality (so a NaN is not equal to
/// itself); [`Variant::same`] compares bit for bit, and [`Dictionary`] keys use Godot's key
/// equality.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Variant {
    /// `null`.
    #[default]
    Nil,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `float`.
    Float(f64),
    /// `String`.
    String(GdString),
    /// `Vector2`.
    Vector2(Vector2<f64>),
    /// `Vector2i` (Godot 4).
    Vector2i(Vector2<i32>),
    /// `Rect2`.
    Rect2(Box<Rect2<f64>>),
    /// `Rect2i` (Godot 4).
    Rect2i(Rect2<i32>),
    /// `Vector3`.
    Vector3(Vector3<f64>),
    /// `Vector3i` (Godot 4).
    Vector3i(Vector3<i32>),
    /// `Transform2D`.
    Transform2D(Box<Transform2D<f64>>),
    /// `Vector4` (Godot 4).
    Vector4(Box<Vector4<f64>>),
    /// `Vector4i` (Godot 4).
    Vector4i(Vector4<i32>),
    /// `Plane`.
    Plane(Box<Plane<f64>>),
    /// `Quaternion` (Godot 3: `Quat`).
    Quaternion(Box<Quaternion<f64>>),
    /// `AABB`.
    Aabb(Box<Aabb<f64>>),
    /// `Basis`.
    Basis(Box<Basis<f64>>),
    /// `Transform3D` (Godot 3: `Transform`).
    Transform3D(Box<Transform3D<f64>>),
    /// `Projection` (Godot 4).
    Projection(Box<Projection<f64>>),
    /// `Color` (always `f32`).
    Color(Color<f32>),
    /// `StringName` (Godot 4).
    StringName(GdString),
    /// `NodePath`.
    NodePath(Box<NodePath>),
    /// `RID`: its id (Godot 3 does not put the id on the wire: it reads as 0 and is not written).
    Rid(u64),
    /// `Object`.
    Object(Object),
    /// `Callable` (Godot 4): Godot writes the header alone, so there is nothing to hold.
    Callable,
    /// `Signal` (Godot 4).
    Signal(Box<Signal>),
    /// `Dictionary` (boxed: with its declared types it is larger than the other payloads).
    Dictionary(Box<Dictionary>),
    /// `Array` (boxed: with its element type it is larger than the other payloads).
    Array(Box<Array>),
    /// `PackedByteArray` (Godot 3: `PoolByteArray`).
    PackedByteArray(Vec<u8>),
    /// `PackedInt32Array` (Godot 3: `PoolIntArray`).
    PackedInt32Array(Vec<i32>),
    /// `PackedInt64Array` (Godot 4).
    PackedInt64Array(Vec<i64>),
    /// `PackedFloat32Array` (Godot 3: `PoolRealArray`).
    PackedFloat32Array(Vec<f32>),
    /// `PackedFloat64Array` (Godot 4).
    PackedFloat64Array(Vec<f64>),
    /// `PackedStringArray` (Godot 3: `PoolStringArray`).
    PackedStringArray(Vec<GdString>),
    /// `PackedVector2Array` (Godot 3: `PoolVector2Array`).
    PackedVector2Array(Vec<Vector2<f64>>),
    /// `PackedVector3Array` (Godot 3: `PoolVector3Array`).
    PackedVector3Array(Vec<Vector3<f64>>),
    /// `PackedColorArray` (Godot 3: `PoolColorArray`).
    PackedColorArray(Vec<Color<f32>>),
    /// `PackedVector4Array` (Godot 4.3+).
    PackedVector4Array(Vec<Vector4<f64>>),
}

// The size the docs promise, on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<Variant>() == 32);

impl Variant {
    /// The value's type.
    pub fn variant_type(&self) -> VariantType {
        use Variant as V;
        match self {
            V::Nil => VariantType::Nil,
            V::Bool(_) => VariantType::Bool,
            V::Int(_) => VariantType::Int,
            V::Float(_) => VariantType::Float,
            V::String(_) => VariantType::String,
            V::Vector2(_) => VariantType::Vector2,
            V::Vector2i(_) => VariantType::Vector2i,
            V::Rect2(_) => VariantType::Rect2,
            V::Rect2i(_) => VariantType::Rect2i,
            V::Vector3(_) => VariantType::Vector3,
            V::Vector3i(_) => VariantType::Vector3i,
            V::Transform2D(_) => VariantType::Transform2D,
            V::Vector4(_) => VariantType::Vector4,
            V::Vector4i(_) => VariantType::Vector4i,
            V::Plane(_) => VariantType::Plane,
            V::Quaternion(_) => VariantType::Quaternion,
            V::Aabb(_) => VariantType::Aabb,
            V::Basis(_) => VariantType::Basis,
            V::Transform3D(_) => VariantType::Transform3D,
            V::Projection(_) => VariantType::Projection,
            V::Color(_) => VariantType::Color,
            V::StringName(_) => VariantType::StringName,
            V::NodePath(_) => VariantType::NodePath,
            V::Rid(_) => VariantType::Rid,
            V::Object(_) => VariantType::Object,
            V::Callable => VariantType::Callable,
            V::Signal(_) => VariantType::Signal,
            V::Dictionary(_) => VariantType::Dictionary,
            V::Array(_) => VariantType::Array,
            V::PackedByteArray(_) => VariantType::PackedByteArray,
            V::PackedInt32Array(_) => VariantType::PackedInt32Array,
            V::PackedInt64Array(_) => VariantType::PackedInt64Array,
            V::PackedFloat32Array(_) => VariantType::PackedFloat32Array,
            V::PackedFloat64Array(_) => VariantType::PackedFloat64Array,
            V::PackedStringArray(_) => VariantType::PackedStringArray,
            V::PackedVector2Array(_) => VariantType::PackedVector2Array,
            V::PackedVector3Array(_) => VariantType::PackedVector3Array,
            V::PackedColorArray(_) => VariantType::PackedColorArray,
            V::PackedVector4Array(_) => VariantType::PackedVector4Array,
        }
    }

    /// Whether the value is `null` or a null object.
    pub fn is_nil(&self) -> bool {
        matches!(self, Variant::Nil | Variant::Object(Object::Null))
    }

    /// The `bool`, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Variant::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The `int`, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match *self {
            Variant::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The `float`, if this is one.
    pub fn as_float(&self) -> Option<f64> {
        match *self {
            Variant::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The text, if this is a `String` or a `StringName` whose code points a Rust `str` can
    /// hold (always so for Godot 4; see [`as_gd_string`](Self::as_gd_string) for the others).
    pub fn as_str(&self) -> Option<&str> {
        self.as_gd_string().and_then(GdString::as_str)
    }

    /// The string, if this is a `String` or a `StringName`.
    pub fn as_gd_string(&self) -> Option<&GdString> {
        match self {
            Variant::String(s) | Variant::StringName(s) => Some(s),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Variant::Array(a) => Some(&**a),
            _ => None,
        }
    }

    /// The array, mutably, if this is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Variant::Array(a) => Some(&mut **a),
            _ => None,
        }
    }

    /// The dictionary, if this is one.
    pub fn as_dictionary(&self) -> Option<&Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(&**d),
            _ => None,
        }
    }

    /// The dictionary, mutably, if this is one.
    pub fn as_dictionary_mut(&mut self) -> Option<&mut Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(&mut **d),
            _ => None,
        }
    }

    /// Whether `self` and `other` are the same value bit for bit: same types, same `f32`/`f64`
    /// bits (so a NaN equals the same NaN, and `0.0` differs from `-0.0`), dictionaries with the
    /// same entries in the same order. O(size of the values); iterative (no recursion however
    /// deep the values are).
    pub fn same(&self, other: &Variant) -> bool {
        super::deep::same(self, other)
    }
}

macro_rules! from_impls {
    ($($from:ty => |$v:ident| $make:expr),* $(,)?) => {$(
        impl From<$from> for Variant {
            fn from($v: $from) -> Self {
                $make
            }
        }
    )*};
}

from_impls! {
    bool => |v| Variant::Bool(v),
    i64 => |v| Variant::Int(v),
    i32 => |v| Variant::Int(i64::from(v)),
    u32 => |v| Variant::Int(i64::from(v)),
    f64 => |v| Variant::Float(v),
    f32 => |v| Variant::Float(f64::from(v)),
    String => |v| Variant::String(GdString::from(v)),
    &str => |v| Variant::String(GdString::from(v)),
    GdString => |v| Variant::String(v),
    Vector2<f64> => |v| Variant::Vector2(v),
    Vector2<i32> => |v| Variant::Vector2i(v),
    Rect2<f64> => |v| Variant::Rect2(Box::new(v)),
    Rect2<i32> => |v| Variant::Rect2i(v),
    Vector3<f64> => |v| Variant::Vector3(v),
    Vector3<i32> => |v| Variant::Vector3i(v),
    Transform2D<f64> => |v| Variant::Transform2D(Box::new(v)),
    Vector4<f64> => |v| Variant::Vector4(Box::new(v)),
    Vector4<i32> => |v| Variant::Vector4i(v),
    Plane<f64> => |v| Variant::Plane(Box::new(v)),
    Quaternion<f64> => |v| Variant::Quaternion(Box::new(v)),
    Aabb<f64> => |v| Variant::Aabb(Box::new(v)),
    Basis<f64> => |v| Variant::Basis(Box::new(v)),
    Transform3D<f64> => |v| Variant::Transform3D(Box::new(v)),
    Projection<f64> => |v| Variant::Projection(Box::new(v)),
    Color<f32> => |v| Variant::Color(v),
    NodePath => |v| Variant::NodePath(Box::new(v)),
    Object => |v| Variant::Object(v),
    Signal => |v| Variant::Signal(Box::new(v)),
    Array => |v| Variant::Array(Box::new(v)),
    Box<Array> => |v| Variant::Array(v),
    Dictionary => |v| Variant::Dictionary(Box::new(v)),
    Box<Dictionary> => |v| Variant::Dictionary(v),
    Vec<Variant> => |v| Variant::Array(Box::new(Array::from(v))),
    Vec<u8> => |v| Variant::PackedByteArray(v),
    Vec<i32> => |v| Variant::PackedInt32Array(v),
    Vec<i64> => |v| Variant::PackedInt64Array(v),
    Vec<f32> => |v| Variant::PackedFloat32Array(v),
    Vec<f64> => |v| Variant::PackedFloat64Array(v),
    Vec<String> => |v| Variant::PackedStringArray(v.into_iter().map(GdString::from).collect()),
    Vec<GdString> => |v| Variant::PackedStringArray(v),
}

impl<T: Into<Variant>> From<Option<T>> for Variant {
    /// `None` is `Nil`.
    fn from(value: Option<T>) -> Self {
        value.map_or(Variant::Nil, Into::into)
    }
}
