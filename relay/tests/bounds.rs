//! The relay's work is linear in what it receives, whatever is sent: units counted (feature
//! `work-counter`: the relay's own per read, message, ended session, ENet datagram, event and
//! leg serviced, and the core's for each value's validation) on generated worst cases at two
//! sizes, with every task of the relay, the client and the server on the measuring thread (a
//! current-thread runtime), over TCP, UDP, WebSocket and ENet.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects, missing_docs)]

use std::net::SocketAddr;
use std::time::Duration;

use gdvariant::framing::LengthPrefix;
use gdvariant::{EncodeOptions, Options, Writer};
use gdvariant_relay::{Config, Frame, Relay, Transport, Verdict};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};

/// A value Godot accepts of about `n` bytes: nested arrays around a wide array of ints and
/// strings (the deepest and widest reads there are).
fn deep_and_wide(n: usize) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    for _ in 0..(n / 64).min(500) {
        writer.begin_array(1).unwrap();
    }
    let width = n / 12;
    writer.begin_array(width).unwrap();
    for i in 0..width {
        if i % 2 == 0 { writer.int(i as i64).unwrap() } else { writer.string("s").unwrap() }
    }
    writer.finish().unwrap()
}

/// The values a hostile client sends, about `n` bytes in all: big nested values, tiny values,
/// and values Godot refuses (an unknown type; an array that claims more than it holds).
fn hostile_values(n: usize) -> Vec<Vec<u8>> {
    let mut values = Vec::new();
    let mut total = 0;
    while total < n {
        for value in [
            deep_and_wide(4096),
            vec![2, 0, 0, 0, 7, 0, 0, 0],
            vec![0xEE, 0, 0, 0],
            vec![28, 0, 0, 0, 0xFF, 0xFF, 0, 0],
        ] {
            total += value.len();
            values.push(value);
        }
    }
    values
}

/// The core's units to validate each value.
fn validate_units(values: &[Vec<u8>]) -> u64 {
    gdvariant::work::measure(|| {
        for value in values {
            let _ = gdvariant::validate(value, Options::godot4());
        }
    })
    .1
}

/// A filter that reads the whole value (the worst a filter could ask of the relay's view).
fn count_elements(frame: &Frame) -> Verdict {
    if let Some(array) = frame.value().and_then(|v| v.as_array()) {
        let _ = array.len();
    }
    Verdict::Forward
}

/// Runs `exchange` against a relay over `transport` to `upstream` on a current-thread runtime,
/// returning the units of work of everything on it.
fn units_of<Fut: std::future::Future<Output = ()>>(
    transport: Transport,
    upstream: impl FnOnce() -> SocketAddr,
    exchange: impl FnOnce(SocketAddr) -> Fut,
) -> u64 {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    gdvariant::work::measure(|| {
        runtime.block_on(async {
            let config = Config::new(
                gdvariant::Version::Godot4,
                transport,
                "127.0.0.1:0".parse().unwrap(),
                upstream().to_string(),
            )
            .max_connections(4);
            let relay = Relay::bind(config).await.unwrap();
            let addr = relay.local_addr();
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let running = tokio::spawn(relay.run(count_elements, (), stopped));
            exchange(addr).await;
            stop.send(()).unwrap();
            running.await.unwrap().unwrap();
        })
    })
    .1
}

/// Asserts the work at `4n` is at most 6 times that at `n`, and within `factor` of validating
/// the same values (plus a constant for starting and stopping).
fn assert_linear(name: &str, factor: u64, measure: impl Fn(usize) -> (u64, u64)) {
    let n = 200_000;
    let (small, small_validate) = measure(n);
    let (large, large_validate) = measure(4 * n);
    assert!(large <= 6 * small.max(1), "{name}: {small} units at {n} bytes, {large} at 4x");
    for (units, validate) in [(small, small_validate), (large, large_validate)] {
        assert!(
            units <= factor * validate + 10_000,
            "{name}: {units} units, {validate} to validate the same values"
        );
    }
    assert!(large_validate > 0, "{name}: nothing was counted");
}

#[test]
fn tcp_work_is_linear_in_the_bytes_received() {
    assert_linear("tcp", 3, |n| {
        let values = hostile_values(n);
        let mut stream = Vec::new();
        for value in &values {
            stream.extend((value.len() as u32).to_le_bytes());
            stream.extend(value);
        }
        let upstream = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let upstream_addr = upstream.local_addr().unwrap();
        upstream.set_nonblocking(true).unwrap();
        let units = units_of(
            Transport::Tcp(LengthPrefix::stream_peer(false)),
            || upstream_addr,
            |addr| async move {
                let upstream = TcpListener::from_std(upstream).unwrap();
                let sink = tokio::spawn(async move {
                    let (mut server, _) = upstream.accept().await.unwrap();
                    let mut received = Vec::new();
                    server.read_to_end(&mut received).await.unwrap();
                    received.len()
                });
                let mut client = TcpStream::connect(addr).await.unwrap();
                // Written in uneven pieces, so frames arrive split.
                for piece in stream.chunks(1000 + 7) {
                    client.write_all(piece).await.unwrap();
                }
                client.shutdown().await.unwrap();
                assert!(sink.await.unwrap() > 0);
            },
        );
        (units, validate_units(&values))
    });
}

#[test]
fn udp_work_is_linear_in_the_datagrams_received_from_any_number_of_senders() {
    assert_linear("udp", 3, |n| {
        let values = hostile_values(n);
        let upstream = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let upstream_addr = upstream.local_addr().unwrap();
        let units = units_of(
            Transport::Udp,
            || upstream_addr,
            |addr| {
                let values = values.clone();
                async move {
                    // Senders come and go: more addresses than the relay serves at once.
                    let mut senders = Vec::new();
                    for _ in 0..8 {
                        senders.push(UdpSocket::bind("127.0.0.1:0").await.unwrap());
                    }
                    for (i, value) in values.iter().enumerate() {
                        senders[i % senders.len()].send_to(value, addr).await.unwrap();
                        if i % 64 == 0 {
                            tokio::task::yield_now().await;
                        }
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            },
        );
        drop(upstream);
        (units, validate_units(&values))
    });
}

#[test]
fn websocket_work_is_linear_in_the_messages_received() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    assert_linear("websocket", 3, |n| {
        let values = hostile_values(n);
        let upstream = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let upstream_addr = upstream.local_addr().unwrap();
        upstream.set_nonblocking(true).unwrap();
        let units = units_of(
            Transport::WebSocket,
            || upstream_addr,
            |addr| {
                let values = values.clone();
                async move {
                    let upstream = TcpListener::from_std(upstream).unwrap();
                    let sink = tokio::spawn(async move {
                        let (stream, _) = upstream.accept().await.unwrap();
                        let mut server = tokio_tungstenite::accept_async(stream).await.unwrap();
                        let mut received = 0usize;
                        while let Some(Ok(message)) = server.next().await {
                            received += usize::from(message.is_binary());
                        }
                        received
                    });
                    let url = format!("ws://{addr}/");
                    let (mut client, _) = tokio_tungstenite::connect_async(url).await.unwrap();
                    for value in &values {
                        client.send(Message::Binary(value.clone().into())).await.unwrap();
                    }
                    client.close(None).await.unwrap();
                    while let Some(Ok(_)) = client.next().await {}
                    // The values Godot accepts, half of them, reach the server.
                    assert_eq!(sink.await.unwrap(), values.len() / 2);
                }
            },
        );
        (units, validate_units(&values))
    });
}

#[test]
fn enet_work_is_linear_in_the_packets_received() {
    use rusty_enet::{Event, Host, HostSettings, Packet};
    let host = || {
        let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let settings = HostSettings { peer_limit: 4, channel_limit: 2, ..Default::default() };
        Host::new(socket, settings).unwrap()
    };
    assert_linear("enet", 3, |n| {
        let values = hostile_values(n);
        let mut server = host();
        let upstream_addr = server.socket().local_addr().unwrap();
        let units = units_of(
            Transport::Enet,
            || upstream_addr,
            |addr| {
                let values = values.clone();
                async move {
                    let mut client = host();
                    let peer = client.connect(addr, 1, 2).unwrap().id();
                    let (mut connected, mut received, mut gone) = (false, 0usize, false);
                    let mut sent = false;
                    let start = std::time::Instant::now();
                    // Both hosts serviced here, between the relay's turns on this thread.
                    while !gone {
                        assert!(start.elapsed() < Duration::from_secs(60), "enet exchange");
                        while let Some(event) = client.service().unwrap() {
                            match event {
                                Event::Connect { .. } => connected = true,
                                Event::Disconnect { .. } => gone = true,
                                Event::Receive { .. } => {}
                            }
                        }
                        while let Some(event) = server.service().unwrap() {
                            if let Event::Receive { .. } = event {
                                received += 1;
                            }
                        }
                        if connected && !sent {
                            for value in &values {
                                let packet = Packet::reliable(value.as_slice());
                                client.peer_mut(peer).send(0, &packet).unwrap();
                            }
                            sent = true;
                        }
                        // The values Godot accepts, half of them, reach the server; then leave.
                        if sent && received == values.len() / 2 && !gone {
                            client.peer_mut(peer).disconnect(0);
                        }
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    assert_eq!(received, values.len() / 2);
                }
            },
        );
        (units, validate_units(&values))
    });
}
