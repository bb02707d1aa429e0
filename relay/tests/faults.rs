//! Faults around a TCP relay on loopback, each with its outcome asserted: an upstream that
//! refuses connections, closes mid-stream, stalls (stops reading) or resets; a client that
//! stops reading while the upstream sends a lot; an idle flood past `max_connections`; a
//! slow-loris client; and the relay stopped while messages are in flight. The idle timeout is
//! 1 s, so the suite is quick; where a fault hits one connection, an honest client on the same
//! relay is served before and after.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects, missing_docs)]

mod support;

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gdvariant::Version;
use gdvariant::framing::LengthPrefix;
use gdvariant_relay::{Config, End, Transport};
use support::{Counts, Running, framed, message, wait_until};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The relay's idle timeout in these tests.
const IDLE: Duration = Duration::from_secs(1);
/// How long past the idle timeout an end may take to be seen.
const SLACK: Duration = Duration::from_secs(2);

/// What the test upstream does with a connection, named by the first frame's client number.
const ECHO: u32 = 0;
const CLOSE_AFTER_3: u32 = 1;
const RESET_AFTER_3: u32 = 2;
const STALL: u32 = 3;
const FLOOD: u32 = 4;

/// Bytes of the flood's frames.
const BIG: usize = 64 << 10;

/// What the test upstream saw and did.
#[derive(Default)]
struct Upstream {
    /// Whole frames received (the first, naming the mode, included).
    frames: AtomicU64,
    /// Connections that ended inside a frame (a cut frame).
    cut: AtomicU64,
    /// Bytes the flood got written, and whether it has stopped.
    flooded: AtomicU64,
    flood_over: AtomicBool,
    /// Connections served to their end.
    ended: AtomicU64,
}

/// A frame's payload from `stream`: `Ok(None)` at a clean end, `Err` inside a frame.
async fn read_frame(stream: &mut TcpStream) -> Result<Option<Vec<u8>>, ()> {
    let mut prefix = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match stream.read(&mut prefix[got..]).await {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) | Err(_) => return Err(()),
            Ok(n) => got += n,
        }
    }
    let mut payload = vec![0u8; u32::from_le_bytes(prefix) as usize];
    stream.read_exact(&mut payload).await.map_err(|_| ())?;
    Ok(Some(payload))
}

/// A TCP server that reads a first frame naming its mode, then echoes ([`ECHO`]), echoes three
/// frames and closes ([`CLOSE_AFTER_3`]) or resets ([`RESET_AFTER_3`]), stops reading
/// ([`STALL`], holding the connection 10 s) or writes 64 KiB frames as fast as it can
/// ([`FLOOD`], at most 256 MiB, each write given 3 s).
async fn upstream() -> (SocketAddr, Arc<Upstream>, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Upstream::default());
    let accepting = tokio::spawn({
        let seen = Arc::clone(&seen);
        async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, Arc::clone(&seen)));
            }
        }
    });
    (addr, seen, accepting)
}

async fn serve(stream: TcpStream, seen: Arc<Upstream>) {
    serve_one(stream, &seen).await;
    seen.ended.fetch_add(1, Ordering::SeqCst);
}

async fn serve_one(mut stream: TcpStream, seen: &Upstream) {
    let Ok(Some(first)) = read_frame(&mut stream).await else {
        seen.cut.fetch_add(1, Ordering::SeqCst);
        return;
    };
    seen.frames.fetch_add(1, Ordering::SeqCst);
    let mode = support::numbers(&first).0;
    match mode {
        STALL => tokio::time::sleep(Duration::from_secs(10)).await,
        FLOOD => {
            let frame = framed(&message(FLOOD, 1, BIG));
            while seen.flooded.load(Ordering::SeqCst) < 256 << 20 {
                let write = stream.write_all(&frame);
                match tokio::time::timeout(Duration::from_secs(3), write).await {
                    Ok(Ok(())) => seen.flooded.fetch_add(frame.len() as u64, Ordering::SeqCst),
                    _ => break,
                };
            }
            seen.flood_over.store(true, Ordering::SeqCst);
        }
        _ => {
            let mut echoed = 0;
            loop {
                match read_frame(&mut stream).await {
                    Ok(Some(payload)) => {
                        seen.frames.fetch_add(1, Ordering::SeqCst);
                        if stream.write_all(&framed(&payload)).await.is_err() {
                            return;
                        }
                        echoed += 1;
                    }
                    Ok(None) => return,
                    Err(()) => {
                        seen.cut.fetch_add(1, Ordering::SeqCst);
                        return;
                    }
                }
                if echoed == 3 && mode == CLOSE_AFTER_3 {
                    return; // dropped: closed both ways
                }
                if echoed == 3 && mode == RESET_AFTER_3 {
                    // Time for the echoes to reach the client, then a reset (SO_LINGER 0).
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    stream.set_zero_linger().unwrap();
                    return;
                }
            }
        }
    }
}

/// A TCP relay to `upstream` with a 1 s idle timeout, observed by the returned counts.
async fn relay(upstream: SocketAddr, max_connections: usize) -> (Running, Counts) {
    let counts = Counts::default();
    let config = Config::new(
        Version::Godot4,
        Transport::Tcp(LengthPrefix::stream_peer(false)),
        "127.0.0.1:0".parse().unwrap(),
        upstream.to_string(),
    )
    .idle_timeout(IDLE)
    .max_connections(max_connections);
    (Running::start(config, support::forward, counts.clone()).await, counts)
}

/// A client of `relay` whose first frame names the upstream's `mode`.
async fn client(relay: SocketAddr, mode: u32) -> TcpStream {
    let mut stream = TcpStream::connect(relay).await.unwrap();
    stream.write_all(&framed(&message(mode, 0, 16))).await.unwrap();
    stream
}

/// Sends message `seq` of client `id` and reads its echo, byte for byte, within 5 s.
async fn exchange(stream: &mut TcpStream, id: u32, seq: u32) {
    let sent = framed(&message(id, seq, 32));
    stream.write_all(&sent).await.unwrap();
    let mut echo = vec![0u8; sent.len()];
    tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut echo))
        .await
        .expect("an echo in time")
        .unwrap();
    assert_eq!(echo, sent);
}

/// An honest client of `relay`, exchanging a message every 100 ms (each echo checked) until
/// it is stopped.
struct Honest {
    stop: Arc<AtomicBool>,
    exchanges: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl Honest {
    fn start(relay: SocketAddr) -> Honest {
        let stop = Arc::new(AtomicBool::new(false));
        let exchanges = Arc::new(AtomicU64::new(0));
        let task = tokio::spawn({
            let (stop, exchanges) = (Arc::clone(&stop), Arc::clone(&exchanges));
            async move {
                let mut stream = client(relay, ECHO).await;
                for seq in 1..=1000 {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    exchange(&mut stream, 7, seq).await;
                    exchanges.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        });
        Honest { stop, exchanges, task }
    }

    /// Waits for its first exchange.
    async fn started(&self) {
        wait_until("the honest client", SLACK, || self.exchanges.load(Ordering::SeqCst) > 0).await;
    }

    /// Checks it is still served (two more exchanges), and stops it.
    async fn done(self) {
        let now = self.exchanges.load(Ordering::SeqCst);
        wait_until("the honest client, still served", SLACK, || {
            self.task.is_finished() || self.exchanges.load(Ordering::SeqCst) >= now + 2
        })
        .await;
        self.stop.store(true, Ordering::SeqCst);
        tokio::time::timeout(SLACK, self.task).await.unwrap().unwrap();
        assert!(self.exchanges.load(Ordering::SeqCst) >= now + 2, "the honest client stopped");
    }
}

/// Reads until the relay ends the connection (a clean end or a reset), within `limit`; the
/// bytes read before.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> Vec<u8> {
    let mut received = Vec::new();
    let mut buffer = vec![0u8; 64 << 10];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let read = tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await;
        match read.expect("the relay ends the connection in time") {
            Ok(0) => return received,
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return received,
            Err(e) => panic!("{e}"),
        }
    }
}

/// How connection `number` ended, once the relay reports it (within `limit`).
async fn end_of(counts: &Counts, number: u64, limit: Duration) -> (End, Option<String>) {
    let find = || counts.ends().into_iter().find(|(n, ..)| *n == number);
    wait_until(&format!("the end of connection {number}"), limit, || find().is_some()).await;
    let (_, end, detail) = find().unwrap();
    (end, detail)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_refuses_connections_ends_the_client_as_an_error() {
    let (addr, _, accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let honest = Honest::start(relay.addr);
    honest.started().await;
    // The upstream stops listening: its port refuses connections from now on.
    accepting.abort();
    let _ = accepting.await;
    let start = Instant::now();
    let mut refused = client(relay.addr, ECHO).await;
    let received = read_until_closed(&mut refused, IDLE + SLACK).await;
    assert!(received.is_empty());
    let (end, detail) = end_of(&counts, 1, IDLE + SLACK).await;
    assert_eq!(end, End::Error);
    assert!(detail.unwrap().starts_with("cannot connect upstream"));
    assert!(start.elapsed() < IDLE, "a refusal is seen at once: {:?}", start.elapsed());
    // The connection made before goes on.
    honest.done().await;
    relay.stop(IDLE + SLACK).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_closes_mid_stream_passes_its_end_on_after_its_last_echo() {
    let (addr, seen, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let honest = Honest::start(relay.addr);
    honest.started().await;
    let mut closing = client(relay.addr, CLOSE_AFTER_3).await;
    let sent: Vec<u8> = (1..=3).flat_map(|seq| framed(&message(9, seq, 32))).collect();
    closing.write_all(&sent).await.unwrap();
    // Every echo the upstream sent before it closed, then the end.
    let received = read_until_closed(&mut closing, IDLE + SLACK).await;
    assert_eq!(received, sent);
    // The relay closed towards the client as the upstream did; when the client closes too,
    // the connection ends as closed.
    drop(closing);
    let (end, _) = end_of(&counts, 1, SLACK).await;
    assert_eq!(end, End::Closed);
    assert_eq!(seen.cut.load(Ordering::SeqCst), 0);
    honest.done().await;
    relay.stop(IDLE + SLACK).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_reset_ends_the_connection_as_an_error() {
    let (addr, _, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let honest = Honest::start(relay.addr);
    honest.started().await;
    let mut reset = client(relay.addr, RESET_AFTER_3).await;
    let sent: Vec<u8> = (1..=3).flat_map(|seq| framed(&message(9, seq, 32))).collect();
    reset.write_all(&sent).await.unwrap();
    let received = read_until_closed(&mut reset, IDLE + SLACK).await;
    assert_eq!(received, sent, "the echoes before the reset arrive");
    let (end, _) = end_of(&counts, 1, SLACK).await;
    assert_eq!(end, End::Error);
    honest.done().await;
    relay.stop(IDLE + SLACK).await;
}

/// Writes 64 KiB frames to `stream` until a write takes over 2 s (or fails), at most 256 MiB;
/// the bytes written.
async fn write_until_blocked(stream: &mut TcpStream) -> u64 {
    let frame = framed(&message(5, 1, BIG));
    let mut written = 0u64;
    while written < 256 << 20 {
        let write = stream.write_all(&frame);
        match tokio::time::timeout(Duration::from_secs(2), write).await {
            Ok(Ok(())) => written += frame.len() as u64,
            _ => break,
        }
    }
    written
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_upstream_is_not_buffered_without_bound_and_its_write_times_out() {
    let (addr, seen, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let honest = Honest::start(relay.addr);
    honest.started().await;
    let mut stalled = client(relay.addr, STALL).await;
    wait_until("the stalling upstream's first frame", SLACK, || {
        seen.frames.load(Ordering::SeqCst) >= 2
    })
    .await;
    let start = Instant::now();
    let written = write_until_blocked(&mut stalled).await;
    // What the client got written is what the sockets' kernel buffers hold on both legs plus at
    // most one read and one frame in the relay: far from the 256 MiB it tried.
    assert!(written < 64 << 20, "{written} bytes taken from a client whose upstream stalled");
    let (end, _) = end_of(&counts, 1, IDLE + SLACK).await;
    assert_eq!(end, End::Idle, "a write that did not finish in the idle timeout");
    assert!(start.elapsed() < 2 * IDLE + 2 * SLACK, "{:?}", start.elapsed());
    honest.done().await;
    relay.stop(IDLE + SLACK).await;
    println!("stalled upstream: the client got {written} bytes written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_not_buffered_without_bound_and_is_closed() {
    let (addr, seen, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let honest = Honest::start(relay.addr);
    honest.started().await;
    // Asks for the flood, then reads nothing.
    let silent = client(relay.addr, FLOOD).await;
    let start = Instant::now();
    let (end, _) = end_of(&counts, 1, 4 * IDLE + 2 * SLACK).await;
    assert_eq!(end, End::Idle, "a write to the client that did not finish in the idle timeout");
    // The honest client is served while the flood stalls and after.
    wait_until("the flood's end", Duration::from_secs(10), || {
        seen.flood_over.load(Ordering::SeqCst)
    })
    .await;
    let flooded = seen.flooded.load(Ordering::SeqCst);
    assert!(flooded < 64 << 20, "{flooded} bytes taken from the upstream for a silent client");
    assert!(start.elapsed() < Duration::from_secs(8), "{:?}", start.elapsed());
    drop(silent);
    honest.done().await;
    relay.stop(IDLE + SLACK).await;
    println!("silent client: the upstream got {flooded} bytes written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_flood_past_the_limit_is_refused_and_honest_clients_get_in_once_slots_free() {
    let (addr, _, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 4).await;
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(relay.addr).await.unwrap());
    }
    wait_until("4 accepted", SLACK, || counts.accepted() == 4).await;
    // Past the limit: each is closed at once, and reported refused.
    let start = Instant::now();
    for _ in 0..8 {
        let mut extra = client(relay.addr, ECHO).await;
        assert!(read_until_closed(&mut extra, SLACK).await.is_empty());
    }
    assert!(start.elapsed() < IDLE, "refusals are at once: {:?}", start.elapsed());
    assert_eq!(counts.refused(), 8);
    assert_eq!(counts.accepted(), 4);
    // The idle ones are closed by the idle timeout, freeing their slots.
    wait_until("the idle ones closed", IDLE + SLACK, || counts.closed() == 4).await;
    assert!(counts.ends().iter().all(|(_, end, _)| *end == End::Idle));
    let mut honest = client(relay.addr, ECHO).await;
    exchange(&mut honest, 7, 1).await;
    exchange(&mut honest, 7, 2).await;
    assert_eq!(counts.refused(), 8);
    drop(idle);
    relay.stop(IDLE + SLACK).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_loris_is_closed_by_the_idle_timeout_bytes_without_a_frame_do_not_count() {
    let (addr, seen, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let frame = framed(&message(ECHO, 0, 64));
    let mut loris = TcpStream::connect(relay.addr).await.unwrap();
    let start = Instant::now();
    let mut sent = 0;
    // One byte every 250 ms: four within each idle timeout, never a whole frame.
    for byte in &frame {
        if loris.write_all(std::slice::from_ref(byte)).await.is_err() {
            break;
        }
        sent += 1;
        if counts.closed() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let (end, _) = end_of(&counts, 0, SLACK).await;
    assert_eq!(end, End::Idle);
    let closed_after = start.elapsed();
    assert!(closed_after >= IDLE && closed_after < IDLE + SLACK, "{closed_after:?}");
    assert!(sent < frame.len(), "closed before the frame was whole ({sent} bytes)");
    assert!(read_until_closed(&mut loris, SLACK).await.is_empty());
    // Nothing of the cut frame reached the upstream.
    assert_eq!(seen.frames.load(Ordering::SeqCst), 0);
    relay.stop(IDLE + SLACK).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_relay_with_messages_in_flight_loses_nothing_it_accepted() {
    let (addr, seen, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    let stream = client(relay.addr, ECHO).await;
    let (mut read, mut write) = stream.into_split();
    // The client sends numbered messages as fast as it can, and reads the echoes.
    let writer = tokio::spawn(async move {
        let mut sent = 0u32;
        for seq in 1..=200_000u32 {
            let frame = framed(&message(3, seq, 256));
            match tokio::time::timeout(Duration::from_secs(2), write.write_all(&frame)).await {
                Ok(Ok(())) => sent = seq,
                _ => break,
            }
        }
        sent
    });
    let mut received = Vec::new();
    let mut buffer = vec![0u8; 64 << 10];
    let frame_len = framed(&message(3, 1, 256)).len();
    while received.len() < 500 * frame_len {
        let n = read.read(&mut buffer).await.unwrap();
        assert!(n > 0);
        received.extend_from_slice(&buffer[..n]);
    }
    let stopping = Instant::now();
    relay.stop(IDLE + SLACK).await;
    let stopped_in = stopping.elapsed();
    // Whatever was in flight: the client reads whole echoes in order, then the end (a clean end
    // if the relay had read everything it was sent, a reset if not).
    loop {
        let read = tokio::time::timeout(SLACK, read.read(&mut buffer)).await.unwrap();
        match read {
            Ok(0) => break,
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("{e}"),
        }
    }
    let sent = tokio::time::timeout(SLACK, writer).await.unwrap().unwrap();
    assert_eq!(received.len() % frame_len, 0, "only whole echoes");
    let echoes = received.len() / frame_len;
    for (i, echo) in received.chunks(frame_len).enumerate() {
        assert_eq!(echo, framed(&message(3, i as u32 + 1, 256)), "echo {i}");
    }
    // The upstream got whole frames only, and the relay reported the connection closed (its
    // end: the relay stopped) with what it forwarded.
    wait_until("the upstream's end", SLACK, || seen.ended.load(Ordering::SeqCst) == 1).await;
    assert_eq!(seen.cut.load(Ordering::SeqCst), 0, "a cut frame reached the upstream");
    let upstream_frames = seen.frames.load(Ordering::SeqCst) - 1;
    assert!(echoes as u64 <= upstream_frames && upstream_frames <= u64::from(sent));
    let (end, detail) = end_of(&counts, 0, SLACK).await;
    assert_eq!((end, detail.as_deref()), (End::Closed, Some("the relay stopped")));
    assert!(stopped_in < IDLE + SLACK, "{stopped_in:?}");
    println!(
        "stop in flight: {sent} sent, {upstream_frames} reached the upstream, {echoes} echoes \
         came back, stopped in {stopped_in:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_relay_while_a_write_is_stuck_ends_within_one_idle_timeout() {
    let (addr, seen, _accepting) = upstream().await;
    let (relay, counts) = relay(addr, 16).await;
    // A client asks for the flood and reads nothing: the relay's write to it blocks.
    let _silent = client(relay.addr, FLOOD).await;
    wait_until("the flood", SLACK, || seen.flooded.load(Ordering::SeqCst) > 4 << 20).await;
    let stopping = Instant::now();
    relay.stop(IDLE + SLACK).await;
    let stopped_in = stopping.elapsed();
    assert!(stopped_in < IDLE + SLACK, "{stopped_in:?}");
    let (end, detail) = end_of(&counts, 0, SLACK).await;
    // The write's own idle bound (it began before the stop) or the stop's grace ends it.
    assert_eq!(end, End::Idle);
    let stopped = "the relay stopped; a write did not finish";
    assert!(detail.is_none() || detail.as_deref() == Some(stopped), "{detail:?}");
}
