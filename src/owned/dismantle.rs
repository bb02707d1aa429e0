//! Dropping owned values with bounded recursion and without allocating, however deep they are.
//!
//! [`Array`](super::Array) and [`Dictionary`](super::Dictionary) hand their contents here when
//! they are dropped (and so, through them, does every [`Variant`] that holds one). The first
//! [`RECURSION`] levels below are emptied by ordinary recursion (each container's contents are
//! taken out before it is dropped, so no drop recurses on its own); what lies deeper is taken
//! apart by a walk that keeps the way back in the containers themselves: entering a container,
//! it takes one child out and puts the container it came from in the freed slot, first among
//! the children; when only that link is left, it goes back up. A slot is always freed before one
//! is filled, so no vector grows, and each value is visited once: O(n) time, a stack of
//! [`RECURSION`] small frames, and no allocation. Containers whose children hold no values are
//! dropped at once, on the way.
//!
//! A full object is taken apart when it is met inside an array or a dictionary; full objects
//! nested directly in full objects, with no array or dictionary above them, are dropped by the
//! compiler's drop code, one call per level.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Object, Variant};

/// Levels of nesting dropped by ordinary (bounded) recursion, below which the walk takes over.
const RECURSION: u8 = 8;

/// Drops an array's elements.
pub(super) fn elements(elements: Vec<Variant>) {
    drop_elements(elements, RECURSION);
}

/// Drops a dictionary's entries.
pub(super) fn entries(entries: Vec<(Variant, Variant)>) {
    drop_entries(entries, RECURSION);
}

/// Drops an array's elements and keeps the vector's room, for reuse.
pub(super) fn clear_elements(elements: &mut Vec<Variant>) {
    empty_elements(elements, RECURSION);
    elements.clear();
}

/// Drops a dictionary's entries and keeps the vector's room, for reuse.
pub(super) fn clear_entries(entries: &mut Vec<(Variant, Variant)>) {
    empty_entries(entries, RECURSION);
    entries.clear();
}

/// Empties every container in `elements` (`budget` more levels by recursion), then drops them.
fn drop_elements(mut elements: Vec<Variant>, budget: u8) {
    empty_elements(&mut elements, budget);
}

/// Empties every container in `entries` (`budget` more levels by recursion), then drops them.
fn drop_entries(mut entries: Vec<(Variant, Variant)>, budget: u8) {
    empty_entries(&mut entries, budget);
}

/// Empties every container in `elements`, `budget` more levels by recursion.
fn empty_elements(elements: &mut [Variant], budget: u8) {
    for value in elements.iter_mut().filter(|value| holds_values(value)) {
        empty(value, budget);
    }
}

/// Empties every container in `entries`, `budget` more levels by recursion.
fn empty_entries(entries: &mut [(Variant, Variant)], budget: u8) {
    for (key, value) in entries {
        if holds_values(key) {
            empty(key, budget);
        }
        if holds_values(value) {
            empty(value, budget);
        }
    }
}

/// Empties every container in `properties` (`budget` more levels by recursion), then drops them.
fn drop_properties(mut properties: Vec<(String, Variant)>, budget: u8) {
    for (_, value) in properties.iter_mut().filter(|(_, value)| holds_values(value)) {
        empty(value, budget);
    }
}

/// Drops what `value` holds, when it is a container: by recursion while `budget` lasts, then
/// by the walk. The container is left empty, so dropping it recurses no further.
fn empty(value: &mut Variant, budget: u8) {
    let below = budget.checked_sub(1);
    match value {
        Variant::Array(array) if !array.elements.is_empty() => {
            let elements = core::mem::take(&mut array.elements);
            match below {
                Some(budget) => drop_elements(elements, budget),
                None => take_apart(Top::Elements(elements)),
            }
        }
        Variant::Dictionary(dictionary) if !dictionary.entries.is_empty() => {
            let entries = core::mem::take(&mut dictionary.entries);
            match below {
                Some(budget) => drop_entries(entries, budget),
                None => take_apart(Top::Entries(entries)),
            }
        }
        Variant::Object(Object::Full(full)) if !full.properties.is_empty() => {
            let properties = core::mem::take(&mut full.properties);
            match below {
                Some(budget) => drop_properties(properties, budget),
                None => take_apart(Top::Properties(properties)),
            }
        }
        _ => {}
    }
}

/// The children of the container being dropped.
enum Top {
    Elements(Vec<Variant>),
    Entries(Vec<(Variant, Variant)>),
    Properties(Vec<(String, Variant)>),
}

/// Whether `value` is a container with something in it.
fn holds_values(value: &Variant) -> bool {
    match value {
        Variant::Array(array) => !array.elements.is_empty(),
        Variant::Dictionary(dictionary) => !dictionary.entries.is_empty(),
        Variant::Object(Object::Full(full)) => !full.properties.is_empty(),
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
        Variant::Object(Object::Full(full)) => Some(Children::Properties(&mut full.properties)),
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
    /// Whether a child holds values (else the container drops at once, without recursion).
    fn hold_values(&self) -> bool {
        match self {
            Children::Elements(v) => v.iter().any(holds_values),
            Children::Entries(v) => v.iter().any(|(k, v)| holds_values(k) || holds_values(v)),
            Children::Properties(v) => v.iter().any(|(_, v)| holds_values(v)),
        }
    }

    /// Drops the last children that hold no values (in place), and takes out the next one that
    /// does, leaving at least `keep` children. Of an entry whose key and value both hold values,
    /// the value goes back in its slot, to be taken out later.
    fn take_next(&mut self, keep: usize) -> Option<Variant> {
        match self {
            Children::Elements(v) => {
                drop_tail(v, keep, holds_values)?;
                v.pop()
            }
            Children::Entries(v) => {
                drop_tail(v, keep, |(key, value)| holds_values(key) || holds_values(value))?;
                let (key, value) = v.pop()?;
                let (next, later) = split(key, value);
                if holds_values(&later) {
                    v.push((Variant::Nil, later));
                }
                next
            }
            Children::Properties(v) => {
                drop_tail(v, keep, |(_, value)| holds_values(value))?;
                v.pop().map(|(_, value)| value)
            }
        }
    }

    /// Drops every child (none of which holds values: no recursion past one level).
    fn clear(&mut self) {
        match self {
            Children::Elements(v) => v.clear(),
            Children::Entries(v) => v.clear(),
            Children::Properties(v) => v.clear(),
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

/// Drops, in place, the children of `v` after the last one (at `keep` or past it) that holds
/// values, and returns that one's position; drops every child past `keep` when none does.
fn drop_tail<T>(v: &mut Vec<T>, keep: usize, holding: impl Fn(&T) -> bool) -> Option<usize> {
    let found = v.get(keep..).and_then(|rest| rest.iter().rposition(holding));
    match found.and_then(|i| i.checked_add(keep)) {
        Some(position) => {
            v.truncate(position.saturating_add(1));
            Some(position)
        }
        None => {
            v.truncate(keep);
            None
        }
    }
}

/// Drops `value` at once when nothing it holds holds values; else returns it, to be entered.
fn drop_if_shallow(mut value: Variant) -> Option<Variant> {
    let mut children = children(&mut value)?;
    if children.hold_values() {
        return Some(value);
    }
    // Then the container, empty: its own drop finds nothing.
    children.clear();
    None
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
        if let Some(mut value) = hand.take().and_then(drop_if_shallow) {
            if let Some(mut children) = children(&mut value) {
                // Down: the child's first child becomes the link to where we are.
                hand = children.link(current.take().unwrap_or_default());
                current = Some(value);
                depth = depth.saturating_add(1);
            }
            continue;
        }
        let Some(container) = current.as_mut() else {
            let mut children = match &mut top {
                Top::Elements(v) => Children::Elements(v),
                Top::Entries(v) => Children::Entries(v),
                Top::Properties(v) => Children::Properties(v),
            };
            hand = children.take_next(0);
            if hand.is_none() {
                return;
            }
            continue;
        };
        let Some(mut children) = children(container) else {
            // Only containers are entered; nothing to go back to otherwise.
            return;
        };
        hand = children.take_next(1);
        if hand.is_some() {
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
