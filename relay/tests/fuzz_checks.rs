//! The `relay_checks` fuzz target's check (`fuzz/src/relay_checks.rs`, included here) on
//! stable, without libFuzzer: every kept finding (`fuzz/regressions/relay_checks/`, when there
//! are any), and every value and crafted input of both engines' corpora under every setting of
//! version, objects, direction, channel and size limit.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use std::path::Path;

#[path = "../../fuzz/src/relay_checks.rs"]
mod relay_checks;

/// Files under `dir`, sorted.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_kept_finding_passes_the_relay_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/relay_checks");
    for file in files(&root) {
        relay_checks::check(&std::fs::read(&file).unwrap());
    }
}

#[test]
fn the_corpora_pass_the_relay_checks_under_every_setting() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut checked = 0;
    for version in ["godot3", "godot4"] {
        for file in
            files(&root.join(version)).iter().filter(|f| f.extension().is_some_and(|e| e == "bin"))
        {
            let bytes = std::fs::read(file).unwrap();
            if bytes.len() > 64 * 1024 {
                continue;
            }
            // Every setting of version, objects, direction and limit; channels 0 and 1.
            for settings in (0u8..=255).filter(|s| (s >> 3) & 3 < 2) {
                let mut input = vec![settings];
                input.extend_from_slice(&bytes);
                relay_checks::check(&input);
            }
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked} corpus files");
}
