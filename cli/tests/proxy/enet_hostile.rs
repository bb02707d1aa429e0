//! `gdvariant proxy --enet` under hostile ENet peers, on loopback: half-open handshakes (a
//! CONNECT never followed by anything, far past `--max-connections`) and fragments that lie
//! about their packet (a total of 1 GiB, a million fragments, offsets past the end, one
//! fragment more than are sent). The proxy stays up, allocates nothing the lies ask for (ENet's
//! packet and reassembly limits are `--max-frame`), forwards nothing of them, and an honest
//! session that was connected before the attack carries on.
//!
//! Not a lie ENet refuses: a total larger than the fragments with the right count completes,
//! zero-padded to the total, as ENet reassembles it (Godot's `get_var` ignores bytes after the
//! value); the proxy forwards what ENet delivered.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use rusty_enet::SocketOptions;
use rusty_enet::{Host, HostSettings, MTU_MAX, Packet, PacketKind, PacketReceived, Socket};

use crate::enet::{Seen, UdpHost, connect, host, int, packet, run};
use crate::support::*;

/// How a [`Liar`] rewrites the first fragment header of each datagram it sends.
#[derive(Clone, Copy, Debug)]
enum Lie {
    /// The packet's total length is 1 GiB.
    HugeTotal,
    /// The packet has a million fragments.
    MillionFragments,
    /// The fragment's offset is past the packet's end.
    OffsetPastEnd,
    /// One fragment more than are sent: the packet never completes, and its fragments wait
    /// in reassembly (bounded by `--max-frame` per peer).
    OneMoreFragment,
}

/// A UDP socket that rewrites the SEND_FRAGMENT commands of what it sends.
struct Liar {
    socket: UdpSocket,
    lie: Lie,
    rewritten: usize,
}

/// Rewrites every SEND_FRAGMENT (8) and SEND_UNRELIABLE_FRAGMENT (12) command of an ENet
/// datagram (no checksum, no compression: the defaults) with `lie`; returns how many.
fn rewrite_fragments(datagram: &mut [u8], lie: Lie) -> usize {
    let peer_id = u16::from_be_bytes([datagram[0], datagram[1]]);
    let mut at = if peer_id & 0x8000 != 0 { 4 } else { 2 };
    let mut rewritten = 0;
    while at + 4 <= datagram.len() {
        let command = datagram[at] & 0x0F;
        let size = [0usize, 8, 48, 44, 8, 4, 6, 8, 24, 8, 12, 16, 24][usize::from(command)];
        let data = match command {
            6 => u16::from_be_bytes([datagram[at + 4], datagram[at + 5]]),
            7 | 8 | 9 | 12 => u16::from_be_bytes([datagram[at + 6], datagram[at + 7]]),
            _ => 0,
        };
        if command == 8 || command == 12 {
            let field = |offset: usize| at + offset..at + offset + 4;
            let total = u32::from_be_bytes(datagram[field(16)].try_into().unwrap());
            match lie {
                Lie::HugeTotal => datagram[field(16)].copy_from_slice(&(1u32 << 30).to_be_bytes()),
                Lie::MillionFragments => {
                    datagram[field(8)].copy_from_slice(&1_000_000u32.to_be_bytes())
                }
                Lie::OffsetPastEnd => {
                    datagram[field(20)].copy_from_slice(&(total + 100).to_be_bytes())
                }
                Lie::OneMoreFragment => {
                    let count = u32::from_be_bytes(datagram[field(8)].try_into().unwrap());
                    datagram[field(8)].copy_from_slice(&(count + 1).to_be_bytes())
                }
            }
            rewritten += 1;
        }
        at += size + usize::from(data);
    }
    rewritten
}

impl Socket for Liar {
    type Address = SocketAddr;
    type Error = std::io::Error;

    fn init(&mut self, _: SocketOptions) -> std::io::Result<()> {
        self.socket.set_nonblocking(true)
    }

    fn send(&mut self, address: SocketAddr, buffer: &[u8]) -> std::io::Result<usize> {
        let mut datagram = buffer.to_vec();
        self.rewritten += rewrite_fragments(&mut datagram, self.lie);
        match self.socket.send_to(&datagram, address) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(0),
            other => other,
        }
    }

    fn receive(
        &mut self,
        buffer: &mut [u8; MTU_MAX],
    ) -> std::io::Result<Option<(SocketAddr, PacketReceived)>> {
        match self.socket.recv_from(buffer) {
            Ok((len, from)) => Ok(Some((from, PacketReceived::Complete(len)))),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// An honest exchange: the client's int `n` reaches the server through the proxy. Asserts
/// that nothing else reached the server meanwhile but connects.
fn still_honest(server: &mut UdpHost, client: &mut UdpHost, id: rusty_enet::PeerID, n: u32) {
    let mut seen = (Vec::new(), Vec::new());
    let sent = packet(5000, 1, &int(n));
    client.peer_mut(id).send(1, &Packet::reliable(sent.clone())).unwrap();
    let honest = Seen::Receive(1, 1, sent);
    run(server, client, &mut seen, |(s, _)| s.contains(&honest));
    for event in &seen.0 {
        assert!(matches!(event, Seen::Connect(..)) || *event == honest, "{event:?} arrived");
    }
}

#[test]
fn half_open_handshakes_and_lying_fragments_neither_stop_the_proxy_nor_an_honest_session() {
    let mut server = host(64);
    let upstream = server.socket().local_addr().unwrap();
    let proxy = Proxy::start(&[
        "--enet",
        "--godot",
        "3",
        "--max-connections",
        "12",
        "--max-frame",
        "65536",
        "--upstream",
        &upstream.to_string(),
    ]);
    let mut client = host(1);
    let mut seen = (Vec::new(), Vec::new());
    let id = connect(proxy.addr, 5000, &mut server, &mut client, &mut seen);
    still_honest(&mut server, &mut client, id, 1);

    // Liars: each connects honestly, then sends large packets whose fragments lie.
    let mut rewritten = 0;
    for (n, lie) in
        [Lie::HugeTotal, Lie::MillionFragments, Lie::OffsetPastEnd, Lie::OneMoreFragment]
            .into_iter()
            .enumerate()
    {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let settings = HostSettings { peer_limit: 1, channel_limit: 8, ..Default::default() };
        let mut liar = Host::new(Liar { socket, lie, rewritten: 0 }, settings).unwrap();
        let liar_id = 7000 + n as u32;
        let peer = liar.connect(proxy.addr, 3, liar_id).unwrap().id();
        let start = Instant::now();
        let mut connected = false;
        while !connected {
            assert!(start.elapsed() < PATIENCE, "{lie:?}: the liar could not connect");
            while let Some(event) = liar.service().unwrap() {
                connected |= matches!(event, rusty_enet::Event::Connect { .. });
            }
            if let Some(event) = server.service().unwrap() {
                assert!(matches!(event, rusty_enet::Event::Connect { .. }), "{event:?}");
            }
            client.service().unwrap();
            std::thread::sleep(Duration::from_millis(1));
        }
        for size in [5_000u32, 40_000] {
            let value = crate::enet::bytes(size);
            liar.peer_mut(peer).send(1, &Packet::reliable(packet(liar_id, 1, &value))).unwrap();
            let unreliable = PacketKind::AlwaysUnreliable { sequenced: false };
            liar.peer_mut(peer)
                .send(2, &Packet::new(packet(liar_id, 1, &value), unreliable))
                .unwrap();
        }
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            while liar.service().unwrap().is_some() {}
            std::thread::sleep(Duration::from_millis(1));
        }
        rewritten += liar.socket().rewritten;
        still_honest(&mut server, &mut client, id, 10 + n as u32);
    }
    assert!(rewritten >= 8, "the liars sent {rewritten} rewritten fragments");

    // Half-open handshakes: 40 peers send their CONNECT and are never serviced again. They
    // hold the proxy's free peer slots until ENet times them out (as they would a Godot
    // server's); the connected sessions go on.
    let mut half_open = Vec::new();
    for _ in 0..40 {
        let mut peer = host(1);
        peer.connect(proxy.addr, 3, 6000).unwrap();
        peer.service().unwrap();
        half_open.push(peer);
    }
    still_honest(&mut server, &mut client, id, 2);

    // Nothing a liar fragmented reached the server (each exchange asserts it), nor later.
    std::thread::sleep(Duration::from_millis(300));
    still_honest(&mut server, &mut client, id, 99);
    drop(half_open);
    let (status, _) = proxy.stop();
    assert!(status.success());
}
