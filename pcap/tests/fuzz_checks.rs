//! The `pcap` fuzz target's check (`fuzz/src/pcap.rs`, included here) on stable, without
//! libFuzzer: every kept finding (`fuzz/regressions/pcap/`, when there are any), the real
//! capture of `corpus/captures/` under every setting (read by one reader and, bit 7, on 2
//! threads), damaged copies of it (bytes overwritten
//! at pseudo-random places, cut at pseudo-random lengths), and the derived tests' packets under
//! every link type and limit.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod support;

use std::path::Path;

#[path = "../../fuzz/src/pcap.rs"]
mod pcap_check;

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_kept_finding_passes_the_pcap_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/pcap");
    for file in files(&root) {
        pcap_check::check(&std::fs::read(&file).unwrap());
    }
}

#[test]
fn the_real_capture_and_damaged_copies_pass() {
    let capture = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures/godot3_tcp_put_var.pcap"),
    )
    .unwrap();
    for settings in [0b011u8, 0b010, 0b0110_0011, 0b1000_0011, 0b1110_0011] {
        let mut input = vec![settings];
        input.extend_from_slice(&capture);
        pcap_check::check(&input);
    }
    // A small xorshift: the same damaged copies every run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..48 {
        let sharded = if round % 4 < 2 { 0 } else { 0x80 };
        let mut input = vec![sharded | if round % 2 == 0 { 0b011u8 } else { 0b0110_0011 }];
        input.extend_from_slice(&capture);
        for _ in 0..8 {
            let at = 1 + (next() as usize) % capture.len();
            input[at] = next() as u8;
        }
        let cut = 1 + (next() as usize) % input.len();
        input.truncate(if round % 3 == 0 { cut } else { input.len() });
        pcap_check::check(&input);
    }
}

#[test]
fn the_derived_packets_pass_under_every_link_type_and_limit() {
    use support::*;
    let mut packets = handshake();
    let stream: Vec<u8> = (0..40).flat_map(|i| frame(&int(i))).collect();
    let mut segs = segments(&stream, 9);
    segs.swap(2, 7);
    segs.remove(11);
    packets.extend(segs.iter().map(|(seq, b)| data(*seq, b)));
    packets.push(udp(CLIENT, SERVER, &int(5)));
    for settings in 0u8..=255 {
        if settings & 2 != 0 {
            continue;
        }
        let mut input = vec![settings];
        for packet in &packets {
            // Packets of other link types: the Ethernet header cut off or kept as it is.
            let body: &[u8] = if settings & 0b11100 == 0 { packet } else { &packet[14..] };
            let body = &body[..body.len().min(255)];
            input.push(body.len() as u8);
            input.extend_from_slice(body);
        }
        pcap_check::check(&input);
    }
}
