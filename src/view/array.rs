//! `Array`: a count, then that many values; in Godot 4.3+ optionally typed.
//!
//! Parsing an array reads its header, type information and count (O(1)). The elements are found
//! one after the other: reaching element `i` walks elements `0..i` (see [`walk`](super::walk)),
//! so iterating is O(bytes of the array) and `get(i)` is O(bytes before element `i`). The count
//! is checked against the bytes that remain (every element takes at least 4), so
//! [`ArrayRef::len`] never exceeds a quarter of the input; an element that is missing or
//! malformed is an error when the iteration reaches it.

use super::container_type::{ContainerType, kind_bits, read_container_type};
use super::cursor::Cursor;
use super::element::Element;
use super::value::{Scope, VariantRef, parse_head};
use super::walk::{Mode, end_after_head, leaf_value, walk};
use crate::wire::error::Result;
use crate::wire::read::error_at;

/// A borrowed Array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayRef<'a> {
    scope: Scope<'a>,
    header: usize,
    count: u32,
    /// Bytes from the header to the first element (header, type information, count).
    first_delta: u32,
}

impl<'a> ArrayRef<'a> {
    /// `first` is the position of the first element; the caller checked it is within reach.
    pub(crate) fn new(scope: Scope<'a>, header: usize, count: u32, first: usize) -> Self {
        let first_delta = u32::try_from(first.saturating_sub(header)).unwrap_or(u32::MAX);
        ArrayRef { scope, header, count, first_delta }
    }

    /// Position of the first element.
    fn first(&self) -> usize {
        self.header.saturating_add(self.first_delta as usize)
    }

    /// The buffer and settings the array was read with, and the position of its header.
    #[cfg(feature = "alloc")]
    pub(crate) fn origin(&self) -> (Scope<'a>, usize) {
        (self.scope, self.header)
    }

    /// Number of elements declared (bit 31 of the count, the obsolete "shared" flag, is ignored
    /// as Godot does).
    #[inline]
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the array declares no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Absolute offset of the array's header.
    #[inline]
    pub fn offset(&self) -> usize {
        self.header
    }

    /// The element type of a typed array (Godot 4.3+), else [`ContainerType::Untyped`]. O(1).
    ///
    /// # Errors
    /// None in practice: the type information was checked when the array was parsed.
    pub fn element_type(&self) -> Result<ContainerType<'a>> {
        Ok(self.type_info()?.0)
    }

    /// The elements with their offsets and raw bytes; stops after the first error.
    ///
    /// A relay can forward an element byte for byte without decoding it:
    ///
    /// ```
    /// use gdvariant::{Options, VariantType};
    ///
    /// // Godot 4.6: var_to_bytes([null, true, 1, 2.5, 0.1, "s", &"sn", Vector2(1, 2), ...])
    /// let bytes = include_bytes!("../../corpus/godot4/array_mixed.bin");
    /// let array = gdvariant::parse(bytes, Options::godot4())?.as_array().expect("an array");
    /// let mut forwarded = Vec::new();
    /// for element in array.elements() {
    ///     let element = element?;
    ///     if element.variant_type() == VariantType::String {
    ///         forwarded.extend_from_slice(element.raw_bytes()); // header included
    ///     }
    /// }
    /// // "s": header 4, length 1, "s" and three bytes of padding.
    /// assert_eq!(forwarded, [4, 0, 0, 0, 1, 0, 0, 0, b's', 0, 0, 0]);
    /// # Ok::<(), gdvariant::Error>(())
    /// ```
    ///
    /// Cost: each step reads one element's head and walks the rest of it to find where it ends,
    /// O(its bytes), so one iteration
    /// is O(the container's bytes), on the stack, allocating nothing. A nested walk through
    /// these iterators (each level iterating the containers it finds) re-walks every child
    /// once per level above it: O(bytes x depth) for a whole nested value. For one pass in
    /// O(bytes), read the value with a [`Cursor`] ([`cursor`](Self::cursor)) or a
    /// [`Tape`](crate::view::Tape).
    pub fn elements(&self) -> Elements<'a> {
        Elements::new(self.scope, self.first(), self.count)
    }

    /// A [`Cursor`] over the whole array: the array itself, then every value inside it, each
    /// read once. The way to visit nested containers in O(bytes) (iterating the containers
    /// found by [`elements`](Self::elements) walks each of them once more per level).
    pub fn cursor(&self) -> Cursor<'a> {
        Cursor::at(self.scope.buf, self.header, self.scope.options, self.scope.depth)
    }

    /// The element values; stops after the first error. A String's or StringName's bytes are
    /// checked once as UTF-8 on the way, so that [`GdStr::to_str`](crate::view::GdStr::to_str)
    /// does not read them again.
    ///
    /// Cost: each step reads one element's head and walks the rest of it to find where it ends,
    /// O(its bytes), so one iteration
    /// is O(the container's bytes), on the stack, allocating nothing. A nested walk through
    /// these iterators (each level iterating the containers it finds) re-walks every child
    /// once per level above it: O(bytes x depth) for a whole nested value. For one pass in
    /// O(bytes), read the value with a [`Cursor`] ([`cursor`](Self::cursor)) or a
    /// [`Tape`](crate::view::Tape).
    pub fn iter(&self) -> impl Iterator<Item = Result<VariantRef<'a>>> + 'a {
        Values(self.elements())
    }

    /// Element `index`, `Ok(None)` past the end. O(bytes before the element): finding element
    /// `i` walks elements `0..i`. To visit every element, iterate ([`iter`](Self::iter),
    /// [`elements`](Self::elements)): O(bytes of the array) for all of them, where `get(i)` for
    /// each `i` is quadratic.
    ///
    /// # Errors
    /// A malformed element at or before `index`.
    pub fn get(&self, index: usize) -> Result<Option<VariantRef<'a>>> {
        Ok(self.get_element(index)?.map(|e| e.value()))
    }

    /// Element `index` with its offset and raw bytes, `Ok(None)` past the end.
    ///
    /// # Errors
    /// A malformed element at or before `index`.
    pub fn get_element(&self, index: usize) -> Result<Option<Element<'a>>> {
        self.elements().nth(index).transpose()
    }

    /// The type information and the position of the count.
    fn type_info(&self) -> Result<(ContainerType<'a>, usize)> {
        let buf = self.scope.buf;
        let header = crate::wire::read::u32_at(buf, self.header)?;
        let kind = kind_bits(self.scope.options.version(), header, 16);
        read_container_type(buf, self.header.saturating_add(4), kind, self.scope.options)
    }
}

/// A run of consecutive values: the elements of an array, or the keys and values of a
/// dictionary. Yields each as an [`Element`]; fused after the first error.
#[derive(Clone, Debug)]
pub struct Elements<'a> {
    scope: Scope<'a>,
    pos: usize,
    left: u32,
}

impl<'a> Elements<'a> {
    /// `count` values from `first`, children of the container described by `scope`.
    pub(crate) fn new(scope: Scope<'a>, first: usize, count: u32) -> Self {
        Elements { scope, pos: first, left: count }
    }
}

impl<'a> Iterator for Elements<'a> {
    type Item = Result<Element<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.left = self.left.checked_sub(1)?;
        let Scope { buf, options, depth } = self.scope;
        let Some(child_depth) = depth.checked_add(1) else {
            self.left = 0;
            return Some(Err(error_at(buf, self.pos, crate::wire::error::ErrorKind::DepthLimit)));
        };
        match walk(buf, self.pos, options, child_depth, Mode::Skip) {
            Ok(end) => {
                let element = Element::new(buf, self.pos, end, options, child_depth);
                self.pos = end;
                Some(Ok(element))
            }
            Err(error) => {
                self.left = 0;
                Some(Err(error))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left as usize))
    }
}

impl<'a> Elements<'a> {
    /// The next value, read in the same step that finds its end (its head is read once, where
    /// [`next`](Iterator::next) walks it and [`Element::value`] reads the head again): what
    /// the iterators of values use. Fused after the first error, as `next`.
    #[inline]
    pub(crate) fn next_value(&mut self) -> Option<Result<VariantRef<'a>>> {
        Some(self.next_read()?.map(|(value, _, _)| value))
    }

    /// [`next_value`](Self::next_value) with where the value's bytes start and end. The common
    /// leaves are read from the header the walk's short path reads, a string's bytes checked
    /// once as UTF-8 on the way ([`GdStr::checked`](super::string::GdStr)).
    #[inline(always)]
    pub(crate) fn next_read(&mut self) -> Option<Result<(VariantRef<'a>, usize, usize)>> {
        self.left = self.left.checked_sub(1)?;
        let Scope { buf, options, depth } = self.scope;
        let pos = self.pos;
        let Some(depth) = depth.checked_add(1) else {
            return self.fail(error_at(buf, pos, crate::wire::error::ErrorKind::DepthLimit));
        };
        match leaf_value::<true>(buf, pos, options, depth) {
            Ok(Some((value, end))) => {
                self.pos = end;
                return Some(Ok((value, pos, end)));
            }
            Ok(None) => {}
            Err(error) => return self.fail(error),
        }
        let (value, extent) = match parse_head(buf, pos, options, depth) {
            Ok(head) => head,
            Err(error) => return self.fail(error),
        };
        match end_after_head(buf, pos, extent, options, depth) {
            Ok(end) => {
                self.pos = end;
                Some(Ok((value, pos, end)))
            }
            Err(error) => self.fail(error),
        }
    }

    /// Ends the run after `error`, which is given.
    #[cold]
    fn fail<T>(&mut self, error: crate::Error) -> Option<Result<T>> {
        self.left = 0;
        Some(Err(error))
    }
}

/// The values of a run of [`Elements`]: what [`ArrayRef::iter`] gives.
#[derive(Clone, Debug)]
pub(crate) struct Values<'a>(pub(crate) Elements<'a>);

impl<'a> Iterator for Values<'a> {
    type Item = Result<VariantRef<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_value()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl core::iter::FusedIterator for Values<'_> {}

impl core::iter::FusedIterator for Elements<'_> {}
