//! Instructions per operation: `cargo bench --bench instructions` (add `--features serde` for the
//! serde rows).
//!
//! Times on a shared machine move from run to run; instruction counts do not. With valgrind
//! installed, this program runs itself under `valgrind --tool=callgrind` twice per operation:
//! once running the operation `GDV_BENCH_REPS` times (3 by default) and once not running it.
//! The difference, divided by the runs, is the operation's instruction count: building its input
//! costs the same in both and cancels. Rows over many packets or frames also give the count per
//! item. Without valgrind (or `VALGRIND`, the binary to run) it says so and prints nothing else;
//! with `-- --test` it runs each operation once, without valgrind, to check that it works.
//! The inputs are those of `cargo bench --bench godot`, Godot 3 encoding, written to files first
//! so that the runs under valgrind only read them.

// A benchmark runner: it stops on a broken input or a broken valgrind run.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]
#![allow(clippy::arithmetic_side_effects, clippy::panic)]

mod workloads;

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

use gdvariant::{Options, Variant, Version};
use workloads::{inputs, ops};

/// The inputs an operation reads.
enum Input {
    /// The corpus case `large_array_10000_dicts`.
    Corpus,
    /// The generated game state.
    GameState,
    /// 100,000 small packets.
    Packets,
    /// A 100,000-frame `store_var` dump.
    Dump,
}

/// One operation: its name in the table, its input, and what one run does.
struct Operation {
    name: &'static str,
    input: Input,
    run: fn(&Prepared),
}

/// An input, read or built, in the forms the operations take.
struct Prepared {
    bytes: Vec<u8>,
    packets: Option<inputs::Packets>,
    owned: Option<Variant>,
}

const OPTIONS: Options = Options::godot3();

fn operations() -> Vec<Operation> {
    let mut list = vec![
        Operation { name: "validate", input: Input::Corpus, run: |p| validate(&p.bytes) },
        Operation { name: "cursor pass", input: Input::Corpus, run: |p| cursor(&p.bytes) },
        Operation {
            name: "cursor pass (next_read)",
            input: Input::Corpus,
            run: |p| {
                black_box(ops::cursor_read(black_box(&p.bytes), OPTIONS).expect("valid"));
            },
        },
        Operation { name: "lazy walk", input: Input::Corpus, run: |p| lazy(&p.bytes) },
        Operation { name: "decode (owned)", input: Input::Corpus, run: |p| decode(&p.bytes) },
        Operation { name: "encode", input: Input::Corpus, run: encode },
        Operation { name: "JSON (lossless)", input: Input::Corpus, run: |p| json(&p.bytes, false) },
        Operation { name: "JSON (natural)", input: Input::Corpus, run: |p| json(&p.bytes, true) },
        Operation { name: "text", input: Input::Corpus, run: |p| text(&p.bytes) },
        Operation { name: "validate", input: Input::GameState, run: |p| validate(&p.bytes) },
        Operation { name: "cursor pass", input: Input::GameState, run: |p| cursor(&p.bytes) },
        Operation { name: "decode (owned)", input: Input::GameState, run: |p| decode(&p.bytes) },
        Operation { name: "encode", input: Input::GameState, run: encode },
        Operation {
            name: "JSON (lossless)",
            input: Input::GameState,
            run: |p| json(&p.bytes, false),
        },
        Operation { name: "text", input: Input::GameState, run: |p| text(&p.bytes) },
        Operation { name: "relay", input: Input::Packets, run: |p| relay(p, ops::relay) },
        Operation {
            name: "validated relay",
            input: Input::Packets,
            run: |p| relay(p, ops::validated_relay),
        },
        Operation { name: "decode (owned)", input: Input::Packets, run: decode_packets },
        Operation {
            name: "validate frames",
            input: Input::Dump,
            run: |p| {
                black_box(ops::validate_frames(&p.bytes, OPTIONS).expect("valid"));
            },
        },
    ];
    #[cfg(feature = "serde")]
    list.extend([
        Operation {
            name: "serde from_bytes (borrowed)",
            input: Input::Packets,
            run: |p| {
                black_box(ops::serde_packets_borrowed(
                    p.packets.as_ref().expect("packets"),
                    OPTIONS,
                ));
            },
        },
        Operation {
            name: "serde from_bytes (owned)",
            input: Input::Packets,
            run: |p| {
                black_box(ops::serde_packets_owned(p.packets.as_ref().expect("packets"), OPTIONS));
            },
        },
    ]);
    list.push(Operation {
        name: "decode_into (one value kept)",
        input: Input::Packets,
        run: decode_packets_into,
    });
    list.push(Operation {
        name: "a cursor per packet",
        input: Input::Packets,
        run: |p| {
            let packets = p.packets.as_ref().expect("packets");
            black_box(ops::cursor_packets(packets, OPTIONS).expect("valid"));
        },
    });
    list
}

fn validate(bytes: &[u8]) {
    gdvariant::validate(black_box(bytes), OPTIONS).expect("valid");
}

fn cursor(bytes: &[u8]) {
    black_box(ops::cursor_walk(black_box(bytes), OPTIONS).expect("valid"));
}

fn lazy(bytes: &[u8]) {
    black_box(ops::lazy_walk(black_box(bytes), OPTIONS).expect("valid"));
}

fn decode(bytes: &[u8]) {
    drop(black_box(ops::decode(black_box(bytes), OPTIONS).expect("valid")));
}

fn encode(prepared: &Prepared) {
    let owned = prepared.owned.as_ref().expect("decoded");
    black_box(ops::encode(owned, inputs::encode_options(Version::Godot3)));
}

fn json(bytes: &[u8], natural: bool) {
    let value = gdvariant::parse(bytes, OPTIONS).expect("valid");
    let mut out = String::new();
    if natural {
        gdvariant::json::write_natural_json(value, &mut out).expect("written");
    } else {
        gdvariant::json::write_json(value, &mut out).expect("written");
    }
    black_box(out);
}

fn text(bytes: &[u8]) {
    let value = gdvariant::parse(bytes, OPTIONS).expect("valid");
    let mut out = String::new();
    gdvariant::text::write_text_as(value, Version::Godot3, &mut out).expect("written");
    black_box(out);
}

fn relay(prepared: &Prepared, op: ops::Relay) {
    let packets = prepared.packets.as_ref().expect("packets");
    black_box(ops::relay_all(packets.iter(), OPTIONS, op));
}

fn decode_packets_into(prepared: &Prepared) {
    let packets = prepared.packets.as_ref().expect("packets");
    black_box(ops::decode_packets_into(packets, OPTIONS).expect("valid"));
}

fn decode_packets(prepared: &Prepared) {
    for packet in prepared.packets.as_ref().expect("packets").iter() {
        drop(black_box(ops::decode(packet, OPTIONS).expect("valid")));
    }
}

/// The file the parent writes each input to, so that the runs under valgrind only read it.
fn input_file(input: &Input) -> PathBuf {
    let name = match input {
        Input::Corpus => "corpus.bin",
        Input::GameState => "game_state.bin",
        Input::Packets => "packets.bin",
        Input::Dump => "dump.bin",
    };
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("instructions").join(name)
}

/// Writes every input to its file. Packets are written as a `store_var` dump (a length before
/// each).
fn write_inputs() {
    let packets = inputs::packets(Version::Godot3);
    let mut framed = Vec::new();
    for packet in packets.iter() {
        framed.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        framed.extend_from_slice(packet);
    }
    let files = [
        (Input::Corpus, inputs::corpus_dicts(Version::Godot3)),
        (Input::GameState, inputs::game_state_bytes(Version::Godot3)),
        (Input::Packets, framed),
        (Input::Dump, inputs::dump(Version::Godot3)),
    ];
    for (input, bytes) in files {
        let path = input_file(&input);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder created");
        std::fs::write(path, bytes).expect("input written");
    }
}

/// The input an operation reads, from its file; decoded too when the operation encodes.
fn prepare(input: &Input, owned: bool) -> Prepared {
    let bytes = std::fs::read(input_file(input)).expect("input written by the parent");
    match input {
        Input::Corpus | Input::GameState => {
            let owned = owned.then(|| gdvariant::decode(&bytes, OPTIONS).expect("valid"));
            Prepared { bytes, packets: None, owned }
        }
        Input::Packets => {
            let mut ranges = Vec::new();
            let mut at = 0;
            while at < bytes.len() {
                let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
                ranges.push(at + 4..at + 4 + len as usize);
                at += 4 + len as usize;
            }
            Prepared {
                bytes: Vec::new(),
                packets: Some(inputs::Packets { buf: bytes, ranges }),
                owned: None,
            }
        }
        Input::Dump => Prepared { bytes, packets: None, owned: None },
    }
}

/// How many items one run over `input` reads, for the rows over packets or frames.
fn items(input: &Input) -> Option<(usize, &'static str)> {
    match input {
        Input::Packets => Some((inputs::PACKETS, "packet")),
        Input::Dump => Some((inputs::DUMP_FRAMES, "frame")),
        Input::Corpus | Input::GameState => None,
    }
}

fn input_name(input: &Input) -> &'static str {
    match input {
        Input::Corpus => "corpus case",
        Input::GameState => "game state",
        Input::Packets => "100k packets",
        Input::Dump => "100k-frame dump",
    }
}

/// The instructions valgrind counted for this program running operation `index` `reps` times.
fn counted(valgrind: &str, index: usize, reps: usize) -> u64 {
    let output = Command::new(valgrind)
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(std::env::current_exe().expect("this program"))
        .env("GDV_INSTRUCTIONS_OP", index.to_string())
        .env("GDV_INSTRUCTIONS_REPS", reps.to_string())
        .output()
        .expect("valgrind runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "valgrind failed:\n{stderr}");
    stderr
        .lines()
        .find_map(|line| {
            line.split_once("Collected : ").map(|(_, n)| n.trim().parse().expect("a count"))
        })
        .unwrap_or_else(|| panic!("no count in valgrind's output:\n{stderr}"))
}

fn main() {
    let operations = operations();
    // Inside valgrind: run one operation and stop.
    if let Ok(index) = std::env::var("GDV_INSTRUCTIONS_OP") {
        let op = &operations[index.parse::<usize>().expect("an index")];
        let reps: usize =
            std::env::var("GDV_INSTRUCTIONS_REPS").expect("reps").parse().expect("a number");
        let prepared = prepare(&op.input, op.name == "encode");
        for _ in 0..reps {
            (op.run)(&prepared);
        }
        return;
    }
    // `cargo bench ... -- --test` (as `.ci/run` runs every bench): each operation once, natively.
    if std::env::args().any(|arg| arg == "--test") {
        write_inputs();
        for op in &operations {
            (op.run)(&prepare(&op.input, op.name == "encode"));
            println!("{} ({}): ok", op.name, input_name(&op.input));
        }
        return;
    }
    let valgrind = std::env::var("VALGRIND").unwrap_or_else(|_| "valgrind".into());
    if Command::new(&valgrind).arg("--version").output().is_err() {
        println!("valgrind is not installed: no instruction counts");
        return;
    }
    let reps = std::env::var("GDV_BENCH_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(3);
    write_inputs();
    println!("| operation | input | instructions per run | per item |");
    println!("| --- | --- | ---: | ---: |");
    for (index, op) in operations.iter().enumerate() {
        let with = counted(&valgrind, index, reps);
        let without = counted(&valgrind, index, 0);
        let per_run = with.saturating_sub(without) / reps as u64;
        let per_item = items(&op.input)
            .map_or(String::from("-"), |(n, what)| format!("{} per {what}", per_run / n as u64));
        println!(
            "| {} | {} | {} | {per_item} |",
            op.name,
            input_name(&op.input),
            thousands(per_run)
        );
    }
}

/// `n` with thousands separated by commas.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
