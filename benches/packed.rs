//! One large `PackedFloat32Array` (1 M and 25 M elements, 4 MB and 100 MB): parse + native slice
//! (constant time, whatever the length), and reading every element through the native slice
//! (aligned) and the little-endian view (aligned and misaligned), and copying it out.
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::inputs::PackedInput;
use workloads::ops;

fn packed(c: &mut Criterion) {
    let options = Options::godot4();
    for (name, len) in [("1M", 1_000_000), ("25M", 25_000_000)] {
        let aligned = PackedInput::new(len, Version::Godot4, 0);
        let misaligned = PackedInput::new(len, Version::Godot4, 1);
        let bytes = aligned.bytes();

        let mut group = c.benchmark_group(format!("packed_f32_{name}"));
        group.bench_function("parse_slice", |b| {
            b.iter(|| ops::packed_slice(black_box(bytes), options).map(|s| s.map(<[f32]>::len)))
        });
        group.finish();

        let mut group = c.benchmark_group(format!("packed_f32_{name}_read"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        if len > 1_000_000 {
            group.sample_size(20);
        }
        group.bench_function("sum_native_slice", |b| {
            b.iter(|| ops::packed_slice(black_box(bytes), options).map(|s| s.map_or(0.0, ops::sum)))
        });
        group.bench_function("sum_le_view_aligned", |b| {
            b.iter(|| ops::packed_sum_le(black_box(bytes), options))
        });
        group.bench_function("sum_le_view_misaligned", |b| {
            b.iter(|| ops::packed_sum_le(black_box(misaligned.bytes()), options))
        });
        group.bench_function("decode", |b| b.iter(|| ops::decode(black_box(bytes), options)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = packed
}
criterion_main!(benches);
