//! One client's connection ([`Leg`]): its downstream peer, its own upstream host and peer, the
//! state of the upstream connection, the packets waiting for it, and how the connection ends.
//!
//! What it validates: each packet either way ([`Leg::judge`]): Godot 3's transport checks, then
//! the multiplayer filter or the value check (as the game's `get_var` reads it), the rules and
//! the rate limit; a refused packet is reported, and with `--disconnect` closes the connection.
//! Costs: O(1) plus the check of the packet, which is linear in its size.

use std::sync::Arc;

use bytes::Bytes;
use gdvariant::Version;
use gdvariant_multiplayer::transport::enet3;
use rusty_enet::{Packet, PeerID};
use tokio::net::UdpSocket;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::proxy::multiplayer::{Channel, Filter, Verdict};
use crate::proxy::report::Tally;
use crate::proxy::rules::RateLimit;
use crate::proxy::udp::check;
use crate::proxy::{Context, Direction, End};

use super::packets::{channel_of, enet3_refusal};
use super::{EnetHost, HEADER};

/// The upstream leg's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Upstream {
    /// Connecting; packets wait.
    Connecting,
    /// Connected.
    Open,
    /// Disconnected (or given up).
    Gone,
}

/// One client: its downstream peer and its own upstream connection.
pub(super) struct Leg {
    /// The client's peer on the listening host; `None` once it is gone.
    pub(super) client: Option<PeerID>,
    /// The client's connect data (Godot's peer id).
    pub(super) id: u32,
    pub(super) host: EnetHost,
    pub(super) socket: Arc<UdpSocket>,
    pub(super) reader: JoinHandle<()>,
    pub(super) upstream: PeerID,
    pub(super) state: Upstream,
    pub(super) pending: Vec<(u8, Packet)>,
    /// When a packet last passed, either way (the idle timeout).
    pub(super) last: Instant,
    /// Why the connection ends, once it does: the first cause.
    pub(super) end: Option<(End, Option<String>)>,
    /// When closing began.
    pub(super) closing: Option<Instant>,
    pub(super) context: Context,
    pub(super) filter: Option<Filter>,
    pub(super) rate: Option<RateLimit>,
    pub(super) tallies: [Tally; 2],
    /// Bytes received per direction (the offsets of drop lines).
    pub(super) offsets: [u64; 2],
}

impl Leg {
    /// Ends the connection for `end` (the first cause is kept) and disconnects both peers, with
    /// `data`, once what they were sent is delivered.
    pub(super) fn close(
        &mut self,
        down: &mut EnetHost,
        end: End,
        detail: Option<String>,
        data: u32,
    ) {
        if self.end.is_none() {
            self.end = Some((end, detail));
        }
        if self.closing.is_some() {
            return;
        }
        self.closing = Some(Instant::now());
        if let Some(peer) = self.client.and_then(|client| down.get_peer_mut(client)) {
            peer.disconnect_later(data);
        }
        match self.state {
            Upstream::Open => self.host.peer_mut(self.upstream).disconnect_later(data),
            Upstream::Connecting => {
                self.host.peer_mut(self.upstream).reset();
                self.state = Upstream::Gone;
            }
            Upstream::Gone => {}
        }
    }

    /// Whether a packet going `direction` on `channel` passes: Godot 3's transport checks,
    /// then the multiplayer filter or the value check, the rules and the rate limit; a refused
    /// packet is reported (and with `--disconnect` closes the connection).
    pub(super) fn judge(
        &mut self,
        down: &mut EnetHost,
        direction: Direction,
        channel: u8,
        packet: &Packet,
    ) -> bool {
        let data = packet.data();
        let len = u64::try_from(data.len()).unwrap_or(u64::MAX);
        let index = direction.index();
        let at = self.offsets.get(index).copied().unwrap_or(0);
        if let Some(offset) = self.offsets.get_mut(index) {
            *offset = at.saturating_add(len);
        }
        let settings = Arc::clone(&self.context.settings);
        let godot3 = settings.options.version() == Version::Godot3;
        let refused = godot3
            .then(|| enet3_refusal(direction, channel, data, self.id))
            .flatten()
            .map(|detail| ("invalid_packet", detail));
        let passes = if let Some(filter) = self.filter.as_mut() {
            let place = if settings.capture.is_some() {
                channel_of(channel, packet)
            } else {
                Channel { number: channel, mode: 0 }
            };
            match filter.judge_on(&self.context, direction, place, data, refused) {
                Verdict::Forward => true,
                Verdict::Drop(reason, detail) if settings.monitor => {
                    self.context.report.line(&serde_json::json!({
                        "event": "drop", "peer": self.context.peer.to_string(),
                        "direction": direction.name(), "offset": at, "len": len,
                        "reason": reason, "detail": detail, "monitor": true,
                    }));
                    true
                }
                Verdict::Drop(reason, detail) => {
                    self.context.dropped(direction, at, len, reason, detail);
                    false
                }
            }
        } else if let Some((reason, detail)) = refused {
            self.context.dropped(direction, at, len, reason, detail);
            false
        } else if godot3 && channel == enet3::SYSTEM_CHANNEL {
            // A system message from the server: no value to read.
            true
        } else {
            let skip = if godot3 { HEADER } else { 0 };
            let payload = Bytes::copy_from_slice(data.get(skip..).unwrap_or(&[]));
            let offset = at.saturating_add(u64::try_from(skip).unwrap_or(0));
            let mut no_rate = None;
            let rate =
                if direction == Direction::ToUpstream { &mut self.rate } else { &mut no_rate };
            return match check(&self.context, direction, payload, offset, rate) {
                Some(value) => {
                    if let Some(tally) = self.tallies.get_mut(index) {
                        tally.add(&value);
                    }
                    true
                }
                None => {
                    self.refused(down);
                    false
                }
            };
        };
        // Multiplayer packets and system messages: --rate-limit counts client packets.
        let limited = passes && direction == Direction::ToUpstream && !settings.monitor;
        if limited && self.rate.as_mut().is_some_and(|rate| !rate.allow()) {
            let detail = format!("over {} packets per second", settings.rate_limit.unwrap_or(0));
            self.context.dropped(direction, at, len, "rate_limit", detail);
            self.refused(down);
            return false;
        }
        if passes {
            if let Some(tally) = self.tallies.get_mut(index) {
                tally.add_bytes(data.len());
            }
        } else {
            self.refused(down);
        }
        passes
    }

    /// A packet was dropped: with `--disconnect`, the connection closes.
    fn refused(&mut self, down: &mut EnetHost) {
        if self.context.settings.disconnect {
            self.close(down, End::Refused, None, 0);
        }
    }
}
