//! A validating relay for Godot traffic, on tokio: it accepts clients over TCP, UDP, WebSocket
//! or ENet, connects each one to the upstream server, checks every message either way as
//! Godot reads it, and forwards what your [`Filter`] lets go, byte for byte.
//!
//! ```no_run
//! use gdvariant_relay::{Config, Direction, Frame, Relay, Transport, Verdict};
//!
//! # async fn serve() -> std::io::Result<()> {
//! let config = Config::new(Transport::Enet, "0.0.0.0:4000".parse().unwrap(), "10.0.0.2:4000");
//! let relay = Relay::bind(config).await?;
//! println!("listening on {}", relay.local_addr());
//! // Drop what a client sends when it is a dictionary whose "cmd" the game reads as
//! // "shutdown"; one that cannot be read counts as one (fail closed).
//! let filter = |frame: &Frame| {
//!     let from_client = frame.direction() == Direction::ToUpstream;
//!     let dictionary = frame.value().and_then(|value| value.as_dictionary());
//!     match dictionary {
//!         Some(d) if from_client && d.get_is("cmd", "shutdown").unwrap_or(true) => {
//!             Verdict::drop("shutdown", "a client asked for a shutdown")
//!         }
//!         _ => Verdict::Forward,
//!     }
//! };
//! relay.run(filter, (), tokio::signal::ctrl_c()).await
//! # }
//! ```
//!
//! # What is checked where
//!
//! - **Before the filter** ([`Messages::Values`]): each message must be one value Godot's
//!   `get_var` accepts (read with the [`Options`](gdvariant::Options) of the [`Config`]); over
//!   ENet with Godot 3, the 8-byte header must name the sending client and clients may not send
//!   on the system channel. What fails is dropped and reported to the [`Observer`]. With
//!   [`Messages::Multiplayer`] the filter reads each message itself (for example with
//!   `gdvariant_multiplayer`'s session trackers); the ENet header checks still apply.
//! - **The filter** ([`Filter`]) sees each [`Frame`] that passed, per connection and direction,
//!   and gives a [`Verdict`].
//! - **Limits** ([`Config`]): messages over `max_frame` are dropped without being buffered whole;
//!   at most `max_connections` clients; a connection idle for `idle_timeout` is closed.
//!
//! # Costs
//!
//! Per message: O(its bytes) to check it (the value is validated once, in one pass, where it
//! was received), plus the filter; nothing is allocated or copied per message. Memory per connection: its receive buffers (64 KiB for TCP and UDP, ENet's own
//! per-peer buffers, at most `max_frame` waiting in ENet reassembly) plus the filter's state.
//! Over ENet one task owns every host; over the other transports each connection has its own
//! task.
//!
//! # Transports
//!
//! [`Transport::Tcp`] and [`Transport::Udp`] are always there; [`Transport::WebSocket`]
//! (feature `websocket`) and [`Transport::Enet`] (feature `enet`) are default features. ENet's
//! compression and Godot's DTLS are not supported: both sides must leave them off (Godot's
//! default).

mod accept;
mod activity;
mod config;
#[cfg(feature = "enet")]
mod enet;
mod filter;
mod link;
mod log;
mod observer;
mod relay;
mod tcp;
mod udp;
#[cfg(feature = "websocket")]
mod websocket;
mod work;

pub use config::{Config, ENET_MAX_PEERS, Messages, Transport};
pub use filter::{Channel, Connection, Direction, Filter, Frame, TransferMode, Verdict};
pub use log::Log;
pub use observer::{Count, Dropped, End, Observer, Tally};
pub use relay::Relay;

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
