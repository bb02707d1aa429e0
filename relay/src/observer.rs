//! [`Observer`]: what a relay reports as it runs (connections accepted, refused and closed,
//! messages dropped, counts of what was forwarded), for logs and metrics. Every method has an
//! empty default; `()` observes nothing.

use std::net::SocketAddr;

use gdvariant::{VariantType, Version};

use crate::filter::{Channel, Connection, Direction};

/// How one connection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum End {
    /// A side closed; the other direction was finished first.
    Closed,
    /// No message for the idle timeout, or a write that did not finish in it.
    Idle,
    /// A dropped message, with [`Config::close_on_drop`](crate::Config::close_on_drop) (named
    /// apart from [`Observer::refused`], a client turned away at the connection limit).
    CloseOnDrop,
    /// A transport error (the upstream could not be reached, a reset, a broken handshake).
    Error,
    /// The client asked for a peer id Godot refuses (ENet connect data 0 or 1).
    BadPeerId,
}

impl End {
    /// Whether the whole connection must close (anything but [`End::Closed`] of one side).
    pub fn closes_all(self) -> bool {
        self != End::Closed
    }

    /// A short name: `closed`, `idle_timeout`, `disconnect_on_drop`, `error`,
    /// `invalid_peer_id`.
    pub fn name(self) -> &'static str {
        match self {
            End::Closed => "closed",
            End::Idle => "idle_timeout",
            End::CloseOnDrop => "disconnect_on_drop",
            End::Error => "error",
            End::BadPeerId => "invalid_peer_id",
        }
    }
}

/// A message that was dropped (or, in a dry run, would have been).
#[derive(Clone, Copy, Debug)]
pub struct Dropped<'a> {
    /// The client's address.
    pub peer: SocketAddr,
    /// The connection's number ([`Connection::number`]); `None` when the message came before
    /// a connection existed (a UDP datagram over the client limit).
    pub connection: Option<u64>,
    /// Which way it went.
    pub direction: Direction,
    /// Where it starts among the bytes received this way on the connection.
    pub offset: u64,
    /// Its length in bytes (0 when it was never received whole).
    pub len: u64,
    /// A short name for the reason (`too_large`, `invalid_packet`, a filter's reason, or the
    /// reason of a value Godot refuses, such as `truncated`).
    pub reason: &'static str,
    /// What exactly was refused.
    pub detail: &'a str,
    /// The message's bytes, when they were received whole.
    pub bytes: &'a [u8],
    /// The ENet channel and transfer mode it came on.
    pub channel: Option<Channel>,
    /// The relay forwarded it anyway ([`Config::dry_run`](crate::Config::dry_run)).
    pub dry_run: bool,
}

/// Godot 4 type ids run from 0 to 38.
const TYPES: usize = 39;

/// Messages and bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Messages.
    pub messages: u64,
    /// Bytes (without TCP prefixes).
    pub bytes: u64,
}

impl Count {
    fn add(&mut self, bytes: usize) {
        self.messages = self.messages.saturating_add(1);
        self.bytes = self.bytes.saturating_add(u64::try_from(bytes).unwrap_or(u64::MAX));
    }
}

/// What one direction of one connection forwarded since it last reported: counted without a
/// lock, handed to [`Observer::forwarded`] once per batch of messages (per read), then cleared.
#[derive(Clone, Debug)]
pub struct Tally {
    direction: Direction,
    forwarded: Count,
    by_type: [Count; TYPES],
}

impl Tally {
    /// Nothing counted yet.
    pub(crate) fn new(direction: Direction) -> Self {
        Tally { direction, forwarded: Count::default(), by_type: [Count::default(); TYPES] }
    }

    /// Counts a forwarded message that is not a value (a multiplayer packet). O(1).
    #[cfg_attr(not(any(feature = "enet", feature = "websocket")), allow(dead_code))]
    pub(crate) fn add_bytes(&mut self, len: usize) {
        self.forwarded.add(len);
    }

    /// Counts a forwarded value of `len` bytes (a TCP prefix counted) and type `ty`. O(1).
    pub(crate) fn add(&mut self, len: usize, ty: VariantType) {
        self.forwarded.add(len);
        let id = usize::from(ty.id(Version::Godot4).unwrap_or(0));
        if let Some(count) = self.by_type.get_mut(id) {
            count.add(len);
        }
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.forwarded.messages == 0
    }

    /// Which way the messages went.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// Every message forwarded.
    pub fn total(&self) -> Count {
        self.forwarded
    }

    /// The values forwarded, per type (only with [`Messages::Values`](crate::Messages::Values);
    /// types with none left out). O(types).
    pub fn by_type(&self) -> impl Iterator<Item = (VariantType, Count)> + '_ {
        (0u32..).zip(self.by_type.iter()).filter(|(_, count)| count.messages > 0).filter_map(
            |(id, count)| VariantType::from_id(Version::Godot4, id).map(|ty| (ty, *count)),
        )
    }

    /// Clears the counts.
    pub(crate) fn clear(&mut self) {
        *self = Tally::new(self.direction);
    }
}

/// What a relay reports. Called from the tasks that serve the connections (so concurrently):
/// keep each call short.
pub trait Observer: Send + Sync + 'static {
    /// A client was accepted (a UDP client address seen for the first time, an ENet client
    /// connected).
    fn accepted(&self, connection: &Connection) {
        let _ = connection;
    }

    /// A client over [`Config::max_connections`](crate::Config::max_connections) was turned
    /// away.
    fn refused(&self, peer: SocketAddr) {
        let _ = peer;
    }

    /// A message was dropped (or would have been, in a dry run).
    fn dropped(&self, dropped: &Dropped<'_>) {
        let _ = dropped;
    }

    /// What a connection forwarded one way since the last call.
    fn forwarded(&self, connection: &Connection, tally: &Tally) {
        let _ = (connection, tally);
    }

    /// A connection ended, for `end` (`detail` says more).
    fn closed(&self, connection: &Connection, end: End, detail: Option<&str>) {
        let _ = (connection, end, detail);
    }
}

impl Observer for () {}
