//! Load through the relay on loopback: many TCP clients, UDP clients and ENet peers at once, each
//! exchanging its own numbered messages with an echo server through a relay; every echo must
//! come back byte for byte and in order, per client. Measured and printed: the process's RSS per
//! connected, idle connection (the slope between two client counts, and the same clients
//! connected straight to the echo server, without the relay, for comparison) and the time; after
//! the clients leave, the relay must report every connection closed and the process's open
//! descriptors must return to where they were.
//!
//! Sizes come from the environment, small by default (a plain `cargo test` runs it in seconds):
//! `GDVARIANT_LOAD_CLIENTS` (TCP clients, and as many UDP clients; 50), `GDVARIANT_LOAD_ENET`
//! (ENet peers; 20), `GDVARIANT_LOAD_MESSAGES` (messages each; 200), `GDVARIANT_LOAD_SIZE`
//! (bytes of each value; 64). The full run is
//!
//! ```sh
//! GDVARIANT_LOAD_CLIENTS=1000 GDVARIANT_LOAD_ENET=200 GDVARIANT_LOAD_MESSAGES=2000 \
//!     cargo test --release -p gdvariant-relay --test load -- --nocapture
//! ```
//!
//! Everything runs in this process (relay, echo servers, clients), so the RSS per connection
//! counts both ends of every socket; the direct run shows what the clients and the echo server
//! take alone. One test, so that nothing else runs in the process while it measures.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects, missing_docs)]

mod support;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gdvariant::Version;
use gdvariant::framing::LengthPrefix;
use gdvariant_relay::{Config, Transport};
use rusty_enet::{Event, Packet, PeerID};
use support::{Counts, Running, fds, message, numbers, rss, wait_until};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpStream, UdpSocket};
use tokio::sync::watch;

/// Descriptors the process may hold above its baseline once everyone left (the runtime's own
/// come and go).
const FD_TOLERANCE: usize = 8;
/// Patience for a UDP echo before the message is sent again.
const UDP_RESEND: Duration = Duration::from_millis(300);
/// Times a UDP message is sent before the client gives up.
const UDP_TRIES: u32 = 30;
/// Messages an ENet peer has on the way at once.
const ENET_WINDOW: u32 = 16;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The sizes of a run.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    clients: usize,
    enet: usize,
    messages: u32,
    size: usize,
}

impl Sizes {
    fn from_env() -> Sizes {
        Sizes {
            clients: env("GDVARIANT_LOAD_CLIENTS", 50).max(2),
            enet: env("GDVARIANT_LOAD_ENET", 20).max(2),
            messages: env("GDVARIANT_LOAD_MESSAGES", 200) as u32,
            size: env("GDVARIANT_LOAD_SIZE", 64),
        }
    }

    /// How long a phase of `clients` clients may take: generous, but bounded.
    fn patience(&self, clients: usize) -> Duration {
        let exchanges = clients as u64 * u64::from(self.messages.max(1));
        Duration::from_secs(60 + exchanges / 2_000)
    }
}

/// What one run measured (one transport, through the relay or straight to the echo server).
#[derive(Debug, Default)]
struct Measured {
    /// RSS per connected, idle client: the slope between half the clients and all of them.
    per_client: f64,
    /// RSS per client after every client's messages, over the RSS before the first client.
    after_traffic: f64,
    /// The time of every client's messages.
    exchange: Duration,
    /// UDP messages sent again (an echo not back in time).
    resent: u64,
}

impl Measured {
    /// The line a child process prints for its parent.
    fn line(&self, run: &str) -> String {
        format!(
            "LOAD-RESULT {run} {} {} {} {}",
            self.per_client,
            self.after_traffic,
            self.exchange.as_secs_f64(),
            self.resent
        )
    }

    /// A child's line, read back.
    fn parse(line: &str) -> Option<(String, Measured)> {
        // The test harness may have written on the line before.
        let at = line.find("LOAD-RESULT ")?;
        let mut words = line[at..].strip_prefix("LOAD-RESULT ")?.split(' ');
        let run = words.next()?.to_string();
        let mut number = || words.next().and_then(|w| w.parse::<f64>().ok());
        let measured = Measured {
            per_client: number()?,
            after_traffic: number()?,
            exchange: Duration::from_secs_f64(number()?),
            resent: number()? as u64,
        };
        Some((run, measured))
    }
}

/// Failures of client tasks, reported by the waits.
#[derive(Clone, Default)]
struct Failures(Arc<Mutex<Vec<String>>>);

impl Failures {
    fn check(&self) {
        if let Some(first) = self.0.lock().unwrap().first() {
            panic!("a client failed: {first}");
        }
    }

    fn push(&self, failure: String) {
        self.0.lock().unwrap().push(failure);
    }
}

/// Where the clients of a run stand: how many are connected (a first message echoed), done
/// with their messages, and gone; the signals that move them on.
#[derive(Clone)]
struct Phases {
    ready: Arc<AtomicU64>,
    done: Arc<AtomicU64>,
    left: Arc<AtomicU64>,
    resent: Arc<AtomicU64>,
    go: watch::Receiver<bool>,
    leave: watch::Receiver<bool>,
    failures: Failures,
}

/// The orchestrator's side of [`Phases`].
struct Conductor {
    phases: Phases,
    go: watch::Sender<bool>,
    leave: watch::Sender<bool>,
}

impl Conductor {
    fn new() -> Conductor {
        let (go, go_rx) = watch::channel(false);
        let (leave, leave_rx) = watch::channel(false);
        let phases = Phases {
            ready: Arc::default(),
            done: Arc::default(),
            left: Arc::default(),
            resent: Arc::default(),
            go: go_rx,
            leave: leave_rx,
            failures: Failures::default(),
        };
        Conductor { phases, go, leave }
    }

    async fn wait(&self, what: &str, counter: &AtomicU64, target: usize, limit: Duration) {
        let failures = self.phases.failures.clone();
        wait_until(what, limit, || {
            failures.check();
            counter.load(Ordering::SeqCst) >= target as u64
        })
        .await;
    }
}

/// Waits for a watch signal.
async fn signalled(mut signal: watch::Receiver<bool>) {
    let _ = signal.wait_for(|&on| on).await;
}

/// RSS after the allocator and the kernel settle.
async fn settled_rss() -> u64 {
    tokio::time::sleep(Duration::from_millis(300)).await;
    rss()
}

/// A TCP client: connects, has message 0 echoed, waits for the go, sends its messages while
/// reading their echoes (each must be the next one, byte for byte), waits to leave, closes its
/// side and reads to the end.
async fn tcp_client(addr: SocketAddr, id: u32, sizes: Sizes, phases: Phases) -> Result<(), String> {
    let stream = TcpStream::connect(addr).await.map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).unwrap();
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let mut frame = Vec::new();
    async fn next(
        read: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
        frame: &mut Vec<u8>,
        id: u32,
        seq: u32,
        size: usize,
    ) -> Result<(), String> {
        let wanted = support::framed(&message(id, seq, size));
        frame.resize(wanted.len(), 0);
        read.read_exact(frame).await.map_err(|e| format!("client {id}, echo {seq}: {e}"))?;
        if *frame != wanted {
            return Err(format!("client {id}: echo {seq} is not message {seq}: {frame:?}"));
        }
        Ok(())
    }
    write.write_all(&support::framed(&message(id, 0, sizes.size))).await.unwrap();
    next(&mut read, &mut frame, id, 0, sizes.size).await?;
    phases.ready.fetch_add(1, Ordering::SeqCst);
    signalled(phases.go.clone()).await;
    let messages = sizes.messages;
    let size = sizes.size;
    let writer = tokio::spawn(async move {
        let mut batch = Vec::new();
        for seq in 1..=messages {
            batch.extend(support::framed(&message(id, seq, size)));
            if seq % 32 == 0 || seq == messages {
                write.write_all(&batch).await.map_err(|e| format!("client {id} write: {e}"))?;
                batch.clear();
            }
        }
        Ok::<_, String>(write)
    });
    for seq in 1..=messages {
        next(&mut read, &mut frame, id, seq, size).await?;
    }
    let mut write = writer.await.unwrap()?;
    phases.done.fetch_add(1, Ordering::SeqCst);
    signalled(phases.leave.clone()).await;
    write.shutdown().await.map_err(|e| format!("client {id} shutdown: {e}"))?;
    let mut rest = Vec::new();
    read.read_to_end(&mut rest).await.map_err(|e| format!("client {id} end: {e}"))?;
    if !rest.is_empty() {
        return Err(format!("client {id}: {} bytes after the last echo", rest.len()));
    }
    phases.left.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

/// A UDP client: message 0 echoed, then its messages one at a time (each sent again after
/// [`UDP_RESEND`] without its echo: UDP may lose it, the relay included); an echo must be the
/// message sent (a late duplicate of an earlier one is skipped). Leaving is closing its socket.
async fn udp_client(addr: SocketAddr, id: u32, sizes: Sizes, phases: Phases) -> Result<(), String> {
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    socket.connect(addr).await.unwrap();
    let mut buffer = vec![0u8; 65536];
    let exchange = async |seq: u32, buffer: &mut Vec<u8>| -> Result<(), String> {
        let sent = message(id, seq, sizes.size);
        for _ in 0..UDP_TRIES {
            socket.send(&sent).await.map_err(|e| format!("client {id} send: {e}"))?;
            let deadline = tokio::time::Instant::now() + UDP_RESEND;
            loop {
                let received = tokio::time::timeout_at(deadline, socket.recv(buffer)).await;
                let Ok(received) = received else { break };
                let len = received.map_err(|e| format!("client {id} recv: {e}"))?;
                let echo = &buffer[..len];
                let (client, number) = numbers(echo);
                if client != id {
                    return Err(format!("client {id} got client {client}'s message {number}"));
                }
                if number < seq {
                    continue; // an earlier message's echo, after it was sent again
                }
                if echo != sent.as_slice() {
                    return Err(format!("client {id}: echo of {seq} differs: {echo:?}"));
                }
                return Ok(());
            }
            phases.resent.fetch_add(1, Ordering::SeqCst);
        }
        Err(format!("client {id}: no echo of {seq} after {UDP_TRIES} tries"))
    };
    exchange(0, &mut buffer).await?;
    phases.ready.fetch_add(1, Ordering::SeqCst);
    signalled(phases.go.clone()).await;
    for seq in 1..=sizes.messages {
        exchange(seq, &mut buffer).await?;
    }
    phases.done.fetch_add(1, Ordering::SeqCst);
    signalled(phases.leave.clone()).await;
    drop(socket);
    phases.left.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

/// Which stream or datagram client a run starts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tcp,
    Udp,
}

/// Starts `count` clients of `kind` numbered from `first` against `addr`.
fn spawn_clients(
    kind: Kind,
    addr: SocketAddr,
    first: u32,
    count: usize,
    sizes: Sizes,
    phases: &Phases,
) {
    for id in first..first + count as u32 {
        let phases = phases.clone();
        tokio::spawn(async move {
            let failures = phases.failures.clone();
            let result = match kind {
                Kind::Tcp => tcp_client(addr, id, sizes, phases).await,
                Kind::Udp => udp_client(addr, id, sizes, phases).await,
            };
            if let Err(failure) = result {
                failures.push(failure);
            }
        });
    }
}

/// One run of `kind` against an echo server, through a relay (`relay`) or straight: clients
/// in two halves (RSS measured after each), every client's messages at once, then everyone
/// leaves; through the relay, it must report every connection closed and the descriptors must
/// come back.
async fn stream_or_datagrams(kind: Kind, sizes: Sizes, relay: bool) -> Measured {
    let (echo, transport, name, idle) = match kind {
        Kind::Tcp => {
            (support::tcp_echo().await, Transport::Tcp(LengthPrefix::stream_peer(false)), "tcp", 60)
        }
        // Sessions of clients that left end after the idle timeout: short, but longer than
        // the pauses between a client's messages here.
        Kind::Udp => (support::udp_echo().await, Transport::Udp, "udp", 5),
    };
    let counts = Counts::default();
    let config =
        Config::new(Version::Godot4, transport, "127.0.0.1:0".parse().unwrap(), echo.to_string())
            .max_connections(sizes.clients + 16)
            .idle_timeout(Duration::from_secs(idle));
    let running = match relay {
        true => Some(Running::start(config, support::forward, counts.clone()).await),
        false => None,
    };
    let target = running.as_ref().map_or(echo, |r| r.addr);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let base_fds = fds();
    let base_rss = settled_rss().await;
    let conductor = Conductor::new();
    let half = sizes.clients / 2;
    let limit = sizes.patience(sizes.clients);
    spawn_clients(kind, target, 0, half, sizes, &conductor.phases);
    conductor.wait("the first half ready", &conductor.phases.ready, half, limit).await;
    let first = settled_rss().await;
    spawn_clients(kind, target, half as u32, sizes.clients - half, sizes, &conductor.phases);
    conductor.wait("every client ready", &conductor.phases.ready, sizes.clients, limit).await;
    let second = settled_rss().await;
    if relay {
        assert_eq!(counts.open(), sizes.clients as u64, "{name}: one connection per client");
    }
    let start = Instant::now();
    conductor.go.send(true).unwrap();
    conductor.wait("every client's messages", &conductor.phases.done, sizes.clients, limit).await;
    let exchange = start.elapsed();
    let after = rss();
    conductor.leave.send(true).unwrap();
    conductor.wait("every client gone", &conductor.phases.left, sizes.clients, limit).await;
    if let Some(running) = running {
        // Every connection the relay accepted is reported closed: TCP when the client closes,
        // UDP after the idle timeout.
        let wait = Duration::from_secs(idle + 10);
        wait_until(&format!("{name}: the relay reports every connection closed"), wait, || {
            counts.accepted() >= sizes.clients as u64 && counts.open() == 0
        })
        .await;
        let back = format!("{name}: descriptors back to {base_fds}");
        wait_until(&back, Duration::from_secs(10), || fds() <= base_fds + FD_TOLERANCE).await;
        running.stop(Duration::from_secs(10)).await;
        let forwarded = counts.forwarded();
        let expected = 2 * sizes.clients as u64 * u64::from(sizes.messages + 1);
        assert!(forwarded >= expected, "{name}: {forwarded} forwarded, {expected} expected");
    }
    Measured {
        per_client: (second as f64 - first as f64) / (sizes.clients - half) as f64,
        after_traffic: (after as f64 - base_rss as f64) / sizes.clients as f64,
        exchange,
        resent: conductor.phases.resent.load(Ordering::SeqCst),
    }
}

/// The ENet peers of a run, on one client host, serviced on this (blocking) thread.
struct Peers {
    host: rusty_enet::Host<std::net::UdpSocket>,
    /// Each peer's number (its connect data is the number plus 2, a peer id Godot accepts).
    ids: HashMap<PeerID, u32>,
    connected: usize,
    /// Per peer: the next message to send, the next echo expected.
    next: Vec<(u32, u32)>,
    disconnected: usize,
}

impl Peers {
    /// Services the host until `done`, at most `limit`.
    fn run(
        &mut self,
        what: &str,
        limit: Duration,
        size: usize,
        mut done: impl FnMut(&Peers) -> bool,
    ) {
        let start = Instant::now();
        while !done(self) {
            assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
            let mut busy = false;
            while let Some(event) = self.host.service().unwrap() {
                busy = true;
                match event {
                    Event::Connect { .. } => self.connected += 1,
                    Event::Disconnect { .. } => self.disconnected += 1,
                    Event::Receive { peer, packet, .. } => {
                        let id = self.ids[&peer.id()];
                        let (client, seq) = numbers(packet.data());
                        let expected = self.next[id as usize].1;
                        assert_eq!((client, seq), (id, expected), "peer {id}: echo out of order");
                        assert_eq!(packet.data(), message(id, seq, size), "peer {id}: echo {seq}");
                        self.next[id as usize].1 += 1;
                    }
                }
            }
            if !busy {
                std::thread::sleep(Duration::from_micros(500));
            }
        }
    }

    /// Connects peers `first..first + count` to `addr`.
    fn connect(&mut self, addr: SocketAddr, first: u32, count: usize) {
        for id in first..first + count as u32 {
            let peer = self.host.connect(addr, 1, id + 2).unwrap().id();
            self.ids.insert(peer, id);
        }
    }

    /// Sends each peer's messages up to `last`, [`ENET_WINDOW`] on the way at once.
    fn send_window(&mut self, last: u32, size: usize) {
        let peers: Vec<(PeerID, u32)> = self.ids.iter().map(|(&p, &id)| (p, id)).collect();
        for (peer, id) in peers {
            let (send, expect) = &mut self.next[id as usize];
            while *send <= last && *send < *expect + ENET_WINDOW {
                let packet = Packet::reliable(message(id, *send, size));
                self.host.peer_mut(peer).send(0, &packet).unwrap();
                *send += 1;
            }
        }
    }
}

/// The phases of an ENet run against `addr` (the relay, or the echo server itself): half the
/// peers connect and have message 0 echoed, then the other half (`measure` is called after
/// each), then every peer's messages (`measure` after), then every peer disconnects. Returns
/// the time of the messages.
fn enet_phases(addr: SocketAddr, sizes: Sizes, mut measure: impl FnMut(&str)) -> Duration {
    let count = sizes.enet;
    let half = count / 2;
    let limit = sizes.patience(count);
    let mut peers = Peers {
        host: support::enet_host(count),
        ids: HashMap::new(),
        connected: 0,
        next: vec![(0, 0); count],
        disconnected: 0,
    };
    peers.connect(addr, 0, half);
    peers.run("the first half connected", limit, sizes.size, |p| p.connected == half);
    // Message 0 each.
    peers.send_window(0, sizes.size);
    peers.run("message 0", limit, sizes.size, |p| p.next.iter().take(half).all(|n| n.1 == 1));
    measure("first");
    peers.connect(addr, half as u32, count - half);
    peers.run("every peer connected", limit, sizes.size, |p| p.connected == count);
    peers.send_window(0, sizes.size);
    peers.run("message 0", limit, sizes.size, |p| p.next.iter().all(|n| n.1 == 1));
    measure("second");
    let start = Instant::now();
    let last = sizes.messages;
    while !peers.next.iter().all(|n| n.1 > last) {
        assert!(start.elapsed() < limit, "waited {limit:?} for the ENet messages");
        peers.send_window(last, sizes.size);
        let before: u32 = peers.next.iter().map(|n| n.1).sum();
        peers.run("an echo", limit, sizes.size, |p| {
            p.next.iter().map(|n| n.1).sum::<u32>() > before
        });
    }
    let exchange = start.elapsed();
    measure("after");
    let all: Vec<PeerID> = peers.ids.keys().copied().collect();
    for peer in all {
        peers.host.peer_mut(peer).disconnect(0);
    }
    peers.run("every peer disconnected", limit, sizes.size, |p| p.disconnected == count);
    exchange
}

/// The ENet run: the same phases, the peers on a blocking thread, through a relay (`relay`)
/// or straight to the echo server.
async fn enet(sizes: Sizes, relay: bool) -> Measured {
    let stop = Arc::new(AtomicBool::new(false));
    let limit = sizes.patience(sizes.enet) * 4;
    let (echo, echo_thread) = support::enet_echo(sizes.enet + 8, Arc::clone(&stop), limit);
    let counts = Counts::default();
    let config = Config::new(
        Version::Godot4,
        Transport::Enet,
        "127.0.0.1:0".parse().unwrap(),
        echo.to_string(),
    )
    .max_connections(sizes.enet + 8)
    .idle_timeout(Duration::from_secs(60));
    let running = match relay {
        true => Some(Running::start(config, support::forward, counts.clone()).await),
        false => None,
    };
    let target = running.as_ref().map_or(echo, |r| r.addr);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let base_fds = fds();
    let base_rss = settled_rss().await;
    let relay_counts = counts.clone();
    let (exchange, rss_at) = tokio::task::spawn_blocking(move || {
        let mut rss_at = Vec::new();
        let exchange = enet_phases(target, sizes, |phase| {
            std::thread::sleep(Duration::from_millis(300));
            if relay && phase == "second" {
                assert_eq!(relay_counts.open(), sizes.enet as u64, "one connection per peer");
            }
            rss_at.push(rss());
        });
        (exchange, rss_at)
    })
    .await
    .unwrap();
    if let Some(running) = running {
        let what = "enet: the relay reports every connection closed";
        wait_until(what, Duration::from_secs(20), || {
            counts.accepted() == sizes.enet as u64 && counts.open() == 0
        })
        .await;
        let back = format!("enet: descriptors back to {base_fds}");
        wait_until(&back, Duration::from_secs(10), || fds() <= base_fds + FD_TOLERANCE).await;
        running.stop(Duration::from_secs(10)).await;
        let forwarded = counts.forwarded();
        let expected = 2 * sizes.enet as u64 * u64::from(sizes.messages + 1);
        assert!(forwarded >= expected, "enet: {forwarded} forwarded, {expected} expected");
    }
    stop.store(true, Ordering::SeqCst);
    echo_thread.join().unwrap();
    Measured {
        per_client: (rss_at[1] as f64 - rss_at[0] as f64) / (sizes.enet - sizes.enet / 2) as f64,
        after_traffic: (rss_at[2] as f64 - base_rss as f64) / sizes.enet as f64,
        exchange,
        resent: 0,
    }
}

/// The environment variable that makes this test binary one run's child process.
const CHILD: &str = "GDVARIANT_LOAD_RUN";
/// The runs, each in its own process (so that none reuses memory another freed).
const RUNS: [&str; 6] =
    ["tcp/relay", "tcp/direct", "udp/relay", "udp/direct", "enet/relay", "enet/direct"];

/// One run, in a child process: `tcp/relay`, `udp/direct`, ...
fn child(run: &str) {
    let sizes = Sizes::from_env();
    // Four descriptors per TCP client (the client, both of the relay's, the echo server's).
    let wanted = (sizes.clients * 4 + sizes.enet * 3 + 256) as u64;
    rlimit::increase_nofile_limit(wanted).unwrap();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let relay = run.ends_with("/relay");
    let measured = runtime.block_on(async {
        match run.split('/').next().unwrap() {
            "tcp" => stream_or_datagrams(Kind::Tcp, sizes, relay).await,
            "udp" => stream_or_datagrams(Kind::Udp, sizes, relay).await,
            "enet" => enet(sizes, relay).await,
            other => panic!("no such run: {other}"),
        }
    });
    println!("{}", measured.line(run));
}

/// Runs this test again as a child process for `run`, at most `limit`; its result line.
fn spawn_child(run: &str, limit: Duration) -> Measured {
    let exe = std::env::current_exe().unwrap();
    let test = "many_clients_of_every_transport_through_one_relay_each";
    let mut child = std::process::Command::new(exe)
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD, run)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{run}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(status.success(), "{run} failed:\n{stdout}\n{stderr}");
    stdout
        .lines()
        .find_map(|line| Measured::parse(line).filter(|(r, _)| r == run).map(|(_, m)| m))
        .unwrap_or_else(|| panic!("{run}: no result line in\n{stdout}"))
}

#[test]
fn many_clients_of_every_transport_through_one_relay_each() {
    if let Ok(run) = std::env::var(CHILD) {
        child(&run);
        return;
    }
    let sizes = Sizes::from_env();
    let started = Instant::now();
    let limit = sizes.patience(sizes.clients.max(sizes.enet)) * 4;
    let results: HashMap<&str, Measured> =
        RUNS.iter().map(|&run| (run, spawn_child(run, limit))).collect();
    let kib = |bytes: f64| bytes / 1024.0;
    for (transport, clients) in
        [("tcp", sizes.clients), ("udp", sizes.clients), ("enet", sizes.enet)]
    {
        let relay = &results[format!("{transport}/relay").as_str()];
        let direct = &results[format!("{transport}/direct").as_str()];
        println!(
            "load {transport}: {clients} clients x {} messages of {} bytes: {:.2?} through the \
             relay ({:.2?} direct); RSS per idle connection {:.1} KiB through the relay, {:.1} \
             KiB direct, so {:.1} KiB the relay's; after the messages {:.1} KiB per client \
             ({:.1} direct); {} UDP messages resent ({} direct)",
            sizes.messages,
            sizes.size,
            relay.exchange,
            direct.exchange,
            kib(relay.per_client),
            kib(direct.per_client),
            kib(relay.per_client - direct.per_client),
            kib(relay.after_traffic),
            kib(direct.after_traffic),
            relay.resent,
            direct.resent,
        );
    }
    println!("load: {:.2?} in all", started.elapsed());
}
