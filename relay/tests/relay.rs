//! The relay API on real sockets: a filter with per-connection state and an observer that
//! records every event, over TCP and UDP on loopback, against real upstream servers; and a run
//! that ends when told to.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
#![allow(clippy::arithmetic_side_effects, missing_docs)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gdvariant::framing::LengthPrefix;
use gdvariant_relay::{
    Config, Connection, Direction, Dropped, End, Filter, Frame, Observer, Relay, Tally, Transport,
    Verdict,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};

/// A Godot 4 int, as `var_to_bytes` writes it.
fn int(n: u8) -> Vec<u8> {
    vec![2, 0, 0, 0, n, 0, 0, 0]
}

/// `payload` under the stream peer's prefix.
fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

/// Drops every second value a client sends, counting per connection; what the server sends all
/// goes on.
struct EveryOther;

impl Filter for EveryOther {
    type State = u32;

    fn open(&self, connection: &Connection) -> u32 {
        assert_eq!(connection.peer_id, None);
        0
    }

    fn judge(&self, seen: &mut u32, frame: &Frame<'_>) -> Verdict {
        assert!(frame.value().is_some(), "a values relay shows the value");
        assert_eq!(frame.bytes().len(), 8, "without the prefix");
        if frame.direction() == Direction::ToClient {
            return Verdict::Forward;
        }
        *seen += 1;
        if *seen % 2 == 0 {
            Verdict::drop("every_other", format!("#{seen}"))
        } else {
            Verdict::Forward
        }
    }
}

/// Every event, as a line.
#[derive(Clone, Default)]
struct Record(Arc<Mutex<Vec<String>>>);

impl Record {
    fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    fn push(&self, line: String) {
        self.0.lock().unwrap().push(line);
    }
}

impl Observer for Record {
    fn accepted(&self, connection: &Connection) {
        self.push(format!("accepted {}", connection.number));
    }

    fn refused(&self, _: SocketAddr) {
        self.push("refused".into());
    }

    fn dropped(&self, dropped: &Dropped<'_>) {
        let direction = dropped.direction.name();
        self.push(format!(
            "dropped {direction} at {} ({}): {}",
            dropped.offset, dropped.len, dropped.reason
        ));
    }

    fn forwarded(&self, _: &Connection, tally: &Tally) {
        let total = tally.total();
        self.push(format!("forwarded {} {}", tally.direction().name(), total.messages));
    }

    fn closed(&self, _: &Connection, end: End, _: Option<&str>) {
        self.push(format!("closed {}", end.name()));
    }
}

/// A TCP server that echoes every byte.
async fn tcp_echo() -> SocketAddr {
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

#[tokio::test]
async fn a_stateful_filter_and_an_observer_over_tcp() {
    let upstream = tcp_echo().await;
    let transport = Transport::Tcp(LengthPrefix::stream_peer(false));
    let config = Config::new(
        gdvariant::Version::Godot4,
        transport,
        "127.0.0.1:0".parse().unwrap(),
        upstream.to_string(),
    );
    let relay = Relay::bind(config).await.unwrap();
    let addr = relay.local_addr();
    let record = Record::default();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(relay.run(EveryOther, record.clone(), stopped));

    let mut client = TcpStream::connect(addr).await.unwrap();
    let mut sent = Vec::new();
    for n in 1..=6 {
        sent.extend(framed(&int(n)));
        if n == 3 {
            sent.extend(framed(&[0xEE, 0, 0, 0])); // no such type: Godot refuses it
        }
    }
    client.write_all(&sent).await.unwrap();
    client.shutdown().await.unwrap();
    let mut echoed = Vec::new();
    client.read_to_end(&mut echoed).await.unwrap();
    // The 1st, 3rd and 5th values go through and come back; the rest never reach the server.
    let expected: Vec<u8> = [1, 3, 5].iter().flat_map(|&n| framed(&int(n))).collect();
    assert_eq!(echoed, expected);

    tokio::time::sleep(Duration::from_millis(100)).await;
    let lines = record.lines();
    assert_eq!(lines.first().map(String::as_str), Some("accepted 0"), "{lines:?}");
    let dropped: Vec<&String> = lines.iter().filter(|l| l.starts_with("dropped")).collect();
    assert_eq!(
        dropped,
        [
            "dropped to_server at 12 (12): every_other",
            "dropped to_server at 36 (8): invalid_value",
            "dropped to_server at 44 (12): every_other",
            "dropped to_server at 68 (12): every_other",
        ],
        "{lines:?}"
    );
    let count = |direction: &str| -> u64 {
        lines
            .iter()
            .filter_map(|l| l.strip_prefix(&format!("forwarded {direction} ")))
            .map(|n| n.parse::<u64>().unwrap())
            .sum()
    };
    assert_eq!((count("to_server"), count("to_client")), (3, 3), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("closed closed"), "{lines:?}");

    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), running).await.unwrap().unwrap().unwrap();
}

#[tokio::test]
async fn a_closure_filter_over_udp_and_the_client_limit() {
    let server = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let upstream = server.local_addr().unwrap();
    let config = Config::new(
        gdvariant::Version::Godot4,
        Transport::Udp,
        "127.0.0.1:0".parse().unwrap(),
        upstream.to_string(),
    )
    .max_connections(1);
    let relay = Relay::bind(config).await.unwrap();
    let addr = relay.local_addr();
    let record = Record::default();
    // Only even ints pass.
    let filter = |frame: &Frame| match frame.value().and_then(|v| v.as_int()) {
        Some(n) if n % 2 == 0 => Verdict::Forward,
        _ => Verdict::drop("odd", "not an even int"),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(relay.run(filter, record.clone(), stopped));

    let client = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    client.connect(addr).await.unwrap();
    for n in 1..=4 {
        client.send(&int(n)).await.unwrap();
    }
    let mut buffer = [0u8; 64];
    let mut received = Vec::new();
    for _ in 0..2 {
        let (len, from) =
            tokio::time::timeout(Duration::from_secs(5), server.recv_from(&mut buffer))
                .await
                .unwrap()
                .unwrap();
        received.push(buffer[..len].to_vec());
        // The server answers; the answer reaches the client through the relay.
        server.send_to(&buffer[..len], from).await.unwrap();
    }
    assert_eq!(received, [int(2), int(4)]);
    for expected in [int(2), int(4)] {
        let len = tokio::time::timeout(Duration::from_secs(5), client.recv(&mut buffer))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(buffer[..len], expected[..]);
    }
    // A second client address is over the limit of one.
    let other = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    other.send_to(&int(6), addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let lines = record.lines();
    assert_eq!(lines.iter().filter(|l| l.ends_with(": odd")).count(), 2, "{lines:?}");
    assert!(lines.contains(&"refused".to_string()), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("accepted")).count(), 1, "{lines:?}");

    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), running).await.unwrap().unwrap().unwrap();
}
