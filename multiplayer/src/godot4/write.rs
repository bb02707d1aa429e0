//! Writing Godot 4 multiplayer packets, byte for byte as `SceneMultiplayer` writes them.
//!
//! Each function appends one packet to an [`Output`] (a `Vec<u8>`, or a fixed buffer through
//! [`SliceOutput`](gdvariant::encoder::SliceOutput)) and allocates nothing. Values are written with Godot 4
//! [`EncodeOptions`]: full objects (RPC arguments only, with `allow_object_decoding`), and f64
//! reals for double-precision builds. The engine's choices are made
//! here too: an `int` in the narrowest of 1, 2, 4 or 8 bytes, a `bool` in one byte, every other
//! value as `var_to_bytes` writes it; a cached node id and a method id in the narrowest width;
//! the byte-only form for no argument or a single `PackedByteArray`. Sizes that precede what they
//! measure (a path's offset, a custom spawn argument's size, a sync element's size) are
//! measured first by writing to a counter, so the values are written twice: O(bytes written).

use crate::count::ByteCount;
use crate::godot4::value::IntWidth;
use gdvariant::VariantRef;
use gdvariant::view::Element;
use gdvariant::{EncodeOptions, encoder::EncodeError, encoder::Output};
use gdvariant::{Options, Version};

/// A value to write compressed: an RPC argument, a spawn argument, synchronized state.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'v> {
    /// A `bool` (one byte).
    Bool(bool),
    /// An `int` (the narrowest width).
    Int(i64),
    /// A value read from other Godot 4 bytes: a `bool` or an `int` is compressed, anything else
    /// written exactly as it was read (a relay forwarding what it received).
    Element(Element<'v>),
    /// An owned value (feature `alloc`).
    #[cfg(feature = "alloc")]
    Variant(&'v gdvariant::Variant),
}

/// How an RPC names its node, as the sender chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'p> {
    /// A confirmed path-cache id, in the narrowest width: what every peer gets once all the
    /// targets have confirmed the path.
    Cached(u32),
    /// A path-cache id in 32 bits: what a confirming peer gets while another target of the same
    /// call has not confirmed yet.
    CachedWide(u32),
    /// The path itself, appended after the arguments: what a peer that has not confirmed the
    /// path gets. Relative to the multiplayer root (`Main/Player`).
    Path(&'p str),
}

/// Appends `value` compressed, with `options` (Godot 4's; `with_full_objects`:
/// `SceneMultiplayer.allow_object_decoding`, for RPC arguments only: state never carries full
/// objects; `with_precision`: f64 reals, as double-precision builds of Godot write them).
///
/// # Errors
/// What the encoder refuses in the value (a type Godot 4 lacks, a full object without
/// full objects, ...), Godot 3 options or an element read as Godot 3
/// ([`EncodeError::VersionMismatch`]), or a full output.
pub fn value<O: Output>(
    out: &mut O,
    value: &Arg<'_>,
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    if options.version() != Version::Godot4 {
        return Err(EncodeError::VersionMismatch);
    }
    match *value {
        Arg::Bool(b) => out.write(&[0x01 | (u8::from(b) << 7)]),
        Arg::Int(i) => int(out, i),
        Arg::Element(element) => {
            if element.options().version() != Version::Godot4 {
                return Err(EncodeError::VersionMismatch);
            }
            if !options.full_objects() && element.options().allow_objects() {
                // Written as received: the reader's options decide whether full objects were
                // accepted; a packet that refuses them must not carry one.
                gdvariant::validate(element.raw_bytes(), Options::godot4())
                    .map_err(|_| EncodeError::FullObjectsNeeded)?;
            }
            match element.value() {
                VariantRef::Bool(b) => out.write(&[0x01 | (u8::from(b) << 7)]),
                VariantRef::Int(i) => int(out, i),
                _ => out.write(element.raw_bytes()),
            }
        }
        #[cfg(feature = "alloc")]
        Arg::Variant(variant) => match *variant {
            gdvariant::Variant::Bool(b) => out.write(&[0x01 | (u8::from(b) << 7)]),
            gdvariant::Variant::Int(i) => int(out, i),
            _ => variant.encode_into(&mut *out, options).map(|_| ()),
        },
    }
}

/// A compressed `int`.
fn int<O: Output>(out: &mut O, i: i64) -> Result<(), EncodeError> {
    let width = IntWidth::of(i);
    out.write(&[0x02 | width.form()])?;
    out.write(i.to_le_bytes().get(..width.bytes()).unwrap_or(&[]))
}

/// The bytes of a lone `PackedByteArray` argument, which the byte-only form writes bare.
fn lone_bytes<'v>(args: &[Arg<'v>]) -> Option<&'v [u8]> {
    match args {
        [Arg::Element(element)] => match element.value() {
            VariantRef::PackedByteArray(bytes) => Some(bytes),
            _ => None,
        },
        #[cfg(feature = "alloc")]
        [Arg::Variant(gdvariant::Variant::PackedByteArray(bytes))] => Some(bytes.as_slice()),
        _ => None,
    }
}

/// Appends an RPC calling method `method` (an index into the node's methods sorted by name;
/// bit 15 for `Node.rpc_config` methods) on `node` with `args`, written with `options` (see
/// [`value`]). O(bytes written), twice for a path's offset; no allocation.
///
/// ```
/// use gdvariant::EncodeOptions;
/// use gdvariant_multiplayer::godot4::write::{self, Arg, Target};
///
/// let mut packet = Vec::new();
/// write::rpc(&mut packet, Target::Cached(1), 0, &[Arg::Int(5)], EncodeOptions::godot4())?;
/// assert_eq!(packet, [0x00, 0x01, 0x00, 0x01, 0x02, 0x05]);
/// packet.clear();
/// write::rpc(&mut packet, Target::Path("Main/Player"), 0, &[Arg::Int(5)], EncodeOptions::godot4())?;
/// assert_eq!(packet[..9], [0x20, 0x09, 0x00, 0x00, 0x80, 0x00, 0x01, 0x02, 0x05]);
/// assert_eq!(&packet[9..], b"Main/Player\0");
/// # Ok::<(), gdvariant::encoder::EncodeError>(())
/// ```
///
/// # Errors
/// More than 255 arguments ([`EncodeError::TooLarge`], Godot's sender refuses them too), a cache
/// id with bit 31 set (which marks a path), a value the encoder refuses, a path longer than an
/// offset can say, or a full output.
pub fn rpc<O: Output>(
    out: &mut O,
    node: Target<'_>,
    method: u16,
    args: &[Arg<'_>],
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    if args.len() > 255 {
        return Err(EncodeError::TooLarge { len: args.len() });
    }
    if let Target::Cached(id) | Target::CachedWide(id) = node {
        // Bit 31 marks an appended path: a cache id cannot hold it.
        if id & 0x8000_0000 != 0 {
            return Err(EncodeError::TooLarge { len: id as usize });
        }
    }
    let bytes = lone_bytes(args);
    let byte_only = args.is_empty() || bytes.is_some();
    let (node_bits, node_bytes): (u8, usize) = match node {
        Target::Cached(id) if id <= 0xFF => (0, 1),
        Target::Cached(id) if id <= 0xFFFF => (1, 2),
        Target::Cached(_) | Target::CachedWide(_) | Target::Path(_) => (2, 4),
    };
    let method_wide = method > 0xFF;
    let first = (node_bits << 4) | (u8::from(method_wide) << 6) | (u8::from(byte_only) << 7);
    let node_value = match node {
        Target::Cached(id) | Target::CachedWide(id) => id,
        Target::Path(_) => {
            // The path's offset: everything before it.
            let mut counter = ByteCount(1usize.saturating_add(node_bytes));
            counter.0 = counter.0.saturating_add(if method_wide { 2 } else { 1 });
            write_args(&mut counter, args, bytes, byte_only, options)?;
            let offset = u32::try_from(counter.0)
                .ok()
                .filter(|offset| offset & 0x8000_0000 == 0)
                .ok_or(EncodeError::TooLarge { len: counter.0 })?;
            0x8000_0000 | offset
        }
    };
    out.write(&[first])?;
    out.write(node_value.to_le_bytes().get(..node_bytes).unwrap_or(&[]))?;
    if method_wide {
        out.write(&method.to_le_bytes())?;
    } else {
        out.write(&[method.to_le_bytes()[0]])?;
    }
    write_args(out, args, bytes, byte_only, options)?;
    if let Target::Path(path) = node {
        out.write(path.as_bytes())?;
        out.write(&[0])?;
    }
    Ok(())
}

/// The argument section: the bare bytes, nothing, or a count and compressed values.
fn write_args<O: Output>(
    out: &mut O,
    args: &[Arg<'_>],
    bytes: Option<&[u8]>,
    byte_only: bool,
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    if byte_only {
        return out.write(bytes.unwrap_or(&[]));
    }
    out.write(&[u8::try_from(args.len()).unwrap_or(u8::MAX)])?;
    args.iter().try_for_each(|arg| value(out, arg, options))
}

/// Appends a SIMPLIFY_PATH: `path` is `id` from now on; `checksum` the MD5 of the node's RPC
/// method names ([`checksum_of`](crate::checksum_of)).
///
/// # Errors
/// A full output.
pub fn simplify_path<O: Output>(
    out: &mut O,
    checksum: &[u8; 32],
    id: u32,
    path: &str,
) -> Result<(), EncodeError> {
    out.write(&[0x01])?;
    out.write(checksum)?;
    out.write(&[0])?;
    out.write(&id.to_le_bytes())?;
    out.write(path.as_bytes())?;
    out.write(&[0])
}

/// Appends a CONFIRM_PATH for cache id `id`.
///
/// # Errors
/// A full output.
pub fn confirm_path<O: Output>(
    out: &mut O,
    checksum_valid: bool,
    id: u32,
) -> Result<(), EncodeError> {
    out.write(&[0x02, u8::from(checksum_valid)])?;
    out.write(&id.to_le_bytes())
}

/// Appends a RAW packet (`send_bytes`). Godot's sender refuses empty data, and its receiver an
/// empty payload.
///
/// # Errors
/// A full output.
pub fn raw<O: Output>(out: &mut O, payload: &[u8]) -> Result<(), EncodeError> {
    out.write(&[0x03])?;
    out.write(payload)
}

/// What a SPAWN carries.
#[derive(Clone, Copy, Debug)]
pub struct SpawnFields<'a, 'v> {
    /// The scene index, or [`CUSTOM_SPAWN`](super::CUSTOM_SPAWN).
    pub scene: u8,
    /// The spawner's path-cache id.
    pub spawner: u32,
    /// The new node's network id.
    pub net_id: u32,
    /// Its synchronizers' network ids.
    pub sync_ids: &'a [u32],
    /// Its name.
    pub name: &'a str,
    /// A custom spawn's argument.
    pub argument: Option<Arg<'v>>,
    /// The synchronizers' spawn properties, in order.
    pub state: &'a [Arg<'v>],
}

/// Appends a SPAWN, its values written with `options` (never full objects).
///
/// # Errors
/// A value the encoder refuses (full objects never pass), sizes beyond 32 bits, or a full
/// output.
pub fn spawn<O: Output>(
    out: &mut O,
    fields: &SpawnFields<'_, '_>,
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    let options = options.with_full_objects(false);
    let count = u32::try_from(fields.sync_ids.len())
        .map_err(|_| EncodeError::TooLarge { len: fields.sync_ids.len() })?;
    let name_len = fields.name.len().saturating_add(1);
    let name_size = u32::try_from(name_len).map_err(|_| EncodeError::TooLarge { len: name_len })?;
    out.write(&[0x04, fields.scene])?;
    out.write(&fields.spawner.to_le_bytes())?;
    out.write(&fields.net_id.to_le_bytes())?;
    out.write(&count.to_le_bytes())?;
    out.write(&name_size.to_le_bytes())?;
    for id in fields.sync_ids {
        out.write(&id.to_le_bytes())?;
    }
    out.write(fields.name.as_bytes())?;
    out.write(&[0])?;
    if let Some(argument) = &fields.argument {
        let mut counter = ByteCount::default();
        value(&mut counter, argument, options)?;
        let size =
            u32::try_from(counter.0).map_err(|_| EncodeError::TooLarge { len: counter.0 })?;
        out.write(&size.to_le_bytes())?;
        value(out, argument, options)?;
    }
    fields.state.iter().try_for_each(|v| value(out, v, options))
}

/// Appends a DESPAWN.
///
/// # Errors
/// A full output.
pub fn despawn<O: Output>(out: &mut O, net_id: u32) -> Result<(), EncodeError> {
    out.write(&[0x05])?;
    out.write(&net_id.to_le_bytes())
}

/// The values' size, measured.
fn measured(values: &[Arg<'_>], options: EncodeOptions) -> Result<u32, EncodeError> {
    let mut counter = ByteCount::default();
    values.iter().try_for_each(|v| value(&mut counter, v, options))?;
    u32::try_from(counter.0).map_err(|_| EncodeError::TooLarge { len: counter.0 })
}

/// Appends a full SYNC at sync time `time`: for each synchronizer, its network id and its sync
/// properties' values (written with `options`, never full objects).
///
/// # Errors
/// No element, or an element without values ([`EncodeError::Unfinished`]: Godot never sends
/// either, and reads neither a sync shorter than 11 bytes nor an empty element that ends it), a
/// value the encoder refuses, or a full output.
pub fn sync<O: Output>(
    out: &mut O,
    time: u16,
    elements: &[(u32, &[Arg<'_>])],
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    let options = options.with_full_objects(false);
    if elements.is_empty() || elements.iter().any(|(_, values)| values.is_empty()) {
        return Err(EncodeError::Unfinished { missing: 1 });
    }
    out.write(&[0x06])?;
    out.write(&time.to_le_bytes())?;
    for (net_id, values) in elements {
        out.write(&net_id.to_le_bytes())?;
        out.write(&measured(values, options)?.to_le_bytes())?;
        values.iter().try_for_each(|v| value(out, v, options))?;
    }
    Ok(())
}

/// Appends a delta SYNC: for each synchronizer, its network id, the mask of changed watched
/// properties and their values in index order (written with `options`, never full objects).
///
/// # Errors
/// No element, or an element without values ([`EncodeError::Unfinished`]: Godot never sends
/// either), a value the encoder refuses, or a full output.
pub fn delta_sync<O: Output>(
    out: &mut O,
    elements: &[(u32, u64, &[Arg<'_>])],
    options: EncodeOptions,
) -> Result<(), EncodeError> {
    let options = options.with_full_objects(false);
    if elements.is_empty() || elements.iter().any(|(_, _, values)| values.is_empty()) {
        return Err(EncodeError::Unfinished { missing: 1 });
    }
    out.write(&[0x16])?;
    for (net_id, mask, values) in elements {
        out.write(&net_id.to_le_bytes())?;
        out.write(&mask.to_le_bytes())?;
        out.write(&measured(values, options)?.to_le_bytes())?;
        values.iter().try_for_each(|v| value(out, v, options))?;
    }
    Ok(())
}

/// Appends a SYS AUTH packet (`send_auth`; empty `data`: `complete_auth`).
///
/// # Errors
/// A full output.
pub fn auth<O: Output>(out: &mut O, data: &[u8]) -> Result<(), EncodeError> {
    out.write(&[0x07, 0x00])?;
    out.write(data)
}

/// Appends a SYS ADD_PEER (`add`) or DEL_PEER for `peer`.
///
/// # Errors
/// A full output.
pub fn peer<O: Output>(out: &mut O, add: bool, peer: i32) -> Result<(), EncodeError> {
    out.write(&[0x07, if add { 0x01 } else { 0x02 }])?;
    out.write(&peer.to_le_bytes())
}

/// Appends a SYS RELAY of `inner` (a whole packet) for `peer` (the destination from a client,
/// the source from the server).
///
/// # Errors
/// A full output.
pub fn relay<O: Output>(out: &mut O, peer: i32, inner: &[u8]) -> Result<(), EncodeError> {
    out.write(&[0x07, 0x03])?;
    out.write(&peer.to_le_bytes())?;
    out.write(inner)
}
