//! [`Cursor`]: a whole value read once, front to back, as a stream of [`Event`]s.
//!
//! Container iterators find where each element ends by walking it, so a program that iterates
//! a container and then the containers inside it walks each inner container once per level
//! above it: O(bytes x depth). The cursor reads every byte once instead: it announces a
//! container ([`Event::Open`]), then its children in order, then its end ([`Event::Close`]),
//! and never goes back. Whole-value consumers (JSON, text, serialization) are built on it.
//!
//! What is checked is what container iteration checks: every header, count and length, the
//! depth limit, `allow_objects` and object classes, with the same errors at the same offsets.
//! A string's text is checked when the caller reads it ([`GdStr::to_str`]), or run
//! [`validate`](crate::validate) first. [`Cursor::next_read`] gives the same steps with each
//! value read in the step that finds it (a [`Read`]), for readers that want every value and
//! not where it lies: the fastest full read. Its strings come checked once as standard UTF-8
//! (`core::str::from_utf8`), so that [`GdStr::to_str`] and [`GdStr::check`] do not read them
//! again; text that is not (Godot 3's overlong forms, or text Godot refuses) is left to Godot's
//! rules when asked, so the steps and errors are those of the events. The open containers are
//! kept in a fixed array inside the cursor: 32 levels set up with it (256 bytes), the full 8 KiB
//! (enough for Godot's 1024 levels) in the same place once a value nests deeper: no recursion,
//! no allocation, and little to set up for a small value.

use core::iter::FusedIterator;

use super::element::Element;
use super::object::ObjectRef;
use super::string::{GdStr, read_string};
use super::value::{Extent, VariantRef, parse_head};
use super::walk::{Mode, leaf_end, leaf_value, strings_end, walk};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::options::{MAX_DEPTH, Options};
use crate::wire::read::error_at;

/// One step of a [`Cursor`].
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A value that holds no other values (everything but arrays, dictionaries and full
    /// objects), with where it sits and its bytes.
    Leaf(Element<'a>),
    /// An array, a dictionary or a full object begins at `offset`. Its children follow (a
    /// dictionary's alternate key, value, key, value; each of a full object's values follows
    /// its [`Event::Property`] name), then its [`Event::Close`].
    Open {
        /// The container, as [`parse`](crate::parse) would give it.
        value: VariantRef<'a>,
        /// Absolute offset of its header.
        offset: usize,
    },
    /// The name of a full object's property; the property's value comes next.
    Property(GdStr<'a>),
    /// The innermost open container is complete.
    Close {
        /// Where its bytes end (exclusive).
        end: usize,
    },
}

/// An open container on the cursor's stack: the values it still has to give in the low 32
/// bits, bit 32 when each value follows a property name.
type Frame = u64;

/// Bit 32 of a [`Frame`].
const PROPERTIES: u64 = 1 << 32;

/// Frames for the deepest value accepted: containers open at depths `0..=MAX_DEPTH`.
const DEEP: usize = MAX_DEPTH as usize + 1;

/// Frames a [`Cursor`] holds before it needs the full [`DEEP`] (nearly every value).
const SHALLOW: usize = 32;

/// A forward reader over one value that yields each part of it once, in wire order: O(n) for
/// the whole value, whatever its nesting; O(1) stack (the cursor holds an 8 KiB array of open
/// containers, of which only the first 256 bytes are set up until a value nests past 32
/// levels); no allocation.
///
/// It is an [`Iterator`] of `Result<Event>`, fused after the value ends or after the first
/// error. Leaves come with their [`Element`] (offset, raw bytes, value); containers with their
/// head ([`ArrayRef`](crate::view::ArrayRef), [`DictionaryRef`](crate::view::DictionaryRef),
/// [`FullObject`](crate::view::FullObject)) so that their length and type information are at hand.
/// Do not iterate the container heads it hands out if you read the events after them: that
/// walks the container a second time. [`Cursor::skip_container`] passes over the rest of a container.
///
/// ```
/// use gdvariant::{view::Cursor, view::Event, Options};
///
/// // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
/// let bytes = include_bytes!("../../corpus/godot4/dict_nested.bin");
/// let mut ints = 0;
/// let mut deepest = 0;
/// let mut cursor = Cursor::new(bytes, Options::godot4());
/// while let Some(event) = cursor.next() {
///     match event? {
///         Event::Leaf(leaf) => ints += leaf.value().as_int().unwrap_or(0),
///         Event::Open { .. } => deepest = deepest.max(cursor.depth()),
///         _ => {}
///     }
/// }
/// assert_eq!((ints, deepest), (3, 5));
/// # Ok::<(), gdvariant::Error>(())
/// ```
#[derive(Clone)]
pub struct Cursor<'a> {
    core: Core<'a, Frames, true>,
}

/// The public [`Cursor`]'s open containers: [`SHALLOW`] frames in place, all that is set up for
/// a new cursor (256 bytes), switched to the full [`DEEP`] (8 KiB, in the same place, no
/// allocation) once a value nests deeper.
// The large variant is the point: the full stack in place, without allocating.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Frames {
    Shallow([Frame; SHALLOW]),
    Deep([Frame; DEEP]),
}

impl Stack for Frames {
    #[inline]
    fn put(&mut self, at: usize, frame: Frame) -> bool {
        match self {
            Frames::Shallow(frames) => {
                if let Some(slot) = frames.get_mut(at) {
                    *slot = frame;
                    return true;
                }
                if at >= DEEP {
                    return false;
                }
                let mut deep = [0; DEEP];
                deep.iter_mut().zip(frames.iter()).for_each(|(to, from)| *to = *from);
                *self = Frames::Deep(deep);
                self.put(at, frame)
            }
            Frames::Deep(frames) => frames.put(at, frame),
        }
    }

    #[inline]
    fn at(&self, at: usize) -> Frame {
        match self {
            Frames::Shallow(frames) => frames.get(at).copied().unwrap_or(0),
            Frames::Deep(frames) => frames.at(at),
        }
    }
}

/// Where a cursor keeps the containers open around the current one: a fixed array in the
/// public [`Cursor`] (no allocation: 256 bytes to set up, 8 KiB once a value nests past 32
/// levels), a `Vec` grown on demand in the cursors
/// that build a [`Tape`](super::tape::Tape) (nothing to set up for a small value).
pub(crate) trait Stack {
    /// Keeps `frame` at `at` (the number of frames below it); `false` past the depth limit.
    fn put(&mut self, at: usize, frame: Frame) -> bool;
    /// The frame kept at `at`.
    fn at(&self, at: usize) -> Frame;
}

impl Stack for [Frame; DEEP] {
    #[inline]
    fn put(&mut self, at: usize, frame: Frame) -> bool {
        match self.get_mut(at) {
            Some(slot) => {
                *slot = frame;
                true
            }
            None => false,
        }
    }

    #[inline]
    fn at(&self, at: usize) -> Frame {
        self.get(at).copied().unwrap_or(0)
    }
}

#[cfg(feature = "alloc")]
impl Stack for alloc::vec::Vec<Frame> {
    #[inline]
    fn put(&mut self, at: usize, frame: Frame) -> bool {
        if let Some(slot) = self.get_mut(at) {
            *slot = frame;
            return true;
        }
        if at == self.len() && at < DEEP {
            self.push(frame);
            return true;
        }
        false
    }

    #[inline]
    fn at(&self, at: usize) -> Frame {
        self.get(at).copied().unwrap_or(0)
    }
}

/// The cursor's reading, over any [`Stack`]. `TEXT`: whether [`next_read`](Core::next_read)
/// checks each string's bytes as UTF-8 ([`GdStr::checked`](super::string::GdStr)), for callers
/// that read the text with [`GdStr::to_str`] (the public [`Cursor`]); the JSON writers, which
/// copy plain ASCII as bytes and check their output in blocks, do not.
#[derive(Clone)]
pub(crate) struct Core<'a, S, const TEXT: bool = false> {
    buf: &'a [u8],
    options: Options,
    /// Where the next value (or property name) starts.
    pos: usize,
    /// Depth of the next value.
    depth: u16,
    /// Values the current container still has to give.
    left: u32,
    /// Whether the current container's values follow property names.
    properties: bool,
    /// The next value's property name has been given.
    named: bool,
    /// Open containers around the current one (`stack[..saved]`).
    saved: usize,
    /// How many containers are open (0 at the top level).
    open: usize,
    state: State,
    stack: S,
}

/// Where a [`Cursor`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The top-level value has not been read.
    Start,
    /// Inside a container.
    Inside,
    /// The value ended, or an error was given.
    Done,
}

impl<'a> Cursor<'a> {
    /// A cursor over the value at the start of `bytes`. O(1); nothing is read until
    /// [`next`](Iterator::next).
    pub fn new(bytes: &'a [u8], options: Options) -> Self {
        Cursor::at(bytes, 0, options, 0)
    }

    /// A cursor over the value whose header is at `pos`, at nesting `depth`.
    pub(crate) fn at(buf: &'a [u8], pos: usize, options: Options, depth: u16) -> Self {
        Cursor { core: Core::new(buf, pos, options, depth, Frames::Shallow([0; SHALLOW])) }
    }

    /// How many containers are open around the next event: 0 before the value and after it,
    /// 1 inside the top-level container, and so on.
    #[inline]
    pub fn depth(&self) -> usize {
        self.core.open
    }

    /// Where the cursor stands: the offset of the next value (or property name) it reads, or
    /// the end of the value once it is complete.
    #[inline]
    pub fn offset(&self) -> usize {
        self.core.pos
    }

    /// Passes over the rest of the innermost open container, as if its remaining events and
    /// its [`Event::Close`] had been read, and returns its end. O(bytes skipped). `Ok(None)`
    /// when no container is open.
    ///
    /// # Errors
    /// The first structural problem in the skipped bytes; the cursor is then done.
    pub fn skip_container(&mut self) -> Result<Option<usize>> {
        self.core.skip_container()
    }

    /// The next step as a [`Read`]: the same steps as [`next`](Iterator::next), with each
    /// value read in the step that finds it, once (the common leaves from the header the step
    /// reads), where an [`Event::Leaf`] gives the leaf's position and bytes and
    /// [`Element::value`] reads its head again. A String's or StringName's bytes are checked
    /// once here as standard UTF-8; when they pass (and hold no NUL or byte order mark),
    /// [`GdStr::to_str`] and [`GdStr::check`] answer in O(1). For a reader that looks at every
    /// value and not at where it lies (an encoder, a printer, a sum). O(1) per step plus
    /// O(length) per string, the same checks and errors as `next`; the two can be mixed.
    ///
    /// ```
    /// use gdvariant::{view::Cursor, view::Read, Options};
    ///
    /// // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
    /// let bytes = include_bytes!("../../corpus/godot4/dict_nested.bin");
    /// let (mut ints, mut keys) = (0, String::new());
    /// let mut cursor = Cursor::new(bytes, Options::godot4());
    /// while let Some(step) = cursor.next_read() {
    ///     match step? {
    ///         Read::Value(value) => match value.as_str() {
    ///             Some(text) => keys.push_str(text),
    ///             None => ints += value.as_int().unwrap_or(0),
    ///         },
    ///         Read::Property(_) | Read::Close => {}
    ///     }
    /// }
    /// assert_eq!((ints, keys.as_str()), (3, "abcde"));
    /// # Ok::<(), gdvariant::Error>(())
    /// ```
    #[inline]
    pub fn next_read(&mut self) -> Option<Result<Read<'a>>> {
        self.core.next_read()
    }
}

/// Where a container value starts: its buffer, header, options and depth.
#[cfg(feature = "alloc")]
fn container_origin(value: VariantRef<'_>) -> Option<(&[u8], usize, Options, u16)> {
    let (scope, header) = match value {
        VariantRef::Array(array) => array.origin(),
        VariantRef::Dictionary(dictionary) => dictionary.origin(),
        VariantRef::Object(ObjectRef::Full(object)) => object.origin(),
        _ => return None,
    };
    Some((scope.buf, header, scope.options, scope.depth))
}

/// A cursor whose open containers are kept in a `Vec` grown on demand: what builds a
/// [`Tape`](super::tape::Tape), which allocates anyway, without the 8 KiB array to set up. Its
/// [`next_read`](Core::next_read) does not check strings' text.
#[cfg(feature = "alloc")]
pub(crate) type HeapCursor<'a> = Core<'a, alloc::vec::Vec<Frame>>;

#[cfg(feature = "alloc")]
impl<'a> HeapCursor<'a> {
    /// A cursor over the value whose header is at `pos`, at nesting `depth`.
    pub(crate) fn heap_at(buf: &'a [u8], pos: usize, options: Options, depth: u16) -> Self {
        Core::new(buf, pos, options, depth, alloc::vec::Vec::new())
    }

    /// A cursor over a container value; `None` for any other value.
    pub(crate) fn heap_of_container(value: VariantRef<'a>) -> Option<Self> {
        let (buf, pos, options, depth) = container_origin(value)?;
        Some(HeapCursor::heap_at(buf, pos, options, depth))
    }
}

impl<'a, S: Stack, const TEXT: bool> Core<'a, S, TEXT> {
    fn new(buf: &'a [u8], pos: usize, options: Options, depth: u16, stack: S) -> Self {
        Core {
            buf,
            options,
            pos,
            depth,
            left: 0,
            properties: false,
            named: false,
            saved: 0,
            open: 0,
            state: State::Start,
            stack,
        }
    }

    /// The buffer and options the cursor reads with.
    #[cfg(feature = "alloc")]
    pub(crate) fn source(&self) -> (&'a [u8], Options) {
        (self.buf, self.options)
    }

    /// Passes over the rest of the innermost open container, as if its remaining events and
    /// its [`Event::Close`] had been read, and returns its end. O(bytes skipped). `Ok(None)`
    /// when no container is open.
    ///
    /// # Errors
    /// The first structural problem in the skipped bytes; the cursor is then done.
    pub(crate) fn skip_container(&mut self) -> Result<Option<usize>> {
        if self.state != State::Inside || self.open == 0 {
            return Ok(None);
        }
        let result = self.skip_values();
        match result {
            Ok(end) => {
                self.close();
                Ok(Some(end))
            }
            Err(error) => {
                self.state = State::Done;
                Err(error)
            }
        }
    }

    /// Walks the current container's remaining values; returns where it ends.
    fn skip_values(&mut self) -> Result<usize> {
        let version = self.options.version();
        while self.left > 0 {
            if self.properties && !self.named {
                self.pos = read_string(self.buf, self.pos, version)?.1;
            }
            self.named = false;
            self.pos = walk(self.buf, self.pos, self.options, self.depth, Mode::Skip)?;
            self.left = self.left.wrapping_sub(1);
        }
        Ok(self.pos)
    }

    /// Leaves the current (complete) container for the one around it.
    fn close(&mut self) {
        self.open = self.open.saturating_sub(1);
        self.depth = self.depth.saturating_sub(1);
        match self.saved.checked_sub(1) {
            Some(top) => {
                let frame = self.stack.at(top);
                self.left = frame as u32;
                self.properties = frame & PROPERTIES != 0;
                self.saved = top;
            }
            None => self.state = State::Done,
        }
    }

    /// Reads the value at the cursor: a leaf, or the head of a container (which is opened).
    #[inline]
    fn value(&mut self) -> Result<Event<'a>> {
        let (buf, pos, options, depth) = (self.buf, self.pos, self.options, self.depth);
        if let Some(end) = leaf_end::<false>(buf, pos, options, depth)? {
            self.pos = end;
            return Ok(Event::Leaf(Element::new(buf, pos, end, options, depth)));
        }
        let (value, extent) = parse_head(buf, pos, options, depth)?;
        match self.enter(pos, extent)? {
            Some(end) => Ok(Event::Leaf(Element::new(buf, pos, end, options, depth))),
            None => Ok(Event::Open { value, offset: pos }),
        }
    }

    /// Reads the value at the cursor as a [`Read`]: a leaf's value from its head, read once (the
    /// common leaves from the header the walk's short path reads, a string's bytes checked as
    /// UTF-8 on the way), or the head of a container (which is opened).
    #[inline(always)]
    fn read(&mut self) -> Result<Read<'a>> {
        let (buf, pos, options, depth) = (self.buf, self.pos, self.options, self.depth);
        if let Some((value, end)) = leaf_value::<TEXT>(buf, pos, options, depth)? {
            self.pos = end;
            return Ok(Read::Value(value));
        }
        self.read_head()
    }

    /// [`read`](Self::read) for the values the short path does not take: out of line, so that
    /// the general head parser stays out of the step's loop.
    #[inline(never)]
    fn read_head(&mut self) -> Result<Read<'a>> {
        let (value, extent) = parse_head(self.buf, self.pos, self.options, self.depth)?;
        self.enter(self.pos, extent)?;
        Ok(Read::Value(value))
    }

    /// Moves past the value whose head at `pos` said `extent`: past a leaf's bytes (returning
    /// where they end), or into a container, which is opened (`None`).
    #[inline(always)]
    fn enter(&mut self, pos: usize, extent: Extent) -> Result<Option<usize>> {
        let buf = self.buf;
        let (first, items, properties) = match extent {
            Extent::End(end) => {
                self.pos = end;
                return Ok(Some(end));
            }
            Extent::Strings { first, count } => {
                let end = strings_end(buf, first, count, self.options.version(), Mode::Skip)?;
                self.pos = end;
                return Ok(Some(end));
            }
            Extent::Values { first, items } => (first, items, false),
            Extent::Properties { first, count } => (first, count, true),
        };
        // Open the container: the one around it (if any) waits on the stack.
        if self.state == State::Inside {
            let frame = u64::from(self.left) | if self.properties { PROPERTIES } else { 0 };
            if !self.stack.put(self.saved, frame) {
                return Err(error_at(buf, pos, ErrorKind::DepthLimit));
            }
            self.saved = self.saved.saturating_add(1);
        }
        self.state = State::Inside;
        self.open = self.open.saturating_add(1);
        self.pos = first;
        self.left = items;
        self.properties = properties;
        self.named = false;
        self.depth = self.depth.saturating_add(1);
        Ok(None)
    }

    /// The next step of kind `T` ([`Event`] or [`Read`]), or `None` when the value is complete.
    #[inline]
    fn step<T: Step<'a>>(&mut self) -> Result<Option<T>> {
        match self.state {
            State::Done => Ok(None),
            State::Start => {
                let step = T::value(self)?;
                if step.is_leaf() {
                    self.state = State::Done;
                }
                Ok(Some(step))
            }
            State::Inside => {
                if self.left == 0 {
                    let end = self.pos;
                    self.close();
                    return Ok(Some(T::close(end)));
                }
                if self.properties && !self.named {
                    let (name, value_pos) =
                        read_string(self.buf, self.pos, self.options.version())?;
                    self.pos = value_pos;
                    self.named = true;
                    return Ok(Some(T::property(name)));
                }
                self.named = false;
                self.left = self.left.wrapping_sub(1);
                T::value(self).map(Some)
            }
        }
    }

    /// The next [`Read`] ([`Cursor::next_read`]).
    #[inline]
    pub(crate) fn next_read(&mut self) -> Option<Result<Read<'a>>> {
        self.give(|core| core.step::<Read<'a>>())
    }

    /// The outcome of one step: the cursor is done after an error.
    #[inline(always)]
    fn give<T>(&mut self, step: impl FnOnce(&mut Self) -> Result<Option<T>>) -> Option<Result<T>> {
        match step(self) {
            Ok(item) => item.map(Ok),
            Err(error) => {
                self.state = State::Done;
                Some(Err(error))
            }
        }
    }
}

/// One step of a cursor, as [`Event`] or [`Read`] tells it.
trait Step<'a>: Sized {
    /// Reads the value at the cursor.
    fn value<S: Stack, const TEXT: bool>(core: &mut Core<'a, S, TEXT>) -> Result<Self>;
    /// Whether this is a leaf (a top-level leaf ends the cursor).
    fn is_leaf(&self) -> bool;
    /// The innermost open container ended at `end`.
    fn close(end: usize) -> Self;
    /// A full object's property name.
    fn property(name: GdStr<'a>) -> Self;
}

impl<'a> Step<'a> for Event<'a> {
    #[inline(always)]
    fn value<S: Stack, const TEXT: bool>(core: &mut Core<'a, S, TEXT>) -> Result<Self> {
        core.value()
    }
    #[inline(always)]
    fn is_leaf(&self) -> bool {
        matches!(self, Event::Leaf(_))
    }
    #[inline(always)]
    fn close(end: usize) -> Self {
        Event::Close { end }
    }
    #[inline(always)]
    fn property(name: GdStr<'a>) -> Self {
        Event::Property(name)
    }
}

/// One step of [`Cursor::next_read`]: an [`Event`] whose values are read from their heads, once.
///
/// One variant for every value, leaf or container: a [`Read`] is then no larger than the
/// [`VariantRef`] it carries (48 bytes, the value at offset 0, the step's kind in the value's
/// own tag), so that handing it on from step to caller copies it in whole aligned words.
#[derive(Clone, Copy, Debug)]
pub enum Read<'a> {
    /// A value, read from its head in the step that found it. A leaf (every value but arrays,
    /// dictionaries and full objects: [`Read::opens`]) is complete; a container's children
    /// follow (as for [`Event::Open`]), then its [`Read::Close`].
    Value(VariantRef<'a>),
    /// The name of a full object's property; the property's value comes next.
    Property(GdStr<'a>),
    /// The innermost open container is complete.
    Close,
}

impl Read<'_> {
    /// Whether this step opens a container (a [`Read::Value`] that is an array, a dictionary or
    /// a full object), whose children and [`Read::Close`] follow. O(1).
    #[inline]
    pub fn opens(&self) -> bool {
        match self {
            Read::Value(value) => opens(value),
            Read::Property(_) | Read::Close => false,
        }
    }
}

/// Whether `value`, read by a cursor, opens a container.
#[inline]
pub(crate) fn opens(value: &VariantRef<'_>) -> bool {
    matches!(
        value,
        VariantRef::Array(_) | VariantRef::Dictionary(_) | VariantRef::Object(ObjectRef::Full(_))
    )
}

impl<'a> Step<'a> for Read<'a> {
    #[inline(always)]
    fn value<S: Stack, const TEXT: bool>(core: &mut Core<'a, S, TEXT>) -> Result<Self> {
        core.read()
    }
    #[inline(always)]
    fn is_leaf(&self) -> bool {
        !self.opens()
    }
    #[inline(always)]
    fn close(_: usize) -> Self {
        Read::Close
    }
    #[inline(always)]
    fn property(name: GdStr<'a>) -> Self {
        Read::Property(name)
    }
}

impl<'a> Iterator for Cursor<'a> {
    type Item = Result<Event<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.core.next()
    }
}

impl<'a, S: Stack, const TEXT: bool> Iterator for Core<'a, S, TEXT> {
    type Item = Result<Event<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.give(|core| core.step::<Event<'a>>())
    }
}

impl FusedIterator for Cursor<'_> {}

impl<S: Stack, const TEXT: bool> FusedIterator for Core<'_, S, TEXT> {}

impl core::fmt::Debug for Cursor<'_> {
    /// Where the cursor stands; not the buffer or the stack.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cursor")
            .field("offset", &self.core.pos)
            .field("depth", &self.core.open)
            .field("done", &(self.core.state == State::Done))
            .finish()
    }
}
