//! The benchmark workloads: deterministic inputs built in code (plus the corpus's large real-engine
//! cases), and the operations each benchmark times. Shared by every bench target, by the Godot
//! side-by-side runner and by `tests/bench_allocations.rs`, so what is timed is what is checked
//! for allocations.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

pub mod hostile;
pub mod inputs;
pub mod ops;

/// The criterion settings of every bench target: 1 s of warm-up and 3 s of measurement per
/// benchmark, so that `cargo bench` runs every workload in about five minutes.
pub fn criterion_config() -> criterion::Criterion {
    use std::time::Duration;
    criterion::Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}
