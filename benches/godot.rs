//! Side by side with Godot's own decoder: `cargo bench --bench godot`.
//!
//! Writes the benchmark inputs (Godot 3 encoding) to a folder, then alternates, round by round
//! (`GDV_BENCH_ROUNDS`, default 5): Godot 3.2.3's native `bytes2var` / `var2bytes` /
//! `File.get_var` on them headless (`benches/godot/bench.gd`, Debian's `godot3-server`), then
//! gdvariant on the same bytes in this process (and Godot's `var2str` and `to_json` against our
//! text and JSON of the same values). Each side keeps, per workload, the best of
//! `GDV_BENCH_REPS` runs (default 5) in each round and the median of those over the rounds, so a
//! burst of load hits both sides alike instead of one. Both sides free what they decode inside
//! the timing. The table leads each input with the like-for-like row (owned decode against
//! `bytes2var`, encode against `var2bytes`); checks that build no value (`validate`) are listed
//! after it. The load average is printed before and after the runs, and a table taken while it
//! was above 1.5 says so in its title: its ratios are not comparable. Without `godot3-server` (or
//! `GODOT3`, the binary to run), only our figures are printed.

// A benchmark runner: it stops on a broken input or a broken engine run.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]
#![allow(clippy::arithmetic_side_effects, clippy::panic)]

mod workloads;

use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use gdvariant::framing::{self, LengthPrefix};
use gdvariant::{Options, Version};
use workloads::inputs::{self, PackedInput};
use workloads::ops;

/// The best of `reps` runs of `f`.
fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .min()
        .expect("at least one run")
}

/// The best of `reps` runs of `f`, each run calling it `calls` times, per call: for operations
/// too short to time one by one.
fn best_per_call<T>(reps: usize, calls: u32, mut f: impl FnMut() -> T) -> Duration {
    best_of(reps, || {
        for _ in 0..calls {
            black_box(f());
        }
    }) / calls
}

/// A duration in the unit that suits it.
fn format_time(time: Duration) -> String {
    let ns = time.as_secs_f64() * 1e9;
    match ns {
        ns if ns < 1e3 => format!("{ns:.1} ns"),
        ns if ns < 1e6 => format!("{:.1} us", ns / 1e3),
        ns => format!("{:.2} ms", ns / 1e6),
    }
}

/// The input files, written once per run.
fn write_inputs(dir: &Path) {
    std::fs::create_dir_all(dir).expect("bench folder");
    let v3 = Version::Godot3;
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).expect("write");
    write("dicts_corpus.bin", &inputs::corpus_dicts(v3));
    write("game_state.bin", &inputs::game_state_bytes(v3));
    write("packed_f32_1m.bin", PackedInput::new(1_000_000, v3, 0).bytes());
    write("packed_f32_25m.bin", PackedInput::new(25_000_000, v3, 0).bytes());
    let mut packets = Vec::new();
    for packet in inputs::packets(v3).iter() {
        framing::append_frame(&mut packets, LengthPrefix::store_var(false), packet).unwrap();
    }
    write("packets.bin", &packets);
    write("dump.bin", &inputs::dump(v3));
}

/// Godot's best times in microseconds, by workload name; `None` without Godot.
fn run_godot(dir: &Path, reps: usize) -> Option<(String, HashMap<String, u64>)> {
    let godot = std::env::var("GODOT3").unwrap_or_else(|_| "godot3-server".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/godot/bench.gd");
    let output = Command::new(&godot)
        .args(["--no-window", "-s"])
        .arg(&script)
        // Godot writes its logs under the working folder: keep them with the inputs.
        .current_dir(dir)
        .env("GDV_BENCH_DIR", dir)
        .env("GDV_BENCH_REPS", reps.to_string())
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => {
            eprintln!("{godot} not run ({e}): install it with `apt-get install godot3-server`");
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("GDV_DONE") && !stdout.contains("SCRIPT ERROR"),
        "Godot's run failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let expected = [
        "decode/dicts_corpus",
        "decode/game_state",
        "decode/packed_f32_1m",
        "decode/packed_f32_25m",
        "encode/dicts_corpus",
        "encode/game_state",
        "text/dicts_corpus",
        "text/game_state",
        "json/dicts_corpus",
        "json/game_state",
        "packets/relay",
        "packets/loop_only",
        "dump/get_var",
    ];
    let mut version = String::new();
    let mut results = HashMap::new();
    for line in stdout.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("GDV_VERSION") => version = words.collect::<Vec<_>>().join(" "),
            Some("GDV_RESULT") => {
                let name = words.next().expect("name").to_owned();
                results.insert(name, words.next().expect("time").parse().expect("microseconds"));
            }
            _ => {}
        }
    }
    for name in expected {
        assert!(
            results.contains_key(name),
            "Godot gave no figure for {name}:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Some((version, results))
}

/// One input and what Godot did with it: the left half of the table's rows.
#[derive(Clone)]
struct Workload {
    name: String,
    bytes: usize,
    godot: Option<Duration>,
    /// Godot's figure for this input, by its name in `bench.gd`'s output.
    godot_key: Option<&'static str>,
    /// Items per run, for a per-item rate (packets, frames).
    items: Option<(usize, &'static str)>,
}

impl Workload {
    /// The row for one of our operations on this input.
    fn row(&self, ours: &'static str, time: Duration) -> Row {
        Row { workload: self.clone(), ours, time }
    }
}

/// One row of the table.
struct Row {
    workload: Workload,
    ours: &'static str,
    time: Duration,
}

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / time.as_secs_f64() / 1e6
}

fn print_table(godot_version: &str, load: &str, rounds: usize, reps: usize, rows: &[Row]) {
    println!();
    println!(
        "Godot: {godot_version}; {load}; {rounds} rounds alternating Godot and gdvariant, each \
         side the best of {reps} runs per round, median over the rounds; MB = 10^6 bytes"
    );
    println!();
    println!(
        "| workload | bytes | Godot 3 | Godot MB/s | gdvariant | time | MB/s | rate | x Godot |"
    );
    println!("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |");
    for row in rows {
        let Workload { name, bytes, godot, items, .. } = &row.workload;
        let (godot_time, godot_rate, ratio) = match *godot {
            Some(g) => (
                format_time(g),
                format!("{:.0}", mb_per_s(*bytes, g)),
                format!("{:.1}x", g.as_secs_f64() / row.time.as_secs_f64()),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        let rate = items.map_or(String::from("-"), |(n, what)| {
            format!("{:.1} M {what}/s", n as f64 / row.time.as_secs_f64() / 1e6)
        });
        println!(
            "| {} | {} | {godot_time} | {godot_rate} | {} | {} | {:.0} | {rate} | {ratio} |",
            name,
            bytes,
            row.ours,
            format_time(row.time),
            mb_per_s(*bytes, row.time),
        );
    }
}

/// The load average over the last minute (`/proc/loadavg`), when the system tells it.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// Above this one-minute load average, a table's ratios are not comparable (2-core machines).
const LOADED: f64 = 1.5;

/// The median of some durations.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn main() {
    let env_number = |name: &str, default: usize| {
        std::env::var(name).ok().and_then(|r| r.parse().ok()).filter(|&n| n > 0).unwrap_or(default)
    };
    let reps = env_number("GDV_BENCH_REPS", 5);
    let rounds = env_number("GDV_BENCH_ROUNDS", 5);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("godot-bench");
    eprintln!("writing the inputs to {}", dir.display());
    write_inputs(&dir);
    let load_before = load_average();
    let mut godot_version = String::new();
    let mut godot_rounds: HashMap<String, Vec<Duration>> = HashMap::new();
    let mut our_rounds: Vec<Vec<Row>> = Vec::new();
    for round in 1..=rounds {
        eprintln!(
            "round {round} of {rounds}: Godot (best of {reps}), then gdvariant (best of {reps})"
        );
        if let Some((version, times)) = run_godot(&dir, reps) {
            godot_version = version;
            for (name, us) in times {
                godot_rounds.entry(name).or_default().push(Duration::from_micros(us));
            }
        }
        our_rounds.push(our_round(&dir, reps));
    }
    let load_after = load_average();
    let godot: HashMap<String, Duration> =
        godot_rounds.into_iter().map(|(name, times)| (name, median(times))).collect();
    // Our rows, each the median of its rounds, with Godot's median beside it.
    let mut rows = our_rounds
        .first()
        .map(|first| {
            first
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    let times = our_rounds
                        .iter()
                        .filter_map(|round| round.get(i))
                        .map(|r| r.time)
                        .collect();
                    let mut workload = row.workload.clone();
                    workload.godot = workload.godot_key.and_then(|key| godot.get(key).copied());
                    Row { workload, ours: row.ours, time: median(times) }
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    rows.retain(|row| row.time > Duration::ZERO);
    let load = match (load_before, load_after) {
        (Some(before), Some(after)) => {
            let loaded = before.max(after) > LOADED;
            format!(
                "load average {before:.2} before, {after:.2} after{}",
                if loaded { " -- LOADED MACHINE: ratios below are not comparable" } else { "" }
            )
        }
        _ => "load average unknown".to_owned(),
    };
    print_table(
        if godot_version.is_empty() { "not run" } else { &godot_version },
        &load,
        rounds,
        reps,
        &rows,
    );
    if let Some(loop_only) = godot.get("packets/loop_only") {
        println!();
        println!(
            "Godot's relay figure includes {} of GDScript loop and `subarray` copies (the same \
             loop without bytes2var).",
            format_time(*loop_only)
        );
    }
}

/// One round of every gdvariant workload, in table order.
fn our_round(dir: &Path, reps: usize) -> Vec<Row> {
    let options = Options::godot3();
    let encode_options = inputs::encode_options(Version::Godot3);
    let read = |name: &str| std::fs::read(dir.join(name)).expect("input");
    let mut rows = Vec::new();
    // Godot's `bytes2var` of a whole input file.
    let decoding = |name: &str, bytes: usize| Workload {
        name: format!("{name} decode"),
        bytes,
        godot: None,
        godot_key: Some(leak(format!("decode/{name}"))),
        items: None,
    };

    for name in ["dicts_corpus", "game_state"] {
        let bytes = read(&format!("{name}.bin"));
        let workload = decoding(name, bytes.len());
        let mut row = |ours, time| rows.push(workload.row(ours, time));
        row("decode (owned)", best_of(reps, || ops::decode(&bytes, options)));
        row("validate (check only)", best_of(reps, || gdvariant::validate(&bytes, options)));
        row("lazy walk (check only)", best_of(reps, || ops::lazy_walk(&bytes, options)));
        let owned = ops::decode(&bytes, options).expect("valid");
        let encoding = Workload {
            name: format!("{name} encode"),
            godot_key: Some(leak(format!("encode/{name}"))),
            ..workload
        };
        rows.push(encoding.row("encode", best_of(reps, || ops::encode(&owned, encode_options))));
        // Output, written into a String kept between runs (as Godot's into its own String).
        let value = gdvariant::parse(&bytes, options).expect("valid");
        let mut out = String::with_capacity(bytes.len() * 4);
        let mut write = |f: &dyn Fn(&mut String)| {
            best_of(reps, || {
                out.clear();
                f(&mut out);
                out.len()
            })
        };
        let json = write(&|out| gdvariant::json::write_natural_json(value, out).expect("written"));
        let lossless = write(&|out| gdvariant::json::write_json(value, out).expect("written"));
        let text = write(&|out| {
            gdvariant::text::write_text_as(value, Version::Godot3, out).expect("written");
        });
        let json_workload = Workload {
            name: format!("{name} JSON"),
            godot_key: Some(leak(format!("json/{name}"))),
            ..workload.clone()
        };
        rows.push(json_workload.row("JSON (natural)", json));
        rows.push(json_workload.row("JSON (lossless)", lossless));
        let text_workload = Workload {
            name: format!("{name} text"),
            godot_key: Some(leak(format!("text/{name}"))),
            ..workload
        };
        rows.push(text_workload.row("text (var2str)", text));
    }

    for name in ["packed_f32_1m", "packed_f32_25m"] {
        let bytes = read(&format!("{name}.bin"));
        // The file's bytes in a Vec are aligned for f32 on every allocator we know of; the
        // native slice needs that (otherwise the little-endian view serves).
        assert!(ops::packed_slice(&bytes, options).expect("valid").is_some(), "aligned slice");
        let workload = decoding(name, bytes.len());
        let mut row = |ours, time| rows.push(workload.row(ours, time));
        row("decode (owned)", best_of(reps, || ops::decode(&bytes, options)));
        row(
            "parse + native slice",
            best_per_call(reps, 10_000, || ops::packed_slice(&bytes, options)),
        );
    }

    let packets_file = read("packets.bin");
    let packets: Vec<&[u8]> = framing::raw_frames(&packets_file, LengthPrefix::store_var(false))
        .map(|frame| frame.expect("packet").payload())
        .collect();
    let packet_bytes: usize = packets.iter().map(|p| p.len()).sum();
    let workload = Workload {
        name: "100k packets relay".into(),
        bytes: packet_bytes,
        godot: None,
        godot_key: Some("packets/relay"),
        items: Some((packets.len(), "packets")),
    };
    let mut row = |ours, time| rows.push(workload.row(ours, time));
    row(
        "decode (owned) + get",
        best_of(reps, || {
            packets
                .iter()
                .filter(|p| {
                    ops::decode(p, options).is_ok_and(|v| match v {
                        gdvariant::Variant::Dictionary(d) => d.get("type") != Some(&"ping".into()),
                        _ => false,
                    })
                })
                .count()
        }),
    );
    row("relay", best_of(reps, || ops::relay_all(packets.iter().copied(), options, ops::relay)));
    row(
        "validated relay",
        best_of(reps, || ops::relay_all(packets.iter().copied(), options, ops::validated_relay)),
    );

    let dump = read("dump.bin");
    let workload = Workload {
        name: "100k-frame dump read".into(),
        bytes: dump.len(),
        godot: None,
        godot_key: Some("dump/get_var"),
        items: Some((inputs::DUMP_FRAMES, "frames")),
    };
    let mut row = |ours, time| rows.push(workload.row(ours, time));
    row(
        "decode frames (owned)",
        best_of(reps, || {
            framing::raw_frames(&dump, LengthPrefix::store_var(false))
                .filter(|f| f.as_ref().is_ok_and(|f| ops::decode(f.payload(), options).is_ok()))
                .count()
        }),
    );
    row("validate frames (check only)", best_of(reps, || ops::validate_frames(&dump, options)));
    row("frame scan (check only)", best_of(reps, || ops::scan_frames(&dump)));
    rows
}

/// A workload key that lives as long as the benchmark.
fn leak(text: String) -> &'static str {
    text.leak()
}
