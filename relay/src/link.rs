//! [`Link`]: one connection as its code sees it: the relay's config, filter and observer, the
//! connection's [`Connection`], and the filter's state for it. The checks every transport
//! shares live here: a message over the size limit, a value Godot's `get_var` refuses, and the
//! filter's verdict, each reported to the observer when it drops something. Costs: O(1) plus
//! the value's validation (linear in its bytes) plus the filter's own cost.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use gdvariant::view::Element;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::filter::{ChannelOf, Connection, Direction, Filter, Frame, Verdict};
use crate::observer::{Dropped, Observer, Tally};

/// What every connection of one relay shares.
pub(crate) struct Shared<F: Filter, O: Observer> {
    pub(crate) config: Config,
    pub(crate) filter: F,
    pub(crate) observer: O,
    /// Cancelled when the relay's stop future resolves: the connections stop reading, finish
    /// what they were writing and close (see [`STOPPED`]).
    pub(crate) stopping: CancellationToken,
    next: AtomicU64,
}

/// The detail of a connection closed because the relay stopped.
pub(crate) const STOPPED: &str = "the relay stopped";

impl<F: Filter, O: Observer> Shared<F, O> {
    /// The shared part of a relay.
    pub(crate) fn new(config: Config, filter: F, observer: O) -> Arc<Self> {
        Arc::new(Shared {
            config,
            filter,
            observer,
            stopping: CancellationToken::new(),
            next: AtomicU64::new(0),
        })
    }

    /// A new connection from `peer`: numbered, its filter state made, reported as accepted.
    pub(crate) fn open(self: &Arc<Self>, peer: SocketAddr, peer_id: Option<u32>) -> Link<F, O> {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let config = &self.config;
        let connection = Connection {
            number,
            peer,
            peer_id,
            transport: config.transport,
            options: config.options,
            messages: config.messages,
        };
        let state = self.filter.open(&connection);
        self.observer.accepted(&connection);
        Link { shared: Arc::clone(self), connection, state: Mutex::new(state) }
    }
}

/// One connection.
pub(crate) struct Link<F: Filter, O: Observer> {
    pub(crate) shared: Arc<Shared<F, O>>,
    pub(crate) connection: Connection,
    state: Mutex<F::State>,
}

/// A message as the transports hand it to [`Link::pass`].
pub(crate) struct Message<'a> {
    pub(crate) direction: Direction,
    pub(crate) offset: u64,
    /// What the filter sees: the message without a TCP prefix.
    pub(crate) bytes: &'a [u8],
    /// The bytes it took in what was received (a TCP prefix counted).
    pub(crate) len: usize,
    pub(crate) channel: Option<ChannelOf<'a>>,
}

impl<'a> Message<'a> {
    /// A message of a transport without prefixes, whose bytes are all it took.
    pub(crate) fn whole(
        direction: Direction,
        offset: u64,
        bytes: &'a [u8],
        channel: Option<ChannelOf<'a>>,
    ) -> Self {
        Message { direction, offset, bytes, len: bytes.len(), channel }
    }
}

impl<F: Filter, O: Observer> Link<F, O> {
    /// The relay's settings.
    pub(crate) fn config(&self) -> &Config {
        &self.shared.config
    }

    /// Reports a dropped message (`dry_run`: one forwarded anyway).
    pub(crate) fn dropped(
        &self,
        message: &Message<'_>,
        reason: &'static str,
        detail: &str,
        dry_run: bool,
    ) {
        self.shared.observer.dropped(&Dropped {
            peer: self.connection.peer,
            connection: Some(self.connection.number),
            direction: message.direction,
            offset: message.offset,
            len: u64::try_from(message.len).unwrap_or(u64::MAX),
            reason,
            detail,
            bytes: message.bytes,
            channel: message.channel.map(|c| c.get()),
            dry_run,
        });
    }

    /// Reports what a direction forwarded, and clears its tally.
    pub(crate) fn merge(&self, tally: &mut Tally) {
        if !tally.is_empty() {
            self.shared.observer.forwarded(&self.connection, tally);
            tally.clear();
        }
    }

    /// The filter's state, locked: a pump that judges many messages of one read locks it once
    /// for all of them (uncontended but for the moments the other direction judges).
    pub(crate) fn state(&self) -> MutexGuard<'_, F::State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a message goes on: the filter's verdict (a drop reported; in a dry run reported
    /// and forwarded anyway). `value` is the checked value of a values relay.
    pub(crate) fn pass(&self, message: &Message<'_>, value: Option<Element<'_>>) -> bool {
        self.pass_with(&mut self.state(), message, value)
    }

    /// [`Link::pass`] with the state already locked.
    pub(crate) fn pass_with(
        &self,
        state: &mut F::State,
        message: &Message<'_>,
        value: Option<Element<'_>>,
    ) -> bool {
        let frame = Frame {
            direction: message.direction,
            connection: &self.connection,
            offset: message.offset,
            bytes: message.bytes,
            value,
            channel: message.channel,
        };
        let verdict = self.shared.filter.judge(state, &frame);
        match verdict {
            Verdict::Forward => true,
            Verdict::Drop { reason, detail } => {
                let dry_run = self.shared.config.dry_run;
                self.dropped(message, reason, detail.as_str(), dry_run);
                dry_run
            }
        }
    }

    /// The type of a datagram's value, when it is within the size limit, Godot accepts it (one
    /// pass, as its `get_var` reads it: bytes after the value are ignored) and the filter lets
    /// it go; anything else is reported. O(datagram) plus the filter; nothing is copied.
    pub(crate) fn check_value(
        &self,
        direction: Direction,
        datagram: &[u8],
        offset: u64,
        channel: Option<ChannelOf<'_>>,
    ) -> Option<gdvariant::VariantType> {
        let message = Message::whole(direction, offset, datagram, channel);
        let config = self.config();
        match crate::checks::value(datagram, config.options, config.max_frame, offset) {
            Ok(element) => self.pass(&message, Some(element)).then(|| element.variant_type()),
            Err(refused) => {
                self.dropped(&message, refused.reason, refused.detail.as_str(), false);
                None
            }
        }
    }

    /// Reports how the connection ended.
    pub(crate) fn closed(&self, end: crate::End, detail: Option<&str>) {
        self.shared.observer.closed(&self.connection, end, detail);
    }
}
