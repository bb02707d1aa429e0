//! Whole-value operations on owned values without recursion: cloning, `==`, and bitwise sameness
//! ([`Variant::same`]).
//!
//! Each walks the value with a heap-allocated stack of one frame per level of nesting below the
//! container it starts from (nothing is allocated for a container that holds no containers), so
//! the deepest values Godot accepts need no deep call stack. Each is O(size of the values): a
//! comparison stops at the first difference, and counts a unit of work per pair of values.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::slice::Iter;

use super::key_semantics::reals_equal;
use super::{Array, Dictionary, FullObject, Object, Variant};
use crate::wire::work;

// ------------------------------------------------------------------------------------------
// Cloning
// ------------------------------------------------------------------------------------------

/// A container being copied: what is left of the original, and the copy so far.
enum Copying<'a> {
    Array {
        source: Iter<'a, Variant>,
        copy: Array,
    },
    /// `value`: the value of the entry whose key is being copied.
    Dictionary {
        source: Iter<'a, (Variant, Variant)>,
        value: Option<&'a Variant>,
        copy: Box<Dictionary>,
    },
    Object {
        source: Iter<'a, (String, Variant)>,
        class: String,
        copy: Vec<(String, Variant)>,
    },
}

/// A copy made at once, or a container whose contents are copied next.
enum Opened<'a> {
    Done(Variant),
    Open(Copying<'a>),
}

impl<'a> Copying<'a> {
    fn array(array: &'a Array) -> Self {
        let copy = Array {
            element_type: array.element_type.clone(),
            elements: Vec::with_capacity(array.len()),
        };
        Copying::Array { source: array.iter(), copy }
    }

    fn dictionary(dictionary: &'a Dictionary) -> Self {
        // The kept hashes and the index are by position: they hold for the copy.
        let copy = Dictionary {
            key_type: dictionary.key_type.clone(),
            value_type: dictionary.value_type.clone(),
            entries: Vec::with_capacity(dictionary.len()),
            hashes: dictionary.hashes.clone(),
            index: dictionary.index.clone(),
            rules: dictionary.rules,
        };
        Copying::Dictionary { source: dictionary.entries.iter(), value: None, copy: Box::new(copy) }
    }

    fn object(class: &str, properties: &'a [(String, Variant)]) -> Self {
        Copying::Object {
            source: properties.iter(),
            class: String::from(class),
            copy: Vec::with_capacity(properties.len()),
        }
    }

    /// The next value to copy.
    fn next_source(&mut self) -> Option<&'a Variant> {
        match self {
            Copying::Array { source, .. } => source.next(),
            Copying::Dictionary { source, value, .. } => value.take().or_else(|| {
                let (key, next_value) = source.next()?;
                *value = Some(next_value);
                Some(key)
            }),
            Copying::Object { source, copy, .. } => {
                let (name, value) = source.next()?;
                copy.push((name.clone(), Variant::Nil));
                Some(value)
            }
        }
    }

    /// Puts the copy of the value [`next_source`](Self::next_source) gave in its place.
    fn place(&mut self, done: Variant) {
        match self {
            Copying::Array { copy, .. } => copy.elements.push(done),
            // A key: its value comes next.
            Copying::Dictionary { value: Some(_), copy, .. } => {
                copy.entries.push((done, Variant::Nil))
            }
            Copying::Dictionary { value: None, copy, .. } => {
                if let Some((_, slot)) = copy.entries.last_mut() {
                    *slot = done;
                }
            }
            Copying::Object { copy, .. } => {
                if let Some((_, slot)) = copy.last_mut() {
                    *slot = done;
                }
            }
        }
    }

    fn finish(self) -> Variant {
        match self {
            Copying::Array { copy, .. } => Variant::Array(Box::new(copy)),
            Copying::Dictionary { copy, .. } => Variant::Dictionary(copy),
            Copying::Object { class, copy, .. } => Variant::Object(Object::full(class, copy)),
        }
    }
}

/// The copy of `value`, or the container to fill.
fn open_copy(value: &Variant) -> Opened<'_> {
    match value {
        Variant::Array(array) => Opened::Open(Copying::array(array)),
        Variant::Dictionary(dictionary) => Opened::Open(Copying::dictionary(dictionary)),
        Variant::Object(Object::Full(full)) => {
            Opened::Open(Copying::object(&full.class, &full.properties))
        }
        // Holds no values: the derived clone does not recurse.
        other => Opened::Done(other.clone()),
    }
}

/// Fills `root` and everything below it; returns it complete.
fn copy(root: Copying<'_>) -> Copying<'_> {
    let mut root = root;
    let mut below: Vec<Copying<'_>> = Vec::new();
    loop {
        let next = below.last_mut().unwrap_or(&mut root).next_source().map(open_copy);
        match next {
            Some(Opened::Done(done)) => below.last_mut().unwrap_or(&mut root).place(done),
            Some(Opened::Open(container)) => below.push(container),
            None => {
                let Some(finished) = below.pop() else {
                    return root;
                };
                below.last_mut().unwrap_or(&mut root).place(finished.finish());
            }
        }
    }
}

/// A deep copy of `array`. O(size); iterative.
pub(super) fn clone_array(array: &Array) -> Array {
    match copy(Copying::array(array)) {
        Copying::Array { copy, .. } => copy,
        // `copy` returns the root it was given.
        _ => Array::new(),
    }
}

/// A deep copy of `dictionary`. O(size); iterative.
pub(super) fn clone_dictionary(dictionary: &Dictionary) -> Dictionary {
    match copy(Copying::dictionary(dictionary)) {
        Copying::Dictionary { copy, .. } => *copy,
        _ => Dictionary::new(),
    }
}

/// A deep copy of the properties of a full object. O(size); iterative.
pub(super) fn clone_object(class: &str, properties: &[(String, Variant)]) -> FullObject {
    match copy(Copying::object(class, properties)) {
        Copying::Object { class, copy, .. } => FullObject { class, properties: copy },
        _ => FullObject { class: String::new(), properties: Vec::new() },
    }
}

// ------------------------------------------------------------------------------------------
// Comparing
// ------------------------------------------------------------------------------------------

/// How leaves compare.
#[derive(Clone, Copy)]
enum Compare {
    /// `PartialEq`: `f64` equality.
    Structural,
    /// Bit for bit ([`Variant::same`]).
    Bitwise,
}

/// The contents of two containers of one kind and length, compared in order.
enum Pair<'a> {
    Elements(Iter<'a, Variant>, Iter<'a, Variant>),
    /// With the values of the entries whose keys are being compared.
    Entries(
        Iter<'a, (Variant, Variant)>,
        Iter<'a, (Variant, Variant)>,
        Option<(&'a Variant, &'a Variant)>,
    ),
    Properties(Iter<'a, (String, Variant)>, Iter<'a, (String, Variant)>),
}

impl<'a> Pair<'a> {
    /// The next two values to compare; `Err` when two property names differ.
    fn next(&mut self) -> Result<Option<(&'a Variant, &'a Variant)>, ()> {
        Ok(match self {
            Pair::Elements(x, y) => x.next().zip(y.next()),
            Pair::Entries(x, y, values) => values.take().or_else(|| {
                let ((k1, v1), (k2, v2)) = x.next().zip(y.next())?;
                *values = Some((v1, v2));
                Some((k1, k2))
            }),
            Pair::Properties(x, y) => match x.next().zip(y.next()) {
                Some(((n1, _), (n2, _))) if n1 != n2 => return Err(()),
                Some(((_, v1), (_, v2))) => Some((v1, v2)),
                None => None,
            },
        })
    }
}

/// Compares `a` and `b` apart from their contents: `Err` when they differ, else the contents
/// left to compare (`None` when there are none).
fn open_pair<'a>(a: &'a Variant, b: &'a Variant, how: Compare) -> Result<Option<Pair<'a>>, ()> {
    use Variant as V;
    work::add(1);
    match (a, b) {
        (V::Array(x), V::Array(y)) => {
            if x.element_type != y.element_type || x.len() != y.len() {
                return Err(());
            }
            Ok(Some(Pair::Elements(x.iter(), y.iter())))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            if x.key_type != y.key_type || x.value_type != y.value_type || x.len() != y.len() {
                return Err(());
            }
            Ok(Some(Pair::Entries(x.entries.iter(), y.entries.iter(), None)))
        }
        (V::Object(Object::Full(o1)), V::Object(Object::Full(o2))) => {
            if o1.class != o2.class || o1.properties.len() != o2.properties.len() {
                return Err(());
            }
            Ok(Some(Pair::Properties(o1.properties.iter(), o2.properties.iter())))
        }
        _ => {
            if leaves_equal(a, b, how) {
                Ok(None)
            } else {
                Err(())
            }
        }
    }
}

/// Compares two values that are not two containers of one kind.
fn leaves_equal(a: &Variant, b: &Variant, how: Compare) -> bool {
    match how {
        // Not two containers of one kind: the derived comparison does not recurse.
        Compare::Structural => a == b,
        Compare::Bitwise => {
            let reals = |x: f64, y: f64| x.to_bits() == y.to_bits();
            let singles = |x: f32, y: f32| x.to_bits() == y.to_bits();
            match (a, b) {
                (Variant::Float(x), Variant::Float(y)) => reals(*x, *y),
                // Everything else holds no floats or values: structural equality is bitwise.
                _ => reals_equal(a, b, reals, singles).unwrap_or_else(|| a == b),
            }
        }
    }
}

/// Compares the contents of `root` and everything below them.
fn equal(root: Pair<'_>, how: Compare) -> bool {
    let mut root = root;
    let mut below: Vec<Pair<'_>> = Vec::new();
    loop {
        let next = below.last_mut().unwrap_or(&mut root).next();
        match next {
            Err(()) => return false,
            Ok(Some((a, b))) => match open_pair(a, b, how) {
                Err(()) => return false,
                Ok(None) => {}
                Ok(Some(pair)) => below.push(pair),
            },
            Ok(None) => {
                if below.pop().is_none() {
                    return true;
                }
            }
        }
    }
}

/// Whether two arrays' elements are equal in order (`f64` equality). Iterative.
pub(super) fn elements_equal(x: &[Variant], y: &[Variant]) -> bool {
    x.len() == y.len() && equal(Pair::Elements(x.iter(), y.iter()), Compare::Structural)
}

/// Whether two dictionaries' entries are equal in order (`f64` equality). Iterative.
pub(super) fn entries_equal(x: &[(Variant, Variant)], y: &[(Variant, Variant)]) -> bool {
    x.len() == y.len() && equal(Pair::Entries(x.iter(), y.iter(), None), Compare::Structural)
}

/// Whether two objects' properties are equal in order (`f64` equality). Iterative.
pub(super) fn properties_equal(x: &[(String, Variant)], y: &[(String, Variant)]) -> bool {
    x.len() == y.len() && equal(Pair::Properties(x.iter(), y.iter()), Compare::Structural)
}

/// Bit-for-bit sameness, see [`Variant::same`]. Iterative.
pub(crate) fn same(a: &Variant, b: &Variant) -> bool {
    match open_pair(a, b, Compare::Bitwise) {
        Err(()) => false,
        Ok(None) => true,
        Ok(Some(root)) => equal(root, Compare::Bitwise),
    }
}
