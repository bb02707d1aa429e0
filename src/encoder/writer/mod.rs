//! [`Writer`]: the streaming builder every encoding goes through.
//!
//! This file holds the writer itself, its bookkeeping (open containers, depth, counts) and the
//! low-level puts; `values.rs` the one-call values, `containers.rs` arrays and dictionaries
//! (the headers of typed ones), `packed.rs` the packed arrays.

use zerocopy::IntoBytes;

use super::{EncodeError, EncodeOptions, Output};
use crate::view::element_type::ElementType;
use crate::view::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2,
    Vector3, Vector4,
};
use crate::view::value::FLAG_64;
use crate::wire::exact_float::{narrow_exact, widen_exact};
use crate::wire::work;
use crate::{MAX_DEPTH, VariantType, Version, math::Precision, view::Element};

mod containers;
mod packed;
mod values;

/// The class name Godot declares for class- and script-typed containers without full objects.
pub(crate) const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// Largest string, packed array (in bytes) or element count Godot's signed 32-bit sizes allow.
const MAX_SIZE: usize = i32::MAX as usize;

/// A real number type a math value can be given in: `f32` or `f64`. Written in the precision of
/// [`EncodeOptions::precision`]: an `f32` widens exactly, an `f64` narrows to the nearest `f32`
/// (a NaN stays a NaN with its sign and the top of its payload).
pub trait Real: Copy + sealed::Sealed {
    /// The value as an `f32`.
    #[doc(hidden)]
    fn single(self) -> f32;
    /// The value as an `f64`.
    #[doc(hidden)]
    fn double(self) -> f64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl Real for f32 {
    fn single(self) -> f32 {
        self
    }
    fn double(self) -> f64 {
        widen_exact(self)
    }
}

impl Real for f64 {
    fn single(self) -> f32 {
        narrow_exact(self)
    }
    fn double(self) -> f64 {
        self
    }
}

/// A container still being written.
#[derive(Clone, Copy, Debug)]
struct Open {
    /// Values still expected (a dictionary counts keys and values, an object property values).
    left: u32,
    /// The container is a full object: each value follows a property name.
    properties: bool,
    /// A property name is due.
    name_due: bool,
    /// Always zero: with it an unused slot is all zero bytes (no padding), so setting up a
    /// writer's bookkeeping is one `memset`.
    _zero: u16,
}

impl Open {
    /// An unused slot.
    const UNUSED: Open = Open { left: 0, properties: false, name_due: false, _zero: 0 };
}

/// Containers a [`Writer`] can hold open by default: one per depth from 0 to [`MAX_DEPTH`], so
/// it writes everything Godot reads.
pub const DEFAULT_NESTING: usize = MAX_DEPTH as usize + 1;

/// Writes one value in Godot's format into an [`Output`], piece by piece.
///
/// Scalars, strings, math values and packed arrays are written by one call each. A container is
/// opened with its count ([`begin_array`](Writer::begin_array),
/// [`begin_dictionary`](Writer::begin_dictionary) (then key, value, key, value, ...),
/// [`begin_object`](Writer::begin_object) (then [`property_name`](Writer::property_name), value,
/// ...)) and closes by itself when its last value is written. [`finish`](Writer::finish)
/// checks that the value is complete and returns the output.
///
/// ```
/// use gdvariant::{EncodeOptions, Options, Writer};
/// use gdvariant::math::Vector2;
///
/// // {"type": "move", "pos": Vector2(1.5, -2), "seq": 7}, as Godot 4 writes it.
/// let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
/// writer.begin_dictionary(3)?;
/// writer.string("type")?;
/// writer.string("move")?;
/// writer.string("pos")?;
/// writer.vector2(Vector2 { x: 1.5f32, y: -2.0 })?;
/// writer.string("seq")?;
/// writer.int(7)?;
/// let bytes = writer.finish()?;
///
/// let value = gdvariant::parse(&bytes, Options::godot4())?;
/// let seq = value.as_dictionary().unwrap().get("seq")?.and_then(|v| v.as_int());
/// assert_eq!(seq, Some(7));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Every method checks the value against the [`EncodeOptions`] (the type exists in the version,
/// the depth limit, full objects) and the open containers (no more values than declared). After
/// an error the output holds a partial value and the writer should be dropped.
///
/// The writer never allocates: it keeps 8 bytes of bookkeeping per container it can hold open,
/// `NESTING` of them, by default [`DEFAULT_NESTING`] (8 KiB, every depth Godot accepts). Code
/// that writes many small values (a relay answering packets) can make a lighter writer that
/// nests at most `N` containers with [`Writer::with_nesting`]; deeper values are
/// [`EncodeError::DepthLimit`].
///
/// Costs: each call is O(1) plus O(the bytes it writes) (a packed array of vectors or colors
/// converts each element); a container closes in O(1). No recursion, no allocation of its own
/// (a `Vec<u8>` output grows). The work counter (feature `work-counter`) counts a unit per
/// value and one per 64 bytes of strings, packed arrays and spliced elements
/// (`tests/encoder_bounds.rs`).
pub struct Writer<O, const NESTING: usize = DEFAULT_NESTING> {
    out: O,
    options: EncodeOptions,
    open: [Open; NESTING],
    /// Containers open: the depth of the next value.
    depth: usize,
    /// A top-level value has been started.
    started: bool,
}

impl<O: core::fmt::Debug, const NESTING: usize> core::fmt::Debug for Writer<O, NESTING> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("out", &self.out)
            .field("options", &self.options)
            .field("depth", &self.depth)
            .finish()
    }
}

impl<O: Output> Writer<O> {
    /// A writer of one value into `out`, for values nested as deep as Godot accepts.
    pub fn new(out: O, options: EncodeOptions) -> Self {
        Writer::with_nesting(out, options)
    }
}

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// A writer of one value into `out` that holds at most `NESTING` containers open at once
    /// (`Writer::<_, 8>::with_nesting(out, options)`): 8 bytes each, set up on every call.
    pub fn with_nesting(out: O, options: EncodeOptions) -> Self {
        Writer { out, options, open: [Open::UNUSED; NESTING], depth: 0, started: false }
    }

    /// The options the writer follows.
    pub fn options(&self) -> EncodeOptions {
        self.options
    }

    /// The output so far.
    pub fn output(&self) -> &O {
        &self.out
    }

    /// Checks that the value is complete and returns the output.
    ///
    /// # Errors
    /// [`EncodeError::Unfinished`] when no value was written or a container still expects values.
    pub fn finish(self) -> Result<O, EncodeError> {
        if !self.started {
            return Err(EncodeError::Unfinished { missing: 1 });
        }
        if let Some(open) = self.top() {
            return Err(EncodeError::Unfinished { missing: open.left });
        }
        Ok(self.out)
    }

    /// Copies an element read from another buffer, byte for byte (a relay forwarding a subtree
    /// without decoding it). The element counts as one value. Its bytes are what the sender wrote
    /// (NodePath padding included); a final `PackedByteArray` that lacked its padding gets it.
    /// What lies inside it is not re-checked against this writer's options (the options it was
    /// read with decided what it may hold): neither its nesting against the depth limit nor
    /// full objects, which an element read with `allow_objects` may hold even when this writer
    /// writes none.
    ///
    /// # Errors
    /// [`EncodeError::VersionMismatch`] when the element was read as the other version; see
    /// [`Writer`].
    pub fn splice(&mut self, element: &Element<'_>) -> Result<(), EncodeError> {
        if element.options().version() != self.options.version() {
            return Err(EncodeError::VersionMismatch);
        }
        self.begin_checked(element.variant_type())?;
        let raw = element.raw_bytes();
        self.put_bytes(raw)?;
        self.put_padding(raw.len())?;
        self.end();
        Ok(())
    }

    // --- bookkeeping ---

    fn top(&self) -> Option<&Open> {
        self.depth.checked_sub(1).and_then(|top| self.open.get(top))
    }

    fn top_mut(&mut self) -> Option<&mut Open> {
        self.depth.checked_sub(1).and_then(|top| self.open.get_mut(top))
    }

    /// Starts a value of type `ty`: checks it may come here, then writes its header with
    /// `flags`.
    fn begin(&mut self, ty: VariantType, flags: u32) -> Result<(), EncodeError> {
        let id = self.begin_checked(ty)?;
        self.put_u32(u32::from(id) | flags)
    }

    /// Checks that a value of type `ty` may come next and counts it; returns its wire id.
    fn begin_checked(&mut self, ty: VariantType) -> Result<u8, EncodeError> {
        // One unit per value: its checks and its fixed-size header and payload.
        work::add(1);
        let version = self.options.version();
        let id = ty.id(version).ok_or(EncodeError::NotInVersion { ty, version })?;
        if self.depth > usize::from(self.options.max_depth()) {
            return Err(EncodeError::DepthLimit);
        }
        let started = self.started;
        match self.top_mut() {
            None if started => return Err(EncodeError::TooManyValues),
            None => {}
            Some(open) if open.properties && open.name_due => {
                return Err(EncodeError::PropertyOrder);
            }
            Some(open) => {
                open.left = open.left.checked_sub(1).ok_or(EncodeError::TooManyValues)?;
            }
        }
        self.started = true;
        Ok(id)
    }

    /// Ends a value: closes every container it completes.
    fn end(&mut self) {
        while let Some(open) = self.top_mut() {
            if open.left > 0 {
                open.name_due = open.properties;
                return;
            }
            // Each container is closed once.
            work::add(1);
            self.depth = self.depth.saturating_sub(1);
        }
    }

    /// Opens a container that expects `left` values (or ends it at once when empty).
    fn open_container(&mut self, left: u32, properties: bool) -> Result<(), EncodeError> {
        if left == 0 {
            self.end();
            return Ok(());
        }
        let slot = self.open.get_mut(self.depth).ok_or(EncodeError::DepthLimit)?;
        *slot = Open { left, properties, name_due: properties, _zero: 0 };
        self.depth = self.depth.saturating_add(1);
        Ok(())
    }

    // --- pieces ---

    /// A value made of a header and a fixed payload (its length is a constant at every call, so
    /// each write is a fixed-size copy once inlined).
    #[inline]
    fn leaf(&mut self, ty: VariantType, flags: u32, payload: &[u8]) -> Result<(), EncodeError> {
        self.begin(ty, flags)?;
        self.out.write(payload)?;
        self.end();
        Ok(())
    }

    /// A value made of a header and one 32-bit word, written at once.
    #[inline]
    fn leaf_word(&mut self, ty: VariantType, word: u32) -> Result<(), EncodeError> {
        let id = self.begin_checked(ty)?;
        self.out.write(&pair(u32::from(id), word))?;
        self.end();
        Ok(())
    }

    /// A `String` or `StringName`: header and length written at once, the bytes, the padding.
    #[inline]
    pub(crate) fn text(&mut self, ty: VariantType, text: &[u8]) -> Result<(), EncodeError> {
        let id = self.begin_checked(ty)?;
        let len = count_u32(text.len(), MAX_SIZE)?;
        self.out.write(&pair(u32::from(id), len))?;
        self.put_bytes(text)?;
        self.put_padding(text.len())?;
        self.end();
        Ok(())
    }

    #[inline]
    fn put_u32(&mut self, value: u32) -> Result<(), EncodeError> {
        self.out.write(&value.to_le_bytes())
    }

    /// Bytes of any length: one unit per 64 bytes (the fixed-size writes around them are in
    /// the unit of their value), as [`crate::wire::read`] counts a read.
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        work::add(bytes.len() >> 6);
        self.out.write(bytes)
    }

    /// A string: its length, its bytes, zero padding to 4.
    fn put_string(&mut self, text: &[u8]) -> Result<(), EncodeError> {
        self.put_u32(count_u32(text.len(), MAX_SIZE)?)?;
        self.put_bytes(text)?;
        self.put_padding(text.len())
    }

    /// The zeros that follow `len` bytes up to a multiple of 4 (one fixed-size write each).
    #[inline]
    fn put_padding(&mut self, len: usize) -> Result<(), EncodeError> {
        match crate::wire::read::padding(len) {
            1 => self.out.write(&[0]),
            2 => self.out.write(&[0; 2]),
            3 => self.out.write(&[0; 3]),
            _ => Ok(()),
        }
    }
}

/// Two 32-bit words, little-endian: a header and its first word.
#[inline]
fn pair(first: u32, second: u32) -> [u8; 8] {
    (u64::from(first) | u64::from(second) << 32).to_le_bytes()
}

/// Collects the `K` components `visit` gives, each converted by `word` (`zero` fills the rest,
/// which never happens: every caller's `K` is its type's component count).
#[inline]
fn components<R, W: Copy, const K: usize>(
    zero: W,
    visit: impl FnOnce(&mut dyn FnMut(R)),
    word: impl Fn(R) -> W,
) -> [W; K] {
    let mut words = [zero; K];
    let mut slots = words.iter_mut();
    visit(&mut |c| {
        if let Some(slot) = slots.next() {
            *slot = word(c);
        }
    });
    words
}

/// Words whose memory bytes are their little-endian bytes.
#[inline]
fn words_le<W: Word, const K: usize>(words: &[W; K]) -> [W; K] {
    words.map(W::to_le)
}

/// A word of a math value: `u32` or `u64`.
trait Word: Copy + IntoBytes + zerocopy::Immutable {
    fn to_le(self) -> Self;
}

impl Word for u32 {
    fn to_le(self) -> Self {
        u32::to_le(self)
    }
}

impl Word for u64 {
    fn to_le(self) -> Self {
        u64::to_le(self)
    }
}

/// `len` as a u32, if it is at most `max`.
fn count_u32(len: usize, max: usize) -> Result<u32, EncodeError> {
    if len > max {
        return Err(EncodeError::TooLarge { len });
    }
    u32::try_from(len).map_err(|_| EncodeError::TooLarge { len })
}
