//! Values for the tests that compare a number formatter with the one it replaced: every
//! 4- and 8-byte window of the corpora read as a real, and a generated sweep.

// Test inputs: wrapping or overflowing arithmetic here is a generator's, never the library's.
#![allow(clippy::arithmetic_side_effects)]

use alloc::vec::Vec;

/// Every `.bin` file under `corpus/` (the first 256 KiB of each), as bytes.
pub(crate) fn corpus_bytes() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut dirs = alloc::vec![root];
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "bin") {
                let mut bytes = std::fs::read(&path).unwrap();
                bytes.truncate(256 * 1024);
                files.push(bytes);
            }
        }
    }
    assert!(files.len() > 300, "the corpora are where they were");
    files
}

/// The corpora's windows as `f64` bit patterns (every offset of small files, every fourth
/// of large ones).
pub(crate) fn corpus_f64() -> Vec<u64> {
    let mut values = Vec::new();
    for bytes in corpus_bytes() {
        let step = if bytes.len() > 64 * 1024 { 4 } else { 1 };
        for window in bytes.windows(8).step_by(step) {
            values.push(u64::from_le_bytes(window.try_into().unwrap()));
        }
    }
    values
}

/// The corpora's windows as `f32` bit patterns.
pub(crate) fn corpus_f32() -> Vec<u32> {
    let mut values = Vec::new();
    for bytes in corpus_bytes() {
        let step = if bytes.len() > 64 * 1024 { 4 } else { 1 };
        for window in bytes.windows(4).step_by(step) {
            values.push(u32::from_le_bytes(window.try_into().unwrap()));
        }
    }
    values
}

/// A xorshift generator of bit patterns.
pub(crate) struct Bits(pub(crate) u64);

impl Bits {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Generated `f64`s: random bit patterns, random values of every decimal magnitude,
/// powers of ten and halves of them with their neighbours, subnormals, integers around
/// 2^24, 2^53 and 2^63, and both signs of each.
pub(crate) fn generated_f64() -> Vec<f64> {
    let mut bits = Bits(0x9e37_79b9_7f4a_7c15);
    let mut values = Vec::new();
    for _ in 0..200_000 {
        values.push(f64::from_bits(bits.next()));
    }
    for _ in 0..100_000 {
        // Uniform in magnitude from 1e-30 to 1e30.
        let mantissa = (bits.next() >> 11) as f64 / (1u64 << 53) as f64 + 1.0;
        let exponent = (bits.next() % 200) as i32 - 100;
        values.push(mantissa * 2f64.powi(exponent));
    }
    let mut anchors = Vec::new();
    for k in -325..=309 {
        let power: f64 = alloc::format!("1e{k}").parse().unwrap();
        anchors.push(power);
        anchors.push(power * 5.0);
        anchors.push(power * 2.5);
        anchors.push(power * 9.999_999);
    }
    for shift in [24, 53, 63] {
        anchors.push((1u64 << shift) as f64);
    }
    for anchor in anchors {
        for delta in -40i64..=40 {
            let bits = anchor.to_bits() as i64 + delta;
            values.push(f64::from_bits(bits as u64));
        }
    }
    for i in 0..20_000u64 {
        values.push(f64::from_bits(i));
        values.push(f64::from_bits((1u64 << 52) - i));
        values.push(i as f64);
        values.push((1u64 << 53) as f64 - i as f64);
        values.push((1u64 << 24) as f64 - i as f64);
        values.push(i as f64 / 4.0);
        values.push(i as f64 * 0.1);
    }
    let negated: Vec<f64> = values.iter().map(|v| -v).collect();
    values.extend(negated);
    values
}

/// Generated `f32`s, as [`generated_f64`] with `f32`'s thresholds.
pub(crate) fn generated_f32() -> Vec<f32> {
    let mut bits = Bits(0x2545_f491_4f6c_dd1d);
    let mut values = Vec::new();
    for _ in 0..200_000 {
        values.push(f32::from_bits(bits.next() as u32));
    }
    let mut anchors = Vec::new();
    for k in -46..=39 {
        let power: f32 = alloc::format!("1e{k}").parse().unwrap();
        anchors.push(power);
        anchors.push(power * 5.0);
        anchors.push(power * 2.5);
        anchors.push(power * 9.999_99);
    }
    for shift in [24, 31] {
        anchors.push((1u64 << shift) as f32);
    }
    for anchor in anchors {
        for delta in -200i32..=200 {
            let bits = anchor.to_bits() as i32 + delta;
            values.push(f32::from_bits(bits as u32));
        }
    }
    for i in 0..20_000u32 {
        values.push(f32::from_bits(i));
        values.push(f32::from_bits((1u32 << 23) - i));
        values.push(i as f32);
        values.push((1u32 << 24) as f32 - i as f32);
        values.push(i as f32 / 8.0);
        values.push(i as f32 * 0.1);
    }
    let negated: Vec<f32> = values.iter().map(|v| -v).collect();
    values.extend(negated);
    values
}
