//! [`Array`]: an owned array, with its element type.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};

use super::Variant;
use crate::ElementType;
use alloc::string::String;

/// An `Array`: elements in order, and the declared element type of a typed array (Godot 4.3+).
///
/// Derefs to `Vec<Variant>`. The element type is kept as declared; the elements are not checked
/// against it (Godot converts or drops mismatching ones when decoding: read the value with
/// [`Options::with_game_view`](crate::Options::with_game_view) to hold what the game holds). Cloning, `==`
/// (the element type and the elements in order, `f64` equality) and `Debug` are iterative, and
/// dropping recurses at most 8 levels before a walk that allocates nothing takes over: an array
/// nested as deep as Godot allows needs no deep call stack. Because it has a `Drop`, its fields
/// are taken out with `core::mem::take` rather than moved out.
#[derive(Default)]
pub struct Array {
    /// The declared element type ([`ElementType::Untyped`] for a plain `Array`).
    pub element_type: ElementType<String>,
    /// The elements.
    pub elements: Vec<Variant>,
}

impl Array {
    /// An empty untyped array.
    pub fn new() -> Self {
        Array::default()
    }

    /// An empty typed array.
    pub fn typed(element_type: ElementType<String>) -> Self {
        Array { element_type, elements: Vec::new() }
    }
}

impl Clone for Array {
    /// A deep copy, iterative. O(size).
    fn clone(&self) -> Self {
        super::deep::clone_array(self)
    }
}

impl Drop for Array {
    /// Takes nested containers apart without deep recursion and without allocating.
    fn drop(&mut self) {
        super::dismantle::elements(core::mem::take(&mut self.elements));
    }
}

impl PartialEq for Array {
    /// The same element type and the same elements in order (`f64` equality). Iterative.
    fn eq(&self, other: &Self) -> bool {
        self.element_type == other.element_type
            && super::deep::elements_equal(&self.elements, &other.elements)
    }
}

impl fmt::Debug for Array {
    /// `Array { element_type: .., elements: [..] }`, as derived. Iterative.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::debug::array(self, f)
    }
}

impl Deref for Array {
    type Target = Vec<Variant>;

    fn deref(&self) -> &Vec<Variant> {
        &self.elements
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Variant> {
        &mut self.elements
    }
}

impl From<Vec<Variant>> for Array {
    fn from(elements: Vec<Variant>) -> Self {
        Array { element_type: ElementType::Untyped, elements }
    }
}

impl From<Vec<Variant>> for Box<Array> {
    /// An untyped array, boxed as [`Variant::Array`] holds it: `Variant::Array(vec.into())`.
    fn from(elements: Vec<Variant>) -> Self {
        Box::new(Array::from(elements))
    }
}

impl<V: Into<Variant>> FromIterator<V> for Array {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        Array::from(iter.into_iter().map(Into::into).collect::<Vec<_>>())
    }
}

impl IntoIterator for Array {
    type Item = Variant;
    type IntoIter = alloc::vec::IntoIter<Variant>;

    fn into_iter(mut self) -> Self::IntoIter {
        core::mem::take(&mut self.elements).into_iter()
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Variant;
    type IntoIter = core::slice::Iter<'a, Variant>;

    fn into_iter(self) -> Self::IntoIter {
        self.elements.iter()
    }
}
