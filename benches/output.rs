//! Output of the generated game state (an Array of 10,000 Dictionaries) for both Godot versions:
//! lossless JSON, natural JSON and Godot's text, each written into a `String` kept between runs
//! (throughput counts input bytes).
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used)]

mod workloads;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::{Options, Version};
use workloads::inputs;

fn output(c: &mut Criterion) {
    for version in [Version::Godot3, Version::Godot4] {
        let bytes = inputs::game_state_bytes(version);
        let value = gdvariant::parse(&bytes, Options::new(version)).expect("valid input");
        let mut out = String::with_capacity(bytes.len().saturating_mul(4));
        let mut group =
            c.benchmark_group(format!("output/game_state_{}", inputs::version_name(version)));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("json_lossless", |b| {
            b.iter(|| {
                out.clear();
                gdvariant::json::write_json(black_box(value), &mut out).expect("written");
                out.len()
            })
        });
        group.bench_function("json_natural", |b| {
            b.iter(|| {
                out.clear();
                gdvariant::json::write_natural_json(black_box(value), &mut out).expect("written");
                out.len()
            })
        });
        group.bench_function("text", |b| {
            b.iter(|| {
                out.clear();
                gdvariant::text::write_text_as(black_box(value), version, &mut out)
                    .expect("written");
                out.len()
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = workloads::criterion_config();
    targets = output
}
criterion_main!(benches);
