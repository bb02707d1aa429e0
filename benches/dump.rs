//! A `store_var` dump of 100,000 frames: frame scan (length prefixes only) and full validation
//! (every frame's value checked as Godot's `get_var` would).
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::{inputs, ops};

fn dump(c: &mut Criterion) {
    for version in [Version::Godot4, Version::Godot3] {
        let dump = inputs::dump(version);
        let options = Options::new(version);
        let name = match version {
            Version::Godot3 => "godot3",
            Version::Godot4 => "godot4",
        };
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
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = dump
}
criterion_main!(benches);
