//! Typed getters: [`FromVariant`] and the `get_as` methods built on it.
//!
//! A typed getter has three outcomes, kept apart: `Ok(Some(value))`; `Ok(None)` when the key or
//! index is absent; `Err` when the data is malformed ([`Error::is_malformed`]) or is there but of
//! another type ([`ErrorKind::WrongType`], at the value's offset), or does not fit the Rust type
//! ([`ErrorKind::OutOfRange`]: an `int` read as `i32` or `u32`, a `float` as `f32`).
//!
//! | Rust type | Godot type |
//! | --- | --- |
//! | `bool`; `i64`, `i32`, `u32`; `f64`, `f32` | `bool`; `int`; `float` |
//! | `&str` (the bytes, borrowed), `Cow<str>` and `String` (feature `alloc`: the text the game reads), [`GdStr`] | `String` or `StringName` |
//! | `Vector2<f64>` (any precision on the wire), `Vector2<f32>` (bit for bit from single precision, range-checked from double); the same for `Rect2`, `Vector3`, `Transform2D`, `Vector4`, `Plane`, `Quaternion`, `Aabb`, `Basis`, `Transform3D`, `Projection` | the real-valued math type |
//! | `Vector2<i32>`, `Rect2<i32>`, `Vector3<i32>`, `Vector4<i32>` | `Vector2i`, `Rect2i`, `Vector3i`, `Vector4i` |
//! | `Color<f32>` | `Color` |
//! | [`NodePathRef`], [`ArrayRef`], [`DictionaryRef`] | `NodePath`, `Array`, `Dictionary` |
//! | `&[u8]`, `Packed<i32>`, `Packed<i64>`, `Packed<f32>`, `Packed<f64>`, [`PackedStrings`], `PackedReals<Vector2<f32>, Vector2<f64>>` (and `Vector3`, `Vector4`), `Packed<Color<f32>>` | the packed array (Godot 3: the pool array) of that element |
//!
//! Every conversion is O(1), except the texts (O(length): the text is checked).
//!
//! A Godot 3 string may spell characters with overlong forms, which the game reads as the
//! characters they encode; no `&str` of the buffer holds that text, so `&str` fails with
//! [`ErrorKind::Overlong`] (not [`ErrorKind::WrongType`]: the value is a string) and
//! `Cow<str>` gives the text, owned. Surrogates and code points above U+10FFFF fail all three
//! with [`ErrorKind::NotUnicode`]; read those with [`GdStr::code_points`].
//!
//! **`get_as::<&str>` is not for decisions.** `matches!(d.get_as::<&str>("cmd"),
//! Ok(Some("shutdown_server")))` is false for a Godot 3 value spelled with overlong forms, which
//! the game reads as `shutdown_server`: a filter written so forwards it. To ask whether a field
//! is some text (or any value), use [`DictionaryRef::get_is`] (the last of repeated keys, as in
//! Godot; an `Err` to decide on when the dictionary cannot be read) or
//! [`VariantRef::is_text`]; to read the game's text, `Cow<str>` or `String`.

use super::array::ArrayRef;
use super::dictionary::DictionaryRef;
use super::element::Element;
use super::key::Key;
use super::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2,
    Vector3, Vector4,
};
use super::node_path::NodePathRef;
use super::packed::{Packed, PackedReals, PackedStrings};
use super::string::GdStr;
use super::value::VariantRef;
use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::types::VariantType;

/// A Rust type a [`VariantRef`] converts to.
pub trait FromVariant<'a>: Sized {
    /// The Godot type converted from, named in [`ErrorKind::WrongType`].
    const TYPE: VariantType;

    /// `None` when `value` is of another type; `Some(Err)` when it is malformed.
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>>;
}

/// Any value converts to itself; `TYPE` is never reported.
impl<'a> FromVariant<'a> for VariantRef<'a> {
    const TYPE: VariantType = VariantType::Nil;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        Some(Ok(value))
    }
}

impl FromVariant<'_> for bool {
    const TYPE: VariantType = VariantType::Bool;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_bool().map(Ok)
    }
}

impl FromVariant<'_> for i64 {
    const TYPE: VariantType = VariantType::Int;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_int().map(Ok)
    }
}

impl FromVariant<'_> for f64 {
    const TYPE: VariantType = VariantType::Float;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_float().map(Ok)
    }
}

impl<'a> FromVariant<'a> for GdStr<'a> {
    const TYPE: VariantType = VariantType::String;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        value.as_gd_str().map(Ok)
    }
}

/// The bytes as a borrowed `str` ([`GdStr::to_str`]): to forward or store them, **not** to
/// compare (a Godot 3 string the game reads as some text may fail here with
/// [`ErrorKind::Overlong`]; compare with [`VariantRef::is_text`] or [`DictionaryRef::get_is`]).
impl<'a> FromVariant<'a> for &'a str {
    const TYPE: VariantType = VariantType::String;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        value.as_gd_str().map(|s| s.to_str())
    }
}

/// The text the game reads ([`GdStr::to_text`]): borrowed from the buffer when it is there.
#[cfg(feature = "alloc")]
impl<'a> FromVariant<'a> for alloc::borrow::Cow<'a, str> {
    const TYPE: VariantType = VariantType::String;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        value.as_gd_str().map(|s| s.to_text())
    }
}

/// The text the game reads ([`GdStr::to_text`]), owned.
#[cfg(feature = "alloc")]
impl FromVariant<'_> for alloc::string::String {
    const TYPE: VariantType = VariantType::String;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_gd_str().map(|s| s.to_text().map(alloc::borrow::Cow::into_owned))
    }
}

impl<'a> FromVariant<'a> for ArrayRef<'a> {
    const TYPE: VariantType = VariantType::Array;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        value.as_array().map(Ok)
    }
}

impl<'a> FromVariant<'a> for DictionaryRef<'a> {
    const TYPE: VariantType = VariantType::Dictionary;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        value.as_dictionary().map(Ok)
    }
}

/// An [`ErrorKind::OutOfRange`] error; [`Element::get_as`] puts it at the value's offset.
fn out_of_range(found: VariantType) -> Error {
    Error::new(0, ErrorKind::OutOfRange { found })
}

impl FromVariant<'_> for i32 {
    const TYPE: VariantType = VariantType::Int;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_int().map(|i| i32::try_from(i).map_err(|_| out_of_range(Self::TYPE)))
    }
}

impl FromVariant<'_> for u32 {
    const TYPE: VariantType = VariantType::Int;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_int().map(|i| u32::try_from(i).map_err(|_| out_of_range(Self::TYPE)))
    }
}

/// `x` as the nearest `f32`; `None` when a finite `x` lies beyond `f32`'s range (infinities and
/// NaN convert as they are).
fn narrow(x: f64) -> Option<f32> {
    #[allow(clippy::cast_possible_truncation)]
    let y = x as f32;
    (y.is_finite() || !x.is_finite()).then_some(y)
}

impl FromVariant<'_> for f32 {
    const TYPE: VariantType = VariantType::Float;
    fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
        value.as_float().map(|x| narrow(x).ok_or_else(|| out_of_range(Self::TYPE)))
    }
}

/// [`FromVariant`] for a real-valued math type: `f64` components from either precision, `f32`
/// ones bit for bit from single precision and range-checked from double.
macro_rules! from_reals {
    ($($variant:ident => $ty:ident),* $(,)?) => {$(
        impl FromVariant<'_> for $ty<f64> {
            const TYPE: VariantType = VariantType::$variant;
            fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
                match value {
                    VariantRef::$variant(reals) => Some(Ok(reals.get())),
                    _ => None,
                }
            }
        }

        impl FromVariant<'_> for $ty<f32> {
            const TYPE: VariantType = VariantType::$variant;
            fn from_variant(value: VariantRef<'_>) -> Option<Result<Self>> {
                let VariantRef::$variant(reals) = value else { return None };
                Some(reals.get_f32().map_or_else(
                    || {
                        let mut fits = true;
                        let single = reals.get().map(|x| {
                            let y = narrow(x);
                            fits &= y.is_some();
                            y.unwrap_or(0.0)
                        });
                        if fits { Ok(single) } else { Err(out_of_range(Self::TYPE)) }
                    },
                    Ok,
                ))
            }
        }
    )*};
}

from_reals!(
    Vector2 => Vector2,
    Rect2 => Rect2,
    Vector3 => Vector3,
    Transform2D => Transform2D,
    Vector4 => Vector4,
    Plane => Plane,
    Quaternion => Quaternion,
    Aabb => Aabb,
    Basis => Basis,
    Transform3D => Transform3D,
    Projection => Projection,
);

/// [`FromVariant`] for a type a [`VariantRef`] variant holds as it is.
macro_rules! from_held {
    ($($variant:ident => $ty:ty),* $(,)?) => {$(
        impl<'a> FromVariant<'a> for $ty {
            const TYPE: VariantType = VariantType::$variant;
            fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
                match value {
                    VariantRef::$variant(held) => Some(Ok(held)),
                    _ => None,
                }
            }
        }
    )*};
}

from_held!(
    Vector2i => Vector2<i32>,
    Rect2i => Rect2<i32>,
    Vector3i => Vector3<i32>,
    Vector4i => Vector4<i32>,
    Color => Color<f32>,
    NodePath => NodePathRef<'a>,
    PackedByteArray => &'a [u8],
    PackedInt32Array => Packed<'a, i32>,
    PackedInt64Array => Packed<'a, i64>,
    PackedFloat32Array => Packed<'a, f32>,
    PackedFloat64Array => Packed<'a, f64>,
    PackedStringArray => PackedStrings<'a>,
    PackedVector2Array => PackedReals<'a, Vector2<f32>, Vector2<f64>>,
    PackedVector3Array => PackedReals<'a, Vector3<f32>, Vector3<f64>>,
    PackedColorArray => Packed<'a, Color<f32>>,
    PackedVector4Array => PackedReals<'a, Vector4<f32>, Vector4<f64>>,
);

impl<'a> VariantRef<'a> {
    /// The bytes of a `String` or `StringName` as a borrowed `str` ([`GdStr::to_str`]), when this
    /// is one and they are standard UTF-8: always so in a validated Godot 4 value. A Godot 3
    /// string may spell its text with overlong forms, or hold code points `str` cannot; then
    /// this is `None`: compare with [`GdStr::eq_str`], or read the game's text with
    /// [`GdStr::to_text`] (through [`as_gd_str`](Self::as_gd_str)). O(length).
    pub fn as_str(&self) -> Option<&'a str> {
        self.as_gd_str().and_then(|text| text.to_str().ok())
    }
}

impl<'a> Element<'a> {
    /// The value as `T`.
    ///
    /// # Errors
    /// [`ErrorKind::WrongType`] at this element's offset, or a malformed value (such as a string
    /// that is not valid UTF-8).
    pub fn get_as<T: FromVariant<'a>>(&self) -> Result<T> {
        T::from_variant(self.value())
            .unwrap_or_else(|| {
                Err(Error::new(
                    self.offset(),
                    ErrorKind::WrongType { expected: T::TYPE, found: self.variant_type() },
                ))
            })
            .map_err(|error| match error.kind() {
                // Made without knowing where the value is.
                ErrorKind::OutOfRange { .. } => Error::new(self.offset(), error.kind()),
                _ => error,
            })
    }
}

impl<'a> DictionaryRef<'a> {
    /// The value of `key` as `T` (the last one if the key repeats); `Ok(None)` when absent.
    ///
    /// **Not for decisions on text.** `get_as::<&str>` gives the bytes as they are, and fails
    /// ([`ErrorKind::Overlong`]) on a Godot 3 string spelled with overlong forms that the game
    /// reads as ordinary text: `matches!(d.get_as::<&str>("cmd"), Ok(Some("shutdown_server")))`
    /// is false for a command the game obeys, so a filter written so fails open. Ask
    /// [`get_is`](Self::get_is) instead (`d.get_is("cmd", "shutdown_server")`), or read the
    /// game's text with `get_as::<Cow<str>>`.
    ///
    /// # Errors
    /// A malformed entry, or [`ErrorKind::WrongType`] when the value is not a `T`.
    pub fn get_as<'k, T: FromVariant<'a>>(&self, key: impl Into<Key<'k>>) -> Result<Option<T>> {
        self.get_element(key)?.map(|e| e.get_as()).transpose()
    }
}

impl<'a> ArrayRef<'a> {
    /// Element `index` as `T`; `Ok(None)` past the end.
    ///
    /// # Errors
    /// A malformed element, or [`ErrorKind::WrongType`] when it is not a `T`.
    pub fn get_as<T: FromVariant<'a>>(&self, index: usize) -> Result<Option<T>> {
        self.get_element(index)?.map(|e| e.get_as()).transpose()
    }
}
