//! `gdvariant proxy` against a plain byte-forwarding proxy (no parsing), on loopback, in the
//! same run: throughput for small (64-256 B) and large (about 64 KB) frames, and the latency
//! each adds to a round trip; and `gdvariant proxy --enet` against a plain ENet forwarder
//! (`enet.rs`): throughput for small (64-256 B) and large (16-60 KB, fragmented) reliable
//! packets. Prints a Markdown table (recorded in BENCHMARKS.md).
//!
//! ```sh
//! cargo bench -p gdvariant-cli --bench proxy            # full run
//! cargo bench -p gdvariant-cli --bench proxy -- --test  # every workload once, small counts
//! ```
//!
//! Both proxies are separate processes on multi-threaded tokio runtimes that read 64 KiB at a
//! time: the plain one is this binary run with `--plain-forwarder`, copying each read to the
//! other side; `gdvariant proxy` cuts the same bytes into frames, validates every frame as
//! Godot's `get_var` does, and forwards the frames' exact bytes. The client and the server
//! (a sink for throughput, an echo for latency) run in this process.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gdvariant::EncodeOptions;
use gdvariant::framing::{self, LengthPrefix};

#[path = "proxy/enet.rs"]
mod enet;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--plain-forwarder") {
        plain_forwarder(&args[2]);
        return;
    }
    if args.get(1).map(String::as_str) == Some("--plain-enet-forwarder") {
        enet::plain_forwarder(&args[2]);
        return;
    }
    let quick = args.iter().any(|a| a == "--test");
    let small = small_frames(if quick { 1_000 } else { 400_000 });
    let large = large_frames(if quick { 10 } else { 3_000 });
    let rounds = if quick { 1 } else { 3 };
    let pings = if quick { 50 } else { 5_000 };

    println!("| workload | plain forwarder | gdvariant proxy | proxy / plain |");
    println!("| --- | --- | --- | --- |");
    for (name, stream, frames) in [
        ("small frames (64-256 B)", &small.0, small.1),
        ("large frames (~64 KB)", &large.0, large.1),
    ] {
        let mut plain = Vec::new();
        let mut proxy = Vec::new();
        for _ in 0..rounds {
            plain.push(throughput(Relay::Plain, stream));
            proxy.push(throughput(Relay::Proxy, stream));
        }
        let (plain, proxy) = (median(plain), median(proxy));
        let mb = stream.len() as f64 / 1e6;
        println!(
            "| {name}: frames/s | {:.0} | {:.0} | {:.2} |",
            frames as f64 / plain,
            frames as f64 / proxy,
            plain / proxy
        );
        println!("| {name}: MB/s | {:.0} | {:.0} | {:.2} |", mb / plain, mb / proxy, plain / proxy);
    }
    let small_enet = enet::small_packets(if quick { 300 } else { 100_000 });
    let large_enet = enet::large_packets(if quick { 4 } else { 1_000 });
    for (name, workload) in [
        ("ENet small packets (64-256 B, reliable)", &small_enet),
        ("ENet large packets (16-60 KB, reliable, fragmented)", &large_enet),
    ] {
        let mut plain = Vec::new();
        let mut proxy = Vec::new();
        for _ in 0..rounds {
            plain.push(enet::throughput(enet::Relay::Plain, workload));
            proxy.push(enet::throughput(enet::Relay::Proxy, workload));
        }
        let (plain, proxy) = (median(plain), median(proxy));
        let packets = workload.packets.len() as f64;
        let mb = workload.bytes as f64 / 1e6;
        println!(
            "| {name}: packets/s | {:.0} | {:.0} | {:.2} |",
            packets / plain,
            packets / proxy,
            plain / proxy
        );
        println!("| {name}: MB/s | {:.0} | {:.0} | {:.2} |", mb / plain, mb / proxy, plain / proxy);
    }
    let direct = round_trips(None, pings);
    for (label, relay) in [("plain forwarder", Relay::Plain), ("gdvariant proxy", Relay::Proxy)] {
        let via = round_trips(Some(relay), pings);
        println!(
            "| round trip of a 100 B frame, added by the {label}: p50 / p99 | {:.1} / {:.1} µs | (direct: {:.1} / {:.1} µs) | |",
            (percentile(&via, 50) - percentile(&direct, 50)) * 1e6,
            (percentile(&via, 99) - percentile(&direct, 99)) * 1e6,
            percentile(&direct, 50) * 1e6,
            percentile(&direct, 99) * 1e6,
        );
    }
}

/// `count` frames of 64 to 256 bytes: dictionaries as a game sends them.
fn small_frames(count: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    for i in 0..count {
        let pad = "x".repeat(i % 170);
        framing::append_frame_with(
            &mut out,
            LengthPrefix::stream_peer(false),
            EncodeOptions::godot4(),
            |w| {
                w.begin_dictionary(4)?;
                w.string("cmd")?;
                w.string("move")?;
                w.string("seq")?;
                w.int(i as i64)?;
                w.string("pos")?;
                w.vector2(gdvariant::math::Vector2 { x: i as f32, y: 2.5 })?;
                w.string("note")?;
                w.string(&pad)
            },
        )
        .unwrap();
    }
    (out, count)
}

/// `count` frames of about 64 KB: an array of 8000 ints (each element is walked).
fn large_frames(count: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    for i in 0..count {
        framing::append_frame_with(
            &mut out,
            LengthPrefix::stream_peer(false),
            EncodeOptions::godot4(),
            |w| {
                w.begin_array(8000)?;
                for j in 0..8000 {
                    w.int((i + j) as i64)?;
                }
                Ok(())
            },
        )
        .unwrap();
    }
    (out, count)
}

#[derive(Clone, Copy)]
enum Relay {
    Plain,
    Proxy,
}

/// A relay process between here and `upstream`, and its address.
fn start(relay: Relay, upstream: SocketAddr) -> (Child, SocketAddr) {
    let mut command = match relay {
        Relay::Plain => {
            let mut c = Command::new(std::env::current_exe().unwrap());
            c.args(["--plain-forwarder", &upstream.to_string()]);
            c
        }
        Relay::Proxy => {
            let mut c = Command::new(env!("CARGO_BIN_EXE_gdvariant"));
            c.args(["proxy", "--listen", "127.0.0.1:0", "--upstream", &upstream.to_string()]);
            c.args(["--max-frame", "1000000"]);
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

/// Stops a relay: Ctrl-C (SIGINT), then, if it has not ended within 5 seconds, SIGKILL.
fn stop(mut child: Child) {
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Seconds to push `stream` through `relay` into a sink, until the sink has every byte.
fn throughput(relay: Relay, stream: &[u8]) -> f64 {
    let sink = TcpListener::bind("127.0.0.1:0").unwrap();
    let sink_addr = sink.local_addr().unwrap();
    let expected = stream.len();
    let counting = std::thread::spawn(move || {
        let (mut conn, _) = sink.accept().unwrap();
        let mut buffer = vec![0u8; 1 << 16];
        let mut total = 0;
        while total < expected {
            match conn.read(&mut buffer).unwrap() {
                0 => break,
                n => total += n,
            }
        }
        (Instant::now(), total)
    });
    let (child, addr) = start(relay, sink_addr);
    let mut client = TcpStream::connect(addr).unwrap();
    client.set_nodelay(true).unwrap();
    let started = Instant::now();
    for piece in stream.chunks(1 << 16) {
        client.write_all(piece).unwrap();
    }
    let (ended, total) = counting.join().unwrap();
    assert_eq!(total, expected, "every byte arrived");
    let _ = client.shutdown(Shutdown::Both);
    stop(child);
    ended.duration_since(started).as_secs_f64()
}

/// Round-trip times of a 100-byte frame, through `relay` or directly, to an echo server.
fn round_trips(relay: Option<Relay>, count: usize) -> Vec<f64> {
    let echo = TcpListener::bind("127.0.0.1:0").unwrap();
    let echo_addr = echo.local_addr().unwrap();
    std::thread::spawn(move || {
        let (mut conn, _) = echo.accept().unwrap();
        conn.set_nodelay(true).unwrap();
        let mut buffer = vec![0u8; 1 << 16];
        while let Ok(n @ 1..) = conn.read(&mut buffer) {
            if conn.write_all(&buffer[..n]).is_err() {
                break;
            }
        }
    });
    let relay = relay.map(|r| start(r, echo_addr));
    let addr = relay.as_ref().map_or(echo_addr, |(_, addr)| *addr);
    let mut client = TcpStream::connect(addr).unwrap();
    client.set_nodelay(true).unwrap();
    let (frame, _) = small_frames(1);
    let mut back = vec![0u8; frame.len()];
    let mut times = Vec::with_capacity(count);
    for i in 0..count + 100 {
        let start = Instant::now();
        client.write_all(&frame).unwrap();
        client.read_exact(&mut back).unwrap();
        if i >= 100 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    drop(client);
    if let Some((child, _)) = relay {
        stop(child);
    }
    times.sort_by(f64::total_cmp);
    times
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn percentile(sorted: &[f64], p: usize) -> f64 {
    sorted[(sorted.len() - 1) * p / 100]
}

/// The plain forwarder: accepts on 127.0.0.1:0, prints the same `listening` line as the proxy,
/// and copies bytes both ways, 64 KiB at a time, until Ctrl-C.
fn plain_forwarder(upstream: &str) {
    let upstream: SocketAddr = upstream.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        // One Ctrl-C listener for the whole run: a listener made anew on each turn of the loop
        // would miss a signal that arrives between two of them.
        let stop = tokio::signal::ctrl_c();
        tokio::pin!(stop);
        eprintln!(r#"{{"event":"listening","addr":"{}"}}"#, listener.local_addr().unwrap());
        loop {
            tokio::select! {
                _ = &mut stop => return,
                accepted = listener.accept() => {
                    let (client, _) = accepted.unwrap();
                    tokio::spawn(async move {
                        let server = tokio::net::TcpStream::connect(upstream).await.unwrap();
                        let _ = (client.set_nodelay(true), server.set_nodelay(true));
                        let (cr, cw) = client.into_split();
                        let (sr, sw) = server.into_split();
                        let _ = tokio::join!(copy(cr, sw), copy(sr, cw));
                    });
                }
            }
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
}

async fn copy(mut from: tokio::net::tcp::OwnedReadHalf, mut to: tokio::net::tcp::OwnedWriteHalf) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buffer = vec![0u8; 64 << 10];
    while let Ok(n @ 1..) = from.read(&mut buffer).await {
        if to.write_all(&buffer[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}
