//! [`Tape`]: where every part of a value sits, found in one [`Cursor`](super::cursor::Cursor) pass (feature `alloc`).
//!
//! Consumers that must look ahead (a dictionary written as Godot sees it: each key once, at its
//! first position, with its last value; keys written in sorted order) would otherwise walk each
//! dictionary once to find its entries and again to write them, once per level of nesting:
//! O(bytes x depth). A tape records every part once, in wire order, with the index of the part
//! after it, so that a container's children are visited in O(1) each and no byte is walked twice.
//!
//! Building it is one cursor pass with the cursor's checks (structure, not text); it holds one
//! [`Node`] (24 bytes) per part: at most 6 bytes per input byte, since every part takes at
//! least 4.

use alloc::vec::Vec;

use super::cursor::{Event, HeapCursor};
use super::element::Element;
use super::object::ObjectRef;
use super::string::{GdStr, read_string};
use super::value::{VariantRef, parse_head};
use crate::wire::error::{Error, Result};
use crate::wire::options::Options;
use crate::wire::read::padding;

/// One part of a value on a [`Tape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// Absolute offset of the value's header (or of a property name's length).
    offset: usize,
    /// Where the part's bytes end.
    end: usize,
    /// Index of the part after this one and everything inside it.
    next: u32,
    /// Nesting depth of the value.
    depth: u16,
    /// Whether this is a full object's property name rather than a value.
    name: bool,
}

/// Every part of one value (containers, their children, full objects' property names) in wire
/// order, with where each ends: random access to a parsed value, built once in O(n).
#[derive(Clone, Debug)]
pub struct Tape<'a> {
    buf: &'a [u8],
    options: Options,
    nodes: Vec<Node>,
}

impl<'a> Tape<'a> {
    /// Reads the value at the start of `bytes` into a tape: one [`Cursor`](super::cursor::Cursor) pass (O(n), the
    /// cursor's structural checks), one heap allocation growing to 24 bytes per part.
    ///
    /// # Errors
    /// The first structural problem, as [`parse_prefix`](crate::parse_prefix) reports it.
    pub fn new(bytes: &'a [u8], options: Options) -> Result<Self> {
        Tape::build(bytes, options, HeapCursor::heap_at(bytes, 0, options, 0), bytes.len())
    }

    /// A tape of an element and everything inside it.
    ///
    /// # Errors
    /// The first structural problem inside the element (none when the element was found by a
    /// container iterator, which checked its structure).
    pub fn of_element(element: &Element<'a>) -> Result<Self> {
        let (buf, pos, options, depth) = element.origin();
        let cursor = HeapCursor::heap_at(buf, pos, options, depth);
        Tape::build(buf, options, cursor, element.len())
    }

    /// A tape of a container value (an array, a dictionary or a full object), `None` for any
    /// other value.
    pub(crate) fn of_container(value: VariantRef<'a>) -> Option<Result<Self>> {
        let cursor = HeapCursor::heap_of_container(value)?;
        let (buf, options) = cursor.source();
        Some(Tape::build(buf, options, cursor, 0))
    }

    fn build(
        buf: &'a [u8],
        options: Options,
        cursor: HeapCursor<'a>,
        len_hint: usize,
    ) -> Result<Self> {
        match Tape::partial(buf, options, cursor, len_hint) {
            (tape, None) => Ok(tape),
            (_, Some(error)) => Err(error),
        }
    }

    /// The parts the cursor reads before its first error, and that error. The containers open
    /// when it stops hold every part read after them and are not
    /// [complete](Part::is_complete); the part that failed is not on the tape. `len_hint`: the
    /// value's length in bytes when known (else 0), to size the tape.
    pub(crate) fn partial(
        buf: &'a [u8],
        options: Options,
        cursor: HeapCursor<'a>,
        len_hint: usize,
    ) -> (Self, Option<Error>) {
        // Room for a part per 16 bytes of the value, when its length is known (a part takes
        // 4 bytes at least, so this is 1.5 bytes of memory per byte that is there), to spare
        // the first reallocations.
        let mut nodes: Vec<Node> = Vec::with_capacity(len_hint / 16);
        // Indices of the open containers' nodes.
        let mut open: Vec<u32> = Vec::new();
        for event in cursor {
            let index = u32::try_from(nodes.len()).unwrap_or(u32::MAX);
            let next = index.saturating_add(1);
            let event = match event {
                Ok(event) => event,
                Err(error) => {
                    for &open_index in &open {
                        if let Some(node) = nodes.get_mut(open_index as usize) {
                            node.next = index;
                        }
                    }
                    return (Tape { buf, options, nodes }, Some(error));
                }
            };
            match event {
                Event::Leaf(element) => {
                    let end = element.offset().saturating_add(element.len());
                    let (_, offset, _, depth) = element.origin();
                    nodes.push(Node { offset, end, next, depth, name: false });
                }
                Event::Property(name) => {
                    // The name's length field, then its bytes and padding.
                    let len = name.raw_bytes().len();
                    let offset = name.offset().saturating_sub(4);
                    let end = name.offset().saturating_add(len).saturating_add(padding(len));
                    nodes.push(Node { offset, end, next, depth: 0, name: true });
                }
                Event::Open { value, offset } => {
                    let depth = container_depth(value);
                    nodes.push(Node { offset, end: offset, next, depth, name: false });
                    open.push(index);
                }
                Event::Close { end } => {
                    if let Some(node) = open.pop().and_then(|i| nodes.get_mut(i as usize)) {
                        node.end = end;
                        node.next = index;
                    }
                }
            }
        }
        (Tape { buf, options, nodes }, None)
    }

    /// The value the tape holds.
    pub fn root(&self) -> Part<'_, 'a> {
        Part { tape: self, index: 0 }
    }

    /// Number of parts: values and property names.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always `false`: a tape holds at least its value.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// The nesting depth of a container head.
fn container_depth(value: VariantRef<'_>) -> u16 {
    match value {
        VariantRef::Array(array) => array.origin().0.depth,
        VariantRef::Dictionary(dictionary) => dictionary.origin().0.depth,
        VariantRef::Object(ObjectRef::Full(object)) => object.origin().0.depth,
        _ => 0,
    }
}

/// One value (or property name) on a [`Tape`]; `Copy`, O(1) to move around.
#[derive(Clone, Copy, Debug)]
pub struct Part<'t, 'a> {
    tape: &'t Tape<'a>,
    index: u32,
}

impl<'t, 'a> Part<'t, 'a> {
    fn node(&self) -> Node {
        self.tape.nodes.get(self.index as usize).copied().unwrap_or(Node {
            offset: self.tape.buf.len(),
            end: self.tape.buf.len(),
            next: self.index.saturating_add(1),
            depth: 0,
            name: false,
        })
    }

    /// The value (the head of a container: do not iterate it, visit [`children`](Self::children)).
    /// A property name reads as `Nil`: see [`name`](Self::name). O(1).
    pub fn value(&self) -> VariantRef<'a> {
        let node = self.node();
        if node.name {
            return VariantRef::Nil;
        }
        // Cannot fail: the cursor read the same bytes with the same options.
        parse_head(self.tape.buf, node.offset, self.tape.options, node.depth)
            .map_or(VariantRef::Nil, |(value, _)| value)
    }

    /// The value as an [`Element`]: offset, raw bytes, value. O(1).
    pub fn element(&self) -> Element<'a> {
        let node = self.node();
        Element::new(self.tape.buf, node.offset, node.end, self.tape.options, node.depth)
    }

    /// The property name, when this part is one (the parts of a full object alternate name and
    /// value).
    pub fn name(&self) -> Option<GdStr<'a>> {
        let node = self.node();
        if !node.name {
            return None;
        }
        read_string(self.tape.buf, node.offset, self.tape.options.version()).ok().map(|(s, _)| s)
    }

    /// Absolute offset of the part's first byte (a property name's length field).
    pub fn offset(&self) -> usize {
        self.node().offset
    }

    /// The parts directly inside this one, in wire order (a dictionary's alternate key and
    /// value; a full object's alternate name and value); empty for anything else. O(1) each.
    pub fn children(&self) -> Children<'t, 'a> {
        let node = self.node();
        let first = self.index.saturating_add(1);
        let has_children = !node.name && node.next > first;
        Children {
            tape: self.tape,
            index: first,
            end: if has_children { node.next } else { first },
        }
    }
}

/// Positions on the tape, for whole-value consumers above the view (not every build uses them).
#[allow(dead_code)]
impl<'t, 'a> Part<'t, 'a> {
    /// The part's position on the tape.
    pub(crate) fn index(&self) -> u32 {
        self.index
    }

    /// The part at `index` on the same tape.
    pub(crate) fn at(&self, index: u32) -> Self {
        Part { tape: self.tape, index }
    }

    /// The index of the part after this one and everything inside it: its next sibling, or
    /// the end of its container's parts.
    pub(crate) fn after(&self) -> u32 {
        self.node().next.max(self.index.saturating_add(1))
    }

    /// Whether the part was read to its end: always, except for the containers a
    /// [partial](Tape::partial) tape stopped inside.
    pub(crate) fn is_complete(&self) -> bool {
        let node = self.node();
        node.end > node.offset
    }
}

/// The parts directly inside a [`Part`]; O(1) per step.
#[derive(Clone, Debug)]
pub struct Children<'t, 'a> {
    tape: &'t Tape<'a>,
    index: u32,
    end: u32,
}

impl<'t, 'a> Iterator for Children<'t, 'a> {
    type Item = Part<'t, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.index >= self.end {
            return None;
        }
        let part = Part { tape: self.tape, index: self.index };
        self.index = part.node().next.max(self.index.saturating_add(1));
        Some(part)
    }
}

impl core::iter::FusedIterator for Children<'_, '_> {}
