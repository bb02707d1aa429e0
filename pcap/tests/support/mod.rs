//! Captures written by the tests: a pcap writer (the format is a 24-byte header, then a
//! 16-byte record header before each packet), a pcapng writer (section, interface, enhanced
//! packets), and packets built by `etherparse`.
#![allow(dead_code, clippy::arithmetic_side_effects, clippy::unwrap_used)]

use etherparse::PacketBuilder;

/// The client of the test connections.
pub const CLIENT: ([u8; 4], u16) = ([10, 0, 0, 1], 50_000);
/// The server of the test connections.
pub const SERVER: ([u8; 4], u16) = ([10, 0, 0, 2], 7_000);

/// A pcap file of `packets` (link type `link`), one microsecond apart.
pub fn pcap(link: u32, packets: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&0i32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&262_144u32.to_le_bytes());
    out.extend_from_slice(&link.to_le_bytes());
    for (i, packet) in packets.iter().enumerate() {
        out.extend_from_slice(&1_700_000_000u32.to_le_bytes());
        out.extend_from_slice(&(i as u32).to_le_bytes());
        out.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        out.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        out.extend_from_slice(packet);
    }
    out
}

fn block(out: &mut Vec<u8>, kind: u32, body: &[u8]) {
    let len = 12 + body.len().div_ceil(4) * 4;
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(body);
    out.resize(out.len() + (4 - body.len() % 4) % 4, 0);
    out.extend_from_slice(&(len as u32).to_le_bytes());
}

/// A pcapng file of `packets` (one Ethernet interface, microseconds), one microsecond apart.
pub fn pcapng(packets: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut shb = Vec::new();
    shb.extend_from_slice(&0x1a2b_3c4du32.to_le_bytes());
    shb.extend_from_slice(&1u16.to_le_bytes());
    shb.extend_from_slice(&0u16.to_le_bytes());
    shb.extend_from_slice(&(-1i64).to_le_bytes());
    block(&mut out, 0x0a0d_0d0a, &shb);
    let mut idb = Vec::new();
    idb.extend_from_slice(&1u16.to_le_bytes());
    idb.extend_from_slice(&0u16.to_le_bytes());
    idb.extend_from_slice(&262_144u32.to_le_bytes());
    block(&mut out, 1, &idb);
    for (i, packet) in packets.iter().enumerate() {
        let time = 1_700_000_000_000_000u64 + i as u64;
        let mut epb = Vec::new();
        epb.extend_from_slice(&0u32.to_le_bytes());
        epb.extend_from_slice(&((time >> 32) as u32).to_le_bytes());
        epb.extend_from_slice(&(time as u32).to_le_bytes());
        epb.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        epb.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        epb.extend_from_slice(packet);
        epb.resize(epb.len() + (4 - packet.len() % 4) % 4, 0);
        block(&mut out, 6, &epb);
    }
    out
}

/// Which TCP flags a segment carries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flags {
    pub syn: bool,
    pub ack: bool,
    pub fin: bool,
    pub rst: bool,
}

/// An Ethernet frame holding a TCP segment from `from` to `to`.
pub fn tcp(
    from: ([u8; 4], u16),
    to: ([u8; 4], u16),
    seq: u32,
    flags: Flags,
    payload: &[u8],
) -> Vec<u8> {
    let mut builder = PacketBuilder::ethernet2([1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2])
        .ipv4(from.0, to.0, 64)
        .tcp(from.1, to.1, seq, 65_000);
    if flags.syn {
        builder = builder.syn();
    }
    if flags.ack {
        builder = builder.ack(1);
    }
    if flags.fin {
        builder = builder.fin();
    }
    if flags.rst {
        builder = builder.rst();
    }
    let mut out = Vec::new();
    builder.write(&mut out, payload).unwrap();
    out
}

/// An Ethernet frame holding a UDP datagram.
pub fn udp(from: ([u8; 4], u16), to: ([u8; 4], u16), payload: &[u8]) -> Vec<u8> {
    let builder = PacketBuilder::ethernet2([1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2])
        .ipv4(from.0, to.0, 64)
        .udp(from.1, to.1);
    let mut out = Vec::new();
    builder.write(&mut out, payload).unwrap();
    out
}

/// Godot 4's `int` `v` (`var_to_bytes`).
pub fn int(v: i32) -> Vec<u8> {
    let mut out = vec![2, 0, 0, 0];
    out.extend_from_slice(&v.to_le_bytes());
    out
}

/// `value` behind `put_var`'s 4-byte length.
pub fn frame(value: &[u8]) -> Vec<u8> {
    let mut out = (value.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(value);
    out
}

/// The handshake of the test connection: client ISN 1000, server ISN 5000.
pub fn handshake() -> Vec<Vec<u8>> {
    vec![
        tcp(CLIENT, SERVER, 1000, Flags { syn: true, ..Flags::default() }, &[]),
        tcp(SERVER, CLIENT, 5000, Flags { syn: true, ack: true, ..Flags::default() }, &[]),
        tcp(CLIENT, SERVER, 1001, Flags { ack: true, ..Flags::default() }, &[]),
    ]
}

/// The client's stream `stream` cut into segments of `size` bytes: (seq, bytes).
pub fn segments(stream: &[u8], size: usize) -> Vec<(u32, Vec<u8>)> {
    stream
        .chunks(size)
        .enumerate()
        .map(|(i, chunk)| (1001 + (i * size) as u32, chunk.to_vec()))
        .collect()
}

/// A client data segment.
pub fn data(seq: u32, bytes: &[u8]) -> Vec<u8> {
    tcp(CLIENT, SERVER, seq, Flags { ack: true, ..Flags::default() }, bytes)
}

/// A raw IPv6 packet (link type 101) from `from` to `to` holding one fragment: a Fragment
/// header (`next`, the offset in 8-byte units, more fragments, `id`), then `data`.
pub fn ipv6_fragment(
    from: [u8; 16],
    to: [u8; 16],
    id: u32,
    offset: u16,
    more: bool,
    next: u8,
    data: &[u8],
) -> Vec<u8> {
    let mut out = vec![0x60, 0, 0, 0];
    out.extend_from_slice(&((8 + data.len()) as u16).to_be_bytes());
    out.extend_from_slice(&[44, 64]); // next header: Fragment; hop limit
    out.extend_from_slice(&from);
    out.extend_from_slice(&to);
    out.extend_from_slice(&[next, 0]);
    out.extend_from_slice(&((offset << 3) | u16::from(more)).to_be_bytes());
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(data);
    out
}

/// A UDP header and `value` (checksum 0), as the payload of an IP datagram.
pub fn udp_bytes(from_port: u16, to_port: u16, value: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&from_port.to_be_bytes());
    out.extend_from_slice(&to_port.to_be_bytes());
    out.extend_from_slice(&((8 + value.len()) as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(value);
    out
}

/// An Ethernet frame holding an IPv4 fragment (`offset` in 8-byte units) of a datagram of
/// protocol `number`.
pub fn ipv4_fragment(
    from: [u8; 4],
    to: [u8; 4],
    id: u16,
    offset: u16,
    more: bool,
    number: etherparse::IpNumber,
    data: &[u8],
) -> Vec<u8> {
    let mut header = etherparse::Ipv4Header::new(data.len() as u16, 64, number, from, to).unwrap();
    header.identification = id;
    header.more_fragments = more;
    header.fragment_offset = etherparse::IpFragOffset::try_new(offset).unwrap();
    let mut out = vec![2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0x08, 0x00];
    header.write(&mut out).unwrap();
    out.extend_from_slice(data);
    out
}

/// A call as the Godot 3.2.3 ENet scenario's receivers log it (`corpus/captures/*.jsonl`):
/// (receiver side, kind, node, member, argument bytes; NodePath arguments left out, as Godot
/// 3.2.3 writes uninitialised padding in them, and objects, which the engine logs by id).
pub type Key = (String, String, String, String, Vec<String>);

/// An argument's bytes as [`Key`] holds them: the hex, or the type's name for a NodePath or an
/// object.
pub fn argument_hex(type_id: u64, hex: String) -> String {
    match type_id {
        15 => "nodepath".into(),
        17 => "object".into(),
        _ => hex,
    }
}
