//! A `store_var` dump of 100,000 frames: frame scan (length prefixes only) and full validation
//! (every frame's value checked as Godot's `get_var` would).
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::{inputs, ops};

fn dump(c: &mut Criterion) {
    for version in [Version::Godot4, Version::Godot3] {
        let dump = inputs::dump(version);
        let options = Options::new(version);
        let name = inputs::version_name(version);
        let mut group = c.benchmark_group(format!("dump/{name}"));
        group.throughput(Throughput::Bytes(dump.len() as u64));
        group.bench_function("scan", |b| b.iter(|| ops::scan_frames(black_box(&dump))));
        group.bench_function("validate", |b| {
            b.iter(|| ops::validate_frames(black_box(&dump), options))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = dump
}
criterion_main!(benches);
