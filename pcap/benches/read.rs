//! Whole captures read by the library, throughput in capture bytes (the file's bytes, headers
//! included), on captures generated once per run in memory (`support/synth.rs`):
//!
//! * `tcp_put_var/{mixed,large,small}`: TCP `put_var` flows of the corpus's Godot 4 values
//!   (4 flows, MSS segments, retransmissions and reordering), read, reassembled and every
//!   frame's value validated as Godot's `get_var` does.
//! * `enet/messages`: Godot 4 multiplayer over ENet (the corpus's real packets, hundreds of
//!   connections, reliable, unreliable and fragmented commands, some sent again), every message
//!   delivered; `enet/tracked`: the same, each message also followed by
//!   `gdvariant_multiplayer`'s `Tracker` (one per flow).
//!
//! ```sh
//! cargo bench -p gdvariant-pcap --bench read             # 128 MiB TCP captures, 64 MiB ENet
//! cargo bench -p gdvariant-pcap --bench read -- --test   # every workload once
//! ```
//!
//! `GDV_PCAP_MIB` sets the size of every capture in MiB (the TCP ones default to 128, ENet 64).
// criterion's macros define undocumented public functions; a benchmark stops on bad input.
#![allow(missing_docs, clippy::expect_used, clippy::arithmetic_side_effects)]

#[path = "support/ops.rs"]
mod ops;
#[path = "support/synth.rs"]
mod synth;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gdvariant::Version;

fn mib(default: usize) -> usize {
    std::env::var("GDV_PCAP_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(default) << 20
}

fn read(c: &mut Criterion) {
    let mut group = c.benchmark_group("tcp_put_var");
    for (name, mix) in
        [("mixed", synth::Mix::Mixed), ("large", synth::Mix::Large), ("small", synth::Mix::Small)]
    {
        let (capture, frames) = synth::tcp(Version::Godot4, mix, mib(128), 4, 1);
        let counts = ops::read_values(&capture, Version::Godot4);
        assert_eq!((counts.values, counts.refused, counts.other), (frames, 0, 0), "{name}");
        group.throughput(Throughput::Bytes(capture.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| ops::read_values(black_box(&capture), Version::Godot4))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("enet");
    let (capture, _, messages) = synth::enet(mib(64), 8, 1);
    let counts = ops::read_enet(&capture, true);
    assert_eq!((counts.values, counts.refused, counts.tracker_refused), (messages, 0, 0));
    group.throughput(Throughput::Bytes(capture.len() as u64));
    group.bench_function("messages", |b| b.iter(|| ops::read_enet(black_box(&capture), false)));
    group.bench_function("tracked", |b| b.iter(|| ops::read_enet(black_box(&capture), true)));
    group.finish();
}

criterion_group! {
    name = benches;
    // Each run reads 64-128 MiB: few samples, as the dump benchmarks of the core.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = read
}
criterion_main!(benches);
