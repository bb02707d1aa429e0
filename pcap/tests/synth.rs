//! The benchmark's generated captures (`benches/support/synth.rs`), small: the library reads
//! them with zero refusals, every value and message once, byte for byte, and the generators'
//! retransmissions, reordering and fragments are really there.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

#[path = "../benches/support/ops.rs"]
mod ops;
#[path = "../benches/support/synth.rs"]
mod synth;

use std::collections::BTreeMap;

use gdvariant::{Options, Version};
use gdvariant_pcap::{Carrier, Config, Direction, Item, Reader};

#[test]
fn tcp_captures_read_with_zero_refusals() {
    for (version, mix, size) in [
        (Version::Godot4, synth::Mix::Mixed, 8 << 20),
        (Version::Godot3, synth::Mix::Mixed, 8 << 20),
        (Version::Godot4, synth::Mix::Small, 1 << 20),
    ] {
        let (capture, frames) = synth::tcp(version, mix, size, 4, 7);
        assert!(capture.len() >= size, "{}", capture.len());
        let counts = ops::read_values(&capture, version);
        assert_eq!(
            counts,
            ops::Counts { values: frames, bytes: counts.bytes, ..ops::Counts::default() },
            "{version:?} {mix:?}"
        );
        let mut reader = Reader::new(&capture, Config::new(Options::new(version))).unwrap();
        // Every value is one of the corpus's, byte for byte.
        let corpus: std::collections::BTreeSet<Vec<u8>> =
            synth::corpus_values(version).into_iter().map(|(_, b)| b).collect();
        for item in reader.by_ref() {
            let Item::Value(value) = item else { panic!("{item:?}") };
            assert!(corpus.contains(value.bytes.as_ref()));
        }
        let flows = reader.flows();
        assert_eq!(flows.len(), 4);
        let (mut retransmitted, mut reordered) = (0, 0);
        for flow in &flows {
            assert_eq!(flow.carrier, Some(Carrier::PutVar));
            // Both ways carry values (the server answers now and then).
            assert!(flow.values.iter().all(|n| *n > 0), "{:?}", flow.values);
            for half in &flow.tcp {
                assert_eq!((half.gaps, half.overlap_bytes), (0, 0));
                retransmitted += half.retransmitted_segments;
                reordered += half.reordered_segments;
            }
        }
        if mix == synth::Mix::Mixed {
            assert!(retransmitted > 5 && reordered > 5, "{retransmitted} {reordered}");
        }
    }
}

#[test]
fn enet_capture_delivers_every_message_once_byte_for_byte() {
    let (capture, connections, messages) = synth::enet(4 << 20, 8, 7);
    let counts = ops::read_enet(&capture, true);
    assert_eq!(
        counts,
        ops::Counts { values: messages, bytes: counts.bytes, ..ops::Counts::default() }
    );
    let scenarios: BTreeMap<u32, synth::Scenario> =
        synth::godot4_scenarios().into_iter().map(|s| (s.client, s)).collect();
    let mut reader = Reader::new(&capture, Config::new(Options::godot4())).unwrap();
    let mut got: BTreeMap<_, (u32, [Vec<Vec<u8>>; 2])> = BTreeMap::new();
    for item in reader.by_ref() {
        let Item::Enet(message) = item else { panic!("{item:?}") };
        let entry =
            got.entry(message.flow).or_insert((message.client_id.unwrap(), [vec![], vec![]]));
        entry.1[message.direction.index()].push(message.bytes.into_owned());
    }
    assert_eq!(got.len() as u64, connections);
    for (client, sent) in got.values() {
        let scenario = &scenarios[client];
        for direction in [Direction::ToServer, Direction::ToClient] {
            let expected: Vec<&Vec<u8>> = scenario
                .packets
                .iter()
                .filter(|p| p.0 == (direction == Direction::ToServer))
                .map(|p| &p.3)
                .collect();
            let sent: Vec<&Vec<u8>> = sent[direction.index()].iter().collect();
            assert_eq!(sent, expected);
        }
    }
    let stats: Vec<_> = reader.flows().iter().flat_map(|f| f.enet).collect();
    let duplicates: u64 = stats.iter().map(|s| s.duplicates).sum();
    let fragments: u64 = stats.iter().map(|s| s.fragments).sum();
    assert!(duplicates > 10 && fragments > 10, "{duplicates} {fragments}");
    assert_eq!(stats.iter().map(|s| s.refused).sum::<u64>(), 0);
}
