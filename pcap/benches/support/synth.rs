//! Large captures written reproducibly, for the benchmarks, the `synth` example and the test
//! that reads them with zero refusals. No capture library: the pcap records, Ethernet, IPv4,
//! TCP and UDP headers (with their checksums) and ENet's commands are written here by hand.
//!
//! * [`tcp`]: a few TCP flows of `StreamPeer.put_var` frames carrying the corpus's values
//!   (`corpus/godot3` or `corpus/godot4`: every case that version accepts without objects,
//!   the 1.3 MB `large_array_10000_dicts` and the other large ones as well as many small
//!   ones, some sent back to back), cut into MSS-sized segments with proper sequence and
//!   acknowledgement numbers, a handshake, pure ACKs, some segments sent again and some
//!   swapped with the next one.
//! * [`enet`]: Godot 4 multiplayer over ENet: many connections, each a CONNECT, a
//!   VERIFY_CONNECT, then one client's real packets of the corpus's Godot 4 scenario
//!   (`corpus/multiplayer/godot4.jsonl`), sent as ENet sends them (reliable, unsequenced and
//!   unreliable commands, fragments past the MTU, several small commands in one datagram,
//!   acknowledgements, pings), some reliable datagrams sent again.
//!
//! Everything is decided by a fixed-seed generator: the same arguments give the same bytes.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]

use gdvariant::{Options, Version};

/// The corpus directory.
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");

/// A small fixed-seed generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

/// A pcap file being written (little-endian, microsecond timestamps, Ethernet).
#[derive(Debug)]
pub struct Pcap {
    /// The file's bytes so far.
    pub bytes: Vec<u8>,
    /// Packets written.
    pub packets: u64,
    /// The next packet's time, in microseconds since the epoch.
    micros: u64,
}

const ETH: usize = 14;
const IP: usize = 20;

impl Pcap {
    /// An empty capture (its header only), with room for `capacity` bytes.
    pub fn new(capacity: usize) -> Self {
        let mut bytes = Vec::with_capacity(capacity);
        bytes.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.extend_from_slice(&4u16.to_le_bytes());
        bytes.extend_from_slice(&0i32.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&262_144u32.to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes());
        Pcap { bytes, packets: 0, micros: 1_700_000_000_000_000 }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Writes one Ethernet / IPv4 packet from `src` to `dst` carrying `protocol` (6 TCP, 17
    /// UDP): `header` (the TCP or UDP header, its checksum field zero) then `payload`; the
    /// checksums are filled in.
    fn packet(&mut self, src: [u8; 4], dst: [u8; 4], protocol: u8, header: &[u8], payload: &[u8]) {
        let l4 = header.len() + payload.len();
        let frame = ETH + IP + l4;
        self.micros += 1 + (frame as u64 >> 7);
        let out = &mut self.bytes;
        out.extend_from_slice(&((self.micros / 1_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&((self.micros % 1_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&(frame as u32).to_le_bytes());
        out.extend_from_slice(&(frame as u32).to_le_bytes());
        // Ethernet: the two hosts' addresses, IPv4.
        out.extend_from_slice(&[0x02, 0, 0, 0, dst[2], dst[3], 0x02, 0, 0, 0, src[2], src[3]]);
        out.extend_from_slice(&[0x08, 0x00]);
        let ip_at = out.len();
        out.extend_from_slice(&[0x45, 0]);
        out.extend_from_slice(&((IP + l4) as u16).to_be_bytes());
        out.extend_from_slice(&(self.packets as u16).to_be_bytes());
        out.extend_from_slice(&[0x40, 0, 64, protocol, 0, 0]);
        out.extend_from_slice(&src);
        out.extend_from_slice(&dst);
        let ip_sum = !fold(sum(&out[ip_at..ip_at + IP], 0));
        out[ip_at + 10..ip_at + 12].copy_from_slice(&ip_sum.to_be_bytes());
        let l4_at = out.len();
        out.extend_from_slice(header);
        out.extend_from_slice(payload);
        let mut pseudo = sum(&src, 0);
        pseudo = sum(&dst, pseudo);
        pseudo += u64::from(protocol) + l4 as u64;
        let mut l4_sum = !fold(sum(&out[l4_at..], pseudo));
        let at = if protocol == 6 { 16 } else { 6 };
        if protocol == 17 && l4_sum == 0 {
            l4_sum = 0xFFFF;
        }
        out[l4_at + at..l4_at + at + 2].copy_from_slice(&l4_sum.to_be_bytes());
        self.packets += 1;
    }
}

/// The ones' complement sum of `data` as big-endian 16-bit words, added to `acc` (unfolded).
fn sum(data: &[u8], mut acc: u64) -> u64 {
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_be_bytes(w.try_into().unwrap());
        acc += (v >> 48) + ((v >> 32) & 0xFFFF) + ((v >> 16) & 0xFFFF) + (v & 0xFFFF);
    }
    let rest = words.remainder();
    let mut pairs = rest.chunks_exact(2);
    for p in &mut pairs {
        acc += u64::from(u16::from_be_bytes([p[0], p[1]]));
    }
    if let [last] = pairs.remainder() {
        acc += u64::from(*last) << 8;
    }
    acc
}

fn fold(mut acc: u64) -> u16 {
    while acc > 0xFFFF {
        acc = (acc & 0xFFFF) + (acc >> 16);
    }
    acc as u16
}

/// The corpus's cases of `version` that Godot accepts without objects, by name: (name, bytes).
pub fn corpus_values(version: Version) -> Vec<(String, Vec<u8>)> {
    let dir = match version {
        Version::Godot3 => format!("{CORPUS}/godot3"),
        _ => format!("{CORPUS}/godot4"),
    };
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .filter(|(_, bytes)| gdvariant::validate(bytes, Options::new(version)).is_ok())
        .collect()
}

/// What a TCP capture carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// About 60 % of the bytes in values of 64 KiB and more (the 10,000-dictionary array
    /// most of them), 40 % in the others (mostly small).
    Mixed,
    /// Large values only.
    Large,
    /// Values below 4 KiB only.
    Small,
}

impl Mix {
    /// `tcp`, `tcp-large`, `tcp-small`.
    pub fn name(self) -> &'static str {
        match self {
            Mix::Mixed => "tcp",
            Mix::Large => "tcp-large",
            Mix::Small => "tcp-small",
        }
    }
}

/// The maximum segment size of the TCP flows.
pub const MSS: usize = 1448;

struct TcpSide {
    ip: [u8; 4],
    port: u16,
    /// The next sequence number to send.
    seq: u32,
}

struct TcpFlow {
    sides: [TcpSide; 2],
    /// Data segments sent by each side since its peer's last pure ACK.
    unacked: [u32; 2],
}

impl TcpFlow {
    fn segment(&self, pcap: &mut Pcap, from: usize, seq: u32, flags: u8, data: &[u8]) {
        let (a, b) = (&self.sides[from], &self.sides[1 - from]);
        let mut h = [0u8; 20];
        h[0..2].copy_from_slice(&a.port.to_be_bytes());
        h[2..4].copy_from_slice(&b.port.to_be_bytes());
        h[4..8].copy_from_slice(&seq.to_be_bytes());
        let ack = if flags & 0x10 != 0 { b.seq } else { 0 };
        h[8..12].copy_from_slice(&ack.to_be_bytes());
        h[12] = 5 << 4;
        h[13] = flags;
        h[14..16].copy_from_slice(&65_535u16.to_be_bytes());
        pcap.packet(a.ip, b.ip, 6, &h, data);
    }

    fn handshake(&mut self, pcap: &mut Pcap) {
        let (c, s) = (self.sides[0].seq, self.sides[1].seq);
        self.segment(pcap, 0, c, 0x02, &[]);
        self.sides[0].seq = c.wrapping_add(1);
        self.segment(pcap, 1, s, 0x12, &[]);
        self.sides[1].seq = s.wrapping_add(1);
        self.segment(pcap, 0, self.sides[0].seq, 0x10, &[]);
    }

    /// One send of `data` by side `from`: MSS-sized segments, one in `rng`'s 256 sent again
    /// after the next, one in 256 swapped with the next; a pure ACK from the peer every
    /// second segment.
    fn send(&mut self, pcap: &mut Pcap, rng: &mut Rng, from: usize, data: &[u8]) {
        let start = self.sides[from].seq;
        let mut order: Vec<(u32, usize, usize)> = Vec::new();
        let mut at = 0;
        while at < data.len() {
            let end = (at + MSS).min(data.len());
            order.push((start.wrapping_add(at as u32), at, end));
            at = end;
        }
        self.sides[from].seq = start.wrapping_add(data.len() as u32);
        let mut i = 0;
        let mut again: Option<(u32, usize, usize)> = None;
        while i < order.len() {
            if i + 1 < order.len() && rng.one_in(256) {
                order.swap(i, i + 1);
            }
            let (seq, a, b) = order[i];
            let flags = if b == data.len() { 0x18 } else { 0x10 };
            self.segment(pcap, from, seq, flags, &data[a..b]);
            if let Some((seq, a, b)) = again.take() {
                self.segment(pcap, from, seq, 0x10, &data[a..b]);
            }
            if rng.one_in(256) {
                again = Some((seq, a, b));
            }
            self.unacked[from] += 1;
            if self.unacked[from] >= 2 {
                self.unacked[from] = 0;
                let peer = 1 - from;
                self.segment(pcap, peer, self.sides[peer].seq, 0x10, &[]);
            }
            i += 1;
        }
        if let Some((seq, a, b)) = again {
            self.segment(pcap, from, seq, 0x10, &data[a..b]);
        }
    }

    fn close(&mut self, pcap: &mut Pcap) {
        for side in [0, 1] {
            let seq = self.sides[side].seq;
            self.segment(pcap, side, seq, 0x11, &[]);
            self.sides[side].seq = seq.wrapping_add(1);
        }
        self.segment(pcap, 0, self.sides[0].seq, 0x10, &[]);
    }
}

/// A TCP capture of about `size` bytes: `flows` connections (clients 10.0.0.2.. ports 50000..,
/// the server 10.0.0.1:7000), handshakes captured, carrying `put_var` frames of `version`'s
/// corpus values as `mix` says; the server answers one send in 8 with a small value. Returns
/// the capture and the number of frames written.
pub fn tcp(version: Version, mix: Mix, size: usize, flows: usize, seed: u64) -> (Vec<u8>, u64) {
    let values = corpus_values(version);
    let big: Vec<&[u8]> = {
        // The 10,000 dictionaries three times out of four, the other large cases the fourth.
        let dicts = values.iter().find(|(n, _)| n == "large_array_10000_dicts").unwrap();
        let mut big = vec![dicts.1.as_slice(); 3];
        big.extend(
            values
                .iter()
                .filter(|(n, b)| b.len() >= 64 << 10 && n != "large_array_10000_dicts")
                .map(|(_, b)| b.as_slice()),
        );
        big
    };
    let small: Vec<&[u8]> =
        values.iter().filter(|(_, b)| b.len() < 4 << 10).map(|(_, b)| b.as_slice()).collect();
    let medium: Vec<&[u8]> = values
        .iter()
        .filter(|(_, b)| (4 << 10..64 << 10).contains(&b.len()))
        .map(|(_, b)| b.as_slice())
        .collect();
    let mut rng = Rng::new(seed);
    let mut pcap = Pcap::new(size + (4 << 20));
    let mut conns: Vec<TcpFlow> = (0..flows)
        .map(|i| TcpFlow {
            sides: [
                TcpSide {
                    ip: [10, 0, 0, 2 + i as u8],
                    port: 50_000 + i as u16,
                    seq: rng.next() as u32,
                },
                TcpSide { ip: [10, 0, 0, 1], port: 7000, seq: rng.next() as u32 },
            ],
            unacked: [0, 0],
        })
        .collect();
    for conn in &mut conns {
        conn.handshake(&mut pcap);
    }
    let (mut big_bytes, mut small_bytes, mut frames) = (0usize, 0usize, 0u64);
    let mut send = Vec::new();
    let mut turn = 0usize;
    while pcap.len() < size {
        let flow = turn % flows;
        turn += 1;
        send.clear();
        let pick_big = match mix {
            Mix::Large => true,
            Mix::Small => false,
            Mix::Mixed => big_bytes * 2 <= small_bytes * 3,
        };
        if pick_big {
            let v = big[rng.below(big.len() as u64) as usize];
            frame(&mut send, v);
            big_bytes += v.len();
            frames += 1;
        } else {
            // 1 to 16 values written back to back (one send), now and then a medium one.
            for _ in 0..1 + rng.below(16) {
                let v = if mix == Mix::Mixed && rng.one_in(32) && !medium.is_empty() {
                    medium[rng.below(medium.len() as u64) as usize]
                } else {
                    small[rng.below(small.len() as u64) as usize]
                };
                frame(&mut send, v);
                small_bytes += v.len();
                frames += 1;
            }
        }
        conns[flow].send(&mut pcap, &mut rng, 0, &send);
        if rng.one_in(8) {
            send.clear();
            frame(&mut send, small[rng.below(small.len() as u64) as usize]);
            frames += 1;
            conns[flow].send(&mut pcap, &mut rng, 1, &send);
        }
    }
    for conn in &mut conns {
        conn.close(&mut pcap);
    }
    (pcap.bytes, frames)
}

fn frame(out: &mut Vec<u8>, value: &[u8]) {
    out.extend_from_slice(&(value.len() as u32).to_le_bytes());
    out.extend_from_slice(value);
}

/// One client's packets of the corpus's Godot 4 scenario: (to the server, channel, mode,
/// bytes), in order; the packets the engine logged errors for are left out.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The client's peer id.
    pub client: u32,
    /// (to the server, Godot's transfer channel, mode, bytes).
    pub packets: Vec<(bool, u8, Mode, Vec<u8>)>,
}

/// Godot's transfer mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `TRANSFER_MODE_RELIABLE`.
    Reliable,
    /// `TRANSFER_MODE_UNRELIABLE` (ENet: unsequenced).
    Unreliable,
    /// `TRANSFER_MODE_UNRELIABLE_ORDERED` (ENet: unreliable).
    UnreliableOrdered,
}

/// The two clients' scenarios of `corpus/multiplayer/godot4.jsonl` (clients A and B).
pub fn godot4_scenarios() -> Vec<Scenario> {
    let text = std::fs::read_to_string(format!("{CORPUS}/multiplayer/godot4.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    [1_234_567_890u64, 987_654_321]
        .into_iter()
        .map(|client| {
            let packets = rows
                .iter()
                .filter(|r| r["net"] == "main" && r.get("injected").is_none())
                .filter(|r| {
                    r["deliveries"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|d| d["errors"].as_array().is_none_or(|e| e.is_empty()))
                })
                .filter_map(|r| {
                    let from = r["from"].as_u64().unwrap();
                    let to: Vec<u64> =
                        r["to"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).collect();
                    let up = if from == client && to.contains(&1) {
                        true
                    } else if from == 1 && to.contains(&client) {
                        false
                    } else {
                        return None;
                    };
                    let mode = match r["mode"].as_str().unwrap() {
                        "reliable" => Mode::Reliable,
                        "unreliable" => Mode::Unreliable,
                        _ => Mode::UnreliableOrdered,
                    };
                    let channel = r["channel"].as_u64().unwrap() as u8;
                    Some((up, channel, mode, hex::decode(r["hex"].as_str().unwrap()).unwrap()))
                })
                .collect();
            Scenario { client: client as u32, packets }
        })
        .collect()
}

/// ENet's MTU in these captures.
pub const MTU: usize = 1400;
/// The data of one fragment: the MTU less the header (with its sent time) and the
/// SEND_FRAGMENT command.
pub const FRAGMENT: usize = MTU - 4 - 24;

struct EnetSide {
    /// Reliable sequence numbers per ENet channel.
    reliable: [u16; 256],
    /// Unreliable sequence numbers per ENet channel.
    unreliable: [u16; 256],
    unsequenced_group: u16,
    /// Acknowledgements to send: (channel, sequence number, sent time).
    acks: Vec<(u8, u16, u16)>,
}

impl Default for EnetSide {
    fn default() -> Self {
        EnetSide {
            reliable: [0; 256],
            unreliable: [0; 256],
            unsequenced_group: 0,
            acks: Vec::new(),
        }
    }
}

struct EnetFlow {
    /// Client, server.
    ips: [[u8; 4]; 2],
    ports: [u16; 2],
    sides: [EnetSide; 2],
    /// The peer id each side writes in its header (the receiver's id for it).
    peer_ids: [u16; 2],
    scenario: usize,
    next: usize,
    client: u32,
    /// The ENet sent time (milliseconds).
    time: u16,
    /// A datagram to send again after the next one: (side, bytes).
    again: Option<(usize, Vec<u8>)>,
}

impl EnetFlow {
    /// Sends one datagram of `commands` from `side` (its pending acknowledgements first).
    fn datagram(&mut self, pcap: &mut Pcap, rng: &mut Rng, side: usize, commands: &[u8]) {
        self.time = self.time.wrapping_add(1 + rng.below(3) as u16);
        let mut d = Vec::with_capacity(commands.len() + 64);
        d.extend_from_slice(&(0x8000 | self.peer_ids[side]).to_be_bytes());
        d.extend_from_slice(&self.time.to_be_bytes());
        for (channel, sequence, sent) in self.sides[side].acks.drain(..) {
            d.extend_from_slice(&[0x01, channel]);
            d.extend_from_slice(&sequence.to_be_bytes());
            d.extend_from_slice(&sequence.to_be_bytes());
            d.extend_from_slice(&sent.to_be_bytes());
        }
        d.extend_from_slice(commands);
        self.udp(pcap, side, &d);
        if let Some((s, bytes)) = self.again.take() {
            self.udp(pcap, s, &bytes);
        }
        // Reliable commands in it: acknowledged by the peer; one datagram in 64 has its
        // reliable commands sent again (alone, as ENet resends them).
        let reliable = reliable_commands(commands);
        if !reliable.is_empty() {
            let time = self.time;
            self.sides[1 - side].acks.extend(reliable.iter().map(|&(c, s, _)| (c, s, time)));
            if rng.one_in(64) {
                let mut again = Vec::new();
                again.extend_from_slice(&(0x8000 | self.peer_ids[side]).to_be_bytes());
                again.extend_from_slice(&time.wrapping_add(200).to_be_bytes());
                for (_, _, range) in &reliable {
                    again.extend_from_slice(&commands[range.clone()]);
                }
                self.again = Some((side, again));
            }
        }
    }

    fn udp(&self, pcap: &mut Pcap, side: usize, data: &[u8]) {
        let mut h = [0u8; 8];
        h[0..2].copy_from_slice(&self.ports[side].to_be_bytes());
        h[2..4].copy_from_slice(&self.ports[1 - side].to_be_bytes());
        h[4..6].copy_from_slice(&((8 + data.len()) as u16).to_be_bytes());
        pcap.packet(self.ips[side], self.ips[1 - side], 17, &h, data);
    }

    fn connect(&mut self, pcap: &mut Pcap, rng: &mut Rng, connect_id: u32) {
        let mut c = vec![0x82, 0xFF, 0, 1, 0, 0, 0, 0];
        for n in [MTU as u32, 32_768, 5, 0, 0, 5000, 2, 2, connect_id, self.client] {
            c.extend_from_slice(&n.to_be_bytes());
        }
        self.sides[0].reliable[255] = 1;
        self.peer_ids[0] = 0x0FFF;
        self.datagram(pcap, rng, 0, &c);
        let mut v = vec![0x83, 0xFF, 0, 1, 0, 0, 0, 0];
        for n in [MTU as u32, 32_768, 5, 0, 0, 5000, 2, 2, connect_id] {
            v.extend_from_slice(&n.to_be_bytes());
        }
        self.sides[1].reliable[255] = 1;
        self.datagram(pcap, rng, 1, &v);
        self.peer_ids[0] = 0;
        // The client's acknowledgement of the VERIFY_CONNECT.
        self.datagram(pcap, rng, 0, &[]);
    }

    /// The ENet commands of one message (several when it is fragmented).
    fn commands(&mut self, side: usize, channel: u8, mode: Mode, data: &[u8]) -> Vec<Vec<u8>> {
        // Godot 4's ENetMultiplayerPeer: channel 0 reliable, 1 unreliable, then the game's.
        let ch = match (channel, mode) {
            (0, Mode::Reliable) => 0,
            (0, _) => 1,
            (n, _) => n + 1,
        };
        let s = &mut self.sides[side];
        let c = usize::from(ch);
        let len = data.len();
        if len <= FRAGMENT {
            let mut out = match mode {
                Mode::Reliable => {
                    s.reliable[c] = s.reliable[c].wrapping_add(1);
                    let mut out = vec![0x86, ch];
                    out.extend_from_slice(&s.reliable[c].to_be_bytes());
                    out
                }
                Mode::UnreliableOrdered => {
                    s.unreliable[c] = s.unreliable[c].wrapping_add(1);
                    let mut out = vec![0x07, ch];
                    out.extend_from_slice(&s.reliable[c].to_be_bytes());
                    out.extend_from_slice(&s.unreliable[c].to_be_bytes());
                    out
                }
                Mode::Unreliable => {
                    s.unsequenced_group = s.unsequenced_group.wrapping_add(1);
                    let mut out = vec![0x49, ch, 0, 0];
                    out.extend_from_slice(&s.unsequenced_group.to_be_bytes());
                    out
                }
            };
            out.extend_from_slice(&(len as u16).to_be_bytes());
            out.extend_from_slice(data);
            return vec![out];
        }
        let count = len.div_ceil(FRAGMENT) as u32;
        let reliable = mode == Mode::Reliable;
        let start = if reliable {
            s.reliable[c].wrapping_add(1)
        } else {
            s.unreliable[c] = s.unreliable[c].wrapping_add(1);
            s.unreliable[c]
        };
        data.chunks(FRAGMENT)
            .enumerate()
            .map(|(n, piece)| {
                let mut out = if reliable {
                    s.reliable[c] = s.reliable[c].wrapping_add(1);
                    vec![0x88, ch]
                } else {
                    vec![0x0C, ch]
                };
                out.extend_from_slice(&s.reliable[c].to_be_bytes());
                out.extend_from_slice(&start.to_be_bytes());
                out.extend_from_slice(&(piece.len() as u16).to_be_bytes());
                for v in [count, n as u32, len as u32, (n * FRAGMENT) as u32] {
                    out.extend_from_slice(&v.to_be_bytes());
                }
                out.extend_from_slice(piece);
                out
            })
            .collect()
    }
}

/// The (channel, sequence number, bytes) of the reliable commands (acknowledge flag set) of
/// `commands`, written by [`EnetFlow::commands`] (whose sizes it knows).
fn reliable_commands(commands: &[u8]) -> Vec<(u8, u16, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 4 <= commands.len() {
        let (number, channel) = (commands[at], commands[at + 1]);
        let sequence = u16::from_be_bytes([commands[at + 2], commands[at + 3]]);
        let (fixed, length_at) = match number & 0x0F {
            2 => (48, None),
            3 => (44, None),
            5 => (4, None),
            6 => (6, Some(4)),
            7 | 9 => (8, Some(6)),
            8 | 12 => (24, Some(6)),
            _ => break,
        };
        let data = length_at.map_or(0, |l| {
            usize::from(u16::from_be_bytes([commands[at + l], commands[at + l + 1]]))
        });
        if number & 0x80 != 0 {
            out.push((channel, sequence, at..at + fixed + data));
        }
        at += fixed + data;
    }
    out
}

/// An ENet capture of about `size` bytes: Godot 4 multiplayer, `concurrent` connections at a
/// time (clients 10.0.1.x, ports 40000.., the server 10.0.0.1:7000), each one client's
/// scenario (A and B in turn) from its CONNECT on; a PING now and then. Returns the capture,
/// the connections and the messages written (each once).
pub fn enet(size: usize, concurrent: usize, seed: u64) -> (Vec<u8>, u64, u64) {
    let scenarios = godot4_scenarios();
    let mut rng = Rng::new(seed);
    let mut pcap = Pcap::new(size + (1 << 20));
    let mut live: Vec<EnetFlow> = Vec::new();
    let (mut started, mut messages) = (0u64, 0u64);
    let mut turn = 0usize;
    loop {
        while live.len() < concurrent && pcap.len() < size {
            let scenario = (started % 2) as usize;
            let n = started as u32;
            let mut flow = EnetFlow {
                ips: [[10, 0, 1 + (n >> 8) as u8, n as u8], [10, 0, 0, 1]],
                ports: [40_000 + (n % 20_000) as u16, 7000],
                sides: [EnetSide::default(), EnetSide::default()],
                peer_ids: [0x0FFF, 0],
                scenario,
                next: 0,
                client: scenarios[scenario].client,
                time: rng.next() as u16,
                again: None,
            };
            let connect_id = rng.next() as u32;
            flow.connect(&mut pcap, &mut rng, connect_id);
            started += 1;
            live.push(flow);
        }
        if live.is_empty() {
            break;
        }
        let i = turn % live.len();
        turn += 1;
        let flow = &mut live[i];
        let packets = &scenarios[flow.scenario].packets;
        // A run of messages the same way: up to 4 small ones in one datagram.
        let (up, ..) = packets[flow.next];
        let side = if up { 0 } else { 1 };
        let mut batch: Vec<u8> = Vec::new();
        let mut in_batch = 0;
        let limit = 1 + rng.below(4);
        while flow.next < packets.len() && in_batch < limit {
            let (up2, channel, mode, ref data) = packets[flow.next];
            if up2 != up {
                break;
            }
            let commands = flow.commands(side, channel, mode, data);
            if commands.len() > 1 {
                if !batch.is_empty() {
                    flow.datagram(&mut pcap, &mut rng, side, &batch);
                    batch.clear();
                }
                for c in commands {
                    flow.datagram(&mut pcap, &mut rng, side, &c);
                }
            } else if batch.len() + commands[0].len() + 64 > MTU {
                flow.datagram(&mut pcap, &mut rng, side, &batch);
                batch.clone_from(&commands[0]);
            } else {
                batch.extend_from_slice(&commands[0]);
            }
            messages += 1;
            in_batch += 1;
            flow.next += 1;
        }
        if !batch.is_empty() {
            flow.datagram(&mut pcap, &mut rng, side, &batch);
        }
        if rng.one_in(32) {
            // A PING from the client, on the connection's own channel.
            let s = &mut flow.sides[0];
            s.reliable[255] = s.reliable[255].wrapping_add(1);
            let mut ping = vec![0x85, 0xFF];
            ping.extend_from_slice(&s.reliable[255].to_be_bytes());
            flow.datagram(&mut pcap, &mut rng, 0, &ping);
        }
        if flow.next >= packets.len() {
            // The last acknowledgements, then the flow is done.
            let mut done = live.swap_remove(i);
            done.datagram(&mut pcap, &mut rng, 1, &[]);
            done.datagram(&mut pcap, &mut rng, 0, &[]);
        }
    }
    (pcap.bytes, started, messages)
}
