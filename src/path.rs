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
    /// `Ok(None)` when a key, index or property is absent.
    ///
    /// # Errors
    /// A malformed value on the way, or [`ErrorKind::WrongType`] at the offset of a value that
    /// the path tries to step into but that is not a container (or an array given a non-integer
    /// step).
    pub fn lookup(&self, path: &[Key<'_>]) -> Result<Option<Element<'a>>> {
        let mut current = *self;
        for key in path {
            let next = match (current.value(), *key) {
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
                    return Err(Error::new(current.offset(), kind));
                }
            };
            match next {
                Some(element) => current = element,
                None => return Ok(None),
            }
        }
        Ok(Some(current))
    }
}
