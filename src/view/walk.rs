//! The iterative walk over a whole value: how containers find where an element ends, and what
//! [`validate`](crate::validate) runs.
//!
//! The walk keeps the container it is reading in locals and the containers around it on a
//! stack in a fixed array (set up only once a container holds something other than leaves):
//! 16 entries first, and [`MAX_DEPTH`](crate::MAX_DEPTH) + 1 entries
//! (8 KiB) for a value nested deeper, which is then walked again (at most twice the work). No
//! input can make it recurse or allocate. It reads every header, count, length and nested value
//! in order, once (twice past 16 levels).
//!
//! Leaves of a fixed size (nil, bool, int, float, math types, RID, Callable), strings and
//! `PackedByteArray`s take a short path: one table lookup on the header gives the payload's
//! size, with exactly the checks and errors of [`parse_head`]. Everything else goes through
//! [`parse_head`]. An array whose elements start with a run of one fixed-size leaf (ints,
//! floats, vectors) has that run passed over with one comparison per element (the same header,
//! the same size), which is all the short path checks in such a leaf.
//!
//! * [`Mode::Skip`] checks what finding the end requires: headers, counts, lengths, the depth
//!   limit, `allow_objects` and object classes.
//! * [`Mode::Validate`] also checks every string's text (UTF-8 as Godot reads it) and Godot 4's
//!   `script` property, so it accepts what Godot's `decode_variant` accepts (see
//!   [the differences guide](crate::guide::differences) for the few things no reader outside
//!   the game can know).
//!
//! Only [`walk_depth`] counts how deeply the value nests; [`walk`] does not pay for it.

use super::container_type::is_resource_path;
use super::math::{Precision, Reals};
use super::packed::read_bytes;
use super::string::read_string;
use super::value::{Extent, FLAG_64, VariantRef, parse_head};
use crate::wire::error::{ErrorKind, Result};
use crate::wire::options::{MAX_DEPTH, Options, Version};
use crate::wire::read::{bytes_at, error_at, u32_at, u64_at, widen_f32};

/// How much a walk checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Structure only: enough to find the end.
    Skip,
    /// Everything Godot checks.
    Validate,
}

/// A container on the walk's stack, waiting for the one inside it to end: the values it still
/// has to read (array elements, dictionary keys and values, object properties) in the low 32
/// bits, and bit 32 set when each value is preceded by a property name (full objects). One word,
/// so that setting up a stack is a plain fill.
type Frame = u64;

/// Bit 32 of a [`Frame`].
const PROPERTIES: u64 = 1 << 32;

/// Frames of the first attempt: enough for ordinary data, cheap to set up for every element a
/// container iteration walks.
const SHALLOW: usize = 16;

/// Frames for the deepest value accepted: containers open at depths `0..=MAX_DEPTH`.
const DEEP: usize = MAX_DEPTH as usize + 1;

/// Walks the value whose header is at `pos`, at nesting `depth`; returns where it ends (which
/// may lie past the buffer by the missing padding of a final `PackedByteArray`).
#[inline(always)]
pub(crate) fn walk(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
    mode: Mode,
) -> Result<usize> {
    // One copy of the walk per mode, so that skipping compiles without the checks (and without
    // building the values it does not look at).
    let walked = match mode {
        Mode::Skip => walk_in::<false, false>(buf, pos, options, depth),
        Mode::Validate => walk_in::<true, false>(buf, pos, options, depth),
    };
    walked.map(|(end, _)| end)
}

/// [`walk`], also returning the value's nesting depth: 0 for a value that is not a container,
/// 1 for a container (an empty one too) that holds no container, and so on. Full objects count
/// as containers.
pub(crate) fn walk_depth(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
    mode: Mode,
) -> Result<(usize, u16)> {
    match mode {
        Mode::Skip => walk_in::<false, true>(buf, pos, options, depth),
        Mode::Validate => walk_in::<true, true>(buf, pos, options, depth),
    }
}

/// [`walk_depth`] for one mode: `VALIDATE` is `mode == Mode::Validate`; `DEPTH` says whether
/// to count the nesting depth (0 is returned otherwise). The short path of leaves is inlined
/// into the caller; everything else is [`walk_head`].
#[inline(always)]
fn walk_in<const VALIDATE: bool, const DEPTH: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<(usize, u16)> {
    if let Some(end) = leaf_end::<VALIDATE>(buf, pos, options, depth)? {
        return Ok((end, 0));
    }
    walk_head::<VALIDATE, DEPTH>(buf, pos, options, depth)
}

/// [`walk_in`] for a value that does not take the short path of leaves: reads its head, then
/// its strings or children.
#[inline(never)]
fn walk_head<const VALIDATE: bool, const DEPTH: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<(usize, u16)> {
    let (top, extent) = parse_head(buf, pos, options, depth)?;
    if VALIDATE {
        check_strings(&top)?;
    }
    let extent = match (top, extent) {
        (VariantRef::Array(_), Extent::Values { first, items }) if items > 1 => {
            leaf_run(buf, first, items, options, depth)
        }
        _ => extent,
    };
    walk_extent::<VALIDATE, DEPTH>(buf, pos, extent, options, depth)
}

/// Where the value whose head (at `pos`, at nesting `depth`) has been read ends, without
/// checking strings' text: what a step that needs the value as well as its end calls after
/// [`parse_head`]. O(the value's bytes), as [`walk`].
#[inline]
pub(crate) fn end_after_head(
    buf: &[u8],
    pos: usize,
    extent: Extent,
    options: Options,
    depth: u16,
) -> Result<usize> {
    match extent {
        Extent::End(end) => Ok(end),
        _ => skip_extent(buf, pos, extent, options, depth),
    }
}

/// [`end_after_head`] for a value with strings or children: out of line, so that the walk's
/// own loops are compiled as they are without it.
#[inline(never)]
fn skip_extent(
    buf: &[u8],
    pos: usize,
    extent: Extent,
    options: Options,
    depth: u16,
) -> Result<usize> {
    walk_extent::<false, false>(buf, pos, extent, options, depth).map(|(end, _)| end)
}

/// The rest of [`walk_head`] once the head is read and checked: the strings or the children
/// described by `extent`.
#[inline(always)]
fn walk_extent<const VALIDATE: bool, const DEPTH: bool>(
    buf: &[u8],
    pos: usize,
    extent: Extent,
    options: Options,
    depth: u16,
) -> Result<(usize, u16)> {
    let mode = if VALIDATE { Mode::Validate } else { Mode::Skip };
    let (first, items, properties) = match extent {
        // Scalars, strings and packed arrays need no stack.
        Extent::End(end) => return Ok((end, 0)),
        Extent::Strings { first, count } => {
            return Ok((strings_end(buf, first, count, options.version(), mode)?, 0));
        }
        Extent::Values { first, items } => (first, items, false),
        Extent::Properties { first, count } => (first, count, true),
    };
    let mut open = Open { cursor: first, left: items, properties };
    if !properties {
        // Leaves need no stack: read them here, and set one up only when a child is not a leaf
        // (the container is then walked on from that child).
        let child_depth = depth.saturating_add(1);
        while open.left > 0 {
            let Some(end) = leaf_end::<VALIDATE>(buf, open.cursor, options, child_depth)? else {
                break;
            };
            open.cursor = end;
            open.left = open.left.wrapping_sub(1);
        }
        if open.left == 0 {
            return Ok((open.cursor, if DEPTH { 1 } else { 0 }));
        }
    }
    // Containers: a small stack first; a value nested deeper is walked again with the full one.
    match walk_container::<SHALLOW, VALIDATE, DEPTH>(buf, open, options, depth)? {
        Some(walked) => Ok(walked),
        None => walk_container::<DEEP, VALIDATE, DEPTH>(buf, open, options, depth)?
            .ok_or_else(|| error_at(buf, pos, ErrorKind::DepthLimit)),
    }
}

/// The container being read: where its next value (or property name) is, how many values are
/// left, and whether each is preceded by a property name.
#[derive(Clone, Copy)]
struct Open {
    cursor: usize,
    left: u32,
    properties: bool,
}

/// The walk of a container at `depth` whose head has been read, from the child `open` points
/// at (the children before it, if any, were leaves), with a stack of `N` frames; returns its
/// end and (when `DEPTH`) its nesting depth, or `Ok(None)` when the value nests deeper than the
/// stack holds.
#[inline(never)]
fn walk_container<const N: usize, const VALIDATE: bool, const DEPTH: bool>(
    buf: &[u8],
    open: Open,
    options: Options,
    depth: u16,
) -> Result<Option<(usize, u16)>> {
    let version = options.version();
    let mode = if VALIDATE { Mode::Validate } else { Mode::Skip };
    let mut stack: [Frame; N] = [0; N];
    // Frames on the stack: the containers around the current one.
    let mut saved = 0usize;
    let Open { mut cursor, mut left, mut properties } = open;
    // Depth of the values being read: the current container's children.
    let mut depth = depth.saturating_add(1);
    // The deepest container seen, counted from the value (1 for the value itself).
    let mut deepest = 1u16;
    loop {
        while left > 0 {
            left = left.wrapping_sub(1);
            // The value about to be read is a Godot 4 `script` property (checked when
            // validating).
            let mut script = false;
            if properties {
                (cursor, script) = property_name_end(buf, cursor, version, mode)?;
            }
            if !script {
                if let Some(end) = leaf_end::<VALIDATE>(buf, cursor, options, depth)? {
                    cursor = end;
                    continue;
                }
            }
            let (value, extent) = parse_head(buf, cursor, options, depth)?;
            if VALIDATE {
                check_strings(&value)?;
                if script {
                    check_script(buf, cursor, &value)?;
                }
            }
            let (first, items, child_properties) = match extent {
                Extent::End(end) => {
                    cursor = end;
                    continue;
                }
                Extent::Strings { first, count } => {
                    cursor = strings_end(buf, first, count, version, mode)?;
                    continue;
                }
                Extent::Values { first, items } => (first, items, false),
                Extent::Properties { first, count } => (first, count, true),
            };
            if DEPTH {
                // `saved` < N <= MAX_DEPTH + 1: the count fits.
                let level = u16::try_from(saved.saturating_add(2)).unwrap_or(u16::MAX);
                deepest = deepest.max(level);
            }
            cursor = first;
            if items == 0 {
                continue;
            }
            // Open the child: the current container waits on the stack.
            let Some(frame) = stack.get_mut(saved) else {
                return Ok(None);
            };
            *frame = u64::from(left) | if properties { PROPERTIES } else { 0 };
            saved = saved.saturating_add(1);
            left = items;
            properties = child_properties;
            depth = depth.saturating_add(1);
        }
        // The current container is complete: go back to the one around it.
        let Some(top) = saved.checked_sub(1) else {
            return Ok(Some((cursor, deepest)));
        };
        let Some(frame) = stack.get(top) else {
            return Ok(None);
        };
        left = *frame as u32;
        properties = *frame & PROPERTIES != 0;
        saved = top;
        depth = depth.saturating_sub(1);
    }
}

/// Size codes of [`leaf_table`] that are not a fixed payload size.
const VARIABLE: u8 = 0xFF;
/// A `String` or `StringName`: a length, the bytes, padding.
const STRING: u8 = 0xFE;
/// A `PackedByteArray`: a count, the bytes, padding (which may be absent at the very end).
const BYTES: u8 = 0xFD;

/// For header ids below 64 (bit 6: header bit 16), the payload size of the fixed-size types,
/// or [`STRING`], [`BYTES`], or [`VARIABLE`] for everything [`parse_head`] must read.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // evaluated at compile time
const fn leaf_table(version: Version) -> [u8; 128] {
    let mut table = [VARIABLE; 128];
    let mut wide = 0;
    while wide < 2 {
        // Math types hold f64 reals only in Godot 4 with header bit 16 set.
        let real = match version {
            Version::Godot4 if wide == 1 => 8,
            _ => 4,
        };
        let scalar = if wide == 1 { 8 } else { 4 };
        let sizes: &[(usize, u8)] = match version {
            Version::Godot3 => &[
                (0, 0),       // Nil
                (1, 4),       // bool
                (2, scalar),  // int
                (3, scalar),  // float
                (4, STRING),  // String
                (5, 2 * 4),   // Vector2
                (6, 4 * 4),   // Rect2
                (7, 3 * 4),   // Vector3
                (8, 6 * 4),   // Transform2D
                (9, 4 * 4),   // Plane
                (10, 4 * 4),  // Quat
                (11, 6 * 4),  // AABB
                (12, 9 * 4),  // Basis
                (13, 12 * 4), // Transform
                (14, 16),     // Color
                (16, 0),      // RID: no payload
                (20, BYTES),  // PoolByteArray
            ],
            Version::Godot4 => &[
                (0, 0),          // Nil
                (1, 4),          // bool
                (2, scalar),     // int
                (3, scalar),     // float
                (4, STRING),     // String
                (5, 2 * real),   // Vector2
                (6, 8),          // Vector2i
                (7, 4 * real),   // Rect2
                (8, 16),         // Rect2i
                (9, 3 * real),   // Vector3
                (10, 12),        // Vector3i
                (11, 6 * real),  // Transform2D
                (12, 4 * real),  // Vector4
                (13, 16),        // Vector4i
                (14, 4 * real),  // Plane
                (15, 4 * real),  // Quaternion
                (16, 6 * real),  // AABB
                (17, 9 * real),  // Basis
                (18, 12 * real), // Transform3D
                (19, 16 * real), // Projection
                (20, 16),        // Color
                (21, STRING),    // StringName
                (23, 8),         // RID
                (25, 0),         // Callable
                (29, BYTES),     // PackedByteArray
            ],
        };
        let mut i = 0;
        while i < sizes.len() {
            let (id, size) = sizes[i];
            table[id | (wide << 6)] = size;
            i += 1;
        }
        wide += 1;
    }
    table
}

/// [`leaf_table`] for each version.
const LEAVES: [[u8; 128]; 2] = [leaf_table(Version::Godot3), leaf_table(Version::Godot4)];

/// The end of the value at `pos` when it is a fixed-size leaf, a String, a StringName or a
/// `PackedByteArray`, read and checked exactly as [`parse_head`] would (with the same errors),
/// and its text checked when `VALIDATE`, without building a [`VariantRef`]. `Ok(None)` for any
/// other value, or when [`parse_head`] should report the problem.
#[inline(always)]
pub(super) fn leaf_end<const VALIDATE: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<Option<usize>> {
    if depth > options.max_depth() {
        return Ok(None);
    }
    let Ok(header) = u32_at(buf, pos) else { return Ok(None) };
    if header & 0xC0 != 0 {
        return Ok(None);
    }
    let table = match options.version() {
        Version::Godot3 => &LEAVES[0],
        Version::Godot4 => &LEAVES[1],
    };
    // Below 128: ids 0..64, and header bit 16 as bit 6.
    let index = ((header & 0x3F) | ((header & FLAG_64) >> 10)) as usize;
    let code = table.get(index).copied().unwrap_or(VARIABLE);
    let body = pos.saturating_add(4);
    match code {
        STRING => {
            let (string, end) = read_string(buf, body, options.version())?;
            if VALIDATE {
                string.check()?;
            }
            Ok(Some(end))
        }
        BYTES => read_bytes(buf, body).map(|(_, end)| Some(end)),
        VARIABLE => Ok(None),
        size => {
            let size = usize::from(size);
            bytes_at(buf, body, size)?;
            Ok(Some(body.saturating_add(size)))
        }
    }
}

/// An array's elements from `first` (`items` of them, at nesting `depth` + 1) past the run of one
/// fixed-size leaf they start with (an array of ints, floats or vectors), as the elements still
/// to walk: each element of such a run is the first one's header and the same payload size
/// again, which is all [`leaf_end`] checks in such a value, so the run is passed over with one
/// comparison each. Stops before an element that differs or does not fit in `buf` (the walk
/// reads it next, and reports its problem). O(the run).
#[inline(never)]
fn leaf_run(buf: &[u8], first: usize, items: u32, options: Options, depth: u16) -> Extent {
    let unchanged = Extent::Values { first, items };
    // As `leaf_end` reads such a leaf: the depth limit, the header, the payload in `buf`.
    if depth.saturating_add(1) > options.max_depth() {
        return unchanged;
    }
    let Ok(header) = u32_at(buf, first) else { return unchanged };
    let Some(size) = fixed_size(header, options) else { return unchanged };
    // Whole elements only: one that does not fit is left to the walk.
    let stride = size.saturating_add(4);
    let want = header.to_le_bytes();
    let rest = buf.get(first..).unwrap_or_default();
    let passed = rest
        .chunks_exact(stride)
        .take(items as usize)
        .take_while(|element| element.starts_with(&want))
        .count();
    crate::wire::work::add(passed);
    Extent::Values {
        first: first.saturating_add(passed.saturating_mul(stride)),
        items: items.saturating_sub(u32::try_from(passed).unwrap_or(u32::MAX)),
    }
}

/// The payload size of `header` when it is that of a fixed-size leaf of [`leaf_end`]'s table
/// (not a string, not a byte array, nothing [`parse_head`] reads).
#[inline(always)]
fn fixed_size(header: u32, options: Options) -> Option<usize> {
    if header & 0xC0 != 0 {
        return None;
    }
    let table = match options.version() {
        Version::Godot3 => &LEAVES[0],
        Version::Godot4 => &LEAVES[1],
    };
    let index = ((header & 0x3F) | ((header & FLAG_64) >> 10)) as usize;
    match table.get(index).copied().unwrap_or(VARIABLE) {
        STRING | BYTES | VARIABLE => None,
        size => Some(usize::from(size)),
    }
}

/// The value at `pos` and its end when it is one of the leaves a reader meets most (nil, int,
/// float, `Vector2`, String, StringName, `PackedByteArray`), decoded from the header the
/// short path of [`leaf_end`] reads: one table lookup, with exactly the checks and errors of
/// [`parse_head`]. A string's bytes are checked once as standard UTF-8 when `TEXT`
/// ([`GdStr::checked`](super::string::GdStr)), so that its reader does not check them again.
/// `Ok(None)` for any other value (read it with [`parse_head`]), or when [`parse_head`] should
/// report the problem. O(1), or O(the string) when `TEXT`.
#[inline(always)]
pub(super) fn leaf_value<const TEXT: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<Option<(VariantRef<'_>, usize)>> {
    if depth > options.max_depth() {
        return Ok(None);
    }
    let Ok(header) = u32_at(buf, pos) else { return Ok(None) };
    if header & 0xC0 != 0 {
        return Ok(None);
    }
    let version = options.version();
    let table = match version {
        Version::Godot3 => &LEAVES[0],
        Version::Godot4 => &LEAVES[1],
    };
    let index = ((header & 0x3F) | ((header & FLAG_64) >> 10)) as usize;
    let code = table.get(index).copied().unwrap_or(VARIABLE);
    let body = pos.saturating_add(4);
    match code {
        STRING => {
            let (string, end) = read_string(buf, body, version)?;
            let string = if TEXT { string.checked() } else { string };
            // Id 4 is String in both versions; the other string is Godot 4's StringName.
            let value = if header & 0x3F == ID_STRING {
                VariantRef::String(string)
            } else {
                VariantRef::StringName(string)
            };
            Ok(Some((value, end)))
        }
        BYTES => read_bytes(buf, body)
            .map(|(bytes, end)| Some((VariantRef::PackedByteArray(bytes), end))),
        VARIABLE => Ok(None),
        size => {
            let size = usize::from(size);
            let raw = bytes_at(buf, body, size)?;
            let wide = size == 8;
            // Ids 0 to 5 are the same types in both versions. Not `bool`: its payload sits in
            // the second byte of a `VariantRef`, and a value built with that byte here is copied
            // by callers in pieces that wait on the byte's store (a stall on every value this
            // path gives, bools or not); `parse_head` reads bools.
            let value = match header & 0x3F {
                ID_NIL => VariantRef::Nil,
                ID_INT if wide => VariantRef::Int(u64_at(buf, body)? as i64),
                ID_INT => VariantRef::Int(i64::from(u32_at(buf, body)? as i32)),
                ID_FLOAT if wide => VariantRef::Float(f64::from_bits(u64_at(buf, body)?)),
                ID_FLOAT => VariantRef::Float(widen_f32(u32_at(buf, body)?)),
                ID_VECTOR2 => {
                    // 16 bytes: Godot 4's f64 reals (header bit 16).
                    let precision = if size == 16 { Precision::Double } else { Precision::Single };
                    VariantRef::Vector2(Reals::new(raw, precision))
                }
                _ => return Ok(None),
            };
            Ok(Some((value, body.saturating_add(size))))
        }
    }
}

/// Wire ids shared by both versions, read by [`leaf_value`].
const ID_NIL: u32 = 0;
const ID_INT: u32 = 2;
const ID_FLOAT: u32 = 3;
const ID_STRING: u32 = 4;
const ID_VECTOR2: u32 = 5;

/// Reads the `count` strings from `pos` (checking their text when validating); returns the end.
#[inline]
pub(super) fn strings_end(
    buf: &[u8],
    mut pos: usize,
    count: u32,
    version: Version,
    mode: Mode,
) -> Result<usize> {
    for _ in 0..count {
        let (s, end) = read_string(buf, pos, version)?;
        if mode == Mode::Validate {
            s.check()?;
        }
        pos = end;
    }
    Ok(pos)
}

/// Reads the property name at `pos`; returns the position of the property's value and whether
/// the value must pass Godot 4's `script` check (only when validating).
#[inline]
fn property_name_end(
    buf: &[u8],
    pos: usize,
    version: Version,
    mode: Mode,
) -> Result<(usize, bool)> {
    let (name, end) = read_string(buf, pos, version)?;
    if mode == Mode::Skip {
        return Ok((end, false));
    }
    name.check()?;
    Ok((end, version == Version::Godot4 && name.eq_str("script")))
}

/// Godot 4 loads a non-null `script` property: it must be a `res://` path.
pub(crate) fn check_script(buf: &[u8], pos: usize, value: &VariantRef<'_>) -> Result<()> {
    match value {
        VariantRef::Nil => Ok(()),
        VariantRef::String(path) if is_resource_path(path) => Ok(()),
        _ => Err(error_at(buf, pos, ErrorKind::InvalidScript)),
    }
}

/// Checks the text of the strings in a value's head that parsing it did not check (its
/// children are visited by the walk itself; class names were checked by the parse).
fn check_strings(value: &VariantRef<'_>) -> Result<()> {
    match value {
        VariantRef::String(s) | VariantRef::StringName(s) => s.check(),
        VariantRef::Signal(signal) => signal.name().check(),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short paths (the end, and the value) give what `parse_head` gives, for every id, both
    /// widths, both versions and every length of a buffer cut short.
    #[test]
    fn leaf_table_matches_parse_head() {
        for version in [Version::Godot3, Version::Godot4] {
            let options = Options::new(version);
            // Under Miri (minutes otherwise): the ids of both tables and a few beyond, and
            // every cut within the first 24 bytes, then one in 8.
            let ids: alloc::vec::Vec<u32> = if cfg!(miri) {
                (0..=40).chain([63, 64, 127, 255]).collect()
            } else {
                (0..=255).collect()
            };
            for id in ids {
                for wide in [0, FLAG_64] {
                    // A payload that reads as short strings and small counts.
                    let mut full = (id | wide).to_le_bytes().to_vec();
                    full.extend_from_slice(&[2, 0, 0, 0, b'a', b'b', 0, 0]);
                    full.extend_from_slice(&[0; 160]);
                    let step = |len: usize| if cfg!(miri) && len >= 24 { 8 } else { 1 };
                    let lens = core::iter::successors(Some(0usize), |&len| Some(len + step(len)));
                    for len in lens.take_while(|&len| len <= full.len()) {
                        let buf = &full[..len];
                        let short = leaf_end::<true>(buf, 0, options, 0);
                        let head = parse_head(buf, 0, options, 0);
                        let read = leaf_value::<true>(buf, 0, options, 0);
                        match (read, &head) {
                            (Ok(Some((value, end))), Ok((head_value, Extent::End(head_end)))) => {
                                assert_eq!(end, *head_end, "{version:?} id {id} wide {wide}");
                                let (value, head_value) =
                                    (alloc::format!("{value:?}"), alloc::format!("{head_value:?}"));
                                assert_eq!(value, head_value, "{version:?} id {id} wide {wide}");
                            }
                            (Ok(None), _) => {}
                            (Err(a), Err(b)) => assert_eq!(&a, b, "{version:?} id {id}"),
                            (a, b) => {
                                panic!("{version:?} id {id} wide {wide} len {len}: {a:?} / {b:?}")
                            }
                        }
                        match (short, head) {
                            (Ok(Some(end)), Ok((_, Extent::End(head_end)))) => {
                                assert_eq!(end, head_end, "{version:?} id {id} wide {wide}")
                            }
                            (Ok(None), _) => {}
                            (Err(a), Err(b)) => assert_eq!(a, b, "{version:?} id {id}"),
                            (a, b) => {
                                panic!("{version:?} id {id} wide {wide} len {len}: {a:?} / {b:?}")
                            }
                        }
                    }
                }
            }
        }
    }

    /// The depth of nested containers, counted only by `walk_depth`.
    #[test]
    fn depth_is_counted_only_when_asked() {
        // [[[]], 1]
        let bytes = [
            28, 0, 0, 0, 2, 0, 0, 0, //
            28, 0, 0, 0, 1, 0, 0, 0, //
            28, 0, 0, 0, 0, 0, 0, 0, //
            2, 0, 0, 0, 1, 0, 0, 0,
        ];
        let options = Options::godot4();
        assert_eq!(walk_depth(&bytes, 0, options, 0, Mode::Validate), Ok((32, 3)));
        assert_eq!(walk_depth(&bytes, 0, options, 0, Mode::Skip), Ok((32, 3)));
        assert_eq!(walk(&bytes, 0, options, 0, Mode::Skip), Ok(32));
        assert_eq!(walk_depth(&bytes[24..], 0, options, 0, Mode::Skip), Ok((8, 0)));
    }
}
