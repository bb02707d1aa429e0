//! Dropping owned values without recursion and without allocating, however deep they are.
//!
//! [`Array`](super::Array) and [`Dictionary`](super::Dictionary) hand their contents here when
//! they are dropped (and so, through them, does every [`Variant`] that holds one). The walk goes
//! down one container at a time and keeps the way back in the containers themselves: entering a
//! container, it takes one child out (into its hand) and puts the container it came from in the
//! freed slot, first among the children; when only that link is left, it goes back up. A slot is
//! always freed before one is filled, so no vector grows, and each value is visited once: O(n)
//! time, O(1) stack and no allocation. The only values that are moved, not dropped, on the way
//! are the containers being emptied, whose own drop then finds nothing to do.
//!
//! A full object is taken apart when it is met inside an array or a dictionary; full objects
//! nested directly in full objects, with no array or dictionary above them, are dropped by the
//! compiler's drop code, one call per level.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Object, Variant};

/// Drops an array's elements.
pub(super) fn elements(elements: Vec<Variant>) {
    if elements.iter().any(holds_values) {
        take_apart(Top::Elements(elements));
    }
}

/// Drops a dictionary's entries.
pub(super) fn entries(entries: Vec<(Variant, Variant)>) {
    if entries.iter().any(|(key, value)| holds_values(key) || holds_values(value)) {
        take_apart(Top::Entries(entries));
    }
}

/// The children of the container being dropped.
enum Top {
    Elements(Vec<Variant>),
    Entries(Vec<(Variant, Variant)>),
}

/// Whether `value` is a container with something in it.
fn holds_values(value: &Variant) -> bool {
    match value {
        Variant::Array(array) => !array.elements.is_empty(),
        Variant::Dictionary(dictionary) => !dictionary.entries.is_empty(),
        Variant::Object(Object::Full { properties, .. }) => !properties.is_empty(),
        _ => false,
    }
}

/// The children of a container, mutably.
enum Children<'a> {
    Elements(&'a mut Vec<Variant>),
    Entries(&'a mut Vec<(Variant, Variant)>),
    Properties(&'a mut Vec<(String, Variant)>),
}

/// The children of `value`, when it is a container.
fn children(value: &mut Variant) -> Option<Children<'_>> {
    match value {
        Variant::Array(array) => Some(Children::Elements(&mut array.elements)),
        Variant::Dictionary(dictionary) => Some(Children::Entries(&mut dictionary.entries)),
        Variant::Object(Object::Full { properties, .. }) => Some(Children::Properties(properties)),
        _ => None,
    }
}

/// Of a key and a value taken out together: the one to take apart next, and the one to keep
/// for later (`Nil` when it holds nothing). What holds no values is dropped here.
fn split(key: Variant, value: Variant) -> (Option<Variant>, Variant) {
    match (holds_values(&key), holds_values(&value)) {
        (true, true) => (Some(key), value),
        (true, false) => (Some(key), Variant::Nil),
        (false, true) => (Some(value), Variant::Nil),
        (false, false) => (None, Variant::Nil),
    }
}

/// Keeps only a value that holds values.
fn if_holding(value: Variant) -> Option<Variant> {
    holds_values(&value).then_some(value)
}

impl Children<'_> {
    fn len(&self) -> usize {
        match self {
            Children::Elements(v) => v.len(),
            Children::Entries(v) => v.len(),
            Children::Properties(v) => v.len(),
        }
    }

    /// Takes the last child out. Of an entry whose key and value both hold values, the value
    /// goes back in its slot, to be taken out later.
    fn take_last(&mut self) -> Option<Variant> {
        match self {
            Children::Elements(v) => v.pop(),
            Children::Entries(v) => {
                let (key, value) = v.pop()?;
                let (next, later) = split(key, value);
                if holds_values(&later) {
                    v.push((Variant::Nil, later));
                }
                next
            }
            Children::Properties(v) => v.pop().and_then(|(_, value)| if_holding(value)),
        }
    }

    /// Takes the last child out and puts `parent` in its slot, first among the children (with
    /// the value of an entry whose key is taken out, when both hold values). Returns the child.
    fn link(&mut self, parent: Variant) -> Option<Variant> {
        match self {
            Children::Elements(v) => {
                let child = v.pop();
                v.push(parent);
                let last = v.len().saturating_sub(1);
                v.swap(0, last);
                child
            }
            Children::Entries(v) => {
                let (child, later) = match v.pop() {
                    Some((key, value)) => split(key, value),
                    None => (None, Variant::Nil),
                };
                v.push((parent, later));
                let last = v.len().saturating_sub(1);
                v.swap(0, last);
                child
            }
            Children::Properties(v) => {
                let child = v.pop().and_then(|(_, value)| if_holding(value));
                v.push((String::new(), parent));
                let last = v.len().saturating_sub(1);
                v.swap(0, last);
                child
            }
        }
    }

    /// Takes out the link to the parent (the last child left), and the value kept with it.
    fn unlink(&mut self) -> (Variant, Option<Variant>) {
        match self {
            Children::Elements(v) => (v.pop().unwrap_or_default(), None),
            Children::Entries(v) => match v.pop() {
                Some((parent, later)) => (parent, if_holding(later)),
                None => (Variant::Nil, None),
            },
            Children::Properties(v) => {
                (v.pop().map(|(_, parent)| parent).unwrap_or_default(), None)
            }
        }
    }
}

/// Drops everything in `top`: see the module docs.
fn take_apart(mut top: Top) {
    // The container being emptied (`None`: `top`), and how many containers it is below `top`.
    // Below `top`, each container's first child is the link to its parent (`Nil` for `top`).
    let mut current: Option<Variant> = None;
    let mut depth = 0usize;
    // A child taken out, to be dropped or entered.
    let mut hand: Option<Variant> = None;
    loop {
        if let Some(mut value) = hand.take() {
            if let Some(mut children) = children(&mut value).filter(|c| c.len() > 0) {
                // Down: the child's first child becomes the link to where we are.
                hand = children.link(current.take().unwrap_or_default());
                current = Some(value);
                depth = depth.saturating_add(1);
                continue;
            }
            // Holds no values: an ordinary drop does not recurse.
            drop(value);
        }
        match current.as_mut() {
            None => {
                hand = match &mut top {
                    Top::Elements(v) => match v.pop() {
                        Some(child) => Some(child),
                        None => return,
                    },
                    Top::Entries(v) => match v.pop() {
                        Some((key, value)) => {
                            let (next, later) = split(key, value);
                            if holds_values(&later) {
                                v.push((Variant::Nil, later));
                            }
                            next
                        }
                        None => return,
                    },
                };
            }
            Some(container) => {
                let Some(mut children) = children(container) else {
                    // Only containers are entered; nothing to go back to otherwise.
                    return;
                };
                if children.len() > 1 {
                    hand = children.take_last();
                    continue;
                }
                // Only the link is left: up.
                let (parent, later) = children.unlink();
                hand = later;
                // Empty now: its own drop finds nothing.
                drop(current.take());
                depth = depth.saturating_sub(1);
                current = (depth > 0).then_some(parent);
            }
        }
    }
}
