//! Shared test support: the core's (`tests/common/`, the corpora's JSON, hex, the work
//! counter's helpers), and the real-engine multiplayer captures of `corpus/multiplayer`.
#![allow(dead_code, unused_imports)]

#[path = "../../../tests/common/mod.rs"]
mod shared;

pub mod multiplayer;

pub use shared::*;
