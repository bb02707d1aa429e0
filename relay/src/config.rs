//! [`Config`]: where a relay listens and forwards, over which [`Transport`], and its limits.

use std::net::SocketAddr;
use std::time::Duration;

use gdvariant::framing::LengthPrefix;
use gdvariant::{Options, Version};

/// How clients and the upstream server talk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// Length-prefixed frames over TCP (`StreamPeer.put_var`, `PacketPeerStream`); the prefix
    /// is the peers' (its limit is set to [`Config::max_frame`]).
    Tcp(LengthPrefix),
    /// One value per UDP datagram (`PacketPeerUDP`); each client address gets its own upstream
    /// socket.
    Udp,
    /// One message per WebSocket message (`WebSocketPeer`, `WebSocketMultiplayerPeer`); the
    /// upstream is a WebSocket server (`host:port` or a `ws://` URL).
    #[cfg(feature = "websocket")]
    WebSocket,
    /// ENet (`NetworkedMultiplayerENet`, `ENetMultiplayerPeer`), terminated on both sides: the
    /// relay is the ENet server of each client and, per client, an ENet client of the upstream
    /// with the same connect data (Godot's peer id), channels and delivery flags.
    #[cfg(feature = "enet")]
    Enet,
}

impl Transport {
    /// The transport's name (`tcp`, `udp`, `websocket`, `enet`).
    pub fn name(self) -> &'static str {
        match self {
            Transport::Tcp(_) => "tcp",
            Transport::Udp => "udp",
            #[cfg(feature = "websocket")]
            Transport::WebSocket => "websocket",
            #[cfg(feature = "enet")]
            Transport::Enet => "enet",
        }
    }
}

impl core::str::FromStr for Transport {
    type Err = String;

    /// `tcp` (the stream peer's little-endian prefix), `udp`, `websocket`, `enet`.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "tcp" => Ok(Transport::Tcp(LengthPrefix::stream_peer(false))),
            "udp" => Ok(Transport::Udp),
            #[cfg(feature = "websocket")]
            "websocket" => Ok(Transport::WebSocket),
            #[cfg(feature = "enet")]
            "enet" => Ok(Transport::Enet),
            _ => Err(format!("unknown transport {name:?} (tcp, udp, websocket, enet)")),
        }
    }
}

/// What a message is, and so what the relay checks before the filter sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Messages {
    /// One value each (`put_var`): a message Godot's `get_var` would refuse is dropped, and the
    /// filter gets the value ([`Frame::value`](crate::Frame::value)). Godot 3 over ENet: the
    /// value after the 8-byte header; the server's system messages (channel 0) pass unfiltered.
    Values,
    /// Godot's high-level multiplayer packets: the filter gets each message's bytes (WebSocket,
    /// ENet) and reads them, for example with `gdvariant_multiplayer`'s session trackers.
    Multiplayer,
}

impl Messages {
    /// `values` or `multiplayer packets`.
    pub fn name(self) -> &'static str {
        match self {
            Messages::Values => "values",
            Messages::Multiplayer => "multiplayer packets",
        }
    }
}

/// A relay's settings. [`Config::new`] gives the defaults; the builder methods change them.
#[derive(Clone, Debug)]
pub struct Config {
    pub(crate) listen: SocketAddr,
    pub(crate) upstream: String,
    pub(crate) transport: Transport,
    pub(crate) options: Options,
    pub(crate) messages: Messages,
    pub(crate) max_frame: u32,
    pub(crate) idle: Duration,
    pub(crate) max_connections: usize,
    pub(crate) close_on_drop: bool,
    pub(crate) dry_run: bool,
}

/// Most peers an ENet host serves (ENet's 12-bit peer ids).
pub const ENET_MAX_PEERS: usize = 4095;

impl Config {
    /// A relay of `version` traffic over `transport` from `listen` (port 0 picks a free one) to
    /// `upstream` (`host:port`; over WebSocket also a `ws://` URL): values read as `version`'s
    /// `get_var` reads them (full objects refused), frames up to 1 MiB, a 60-second idle
    /// timeout and at most 1024 connections.
    ///
    /// The version is not optional because the checks depend on it: Godot 3 over ENet puts an
    /// 8-byte header before each packet, and the relay checks that it names the sending client
    /// and that clients send nothing on the system channel, whatever [`Messages`] says.
    pub fn new(
        version: Version,
        transport: Transport,
        listen: SocketAddr,
        upstream: impl Into<String>,
    ) -> Self {
        Config {
            listen,
            upstream: upstream.into(),
            transport,
            options: Options::new(version),
            messages: Messages::Values,
            max_frame: 1 << 20,
            idle: Duration::from_secs(60),
            max_connections: 1024,
            close_on_drop: false,
            dry_run: false,
        }
    }

    /// Accept full objects in values, as `get_var(true)` (and `allow_object_decoding`) does;
    /// refused by default, as Godot does.
    pub fn allow_objects(mut self, allow: bool) -> Self {
        self.options = self.options.with_allow_objects(allow);
        self
    }

    /// What a message is (values by default).
    pub fn messages(mut self, messages: Messages) -> Self {
        self.messages = messages;
        self
    }

    /// The largest message forwarded, in bytes (a TCP prefix is not counted; Godot 3's ENet
    /// header is). Larger ones are dropped without being buffered whole.
    pub fn max_frame(mut self, bytes: u32) -> Self {
        self.max_frame = bytes;
        self
    }

    /// Closes a connection (or forgets a UDP client) after this long without a message in
    /// either direction; also bounds connecting upstream and each write. Clamped to at least a
    /// millisecond.
    pub fn idle_timeout(mut self, idle: Duration) -> Self {
        self.idle = idle.max(Duration::from_millis(1));
        self
    }

    /// Most connections (UDP: client addresses; ENet: peers, at most [`ENET_MAX_PEERS`]) at
    /// once; more are closed at once (ENet ignores them). At least 1.
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.max(1);
        self
    }

    /// Closes the whole connection on the first message dropped (by Godot's checks or the
    /// filter), instead of dropping the message and going on.
    pub fn close_on_drop(mut self, close: bool) -> Self {
        self.close_on_drop = close;
        self
    }

    /// Forwards every message the transport can carry, dropping nothing: what would have been
    /// dropped is still reported ([`Dropped::dry_run`](crate::Dropped::dry_run)). Values
    /// Godot's `get_var` refuses are still dropped ([`Messages::Values`]).
    pub fn dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// Where the relay listens.
    pub fn listen_addr(&self) -> SocketAddr {
        self.listen
    }

    /// Where it forwards to.
    pub fn upstream(&self) -> &str {
        &self.upstream
    }

    /// The transport.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// How values are read: the Godot version and whether full objects are accepted.
    pub fn read_options(&self) -> Options {
        self.options
    }

    /// The Godot version of the traffic.
    pub fn version(&self) -> Version {
        self.options.version()
    }

    /// What a message is.
    pub fn message_kind(&self) -> Messages {
        self.messages
    }

    /// The TCP length prefix, its limit set to [`Config::max_frame`] (the stream peer's
    /// little-endian prefix when the transport is not TCP).
    pub(crate) fn prefix(&self) -> LengthPrefix {
        let prefix = match self.transport {
            Transport::Tcp(prefix) => prefix,
            _ => LengthPrefix::stream_peer(false),
        };
        prefix.with_max_frame_size(self.max_frame)
    }
}
