//! Replays every kept fuzz finding (`fuzz/regressions/<target>/*`) through its target's check,
//! on stable and without libFuzzer: the checks are the fuzz crate's own (`fuzz/src/`, included
//! here through `fuzz_checks/`), so a regression fails here exactly as it failed under the
//! fuzzer. The `multiplayer` target's are replayed by `multiplayer/tests/fuzz_regressions.rs`,
//! in the crate it checks.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod common;

mod fuzz_checks;

/// Targets whose findings are replayed by another crate of the workspace.
const ELSEWHERE: [&str; 1] = ["multiplayer"];

use std::path::{Path, PathBuf};

/// One target's check: panics when its property fails on the input.
type Check = fn(&[u8]);

/// Every fuzz target, by the name of its folder under `fuzz/regressions/`.
const TARGETS: [(&str, Check); 8] = [
    ("lazy_walk", fuzz_checks::lazy_walk::check),
    ("identity", fuzz_checks::identity::check),
    ("differential", fuzz_checks::differential::check),
    ("owned_roundtrip", fuzz_checks::owned_roundtrip::check),
    ("reencode", fuzz_checks::reencode::check),
    ("framing", fuzz_checks::framing::check),
    ("packed_alignment", fuzz_checks::packed_alignment::check),
    ("work_bound", fuzz_checks::work_bound::check),
];

/// Every kept finding passes its target's check (on a large stack, as libFuzzer's main thread
/// has). A folder that names no target fails, so no finding is filed where nothing replays it
/// (the targets of [`ELSEWHERE`] are replayed by their own crate's test).
#[test]
fn every_kept_finding_passes_its_check() {
    let replayed = common::with_big_stack(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
        let mut replayed = 0;
        for folder in std::fs::read_dir(&root).unwrap() {
            let folder = folder.unwrap().path();
            let name = folder.file_name().unwrap().to_str().unwrap().to_owned();
            if ELSEWHERE.contains(&name.as_str()) {
                continue;
            }
            let Some((_, check)) = TARGETS.iter().find(|(target, _)| *target == name) else {
                panic!("{}: not a fuzz target", folder.display());
            };
            let mut files: Vec<PathBuf> =
                std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
            files.sort();
            for file in files {
                let data = std::fs::read(&file).unwrap();
                let result = std::panic::catch_unwind(|| check(&data));
                assert!(result.is_ok(), "fuzz regression {} fails", file.display());
                replayed += 1;
            }
        }
        replayed
    });
    // The seven findings of the first campaign (fuzz/README.md) at least.
    assert!(replayed >= 7, "{replayed} regressions replayed");
}

/// Every real-engine input of the corpora (under 64 KiB) passes the byte-level checks: the
/// fuzzers' seeds hold the properties before any mutation.
#[test]
fn corpus_inputs_pass_every_byte_check() {
    let checked = common::with_big_stack(|| {
        let mut checked = 0;
        for version in [gdvariant::Version::Godot3, gdvariant::Version::Godot4] {
            for file in common::corpus_files(version, 64 * 1024) {
                let data = std::fs::read(&file).unwrap();
                let run = |what: &str, check: fn(&[u8])| {
                    let result = std::panic::catch_unwind(|| check(&data));
                    assert!(result.is_ok(), "{what} fails on {}", file.display());
                };
                run("lazy_walk", fuzz_checks::lazy_walk::check);
                run("differential", fuzz_checks::differential::check);
                run("reencode", fuzz_checks::reencode::check);
                run("identity", fuzz_checks::identity::check);
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
