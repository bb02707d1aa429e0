//! Writes a large, realistic capture, reproducibly (the same arguments give the same bytes):
//!
//! ```text
//! cargo run -p gdvariant-pcap --release --example synth -- KIND OUT.pcap SIZE [3|4]
//! ```
//!
//! `KIND`: `tcp` (put_var frames of the corpus's values, large and small), `tcp-large`,
//! `tcp-small`, or `enet` (Godot 4 multiplayer over ENet: the corpus's real packets); `SIZE`
//! in bytes, or with `KiB`, `MiB` or `GiB`; `3` or `4`: the Godot version of the TCP values
//! (4 by default; ENet is Godot 4). See `benches/support/synth.rs` for what is written.

#![allow(clippy::arithmetic_side_effects)]

#[path = "../benches/support/synth.rs"]
mod synth;

use gdvariant::Version;

fn size(text: &str) -> Option<usize> {
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let n: usize = number.parse().ok()?;
    let unit = match unit {
        "" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(unit)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let usage = "usage: synth tcp|tcp-large|tcp-small|enet OUT.pcap SIZE [3|4]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, out, bytes, rest @ ..] = args.as_slice() else { return Err(usage.into()) };
    let bytes = size(bytes).ok_or(usage)?;
    let version = match rest.first().map(String::as_str) {
        Some("3") => Version::Godot3,
        None | Some("4") => Version::Godot4,
        _ => return Err(usage.into()),
    };
    let mix = match kind.as_str() {
        "tcp" => Some(synth::Mix::Mixed),
        "tcp-large" => Some(synth::Mix::Large),
        "tcp-small" => Some(synth::Mix::Small),
        "enet" => None,
        _ => return Err(usage.into()),
    };
    let (capture, what) = match mix {
        Some(mix) => {
            let (capture, frames) = synth::tcp(version, mix, bytes, 4, 1);
            (capture, format!("{frames} put_var frames in 4 flows"))
        }
        None => {
            let (capture, flows, messages) = synth::enet(bytes, 8, 1);
            (capture, format!("{messages} ENet messages in {flows} flows"))
        }
    };
    std::fs::write(out, &capture)?;
    println!("{out}: {} bytes, {what}", capture.len());
    Ok(())
}
