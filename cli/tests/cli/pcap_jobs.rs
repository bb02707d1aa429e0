//! `gdvariant pcap --jobs N`: standard output, standard error and the exit code are those of
//! `--jobs 1`, byte for byte, on every corpus capture and on a capture of many flows derived
//! from them (each copied 8 times onto other addresses, all interleaved), in every output mode
//! (each flow's version told, or given).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::support::*;

fn capture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/captures").join(name)
}

/// Every capture of `corpus/captures/`, by name.
fn captures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(capture(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".pcap") || n.ends_with(".pcapng"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    names
}

/// The records of a pcap file: (record header, packet).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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

/// The corpus captures (Ethernet, IPv4 on loopback) copied 8 times, copy `k` moved to
/// 127.0.k.1 on both sides, interleaved a few packets at a time: dozens of flows.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn many_flows() -> Vec<u8> {
    let files: Vec<Vec<u8>> =
        captures().iter().map(|n| std::fs::read(capture(n)).unwrap()).collect();
    let mut lists: Vec<Vec<(Vec<u8>, Vec<u8>)>> = Vec::new();
    for file in &files {
        assert_eq!(file[..24], files[0][..24]);
        for k in 0..8u8 {
            let mut list = records(file);
            for (_, packet) in &mut list {
                assert_eq!(&packet[12..14], &[8, 0], "IPv4 over Ethernet");
                packet[28] = k;
                packet[32] = k;
            }
            list.reverse();
            lists.push(list);
        }
    }
    let mut out = files[0][..24].to_vec();
    let mut state = 7u64;
    while !lists.is_empty() {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let i = ((state >> 33) as usize) % lists.len();
        for _ in 0..=((state >> 20) % 3) {
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

fn pcap(path: &Path, jobs: &str, flags: &[&str]) -> (i32, String, String) {
    let mut args: Vec<OsString> = ["pcap", "--jobs", jobs].map(OsString::from).to_vec();
    args.extend(flags.iter().map(OsString::from));
    args.push(path.as_os_str().to_owned());
    let output = run(&args);
    (code(&output), stdout(&output), stderr(&output))
}

#[test]
fn pcap_jobs_prints_what_one_job_prints() {
    let derived = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pcap_jobs_many_flows.pcap");
    std::fs::write(&derived, many_flows()).unwrap();
    let names = captures();
    let paths: Vec<PathBuf> = names.iter().map(|n| capture(n)).chain([derived]).collect();
    let modes: [&[&str]; 8] = [
        &[],
        &["--format", "json"],
        &["--flows", "--stats"],
        &["--flows", "--format", "json"],
        &["--multiplayer"],
        &["--multiplayer", "--format", "natural"],
        &["--multiplayer", "--stats", "--format", "json"],
        &["--godot", "3"],
    ];
    for path in &paths {
        for flags in modes {
            let one = pcap(path, "1", flags);
            assert_eq!(one.0, 0, "{}", one.2);
            assert!(!one.1.is_empty(), "{path:?} {flags:?}");
            for jobs in ["2", "3", "0"] {
                let many = pcap(path, jobs, flags);
                assert_eq!(many.0, one.0, "{path:?} {flags:?} --jobs {jobs}");
                assert!(
                    many.1 == one.1,
                    "{path:?} {flags:?} --jobs {jobs}: standard output differs"
                );
                assert_eq!(many.2, one.2, "{path:?} {flags:?} --jobs {jobs}: standard error");
            }
        }
    }
    // The derived capture holds each capture's flows 8 times.
    let flows = |path: &Path, jobs| pcap(path, jobs, &["--flows"]).1.lines().count();
    let each: usize = paths[..names.len()].iter().map(|p| flows(p, "1")).sum();
    assert_eq!(flows(&paths[names.len()], "2"), 8 * each);
}
