//! `gdvariant export` against real tools: Godot 3.2.3 (`godot3-server`) writes a dump of event
//! dictionaries with its own `File.store_var` (mixed types, nested values, a few frames Godot
//! refuses spliced in) and computes aggregates with its own `get_var` loop (`events.gd`); the
//! command exports the dump to Parquet and to CSV, and DuckDB (the Python package) computes
//! the same aggregates over each file (`aggregates.py`). They must match, and the frames
//! Godot refused must be the ones the export reports and skips.
//!
//! These tests need `godot3-server`, `python3` and DuckDB, so the plain test command ignores
//! them; `.ci/run` installs them and runs `cargo test --workspace --all-features --test data_tools --
//! --ignored`. A missing tool fails them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// This folder.
fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data_tools")
}

/// A scratch folder of its own.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gdvariant-data-tools-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a command; fails the test when it cannot start.
fn run(mut command: Command, what: &str) -> Output {
    command.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"))
}

/// Godot 3.2.3 writes `count` events to `dump` and returns its aggregates.
fn godot_writes(dump: &Path, count: usize, home: &Path) -> Value {
    let mut command = Command::new("godot3-server");
    command
        .args(["--no-window", "-s"])
        .arg(here().join("events.gd"))
        .current_dir(home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("d"))
        .env("XDG_CONFIG_HOME", home.join("c"))
        .env("XDG_CACHE_HOME", home.join("k"))
        .env("LC_ALL", "C.UTF-8")
        .env("EVENTS_OUT", dump)
        .env("EVENTS_COUNT", count.to_string());
    let output = run(command, "godot3-server");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let result = stdout.lines().find_map(|l| l.trim().strip_prefix("RESULT ok "));
    match result {
        Some(json) => serde_json::from_str(json).unwrap(),
        None => panic!("godot3-server: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)),
    }
}

/// `gdvariant export DUMP --to FORMAT -o OUT --skip-bad --godot 3 ARGS...`.
fn export(dump: &Path, format: &str, out: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gdvariant"));
    command
        .arg("export")
        .arg(dump)
        .args(["--to", format, "-o"])
        .arg(out)
        .args(["--skip-bad", "--godot", "3"])
        .args(args);
    run(command, "gdvariant export")
}

/// Whether two aggregates agree: integers exactly, sums of reals to 1e-9 (DuckDB may add in
/// another order).
fn assert_agree(what: &str, godot: &Value, duckdb: &Value) {
    for key in ["events", "hp", "zone", "tags", "notes", "extras", "kinds"] {
        assert_eq!(godot[key], duckdb[key], "{what}: {key}");
    }
    for key in ["score", "pos_x"] {
        let (a, b) = (godot[key].as_f64().unwrap(), duckdb[key].as_f64().unwrap());
        assert!((a - b).abs() <= 1e-9 * a.abs().max(1.0), "{what}: {key}: Godot {a}, DuckDB {b}");
    }
}

#[test]
#[ignore = "needs godot3-server, python3 and DuckDB (.ci/run installs them)"]
fn duckdb_computes_godots_aggregates_from_the_exported_parquet_and_csv() {
    let dir = scratch("events");
    let dump = dir.join("events.bin");
    let godot = godot_writes(&dump, 5000, &dir);
    assert_eq!(godot["events"], 5000, "{godot}");
    let refused = godot["refused"].as_u64().unwrap();
    assert_eq!(refused, 3, "{godot}");

    let (parquet, csv) = (dir.join("events.parquet"), dir.join("events.csv"));
    for (format, out) in [("parquet", &parquet), ("csv", &csv)] {
        // Small chunks: several row groups, converted on two threads.
        let output = export(&dump, format, out, &["--jobs", "2", "--chunk-frames", "700"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        // Each refused frame is reported with its offset and counted; the exit code says so.
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.matches("frame at byte offset").count() as u64, refused, "{stderr}");
        assert!(stderr.contains("5000 rows written"), "{stderr}");
        assert!(stderr.contains("; 3 bad frames skipped"), "{stderr}");
        assert!(!stderr.contains("do not fit"), "{stderr}");
    }

    let mut command = Command::new("python3");
    command.arg(here().join("aggregates.py")).arg(&parquet).arg(&csv);
    let output = run(command, "python3 aggregates.py");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_agree("DuckDB over Parquet", &godot, &lines[0]);
    assert_agree("DuckDB over CSV", &godot, &lines[1]);

    // Without --skip-bad the first refused frame stops the export, naming its offset, and
    // leaves no output file.
    let stopped = dir.join("stopped.parquet");
    let mut command = Command::new(env!("CARGO_BIN_EXE_gdvariant"));
    command.arg("export").arg(&dump).args(["--to", "parquet", "--godot", "3", "-o"]).arg(&stopped);
    let output = run(command, "gdvariant export");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("frame at byte offset") && stderr.contains("unknown type id 99"),
        "{stderr}"
    );
    assert!(!stopped.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
