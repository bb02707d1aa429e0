//! NETWORK_COMMAND_REMOTE_CALL: an RPC.
//!
//! ```text
//! byte 0   command 0 | node-id width << 4 | method-id width << 6 | byte-only << 7
//! node id  1, 2 or 4 bytes (width 0, 1, 2; 3 names none). With 4 bytes and bit 31 set, the
//!          low 31 bits are the offset of a node path appended after the arguments
//!          (UTF-8, NUL-terminated), for a peer that has not confirmed the node's path yet;
//!          otherwise the id of a path the sender announced with SIMPLIFY_PATH
//! method   1 or 2 bytes: an index into the node's RPC methods sorted by name (bit 15: a
//!          method configured with Node.rpc_config, counted apart)
//! argc     one byte, absent in the byte-only form
//! args     argc compressed values; in the byte-only form, the rest of the packet is one
//!          PackedByteArray's bytes (none left: no argument at all)
//! ```
//!
//! With a path, the packet ends where the path begins for everything before it: arguments
//! cannot reach into it. Bytes after the arguments are ignored, as Godot ignores them.
//! Decoding reads the header (O(1) plus the path's NUL); the arguments are read when iterated.

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{rest, u8_at, u16_at, u32_at};
use crate::godot4::value::{Carried, Value, carried_bytes, read_value};
use gdvariant::view::GdStr;
use gdvariant::{Options, Version};

/// How many bytes an id takes on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdWidth {
    /// One byte.
    U8,
    /// Two bytes.
    U16,
    /// Four bytes.
    U32,
}

impl IdWidth {
    /// Bytes on the wire.
    pub const fn bytes(self) -> usize {
        match self {
            IdWidth::U8 => 1,
            IdWidth::U16 => 2,
            IdWidth::U32 => 4,
        }
    }
}

/// How an RPC names its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeAddress<'a> {
    /// A path-cache id the sender announced with SIMPLIFY_PATH.
    Cached(u32),
    /// A path appended to the packet, relative to the sender's multiplayer root.
    Path {
        /// The path's bytes up to the end of the packet (Godot reads them as text up to the
        /// first NUL, after a leading byte order mark).
        path: GdStr<'a>,
        /// The path's offset in the packet, as declared (bit 31 cleared).
        offset: u32,
    },
}

/// An RPC, borrowed from the packet.
#[derive(Clone, Copy, Debug)]
pub struct Rpc<'a> {
    /// The buffer, cut where the arguments end (the path's offset, or the packet's end).
    args_buf: &'a [u8],
    base: usize,
    node: NodeAddress<'a>,
    node_width: IdWidth,
    method: u16,
    method_width: IdWidth,
    /// Where the argument count (or the byte-only bytes) starts.
    args_at: usize,
    byte_only: bool,
    options: Options,
}

impl<'a> Rpc<'a> {
    /// Reads the RPC starting at `base` (its command byte) in `buf`.
    pub(crate) fn read(buf: &'a [u8], base: usize, options: Options) -> Result<Self, PacketError> {
        let first = u8_at(buf, base)?;
        let node_width = match (first >> 4) & 3 {
            0 => IdWidth::U8,
            1 => IdWidth::U16,
            2 => IdWidth::U32,
            _ => return Err(PacketError::new(base, PacketErrorKind::BadNodeIdWidth)),
        };
        let method_width = if first & 0x40 != 0 { IdWidth::U16 } else { IdWidth::U8 };
        let byte_only = first & 0x80 != 0;
        let header = 1usize.saturating_add(node_width.bytes()).saturating_add(method_width.bytes());
        let len = buf.len().saturating_sub(base);
        if len < header {
            return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: header }));
        }
        let node_at = base.saturating_add(1);
        let raw_node = match node_width {
            IdWidth::U8 => u32::from(u8_at(buf, node_at)?),
            IdWidth::U16 => u32::from(u16_at(buf, node_at)?),
            IdWidth::U32 => u32_at(buf, node_at)?,
        };
        let (node, args_end) = if node_width == IdWidth::U32 && raw_node & 0x8000_0000 != 0 {
            let offset = raw_node & 0x7FFF_FFFF;
            let declared = usize::try_from(offset).unwrap_or(usize::MAX);
            if declared >= len {
                return Err(PacketError::new(node_at, PacketErrorKind::PathOffset { offset }));
            }
            if declared < header {
                // The path starts inside the header: Godot finds no node there, or no room for
                // the method id before it.
                return Err(PacketError::new(node_at, PacketErrorKind::PathOffset { offset }));
            }
            let start = base.saturating_add(declared);
            let path = GdStr::from_raw(rest(buf, start), start, Version::Godot4);
            (NodeAddress::Path { path, offset }, start)
        } else {
            (NodeAddress::Cached(raw_node), buf.len())
        };
        let method_at = node_at.saturating_add(node_width.bytes());
        let method = match method_width {
            IdWidth::U8 => u16::from(u8_at(buf, method_at)?),
            _ => u16_at(buf, method_at)?,
        };
        let args_buf = buf.get(..args_end).unwrap_or(buf);
        let args_at = base.saturating_add(header);
        if !byte_only && args_at >= args_end {
            return Err(PacketError::new(args_at, PacketErrorKind::Truncated { needed: 1 }));
        }
        Ok(Rpc {
            args_buf,
            base,
            node,
            node_width,
            method,
            method_width,
            args_at,
            byte_only,
            options,
        })
    }

    /// How the RPC names its node.
    pub fn node(&self) -> NodeAddress<'a> {
        self.node
    }

    /// The width the node id was written in (a path is always 32 bits).
    pub fn node_width(&self) -> IdWidth {
        self.node_width
    }

    /// The method id: an index into the node's RPC methods sorted by name; bit 15 marks the
    /// list of methods configured with `Node.rpc_config`.
    pub fn method_id(&self) -> u16 {
        self.method
    }

    /// The width the method id was written in.
    pub fn method_width(&self) -> IdWidth {
        self.method_width
    }

    /// Whether the packet uses the byte-only form (no argument, or one `PackedByteArray`
    /// written as its bytes).
    pub fn is_byte_only(&self) -> bool {
        self.byte_only
    }

    /// The number of arguments Godot passes to the method: in the byte-only form 1 when bytes
    /// follow the header and 0 otherwise (so a single empty `PackedByteArray` arrives as no
    /// argument at all), else the count byte.
    pub fn argument_count(&self) -> usize {
        if self.byte_only {
            usize::from(self.args_at < self.args_buf.len())
        } else {
            u8_at(self.args_buf, self.args_at).map_or(0, usize::from)
        }
    }

    /// The arguments, read as they are iterated: each one's value, or the error Godot meets
    /// reading it (then the iteration ends). O(bytes read), no allocation; a nested value is
    /// read by the core's iterative walk (no recursion).
    pub fn arguments(&self) -> Arguments<'a> {
        if self.byte_only {
            let bytes = rest(self.args_buf, self.args_at);
            return Arguments {
                buf: self.args_buf,
                pos: self.args_at,
                left: usize::from(!bytes.is_empty()),
                bytes: Some(bytes),
                options: self.options,
            };
        }
        Arguments {
            buf: self.args_buf,
            pos: self.args_at.saturating_add(1),
            left: self.argument_count(),
            bytes: None,
            options: self.options,
        }
    }

    /// Checks every argument as Godot reads it. O(bytes of the arguments).
    ///
    /// # Errors
    /// The first argument Godot cannot read. Godot 4 still calls the method then, with that
    /// argument and the ones after it `null`.
    pub fn check_arguments(&self) -> Result<(), PacketError> {
        self.arguments().try_for_each(|argument| argument.map(|_| ()))
    }

    /// The packet's first byte's offset.
    pub fn offset(&self) -> usize {
        self.base
    }

    /// The path's text bytes for [`NodeAddress::Path`] (up to the first NUL, after a byte order
    /// mark), as Godot reads them; `None` for a cached id.
    pub fn path_text(&self) -> Option<&'a [u8]> {
        match self.node {
            NodeAddress::Path { path, .. } => Some(path.text_bytes()),
            NodeAddress::Cached(_) => None,
        }
    }
}

/// An RPC's arguments, read one by one: `Ok(value)` for each argument Godot reads, then `Err`
/// at the first it cannot read (and nothing after it).
#[derive(Clone, Debug)]
pub struct Arguments<'a> {
    buf: &'a [u8],
    pos: usize,
    left: usize,
    bytes: Option<&'a [u8]>,
    options: Options,
}

impl<'a> Arguments<'a> {
    /// The next argument with the bytes it was carried in: [`Iterator::next`] with
    /// [`Carried::bytes`] (in the byte-only form, the `PackedByteArray`'s bytes). O(its size).
    pub fn next_carried(&mut self) -> Option<Result<Carried<'a>, PacketError>> {
        let start = self.pos;
        let value = self.next()?;
        Some(value.map(|value| match value {
            Value::Bytes(bytes) => Carried { value, bytes },
            _ => Carried { value, bytes: carried_bytes(self.buf, start, self.pos, self.buf.len()) },
        }))
    }
}

impl<'a> Iterator for Arguments<'a> {
    type Item = Result<Value<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left = self.left.saturating_sub(1);
        if let Some(bytes) = self.bytes.take() {
            return Some(Ok(Value::Bytes(bytes)));
        }
        // Godot: "Invalid packet received. Size too small." when no byte is left for the next
        // argument.
        if self.pos >= self.buf.len() {
            self.left = 0;
            return Some(Err(PacketError::new(
                self.pos.min(self.buf.len()),
                PacketErrorKind::Truncated { needed: 1 },
            )));
        }
        match read_value(self.buf, self.pos, self.buf.len(), self.options) {
            Ok((value, next)) => {
                self.pos = next;
                Some(Ok(value))
            }
            Err(error) => {
                self.left = 0;
                Some(Err(error))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

impl core::iter::FusedIterator for Arguments<'_> {}
