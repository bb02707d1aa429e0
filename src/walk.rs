//! The iterative walk over a whole value: how containers find where an element ends, and what
//! [`validate`](crate::validate) runs.
//!
//! The walk keeps its own stack of open containers in a fixed array: 16 entries first, and
//! [`MAX_DEPTH`](crate::MAX_DEPTH) + 1 entries (8 KiB) for a value nested deeper, which is then
//! walked again (at most twice the work). No input can make it recurse or allocate. It reads
//! every header, count, length and nested value in order, once (twice past 16 levels).
//!
//! * [`Mode::Skip`] checks what finding the end requires: headers, counts, lengths, the depth
//!   limit, `allow_objects` and object classes.
//! * [`Mode::Validate`] also checks every string's text (UTF-8 as Godot reads it) and Godot 4's
//!   `script` property, so it accepts what Godot's `decode_variant` accepts (see the README for
//!   the few things no reader outside the game can know).

use crate::container_type::is_resource_path;
use crate::error::{ErrorKind, Result};
use crate::string::read_string;
use crate::value::{Extent, FLAG_64, VariantRef, parse_head};
use crate::wire::{bytes_at, error_at, u32_at};
use crate::{MAX_DEPTH, Options, Version};

/// How much a walk checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Structure only: enough to find the end.
    Skip,
    /// Everything Godot checks.
    Validate,
}

/// An open container on the walk's stack.
#[derive(Clone, Copy)]
struct Frame {
    /// Values still to read (array elements, dictionary keys and values, object properties).
    left: u32,
    /// Each value is preceded by a property name (full objects).
    properties: bool,
}

/// Frames of the first attempt: enough for ordinary data, cheap to set up for every element a
/// container iteration walks.
const SHALLOW: usize = 16;

/// Frames for the deepest value accepted: containers open at depths `0..=MAX_DEPTH`.
const DEEP: usize = MAX_DEPTH as usize + 1;

/// Walks the value whose header is at `pos`, at nesting `depth`; returns where it ends (which
/// may lie past the buffer by the missing padding of a final `PackedByteArray`).
pub(crate) fn walk(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
    mode: Mode,
) -> Result<usize> {
    walk_depth(buf, pos, options, depth, mode).map(|(end, _)| end)
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
    // One copy of the walk per mode, so that skipping compiles without the checks (and without
    // building the values it does not look at).
    match mode {
        Mode::Skip => walk_in::<false>(buf, pos, options, depth),
        Mode::Validate => walk_in::<true>(buf, pos, options, depth),
    }
}

/// [`walk_depth`] for one mode: `VALIDATE` is `mode == Mode::Validate`.
fn walk_in<const VALIDATE: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<(usize, u16)> {
    if let Some(end) = common_leaf_end::<VALIDATE>(buf, pos, options, depth)? {
        return Ok((end, 0));
    }
    let mode = if VALIDATE { Mode::Validate } else { Mode::Skip };
    let (top, extent) = parse_head(buf, pos, options, depth)?;
    if mode == Mode::Validate {
        check_strings(&top)?;
    }
    // Scalars, strings and packed arrays need no stack.
    if let Extent::End(end) = extent {
        return Ok((end, 0));
    }
    if let Extent::Strings { first, count } = extent {
        let end = strings_end(buf, first, count, options.version(), mode)?;
        return Ok((end, 0));
    }
    // Containers: a small stack first; a value nested deeper is walked again with the full one.
    match walk_container::<SHALLOW, VALIDATE>(buf, extent, options, depth)? {
        Some(element) => Ok(element),
        None => walk_container::<DEEP, VALIDATE>(buf, extent, options, depth)?
            .ok_or_else(|| error_at(buf, pos, ErrorKind::DepthLimit)),
    }
}

/// The walk of a container whose head extends as `extent`, with a stack of `N` frames; returns
/// its end and nesting depth, or `Ok(None)` when the value nests deeper than that.
fn walk_container<const N: usize, const VALIDATE: bool>(
    buf: &[u8],
    extent: Extent,
    options: Options,
    depth: u16,
) -> Result<Option<(usize, u16)>> {
    let mode = if VALIDATE { Mode::Validate } else { Mode::Skip };
    let version = options.version();
    let mut stack = [Frame { left: 0, properties: false }; N];
    let mut open = 0usize;
    let mut depth = depth;
    // The value about to be read is a Godot 4 `script` property (checked when validating).
    let mut script = false;
    let mut extent = extent;
    // The deepest container seen, counted from the value (1 for the value itself).
    let mut deepest = 1u16;
    loop {
        if matches!(extent, Extent::Values { .. } | Extent::Properties { .. }) {
            // `open` < N <= MAX_DEPTH + 1: fits.
            deepest = deepest.max(u16::try_from(open.saturating_add(1)).unwrap_or(u16::MAX));
        }
        let mut cursor = match extent {
            Extent::End(end) => end,
            Extent::Strings { first, count } => strings_end(buf, first, count, version, mode)?,
            Extent::Values { first, items: 0 } | Extent::Properties { first, count: 0 } => first,
            Extent::Values { first, items } | Extent::Properties { first, count: items } => {
                let properties = matches!(extent, Extent::Properties { .. });
                let Some(frame) = stack.get_mut(open) else {
                    return Ok(None);
                };
                *frame = Frame { left: items, properties };
                open = open.saturating_add(1);
                depth = depth.saturating_add(1);
                let mut value_pos = first;
                if properties {
                    (value_pos, script) = property_name_end(buf, first, version, mode)?;
                }
                extent = read_child::<VALIDATE>(buf, value_pos, options, depth, script)?;
                script = false;
                continue;
            }
        };
        // The value is complete: close every container it completes.
        loop {
            let Some(frame) = open.checked_sub(1).and_then(|top| stack.get_mut(top)) else {
                return Ok(Some((cursor, deepest)));
            };
            frame.left = frame.left.saturating_sub(1);
            if frame.left > 0 {
                if frame.properties {
                    (cursor, script) = property_name_end(buf, cursor, version, mode)?;
                }
                break;
            }
            open = open.saturating_sub(1);
            depth = depth.saturating_sub(1);
        }
        extent = read_child::<VALIDATE>(buf, cursor, options, depth, script)?;
        script = false;
    }
}

/// Reads the head of a container's child at `pos` and checks it; returns where it extends.
/// `script`: the child is a Godot 4 `script` property value. Common leaves take the short path
/// of [`common_leaf_end`].
#[inline(always)]
fn read_child<const VALIDATE: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
    script: bool,
) -> Result<Extent> {
    if !script {
        if let Some(end) = common_leaf_end::<VALIDATE>(buf, pos, options, depth)? {
            return Ok(Extent::End(end));
        }
    }
    let (value, extent) = parse_head(buf, pos, options, depth)?;
    if VALIDATE {
        check_strings(&value)?;
        if script {
            check_script(buf, pos, &value)?;
        }
    }
    Ok(extent)
}

/// The end of the value at `pos` when it is a nil, bool, int, float, String or Vector2 (the same
/// ids in both versions, and most of the values in typical data), read and checked exactly as
/// [`parse_head`] would, with the same errors, but without building a [`VariantRef`].
/// `Ok(None)` for any other value, or when [`parse_head`] should report the problem.
#[inline(always)]
fn common_leaf_end<const VALIDATE: bool>(
    buf: &[u8],
    pos: usize,
    options: Options,
    depth: u16,
) -> Result<Option<usize>> {
    if depth > options.max_depth() {
        return Ok(None);
    }
    let Ok(header) = u32_at(buf, pos) else { return Ok(None) };
    let body = pos.saturating_add(4);
    let wide = header & FLAG_64 != 0;
    let fixed = |size: usize| bytes_at(buf, body, size).map(|_| Some(body.saturating_add(size)));
    match header & 0xFF {
        NIL => Ok(Some(body)),
        BOOL => fixed(4),
        INT | FLOAT => fixed(if wide { 8 } else { 4 }),
        VECTOR2 => fixed(match (options.version(), wide) {
            (Version::Godot4, true) => 16,
            _ => 8,
        }),
        STRING => {
            let (string, end) = read_string(buf, body, options.version())?;
            if VALIDATE {
                string.check()?;
            }
            Ok(Some(end))
        }
        _ => Ok(None),
    }
}

/// Wire ids that mean the same type in Godot 3 and Godot 4.
const NIL: u32 = 0;
const BOOL: u32 = 1;
const INT: u32 = 2;
const FLOAT: u32 = 3;
const STRING: u32 = 4;
const VECTOR2: u32 = 5;

/// Reads the `count` strings from `pos` (checking their text when validating); returns the end.
#[inline]
fn strings_end(
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
