//! Replays every kept fuzz finding (`fuzz/regressions/<target>/*`) through its target's check,
//! on stable and without libFuzzer: the checks are the fuzz crate's own (`fuzz/src/`, included
//! here), so a regression fails here exactly as it failed under the fuzzer.
#![cfg(feature = "arbitrary")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod common;

#[path = "../fuzz/src/lib.rs"]
mod fuzz_checks;

use std::path::{Path, PathBuf};

/// The kept inputs of one target, sorted by name.
fn regressions(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// Runs `check` on every kept input of `target` (on a large stack, as libFuzzer's main thread
/// has) and returns how many there were.
fn replay(target: &'static str, check: fn(&[u8])) -> usize {
    common::with_big_stack(move || {
        let files = regressions(target);
        for file in &files {
            let data = std::fs::read(file).unwrap();
            let result = std::panic::catch_unwind(|| check(&data));
            assert!(result.is_ok(), "fuzz regression {} fails", file.display());
        }
        files.len()
    })
}

#[test]
fn lazy_walk() {
    replay("lazy_walk", fuzz_checks::lazy_walk::check);
}

#[test]
fn differential() {
    replay("differential", fuzz_checks::differential::check);
}

#[test]
fn owned_roundtrip() {
    replay("owned_roundtrip", fuzz_checks::owned_roundtrip::check);
}

#[test]
fn reencode() {
    assert!(replay("reencode", fuzz_checks::reencode::check) >= 4);
}

#[test]
fn framing() {
    replay("framing", fuzz_checks::framing::check);
}

#[test]
fn packed_alignment() {
    replay("packed_alignment", fuzz_checks::packed_alignment::check);
}

/// Every real-engine input of the corpora (under 64 KiB) passes the byte-level checks: the
/// fuzzers' seeds hold the properties before any mutation.
#[test]
fn corpus_inputs_pass_every_byte_check() {
    let checked = common::with_big_stack(|| {
        let mut checked = 0;
        for version in [gdvariant::Version::Godot3, gdvariant::Version::Godot4] {
            let mut files: Vec<PathBuf> = std::fs::read_dir(common::corpus_dir(version))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "bin"))
                .filter(|p| std::fs::metadata(p).unwrap().len() <= 64 * 1024)
                .collect();
            files.sort();
            for file in files {
                let data = std::fs::read(&file).unwrap();
                let run = |what: &str, check: fn(&[u8])| {
                    let result = std::panic::catch_unwind(|| check(&data));
                    assert!(result.is_ok(), "{what} fails on {}", file.display());
                };
                run("lazy_walk", fuzz_checks::lazy_walk::check);
                run("differential", fuzz_checks::differential::check);
                run("reencode", fuzz_checks::reencode::check);
                checked += 1;
            }
        }
        checked
    });
    assert!(checked > 250, "{checked} corpus inputs");
}

/// The shared offset check refuses an error that points past the input.
#[test]
fn an_offset_past_the_input_is_caught() {
    let past = gdvariant::Error::new(5, gdvariant::ErrorKind::InvalidUtf8);
    let caught = std::panic::catch_unwind(|| {
        fuzz_checks::options::assert_offset_inside(&past, &[0; 4], "planted")
    });
    assert!(caught.is_err());
    fuzz_checks::options::assert_offset_inside(&past, &[0; 5], "at the end");
}
