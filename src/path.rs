//! Path lookup: following keys and indices down a tree, such as `["players", 3, "pos"]`.
//!
//! Each step costs what the container's lookup costs (a dictionary step scans the whole
//! dictionary, because the last of repeated keys wins).

use crate::VariantType;
use crate::element::Element;
use crate::error::{Error, ErrorKind, Result};
use crate::key::Key;
use crate::object::ObjectRef;
use crate::value::VariantRef;

impl<'a> Element<'a> {
    /// Follows `path` from this value: a dictionary step looks up the key, an array step takes
    /// [`Key::Int`] as an index, a full-object step takes [`Key::String`] as a property name.
    /// `Ok(None)` when a key, index or property is absent; an empty path gives this element.
    ///
    /// # Errors
    /// A malformed value on the way, or [`ErrorKind::WrongType`] at the offset of a value that
    /// the path tries to step into but that is not a container.
    pub fn lookup(&self, path: &[Key<'_>]) -> Result<Option<Element<'a>>> {
        if path.is_empty() {
            return Ok(Some(*self));
        }
        follow(self.value(), self.offset(), path)
    }
}

impl<'a> VariantRef<'a> {
    /// Follows `path` (see [`Element::lookup`]) from this value; an empty path gives the value.
    ///
    /// # Errors
    /// As [`Element::lookup`]; a wrong-type error on this value itself carries the offset of
    /// the container, or 0 for a scalar (a `VariantRef` does not know where it sits).
    pub fn lookup(&self, path: &[Key<'_>]) -> Result<Option<VariantRef<'a>>> {
        if path.is_empty() {
            return Ok(Some(*self));
        }
        let offset = match self {
            VariantRef::Array(a) => a.offset(),
            VariantRef::Dictionary(d) => d.offset(),
            _ => 0,
        };
        Ok(follow(*self, offset, path)?.map(|e| e.value()))
    }
}

/// Takes each step of a non-empty `path` from `value`, which sits at `offset`.
fn follow<'a>(
    value: VariantRef<'a>,
    offset: usize,
    path: &[Key<'_>],
) -> Result<Option<Element<'a>>> {
    let (mut value, mut offset) = (value, offset);
    let mut found = None;
    for key in path {
        let next = match (value, *key) {
            (VariantRef::Dictionary(dictionary), key) => dictionary.get_element(key)?,
            (VariantRef::Array(array), Key::Int(index)) => match usize::try_from(index) {
                Ok(index) => array.get_element(index)?,
                Err(_) => None,
            },
            (VariantRef::Object(ObjectRef::Full(object)), Key::String(name)) => {
                let mut found = None;
                for property in object.properties() {
                    let (property_name, value) = property?;
                    if property_name.eq_str(name) {
                        found = Some(value);
                    }
                }
                found
            }
            (value, _) => {
                let found = value.variant_type();
                let kind = ErrorKind::WrongType { expected: VariantType::Dictionary, found };
                return Err(Error::new(offset, kind));
            }
        };
        let Some(element) = next else { return Ok(None) };
        (value, offset) = (element.value(), element.offset());
        found = Some(element);
    }
    Ok(found)
}
