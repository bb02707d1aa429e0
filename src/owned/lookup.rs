//! [`LookupKey`]: what an owned [`Dictionary`](super::Dictionary) lookup takes: an owned key, or
//! the same keys a lazy [`DictionaryRef`](crate::view::DictionaryRef) lookup takes (`"hp"`, `3`,
//! `true`, a [`Key`]).

use alloc::borrow::Cow;

use super::{GdString, Variant};
use crate::view::key::Key;

/// A key to look up in an owned dictionary: `&Variant`, or anything a [`Key`] is made from
/// (`&str`, `i64`, `i32`, `u32`, `bool`, `f64`). Compared with Godot's key rules, as
/// every owned lookup is: `"hp"` finds a `String` or a `StringName` key `hp` (Godot 4), `1`
/// finds the `int` 1 and not the `float` 1.0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LookupKey<'k> {
    /// An owned key.
    Value(&'k Variant),
    /// A key of the lazy API.
    Key(Key<'k>),
}

impl<'k> LookupKey<'k> {
    /// The key as an owned value: borrowed for [`LookupKey::Value`], built for
    /// [`LookupKey::Key`] (a string key is copied once, O(length)).
    pub(crate) fn to_variant(self) -> Cow<'k, Variant> {
        match self {
            LookupKey::Value(value) => Cow::Borrowed(value),
            LookupKey::Key(key) => Cow::Owned(from_key(key)),
        }
    }
}

/// The owned value of a lazy key.
pub(crate) fn from_key(key: Key<'_>) -> Variant {
    match key {
        Key::Nil => Variant::Nil,
        Key::Bool(b) => Variant::Bool(b),
        Key::Int(i) => Variant::Int(i),
        Key::Float(f) => Variant::Float(f),
        Key::String(text) => Variant::String(GdString::from(text)),
    }
}

impl<'k> From<&'k Variant> for LookupKey<'k> {
    fn from(value: &'k Variant) -> Self {
        LookupKey::Value(value)
    }
}

impl<'k> From<Key<'k>> for LookupKey<'k> {
    fn from(key: Key<'k>) -> Self {
        LookupKey::Key(key)
    }
}

impl<'k> From<&'k str> for LookupKey<'k> {
    fn from(text: &'k str) -> Self {
        LookupKey::Key(Key::String(text))
    }
}

/// Keys made from plain values.
macro_rules! plain_keys {
    ($($ty:ty),*) => {$(
        impl From<$ty> for LookupKey<'_> {
            fn from(value: $ty) -> Self {
                LookupKey::Key(Key::from(value))
            }
        }
    )*};
}

plain_keys!(i64, i32, u32, bool, f64);
