//! The owner task's bookkeeping ([`Proxy`]): the listening host and its peers, one [`Leg`] per
//! client with its own upstream host; datagrams fed to their host, every host serviced and its
//! events forwarded, new clients given a leg and an upstream connection, idle or unacknowledged
//! legs timed out, finished legs forgotten and reported, and everything disconnected at a stop.
//!
//! What it validates: a client's connect data (Godot refuses the peer ids 0 and 1), and at most
//! [`PENDING`] packets waiting for an upstream connection; each packet is judged by
//! [`Leg::judge`]. Costs: O(1) per datagram and per event, plus O(legs) per pass of the owner
//! loop (each batch of up to 64 datagrams, and each 5 ms tick).

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use gdvariant::Version;
use rusty_enet::{EventNoRef, PeerID};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::config::Messages;
use crate::filter::{Direction, Filter};
use crate::link::Shared;
use crate::observer::{End, Observer, Tally};

use super::leg::{Leg, Upstream};
use super::{CLOSING, Datagram, EnetHost, PENDING, Side, new_host, read_into};

/// The owner task's state.
pub(super) struct Proxy<F: Filter, O: Observer> {
    pub(super) shared: Arc<Shared<F, O>>,
    pub(super) down: EnetHost,
    pub(super) socket: Arc<UdpSocket>,
    pub(super) upstream: SocketAddr,
    pub(super) legs: HashMap<u64, Leg<F, O>>,
    pub(super) by_client: HashMap<PeerID, u64>,
    pub(super) next: u64,
    pub(super) inbox: mpsc::Sender<Datagram>,
}

impl<F: Filter, O: Observer> Proxy<F, O> {
    /// Hands a datagram to the host of its socket.
    pub(super) fn feed(&mut self, (side, from, datagram): Datagram) {
        crate::work::count(1);
        match side {
            Side::Down => self.down.socket_mut().write(from, datagram),
            Side::Leg(n) => {
                if let Some(leg) = self.legs.get_mut(&n) {
                    leg.host.socket_mut().write(from, datagram);
                }
            }
        }
    }

    /// Closes connections idle for the idle timeout, or still connecting upstream after it, and
    /// forgets those whose disconnect was not acknowledged in time.
    pub(super) fn check_times(&mut self) {
        let idle = self.shared.config.idle;
        let now = Instant::now();
        let mut expired = Vec::new();
        for (&n, leg) in &mut self.legs {
            crate::work::count(1);
            if let Some(since) = leg.closing {
                if now.saturating_duration_since(since) > CLOSING {
                    expired.push(n);
                }
            } else if now.saturating_duration_since(leg.last) > idle {
                let (end, detail) = match leg.state {
                    Upstream::Connecting => {
                        (End::Idle, Some("connecting upstream timed out".to_string()))
                    }
                    _ => (End::Idle, None),
                };
                leg.close(&mut self.down, end, detail, 0);
            }
        }
        for n in expired {
            if let Some(leg) = self.legs.get_mut(&n) {
                if let Some(client) = leg.client.take() {
                    self.by_client.remove(&client);
                    if let Some(peer) = self.down.get_peer_mut(client) {
                        peer.reset();
                    }
                }
                leg.state = Upstream::Gone;
            }
            self.forget(n);
        }
    }

    /// Services every host, forwards what they received, and sends what they wrote.
    pub(super) async fn service(&mut self) {
        while let Ok(Some(event)) = self.down.service() {
            crate::work::count(1);
            match event.no_ref() {
                EventNoRef::Connect { peer, data } => self.connected(peer, data).await,
                EventNoRef::Disconnect { peer, data } => {
                    let Some(n) = self.by_client.remove(&peer) else { continue };
                    if let Some(leg) = self.legs.get_mut(&n) {
                        leg.client = None;
                        leg.close(&mut self.down, End::Closed, None, data);
                    }
                    self.forget(n);
                }
                EventNoRef::Receive { peer, channel_id, packet } => {
                    let Some(&n) = self.by_client.get(&peer) else { continue };
                    let Some(leg) = self.legs.get_mut(&n) else { continue };
                    if leg.closing.is_some()
                        || !leg.judge(&mut self.down, Direction::ToServer, channel_id, &packet)
                    {
                        continue;
                    }
                    leg.last = Instant::now();
                    match leg.state {
                        Upstream::Open => {
                            let _ = leg.host.peer_mut(leg.upstream).send(channel_id, &packet);
                        }
                        Upstream::Connecting if leg.pending.len() < PENDING => {
                            leg.pending.push((channel_id, packet));
                        }
                        Upstream::Connecting => {
                            let detail =
                                format!("over {PENDING} packets before the upstream connected");
                            leg.close(&mut self.down, End::Error, Some(detail), 0);
                        }
                        Upstream::Gone => {}
                    }
                }
            }
        }
        let mut gone = Vec::new();
        for (&n, leg) in &mut self.legs {
            crate::work::count(1);
            while let Ok(Some(event)) = leg.host.service() {
                crate::work::count(1);
                match event.no_ref() {
                    EventNoRef::Connect { .. } => {
                        leg.state = Upstream::Open;
                        leg.last = Instant::now();
                        if leg.closing.is_some() {
                            leg.host.peer_mut(leg.upstream).disconnect_later(leg.id);
                        }
                        for (channel, packet) in std::mem::take(&mut leg.pending) {
                            let _ = leg.host.peer_mut(leg.upstream).send(channel, &packet);
                        }
                    }
                    EventNoRef::Disconnect { data, .. } => {
                        let (end, detail) = match leg.state {
                            Upstream::Connecting => (
                                End::Error,
                                Some(format!("cannot connect upstream to {}", self.upstream)),
                            ),
                            _ => (End::Closed, None),
                        };
                        leg.state = Upstream::Gone;
                        leg.close(&mut self.down, end, detail, data);
                        gone.push(n);
                    }
                    EventNoRef::Receive { channel_id, packet, .. } => {
                        let Some(client) = leg.client else { continue };
                        if leg.closing.is_some()
                            || !leg.judge(&mut self.down, Direction::ToClient, channel_id, &packet)
                        {
                            continue;
                        }
                        leg.last = Instant::now();
                        if let Some(peer) = self.down.get_peer_mut(client) {
                            let _ = peer.send(channel_id, &packet);
                        }
                    }
                }
            }
            leg.host.flush();
            while let Some((_, datagram)) = leg.host.socket_mut().read() {
                let _ = leg.socket.send(&datagram).await;
            }
            for tally in &mut leg.tallies {
                leg.link.merge(tally);
            }
        }
        for n in gone {
            self.forget(n);
        }
        self.down.flush();
        while let Some((to, datagram)) = self.down.socket_mut().read() {
            let _ = self.socket.send_to(&datagram, to).await;
        }
    }

    /// A client connected with `data`: a new leg, connecting upstream.
    async fn connected(&mut self, client: PeerID, data: u32) {
        let Some(addr) = self.down.get_peer(client).and_then(|p| p.address()) else { return };
        let channels = self.down.get_peer(client).map_or(1, |p| p.channel_count());
        let config = &self.shared.config;
        // Godot refuses the ids 0 and 1 (1 is the server) without a word: refuse them clearly.
        let checks_id =
            config.messages == Messages::Multiplayer || config.options.version() == Version::Godot3;
        if data < 2 && checks_id {
            self.down.peer_mut(client).disconnect(0);
            let link = self.shared.open(addr, Some(data));
            let detail = format!("connect data {data} is not a peer id Godot accepts");
            link.closed(End::BadPeerId, Some(&detail));
            return;
        }
        let link = self.shared.open(addr, Some(data));
        let opened = self.open(channels, data).await;
        let (host, socket, upstream) = match opened {
            Ok(opened) => opened,
            Err(e) => {
                self.down.peer_mut(client).disconnect(0);
                link.closed(End::Error, Some(&format!("cannot connect upstream: {e}")));
                return;
            }
        };
        let n = self.next;
        self.next = n.wrapping_add(1);
        let reader = read_into(Arc::clone(&socket), Side::Leg(n), self.inbox.clone());
        let leg = Leg {
            client: Some(client),
            id: data,
            host,
            socket,
            reader,
            upstream,
            state: Upstream::Connecting,
            pending: Vec::new(),
            last: Instant::now(),
            end: None,
            closing: None,
            link,
            tallies: [Tally::new(Direction::ToServer), Tally::new(Direction::ToClient)],
            offsets: [0, 0],
        };
        self.legs.insert(n, leg);
        self.by_client.insert(client, n);
    }

    /// An upstream host and its socket, connecting with `channels` channels and `data`.
    async fn open(
        &self,
        channels: usize,
        data: u32,
    ) -> io::Result<(EnetHost, Arc<UdpSocket>, PeerID)> {
        let socket = UdpSocket::bind(crate::relay::any_port(self.upstream)).await?;
        // Only the upstream server's datagrams reach this socket.
        socket.connect(self.upstream).await?;
        let mut host = new_host(&self.shared.config, 1, channels)?;
        let peer = host
            .connect(self.upstream, channels, data)
            .map_err(|e| io::Error::other(format!("{e:?}")))?
            .id();
        Ok((host, Arc::new(socket), peer))
    }

    /// Forgets leg `n` once both its peers are gone, and reports how it ended.
    fn forget(&mut self, n: u64) {
        let done =
            self.legs.get(&n).is_some_and(|l| l.client.is_none() && l.state == Upstream::Gone);
        if !done {
            return;
        }
        let Some(mut leg) = self.legs.remove(&n) else { return };
        leg.reader.abort();
        for tally in &mut leg.tallies {
            leg.link.merge(tally);
        }
        let (end, detail) = leg.end.take().unwrap_or((End::Closed, None));
        leg.link.closed(end, detail.as_deref());
    }

    /// At a stop: disconnects every peer at once, sends the disconnects, and reports each
    /// connection closed (its first cause if it was closing, else "the relay stopped").
    pub(super) async fn shutdown(&mut self) {
        for leg in self.legs.values_mut() {
            if leg.state == Upstream::Open {
                leg.host.peer_mut(leg.upstream).disconnect_now(leg.id);
            }
            leg.host.flush();
            while let Some((_, datagram)) = leg.host.socket_mut().read() {
                let _ = leg.socket.send(&datagram).await;
            }
            leg.reader.abort();
            for tally in &mut leg.tallies {
                leg.link.merge(tally);
            }
            let (end, detail) =
                leg.end.take().unwrap_or((End::Closed, Some(crate::link::STOPPED.to_string())));
            leg.link.closed(end, detail.as_deref());
        }
        for peer in self.down.peers_mut() {
            if peer.connected() {
                peer.disconnect_now(0);
            }
        }
        self.down.flush();
        while let Some((to, datagram)) = self.down.socket_mut().read() {
            let _ = self.socket.send_to(&datagram, to).await;
        }
    }
}
