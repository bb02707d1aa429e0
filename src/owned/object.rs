//! [`Object`] and [`Signal`]: owned objects and signals.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::Variant;

/// An `Object` as the format carries it.
///
/// 16 bytes: a full object's class and properties are boxed ([`FullObject`]), so an `Object`
/// sits in a [`Variant`] without making it larger. Cloning, `==` and `Debug` are iterative (as
/// derived otherwise). Dropping takes apart the arrays and dictionaries inside a full object
/// without deep recursion; full objects nested directly in full objects are dropped one call per
/// level.
#[derive(Default, Clone, PartialEq, Debug)]
pub enum Object {
    /// A null (or freed) object. Godot 3.2.3+ and 4.x encode it as `Nil`, so it reads back as
    /// [`Variant::Nil`].
    #[default]
    Null,
    /// An object sent by instance id (Godot's `EncodedObjectAsID`), as 64 raw bits.
    Id(u64),
    /// A full object: its class and its stored properties in wire order (needs full objects to
    /// encode, and `allow_objects` to decode). Make one with [`Object::full`].
    Full(Box<FullObject>),
}

impl Object {
    /// A full object of `class` with `properties` (names and values, in wire order).
    pub fn full(class: impl Into<String>, properties: Vec<(String, Variant)>) -> Object {
        Object::Full(Box::new(FullObject { class: class.into(), properties }))
    }
}

/// A full object's class and properties (the payload of [`Object::Full`]).
///
/// Cloning, `==` and `Debug` are iterative (as derived otherwise).
pub struct FullObject {
    /// The class name, such as `"Resource"`.
    pub class: String,
    /// The properties: names and values, in wire order.
    pub properties: Vec<(String, Variant)>,
}

impl Clone for FullObject {
    /// A deep copy, iterative. O(size).
    fn clone(&self) -> Self {
        super::deep::clone_object(&self.class, &self.properties)
    }
}

impl PartialEq for FullObject {
    /// The same class and the same properties in order (`f64` equality). Iterative.
    fn eq(&self, other: &Self) -> bool {
        self.class == other.class
            && super::deep::properties_equal(&self.properties, &other.properties)
    }
}

impl fmt::Debug for FullObject {
    /// `Full { class: .., properties: [..] }`. Iterative.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::debug::full_object(&self.class, &self.properties, f)
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
