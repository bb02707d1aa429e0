//! `gdvariant proxy` and the example relays between real Godot peers: Godot 3.2.3
//! (`godot3-server`, GDScript peers in `godot3/peer.gd`) over TCP and UDP, and Godot 4.6 (the
//! official web build in headless Chromium, `godot4/ws_client.gd`) over WebSocket. Godot's own
//! `get_var` checks every value that arrives: every type crosses in both directions, nothing
//! valid is lost, repeated or reordered, and the frames Godot refuses (sent by Godot itself)
//! are dropped; hostile clients run against the same proxy meanwhile. `multiplayer.rs` puts
//! `gdvariant proxy --multiplayer` between the two sides of a real Godot 4.6 and a real Godot
//! 3.2.3 multiplayer session over WebSocket and filters their RPCs by an allow-list; `enet.rs`
//! puts `gdvariant proxy --enet --multiplayer`, and then the library guard alone
//! (`relay/examples/guard.rs`), inside a Godot 3.2.3 ENet session and compares each with a
//! direct one.
//!
//! These tests need software a fresh machine lacks, so they are ignored by the plain test
//! command; `.ci/run` installs the engines and runs them with
//! `cargo test -p gdvariant-cli --test engines -- --ignored`. A missing engine fails them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../proxy/support.rs"]
mod support;

mod enet;
mod godot;
mod godot3;
mod godot4;
mod multiplayer;
