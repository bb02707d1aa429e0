//! Mutated real-engine bytes: flipped bytes, cut and spliced buffers, overwritten words. Nothing
//! panics; every error offset lies within the input; `validate` accepting implies that the
//! structural walk (`parse_prefix`) and a full lazy walk accept too, and a structural error
//! makes `validate` fail. A smoke test in the normal suite; the fuzz targets go further.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::{corpus_files, with_big_stack};
use gdvariant::{Error, Options, VariantRef, Version, view::ObjectRef};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `bytes`.
fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    match rng.below(5) {
        0 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] = rng.next() as u8;
        }
        2 if out.len() >= 4 => {
            // Overwrite an aligned word with a boundary value (counts, lengths, headers).
            let i = rng.below(out.len() / 4) * 4;
            let words = [0u32, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1C, 0x1B, 0x13, 0x12];
            out[i..i + 4].copy_from_slice(&words[rng.below(words.len())].to_le_bytes());
        }
        3 => out.truncate(rng.below(out.len() + 1)),
        _ => {
            // Splice: repeat a slice of the input somewhere else.
            let from = rng.below(out.len());
            let len = rng.below(out.len() - from + 1).min(64);
            let slice = out[from..from + len].to_vec();
            let at = rng.below(out.len() + 1);
            out.splice(at..at, slice);
        }
    }
    out
}

/// Walks every part of `value` through the lazy API; returns the first error.
fn lazy_walk(value: VariantRef<'_>) -> Result<(), Error> {
    match value {
        VariantRef::String(s) | VariantRef::StringName(s) => s.check(),
        VariantRef::Signal(signal) => signal.name().check(),
        VariantRef::NodePath(path) => {
            for name in path.names().chain(path.subnames()) {
                name?.check()?;
            }
            Ok(())
        }
        VariantRef::PackedStringArray(strings) => {
            for s in strings.iter() {
                s?.check()?;
            }
            Ok(())
        }
        VariantRef::Array(array) => {
            for element in array.elements() {
                let element = element?;
                assert_eq!(element.raw_bytes().len(), element.len());
                lazy_walk(element.value())?;
            }
            Ok(())
        }
        VariantRef::Dictionary(dictionary) => {
            for entry in dictionary.entries() {
                let (key, value) = entry?;
                lazy_walk(key.value())?;
                lazy_walk(value.value())?;
            }
            Ok(())
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            for property in object.properties() {
                let (name, value) = property?;
                name.check()?;
                lazy_walk(value.value())?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn check(bytes: &[u8], options: Options) -> Result<(), String> {
    let validated = gdvariant::validate(bytes, options);
    let prefix = gdvariant::parse_prefix(bytes, options);
    let lazy = gdvariant::parse(bytes, options).and_then(lazy_walk);
    for error in [&validated, &lazy]
        .into_iter()
        .filter_map(|r| r.as_ref().err())
        .chain(prefix.as_ref().err())
    {
        if error.offset() > bytes.len() {
            return Err(format!(
                "error offset {} past {} bytes: {error}",
                error.offset(),
                bytes.len()
            ));
        }
    }
    match (&validated, &prefix, &lazy) {
        (Ok(()), Ok(_), Ok(())) | (Err(_), _, Err(_)) => {}
        // The script property is only checked by validate.
        (Err(e), Ok(_), Ok(())) if e.kind() == gdvariant::ErrorKind::InvalidScript => {}
        _ => {
            return Err(format!(
                "validate {validated:?}, parse_prefix {:?}, lazy walk {lazy:?}",
                prefix.map(|p| p.len())
            ));
        }
    }
    // The owned conversion accepts and refuses exactly as validate does (bar Godot 3 strings a
    // Rust `str` cannot hold), with the same error; what it accepts re-encodes to bytes that
    // decode and re-encode to themselves.
    let decoded = gdvariant::decode(bytes, options);
    match (&validated, &decoded) {
        (Ok(()), Ok(value)) => {
            let encode_options = gdvariant::EncodeOptions::new(options.version())
                .with_full_objects(options.allow_objects());
            let once = value.encode(encode_options).map_err(|e| format!("encode: {e}"))?;
            let again = gdvariant::decode(&once, options)
                .map_err(|e| format!("re-encoded bytes do not decode: {e}"))?;
            let twice = again.encode(encode_options).map_err(|e| format!("encode: {e}"))?;
            if once != twice {
                return Err(format!(
                    "re-encoding is not stable: {} / {}",
                    hex::encode(&once),
                    hex::encode(&twice)
                ));
            }
        }
        (Err(a), Err(b)) if a == b => {}
        (Ok(()), Err(e)) if e.kind() == gdvariant::ErrorKind::NotUnicode => {}
        _ => return Err(format!("validate {validated:?}, decode {:?}", decoded.map(|_| ()))),
    }
    if let Ok(element) = prefix {
        if element.len() > bytes.len() {
            return Err(format!("value length {} past {} bytes", element.len(), bytes.len()));
        }
    }
    Ok(())
}

#[test]
fn mutated_corpus_values_never_panic_and_readers_agree() {
    let failures = with_big_stack(|| {
        let mut failures = Vec::new();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0usize;
        for version in [Version::Godot3, Version::Godot4] {
            for file in corpus_files(version, 64 * 1024) {
                let bytes = std::fs::read(&file).unwrap();
                for allow_objects in [false, true] {
                    let options = Options::new(version).with_allow_objects(allow_objects);
                    for round in 0..200 {
                        let mut input = mutate(&mut rng, &bytes);
                        if round % 3 == 0 {
                            input = mutate(&mut rng, &input);
                        }
                        if let Err(f) = check(&input, options) {
                            failures.push(format!(
                                "{} {version:?} {}: {f}",
                                file.display(),
                                hex::encode(&input[..input.len().min(64)])
                            ));
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked} inputs");
        failures
    });
    assert!(
        failures.is_empty(),
        "{} failures, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
