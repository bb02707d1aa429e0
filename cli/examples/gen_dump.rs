//! Writes a `store_var` dump of about SIZE MiB to PATH, for measuring `gdvariant frames`:
//! game-state-like frames (dictionaries of ints, floats, strings, vectors, arrays and packed
//! arrays, a few levels deep), as Godot 4's `FileAccess.store_var` writes them.
//!
//! ```sh
//! cargo run --release -p gdvariant-cli --example gen_dump -- /tmp/dump.bin 1024
//! ```
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::io::BufWriter;
use std::process::ExitCode;

use gdvariant::framing::{FrameWriter, LengthPrefix};
use gdvariant::math::{Vector2, Vector3};
use gdvariant::{EncodeOptions, Writer};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(size)) = (args.get(1), args.get(2).and_then(|s| s.parse::<u64>().ok()))
    else {
        eprintln!("usage: gen_dump PATH SIZE_MIB");
        return ExitCode::from(2);
    };
    match generate(path, size << 20) {
        Ok(frames) => {
            println!("{frames} frames written to {path}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("gen_dump: {error}");
            ExitCode::from(1)
        }
    }
}

/// Writes frames until `bytes` are written; returns the number of frames.
fn generate(path: &str, bytes: u64) -> Result<u64, Box<dyn std::error::Error>> {
    let file = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let mut frames = FrameWriter::new(file, LengthPrefix::store_var(false));
    let mut value = Vec::new();
    let mut n = 0u64;
    while frames.position() < bytes {
        value.clear();
        encode_frame(n, &mut value)?;
        frames.write_frame(&value)?;
        n += 1;
    }
    frames.flush()?;
    Ok(n)
}

/// One frame's value: a player update, every 16th frame a bigger snapshot.
fn encode_frame(n: u64, out: &mut Vec<u8>) -> Result<(), gdvariant::encoder::EncodeError> {
    let mut w = Writer::new(std::mem::take(out), EncodeOptions::godot4());
    let i = n as i64;
    if n.is_multiple_of(16) {
        w.begin_dictionary(3)?;
        w.string("tick")?;
        w.int(i)?;
        w.string("players")?;
        w.begin_array(8)?;
        for p in 0..8 {
            w.begin_dictionary(4)?;
            w.string("id")?;
            w.int(p)?;
            w.string("name")?;
            w.string(&format!("player_{p}"))?;
            w.string("pos")?;
            w.vector3(Vector3 { x: p as f32, y: 0.5, z: -(i as f32) })?;
            w.string("inventory")?;
            w.begin_array(3)?;
            w.string("sword")?;
            w.int(p * 10)?;
            w.begin_dictionary(1)?;
            w.string("gold")?;
            w.int(i % 1000)?;
        }
        w.string("heightmap")?;
        let heights: Vec<f32> = (0..64).map(|h| (h as f32) * 0.25).collect();
        w.packed_float32(&heights)?;
    } else {
        w.begin_dictionary(5)?;
        w.string("tick")?;
        w.int(i)?;
        w.string("player")?;
        w.int(i % 8)?;
        w.string("pos")?;
        w.vector2(Vector2 { x: i as f32 * 0.5, y: 3.25 })?;
        w.string("hp")?;
        w.float(100.0 - (i % 100) as f64 * 0.1)?;
        w.string("event")?;
        w.string(if n.is_multiple_of(3) { "move" } else { "attack" })?;
    }
    *out = w.finish()?;
    Ok(())
}
