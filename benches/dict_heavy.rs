//! Dict-heavy game state (an Array of 10,000 Dictionaries): lazy lookups, full lazy walk (through
//! the iterators and with one cursor pass),
//! `validate`, owned decode and encode, on the corpus's real-engine case and on the generated
//! game state, for both Godot versions.
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::{inputs, ops};

/// The inputs: name, bytes, version.
fn cases() -> Vec<(&'static str, Vec<u8>, Version)> {
    vec![
        ("corpus_godot3", inputs::corpus_dicts(Version::Godot3), Version::Godot3),
        ("corpus_godot4", inputs::corpus_dicts(Version::Godot4), Version::Godot4),
        ("game_state_godot3", inputs::game_state_bytes(Version::Godot3), Version::Godot3),
        ("game_state_godot4", inputs::game_state_bytes(Version::Godot4), Version::Godot4),
    ]
}

fn dict_heavy(c: &mut Criterion) {
    for (name, bytes, version) in cases() {
        let options = Options::new(version);
        let encode_options = inputs::encode_options(version);
        let owned = ops::decode(&bytes, options).expect("valid input");

        let mut group = c.benchmark_group(format!("dict_heavy/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("validate", |b| {
            b.iter(|| gdvariant::validate(black_box(&bytes), options))
        });
        group.bench_function("parse_prefix", |b| {
            b.iter(|| gdvariant::parse_prefix(black_box(&bytes), options).map(|e| e.len()))
        });
        group
            .bench_function("lazy_walk", |b| b.iter(|| ops::lazy_walk(black_box(&bytes), options)));
        group.bench_function("cursor_walk", |b| {
            b.iter(|| ops::cursor_walk(black_box(&bytes), options))
        });
        group.bench_function("cursor_read", |b| {
            b.iter(|| ops::cursor_read(black_box(&bytes), options))
        });
        group.bench_function("decode", |b| b.iter(|| ops::decode(black_box(&bytes), options)));
        group.bench_function("encode", |b| {
            b.iter(|| ops::encode(black_box(&owned), encode_options))
        });
        group.finish();

        let mut group = c.benchmark_group(format!("lookup/{name}"));
        for (label, index) in [("first", 0), ("middle", 5_000), ("last", 9_999)] {
            group.bench_function(label, |b| {
                b.iter(|| ops::lookup(black_box(&bytes), options, black_box(index)))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = dict_heavy
}
criterion_main!(benches);
