//! [`Object`] and [`Signal`]: owned objects and signals.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::Variant;

/// An `Object` as the format carries it.
///
/// Cloning, `==` and `Debug` are iterative (as derived otherwise). Dropping takes apart the
/// arrays and dictionaries inside a full object without deep recursion; full objects nested
/// directly in full objects are dropped one call per level.
#[derive(Default)]
pub enum Object {
    /// A null (or freed) object. Godot 3.2.3+ and 4.x encode it as `Nil`, so it reads back as
    /// [`Variant::Nil`].
    #[default]
    Null,
    /// An object sent by instance id (Godot's `EncodedObjectAsID`), as 64 raw bits.
    Id(u64),
    /// A full object: its class and its stored properties in wire order (needs full objects to
    /// encode, and `allow_objects` to decode).
    Full {
        /// The class name, such as `"Resource"`.
        class: String,
        /// The properties: names and values, in wire order.
        properties: Vec<(String, Variant)>,
    },
}

impl Clone for Object {
    fn clone(&self) -> Self {
        match self {
            Object::Null => Object::Null,
            Object::Id(id) => Object::Id(*id),
            Object::Full { class, properties } => super::deep::clone_object(class, properties),
        }
    }
}

impl PartialEq for Object {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Object::Null, Object::Null) => true,
            (Object::Id(a), Object::Id(b)) => a == b,
            (
                Object::Full { class: c1, properties: p1 },
                Object::Full { class: c2, properties: p2 },
            ) => c1 == c2 && super::deep::properties_equal(p1, p2),
            _ => false,
        }
    }
}

impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Object::Null => f.write_str("Null"),
            Object::Id(id) => f.debug_tuple("Id").field(id).finish(),
            Object::Full { class, properties } => super::debug::full_object(class, properties, f),
        }
    }
}

/// A `Signal` (Godot 4): a signal name and the instance id of its object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(::serde::Serialize, ::serde::Deserialize))]
pub struct Signal {
    /// The signal's name.
    #[cfg_attr(feature = "arbitrary", arbitrary(with = super::arbitrary::godot_string))]
    pub name: String,
    /// The instance id of the object that owns it (64 raw bits).
    pub object_id: u64,
}
