//! Replays the kept findings of the `multiplayer` fuzz target
//! (`fuzz/regressions/multiplayer/*`) through its check, on stable and without libFuzzer: the
//! check is the fuzz crate's own (`fuzz/src/multiplayer.rs`, included here), so a regression
//! fails here exactly as it failed under the fuzzer. The core's `tests/fuzz_regressions.rs`
//! replays the other targets.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod common;

#[path = "../../fuzz/src/multiplayer.rs"]
mod fuzz_multiplayer;

use std::path::{Path, PathBuf};

/// Every kept finding of the target passes its check (on a large stack, as libFuzzer's main
/// thread has).
#[test]
fn every_kept_finding_passes_the_multiplayer_check() {
    let replayed = common::with_big_stack(|| {
        let folder =
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/regressions/multiplayer"));
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in &files {
            let data = std::fs::read(file).unwrap();
            let result = std::panic::catch_unwind(|| fuzz_multiplayer::check(&data));
            assert!(result.is_ok(), "fuzz regression {} fails", file.display());
        }
        files.len()
    });
    assert!(replayed >= 6, "{replayed} regressions replayed");
}

/// Every packet of the real-engine multiplayer captures passes the multiplayer check, as each
/// kind of input the target takes (a Godot 4 packet, a Godot 3 message and its payload, runs of
/// packets followed by a session).
#[test]
fn multiplayer_corpus_packets_pass_the_multiplayer_check() {
    let checked = common::with_big_stack(|| {
        let mut checked = 0;
        let mut session = vec![3u8];
        for record in common::multiplayer::godot4() {
            let data = common::multiplayer::bytes(&record);
            fuzz_multiplayer::check(&[&[0u8][..], &data].concat());
            if data.len() < 128 {
                session.push((data.len() << 1) as u8);
                session.extend_from_slice(&data);
            }
            checked += 1;
        }
        fuzz_multiplayer::check(&session);
        for transport in ["enet", "websocket"] {
            let header = if transport == "enet" { 8 } else { 9 };
            for record in common::multiplayer::godot3(transport) {
                let data = common::multiplayer::bytes(&record);
                fuzz_multiplayer::check(&[&[2u8][..], &data].concat());
                fuzz_multiplayer::check(&[&[1u8][..], data.get(header..).unwrap_or(&[])].concat());
                checked += 1;
            }
        }
        checked
    });
    assert!(checked > 1800, "{checked} packets");
}
