//! The ENet proxy (`--enet`): Godot 3's `NetworkedMultiplayerENet` and Godot 4's ENet peers.
//!
//! ENet is terminated on both sides: the proxy is the ENet server of every client, and for each
//! client it opens its own ENet client connection (its own UDP socket) to the upstream server,
//! with the client's connect data (Godot's peer id, which the server adopts and checks every
//! packet's header against) and channel count. Each packet that passes is sent on the same
//! channel as the same ENet packet, so with the same reliable / unreliable / unsequenced flags;
//! order holds per channel and per leg, and each leg recovers its own losses, so dropping a
//! reliable packet is just not forwarding it. A disconnect on one leg is passed to the other.
//!
//! What a packet is: Godot 3 puts an 8-byte header (source id, target) before every packet on
//! channels 1 and up, and its server sends system messages (a peer joined or left) on channel 0
//! (`gdvariant_multiplayer::transport::enet3`); Godot 4 adds nothing. Without `--multiplayer` a
//! packet carries one value (`PacketPeer.put_var`), checked as the game's `get_var` reads it;
//! with `--multiplayer` it is a multiplayer packet, judged by [`Filter`] as over WebSocket.
//!
//! One task owns every ENet host, driven sans-IO (`rusty_enet::ReadWrite`): a reader task per
//! UDP socket hands datagrams over a bounded channel, the owner feeds them to their host,
//! services the hosts (a 5 ms tick drives ENet's timers), forwards the events, and sends what
//! the hosts wrote. Bounds: `--max-connections` peers (ENet ignores connection attempts over it),
//! packets up to `--max-frame` (+ 8 header bytes) whole, and per peer at most that much data
//! waiting in reassembly (ENet's `maximum_waiting_data`), so a fragment flood is bounded; at most
//! [`PENDING`] packets wait for an upstream connection.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use gdvariant::Version;
use gdvariant_multiplayer::capture::Transport;
use gdvariant_multiplayer::transport::enet3;
use rusty_enet::{EventNoRef, Host, HostSettings, MTU_MAX, Packet, PeerID, ReadWrite};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::multiplayer::{Channel, Filter, Verdict};
use super::report::{Report, Tally};
use super::rules::RateLimit;
use super::settings::Settings;
use super::udp::check;
use super::{Context, Direction, End, stop_signal};
use crate::failure::Failure;

/// An ENet host fed and drained by the owner task.
type EnetHost = Host<ReadWrite<SocketAddr, io::Error>>;

/// How often ENet's timers run (retransmissions, pings, timeouts).
const TICK: Duration = Duration::from_millis(5);
/// Datagrams on their way from the reader tasks to the owner (readers wait when it is full).
const INBOX: usize = 1024;
/// Datagrams the owner takes from the inbox before servicing the hosts.
const BATCH: usize = 64;
/// Packets a client may send before its upstream connection is made (more close it).
const PENDING: usize = 256;
/// How long a closing connection waits for its peers to acknowledge the disconnect.
const CLOSING: Duration = Duration::from_secs(3);
/// Channels a peer may ask for (ENet's maximum).
const MAX_CHANNELS: usize = 255;
/// Godot 3's ENet header: source id, target.
const HEADER: usize = 8;

/// Which socket a datagram came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// The listening socket (the clients).
    Down,
    /// The upstream socket of leg `n`.
    Leg(u64),
}

/// A datagram from a reader task.
type Datagram = (Side, SocketAddr, Vec<u8>);

/// The upstream leg's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Upstream {
    /// Connecting; packets wait.
    Connecting,
    /// Connected.
    Open,
    /// Disconnected (or given up).
    Gone,
}

/// One client: its downstream peer and its own upstream connection.
struct Leg {
    /// The client's peer on the listening host; `None` once it is gone.
    client: Option<PeerID>,
    /// The client's connect data (Godot's peer id).
    id: u32,
    host: EnetHost,
    socket: Arc<UdpSocket>,
    reader: JoinHandle<()>,
    upstream: PeerID,
    state: Upstream,
    pending: Vec<(u8, Packet)>,
    /// When a packet last passed, either way (the idle timeout).
    last: Instant,
    /// Why the connection ends, once it does: the first cause.
    end: Option<(End, Option<String>)>,
    /// When closing began.
    closing: Option<Instant>,
    context: Context,
    filter: Option<Filter>,
    rate: Option<RateLimit>,
    tallies: [Tally; 2],
    /// Bytes received per direction (the offsets of drop lines).
    offsets: [u64; 2],
}

/// The owner task's state.
struct Proxy {
    settings: Arc<Settings>,
    report: Arc<Report>,
    down: EnetHost,
    socket: Arc<UdpSocket>,
    upstream: SocketAddr,
    legs: HashMap<u64, Leg>,
    by_client: HashMap<PeerID, u64>,
    next: u64,
    inbox: mpsc::Sender<Datagram>,
}

/// A host's settings: `peers` peers of up to `channels` channels, packets up to the frame limit
/// plus the header, at most that much data per peer waiting in reassembly.
fn new_host(settings: &Settings, peers: usize, channels: usize) -> io::Result<EnetHost> {
    let host_settings = HostSettings {
        peer_limit: peers.max(1),
        channel_limit: channels.clamp(1, MAX_CHANNELS),
        ..HostSettings::default()
    };
    let mut host = Host::new(ReadWrite::new(), host_settings)
        .map_err(|e| io::Error::other(format!("cannot create an ENet host: {e:?}")))?;
    let packet = usize::try_from(settings.max_frame).unwrap_or(usize::MAX).saturating_add(HEADER);
    host.set_maximum_packet_size(packet).map_err(|e| io::Error::other(format!("{e:?}")))?;
    host.set_maximum_waiting_data(packet).map_err(|e| io::Error::other(format!("{e:?}")))?;
    Ok(host)
}

/// Reads `socket`'s datagrams into the inbox, marked `side`, until the owner is gone. A datagram
/// larger than any ENet datagram is skipped.
fn read_into(socket: Arc<UdpSocket>, side: Side, inbox: mpsc::Sender<Datagram>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut buffer = vec![0u8; MTU_MAX.saturating_add(1)];
        loop {
            let (len, from) = match socket.recv_from(&mut buffer).await {
                Ok(received) => received,
                // An ICMP error from an earlier send, say: go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    continue;
                }
            };
            if len > MTU_MAX {
                continue;
            }
            let datagram = buffer.get(..len).unwrap_or(&[]).to_vec();
            if inbox.send((side, from, datagram)).await.is_err() {
                return;
            }
        }
    })
}

/// Serves ENet clients until a stop signal.
pub async fn serve(settings: Arc<Settings>, report: Arc<Report>) -> Result<(), Failure> {
    let socket = UdpSocket::bind(settings.listen)
        .await
        .map_err(|e| Failure::Input(format!("cannot listen on {}: {e}", settings.listen)))?;
    let upstream = tokio::net::lookup_host(settings.upstream.as_str())
        .await
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| Failure::Input(format!("cannot resolve {}", settings.upstream)))?;
    let socket = Arc::new(socket);
    let addr = socket.local_addr().map_err(|e| Failure::Input(e.to_string()))?;
    let down = new_host(&settings, settings.max_connections, MAX_CHANNELS)
        .map_err(|e| Failure::Input(e.to_string()))?;
    let (inbox, mut datagrams) = mpsc::channel(INBOX);
    let reader = read_into(Arc::clone(&socket), Side::Down, inbox.clone());
    // Listen for a stop before saying where the proxy listens.
    let stop = stop_signal();
    report.listening(addr, "enet");
    let mut proxy = Proxy {
        settings,
        report,
        down,
        socket,
        upstream,
        legs: HashMap::new(),
        by_client: HashMap::new(),
        next: 0,
        inbox,
    };
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            Some(datagram) = datagrams.recv() => {
                proxy.feed(datagram);
                for _ in 1..BATCH {
                    let Ok(datagram) = datagrams.try_recv() else { break };
                    proxy.feed(datagram);
                }
            }
            _ = tick.tick() => proxy.check_times(),
        }
        proxy.service().await;
    }
    proxy.shutdown().await;
    reader.abort();
    Ok(())
}

/// ENet's packet flags (reliable 1, unsequenced 2, unreliable fragment 8). rusty_enet 0.4.1's
/// `Packet::kind` ORs where it should mask, and so always says reliable; the flags themselves
/// are right, and are shown by its `Debug`. Only the capture needs them (forwarding sends the
/// packet itself, flags and all).
fn flags(packet: &Packet) -> u32 {
    let shown = format!("{packet:?}");
    shown
        .split_once("flags: ")
        .and_then(|(_, rest)| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(1)
}

/// The channel and Godot transfer mode of a packet on ENet channel `channel`: reliable 0,
/// unsequenced 1 (Godot's `TRANSFER_MODE_UNRELIABLE`), plain unreliable 2 (`UNRELIABLE_ORDERED`).
fn channel_of(channel: u8, packet: &Packet) -> Channel {
    let flags = flags(packet);
    let mode = if flags & 1 != 0 {
        0
    } else if flags & 2 != 0 {
        1
    } else {
        2
    };
    Channel { number: channel, mode }
}

/// Why Godot 3 refuses a packet before reading what it carries: a client's packet on the
/// system channel (only the server sends those), one shorter than the header, or one whose
/// source is not the sending client's id (Godot's server checks it).
fn enet3_refusal(direction: Direction, channel: u8, data: &[u8], id: u32) -> Option<String> {
    if direction == Direction::ToUpstream && channel == enet3::SYSTEM_CHANNEL {
        return Some("a client's packet on channel 0, which only the server sends on".into());
    }
    match enet3::decode(data, channel) {
        Err(_) => Some(format!("{} bytes, shorter than the 8-byte header", data.len())),
        Ok(enet3::EnetPacket::Data { source, .. })
            if direction == Direction::ToUpstream && source != id =>
        {
            Some(format!("header source {source} is not the client's peer id {id}"))
        }
        Ok(_) => None,
    }
}

impl Leg {
    /// Ends the connection for `end` (the first cause is kept) and disconnects both peers, with
    /// `data`, once what they were sent is delivered.
    fn close(&mut self, down: &mut EnetHost, end: End, detail: Option<String>, data: u32) {
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
    fn judge(
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

impl Proxy {
    /// Hands a datagram to the host of its socket.
    fn feed(&mut self, (side, from, datagram): Datagram) {
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
    fn check_times(&mut self) {
        let idle = self.settings.idle;
        let now = Instant::now();
        let mut expired = Vec::new();
        for (&n, leg) in &mut self.legs {
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
    async fn service(&mut self) {
        while let Ok(Some(event)) = self.down.service() {
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
                        || !leg.judge(&mut self.down, Direction::ToUpstream, channel_id, &packet)
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
            while let Ok(Some(event)) = leg.host.service() {
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
                leg.context.report.merge(tally);
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
        self.report.connection();
        // Godot refuses the ids 0 and 1 (1 is the server) without a word: refuse them clearly.
        if data < 2
            && (self.settings.multiplayer || self.settings.options.version() == Version::Godot3)
        {
            self.down.peer_mut(client).disconnect(0);
            let detail = format!("connect data {data} is not a peer id Godot accepts");
            self.report.closed(addr, End::BadPeerId, Some(detail));
            return;
        }
        let opened = self.open(channels, data).await;
        let (host, socket, upstream) = match opened {
            Ok(opened) => opened,
            Err(e) => {
                self.down.peer_mut(client).disconnect(0);
                let detail = format!("cannot connect upstream: {e}");
                self.report.closed(addr, End::Error, Some(detail));
                return;
            }
        };
        let n = self.next;
        self.next = n.wrapping_add(1);
        let reader = read_into(Arc::clone(&socket), Side::Leg(n), self.inbox.clone());
        let context = Context {
            settings: Arc::clone(&self.settings),
            report: Arc::clone(&self.report),
            peer: addr,
        };
        let filter = self.settings.multiplayer.then(|| {
            let transport = match self.settings.options.version() {
                Version::Godot3 => Transport::Enet3,
                Version::Godot4 => Transport::Packets,
            };
            Filter::over(&context, transport, i32::try_from(data).ok())
        });
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
            rate: context.rate_limit(),
            context,
            filter,
            tallies: [Tally::new(Direction::ToUpstream), Tally::new(Direction::ToClient)],
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
        let local: SocketAddr = if self.upstream.is_ipv4() {
            SocketAddr::from(([0, 0, 0, 0], 0))
        } else {
            SocketAddr::from(([0u16; 8], 0))
        };
        let socket = UdpSocket::bind(local).await?;
        // Only the upstream server's datagrams reach this socket.
        socket.connect(self.upstream).await?;
        let mut host = new_host(&self.settings, 1, channels)?;
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
            self.report.merge(tally);
        }
        let (end, detail) = leg.end.take().unwrap_or((End::Closed, None));
        self.report.closed(leg.context.peer, end, detail);
    }

    /// At a stop: disconnects every peer at once and sends the disconnects.
    async fn shutdown(&mut self) {
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
                self.report.merge(tally);
            }
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use rusty_enet::PacketKind;

    #[test]
    fn flags_and_modes_of_every_kind() {
        let cases = [
            (PacketKind::Reliable, 1, 0),
            (PacketKind::Unreliable { sequenced: false }, 2, 1),
            (PacketKind::Unreliable { sequenced: true }, 0, 2),
            (PacketKind::AlwaysUnreliable { sequenced: true }, 8, 2),
            (PacketKind::AlwaysUnreliable { sequenced: false }, 10, 1),
        ];
        for (kind, expected_flags, mode) in cases {
            let packet = Packet::new(vec![1u8, 2, 3], kind);
            // Packets made here also carry NO_ALLOCATE (4); received ones do not.
            assert_eq!(flags(&packet) & !4, expected_flags, "{kind:?}");
            assert_eq!(channel_of(4, &packet), Channel { number: 4, mode }, "{kind:?}");
        }
    }

    #[test]
    fn godot3_transport_checks() {
        let mut packet = 77u32.to_le_bytes().to_vec();
        packet.extend(1i32.to_le_bytes());
        packet.push(0);
        let up = Direction::ToUpstream;
        assert_eq!(enet3_refusal(up, 1, &packet, 77), None);
        assert!(enet3_refusal(up, 1, &packet, 78).unwrap().contains("source 77"));
        assert!(enet3_refusal(up, 0, &packet, 77).unwrap().contains("channel 0"));
        assert!(enet3_refusal(up, 1, &packet[..7], 77).unwrap().contains("8-byte"));
        assert_eq!(enet3_refusal(Direction::ToClient, 0, &packet[..8], 77), None);
        assert_eq!(enet3_refusal(Direction::ToClient, 1, &packet, 5), None);
    }
}
