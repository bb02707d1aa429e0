//! [`Filter`]: what decides, per connection and per direction, whether a message goes on; the
//! [`Frame`] it is shown and the [`Verdict`] it gives.
//!
//! The relay has already checked what Godot checks before a filter runs: with
//! [`Messages::Values`](crate::Messages::Values) the value is one Godot's `get_var` accepts
//! (so [`Frame::value`] is there, read lazily), and over ENet with Godot 3 the 8-byte header
//! names the sending client. A filter is called once per message, on the task that serves
//! the connection; it should be O(message).

use std::net::SocketAddr;

use gdvariant::VariantRef;
use gdvariant::view::Element;

/// Which way a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From a client to the upstream server.
    ToUpstream,
    /// From the upstream server back to a client.
    ToClient,
}

impl Direction {
    /// `to_upstream` or `to_client`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::ToUpstream => "to_upstream",
            Direction::ToClient => "to_client",
        }
    }

    /// 0 or 1, for per-direction counters.
    pub fn index(self) -> usize {
        match self {
            Direction::ToUpstream => 0,
            Direction::ToClient => 1,
        }
    }
}

/// One client's connection, as a filter's per-connection state is made for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connection {
    /// A number for the connection, counting from 0 in the order connections were accepted.
    pub number: u64,
    /// The client's address.
    pub peer: SocketAddr,
    /// The peer id the client announced before any message (ENet's connect data: Godot's peer
    /// id), if the transport carries one.
    pub peer_id: Option<u32>,
}

/// How Godot delivers an ENet packet (its `transfer_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferMode {
    /// Reliable and ordered (`TRANSFER_MODE_RELIABLE`).
    Reliable,
    /// Unsequenced (`TRANSFER_MODE_UNRELIABLE`).
    Unreliable,
    /// Sequenced, not resent (`TRANSFER_MODE_UNRELIABLE_ORDERED`).
    UnreliableOrdered,
}

impl TransferMode {
    /// Godot's number for the mode, as multiplayer captures record it: 0 reliable, 1
    /// unreliable, 2 unreliable ordered.
    pub fn number(self) -> u8 {
        match self {
            TransferMode::Reliable => 0,
            TransferMode::Unreliable => 1,
            TransferMode::UnreliableOrdered => 2,
        }
    }
}

/// Where an ENet message came: its channel and transfer mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    /// ENet's channel id.
    pub number: u8,
    /// How it was sent.
    pub mode: TransferMode,
}

/// An ENet message's channel, its transfer mode read only when asked for.
#[derive(Clone, Copy)]
pub(crate) struct ChannelOf<'a> {
    /// ENet's channel id.
    pub(crate) number: u8,
    /// Reads the transfer mode from the packet's flags.
    pub(crate) mode: &'a (dyn Fn() -> TransferMode + Sync),
}

impl ChannelOf<'_> {
    /// The channel with its mode.
    pub(crate) fn get(&self) -> Channel {
        Channel { number: self.number, mode: (self.mode)() }
    }
}

impl core::fmt::Debug for ChannelOf<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.get().fmt(f)
    }
}

/// One message, as the filter sees it.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    pub(crate) direction: Direction,
    pub(crate) connection: &'a Connection,
    pub(crate) offset: u64,
    pub(crate) bytes: &'a [u8],
    pub(crate) value: Option<Element<'a>>,
    pub(crate) channel: Option<ChannelOf<'a>>,
}

impl<'a> Frame<'a> {
    /// Which way it goes.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The connection it belongs to.
    pub fn connection(&self) -> &'a Connection {
        self.connection
    }

    /// The client's address.
    pub fn peer(&self) -> SocketAddr {
        self.connection.peer
    }

    /// Where it starts among the bytes received this way on this connection (a TCP prefix
    /// counted).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The message's bytes as the transport carried them: without a TCP length prefix, with
    /// Godot 3's ENet header.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The value it carries ([`Messages::Values`](crate::Messages::Values)): one Godot's
    /// `get_var` accepts (validated, every string's text included), read lazily from the
    /// received bytes. `None` for multiplayer messages and Godot 3's ENet system messages. O(1)
    /// (its head is read when asked for, not before).
    pub fn value(&self) -> Option<VariantRef<'a>> {
        self.value.map(|element| element.value())
    }

    /// The value with where it sits and its exact bytes (`None` as for [`Frame::value`]). O(1).
    pub fn element(&self) -> Option<Element<'a>> {
        self.value
    }

    /// The ENet channel and transfer mode (`None` over the other transports). O(1).
    pub fn channel(&self) -> Option<Channel> {
        self.channel.map(|channel| channel.get())
    }
}

/// What happens to a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Forward it, unchanged.
    Forward,
    /// Drop it; `reason` counts it (a short name such as `not_allowed`), `detail` says more.
    Drop {
        /// A short, fixed name for the reason.
        reason: &'static str,
        /// What exactly was refused.
        detail: String,
    },
}

impl Verdict {
    /// [`Verdict::Drop`] for `reason`, with `detail`.
    pub fn drop(reason: &'static str, detail: impl Into<String>) -> Self {
        Verdict::Drop { reason, detail: detail.into() }
    }
}

/// Decides which messages go on. A closure `Fn(&Frame) -> Verdict` is a filter with no
/// per-connection state; implement the trait for state such as a rate limiter or a multiplayer
/// session tracker.
pub trait Filter: Send + Sync + 'static {
    /// What the filter keeps per connection, for both directions.
    type State: Send + 'static;

    /// The state of a new connection, made once its client is accepted.
    fn open(&self, connection: &Connection) -> Self::State;

    /// The verdict on one message.
    fn judge(&self, state: &mut Self::State, frame: &Frame<'_>) -> Verdict;
}

impl<F> Filter for F
where
    F: Fn(&Frame<'_>) -> Verdict + Send + Sync + 'static,
{
    type State = ();

    fn open(&self, _: &Connection) {}

    fn judge(&self, (): &mut (), frame: &Frame<'_>) -> Verdict {
        self(frame)
    }
}
