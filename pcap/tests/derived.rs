//! Captures written by the test: one connection's segments reordered, duplicated, dropped,
//! overlapping with contradictory bytes, cut mid-frame; a capture that starts mid-flow; UDP
//! datagrams, IPv4 and IPv6 fragments (duplicates, overlaps, limits); pcapng; other link types; a truncated file; too many flows.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod support;

use std::borrow::Cow;

use gdvariant::Options;
use gdvariant_pcap::{Carrier, Config, Direction, FileError, FlowInfo, Item, Reader, Refusal};
use support::*;

fn config() -> Config {
    Config::new(Options::godot4())
}

/// Every item of `file`, and the flows.
fn read(file: &[u8], config: Config) -> (Vec<Item<'_>>, Vec<FlowInfo>, gdvariant_pcap::Totals) {
    let mut reader = Reader::new(file, config).unwrap();
    let items: Vec<Item<'_>> = reader.by_ref().collect();
    (items, reader.flows(), reader.totals().clone())
}

/// The ints of the value items, in order.
fn ints(items: &[Item<'_>]) -> Vec<i64> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::Value(v) => Some(v.value().unwrap().as_int().unwrap()),
            _ => None,
        })
        .collect()
}

/// The client's stream: frames of the ints 0..n.
fn stream(n: i32) -> Vec<u8> {
    (0..n).flat_map(|i| frame(&int(i))).collect()
}

fn capture(segments: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut packets = handshake();
    packets.extend(segments.iter().map(|(seq, bytes)| data(*seq, bytes)));
    pcap(1, &packets)
}

#[test]
fn in_order_every_frame_once_borrowed_when_one_packet_holds_it() {
    // 12-byte frames in 24-byte segments: two whole frames per segment.
    let file = capture(&segments(&stream(10), 24));
    let (items, flows, totals) = read(&file, config());
    assert_eq!(ints(&items), (0..10).collect::<Vec<_>>());
    for item in &items {
        let Item::Value(v) = item else { panic!("{item:?}") };
        assert!(matches!(v.bytes, Cow::Borrowed(_)));
        assert_eq!(v.direction, Direction::ToServer);
    }
    assert_eq!(flows.len(), 1);
    assert_eq!(flows[0].client.port(), CLIENT.1);
    assert_eq!(flows[0].carrier, Some(Carrier::PutVar));
    assert!(flows[0].why.contains("length prefix (8)"), "{}", flows[0].why);
    assert_eq!(totals.packets, 8);
}

#[test]
fn frames_across_segments_are_gathered() {
    // 5-byte segments: every frame spans two or three.
    let file = capture(&segments(&stream(10), 5));
    let (items, _, _) = read(&file, config());
    assert_eq!(ints(&items), (0..10).collect::<Vec<_>>());
    assert!(items.iter().any(|i| matches!(i, Item::Value(v) if matches!(v.bytes, Cow::Owned(_)))));
}

#[test]
fn reordered_segments_are_put_back_in_order() {
    let mut segs = segments(&stream(20), 7);
    for pair in segs.chunks_mut(2) {
        pair.reverse();
    }
    segs.swap(3, 9);
    let file = capture(&segs);
    let (items, flows, _) = read(&file, config());
    assert_eq!(ints(&items), (0..20).collect::<Vec<_>>());
    assert!(flows[0].tcp[0].reordered_segments > 5);
    assert_eq!(flows[0].tcp[0].gaps, 0);
}

#[test]
fn duplicates_are_counted_once_and_dropped() {
    let segs = segments(&stream(10), 12);
    let doubled: Vec<_> = segs.iter().flat_map(|s| [s.clone(), s.clone()]).collect();
    let file = capture(&doubled);
    let (items, flows, _) = read(&file, config());
    assert_eq!(ints(&items), (0..10).collect::<Vec<_>>());
    assert_eq!(flows[0].tcp[0].retransmitted_segments, 10);
    assert_eq!(flows[0].tcp[0].retransmitted_bytes, 120);
}

#[test]
fn a_dropped_segment_is_a_gap_and_framing_resumes_at_the_next_frame() {
    // One frame per segment; segment 4 (the frame of 4) is lost, and segment 6 is cut in two
    // so that its second half does not start a frame.
    let mut segs = segments(&stream(10), 12);
    segs.remove(4);
    let file = capture(&segs);
    let (items, flows, _) = read(&file, config());
    assert_eq!(ints(&items), vec![0, 1, 2, 3, 5, 6, 7, 8, 9]);
    let gaps: Vec<_> =
        items.iter().filter_map(|i| if let Item::Gap(g) = i { Some(*g) } else { None }).collect();
    assert_eq!(gaps.len(), 1);
    assert_eq!(
        (gaps[0].offset, gaps[0].missing, gaps[0].skipped, gaps[0].resynced),
        (48, 12, 0, true)
    );
    assert_eq!(flows[0].tcp[0].gaps, 1);
    assert_eq!(flows[0].gaps, [1, 0]);
}

#[test]
fn after_a_gap_mid_frame_the_bytes_passed_over_are_reported() {
    // 8-byte segments: a frame starts at every third segment boundary only.
    let mut segs = segments(&stream(12), 8);
    segs.remove(1); // bytes 8..16: frame 0's end, frame 1's prefix
    let file = capture(&segs);
    let (items, _, _) = read(&file, config());
    let gap =
        items.iter().find_map(|i| if let Item::Gap(g) = i { Some(*g) } else { None }).unwrap();
    assert_eq!((gap.offset, gap.missing), (8, 8));
    assert!(gap.resynced);
    // Passed over: frame 0's first 8 bytes, then the segment at 16 (inside frame 1, not a
    // frame); frame 2 starts at 24, a segment start.
    assert_eq!(gap.skipped, 16);
    assert_eq!(ints(&items), (2..12).collect::<Vec<_>>());
}

#[test]
fn overlapping_contradictory_bytes_the_first_received_wins() {
    let good = stream(4); // 48 bytes
    let mut forged = good.clone();
    forged[8..12].copy_from_slice(&99i32.to_le_bytes()); // frame 0's value
    forged[20..24].copy_from_slice(&98i32.to_le_bytes()); // frame 1's value
    // Out of order first: bytes 12..48 (good), then a forged copy of 0..24, then good 0..12.
    let segs = vec![
        (1001 + 12, good[12..].to_vec()),
        (1001, forged[..24].to_vec()),
        (1001, good[..12].to_vec()),
    ];
    let file = capture(&segs);
    let (items, flows, _) = read(&file, config());
    // The forged segment arrived before good[0..12]: its bytes 0..12 win (99); its bytes
    // 12..24 came after the good ones, which win (1).
    assert_eq!(ints(&items), vec![99, 1, 2, 3]);
    assert_eq!(flows[0].tcp[0].overlap_bytes, 12);
    assert_eq!(flows[0].tcp[0].retransmitted_segments, 1);
}

#[test]
fn a_capture_that_starts_mid_flow_finds_its_first_frame() {
    let s = stream(6);
    // No handshake; the capture starts 5 bytes into frame 1, then a segment per frame.
    let mut packets = vec![data(2000, &s[17..24])];
    for (i, f) in s[24..].chunks(12).enumerate() {
        packets.push(data(2000 + 7 + 12 * i as u32, f));
    }
    let file = pcap(1, &packets);
    let (items, flows, _) = read(&file, config());
    assert_eq!(ints(&items), vec![2, 3, 4, 5]);
    assert_eq!(flows[0].server.port(), SERVER.1);
    assert!(flows[0].server_why.contains("lower port"), "{}", flows[0].server_why);
    let gap =
        items.iter().find_map(|i| if let Item::Gap(g) = i { Some(*g) } else { None }).unwrap();
    assert_eq!((gap.missing, gap.skipped), (0, 7));
    // The port given wins over the lower port.
    let (_, flows, _) = read(&file, config().with_port(CLIENT.1, Carrier::PutVar));
    assert_eq!(flows[0].server.port(), CLIENT.1);
}

#[test]
fn refused_frames_are_items_with_godots_reason_and_reading_goes_on() {
    let mut s = frame(&int(1));
    s.extend(frame(&[0xEE, 0, 0, 0, 1, 0, 0, 0])); // an unknown type
    s.extend((-5i32).to_le_bytes()); // a negative length: 4 bytes passed over
    s.extend(frame(&int(2)));
    s.extend(u32::MAX.to_le_bytes()); // too large: passed over as it arrives
    let file = capture(&segments(&s, 9));
    let (items, flows, _) = read(&file, config());
    assert_eq!(ints(&items), vec![1, 2]);
    let refused: Vec<_> = items
        .iter()
        .filter_map(|i| if let Item::Refused(r) = i { Some(r) } else { None })
        .collect();
    assert_eq!(refused.len(), 3);
    assert_eq!(refused[0].offset, 12);
    assert!(matches!(refused[0].refusal, Refusal::Frame(_)));
    assert!(!refused[0].refusal.to_string().is_empty());
    assert_eq!(refused[0].bytes.len(), 12);
    assert_eq!(flows[0].refused, [3, 0]);
}

#[test]
fn fin_ends_a_direction_and_a_cut_frame_is_reported() {
    let s = stream(3);
    let mut packets = handshake();
    packets.push(data(1001, &s[..30]));
    packets.push(tcp(
        CLIENT,
        SERVER,
        1031,
        Flags { ack: true, fin: true, ..Flags::default() },
        &[],
    ));
    let file = pcap(1, &packets);
    let (items, _, _) = read(&file, config());
    assert_eq!(ints(&items), vec![0, 1]);
    let cut =
        items.iter().find_map(|i| if let Item::Cut(c) = i { Some(*c) } else { None }).unwrap();
    assert_eq!((cut.held, cut.needed), (6, 6));
}

#[test]
fn udp_datagrams_one_value_each_refusals_included() {
    let packets = vec![
        udp(CLIENT, SERVER, &int(7)),
        udp(SERVER, CLIENT, &int(8)),
        udp(CLIENT, SERVER, &[0xEE, 0, 0, 0]),
    ];
    let file = pcap(1, &packets);
    let (items, flows, _) = read(&file, config());
    assert_eq!(ints(&items), vec![7, 8]);
    assert!(matches!(&items[2], Item::Refused(r) if matches!(r.refusal, Refusal::Datagram(_))));
    assert_eq!(flows[0].carrier, Some(Carrier::Datagrams));
    assert_eq!(flows[0].datagrams, [2, 1]);
    // Not a value first: not read, counted.
    let file = pcap(1, &[udp(CLIENT, SERVER, b"GET / HTTP/1.1"), udp(CLIENT, SERVER, &int(1))]);
    let (items, flows, _) = read(&file, config());
    assert!(items.is_empty());
    assert_eq!(flows[0].carrier, Some(Carrier::Other));
    assert_eq!(flows[0].ignored_bytes, 14 + 8);
    // Unless the port says so.
    let (items, _, _) = read(&file, config().with_port(SERVER.1, Carrier::Datagrams));
    assert_eq!(items.len(), 2);
}

/// IPv4 fragments of one UDP datagram (raw IP link type), `order` the fragments' order.
fn fragmented(value: &[u8], order: &[usize]) -> Vec<u8> {
    let mut udp_bytes = Vec::new();
    udp_bytes.extend_from_slice(&CLIENT.1.to_be_bytes());
    udp_bytes.extend_from_slice(&SERVER.1.to_be_bytes());
    udp_bytes.extend_from_slice(&((8 + value.len()) as u16).to_be_bytes());
    udp_bytes.extend_from_slice(&[0, 0]);
    udp_bytes.extend_from_slice(value);
    let pieces: Vec<&[u8]> = udp_bytes.chunks(16).collect();
    let packets: Vec<Vec<u8>> = order
        .iter()
        .map(|&i| {
            let piece = pieces[i];
            let more = i + 1 < pieces.len();
            let mut header = etherparse::Ipv4Header::new(
                piece.len() as u16,
                64,
                etherparse::IpNumber::UDP,
                CLIENT.0,
                SERVER.0,
            )
            .unwrap();
            header.identification = 77;
            header.more_fragments = more;
            header.fragment_offset = etherparse::IpFragOffset::try_new((i * 2) as u16).unwrap();
            let mut out = Vec::new();
            header.write(&mut out).unwrap();
            out.extend_from_slice(piece);
            out
        })
        .collect();
    pcap(101, &packets)
}

#[test]
fn ipv4_fragments_are_put_together_in_any_order() {
    let value: Vec<u8> = {
        // A Godot 4 String of 40 bytes.
        let mut v = vec![4, 0, 0, 0, 40, 0, 0, 0];
        v.extend_from_slice(&[b'x'; 40]);
        v
    };
    for order in [vec![0, 1, 2, 3], vec![3, 1, 0, 2], vec![2, 2, 0, 3, 1]] {
        let file = fragmented(&value, &order);
        let (items, _, totals) = read(&file, config());
        assert_eq!(items.len(), 1, "{order:?}: {items:?} {totals:?}");
        let Item::Value(v) = &items[0] else { panic!() };
        assert_eq!(&v.bytes[..], &value[..]);
    }
    // A fragment missing: nothing, and nothing is dropped without a count.
    let file = fragmented(&value, &[0, 1, 3]);
    let (items, _, totals) = read(&file, config());
    assert!(items.is_empty());
    assert_eq!(totals.skipped.values().sum::<u64>(), 3);
}

#[test]
fn pcapng_reads_as_pcap() {
    let mut packets = handshake();
    packets.extend(segments(&stream(5), 10).iter().map(|(seq, b)| data(*seq, b)));
    let plain = pcap(1, &packets);
    let (a, _, _) = read(&plain, config());
    let ng = pcapng(&packets);
    let (b, _, totals) = read(&ng, config());
    assert_eq!(ints(&a), ints(&b));
    assert_eq!(totals.packets, packets.len() as u64);
    let Item::Value(v) = &b[0] else { panic!() };
    assert_eq!(v.time.0, 1_700_000_000_000_000_000 + 4_000);
}

#[test]
fn linux_sll_sll2_null_and_raw_links() {
    let segment = data(1001, &stream(2));
    let ip = &segment[14..];
    let mut sll = vec![0, 0, 0, 1, 0, 6, 1, 1, 1, 1, 1, 1, 0, 0, 0x08, 0x00];
    sll.extend_from_slice(ip);
    let mut sll2 = vec![0x08, 0x00, 0, 0, 0, 0, 0, 1, 0, 1, 0, 6, 1, 1, 1, 1, 1, 1, 0, 0];
    sll2.extend_from_slice(ip);
    let mut null = 2u32.to_le_bytes().to_vec();
    null.extend_from_slice(ip);
    for (link, packet) in [(113, sll), (276, sll2), (0, null), (101, ip.to_vec())] {
        let file = pcap(link, &[packet]);
        let (items, _, totals) = read(&file, config());
        assert_eq!(ints(&items), vec![0, 1], "link {link}: {totals:?}");
    }
    // VLAN-tagged Ethernet.
    let mut tagged = segment[..12].to_vec();
    tagged.extend_from_slice(&[0x81, 0x00, 0x00, 0x05]);
    tagged.extend_from_slice(&segment[12..]);
    let file = pcap(1, &[tagged]);
    let (items, _, _) = read(&file, config());
    assert_eq!(ints(&items), vec![0, 1]);
}

#[test]
fn truncated_and_foreign_files_never_panic() {
    let file = capture(&segments(&stream(10), 12));
    for cut in [0, 3, 24, 30, 100, file.len() - 1] {
        match Reader::new(&file[..cut], config()) {
            Err(error) => assert!(cut < 24, "{cut}: {error}"),
            Ok(mut reader) => {
                let _ = reader.by_ref().count();
                if cut > 24 && cut < file.len() {
                    assert!(matches!(
                        reader.totals().file_error,
                        Some(FileError::Truncated { .. })
                    ));
                }
            }
        }
    }
    assert_eq!(Reader::new(b"GDVARIANT", config()).err(), Some(FileError::NotACapture));
}

#[test]
fn too_many_flows_the_oldest_are_evicted_and_reported() {
    let mut packets = Vec::new();
    for port in 0..20u16 {
        packets.push(tcp(
            ([10, 0, 0, 1], 40_000 + port),
            SERVER,
            1,
            Flags::default(),
            &frame(&int(port as i32))[..6],
        ));
    }
    let mut config = config();
    config.max_flows = 5;
    let file = pcap(1, &packets);
    let (items, flows, totals) = read(&file, config);
    let evicted = items.iter().filter(|i| matches!(i, Item::Evicted { .. })).count();
    assert_eq!(evicted, 15);
    assert_eq!(totals.evicted, 15);
    assert_eq!(flows.len(), 20);
    // Each flow's partial frame was reported, never dropped silently (no handshake: the
    // framing was still looking for its first frame, so it is a gap of bytes passed over).
    let gaps: Vec<_> =
        items.iter().filter_map(|i| if let Item::Gap(g) = i { Some(*g) } else { None }).collect();
    assert_eq!(gaps.len(), 20);
    assert!(gaps.iter().all(|g| g.skipped == 6 && !g.resynced));
}

#[test]
fn rst_ends_both_directions_and_a_new_syn_starts_a_new_flow() {
    let s = stream(4);
    let mut packets = handshake();
    packets.push(data(1001, &s[..12]));
    packets.push(data(1001 + 24, &s[24..36])); // waits after a hole
    packets.push(tcp(CLIENT, SERVER, 1001 + 36, Flags { rst: true, ..Flags::default() }, &[]));
    // The same 5-tuple again: a new connection.
    packets.push(tcp(CLIENT, SERVER, 9000, Flags { syn: true, ..Flags::default() }, &[]));
    packets.push(tcp(
        CLIENT,
        SERVER,
        9001,
        Flags { ack: true, ..Flags::default() },
        &frame(&int(42)),
    ));
    let file = pcap(1, &packets);
    let (items, flows, _) = read(&file, config());
    // The RST delivered what waited: a gap of 12 bytes, then frame 2 found again.
    assert_eq!(ints(&items), vec![0, 2, 42]);
    let gap =
        items.iter().find_map(|i| if let Item::Gap(g) = i { Some(*g) } else { None }).unwrap();
    assert_eq!((gap.offset, gap.missing, gap.skipped), (12, 12, 0));
    assert_eq!(flows.len(), 2);
    let Item::Value(last) = items.last().unwrap() else { panic!() };
    assert_eq!(last.flow, flows[1].id);
    assert_eq!(last.offset, 0);
}

#[test]
fn big_endian_and_store_var_prefixes() {
    let mut s = Vec::new();
    for i in 0..3 {
        s.extend_from_slice(&8u32.to_be_bytes());
        s.extend(int(i));
    }
    let file = capture(&segments(&s, 12));
    let mut config = config();
    config.prefix = gdvariant::framing::LengthPrefix::stream_peer(true);
    let (items, _, _) = read(&file, config);
    assert_eq!(ints(&items), vec![0, 1, 2]);
}

#[test]
fn ipv6_and_packets_of_other_kinds_counted() {
    let a = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    let b = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];
    let mut packets = Vec::new();
    for (i, value) in [int(1), int(2)].iter().enumerate() {
        let builder = etherparse::PacketBuilder::ethernet2([1; 6], [2; 6]).ipv6(a, b, 64).tcp(
            50_000,
            7_000,
            100 + 12 * i as u32,
            1000,
        );
        let mut out = Vec::new();
        builder.write(&mut out, &frame(value)).unwrap();
        packets.push(out);
    }
    // ARP, then ICMP: not read, counted.
    let mut arp = vec![2; 12];
    arp.extend_from_slice(&[0x08, 0x06]);
    arp.extend_from_slice(&[0; 28]);
    packets.push(arp);
    let icmp = etherparse::PacketBuilder::ethernet2([1; 6], [2; 6])
        .ipv4(CLIENT.0, SERVER.0, 64)
        .icmpv4_echo_request(1, 1);
    let mut out = Vec::new();
    icmp.write(&mut out, b"ping").unwrap();
    packets.push(out);
    let file = pcap(1, &packets);
    let (items, flows, totals) = read(&file, config());
    assert_eq!(ints(&items), vec![1, 2]);
    assert_eq!(flows[0].server.to_string(), "[2001:db8::2]:7000");
    assert_eq!(totals.skipped.get(&gdvariant_pcap::Skip::NotIp), Some(&1));
    assert_eq!(totals.skipped.get(&gdvariant_pcap::Skip::OtherProtocol), Some(&1));
}

/// The IPv6 addresses of the fragment tests.
const V6_CLIENT: [u8; 16] = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
const V6_SERVER: [u8; 16] = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];

/// A Godot 4 String of 40 bytes behind a UDP header: 56 bytes, 3 fragments of 24, 24, 8.
fn v6_datagram() -> (Vec<u8>, Vec<u8>) {
    let mut value = vec![4, 0, 0, 0, 40, 0, 0, 0];
    value.extend_from_slice(&[b'y'; 40]);
    (udp_bytes(CLIENT.1, SERVER.1, &value), value)
}

/// IPv6 fragments (id `id`) of `bytes`: (offset in 8-byte units, more, data) each.
fn v6(id: u32, pieces: &[(u16, bool, &[u8])]) -> Vec<Vec<u8>> {
    pieces.iter().map(|(o, m, d)| ipv6_fragment(V6_CLIENT, V6_SERVER, id, *o, *m, 17, d)).collect()
}

#[test]
fn ipv6_udp_in_three_fragments_is_put_together_in_any_order() {
    let (udp, value) = v6_datagram();
    let pieces = [(0u16, true, &udp[..24]), (3, true, &udp[24..48]), (6, false, &udp[48..])];
    for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]] {
        let packets = v6(9, &order.map(|i| pieces[i]));
        let file = pcap(101, &packets);
        let (items, flows, totals) = read(&file, config());
        assert_eq!(items.len(), 1, "{order:?}: {items:?} {totals:?}");
        let Item::Value(v) = &items[0] else { panic!("{:?}", items[0]) };
        assert_eq!(&v.bytes[..], &value[..]);
        assert!(matches!(v.bytes, Cow::Owned(_)));
        assert_eq!(flows[0].client.ip(), std::net::Ipv6Addr::from(V6_CLIENT));
        assert_eq!(flows[0].server.port(), SERVER.1);
        assert_eq!(totals.skipped.get(&gdvariant_pcap::Skip::Fragment), Some(&2));
        assert_eq!(totals.fragments_dropped, 0);
    }
    // An atomic fragment (offset 0, the last): read at once.
    let packets = v6(10, &[(0, false, &udp[..])]);
    let file = pcap(101, &packets);
    let (items, _, totals) = read(&file, config());
    assert_eq!(items.len(), 1, "{totals:?}");
}

#[test]
fn ip_fragment_duplicates_are_dropped_alone_overlaps_drop_the_datagram() {
    let (udp, _) = v6_datagram();
    // The middle fragment twice (a duplicate: the first received wins), then the rest.
    let packets = v6(
        1,
        &[
            (3, true, &udp[24..48]),
            (3, true, &[0; 24]),
            (0, true, &udp[..24]),
            (6, false, &udp[48..]),
        ],
    );
    let file = pcap(101, &packets);
    let (items, _, totals) = read(&file, config());
    assert_eq!(items.len(), 1);
    assert!(matches!(&items[0], Item::Value(_)));
    assert_eq!(totals.fragments_dropped, 1);
    // 16 bytes at offset 16, across the end of the first fragment and the start of the
    // second. Received in order, the two are one run (as Linux keeps them): the 16 bytes lie
    // within it, a duplicate, dropped alone.
    let (a, b, c) = ((0, true, &udp[..24]), (3, true, &udp[24..48]), (6, false, &udp[48..]));
    let across: (u16, bool, &[u8]) = (2, true, &[0; 16]);
    let file = pcap(101, &v6(2, &[a, b, across, c]));
    let (items, _, totals) = read(&file, config());
    assert_eq!(items.len(), 1, "{totals:?}");
    let Item::Value(v) = &items[0] else { panic!("{:?}", items[0]) };
    assert_eq!(&v.bytes[..], &udp[8..]);
    assert_eq!(totals.fragments_dropped, 1);
    // Received the other way round, they are two runs: the 16 bytes overlap both, and the
    // whole datagram is dropped (RFC 5722); its last fragment then starts a datagram that
    // never completes.
    let file = pcap(101, &v6(3, &[b, a, across, c]));
    let (items, _, totals) = read(&file, config());
    assert!(items.is_empty(), "{items:?}");
    assert_eq!(totals.fragments_dropped, 3, "{totals:?}");
    assert_eq!(totals.skipped.get(&gdvariant_pcap::Skip::FragmentsDropped), Some(&1));
    // An empty fragment drops its datagram too.
    let file = pcap(101, &v6(4, &[a, (3, true, &[]), b, c]));
    let (items, _, totals) = read(&file, config());
    assert!(items.is_empty(), "{items:?}");
    assert_eq!(totals.fragments_dropped, 2, "{totals:?}");
    // IPv4 alike.
    let value: Vec<u8> = [4, 0, 0, 0, 40, 0, 0, 0].into_iter().chain([b'x'; 40]).collect();
    let udp4 = udp_bytes(CLIENT.1, SERVER.1, &value);
    let number = etherparse::IpNumber::UDP;
    let frag = |o: u16, m: bool, d: &[u8]| ipv4_fragment(CLIENT.0, SERVER.0, 5, o, m, number, d);
    let overlapping =
        [frag(0, true, &udp4[..24]), frag(2, true, &udp4[16..40]), frag(5, false, &udp4[40..])];
    let file = pcap(1, &overlapping);
    let (items, _, totals) = read(&file, config());
    assert!(items.is_empty(), "{items:?}");
    assert_eq!(totals.fragments_dropped, 2);
    let duplicated = [
        frag(0, true, &udp4[..24]),
        frag(0, true, &udp4[..24]),
        frag(3, true, &udp4[24..40]),
        frag(5, false, &udp4[40..]),
    ];
    let file = pcap(1, &duplicated);
    let (items, _, totals) = read(&file, config());
    assert_eq!(items.len(), 1);
    assert_eq!(totals.fragments_dropped, 1);
}

#[test]
fn ipv6_fragments_past_the_limits_are_dropped_and_counted() {
    // More fragments than a datagram may have.
    let mut config = config();
    config.fragments.max_fragments = 4;
    let data = [1u8; 8];
    let pieces: Vec<(u16, bool, &[u8])> = (0..6).map(|i| (i, i < 5, &data[..])).collect();
    let file = pcap(101, &v6(3, &pieces));
    let (items, _, totals) = read(&file, config.clone());
    assert!(items.is_empty());
    assert_eq!(totals.fragments_dropped, 5, "{totals:?}");
    // A fragment before the last not a multiple of 8 bytes long: dropped alone.
    let (udp, _) = v6_datagram();
    let packets = v6(4, &[(0, true, &udp[..20])]);
    let file = pcap(101, &packets);
    let (_, _, totals) = read(&file, config.clone());
    assert_eq!(totals.fragments_dropped, 1);
    // Datagrams past max_datagrams: the oldest are dropped with their fragments.
    config.fragments.max_datagrams = 2;
    let packets: Vec<Vec<u8>> = (0..5).flat_map(|id| v6(id, &[(0, true, &udp[..24])])).collect();
    let file = pcap(101, &packets);
    let (_, _, totals) = read(&file, config);
    assert_eq!(totals.fragments_dropped, 3);
    assert_eq!(totals.skipped.get(&gdvariant_pcap::Skip::Fragment), Some(&5));
}
