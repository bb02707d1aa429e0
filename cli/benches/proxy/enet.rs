//! The ENet half of the proxy benchmark: `gdvariant proxy --enet --godot 3` against a plain ENet
//! forwarder, both on `rusty_enet` (the proxy's ENet library), both separate processes.
//!
//! The plain forwarder (this binary run with `--plain-enet-forwarder`) has the proxy's shape
//! without its judging: it is the ENet server of every client, opens one ENet client connection
//! (its own UDP socket) upstream per client with the client's connect data and channel count,
//! and sends each packet it receives on the same channel as the same ENet packet (so with the
//! same flags), both ways. Like the proxy, one tokio task owns every host, driven sans-IO
//! (`rusty_enet::ReadWrite`), fed by one reader task per UDP socket, with a 5 ms tick for ENet's
//! timers. `gdvariant proxy --enet --godot 3` also checks each packet's 8-byte header (source =
//! the client's id) and validates the value after it as Godot's `get_var` does.
//!
//! The client (the sender, speaking as Godot 3's `NetworkedMultiplayerENet`: header, then one
//! `put_var` value) and the server (a sink counting packets) run on threads of this process,
//! each an ENet host on a blocking UDP socket.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader};
use std::net::{SocketAddr, UdpSocket};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use gdvariant::EncodeOptions;
use rusty_enet::{EventNoRef, Host, HostSettings, MTU_MAX, Packet, PeerID, ReadWrite};

/// A sans-IO ENet host.
type EnetHost = Host<ReadWrite<SocketAddr, io::Error>>;

/// The largest packet either relay accepts: a value of up to 1,000,000 bytes and the header.
const MAX_PACKET: usize = 1_000_008;
/// The channel the values go on (channel 0 is Godot 3's system channel).
const CHANNEL: u8 = 1;
/// Channels the client asks for.
const CHANNELS: usize = 3;
/// How long the sink waits for every packet (the quick run's packets take milliseconds).
const PATIENCE: Duration = Duration::from_secs(60);
/// The client's connect data: its Godot peer id, which the proxy checks each header against.
const CLIENT_ID: u32 = 4242;

/// An ENet host with `peers` peers of up to `channels` channels, packets up to [`MAX_PACKET`].
fn new_host(peers: usize, channels: usize) -> EnetHost {
    let settings =
        HostSettings { peer_limit: peers, channel_limit: channels, ..HostSettings::default() };
    let mut host = Host::new(ReadWrite::new(), settings).unwrap();
    host.set_maximum_packet_size(MAX_PACKET).unwrap();
    host.set_maximum_waiting_data(MAX_PACKET).unwrap();
    host
}

/// Godot 3 ENet packets, header (source [`CLIENT_ID`], target 1) and one value each, and their
/// total size.
pub struct Workload {
    pub packets: Vec<Vec<u8>>,
    pub bytes: usize,
}

fn header() -> Vec<u8> {
    let mut out = CLIENT_ID.to_le_bytes().to_vec();
    out.extend(1i32.to_le_bytes());
    out
}

fn workload(packets: Vec<Vec<u8>>) -> Workload {
    let bytes = packets.iter().map(Vec::len).sum();
    Workload { packets, bytes }
}

/// `count` packets of 64 to 256 bytes: dictionaries as a game sends them.
pub fn small_packets(count: usize) -> Workload {
    let packets = (0..count)
        .map(|i| {
            let mut out = header();
            let pad = "x".repeat(i % 170);
            let mut w = gdvariant::Writer::new(&mut out, EncodeOptions::godot3());
            w.begin_dictionary(4).unwrap();
            w.string("cmd").unwrap();
            w.string("move").unwrap();
            w.string("seq").unwrap();
            w.int(i as i64).unwrap();
            w.string("pos").unwrap();
            w.vector2(gdvariant::math::Vector2 { x: i as f32, y: 2.5 }).unwrap();
            w.string("note").unwrap();
            w.string(&pad).unwrap();
            w.finish().unwrap();
            out
        })
        .collect();
    workload(packets)
}

/// `count` packets of about 16 to 60 KB (several ENet fragments each): arrays of 2,000 to 7,500
/// ints (each element is walked).
pub fn large_packets(count: usize) -> Workload {
    let packets = (0..count)
        .map(|i| {
            let mut out = header();
            let n = 2_000 + (i * 1_237) % 5_500;
            let mut w = gdvariant::Writer::new(&mut out, EncodeOptions::godot3());
            w.begin_array(n).unwrap();
            for j in 0..n {
                w.int((i + j) as i64).unwrap();
            }
            w.finish().unwrap();
            out
        })
        .collect();
    workload(packets)
}

/// Which relay carries the packets.
#[derive(Clone, Copy, Debug)]
pub enum Relay {
    Plain,
    Proxy,
}

/// A relay process in front of `upstream`, and its address.
fn start(relay: Relay, upstream: SocketAddr) -> (Child, SocketAddr) {
    let mut command = match relay {
        Relay::Plain => {
            let mut c = Command::new(std::env::current_exe().unwrap());
            c.args(["--plain-enet-forwarder", &upstream.to_string()]);
            c
        }
        Relay::Proxy => {
            let mut c = Command::new(env!("CARGO_BIN_EXE_gdvariant"));
            c.args(["proxy", "--enet", "--godot", "3", "--listen", "127.0.0.1:0"]);
            c.args(["--upstream", &upstream.to_string(), "--max-frame", "1000000"]);
            c
        }
    };
    let mut child =
        command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    stderr.read_line(&mut line).unwrap();
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    // Keep reading what the relay writes (its summary, any log line), so that a full pipe never
    // stops it.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, value["addr"].as_str().unwrap().parse().unwrap())
}

/// An ENet host on a blocking loopback UDP socket, for the client and the server.
struct Endpoint {
    host: EnetHost,
    socket: UdpSocket,
    buffer: Vec<u8>,
}

impl Endpoint {
    fn new(peers: usize) -> Self {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
        Endpoint { host: new_host(peers, 8), socket, buffer: vec![0; MTU_MAX + 1] }
    }

    /// Waits up to 1 ms for datagrams, feeds every waiting one, services the host and sends what
    /// it wrote; returns its events.
    fn pump(&mut self) -> Vec<EventNoRef> {
        if let Ok((n, from)) = self.socket.recv_from(&mut self.buffer) {
            self.host.socket_mut().write(from, self.buffer[..n].to_vec());
            self.socket.set_nonblocking(true).unwrap();
            while let Ok((n, from)) = self.socket.recv_from(&mut self.buffer) {
                self.host.socket_mut().write(from, self.buffer[..n].to_vec());
            }
            self.socket.set_nonblocking(false).unwrap();
        }
        let mut events = Vec::new();
        while let Ok(Some(event)) = self.host.service() {
            events.push(event.no_ref());
        }
        self.send();
        events
    }

    /// Sends what the host wrote.
    fn send(&mut self) {
        self.host.flush();
        while let Some((to, datagram)) = self.host.socket_mut().read() {
            let _ = self.socket.send_to(&datagram, to);
        }
    }
}

/// Seconds to push `workload` through `relay` (reliable, on [`CHANNEL`]) into a sink, from the
/// first send until the sink has every packet.
pub fn throughput(relay: Relay, workload: &Workload) -> f64 {
    let mut sink = Endpoint::new(4);
    let sink_addr = sink.socket.local_addr().unwrap();
    let expected = workload.packets.len();
    let expected_bytes = workload.bytes;
    let connected = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let (sink_connected, sink_done) = (Arc::clone(&connected), Arc::clone(&done));
    let counting = std::thread::spawn(move || {
        let (mut count, mut bytes) = (0, 0);
        let limit = Instant::now() + PATIENCE;
        while count < expected {
            assert!(
                Instant::now() < limit,
                "the sink waited too long through the {relay:?} relay: {count} of {expected}"
            );
            for event in sink.pump() {
                match event {
                    EventNoRef::Connect { .. } => sink_connected.store(true, Ordering::SeqCst),
                    EventNoRef::Receive { packet, .. } => {
                        count += 1;
                        bytes += packet.data().len();
                    }
                    EventNoRef::Disconnect { .. } => {}
                }
            }
        }
        let ended = Instant::now();
        sink_done.store(true, Ordering::SeqCst);
        // Keep acknowledging until the client has seen every acknowledgement it waits for.
        let linger = Instant::now() + Duration::from_millis(50);
        while Instant::now() < linger {
            sink.pump();
        }
        (ended, count, bytes)
    });
    let (child, addr) = start(relay, sink_addr);
    let mut client = Endpoint::new(1);
    let peer = client.host.connect(addr, CHANNELS, CLIENT_ID).unwrap().id();
    // Start once the relay's upstream connection is made too (the proxy closes a client that
    // sends more than 256 packets before it is), as a game starts once its peer is connected.
    let limit = Instant::now() + Duration::from_secs(10);
    let mut open = false;
    while !open || !connected.load(Ordering::SeqCst) {
        assert!(Instant::now() < limit, "the client did not connect through the relay");
        open |= client.pump().iter().any(|e| matches!(e, EventNoRef::Connect { .. }));
    }
    let started = Instant::now();
    for data in &workload.packets {
        client.host.peer_mut(peer).send(CHANNEL, &Packet::reliable(data.as_slice())).unwrap();
    }
    client.send();
    while !done.load(Ordering::SeqCst) && !counting.is_finished() {
        client.pump();
    }
    let (ended, count, bytes) = counting.join().unwrap();
    assert_eq!((count, bytes), (expected, expected_bytes), "every packet arrived whole");
    client.host.peer_mut(peer).disconnect_now(0);
    client.send();
    super::stop(child);
    ended.duration_since(started).as_secs_f64()
}

/// One client's connection through the plain forwarder.
struct Leg {
    client: PeerID,
    host: EnetHost,
    socket: Arc<tokio::net::UdpSocket>,
    upstream: PeerID,
    open: bool,
    pending: Vec<(u8, Packet)>,
    reader: tokio::task::JoinHandle<()>,
}

/// Which socket a datagram came in on: the listening one (`None`) or leg `n`'s.
type Datagram = (Option<u64>, SocketAddr, Vec<u8>);

/// Reads `socket`'s datagrams into `inbox`, marked `side`.
fn read_into(
    socket: Arc<tokio::net::UdpSocket>,
    side: Option<u64>,
    inbox: tokio::sync::mpsc::Sender<Datagram>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut buffer = vec![0u8; MTU_MAX + 1];
        loop {
            let Ok((len, from)) = socket.recv_from(&mut buffer).await else {
                tokio::time::sleep(Duration::from_millis(1)).await;
                continue;
            };
            if inbox.send((side, from, buffer[..len].to_vec())).await.is_err() {
                return;
            }
        }
    })
}

/// The plain ENet forwarder: listens on 127.0.0.1:0, prints the same `listening` line as the
/// proxy, and forwards every packet both ways, unread, until Ctrl-C.
pub fn plain_forwarder(upstream: &str) {
    let upstream: SocketAddr = upstream.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        let socket = Arc::new(tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap());
        let mut down = new_host(64, 255);
        let (inbox, mut datagrams) = tokio::sync::mpsc::channel::<Datagram>(1024);
        let reader = read_into(Arc::clone(&socket), None, inbox.clone());
        let stop = tokio::signal::ctrl_c();
        tokio::pin!(stop);
        eprintln!(r#"{{"event":"listening","addr":"{}"}}"#, socket.local_addr().unwrap());
        let mut legs: HashMap<u64, Leg> = HashMap::new();
        let mut by_client: HashMap<PeerID, u64> = HashMap::new();
        let mut next = 0u64;
        let mut tick = tokio::time::interval(Duration::from_millis(5));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let feed =
            |legs: &mut HashMap<u64, Leg>, down: &mut EnetHost, (side, from, data)| match side {
                None => down.socket_mut().write(from, data),
                Some(n) => {
                    if let Some(leg) = legs.get_mut(&n) {
                        leg.host.socket_mut().write(from, data);
                    }
                }
            };
        loop {
            tokio::select! {
                _ = &mut stop => break,
                Some(datagram) = datagrams.recv() => {
                    feed(&mut legs, &mut down, datagram);
                    for _ in 1..64 {
                        let Ok(datagram) = datagrams.try_recv() else { break };
                        feed(&mut legs, &mut down, datagram);
                    }
                }
                _ = tick.tick() => {}
            }
            while let Ok(Some(event)) = down.service() {
                match event.no_ref() {
                    EventNoRef::Connect { peer, data } => {
                        let channels = down.peer(peer).channel_count();
                        let leg_socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
                        leg_socket.connect(upstream).await.unwrap();
                        let leg_socket = Arc::new(leg_socket);
                        let mut host = new_host(1, channels);
                        let up = host.connect(upstream, channels, data).unwrap().id();
                        let reader = read_into(Arc::clone(&leg_socket), Some(next), inbox.clone());
                        let leg = Leg {
                            client: peer,
                            host,
                            socket: leg_socket,
                            upstream: up,
                            open: false,
                            pending: Vec::new(),
                            reader,
                        };
                        legs.insert(next, leg);
                        by_client.insert(peer, next);
                        next += 1;
                    }
                    EventNoRef::Disconnect { peer, data } => {
                        if let Some(leg) = by_client.remove(&peer).and_then(|n| legs.get_mut(&n)) {
                            leg.host.peer_mut(leg.upstream).disconnect(data);
                        }
                    }
                    EventNoRef::Receive { peer, channel_id, packet } => {
                        let Some(leg) = by_client.get(&peer).and_then(|n| legs.get_mut(n)) else {
                            continue;
                        };
                        if leg.open {
                            let _ = leg.host.peer_mut(leg.upstream).send(channel_id, &packet);
                        } else {
                            leg.pending.push((channel_id, packet));
                        }
                    }
                }
            }
            let mut gone = Vec::new();
            for (&n, leg) in &mut legs {
                while let Ok(Some(event)) = leg.host.service() {
                    match event.no_ref() {
                        EventNoRef::Connect { .. } => {
                            leg.open = true;
                            for (channel, packet) in std::mem::take(&mut leg.pending) {
                                let _ = leg.host.peer_mut(leg.upstream).send(channel, &packet);
                            }
                        }
                        EventNoRef::Disconnect { data, .. } => {
                            if let Some(peer) = down.get_peer_mut(leg.client) {
                                peer.disconnect(data);
                            }
                            gone.push(n);
                        }
                        EventNoRef::Receive { channel_id, packet, .. } => {
                            if let Some(peer) = down.get_peer_mut(leg.client) {
                                let _ = peer.send(channel_id, &packet);
                            }
                        }
                    }
                }
                leg.host.flush();
                while let Some((_, datagram)) = leg.host.socket_mut().read() {
                    let _ = leg.socket.send(&datagram).await;
                }
            }
            for n in gone {
                if let Some(leg) = legs.remove(&n) {
                    by_client.remove(&leg.client);
                    leg.reader.abort();
                }
            }
            down.flush();
            while let Some((to, datagram)) = down.socket_mut().read() {
                let _ = socket.send_to(&datagram, to).await;
            }
        }
        reader.abort();
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
}
