//! What the load and fault tests share: an observer that counts, the process's RSS and open
//! descriptors, messages that say who sent them and in which order, echo servers on loopback
//! (TCP, UDP, ENet) and a relay running on the current runtime until told to stop. Every wait
//! is bounded and panics with what it waited for.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gdvariant_relay::{Config, Connection, Dropped, End, Filter, Observer, Relay};
use rusty_enet::{Event, Host, HostSettings, Packet};
use tokio::net::{TcpListener, UdpSocket};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Counts what a relay reports: connections accepted, refused and closed (with how each
/// ended), messages dropped (with their reason).
#[derive(Clone, Default)]
pub struct Counts(Arc<Inner>);

#[derive(Default)]
pub struct Inner {
    accepted: AtomicU64,
    refused: AtomicU64,
    closed: AtomicU64,
    forwarded: AtomicU64,
    ends: Mutex<Vec<(u64, End, Option<String>)>>,
    drops: Mutex<Vec<String>>,
}

impl Counts {
    pub fn accepted(&self) -> u64 {
        self.0.accepted.load(Ordering::SeqCst)
    }

    pub fn refused(&self) -> u64 {
        self.0.refused.load(Ordering::SeqCst)
    }

    pub fn closed(&self) -> u64 {
        self.0.closed.load(Ordering::SeqCst)
    }

    /// Connections accepted and not reported closed yet.
    pub fn open(&self) -> u64 {
        self.accepted().saturating_sub(self.closed())
    }

    /// Messages forwarded, either way.
    pub fn forwarded(&self) -> u64 {
        self.0.forwarded.load(Ordering::SeqCst)
    }

    /// How each closed connection ended: its number, the end, the detail.
    pub fn ends(&self) -> Vec<(u64, End, Option<String>)> {
        self.0.ends.lock().unwrap().clone()
    }

    /// The reasons of the messages dropped.
    pub fn drops(&self) -> Vec<String> {
        self.0.drops.lock().unwrap().clone()
    }
}

impl Observer for Counts {
    fn accepted(&self, _: &Connection) {
        self.0.accepted.fetch_add(1, Ordering::SeqCst);
    }

    fn refused(&self, _: SocketAddr) {
        self.0.refused.fetch_add(1, Ordering::SeqCst);
    }

    fn dropped(&self, dropped: &Dropped<'_>) {
        self.0.drops.lock().unwrap().push(dropped.reason.to_string());
    }

    fn forwarded(&self, _: &Connection, tally: &gdvariant_relay::Tally) {
        self.0.forwarded.fetch_add(tally.total().messages, Ordering::SeqCst);
    }

    fn closed(&self, connection: &Connection, end: End, detail: Option<&str>) {
        let detail = detail.map(str::to_string);
        self.0.ends.lock().unwrap().push((connection.number, end, detail));
        self.0.closed.fetch_add(1, Ordering::SeqCst);
    }
}

/// The process's resident set (`VmRSS`), in bytes.
pub fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// The process's open descriptors.
pub fn fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Waits (polling every 10 ms) until `done` holds, at most `limit`; panics naming `what`.
pub async fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A Godot 4 `PackedByteArray` of `size` bytes (at least 8): the client's number and the
/// message's, then bytes made of both, so any mix-up shows.
pub fn message(client: u32, seq: u32, size: usize) -> Vec<u8> {
    let size = size.max(8);
    let mut out = Vec::with_capacity(size + 8);
    out.extend(29u32.to_le_bytes());
    out.extend((size as u32).to_le_bytes());
    out.extend(client.to_le_bytes());
    out.extend(seq.to_le_bytes());
    for i in 8..size {
        out.push(
            (client as usize).wrapping_mul(31).wrapping_add(seq as usize).wrapping_add(i) as u8
        );
    }
    out.resize(out.len().next_multiple_of(4), 0);
    out
}

/// The client and message numbers of a [`message`].
pub fn numbers(message: &[u8]) -> (u32, u32) {
    let word = |at: usize| u32::from_le_bytes(message[at..at + 4].try_into().unwrap());
    (word(8), word(12))
}

/// `payload` under the stream peer's prefix.
pub fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

/// A relay serving on the current runtime until [`Running::stop`].
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Binds `config` and runs it with `filter` and `observer`.
    pub async fn start<F: Filter, O: Observer>(config: Config, filter: F, observer: O) -> Running {
        let relay = Relay::bind(config).await.unwrap();
        let addr = relay.local_addr();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(relay.run(filter, observer, stopped));
        Running { addr, stop: Some(stop), task }
    }

    /// Resolves the stop future and waits (at most `limit`) for `run` to return.
    pub async fn stop(mut self, limit: Duration) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(limit, &mut self.task)
            .await
            .expect("the relay returns after its stop")
            .unwrap()
            .unwrap();
    }
}

/// A TCP server on loopback that echoes every byte of each connection.
pub async fn tcp_echo() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let (mut read, mut write) = stream.split();
                let _ = tokio::io::copy(&mut read, &mut write).await;
            });
        }
    });
    addr
}

/// A UDP server on loopback that sends every datagram back where it came from.
pub async fn udp_echo() -> SocketAddr {
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = socket.local_addr().unwrap();
    tokio::spawn(async move {
        let mut buffer = vec![0u8; 65536];
        loop {
            let Ok((len, from)) = socket.recv_from(&mut buffer).await else { continue };
            let _ = socket.send_to(&buffer[..len], from).await;
        }
    });
    addr
}

/// An ENet host on a loopback port, for `peers` peers of up to 2 channels.
pub fn enet_host(peers: usize) -> Host<std::net::UdpSocket> {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let settings = HostSettings { peer_limit: peers, channel_limit: 2, ..Default::default() };
    Host::new(socket, settings).unwrap()
}

/// An ENet server on loopback for `peers` peers that sends every packet back on its channel,
/// reliably, on its own thread until `stop` is set (or `limit` passes).
pub fn enet_echo(
    peers: usize,
    stop: Arc<AtomicBool>,
    limit: Duration,
) -> (SocketAddr, std::thread::JoinHandle<()>) {
    let mut host = enet_host(peers);
    let addr = host.socket().local_addr().unwrap();
    let thread = std::thread::spawn(move || {
        let start = Instant::now();
        while !stop.load(Ordering::SeqCst) && start.elapsed() < limit {
            let mut busy = false;
            while let Ok(Some(event)) = host.service() {
                busy = true;
                if let Event::Receive { peer, channel_id, packet } = event {
                    let _ = peer.send(channel_id, &Packet::reliable(packet.data()));
                }
            }
            if !busy {
                std::thread::sleep(Duration::from_micros(500));
            }
        }
    });
    (addr, thread)
}

/// A filter that forwards everything Godot accepts.
pub fn forward(_: &gdvariant_relay::Frame<'_>) -> gdvariant_relay::Verdict {
    gdvariant_relay::Verdict::Forward
}
