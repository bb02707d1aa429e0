//! Hostile captures are read in work linear in their size: work counted with the core's
//! counter (feature `work-counter`) on generated worst cases at two sizes (many flows evicted,
//! segments in reverse order, overlapping pieces covered again and again, one-byte segments,
//! candidate frames after gaps, IPv4 fragments that never complete or overlap, WebSocket
//! messages in many tiny fragments with pings between them, WebSocket frames claiming huge
//! lengths; ENet: lying fragments, a million fragment claims, duplicate floods, reliable commands
//! each behind one never sent).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod support;

use gdvariant::Options;
use gdvariant_pcap::{Config, Reader};
use support::*;

/// Reads every item of `file`; returns the units of work.
fn units(file: &[u8], config: &Config) -> u64 {
    gdvariant::work::measure(|| {
        let reader = Reader::new(file, config.clone()).unwrap();
        reader.count()
    })
    .1
}

/// Runs the reader on `make(size)` and `make(4 * size)`: the work must grow no faster than the
/// bytes (with room for a log factor) and stay within `per_byte` units per byte plus 10,000.
fn assert_linear(
    name: &str,
    small: usize,
    per_byte: u64,
    config: Config,
    make: impl Fn(usize) -> Vec<u8>,
) {
    let measure = |size: usize| {
        let file = make(size);
        let units = units(&file, &config);
        assert!(
            units <= per_byte * file.len() as u64 + 10_000,
            "{name}: {units} units on {} bytes",
            file.len()
        );
        (units, file.len())
    };
    let (a, a_bytes) = measure(small);
    let (b, b_bytes) = measure(small * 4);
    assert!(b_bytes >= a_bytes * 3, "{name}: the generator does not scale");
    let growth = b as f64 / a.max(1) as f64;
    let bytes_growth = b_bytes as f64 / a_bytes as f64;
    assert!(
        growth <= bytes_growth * 1.5,
        "{name}: work grew {growth:.2}x for {bytes_growth:.2}x the bytes ({a} then {b})"
    );
    eprintln!("{name}: {a} units on {a_bytes} bytes, {b} units on {b_bytes} bytes");
}

fn config() -> Config {
    Config::new(Options::godot4())
}

#[test]
fn many_flows_evicted() {
    let mut config = config();
    config.max_flows = 64;
    assert_linear("flows", 2_000, 4, config, |n| {
        let packets: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let client = ([10, (i >> 16) as u8, (i >> 8) as u8, i as u8], 40_000);
                tcp(client, SERVER, 1, Flags::default(), &frame(&int(1))[..7])
            })
            .collect();
        pcap(1, &packets)
    });
}

#[test]
fn segments_in_reverse_order() {
    // Runs of 2,000 one-byte segments in reverse order: the window fills, holes are given up.
    assert_linear("reverse", 4_000, 4, config(), |n| {
        let s: Vec<u8> = (0..n as i32).flat_map(|i| frame(&int(i))).take(n).collect();
        let mut packets = handshake();
        for run in s.chunks(2_000).enumerate() {
            let (r, bytes) = run;
            for (j, b) in bytes.iter().enumerate().rev() {
                packets.push(data(1001 + (r * 2_000 + j) as u32, &[*b]));
            }
        }
        pcap(1, &packets)
    });
}

#[test]
fn overlapping_pieces_covered_again_and_again() {
    // 500 one-byte pieces waiting with holes between them, then segments covering all of
    // them (1,000 pieces once the holes are filled, within the window's count), again and
    // again: each touches every waiting piece.
    assert_linear("overlaps", 200, 8, config(), |n| {
        let mut packets = handshake();
        for i in 0..500u32 {
            packets.push(data(1001 + 10 + 2 * i, &[0]));
        }
        let cover = vec![0u8; 1_000];
        for _ in 0..n {
            packets.push(data(1001 + 10, &cover));
        }
        pcap(1, &packets)
    });
}

#[test]
fn one_byte_segments_of_large_frames() {
    assert_linear("one-byte segments", 5_000, 4, config(), |n| {
        let mut value = vec![0x1d, 0, 0, 0]; // PackedByteArray
        value.extend_from_slice(&(n as u32).to_le_bytes());
        value.extend(std::iter::repeat_n(7u8, n));
        let s = frame(&value);
        let mut packets = handshake();
        for (i, b) in s.iter().enumerate() {
            packets.push(data(1001 + i as u32, &[*b]));
        }
        pcap(1, &packets)
    });
}

#[test]
fn candidates_after_gaps() {
    // After a gap, every segment starts with a plausible 60 KiB prefix that never completes
    // into a frame: candidates absorb the segments after them, and fail.
    assert_linear("candidates", 40, 4, config(), |n| {
        let mut packets = handshake();
        let mut seq = 1001u32;
        packets.push(data(seq, &frame(&int(1))));
        seq += 12 + 100; // a gap
        for _ in 0..n {
            let mut seg = (60_000u32).to_le_bytes().to_vec();
            seg.extend_from_slice(&[0x1d, 0, 0, 0]);
            seg.extend(std::iter::repeat_n(0xEEu8, 1_400));
            packets.push(data(seq, &seg));
            seq += seg.len() as u32;
        }
        pcap(1, &packets)
    });
}

#[test]
fn fragments_that_never_complete_or_overlap() {
    assert_linear("fragments", 2_000, 8, config(), |n| {
        let packets: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let mut header = etherparse::Ipv4Header::new(
                    8,
                    64,
                    etherparse::IpNumber::UDP,
                    CLIENT.0,
                    SERVER.0,
                )
                .unwrap();
                // 64 ids, each given fragments at the same few offsets again and again.
                header.identification = (i % 64) as u16;
                header.more_fragments = true;
                header.fragment_offset =
                    etherparse::IpFragOffset::try_new(((i / 64) % 8) as u16).unwrap();
                let mut out = Vec::new();
                header.write(&mut out).unwrap();
                out.extend_from_slice(&[1; 8]);
                out
            })
            .collect();
        pcap(101, &packets)
    });
}

/// The WebSocket upgrade request the client starts with.
const WS_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";

/// A masked client frame (key 1, 2, 3, 4) with a 7-bit length.
fn ws_small(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let key = [1u8, 2, 3, 4];
    let mut out = vec![if fin { 0x80 } else { 0 } | opcode, 0x80 | payload.len() as u8];
    out.extend_from_slice(&key);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    out
}

#[test]
fn websocket_many_tiny_fragments_and_pings() {
    // One message of n one-byte fragments, a ping after each: every frame costs its bytes.
    assert_linear("websocket fragments", 4_000, 8, config(), |n| {
        let mut value = vec![0x1d, 0, 0, 0]; // PackedByteArray
        value.extend_from_slice(&(n as u32).to_le_bytes());
        value.extend(std::iter::repeat_n(7u8, n));
        let mut s = WS_REQUEST.to_vec();
        for (i, b) in value.iter().enumerate() {
            let last = i + 1 == value.len();
            s.extend(ws_small(last, if i == 0 { 2 } else { 0 }, &[*b]));
            s.extend(ws_small(true, 9, b""));
        }
        let mut packets = handshake();
        for (seq, bytes) in segments(&s, 1_400) {
            packets.push(data(seq, &bytes));
        }
        pcap(1, &packets)
    });
}

#[test]
fn websocket_huge_claimed_lengths() {
    // Connections whose first frame claims 2^63 - 1 bytes, or just under the message limit
    // (then the connection ends): refused at the header, or held only as far as received.
    assert_linear("websocket claimed lengths", 1_000, 8, config(), |n| {
        let packets: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let client = ([10, (i >> 16) as u8, (i >> 8) as u8, i as u8], 40_000);
                let mut s = WS_REQUEST.to_vec();
                let length = if i % 2 == 0 { u64::MAX >> 1 } else { (16 << 20) - 1 };
                s.extend_from_slice(&[0x82, 0xff]);
                s.extend_from_slice(&length.to_be_bytes());
                s.extend_from_slice(&[1, 2, 3, 4]);
                s.extend(std::iter::repeat_n(0u8, 500));
                tcp(client, SERVER, 1, Flags { ack: true, ..Flags::default() }, &s)
            })
            .collect();
        pcap(1, &packets)
    });
}

/// ENet commands for the ENet cases: a datagram (peer id 0, no sent time) of `commands`.
fn enet(commands: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![0, 0];
    commands.iter().for_each(|c| out.extend_from_slice(c));
    out
}

/// ENet's CONNECT (connect data 7).
fn enet_connect() -> Vec<u8> {
    let mut out = vec![0x82, 0xFF, 0, 1, 0x0F, 0xFF, 0, 0];
    for n in [1400u32, 32768, 2, 0, 0, 5000, 2, 2, 99, 7] {
        out.extend_from_slice(&n.to_be_bytes());
    }
    out
}

/// SEND_FRAGMENT (reliable, acknowledged) or SEND_UNRELIABLE_FRAGMENT.
fn enet_fragment(
    reliable: bool,
    sequence: u16,
    start: u16,
    fields: [u32; 4],
    data: &[u8],
) -> Vec<u8> {
    let mut out = vec![if reliable { 0x88 } else { 0x0C }, 1];
    out.extend_from_slice(&sequence.to_be_bytes());
    out.extend_from_slice(&start.to_be_bytes());
    out.extend_from_slice(&(data.len() as u16).to_be_bytes());
    fields.iter().for_each(|n| out.extend_from_slice(&n.to_be_bytes()));
    out.extend_from_slice(data);
    out
}

/// A capture of one ENet flow: the CONNECT, then `datagrams` to the server.
fn enet_capture(datagrams: impl Iterator<Item = Vec<u8>>) -> Vec<u8> {
    let mut packets = vec![udp(CLIENT, SERVER, &enet(&[enet_connect()]))];
    packets.extend(datagrams.map(|d| udp(CLIENT, SERVER, &d)));
    pcap(1, &packets)
}

#[test]
fn enet_lying_fragments_never_complete() {
    // Each start sequence number gets two fragments of 100 bytes claiming a 1 MiB message:
    // they never tile it, the oldest are dropped past the limits.
    assert_linear("enet lying fragments", 1_000, 16, config(), |n| {
        enet_capture((0..n).map(|i| {
            let start = (i / 2) as u16;
            let number = (i % 2) as u32;
            enet(&[enet_fragment(false, 0, start, [2, number, 1 << 20, number * 100], &[3; 100])])
        }))
    });
}

#[test]
fn enet_a_million_fragment_claims() {
    // One message claiming ENet's largest fragment count, its fragments one byte each, sent
    // until the waiting limit drops it, again and again.
    assert_linear("enet fragment claims", 20_000, 16, config(), |n| {
        enet_capture((0..n).map(|i| {
            let number = i as u32;
            let fields = [1 << 20, number % (1 << 20), 1 << 20, number % (1 << 20)];
            enet(&[enet_fragment(false, 0, 1, fields, &[1])])
        }))
    });
}

#[test]
fn enet_duplicate_floods() {
    // The same reliable command again and again, unreliable fragments again and again, and
    // reliable sequence numbers jumping by half the window (each jump clears bits).
    assert_linear("enet duplicates", 3_000, 16, config(), |n| {
        enet_capture((0..n).map(|i| {
            let mut reliable = vec![0x86, 2, 0, 5, 0, 4];
            reliable.extend_from_slice(&[2, 0, 0, 0]);
            let mut jumping = vec![0x86, 3];
            jumping.extend_from_slice(&((i as u16).wrapping_mul(2048)).to_be_bytes());
            jumping.extend_from_slice(&[0, 0]);
            let fragment = enet_fragment(false, 0, 9, [2, 0, 8, 0], &[1, 2, 3, 4]);
            enet(&[reliable, jumping, fragment])
        }))
    });
}

#[test]
fn enet_reliable_gaps_held_then_given_up() {
    // Reliable commands with a number missing before each (never sent): each is held for the
    // missing one, up to the held limit, past which the oldest gap is given up on, one a
    // datagram; the rest are handed out when the flow ends.
    assert_linear("enet reliable gaps", 3_000, 16, config(), |n| {
        enet_capture((0..n).map(|i| {
            let mut reliable = vec![0x86, 1];
            reliable.extend_from_slice(&((i as u16).wrapping_mul(2).wrapping_add(3)).to_be_bytes());
            reliable.extend_from_slice(&[0, 100]);
            reliable.extend_from_slice(&[7; 100]);
            enet(&[reliable])
        }))
    });
}
