//! `gdvariant proxy --enet` on loopback, between two ENet peers of the test (rusty_enet, the
//! crate the proxy uses): a client speaking as Godot 3's `NetworkedMultiplayerENet` (8-byte
//! header, then one value per packet) and a server. Good packets arrive on their channel with
//! their delivery flags, large ones reassembled; packets Godot would refuse are dropped;
//! connect data and disconnects pass through.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use rusty_enet::{Event, Host, HostSettings, Packet, PacketKind, PeerID};

use crate::support::*;

pub type UdpHost = Host<UdpSocket>;

/// A host on a loopback port.
pub fn host(peers: usize) -> UdpHost {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let settings = HostSettings { peer_limit: peers, channel_limit: 8, ..Default::default() };
    Host::new(socket, settings).unwrap()
}

/// ENet's flags of a received packet (rusty_enet 0.4.1's `kind()` always says reliable; its
/// `Debug` shows the flags).
fn flags(packet: &Packet) -> u32 {
    let shown = format!("{packet:?}");
    let rest = shown.split_once("flags: ").unwrap().1;
    rest.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

/// What a host saw.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    Connect(u32, usize),
    Receive(u8, u32, Vec<u8>),
    Disconnect,
}

/// Services both hosts until `done` holds of what the server and the client saw.
pub fn run(
    server: &mut UdpHost,
    client: &mut UdpHost,
    seen: &mut (Vec<Seen>, Vec<Seen>),
    done: impl Fn(&(Vec<Seen>, Vec<Seen>)) -> bool,
) {
    let start = Instant::now();
    while !done(seen) {
        assert!(start.elapsed() < PATIENCE, "waited; seen: {seen:?}");
        for (host, log) in [(&mut *server, &mut seen.0), (&mut *client, &mut seen.1)] {
            while let Some(event) = host.service().unwrap() {
                log.push(match event {
                    Event::Connect { peer, data } => Seen::Connect(data, peer.channel_count()),
                    Event::Receive { channel_id, packet, .. } => {
                        Seen::Receive(channel_id, flags(&packet), packet.data().to_vec())
                    }
                    Event::Disconnect { .. } => Seen::Disconnect,
                });
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// `seen` in channel order (ENet keeps order per channel, not across channels).
fn by_channel(seen: &[Seen]) -> Vec<&Seen> {
    let mut out: Vec<&Seen> = seen.iter().collect();
    out.sort_by_key(|s| match s {
        Seen::Receive(channel, ..) => u16::from(*channel) + 1,
        _ => 0,
    });
    out
}

/// A Godot 3 ENet packet: the header (source, target), then `value`.
pub fn packet(source: u32, target: i32, value: &[u8]) -> Vec<u8> {
    let mut out = source.to_le_bytes().to_vec();
    out.extend(target.to_le_bytes());
    out.extend_from_slice(value);
    out
}

/// Godot 3's int `n`.
pub fn int(n: u32) -> Vec<u8> {
    [2u32, n].iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Godot 3's `PoolByteArray` of `len` bytes.
pub fn bytes(len: u32) -> Vec<u8> {
    let mut out = [20u32, len].iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    out.extend((0..len).map(|i| (i % 251) as u8));
    out.resize(out.len().next_multiple_of(4), 0);
    out
}

/// The client's connection and the server's peer once both saw the connect.
pub fn connect(
    proxy: SocketAddr,
    data: u32,
    server: &mut UdpHost,
    client: &mut UdpHost,
    seen: &mut (Vec<Seen>, Vec<Seen>),
) -> PeerID {
    let id = client.connect(proxy, 3, data).unwrap().id();
    run(server, client, seen, |(s, c)| !s.is_empty() && !c.is_empty());
    id
}

#[test]
fn enet_packets_keep_channel_and_flags_and_refused_ones_are_dropped() {
    let mut server = host(4);
    let upstream = server.socket().local_addr().unwrap();
    let proxy = Proxy::start(&["--enet", "--godot", "3", "--upstream", &upstream.to_string()]);
    let mut client = host(1);
    let mut seen = (Vec::new(), Vec::new());
    let id = connect(proxy.addr, 4242, &mut server, &mut client, &mut seen);
    // The server sees the client's connect data and channel count.
    assert_eq!(seen.0, vec![Seen::Connect(4242, 3)]);
    let big = bytes(5000); // several fragments
    let sends: Vec<(u8, PacketKind, Vec<u8>)> = vec![
        (1, PacketKind::Reliable, packet(4242, 1, &int(1))),
        (2, PacketKind::Unreliable { sequenced: false }, packet(4242, 1, &int(2))),
        (1, PacketKind::Reliable, packet(4242, 1, &[0xFF, 0, 0, 0])), // unknown type
        (2, PacketKind::Unreliable { sequenced: true }, packet(4242, 1, &int(3))),
        (1, PacketKind::Reliable, packet(4243, 1, &int(4))), // not the client's id
        (0, PacketKind::Reliable, packet(4242, 1, &int(5))), // the system channel
        (1, PacketKind::Reliable, vec![1, 2, 3]),            // shorter than the header
        (1, PacketKind::Reliable, packet(4242, 1, &int(6)[..6])), // cut short
        (1, PacketKind::Reliable, packet(4242, 1, &big)),
        (1, PacketKind::Reliable, packet(4242, 1, &int(7))),
    ];
    for (channel, kind, data) in &sends {
        client.peer_mut(id).send(*channel, &Packet::new(data.clone(), *kind)).unwrap();
    }
    run(&mut server, &mut client, &mut seen, |(s, _)| s.len() >= 6);
    let expected = vec![
        Seen::Connect(4242, 3),
        Seen::Receive(1, 1, packet(4242, 1, &int(1))),
        Seen::Receive(2, 2, packet(4242, 1, &int(2))),
        Seen::Receive(2, 0, packet(4242, 1, &int(3))),
        Seen::Receive(1, 1, packet(4242, 1, &big)),
        Seen::Receive(1, 1, packet(4242, 1, &int(7))),
    ];
    assert_eq!(by_channel(&seen.0), by_channel(&expected));
    // The server's packets: a system message, a good value unsequenced, a bad one, a good one.
    let server_peer = server.connected_peers().next().unwrap().id();
    let replies: Vec<(u8, PacketKind, Vec<u8>)> = vec![
        (0, PacketKind::Reliable, [0u32, 99].iter().flat_map(|w| w.to_le_bytes()).collect()),
        (2, PacketKind::Unreliable { sequenced: false }, packet(1, 4242, &int(8))),
        (1, PacketKind::Reliable, packet(1, 4242, &[0xEE, 0, 0, 0])),
        (1, PacketKind::Reliable, packet(1, 4242, &int(9))),
    ];
    for (channel, kind, data) in &replies {
        server.peer_mut(server_peer).send(*channel, &Packet::new(data.clone(), *kind)).unwrap();
    }
    run(&mut server, &mut client, &mut seen, |(_, c)| c.len() >= 4);
    let expected = [
        Seen::Connect(0, 3),
        Seen::Receive(0, 1, replies[0].2.clone()),
        Seen::Receive(1, 1, packet(1, 4242, &int(9))),
        Seen::Receive(2, 2, packet(1, 4242, &int(8))),
    ];
    assert_eq!(by_channel(&seen.1), by_channel(&expected));
    // The client's disconnect reaches the server.
    client.peer_mut(id).disconnect(4242);
    run(&mut server, &mut client, &mut seen, |(s, _)| s.last() == Some(&Seen::Disconnect));
    let events = proxy.wait_for("drop", 6);
    let up = events.iter().filter(|e| e["direction"] == "to_server").count();
    assert_eq!(up, 5, "{events:?}");
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    assert_eq!(summary["forwarded"]["to_server"]["frames"], 5, "{summary}");
    assert_eq!(summary["forwarded"]["to_client"]["frames"], 3, "{summary}");
    assert_eq!(summary["by_type"]["PoolByteArray"]["frames"], 1, "{summary}");
    assert_eq!(summary["closes"]["closed"], 1, "{summary}");
}

#[test]
fn enet_peer_ids_godot_refuses_are_refused_and_server_disconnects_pass_on() {
    let mut server = host(4);
    let upstream = server.socket().local_addr().unwrap();
    let proxy = Proxy::start(&["--enet", "--godot", "3", "--upstream", &upstream.to_string()]);
    // Connect data 1 is the server's id: the proxy disconnects the client.
    let mut refused = host(1);
    let mut seen = (Vec::new(), Vec::new());
    refused.connect(proxy.addr, 3, 1).unwrap();
    run(&mut server, &mut refused, &mut seen, |(_, c)| c.contains(&Seen::Disconnect));
    assert!(seen.0.is_empty(), "{seen:?}");
    let closes = proxy.wait_for("close", 1);
    assert_eq!(closes[0]["reason"], "invalid_peer_id");
    // A server's disconnect reaches the client.
    let mut client = host(1);
    let mut seen = (Vec::new(), Vec::new());
    connect(proxy.addr, 777, &mut server, &mut client, &mut seen);
    let server_peer = server.connected_peers().next().unwrap().id();
    server.peer_mut(server_peer).disconnect(0);
    run(&mut server, &mut client, &mut seen, |(_, c)| c.contains(&Seen::Disconnect));
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    assert_eq!(summary["connections"], 2, "{summary}");
    assert_eq!(summary["closes"]["closed"], 1, "{summary}");
}

#[test]
fn enet_options_that_make_no_sense_are_refused() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gdvariant"))
            .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9", "--enet"])
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        &["--websocket"][..],
        &["--big-endian"],
        &["--prefix", "stream-peer"],
        &["--max-connections", "5000"],
        &["--multiplayer", "--drop-if", "0=1"],
    ] {
        let out = run(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9", "--multiplayer"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--websocket or --enet"));
    // A --drop-if the multiplayer proxy cannot apply is refused over WebSocket too, not ignored.
    for rule in ["--drop-if", "--drop-if-from-client", "--drop-if-from-server"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gdvariant"))
            .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9"])
            .args(["--websocket", "--multiplayer", rule, "cmd=quit"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{rule}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("filter calls with --rules"),
            "{rule}"
        );
    }
}

#[test]
fn godot4_enet_packets_are_one_value_each() {
    let mut server = host(4);
    let upstream = server.socket().local_addr().unwrap();
    let proxy = Proxy::start(&["--enet", "--godot", "4", "--upstream", &upstream.to_string()]);
    let mut client = host(1);
    let mut seen = (Vec::new(), Vec::new());
    // Godot 4 adds no header, and a raw ENet connection's data need not be a peer id.
    let id = connect(proxy.addr, 0, &mut server, &mut client, &mut seen);
    assert_eq!(seen.0, vec![Seen::Connect(0, 3)]);
    let good = [2u8, 0, 0, 0, 42, 0, 0, 0]; // int 42, 32-bit
    let cut = [2u8, 0, 0, 0]; // int without its bytes
    let unreliable = PacketKind::Unreliable { sequenced: true };
    client.peer_mut(id).send(0, &Packet::new(cut.to_vec(), PacketKind::Reliable)).unwrap();
    client.peer_mut(id).send(0, &Packet::new(good.to_vec(), PacketKind::Reliable)).unwrap();
    client.peer_mut(id).send(2, &Packet::new(good.to_vec(), unreliable)).unwrap();
    run(&mut server, &mut client, &mut seen, |(s, _)| s.len() >= 3);
    let expected = [
        Seen::Connect(0, 3),
        Seen::Receive(0, 1, good.to_vec()),
        Seen::Receive(2, 0, good.to_vec()),
    ];
    assert_eq!(by_channel(&seen.0), by_channel(&expected));
    let drops = proxy.wait_for("drop", 1);
    assert_eq!(drops[0]["len"], 4, "{drops:?}");
    let (status, events) = proxy.stop();
    assert!(status.success());
    assert_eq!(summary(&events)["forwarded"]["to_server"]["frames"], 2);
}
