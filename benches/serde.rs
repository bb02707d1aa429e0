//! 100,000 small packets (64 to 256 bytes, dictionaries with a `"type"` key) read one by one
//! into a struct of the program's own with `gdvariant::serde::from_bytes` (which runs Godot's
//! checks first): borrowing its strings from the packet, and owning them. Needs the `serde`
//! feature: `cargo bench --features serde --bench serde`.
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::{inputs, ops};

fn serde(c: &mut Criterion) {
    for version in [Version::Godot4, Version::Godot3] {
        let packets = inputs::packets(version);
        let options = Options::new(version);
        let name = inputs::version_name(version);
        let mut group = c.benchmark_group(format!("serde/{name}"));
        group.throughput(Throughput::Elements(packets.len() as u64));
        group.bench_function("from_bytes_borrowed", |b| {
            b.iter(|| ops::serde_packets_borrowed(black_box(&packets), options))
        });
        group.bench_function("from_bytes_owned", |b| {
            b.iter(|| ops::serde_packets_owned(black_box(&packets), options))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = serde
}
criterion_main!(benches);
