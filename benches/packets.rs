//! 100,000 small packets (64 to 256 bytes, dictionaries with a `"type"` key) handled one by one,
//! as a relay does: find the value's end, look up `"type"`, take the bytes to forward; the same
//! after validating each packet; a new `Cursor` reading each packet's events; owned decode of each packet, and of each into one value kept
//! from packet to packet (`decode_into`).
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::{inputs, ops};

fn packets(c: &mut Criterion) {
    for version in [Version::Godot4, Version::Godot3] {
        let packets = inputs::packets(version);
        let options = Options::new(version);
        let name = inputs::version_name(version);
        let mut group = c.benchmark_group(format!("packets/{name}"));
        group.throughput(Throughput::Elements(packets.len() as u64));
        group.bench_function("relay", |b| {
            b.iter(|| ops::relay_all(black_box(&packets).iter(), options, ops::relay))
        });
        group.bench_function("validated_relay", |b| {
            b.iter(|| ops::relay_all(black_box(&packets).iter(), options, ops::validated_relay))
        });
        group.bench_function("decode", |b| {
            b.iter(|| {
                black_box(&packets)
                    .iter()
                    .filter(|p| ops::decode(p, options).is_ok_and(|v| !v.is_nil()))
                    .count()
            })
        });
        group.bench_function("cursor", |b| {
            b.iter(|| ops::cursor_packets(black_box(&packets), options).expect("valid"))
        });
        group.bench_function("decode_into", |b| {
            b.iter(|| ops::decode_packets_into(black_box(&packets), options).expect("valid"))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = packets
}
criterion_main!(benches);
