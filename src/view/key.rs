//! [`Key`]: what a dictionary lookup or a path step looks for, matched with Godot's key equality.
//!
//! Godot compares dictionary keys by type, then by value (checked against both engines, see
//! `corpus/probes/dict-keys`): `1` (int) and `1.0` (float) are different keys, and so are `0`
//! and `false`; floats compare with `==` except that NaN equals NaN (so `0.0` and `-0.0` are the
//! same key); strings compare by the text the game reads (after Godot's BOM and NUL handling;
//! a Godot 3 key spelled with overlong forms, `E0 81 B4 "ype"`, is the key `"type"`,
//! `corpus/probes/strings`), and in Godot 4 a `String` and a `StringName` with the same text are
//! the same key.
//!
//! Typed dictionaries (Godot 4.4+) convert keys to their declared type while decoding (a float
//! key of a `Dictionary[int, V]` is truncated to an int, a key that cannot convert is dropped);
//! lookups here compare the keys as they are on the wire.

use super::element::Element;
use super::value::VariantRef;
use crate::wire::types::VariantType;

/// A dictionary key or path step to look for.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Key<'k> {
    /// `null`.
    Nil,
    /// A `bool` key.
    Bool(bool),
    /// An `int` key; in a path, an index into an array.
    Int(i64),
    /// A `float` key.
    Float(f64),
    /// A `String` or `StringName` key (the same key to Godot 4). Also a property name when a
    /// path reaches a full object.
    String(&'k str),
}

impl Key<'_> {
    /// Whether `value` is this key, by Godot's rules.
    pub fn matches(&self, value: &VariantRef<'_>) -> bool {
        match (*self, value) {
            (Key::Nil, VariantRef::Nil) => true,
            (Key::Bool(a), VariantRef::Bool(b)) => a == *b,
            (Key::Int(a), VariantRef::Int(b)) => a == *b,
            (Key::Float(a), VariantRef::Float(b)) => a == *b || (a.is_nan() && b.is_nan()),
            (Key::String(a), VariantRef::String(b) | VariantRef::StringName(b)) => b.eq_str(a),
            _ => false,
        }
    }
}

impl Key<'_> {
    /// [`matches`](Self::matches) on an element, reading only what the comparison needs.
    pub(crate) fn matches_element(&self, element: &Element<'_>) -> bool {
        match (*self, element.variant_type()) {
            (Key::String(text), VariantType::String | VariantType::StringName) => {
                element.string().is_some_and(|s| s.eq_str(text))
            }
            (Key::String(_), _) => false,
            _ => self.matches(&element.value()),
        }
    }
}

impl<'k> From<&'k str> for Key<'k> {
    fn from(text: &'k str) -> Self {
        Key::String(text)
    }
}

impl From<i64> for Key<'_> {
    fn from(value: i64) -> Self {
        Key::Int(value)
    }
}

impl From<i32> for Key<'_> {
    fn from(value: i32) -> Self {
        Key::Int(i64::from(value))
    }
}

impl From<u32> for Key<'_> {
    fn from(value: u32) -> Self {
        Key::Int(i64::from(value))
    }
}

impl From<bool> for Key<'_> {
    fn from(value: bool) -> Self {
        Key::Bool(value)
    }
}

impl From<f64> for Key<'_> {
    fn from(value: f64) -> Self {
        Key::Float(value)
    }
}
