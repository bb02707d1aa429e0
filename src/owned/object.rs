//! [`Object`] and [`Signal`]: owned objects and signals.

use alloc::string::String;
use alloc::vec::Vec;

use super::Variant;

/// An `Object` as the format carries it.
#[derive(Clone, Debug, Default, PartialEq)]
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
