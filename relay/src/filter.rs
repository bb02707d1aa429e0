//! [`Filter`]: what decides, per connection and per direction, whether a message goes on; the
//! [`Frame`] it is shown and the [`Verdict`] it gives.
//!
//! The relay has already checked what Godot checks before a filter runs: with
//! [`Messages::Values`](crate::Messages::Values) the value is one Godot's `get_var` accepts
//! (so [`Frame::value`] is there, read lazily), and over ENet with Godot 3 the 8-byte header
//! names the sending client. A filter is called once per message, on the task that serves
//! the connection; it should be O(message).

use std::net::SocketAddr;

use gdvariant::view::Element;
use gdvariant::{Options, VariantRef};
pub use gdvariant_multiplayer::{Direction, TransferMode};

use crate::config::{Messages, Transport};
pub use crate::detail::Detail;

/// One client's connection, as a filter's per-connection state is made for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Connection {
    /// A number for the connection, counting from 0 in the order connections were accepted.
    pub number: u64,
    /// The client's address.
    pub peer: SocketAddr,
    /// The peer id the client announced before any message (ENet's connect data: Godot's peer
    /// id), if the transport carries one.
    pub peer_id: Option<u32>,
    /// The relay's transport.
    pub transport: Transport,
    /// How the relay reads values: the Godot version of the traffic, and whether full objects
    /// are accepted.
    pub options: Options,
    /// What a message is.
    pub messages: Messages,
}

impl Connection {
    /// What the transport puts around each multiplayer packet of this connection (Godot 3 over
    /// ENet: an 8-byte header; over WebSocket: a 9-byte one; Godot 4 over WebSocket: the
    /// server's first message is the client's id; packets as they are over TCP and UDP), for a
    /// [`Tracker`](gdvariant_multiplayer::track::Tracker).
    pub fn framing(&self) -> gdvariant_multiplayer::Framing {
        use gdvariant_multiplayer::Framing;
        #[cfg_attr(not(any(feature = "enet", feature = "websocket")), allow(unused_variables))]
        let version = self.options.version();
        match self.transport {
            #[cfg(feature = "enet")]
            Transport::Enet => Framing::of(version, true),
            #[cfg(feature = "websocket")]
            Transport::WebSocket => Framing::of(version, false),
            // Multiplayer packets over a plain stream or datagrams: no header to read.
            _ => Framing::Packets,
        }
    }

    /// A tracker for this connection's multiplayer traffic: its version and framing, full
    /// objects as the relay reads them, the client's peer id when the transport told it, Godot 4
    /// methods named by `methods`.
    pub fn tracker(
        &self,
        methods: std::sync::Arc<gdvariant_multiplayer::session::RpcMethods>,
    ) -> gdvariant_multiplayer::track::Tracker {
        let tracker = gdvariant_multiplayer::track::Tracker::new(
            self.options.version(),
            self.framing(),
            methods,
        )
        .with_allow_objects(self.options.allow_objects());
        match self.peer_id.and_then(|id| i32::try_from(id).ok()) {
            Some(id) => tracker.with_client(id),
            None => tracker,
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
        /// What exactly was refused, held inline (no allocation per drop).
        detail: Detail,
    },
}

impl Verdict {
    /// [`Verdict::Drop`] for `reason`, with `detail` written inline ([`Detail`]: cut at
    /// [`Detail::CAPACITY`] bytes). No allocation.
    pub fn drop(reason: &'static str, detail: impl core::fmt::Display) -> Self {
        Verdict::Drop { reason, detail: Detail::new(detail) }
    }

    /// Whether it forwards.
    pub fn forwards(&self) -> bool {
        matches!(self, Verdict::Forward)
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

    /// What messages the filter reads, if it needs one kind: [`Relay::run`](crate::Relay::run)
    /// refuses to start a relay whose [`Config::messages`](crate::Config::messages) differ,
    /// rather than judge messages the filter cannot read. `None` (the default): either.
    fn reads(&self) -> Option<Messages> {
        None
    }
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
