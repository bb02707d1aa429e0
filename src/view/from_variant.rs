//! Typed getters: [`FromVariant`] and the `get_as` methods built on it.
//!
//! A typed getter has three outcomes, kept apart: `Ok(Some(value))`; `Ok(None)` when the key or
//! index is absent; `Err` when the data is malformed ([`Error::is_malformed`]) or is there but of
//! another type ([`ErrorKind::WrongType`], at the value's offset).

use super::array::ArrayRef;
use super::dictionary::DictionaryRef;
use super::element::Element;
use super::key::Key;
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

impl<'a> FromVariant<'a> for &'a str {
    const TYPE: VariantType = VariantType::String;
    fn from_variant(value: VariantRef<'a>) -> Option<Result<Self>> {
        value.as_gd_str().map(|s| s.to_str())
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

impl<'a> Element<'a> {
    /// The value as `T`.
    ///
    /// # Errors
    /// [`ErrorKind::WrongType`] at this element's offset, or a malformed value (such as a string
    /// that is not valid UTF-8).
    pub fn get_as<T: FromVariant<'a>>(&self) -> Result<T> {
        T::from_variant(self.value()).unwrap_or_else(|| {
            Err(Error::new(
                self.offset(),
                ErrorKind::WrongType { expected: T::TYPE, found: self.variant_type() },
            ))
        })
    }
}

impl<'a> DictionaryRef<'a> {
    /// The value of `key` as `T` (the last one if the key repeats); `Ok(None)` when absent.
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
