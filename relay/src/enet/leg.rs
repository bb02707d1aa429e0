//! One client's connection ([`Leg`]): its downstream peer, its own upstream host and peer, the
//! state of the upstream connection, the packets waiting for it, and how the connection ends.
//!
//! What it validates: each packet either way ([`Leg::judge`]): Godot 3's transport checks, then
//! (reading values) the value as the game's `get_var` reads it, then the filter; a refused
//! packet is reported, and with [`Config::close_on_drop`](crate::Config::close_on_drop) closes
//! the connection. Costs: O(1) plus the check of the packet, which is linear in its size, plus
//! the filter.

use std::sync::Arc;

use gdvariant::Version;
use gdvariant_multiplayer::transport::enet3;
use rusty_enet::{Packet, PeerID};
use tokio::net::UdpSocket;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::config::Messages;
use crate::filter::{ChannelOf, Direction, Filter, TransferMode};
use crate::link::{Link, Message};
use crate::observer::{End, Observer, Tally};

use super::packets::mode_of;
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
pub(super) struct Leg<F: Filter, O: Observer> {
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
    /// The connection, its filter state and its reports.
    pub(super) link: Link<F, O>,
    pub(super) tallies: [Tally; 2],
    /// Bytes received per direction (the offsets of drop lines).
    pub(super) offsets: [u64; 2],
}

impl<F: Filter, O: Observer> Leg<F, O> {
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
    /// then (reading values) the value check, then the filter; a refused packet is reported
    /// (and with `close_on_drop` closes the connection).
    pub(super) fn judge(
        &mut self,
        down: &mut EnetHost,
        direction: Direction,
        channel: u8,
        packet: &Packet,
    ) -> bool {
        let data = packet.data();
        let index = direction.index();
        let at = self.offsets.get(index).copied().unwrap_or(0);
        if let Some(offset) = self.offsets.get_mut(index) {
            *offset = at.saturating_add(u64::try_from(data.len()).unwrap_or(u64::MAX));
        }
        let mode = || mode_of(packet);
        let mode: &(dyn Fn() -> TransferMode + Sync) = &mode;
        let place = ChannelOf { number: channel, mode };
        let message = Message::whole(direction, at, data, Some(place));
        let config = self.link.config();
        let godot3 = config.options.version() == Version::Godot3;
        if let Some(refused) = godot3
            .then(|| crate::checks::enet3_header(direction, channel, data, self.id).err())
            .flatten()
        {
            let dry_run = config.dry_run;
            self.link.dropped(&message, refused.reason, refused.detail.as_str(), dry_run);
            if !dry_run {
                self.refused(down);
            }
            return dry_run;
        }
        let passes = match config.messages {
            Messages::Multiplayer => {
                let passes = self.link.pass(&message, None);
                if let Some(tally) = self.tallies.get_mut(index).filter(|_| passes) {
                    tally.add_bytes(data.len());
                }
                passes
            }
            // A system message from the server: no value to read.
            Messages::Values if godot3 && channel == enet3::SYSTEM_CHANNEL => {
                if let Some(tally) = self.tallies.get_mut(index) {
                    tally.add_bytes(data.len());
                }
                true
            }
            Messages::Values => {
                let skip = if godot3 { HEADER } else { 0 };
                let payload = data.get(skip..).unwrap_or(&[]);
                let offset = at.saturating_add(u64::try_from(skip).unwrap_or(0));
                match self.link.check_value(direction, payload, offset, Some(place)) {
                    Some(ty) => {
                        if let Some(tally) = self.tallies.get_mut(index) {
                            tally.add(payload.len(), ty);
                        }
                        true
                    }
                    None => false,
                }
            }
        };
        if !passes {
            self.refused(down);
        }
        passes
    }

    /// A packet was dropped: with `close_on_drop`, the connection closes.
    fn refused(&mut self, down: &mut EnetHost) {
        if self.link.config().close_on_drop {
            self.close(down, End::CloseOnDrop, None, 0);
        }
    }
}
