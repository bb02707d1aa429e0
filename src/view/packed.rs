//! Packed arrays (Godot 3: pool arrays), read in place.
//!
//! A packed array is a u32 count followed by `count` fixed-size little-endian elements (strings
//! aside). Godot checks the count before reading: negative, an overflow of `count * size` in
//! signed 32-bit arithmetic, or more bytes than remain is [`ErrorKind::BadCount`]
//! (`ERR_INVALID_DATA`). `PackedByteArray` only checks `count <= remaining`, and its final
//! padding may be missing.
//!
//! [`Packed<T>`] gives the elements two ways, both zero-copy and O(1):
//!
//! * [`Packed::as_slice`]: `&[T]` in native layout. `Some` only when the host is little-endian
//!   **and** the elements' first byte sits at an address aligned for `T` (4 for `i32`, `f32` and
//!   f32 vectors, 8 for `i64`, `f64` and f64 vectors). Godot aligns values to 4 bytes relative to
//!   the start of the encoding, so 4-aligned types are usually aligned when the buffer is;
//!   8-byte types are often not.
//! * [`Packed::as_le_slice`]: always available, over zerocopy's alignment-1 little-endian types
//!   (`I32`, `F32`, `Vector2<F32>`, ...).
//!
//! `get`, `len` and `iter` work on any host and alignment.

use core::marker::PhantomData;

use zerocopy::little_endian::{F32, F64, I32, I64};
use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::math::{Color, Precision, Rect2, Vector2, Vector3, Vector4};
use super::string::{GdStr, read_string};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::options::Version;
use crate::wire::read::{bytes_at, error_at, remaining, u32_at};

/// An element type of a packed array.
pub trait PackedElement:
    Copy + FromBytes + KnownLayout + Immutable + packed_sealed::Sealed + 'static
{
    /// The same element as alignment-1 little-endian zerocopy types.
    type Le: Copy + FromBytes + KnownLayout + Immutable + 'static;
    /// Converts from the little-endian form.
    fn from_le(le: Self::Le) -> Self;
}

mod packed_sealed {
    pub trait Sealed {}
}

macro_rules! scalar_element {
    ($($t:ty => $le:ty),*) => {$(
        impl packed_sealed::Sealed for $t {}
        impl PackedElement for $t {
            type Le = $le;
            fn from_le(le: $le) -> $t {
                le.get()
            }
        }
    )*};
}
scalar_element!(i32 => I32, i64 => I64, f32 => F32, f64 => F64);

macro_rules! composite_element {
    ($($name:ident<$t:ty, $le:ty>),*) => {$(
        impl packed_sealed::Sealed for $name<$t> {}
        impl PackedElement for $name<$t> {
            type Le = $name<$le>;
            fn from_le(le: $name<$le>) -> $name<$t> {
                le.map(|c| c.get())
            }
        }
    )*};
}
composite_element!(
    Vector2<f32, F32>,
    Vector3<f32, F32>,
    Vector4<f32, F32>,
    Vector2<f64, F64>,
    Vector3<f64, F64>,
    Vector4<f64, F64>,
    Color<f32, F32>,
    Vector2<i32, I32>,
    Vector3<i32, I32>,
    Vector4<i32, I32>,
    Rect2<i32, I32>
);

/// A packed array of `T`, borrowed from the buffer. Every method but `iter`/`to_vec` is O(1).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Packed<'a, T> {
    raw: &'a [u8],
    element: PhantomData<T>,
}

impl<'a, T: PackedElement> Packed<'a, T> {
    /// `raw` must be a whole number of elements.
    pub(crate) fn new(raw: &'a [u8]) -> Self {
        Packed { raw, element: PhantomData }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.raw.len().checked_div(size_of::<T>()).unwrap_or(0)
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// The elements as a native slice, when the host is little-endian and the data is aligned for
    /// `T` (see the [module docs](self)); otherwise `None`.
    pub fn as_slice(&self) -> Option<&'a [T]> {
        if cfg!(target_endian = "little") { <[T]>::ref_from_bytes(self.raw).ok() } else { None }
    }

    /// The elements as alignment-1 little-endian values. Always available.
    pub fn as_le_slice(&self) -> &'a [T::Le] {
        <[T::Le]>::ref_from_bytes(self.raw).unwrap_or(&[])
    }

    /// Element `index`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<T> {
        self.as_le_slice().get(index).map(|&le| T::from_le(le))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + DoubleEndedIterator + 'a {
        self.as_le_slice().iter().map(|&le| T::from_le(le))
    }

    /// The elements, copied. O(n).
    #[cfg(feature = "alloc")]
    pub fn to_vec(&self) -> alloc::vec::Vec<T> {
        match self.as_slice() {
            Some(slice) => slice.to_vec(),
            None => self.iter().collect(),
        }
    }

    /// The element bytes exactly as on the wire (after the count).
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.raw
    }
}

impl<T: PackedElement + core::fmt::Debug> core::fmt::Debug for Packed<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        const SHOWN: usize = 8;
        let mut list = f.debug_list();
        list.entries(self.iter().take(SHOWN));
        if self.len() > SHOWN {
            list.entry(&format_args!("... {} elements", self.len()));
        }
        list.finish()
    }
}

/// A packed array of real-valued vectors: f32 elements (`S`), or f64 ones (`D`) when header
/// bit 16 is set (Godot 4 double builds).
#[derive(Clone, Copy, PartialEq)]
pub enum PackedReals<'a, S, D> {
    /// Single-precision elements.
    Single(Packed<'a, S>),
    /// Double-precision elements.
    Double(Packed<'a, D>),
}

impl<S, D> core::fmt::Debug for PackedReals<'_, S, D>
where
    S: PackedElement + core::fmt::Debug,
    D: PackedElement + core::fmt::Debug,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PackedReals::Single(p) => p.fmt(f),
            PackedReals::Double(p) => write!(f, "{p:?} (f64)"),
        }
    }
}

impl<S: PackedElement, D: PackedElement> PackedReals<'_, S, D> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            PackedReals::Single(p) => p.len(),
            PackedReals::Double(p) => p.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The wire precision.
    pub fn precision(&self) -> Precision {
        match self {
            PackedReals::Single(_) => Precision::Single,
            PackedReals::Double(_) => Precision::Double,
        }
    }
}

/// A `PackedStringArray` (Godot 3: `PoolStringArray`). Each element is a string whose declared
/// length counts a trailing NUL, which ends the text; a missing NUL is accepted.
/// A negative count is an empty array, as in Godot.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PackedStrings<'a> {
    buf: &'a [u8],
    first: usize,
    count: u32,
    version: Version,
}

impl<'a> PackedStrings<'a> {
    /// Reads the count at `pos`; the strings are not looked at. O(1).
    pub(crate) fn read(buf: &'a [u8], pos: usize, version: Version) -> Result<Self> {
        let declared = u32_at(buf, pos)?;
        // Negative counts mean "empty" to Godot.
        let count = if declared > i32::MAX as u32 { 0 } else { declared };
        let first = pos.saturating_add(4);
        // Each string takes at least its 4-byte length.
        if u64::from(count).saturating_mul(4) > remaining(buf, first) as u64 {
            return Err(error_at(buf, pos, ErrorKind::BadCount { count: declared }));
        }
        Ok(PackedStrings { buf, first, count, version })
    }

    /// Number of strings (the declared count, 0 when negative).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether there are no strings.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The strings in order; stops after the first error. O(1) per string.
    pub fn iter(&self) -> PackedStringsIter<'a> {
        PackedStringsIter {
            buf: self.buf,
            pos: self.first,
            left: self.count,
            version: self.version,
        }
    }
}

impl core::fmt::Debug for PackedStrings<'_> {
    /// The first strings, then the count.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        const SHOWN: usize = 8;
        let mut list = f.debug_list();
        for s in self.iter().take(SHOWN) {
            match s {
                Ok(s) => list.entry(&s),
                Err(_) => list.entry(&format_args!("<malformed>")),
            };
        }
        if self.len() > SHOWN {
            list.entry(&format_args!("... {} strings", self.len()));
        }
        list.finish()
    }
}

impl core::fmt::Debug for PackedStringsIter<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedStringsIter")
            .field("position", &self.pos)
            .field("left", &self.left)
            .finish()
    }
}

/// Iterator over a [`PackedStrings`].
#[derive(Clone)]
pub struct PackedStringsIter<'a> {
    buf: &'a [u8],
    pos: usize,
    left: u32,
    version: Version,
}

impl PackedStringsIter<'_> {
    /// Where the next string starts (once all are read: where the array ends).
    #[cfg(feature = "alloc")]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for PackedStringsIter<'a> {
    type Item = Result<GdStr<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.left = self.left.checked_sub(1)?;
        match read_string(self.buf, self.pos, self.version) {
            Ok((s, end)) => {
                self.pos = end;
                Some(Ok(s))
            }
            Err(e) => {
                self.left = 0;
                Some(Err(e))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left as usize))
    }
}

impl core::iter::FusedIterator for PackedStringsIter<'_> {}

/// Reads a fixed-size packed array's count at `pos` with Godot's checks and returns the element
/// bytes and the position after them.
pub(crate) fn read_fixed(buf: &[u8], pos: usize, element_size: usize) -> Result<(&[u8], usize)> {
    let declared = u32_at(buf, pos)?;
    let bad = || error_at(buf, pos, ErrorKind::BadCount { count: declared });
    let count = usize::try_from(i32::try_from(declared).map_err(|_| bad())?).map_err(|_| bad())?;
    let size =
        count.checked_mul(element_size).filter(|&s| s <= i32::MAX as usize).ok_or_else(bad)?;
    let start = pos.saturating_add(4);
    if size > remaining(buf, start) {
        return Err(bad());
    }
    let raw = bytes_at(buf, start, size)?;
    Ok((raw, start.saturating_add(size)))
}

/// Reads a `PackedByteArray` at `pos`: the bytes and the position after the padding, which may
/// lie past the end of `buf` when the final padding is absent (Godot counts it anyway).
pub(crate) fn read_bytes(buf: &[u8], pos: usize) -> Result<(&[u8], usize)> {
    let declared = u32_at(buf, pos)?;
    let bad = || error_at(buf, pos, ErrorKind::BadCount { count: declared });
    let count = usize::try_from(i32::try_from(declared).map_err(|_| bad())?).map_err(|_| bad())?;
    let start = pos.saturating_add(4);
    if count > remaining(buf, start) {
        return Err(bad());
    }
    let raw = bytes_at(buf, start, count)?;
    let end = start.saturating_add(count).saturating_add(crate::wire::read::padding(count));
    Ok((raw, end))
}
