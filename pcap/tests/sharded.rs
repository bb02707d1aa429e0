//! `Sharded` (a capture read across flows on several threads) hands out what one `Reader`
//! hands out, item for item and in the same order, with the same flows and totals: on every
//! corpus capture, on the corpus captures copied into many flows and interleaved, and on a
//! generated capture of many TCP, UDP and fragmented flows (reordered, duplicated, with holes,
//! cut, reset and restarted), with windows of 1 packet up; past the flow limit, each shard
//! evicts its own flows and says so.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod support;

use gdvariant::Options;
use gdvariant_pcap::{Config, FlowInfo, Item, Reader, Sharded, Totals};
use support::*;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../corpus/captures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every capture of `corpus/captures/`, by name.
fn captures() -> Vec<String> {
    let dir = format!("{}/../corpus/captures", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".pcap") || n.ends_with(".pcapng"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    names
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// The records of a pcap file: (record header, packet).
fn records(file: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 24;
    while at + 16 <= file.len() {
        let len = u32::from_le_bytes(file[at + 8..at + 12].try_into().unwrap()) as usize;
        out.push((file[at..at + 16].to_vec(), file[at + 16..at + 16 + len].to_vec()));
        at += 16 + len;
    }
    out
}

/// Packet lists interleaved at random (each list's order kept), as a pcap file with `header`.
fn interleave(header: &[u8], mut lists: Vec<Vec<(Vec<u8>, Vec<u8>)>>, seed: u64) -> Vec<u8> {
    let mut rng = Lcg(seed);
    lists.iter_mut().for_each(|l| l.reverse());
    let mut out = header.to_vec();
    while !lists.is_empty() {
        let i = rng.below(lists.len());
        for _ in 0..=rng.below(3) {
            if let Some((record, packet)) = lists[i].pop() {
                out.extend_from_slice(&record);
                out.extend_from_slice(&packet);
            }
        }
        if lists[i].is_empty() {
            lists.swap_remove(i);
        }
    }
    out
}

/// The corpus captures (Ethernet, IPv4 on loopback) copied `copies` times, copy `k` moved to
/// 127.0.k.1 on both sides, all interleaved.
fn corpus_many(copies: u8) -> Vec<u8> {
    let files: Vec<Vec<u8>> = captures().iter().map(|n| corpus(n)).collect();
    let header = files[0][..24].to_vec();
    let mut lists = Vec::new();
    for file in &files {
        assert_eq!(file[..24], header[..], "the corpus captures share a header");
        for k in 0..copies {
            let list: Vec<(Vec<u8>, Vec<u8>)> = records(file)
                .into_iter()
                .map(|(record, mut packet)| {
                    assert_eq!(&packet[12..14], &[8, 0], "IPv4 over Ethernet");
                    packet[14 + 12 + 2] = k;
                    packet[14 + 16 + 2] = k;
                    (record, packet)
                })
                .collect();
            lists.push(list);
        }
    }
    interleave(&header, lists, 7)
}

/// One record header (time `i` microseconds) per packet.
fn timed(packets: Vec<Vec<u8>>, start: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    packets
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let mut record = 1_700_000_000u32.to_le_bytes().to_vec();
            record.extend_from_slice(&((start + i) as u32).to_le_bytes());
            record.extend_from_slice(&(p.len() as u32).to_le_bytes());
            record.extend_from_slice(&(p.len() as u32).to_le_bytes());
            (record, p)
        })
        .collect()
}

/// A TCP connection of flow `f` between `client` and `server`: its kind by `f % 6`.
fn connection(
    f: usize,
    client: ([u8; 4], u16),
    server: ([u8; 4], u16),
    rng: &mut Lcg,
) -> Vec<Vec<u8>> {
    let ack = Flags { ack: true, ..Flags::default() };
    let n = 3 + rng.below(20) as i32;
    let stream: Vec<u8> = (0..n).flat_map(|i| frame(&int(f as i32 * 1000 + i))).collect();
    let reply: Vec<u8> = (0..n / 2).flat_map(|i| frame(&int(-i))).collect();
    let size = 1 + rng.below(40);
    let mut out = Vec::new();
    if f % 6 != 5 {
        out.push(tcp(client, server, 1000, Flags { syn: true, ..Flags::default() }, &[]));
        out.push(tcp(
            server,
            client,
            5000,
            Flags { syn: true, ack: true, ..Flags::default() },
            &[],
        ));
        out.push(tcp(client, server, 1001, ack, &[]));
    }
    let mut segs: Vec<Vec<u8>> = stream
        .chunks(size)
        .enumerate()
        .map(|(i, c)| tcp(client, server, 1001 + (i * size) as u32, ack, c))
        .collect();
    match f % 6 {
        1 => {
            for i in (1..segs.len()).step_by(3) {
                segs.swap(i - 1, i);
            }
            let again = segs[rng.below(segs.len())].clone();
            segs.push(again);
        }
        2 if segs.len() > 2 => {
            segs.remove(1);
        }
        3 if segs.len() > 1 => {
            segs.pop();
        }
        _ => {}
    }
    out.extend(segs);
    out.extend(
        reply
            .chunks(size)
            .enumerate()
            .map(|(i, c)| tcp(server, client, 5001 + (i * size) as u32, ack, c)),
    );
    match f % 6 {
        0 | 1 => {
            let end = 1001 + stream.len() as u32;
            out.push(tcp(
                client,
                server,
                end,
                Flags { fin: true, ack: true, ..Flags::default() },
                &[],
            ));
        }
        4 => {
            out.push(tcp(client, server, 9, Flags { rst: true, ..Flags::default() }, &[]));
            // The same ports again: a new flow.
            out.push(tcp(client, server, 1000, Flags { syn: true, ..Flags::default() }, &[]));
            out.push(tcp(client, server, 1001, ack, &frame(&int(77))));
        }
        _ => {}
    }
    out
}

/// Many flows interleaved: TCP connections of every kind, UDP flows (values and refused
/// datagrams), IPv4 and IPv6 datagrams in fragments.
fn synthetic(flows: usize, seed: u64) -> Vec<u8> {
    let mut rng = Lcg(seed);
    let mut lists = Vec::new();
    let mut start = 0;
    for f in 0..flows {
        let client = ([10, 1, (f >> 8) as u8, f as u8], 40_000 + (f % 7) as u16);
        let server = ([10, 0, 0, 2], 7_000);
        let packets = match f % 8 {
            6 => (0..1 + rng.below(10))
                .map(|i| {
                    let value = if i % 4 == 3 { vec![0xEE; 5] } else { int(i as i32) };
                    if i % 2 == 0 {
                        udp(client, server, &value)
                    } else {
                        udp(server, client, &value)
                    }
                })
                .collect(),
            7 => {
                // A datagram in 3 fragments, out of order: IPv4 or IPv6.
                let mut value = vec![4, 0, 0, 0, 40, 0, 0, 0];
                value.extend_from_slice(&[b'a' + (f % 26) as u8; 40]);
                let udp = udp_bytes(client.1, server.1, &value);
                let pieces: Vec<&[u8]> = udp.chunks(24).collect();
                let mut order = [0, 1, 2];
                order.swap(rng.below(3), rng.below(3));
                order
                    .iter()
                    .map(|&i| {
                        let more = i + 1 < pieces.len();
                        if f % 16 == 7 {
                            let mut from = [0u8; 16];
                            from[..4].copy_from_slice(&client.0);
                            ipv6_fragment(
                                from,
                                [9; 16],
                                f as u32,
                                (i * 3) as u16,
                                more,
                                17,
                                pieces[i],
                            )
                        } else {
                            let udp_number = etherparse::IpNumber::UDP;
                            ipv4_fragment(
                                client.0,
                                server.0,
                                f as u16,
                                (i * 3) as u16,
                                more,
                                udp_number,
                                pieces[i],
                            )
                        }
                    })
                    .collect()
            }
            _ => connection(f, client, server, &mut rng),
        };
        let n = packets.len();
        lists.push(timed(packets, start));
        start += n;
    }
    // Ethernet for all but the IPv6 fragments (raw IP): two files' worth would need two link
    // types, so the IPv6 ones are wrapped in Ethernet here.
    for list in &mut lists {
        for (record, packet) in list.iter_mut() {
            if packet[0] >> 4 == 6 {
                let mut framed = vec![2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0x86, 0xDD];
                framed.extend_from_slice(packet);
                *packet = framed;
                record[8..12].copy_from_slice(&(packet.len() as u32).to_le_bytes());
                record[12..16].copy_from_slice(&(packet.len() as u32).to_le_bytes());
            }
        }
    }
    let header = pcap(1, &[]);
    interleave(&header, lists, seed)
}

type Read = (Vec<String>, Vec<FlowInfo>, Totals);

fn with_reader(file: &[u8], config: &Config) -> Read {
    let mut reader = Reader::new(file, config.clone()).unwrap();
    let items: Vec<String> = reader.by_ref().map(|item| format!("{item:?}")).collect();
    (items, reader.flows(), reader.totals().clone())
}

fn with_shards(file: &[u8], config: &Config, jobs: usize, window: usize) -> Read {
    let mut sharded = Sharded::new(file, config.clone(), jobs).unwrap().with_window_packets(window);
    let items: Vec<String> = sharded.by_ref().map(|item| format!("{item:?}")).collect();
    (items, sharded.flows(), sharded.totals())
}

/// As [`with_shards`], the items taken by `try_each` (the next window read meanwhile) after
/// `first` taken by the iterator.
fn with_try_each(file: &[u8], config: &Config, jobs: usize, window: usize, first: usize) -> Read {
    let mut sharded = Sharded::new(file, config.clone(), jobs).unwrap().with_window_packets(window);
    let mut items: Vec<String> = sharded.by_ref().take(first).map(|i| format!("{i:?}")).collect();
    sharded
        .try_each(|item| {
            items.push(format!("{item:?}"));
            Ok::<(), ()>(())
        })
        .unwrap();
    (items, sharded.flows(), sharded.totals())
}

/// Asserts that every sharded reading of `file` equals the reader's; returns the latter.
fn same(name: &str, file: &[u8], config: &Config) -> Read {
    let expected = with_reader(file, config);
    for jobs in [2, 3] {
        for (window, pipelined) in
            [1, 5, 64, usize::MAX].into_iter().flat_map(|w| [(w, false), (w, true)])
        {
            let got = match pipelined {
                false => with_shards(file, config, jobs, window),
                true => with_try_each(file, config, jobs, window, window.min(1_000) / 2),
            };
            assert_eq!(got.0.len(), expected.0.len(), "{name}: {jobs} jobs, window {window}");
            for (i, (a, b)) in got.0.iter().zip(&expected.0).enumerate() {
                assert_eq!(a, b, "{name}: {jobs} jobs, window {window}: item {i}");
            }
            assert_eq!(got.1, expected.1, "{name}: {jobs} jobs, window {window}: flows");
            assert_eq!(got.2, expected.2, "{name}: {jobs} jobs, window {window}: totals");
        }
    }
    expected
}

#[test]
fn every_corpus_capture_reads_the_same_on_several_threads() {
    for name in captures() {
        let file = corpus(&name);
        for (options, detect) in
            [(Options::godot3(), false), (Options::godot4(), false), (Options::godot4(), true)]
        {
            let mut config = Config::new(options);
            config.detect_version = detect;
            let (items, flows, _) = same(&name, &file, &config);
            assert!(!items.is_empty() && !flows.is_empty(), "{name}");
        }
        // Raw WebSocket messages (the multiplayer layer's).
        let mut config = Config::new(Options::godot4());
        config.websocket_raw = true;
        same(&name, &file, &config);
    }
}

#[test]
fn corpus_captures_copied_into_many_flows_read_the_same() {
    let file = corpus_many(6);
    let config = Config::new(Options::godot3());
    let (items, flows, totals) = same("corpus copies", &file, &config);
    // Every copy of every flow, numbered in the order of its first packet.
    let single: usize = captures()
        .iter()
        .map(|n| Reader::new(&corpus(n), config.clone()).unwrap().by_ref().count())
        .sum();
    assert_eq!(items.len(), single * 6);
    assert!(flows.len() >= 30, "{}", flows.len());
    assert_eq!(totals.flows as usize, flows.len());
    assert!(flows.iter().enumerate().all(|(i, f)| f.id.0 == i as u64));
}

#[test]
fn many_generated_flows_read_the_same() {
    let file = synthetic(300, 11);
    let config = Config::new(Options::godot4());
    let (items, flows, totals) = same("generated", &file, &config);
    // The capture holds what the test meant it to: values, gaps, cut frames, refused
    // datagrams, put-together fragments of both IP versions, restarted flows.
    let has = |f: &dyn Fn(&String) -> bool| items.iter().any(f);
    assert!(has(&|i| i.starts_with("Value")));
    assert!(has(&|i| i.starts_with("Gap")));
    assert!(has(&|i| i.starts_with("Cut")));
    assert!(has(&|i| i.starts_with("Refused")));
    assert!(flows.len() > 300, "restarted connections are flows of their own");
    assert!(flows.iter().any(|f| f.client.is_ipv6()));
    assert_eq!(totals.fragments_dropped, 0);
    assert!(totals.skipped.contains_key(&gdvariant_pcap::Skip::Fragment));
}

#[test]
fn past_the_flow_limit_each_shard_evicts_its_own_and_says_so() {
    let file = synthetic(200, 5);
    let mut config = Config::new(Options::godot4());
    config.max_flows = 16;
    for jobs in [2, 3] {
        let mut sharded = Sharded::new(&file, config.clone(), jobs).unwrap();
        assert_eq!(sharded.threads(), jobs);
        let evicted = sharded.by_ref().filter(|i| matches!(i, Item::Evicted { .. })).count();
        let totals = sharded.totals();
        assert!(evicted > 0);
        assert_eq!(totals.evicted, evicted as u64);
        let flows = sharded.flows();
        assert_eq!(flows.iter().filter(|f| f.evicted).count(), evicted);
        assert_eq!(flows.len() as u64, totals.flows);
        // Flows are numbered 0, 1, 2, ... whatever shard followed them.
        assert!(flows.iter().enumerate().all(|(i, f)| f.id.0 == i as u64));
    }
}

#[test]
fn try_each_stops_at_the_first_error() {
    let file = synthetic(100, 9);
    let config = Config::new(Options::godot4());
    let all = with_reader(&file, &config).0;
    let mut sharded = Sharded::new(&file, config, 2).unwrap().with_window_packets(10);
    let mut seen = Vec::new();
    let result = sharded.try_each(|item| {
        seen.push(format!("{item:?}"));
        if seen.len() == 25 { Err("enough") } else { Ok(()) }
    });
    assert_eq!(result, Err("enough"));
    assert_eq!(seen[..], all[..25]);
    // Nothing more is handed out; the flows read so far are listed.
    assert!(all.len() > 100);
    assert!(sharded.next().is_none());
    assert!(!sharded.flows().is_empty());
}

#[test]
fn records_past_the_limit_are_counted() {
    let file = synthetic(100, 3);
    let mut config = Config::new(Options::godot4());
    config.max_flow_records = 10;
    let expected = with_reader(&file, &config);
    let got = with_shards(&file, &config, 2, 16);
    assert_eq!(got.1.len(), expected.1.len());
    assert_eq!(got.2.flows_not_kept, expected.2.flows_not_kept);
    assert_eq!(got.0, expected.0);
}

#[test]
fn jobs_are_capped_and_zero_is_one_a_core() {
    let file = corpus("godot3_tcp_put_var.pcap");
    let config = Config::new(Options::godot3());
    let expected = with_reader(&file, &config);
    let mut many = Sharded::new(&file, config.clone(), 1_000_000).unwrap();
    assert_eq!(many.threads(), gdvariant_pcap::shard::MAX_THREADS);
    let items: Vec<String> = many.by_ref().map(|item| format!("{item:?}")).collect();
    assert_eq!(items, expected.0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(Sharded::new(&file, config, 0).unwrap().threads(), cores.min(256));
}
