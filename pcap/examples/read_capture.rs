//! Reads a capture as the `read` benchmark does, once, and prints what it found: for
//! instruction counts (`valgrind --tool=callgrind`), which the benchmark's timings cannot give
//! on a shared machine.
//!
//! ```text
//! cargo run -p gdvariant-pcap --release --example read_capture -- tcp|enet|enet-tracked FILE [3|4]
//! ```

#[path = "../benches/support/ops.rs"]
mod ops;

use gdvariant::Version;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let usage = "usage: read_capture tcp|enet|enet-tracked FILE [3|4]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, file, rest @ ..] = args.as_slice() else { return Err(usage.into()) };
    let version = if rest.first().map(String::as_str) == Some("3") {
        Version::Godot3
    } else {
        Version::Godot4
    };
    let capture = std::fs::read(file)?;
    let counts = match kind.as_str() {
        "tcp" => ops::read_values(&capture, version),
        "enet" => ops::read_enet(&capture, false),
        "enet-tracked" => ops::read_enet(&capture, true),
        _ => return Err(usage.into()),
    };
    println!("{file}: {} bytes: {counts:?}", capture.len());
    Ok(())
}
