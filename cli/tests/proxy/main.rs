//! `gdvariant proxy` end to end on loopback: the built binary between a test client and an echo
//! server, over TCP, UDP, WebSocket and ENet. Every wait is bounded; every server stops with the test
//! process.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod support;

mod disguised;
mod enet;
mod enet_hostile;
mod examples;
mod hostile;
mod logging;
mod multiplayer;
mod tcp;
mod udp;
mod websocket;
