//! [`PacketError`]: why a multiplayer packet is refused, and where.

use core::fmt;

/// A packet Godot refuses (or a field this crate cannot read), and the absolute byte offset of
/// the problem, counted from the start of the buffer given to the decoder (a relayed packet's
/// offsets count from the start of the packet that carries it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketError {
    offset: usize,
    kind: PacketErrorKind,
}

/// What is wrong with a packet. Each kind names what Godot does with such a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PacketErrorKind {
    /// The packet has no bytes. Godot 4's peer reports an error and drops it; Godot 3 drops it
    /// ("Invalid packet received. Size too small.").
    Empty,
    /// A fixed-size field runs past the end of the packet: Godot drops the packet (for an RPC
    /// argument, see [`PacketErrorKind::Value`]).
    Truncated {
        /// Bytes the field needs from the error offset on.
        needed: usize,
    },
    /// The packet is shorter than Godot's minimum for its command (`minimum` bytes): dropped.
    TooShort {
        /// The smallest length Godot accepts.
        minimum: usize,
    },
    /// The packet is not exactly the length Godot requires (Godot 4's CONFIRM_PATH: 6 bytes):
    /// dropped.
    WrongLength {
        /// The length Godot requires.
        expected: usize,
    },
    /// The command byte names no command: Godot 3 ignores the packet without a word; Godot 4,
    /// which reads only the low three bits, never meets one.
    UnknownCommand {
        /// The command byte.
        command: u8,
    },
    /// A Godot 4 SYS packet whose sub-command is none of AUTH, ADD_PEER, DEL_PEER and RELAY:
    /// dropped.
    UnknownSysCommand {
        /// The sub-command byte.
        command: u8,
    },
    /// A SYS packet inside a relayed packet: Godot 4 refuses it ("Invalid network command").
    /// Relays do not nest.
    SysInRelay,
    /// A Godot 4 RPC whose node-id width field is 3, which names no width: dropped ("Was not
    /// possible to extract the node id compression mode.").
    BadNodeIdWidth,
    /// An RPC addressed by path, whose path offset is at or past the end of the packet:
    /// dropped ("Size smaller than declared").
    PathOffset {
        /// The declared offset (bit 31 cleared).
        offset: u32,
    },
    /// A Godot 3 method or property name without its terminating NUL: dropped.
    Unterminated,
    /// A size or count field claims more bytes than the packet holds (a spawn's name and
    /// synchronizer ids, a custom spawn argument, a sync element): Godot drops the packet, or
    /// the rest of it.
    BadSize {
        /// The declared size.
        size: u32,
    },
    /// A spawn whose node name is empty: dropped ("Zero spawn name size.").
    EmptyName,
    /// A spawn whose node name holds a character Godot 4 refuses in node names (one of
    /// `. : @ / " %`): dropped ("Invalid node name received").
    InvalidName,
    /// A delta sync element whose values do not end exactly at its declared size: Godot drops
    /// the rest of the packet.
    SizeMismatch {
        /// The declared size.
        size: u32,
        /// The bytes the values take.
        consumed: usize,
    },
    /// A delta sync element whose mask names no property: Godot drops the rest of the packet.
    EmptyMask,
    /// A compressed value's type byte (low six bits) names no Godot 4 type.
    UnknownType {
        /// The type id found.
        id: u8,
    },
    /// A value Godot's `decode_variant` refuses; the inner error has its own offset and kind.
    /// In an RPC's arguments, Godot 4 still calls the method, with this argument and those
    /// after it `null`; Godot 3.2.3 drops the call.
    Value(gdvariant::Error),
    /// A Godot 4 WebSocket peer-id message that is not 4 bytes holding an id of at least 2: the
    /// client closes the connection ("Invalid ID received from server").
    BadPeerId,
}

impl PacketError {
    /// An error of `kind` at absolute byte `offset`.
    pub const fn new(offset: usize, kind: PacketErrorKind) -> Self {
        PacketError { offset, kind }
    }

    /// The absolute byte offset of the problem.
    pub const fn offset(&self) -> usize {
        match self.kind {
            PacketErrorKind::Value(error) => error.offset(),
            _ => self.offset,
        }
    }

    /// What is wrong.
    pub const fn kind(&self) -> PacketErrorKind {
        self.kind
    }

    /// The same error with its offset moved `by` bytes further (saturating).
    pub const fn offset_by(self, by: usize) -> Self {
        let kind = match self.kind {
            PacketErrorKind::Value(error) => PacketErrorKind::Value(error.offset_by(by)),
            other => other,
        };
        PacketError { offset: self.offset.saturating_add(by), kind }
    }

    /// A short name of the kind, for logs and statistics: `truncated`, `too_short`,
    /// `unknown_command`, `value`, ...
    pub const fn name(&self) -> &'static str {
        match self.kind {
            PacketErrorKind::Empty => "empty",
            PacketErrorKind::Truncated { .. } => "truncated",
            PacketErrorKind::TooShort { .. } => "too_short",
            PacketErrorKind::WrongLength { .. } => "wrong_length",
            PacketErrorKind::UnknownCommand { .. } => "unknown_command",
            PacketErrorKind::UnknownSysCommand { .. } => "unknown_sys_command",
            PacketErrorKind::SysInRelay => "sys_in_relay",
            PacketErrorKind::BadNodeIdWidth => "bad_node_id_width",
            PacketErrorKind::PathOffset { .. } => "path_offset",
            PacketErrorKind::Unterminated => "unterminated",
            PacketErrorKind::BadSize { .. } => "bad_size",
            PacketErrorKind::EmptyName => "empty_name",
            PacketErrorKind::InvalidName => "invalid_name",
            PacketErrorKind::SizeMismatch { .. } => "size_mismatch",
            PacketErrorKind::EmptyMask => "empty_mask",
            PacketErrorKind::UnknownType { .. } => "unknown_type",
            PacketErrorKind::Value(_) => "value",
            PacketErrorKind::BadPeerId => "bad_peer_id",
        }
    }
}

impl From<gdvariant::Error> for PacketError {
    /// A value's error, at the value's own offset.
    fn from(error: gdvariant::Error) -> Self {
        PacketError::new(error.offset(), PacketErrorKind::Value(error))
    }
}

impl fmt::Display for PacketErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PacketErrorKind::Empty => f.write_str("empty packet"),
            PacketErrorKind::Truncated { needed } => {
                write!(f, "field of {needed} bytes runs past the end of the packet")
            }
            PacketErrorKind::TooShort { minimum } => {
                write!(f, "packet shorter than the {minimum} bytes its command needs")
            }
            PacketErrorKind::WrongLength { expected } => {
                write!(f, "packet is not the {expected} bytes its command needs")
            }
            PacketErrorKind::UnknownCommand { command } => write!(f, "unknown command {command}"),
            PacketErrorKind::UnknownSysCommand { command } => {
                write!(f, "unknown system command {command}")
            }
            PacketErrorKind::SysInRelay => f.write_str("system command inside a relayed packet"),
            PacketErrorKind::BadNodeIdWidth => f.write_str("node id width 3 names no width"),
            PacketErrorKind::PathOffset { offset } => {
                write!(f, "path offset {offset} at or past the end of the packet")
            }
            PacketErrorKind::Unterminated => f.write_str("name without its terminating NUL"),
            PacketErrorKind::BadSize { size } => {
                write!(f, "size {size} runs past the end of the packet")
            }
            PacketErrorKind::EmptyName => f.write_str("empty node name"),
            PacketErrorKind::InvalidName => f.write_str("invalid node name"),
            PacketErrorKind::SizeMismatch { size, consumed } => {
                write!(f, "values take {consumed} bytes of a declared {size}")
            }
            PacketErrorKind::EmptyMask => f.write_str("delta element without a changed property"),
            PacketErrorKind::UnknownType { id } => write!(f, "unknown compressed type {id}"),
            PacketErrorKind::Value(error) => write!(f, "invalid value: {}", error.kind()),
            PacketErrorKind::BadPeerId => f.write_str("invalid peer id message"),
        }
    }
}

impl fmt::Display for PacketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte offset {}", self.kind, self.offset())
    }
}

impl core::error::Error for PacketError {}
