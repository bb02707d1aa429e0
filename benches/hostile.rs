//! Worst cases (about 1 MiB each, every one a value Godot accepts, or a damaged dump): each
//! public operation a hostile input targets, timed beside `validate` on the same bytes (for the
//! dump: the same scan of an undamaged dump of the same size). Their ratio is the figure
//! that matters: a path that multiplies work shows as a ratio in the hundreds, a linear one as
//! a small constant. `cargo bench --bench hostile` (add `--features serde` for the serde case).
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use workloads::hostile;

fn hostile(c: &mut Criterion) {
    for case in hostile::cases(1 << 20) {
        let baseline = case.baseline.bytes.as_ref().unwrap_or(&case.bytes);
        (case.baseline.run)(baseline, case.options);
        let mut group = c.benchmark_group(format!("hostile/{}", case.name));
        group.throughput(Throughput::Bytes(case.bytes.len() as u64));
        group.sample_size(10);
        group.bench_function("operation", |b| {
            b.iter(|| (case.run)(black_box(&case.bytes), case.options))
        });
        group.bench_function(case.baseline.name, |b| {
            b.iter(|| (case.baseline.run)(black_box(baseline), case.options))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = hostile
}
criterion_main!(benches);
