//! How a multiplayer message travels: which way ([`Direction`]), how it is delivered
//! ([`TransferMode`]), and what the transport wraps around it ([`Framing`]). One vocabulary for
//! the session tracker, the capture files and the relay (`gdvariant-relay` re-exports these).

/// Which way a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// From a client to the server (through a relay: to its upstream).
    ToServer,
    /// From the server to a client.
    ToClient,
}

impl Direction {
    /// `to_server` or `to_client`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::ToServer => "to_server",
            Direction::ToClient => "to_client",
        }
    }

    /// 0 or 1, for per-direction counters.
    pub const fn index(self) -> usize {
        match self {
            Direction::ToServer => 0,
            Direction::ToClient => 1,
        }
    }
}

/// How Godot delivers an ENet packet (its `transfer_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TransferMode {
    /// Reliable and ordered (`TRANSFER_MODE_RELIABLE`).
    Reliable,
    /// Unsequenced (`TRANSFER_MODE_UNRELIABLE`).
    Unreliable,
    /// Sequenced, not resent (`TRANSFER_MODE_UNRELIABLE_ORDERED`).
    UnreliableOrdered,
}

impl TransferMode {
    /// Godot's number for the mode, as capture files record it: 0 reliable, 1 unreliable, 2
    /// unreliable ordered.
    pub const fn number(self) -> u8 {
        match self {
            TransferMode::Reliable => 0,
            TransferMode::Unreliable => 1,
            TransferMode::UnreliableOrdered => 2,
        }
    }

    /// The mode of a number ([`TransferMode::number`]).
    pub const fn from_number(number: u8) -> Option<Self> {
        match number {
            0 => Some(TransferMode::Reliable),
            1 => Some(TransferMode::Unreliable),
            2 => Some(TransferMode::UnreliableOrdered),
            _ => None,
        }
    }

    /// `reliable`, `unreliable` or `unreliable_ordered`.
    pub const fn name(self) -> &'static str {
        match self {
            TransferMode::Reliable => "reliable",
            TransferMode::Unreliable => "unreliable",
            TransferMode::UnreliableOrdered => "unreliable_ordered",
        }
    }
}

/// What the transport puts around each multiplayer packet, and so what a message's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Framing {
    /// Packets as the multiplayer peer hands them (Godot 4 ENet adds nothing).
    Packets,
    /// Godot 3 ENet: the 8-byte header (channel 0: system messages).
    Enet3,
    /// Godot 3 WebSocket: the 9-byte header.
    WebSocket3,
    /// Godot 4 WebSocket: packets, and the server's first message is the client's id.
    WebSocket4,
}

impl Framing {
    /// The framing of `version`'s multiplayer traffic over ENet (`enet`) or WebSocket.
    pub const fn of(version: gdvariant::Version, enet: bool) -> Self {
        match (version, enet) {
            (gdvariant::Version::Godot3, true) => Framing::Enet3,
            (gdvariant::Version::Godot3, false) => Framing::WebSocket3,
            (gdvariant::Version::Godot4, true) => Framing::Packets,
            (gdvariant::Version::Godot4, false) => Framing::WebSocket4,
        }
    }

    /// Its byte in a capture file's header.
    pub const fn byte(self) -> u8 {
        match self {
            Framing::Packets => 0,
            Framing::Enet3 => 1,
            Framing::WebSocket3 => 2,
            Framing::WebSocket4 => 3,
        }
    }

    /// The framing of a header byte.
    pub const fn from_byte(byte: u8) -> Option<Framing> {
        match byte {
            0 => Some(Framing::Packets),
            1 => Some(Framing::Enet3),
            2 => Some(Framing::WebSocket3),
            3 => Some(Framing::WebSocket4),
            _ => None,
        }
    }
}
