//! Counts the Godot values in a capture: `cargo run --release -p gdvariant-pcap --example count
//! -- FILE [3|4] [given]`. Prints values, refused frames, gaps and flows, and the time taken.
//! `given`: the version holds for every flow (else each flow's is told, 3 or 4 the default).

#![allow(clippy::arithmetic_side_effects)]

use std::time::Instant;

use gdvariant_pcap::{Config, Item, Reader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: count FILE [3|4] [given]")?;
    let options = match args.next().as_deref() {
        Some("3") => gdvariant::Options::godot3(),
        _ => gdvariant::Options::godot4(),
    };
    let mut config = Config::new(options);
    config.detect_version = args.next().as_deref() != Some("given");
    let bytes = std::fs::read(&path)?;
    let start = Instant::now();
    let mut reader = Reader::new(&bytes, config)?;
    let (mut values, mut refused, mut gaps) = (0u64, 0u64, 0u64);
    for item in reader.by_ref() {
        match item {
            Item::Value(_) => values += 1,
            Item::Refused(_) => refused += 1,
            Item::Gap(_) => gaps += 1,
            _ => {}
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{path}: {} bytes, {} packets, {} flows: {values} values, {refused} refused, {gaps} gaps in {seconds:.3} s ({:.0} MB/s)",
        bytes.len(),
        reader.totals().packets,
        reader.totals().flows,
        bytes.len() as f64 / seconds / 1e6
    );
    Ok(())
}
