//! Writing Godot 3 multiplayer packets, byte for byte as `MultiplayerAPI` writes them (but for
//! the padding after NodePath strings, which Godot 3.2.3 leaves uninitialised and the encoder
//! writes as zeros). Each function appends one packet to an [`Output`] and allocates nothing;
//! a path appended to a call is placed after measuring what precedes it (the values are
//! written twice). O(bytes written).

use crate::count::ByteCount;
use gdvariant::Version;
use gdvariant::view::Element;
use gdvariant::{EncodeOptions, encoder::EncodeError, encoder::Output};

/// A value to write (in `var2bytes` form).
#[derive(Clone, Copy, Debug)]
pub enum Arg<'v> {
    /// A value read from other Godot 3 bytes, written exactly as it was read.
    Element(Element<'v>),
    /// An owned value (feature `alloc`).
    #[cfg(feature = "alloc")]
    Variant(&'v gdvariant::Variant),
}

/// How a CALL or SET names its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'p> {
    /// A path-cache id the receiver confirmed.
    Cached(u32),
    /// The path, appended after the values (for a peer that has not confirmed it).
    Path(&'p str),
}

/// Appends `value` as `encode_variant` writes it, with `options` (Godot 3's;
/// `with_full_objects`: the sender's `allow_object_decoding`).
///
/// # Errors
/// What the encoder refuses, Godot 4 options or an element read as Godot 4
/// ([`EncodeError::VersionMismatch`]), or a full output.
pub fn value<O: Output>(
    out: &mut O,
    value: &Arg<'_>,
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    if options.version() != Version::Godot3 {
        return Err(EncodeError::VersionMismatch);
    }
    match *value {
        Arg::Element(element) => {
            if element.options().version() != Version::Godot3 {
                return Err(EncodeError::VersionMismatch);
            }
            out.write(element.raw_bytes())
        }
        #[cfg(feature = "alloc")]
        Arg::Variant(variant) => variant.encode_into(&mut *out, options).map(|_| ()),
    }
}

/// The name of a method or property, NUL-terminated.
fn name<O: Output>(out: &mut O, name: &str) -> Result<(), EncodeError> {
    out.write(name.as_bytes())?;
    out.write(&[0])
}

/// The target field, then the name; the path offset is measured with `rest`.
fn head<O: Output>(
    out: &mut O,
    command: u8,
    target: Target<'_>,
    member: &str,
    rest: impl Fn(&mut ByteCount) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let field = match target {
        Target::Cached(id) => id,
        Target::Path(_) => {
            let mut counter = ByteCount(5usize.saturating_add(member.len()).saturating_add(1));
            rest(&mut counter)?;
            let offset = u32::try_from(counter.0)
                .ok()
                .filter(|offset| offset & 0x8000_0000 == 0)
                .ok_or(EncodeError::TooLarge { len: counter.0 })?;
            0x8000_0000 | offset
        }
    };
    out.write(&[command])?;
    out.write(&field.to_le_bytes())?;
    name(out, member)
}

/// Appends a CALL of `method` on `target` with `args`, written with `options` (see [`value`]).
/// O(bytes written), twice for a path's offset; no allocation.
///
/// ```
/// use gdvariant_multiplayer::godot3::write::{self, Target};
///
/// let mut packet = Vec::new();
/// let five = gdvariant::Variant::Int(5);
/// let options = gdvariant::EncodeOptions::godot3();
/// write::call(&mut packet, Target::Cached(1), "jump", &[write::Arg::Variant(&five)], options)?;
/// assert_eq!(packet, [0, 1, 0, 0, 0, b'j', b'u', b'm', b'p', 0, 1, 2, 0, 0, 0, 5, 0, 0, 0]);
/// # Ok::<(), gdvariant::encoder::EncodeError>(())
/// ```
///
/// # Errors
/// More than 255 arguments, a value the encoder refuses, or a full output.
pub fn call<O: Output>(
    out: &mut O,
    target: Target<'_>,
    method: &str,
    args: &[Arg<'_>],
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    let argc = u8::try_from(args.len()).map_err(|_| EncodeError::TooLarge { len: args.len() })?;
    let values = |o: &mut ByteCount| -> Result<(), EncodeError> {
        o.write(&[argc])?;
        args.iter().try_for_each(|a| value(o, a, options))
    };
    head(out, 0, target, method, values)?;
    out.write(&[argc])?;
    args.iter().try_for_each(|a| value(out, a, options))?;
    tail(out, target)
}

/// Appends a SET of `property` on `target` to `new_value`, written with `options`.
///
/// # Errors
/// A value the encoder refuses, or a full output.
pub fn set<O: Output>(
    out: &mut O,
    target: Target<'_>,
    property: &str,
    new_value: &Arg<'_>,
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    head(out, 1, target, property, |o| value(o, new_value, options))?;
    value(out, new_value, options)?;
    tail(out, target)
}

/// The appended path, if any.
fn tail<O: Output>(out: &mut O, target: Target<'_>) -> Result<(), EncodeError> {
    match target {
        Target::Path(path) => name(out, path),
        Target::Cached(_) => Ok(()),
    }
}

/// Appends a SIMPLIFY: `path` is `id` from now on.
///
/// # Errors
/// A full output.
pub fn simplify_path<O: Output>(out: &mut O, id: u32, path: &str) -> Result<(), EncodeError> {
    out.write(&[2])?;
    out.write(&id.to_le_bytes())?;
    name(out, path)
}

/// Appends a CONFIRM of `path`.
///
/// # Errors
/// A full output.
pub fn confirm_path<O: Output>(out: &mut O, path: &str) -> Result<(), EncodeError> {
    out.write(&[3])?;
    name(out, path)
}

/// Appends a RAW packet.
///
/// # Errors
/// A full output.
pub fn raw<O: Output>(out: &mut O, payload: &[u8]) -> Result<(), EncodeError> {
    out.write(&[4])?;
    out.write(payload)
}
