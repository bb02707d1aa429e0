//! Godot 3's `MultiplayerAPI` packets (3.2.3), read without copying or allocating.
//!
//! The first byte is the whole command (no flags):
//!
//! ```text
//! CALL      00, u32 target, the method name (UTF-8, NUL), u8 argc, argc values
//!           (var2bytes form), [the node path (NUL) when target has bit 31 set]
//! SET       01, u32 target, the property name (NUL), one value, [the node path]
//! SIMPLIFY  02, u32 cache id, the node path (NUL)
//! CONFIRM   03, the node path (NUL)
//! RAW       04, send_bytes data (at least one byte)
//! ```
//!
//! A target with bit 31 set gives the offset of a node path appended to the packet (for a peer
//! that has not confirmed the path yet); otherwise it is a cache id the sender announced with
//! SIMPLIFY. Paths are relative to the sender's root node. Names and paths are read as Godot
//! 3.2.3 reads text ([`GdStr`] with Godot 3's rules: overlong forms are the
//! characters they spell), so compare them with [`GdStr::eq_str`](gdvariant::view::GdStr::eq_str).
//!
//! # What is checked where
//!
//! [`decode`] makes Godot's checks on the bytes, in Godot's order: the length, the path offset,
//! the name's NUL and text, the argument count's presence. O(1) plus the name; arguments are
//! read when iterated, each with [`validate`](gdvariant::validate)'s checks (Godot 3.2.3 drops a
//! call whose arguments it cannot read). [`Godot3Packet::validate`] reads everything: O(n). An
//! unknown command is an error here; Godot ignores such a packet without a word. Whether a
//! node, cache id, method or RPC mode exists is the game's to know; the
//! [`session`](crate::session) tracker follows the cache ids.

pub mod write;

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{rest, u8_at, u32_at};
use gdvariant::view::Element;
use gdvariant::view::GdStr;
use gdvariant::{Options, Version};

/// A command: the first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `NETWORK_COMMAND_REMOTE_CALL` (0).
    Call,
    /// `NETWORK_COMMAND_REMOTE_SET` (1).
    Set,
    /// `NETWORK_COMMAND_SIMPLIFY_PATH` (2).
    SimplifyPath,
    /// `NETWORK_COMMAND_CONFIRM_PATH` (3).
    ConfirmPath,
    /// `NETWORK_COMMAND_RAW` (4).
    Raw,
}

impl Command {
    /// Lowercase name: `call`, `set`, `simplify_path`, `confirm_path`, `raw`.
    pub const fn name(self) -> &'static str {
        match self {
            Command::Call => "call",
            Command::Set => "set",
            Command::SimplifyPath => "simplify_path",
            Command::ConfirmPath => "confirm_path",
            Command::Raw => "raw",
        }
    }
}

/// How a CALL or SET names its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeAddress<'a> {
    /// A path-cache id the sender announced with SIMPLIFY.
    Cached(u32),
    /// A path appended to the packet.
    Path {
        /// The bytes from the path's offset to the end of the packet (Godot's text stops at
        /// the first NUL).
        path: GdStr<'a>,
        /// The declared offset (bit 31 cleared).
        offset: u32,
    },
}

/// A Godot 3 multiplayer packet, borrowed from the caller's buffer.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Godot3Packet<'a> {
    /// `rpc`, `rpc_id`, `rpc_unreliable`, `rpc_unreliable_id`.
    Call(RemoteCall<'a>),
    /// `rset` and its variants.
    Set(RemoteSet<'a>),
    /// A path announced with its cache id.
    SimplifyPath {
        /// The cache id.
        id: u32,
        /// The path (relative to the sender's root node).
        path: GdStr<'a>,
    },
    /// A path confirmed (by its text: Godot 3's confirmation has no id).
    ConfirmPath {
        /// The path.
        path: GdStr<'a>,
    },
    /// `send_bytes` data (at least one byte).
    Raw(&'a [u8]),
}

impl<'a> Godot3Packet<'a> {
    /// The command.
    pub fn command(&self) -> Command {
        match self {
            Godot3Packet::Call(_) => Command::Call,
            Godot3Packet::Set(_) => Command::Set,
            Godot3Packet::SimplifyPath { .. } => Command::SimplifyPath,
            Godot3Packet::ConfirmPath { .. } => Command::ConfirmPath,
            Godot3Packet::Raw(_) => Command::Raw,
        }
    }

    /// Reads the arguments (or the set value) as Godot does. O(n), no allocation.
    ///
    /// # Errors
    /// The first value Godot cannot read (Godot 3.2.3 then drops the call).
    pub fn validate(&self) -> Result<(), PacketError> {
        match self {
            Godot3Packet::Call(call) => call.arguments().try_for_each(|a| a.map(|_| ())),
            Godot3Packet::Set(set) => set.value().map(|_| ()),
            _ => Ok(()),
        }
    }
}

/// What CALL and SET share: the node, the name, and where the values start.
#[derive(Clone, Copy, Debug)]
struct Head<'a> {
    node: NodeAddress<'a>,
    name: GdStr<'a>,
    values_at: usize,
}

/// Reads a CALL's or SET's node and name.
fn read_head(buf: &[u8]) -> Result<Head<'_>, PacketError> {
    if buf.len() < 6 {
        return Err(PacketError::new(0, PacketErrorKind::TooShort { minimum: 6 }));
    }
    let target = u32_at(buf, 1)?;
    let node = if target & 0x8000_0000 != 0 {
        let offset = target & 0x7FFF_FFFF;
        let at = usize::try_from(offset).unwrap_or(usize::MAX);
        if at >= buf.len() {
            return Err(PacketError::new(1, PacketErrorKind::PathOffset { offset }));
        }
        NodeAddress::Path { path: GdStr::from_raw(rest(buf, at), at, Version::Godot3), offset }
    } else {
        NodeAddress::Cached(target)
    };
    let name_bytes = rest(buf, 5);
    crate::work(name_bytes.len() >> 6);
    let Some(nul) = memchr::memchr(0, name_bytes) else {
        return Err(PacketError::new(5, PacketErrorKind::Unterminated));
    };
    let raw = name_bytes.get(..nul).unwrap_or(&[]);
    let name = GdStr::from_raw(raw, 5, Version::Godot3);
    // Godot 3's text rules; the error names the first refused byte (after a byte order mark).
    if let Err(error) = name.check() {
        return Err(PacketError::new(error.offset(), PacketErrorKind::InvalidName));
    }
    Ok(Head { node, name, values_at: 5usize.saturating_add(nul).saturating_add(1) })
}

/// A CALL.
#[derive(Clone, Copy, Debug)]
pub struct RemoteCall<'a> {
    buf: &'a [u8],
    head: Head<'a>,
    argc: u8,
    options: Options,
}

impl<'a> RemoteCall<'a> {
    /// How the call names its node.
    pub fn node(&self) -> NodeAddress<'a> {
        self.head.node
    }

    /// The method's name, as Godot 3 reads it.
    pub fn method(&self) -> GdStr<'a> {
        self.head.name
    }

    /// The declared argument count.
    pub fn argument_count(&self) -> usize {
        usize::from(self.argc)
    }

    /// The arguments, read as iterated: each value, or the first error (then nothing more).
    /// O(bytes read), no allocation, no recursion.
    pub fn arguments(&self) -> Arguments3<'a> {
        Arguments3 {
            buf: self.buf,
            pos: self.head.values_at.saturating_add(1),
            left: usize::from(self.argc),
            options: self.options,
        }
    }
}

/// A SET.
#[derive(Clone, Copy, Debug)]
pub struct RemoteSet<'a> {
    buf: &'a [u8],
    head: Head<'a>,
    options: Options,
}

impl<'a> RemoteSet<'a> {
    /// How the set names its node.
    pub fn node(&self) -> NodeAddress<'a> {
        self.head.node
    }

    /// The property's name, as Godot 3 reads it.
    pub fn property(&self) -> GdStr<'a> {
        self.head.name
    }

    /// The value. O(its size).
    ///
    /// # Errors
    /// What Godot's decoder refuses in it (then Godot drops the packet).
    pub fn value(&self) -> Result<Element<'a>, PacketError> {
        read_value(self.buf, self.head.values_at, self.options)
    }
}

/// Reads the value at `pos` (bytes to the end of the packet; what follows it is ignored).
fn read_value(buf: &[u8], pos: usize, options: Options) -> Result<Element<'_>, PacketError> {
    if pos >= buf.len() {
        return Err(PacketError::new(buf.len(), PacketErrorKind::Truncated { needed: 4 }));
    }
    Ok(Element::validate_at(buf, pos, options)?)
}

/// A CALL's arguments.
#[derive(Clone, Debug)]
pub struct Arguments3<'a> {
    buf: &'a [u8],
    pos: usize,
    left: usize,
    options: Options,
}

impl<'a> Iterator for Arguments3<'a> {
    type Item = Result<Element<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left = self.left.saturating_sub(1);
        match read_value(self.buf, self.pos, self.options) {
            Ok(element) => {
                self.pos = element.end();
                Some(Ok(element))
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

impl core::iter::FusedIterator for Arguments3<'_> {}

/// Decodes one Godot 3 multiplayer packet: the payload after the transport's header (see
/// [`transport`](crate::transport)). `options`' `allow_objects` is
/// `allow_object_decoding` (off by default); Godot 3's dialect is used whatever its version.
///
/// O(1) plus the name's length; no allocation. See the [module docs](self).
///
/// # Errors
/// What Godot refuses in the packet's own bytes, at its offset (an unknown command, which
/// Godot ignores silently, included).
///
/// ```
/// use gdvariant_multiplayer::godot3::{self, NodeAddress, Godot3Packet};
///
/// // rpc("jump", 5) on a node whose path has cache id 1.
/// let packet = [0, 1, 0, 0, 0, b'j', b'u', b'm', b'p', 0, 1, 2, 0, 0, 0, 5, 0, 0, 0];
/// let Godot3Packet::Call(call) = godot3::decode(&packet, gdvariant::Options::godot3())? else { panic!() };
/// assert_eq!(call.node(), NodeAddress::Cached(1));
/// assert!(call.method().eq_str("jump"));
/// let first = call.arguments().next().unwrap()?;
/// assert_eq!(first.value().as_int(), Some(5));
/// # Ok::<(), gdvariant_multiplayer::PacketError>(())
/// ```
pub fn decode(packet: &[u8], options: Options) -> Result<Godot3Packet<'_>, PacketError> {
    crate::work(1);
    let options = Options::new(Version::Godot3)
        .with_allow_objects(options.allow_objects())
        .with_max_depth(options.max_depth());
    let Ok(command) = u8_at(packet, 0) else {
        return Err(PacketError::new(0, PacketErrorKind::Empty));
    };
    Ok(match command {
        0 => {
            let head = read_head(packet)?;
            let argc = match u8_at(packet, head.values_at) {
                Ok(argc) => argc,
                Err(_) => {
                    return Err(PacketError::new(
                        head.values_at.min(packet.len()),
                        PacketErrorKind::Truncated { needed: 1 },
                    ));
                }
            };
            Godot3Packet::Call(RemoteCall { buf: packet, head, argc, options })
        }
        1 => Godot3Packet::Set(RemoteSet { buf: packet, head: read_head(packet)?, options }),
        2 => {
            if packet.len() < 5 {
                return Err(PacketError::new(0, PacketErrorKind::TooShort { minimum: 5 }));
            }
            Godot3Packet::SimplifyPath {
                id: u32_at(packet, 1)?,
                path: GdStr::from_raw(rest(packet, 5), 5, Version::Godot3),
            }
        }
        3 => {
            if packet.len() < 2 {
                return Err(PacketError::new(0, PacketErrorKind::TooShort { minimum: 2 }));
            }
            Godot3Packet::ConfirmPath { path: GdStr::from_raw(rest(packet, 1), 1, Version::Godot3) }
        }
        4 => {
            if packet.len() < 2 {
                return Err(PacketError::new(0, PacketErrorKind::TooShort { minimum: 2 }));
            }
            Godot3Packet::Raw(rest(packet, 1))
        }
        _ => return Err(PacketError::new(0, PacketErrorKind::UnknownCommand { command })),
    })
}
