//! Every float a command prints as JSON reads back to the same bits: 64-bit floats of every
//! exponent (subnormals, the extremes, one step above the largest 32-bit float), and 32-bit
//! reals inside math values, through `dump`, `get` and `export --to jsonl`, lossless and natural
//! JSON, both versions. (Godot's own text, `--format text`, prints floats as Godot does, which is
//! not exact; it is compared with the engines elsewhere.)

use gdvariant::math::Vector2;
use gdvariant::{EncodeOptions, Variant};
use serde_json::Value;

use crate::support::*;

/// Deterministic bit patterns: every exponent, random mantissas, and the edges.
fn f64_samples() -> Vec<f64> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        state
    };
    let mut samples: Vec<f64> = (0..2048u64)
        .map(|exponent| {
            f64::from_bits(
                (next() & !(0xFFF << 52)) | ((exponent & 0x7FF) << 52) | (next() & (1 << 63)),
            )
        })
        .filter(|f| f.is_finite())
        .collect();
    samples.extend([
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::MAX,
        f64::MIN,
        f64::from(f32::MAX).next_up(),
        f64::from(f32::MAX),
        0.1,
        1.0 / 3.0,
    ]);
    samples
}

/// 32-bit samples, as math values carry them.
fn f32_samples() -> Vec<f32> {
    let mut state: u32 = 0x2545_F491;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut samples: Vec<f32> = (0..512u32)
        .map(|exponent| {
            f32::from_bits(
                (next() & !(0x1FF << 23)) | ((exponent & 0xFF) << 23) | (next() & (1 << 31)),
            )
        })
        .filter(|f| f.is_finite())
        .collect();
    samples.extend([0.0, -0.0, f32::MIN_POSITIVE, f32::from_bits(1), f32::MAX, f32::MIN, 0.1]);
    samples
}

/// The numbers of a JSON value in order.
fn numbers(value: &Value, out: &mut Vec<f64>) {
    match value {
        Value::Number(n) => out.push(n.as_f64().unwrap()),
        Value::Array(items) => items.iter().for_each(|v| numbers(v, out)),
        Value::Object(map) => map.values().for_each(|v| numbers(v, out)),
        _ => {}
    }
}

/// A scratch path.
fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("gdvariant-cli-floats-{}-{name}", std::process::id()))
}

#[test]
fn every_float_printed_as_json_reads_back_to_the_same_bits() {
    let floats = f64_samples();
    let reals = f32_samples();
    let vectors: Vec<Variant> = reals
        .chunks(2)
        .map(|pair| {
            let y = pair.get(1).copied().unwrap_or(0.5);
            Variant::Vector2(Vector2 { x: f64::from(pair[0]), y: f64::from(y) })
        })
        .collect();
    for (godot, options) in [("3", EncodeOptions::godot3()), ("4", EncodeOptions::godot4())] {
        // One frame of floats, one of vectors; each also inside a dictionary for `get` and rows.
        let mut dump = Vec::new();
        let mut row_floats = gdvariant::owned::Dictionary::new();
        row_floats.insert(
            Variant::from("v"),
            Variant::Array(floats.iter().map(|f| Variant::Float(*f)).collect::<Vec<_>>().into()),
        );
        let mut row_vectors = gdvariant::owned::Dictionary::new();
        row_vectors.insert(Variant::from("v"), Variant::Array(vectors.clone().into()));
        for row in [row_floats, row_vectors] {
            let bytes = Variant::Dictionary(Box::new(row)).encode(options).unwrap();
            dump.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            dump.extend_from_slice(&bytes);
        }
        let file = scratch(&format!("godot{godot}.dump"));
        std::fs::write(&file, &dump).unwrap();
        let path = file.to_str().unwrap();
        let rows_file = scratch(&format!("godot{godot}.jsonl"));
        let rows = rows_file.to_str().unwrap();
        let runs: Vec<(String, Vec<&str>)> = vec![
            (
                "dump json".into(),
                vec!["dump", "--frames", "--format", "json", "--godot", godot, path],
            ),
            (
                "dump natural".into(),
                vec!["dump", "--frames", "--format", "natural", "--godot", godot, path],
            ),
            (
                "get json".into(),
                vec!["get", "--frames", "--format", "json", "--godot", godot, path, "v"],
            ),
            (
                "get natural".into(),
                vec!["get", "--frames", "--format", "natural", "--godot", godot, path, "v"],
            ),
            (
                "export jsonl".into(),
                vec!["export", "--to", "jsonl", "-o", rows, "--godot", godot, path],
            ),
        ];
        for (what, args) in runs {
            let output = run(&args);
            assert_eq!(code(&output), 0, "Godot {godot}, {what}: {}", stderr(&output));
            let text = if what.starts_with("export") {
                std::fs::read_to_string(&rows_file).unwrap()
            } else {
                stdout(&output)
            };
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let read = |line: Option<&str>| {
                let line = line.unwrap_or_else(|| panic!("Godot {godot}, {what}: too few lines"));
                let mut found = Vec::new();
                let record = parse_json(line);
                // `--frames` records: the frame's index and offset, then its value.
                let value = if record.get("frame").is_some() { &record["value"] } else { &record };
                numbers(value, &mut found);
                found
            };
            let got = read(lines.next());
            assert_eq!(got.len(), floats.len(), "Godot {godot}, {what}: {text}");
            for (want, got) in floats.iter().zip(&got) {
                assert_eq!(
                    want.to_bits(),
                    got.to_bits(),
                    "Godot {godot}, {what}: {want:e} printed as {got:e}"
                );
            }
            let got = read(lines.next());
            let want: Vec<f32> =
                reals.iter().copied().chain((reals.len() % 2 == 1).then_some(0.5)).collect();
            assert_eq!(got.len(), want.len(), "Godot {godot}, {what}: {text}");
            for (want, got) in want.iter().zip(&got) {
                assert_eq!(
                    want.to_bits(),
                    (*got as f32).to_bits(),
                    "Godot {godot}, {what}: {want:e} printed as {got:e}"
                );
            }
        }
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::remove_file(&rows_file);
    }
}
