//! `pcap`: the capture reader (`gdvariant-pcap`) on hostile captures: no panic, bounded work
//! per input byte, and every value it hands out is one Godot accepts, every refused frame one
//! it refuses, every ENet message within the limit.
//!
//! The first byte is the settings: bit 0 Godot 3, bit 1 the rest is a whole capture file (pcap
//! or pcapng, as found), else the rest is packets written into a pcap file here: each a
//! length byte and that many bytes, of the link type in bits 2-4 (Ethernet, raw IP, Linux SLL,
//! SLL2, null). Bits 5-6 pick the limits (the default ones, or tiny ones: 4 flows, an 8-piece
//! 256-byte window, 4 fragmented datagrams, ENet messages of 512 bytes, 1 KiB and 4 of them
//! waiting), so that eviction and the window's edges are
//! reached with small inputs.

use gdvariant::Options;
use gdvariant_pcap::enet::EnetLimits;
use gdvariant_pcap::{Config, FragmentLimits, Item, Reader, TcpLimits};

/// Units of work allowed per input byte.
pub const UNITS_PER_BYTE: u64 = 64;

/// Units allowed for any input.
pub const UNITS_BASE: u64 = 4096;

const LINKS: [u32; 8] = [1, 101, 113, 276, 0, 108, 228, 229];

/// A pcap file of `packets` with link type `link`.
pub fn pcap_file(link: u32, packets: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&65_535u32.to_le_bytes());
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

/// The target.
pub fn check(data: &[u8]) {
    let Some((&settings, rest)) = data.split_first() else { return };
    let version =
        if settings & 1 == 0 { gdvariant::Version::Godot4 } else { gdvariant::Version::Godot3 };
    let options = Options::new(version);
    let file = if settings & 2 != 0 {
        rest.to_vec()
    } else {
        let mut packets = Vec::new();
        let mut at = rest;
        while let Some((&len, tail)) = at.split_first() {
            let len = usize::from(len).min(tail.len());
            packets.push(&tail[..len]);
            at = &tail[len..];
        }
        pcap_file(LINKS[usize::from((settings >> 2) & 7)], &packets)
    };
    let mut config = Config::new(options);
    if (settings >> 5) & 3 != 0 {
        config.max_flows = 4;
        config.max_held_bytes = 1024;
        config.tcp = TcpLimits { max_pending_bytes: 256, max_pending_segments: 8 };
        config.fragments = FragmentLimits { max_datagrams: 4, max_bytes: 512, max_fragments: 4 };
        config.max_flow_records = 16;
        config.enet = EnetLimits { max_message: 512, max_waiting: 1024, max_reassemblies: 4 };
    }
    let max_message = config.enet.max_message as usize;
    let (_, units) = gdvariant::work::measure(|| {
        let Ok(mut reader) = Reader::new(&file, config) else { return };
        for item in reader.by_ref() {
            match item {
                Item::Value(value) => {
                    // Read as its flow's version (told per flow), with the configured rest.
                    assert_eq!(value.options.with_version(version), options, "{value:?}");
                    assert!(gdvariant::validate(&value.bytes, value.options).is_ok(), "{value:?}");
                }
                Item::Refused(refused) => {
                    assert!(!refused.refusal.to_string().is_empty());
                }
                Item::Gap(gap) => assert!(gap.missing > 0 || gap.skipped > 0, "{gap:?}"),
                Item::Enet(message) => {
                    assert!(message.bytes.len() <= max_message, "{}", message.bytes.len());
                    assert!(message.fragments >= 1);
                }
                Item::Cut(_) | Item::Evicted { .. } | Item::WebSocket(_) => {}
            }
        }
        let flows = reader.flows();
        assert!(flows.len() as u64 <= reader.totals().flows);
    });
    let bound = UNITS_PER_BYTE * file.len() as u64 + UNITS_BASE;
    assert!(units <= bound, "{units} units of work on {} bytes (bound {bound})", file.len());
}
