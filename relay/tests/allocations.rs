//! Heap allocations on the relay's path of accepted messages: none per message. Counted per
//! thread (`allocation_counter`), with the relay, the client and the server on one
//! current-thread runtime, for a stream of `n` and of `4n` small frames: the second may
//! allocate a little more (buffers settle at another size), never in proportion to the frames.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects, missing_docs)]

use gdvariant::framing::LengthPrefix;
use gdvariant_relay::{Config, Frame, Relay, Transport, Verdict};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};

/// `n` frames of Godot 4 dictionaries `{"id": i, "name": "xx..."}` of 64-256 bytes, prefixed.
fn small_frames(n: usize) -> Vec<u8> {
    let mut stream = Vec::new();
    for i in 0..n {
        let name = vec![b'x'; 40 + (i * 37) % 160];
        let string = |out: &mut Vec<u8>, text: &[u8]| {
            out.extend(4u32.to_le_bytes());
            out.extend((text.len() as u32).to_le_bytes());
            out.extend(text);
            out.resize(out.len().next_multiple_of(4), 0);
        };
        let mut value = Vec::new();
        value.extend([27, 0, 0, 0, 2, 0, 0, 0]);
        string(&mut value, b"id");
        value.extend([2, 0, 0, 0]);
        value.extend((i as u32).to_le_bytes());
        string(&mut value, b"name");
        string(&mut value, &name);
        stream.extend((value.len() as u32).to_le_bytes());
        stream.extend(value);
    }
    stream
}

/// Forwards everything, reading every value's head (what a filter that looks does).
fn look(frame: &Frame) -> Verdict {
    assert!(frame.value().is_some_and(|v| v.as_dictionary().is_some()));
    Verdict::Forward
}

/// Allocations of one whole TCP exchange of `stream` through a relay on this thread, from the
/// first message to the last (the listener, connections and buffers made before are not
/// counted), and the bytes the server received.
fn tcp_allocations(stream: &[u8]) -> (u64, usize) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (mut client, mut server, stop, running, first) = runtime.block_on(async {
        let upstream = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let transport = Transport::Tcp(LengthPrefix::stream_peer(false));
        let addr = upstream.local_addr().unwrap().to_string();
        let relay = Relay::bind(Config::new(
            gdvariant::Version::Godot4,
            transport,
            "127.0.0.1:0".parse().unwrap(),
            addr,
        ))
        .await
        .unwrap();
        let listen = relay.local_addr();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(relay.run(look, (), stopped));
        let mut client = TcpStream::connect(listen).await.unwrap();
        let (mut server, _) = upstream.accept().await.unwrap();
        // One frame first, so that the connection's buffers exist before counting.
        let first = 4 + u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;
        client.write_all(&stream[..first]).await.unwrap();
        let mut buffer = vec![0u8; 1 << 16];
        let mut received = 0;
        while received < first {
            received += server.read(&mut buffer).await.unwrap();
        }
        (client, server, stop, running, first)
    });
    let mut buffer = vec![0u8; 1 << 16];
    let mut received = first;
    let counted = allocation_counter::measure(|| {
        runtime.block_on(async {
            client.write_all(&stream[first..]).await.unwrap();
            client.shutdown().await.unwrap();
            loop {
                let n = server.read(&mut buffer).await.unwrap();
                if n == 0 {
                    break;
                }
                received += n;
            }
        })
    });
    runtime.block_on(async {
        stop.send(()).unwrap();
        running.await.unwrap().unwrap();
    });
    (counted.count_total, received)
}

#[test]
fn tcp_frames_are_forwarded_without_allocating_per_frame() {
    let (small, large) = (small_frames(2_000), small_frames(8_000));
    let (small_allocations, small_received) = tcp_allocations(&small);
    let (large_allocations, large_received) = tcp_allocations(&large);
    assert_eq!((small_received, large_received), (small.len(), large.len()));
    // 6,000 more frames, and at most a few more allocations (none per frame).
    assert!(
        large_allocations <= small_allocations + 16,
        "{small_allocations} allocations for 2,000 frames, {large_allocations} for 8,000"
    );
}

/// Allocations of `count` datagrams of `value` through a UDP relay (after the first, which
/// opens the client's session), and the datagrams the server received.
fn udp_allocations(value: &[u8], count: usize) -> (u64, usize) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (client, server, stop, running) = runtime.block_on(async {
        let server = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let addr = server.local_addr().unwrap().to_string();
        let config = Config::new(
            gdvariant::Version::Godot4,
            Transport::Udp,
            "127.0.0.1:0".parse().unwrap(),
            addr,
        );
        let relay = Relay::bind(config).await.unwrap();
        let listen = relay.local_addr();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(relay.run(look, (), stopped));
        let client = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        client.connect(listen).await.unwrap();
        let mut buffer = vec![0u8; 1 << 16];
        client.send(value).await.unwrap();
        server.recv(&mut buffer).await.unwrap();
        (client, server, stop, running)
    });
    let mut buffer = vec![0u8; 1 << 16];
    let mut received = 0;
    let counted = allocation_counter::measure(|| {
        runtime.block_on(async {
            for _ in 0..count {
                client.send(value).await.unwrap();
                // One at a time, so that none is lost to a full socket buffer.
                server.recv(&mut buffer).await.unwrap();
                received += 1;
            }
        })
    });
    runtime.block_on(async {
        stop.send(()).unwrap();
        running.await.unwrap().unwrap();
    });
    (counted.count_total, received)
}

#[test]
fn udp_datagrams_are_forwarded_without_allocating_per_datagram() {
    let stream = small_frames(1);
    let value = &stream[4..];
    let (small, small_received) = udp_allocations(value, 500);
    let (large, large_received) = udp_allocations(value, 2_000);
    assert_eq!((small_received, large_received), (500, 2_000));
    assert!(large <= small + 16, "{small} allocations for 500 datagrams, {large} for 2,000");
}
