//! A validating relay for Godot traffic, on tokio: it accepts clients over TCP, UDP, WebSocket
//! or ENet, connects each one to the upstream server, checks every message either way as
//! Godot reads it, and forwards what your [`Filter`] lets go, byte for byte.
//!
//! # Protecting a Godot server
//!
//! Put the relay where clients connect and the Godot server behind it. A relay needs a tokio
//! runtime; the examples below use `#[tokio::main]` and Ctrl-C, so a server's `Cargo.toml`
//! names `tokio = { version = "1", features = ["rt-multi-thread", "macros", "signal"] }` (the
//! relay itself needs only `rt`, `net`, `io-util`, `time`, `macros` and `sync`, which it turns
//! on). The Godot version is part of every [`Config`]: it decides how values are read and,
//! for Godot 3 over ENet, turns on the checks of its 8-byte header, so no relay runs with
//! weaker checks than its traffic needs.
//!
//! **A value filter**: for games that send values with `put_var` (TCP, UDP, WebSocket, ENet),
//! each message is one value Godot's `get_var` accepts, read lazily. Here a client's
//! `{"cmd": "shutdown"}` is dropped, and so is one whose `cmd` cannot be read (fail closed):
//!
//! ```no_run
//! use gdvariant::Version;
//! use gdvariant_relay::{Config, Direction, Frame, Log, Relay, Transport, Verdict};
//!
//! # async fn serve() -> std::io::Result<()> {
//! let config = Config::new(Version::Godot4, Transport::Enet, "0.0.0.0:4000".parse().unwrap(), "10.0.0.2:4000");
//! let relay = Relay::bind(config).await?;
//! println!("listening on {}", relay.local_addr());
//! let filter = |frame: &Frame| {
//!     let from_client = frame.direction() == Direction::ToServer;
//!     let dictionary = frame.value().and_then(|value| value.as_dictionary());
//!     match dictionary {
//!         Some(d) if from_client && d.get_is("cmd", "shutdown").unwrap_or(true) => {
//!             Verdict::drop("shutdown", "a client asked for a shutdown")
//!         }
//!         _ => Verdict::Forward,
//!     }
//! };
//! relay.run(filter, Log, tokio::signal::ctrl_c()).await
//! # }
//! ```
//!
//! **The multiplayer guard**: for games on Godot's high-level multiplayer (`rpc`, `rset`,
//! spawners, synchronizers), [`Guard`] follows each connection with
//! `gdvariant_multiplayer`'s tracker and lets through from clients only what the rules allow
//! (`gdvariant_multiplayer::rules`: calls by node and method, syncs by property, spawns by
//! scene, raw packets, each at a rate per client). `examples/guard.rs` is this with its
//! arguments (`--transport`, `--godot`, `--rules`, `--project`):
//!
//! ```no_run
//! use gdvariant::Version;
//! use gdvariant_multiplayer::rules::Rules;
//! use gdvariant_relay::{Config, Guard, Log, Messages, Relay, Transport};
//!
//! # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//! let rules = Rules::parse("allow Main r_all\nallow Main done\nallow Main state 10/s\n")?;
//! let config = Config::new(Version::Godot3, Transport::Enet, "0.0.0.0:4000".parse()?, "127.0.0.1:4001")
//!     .messages(Messages::Multiplayer);
//! Relay::bind(config).await?.run(Guard::new(rules), Log, tokio::signal::ctrl_c()).await?;
//! # Ok(())
//! # }
//! ```
//!
//! **A filter of your own over tracked messages**: keep a tracker per connection
//! ([`Connection::tracker`]) and judge what it names. Filters compose ([`FilterExt::then`],
//! [`RateLimit`], `Option<F>`); a drop's detail is written inline ([`Detail`]), so a flood of
//! drops allocates nothing.
//!
//! ```
//! use std::sync::Arc;
//! use gdvariant_multiplayer::track::Tracker;
//! use gdvariant_relay::{Connection, Direction, Filter, FilterExt, Frame, RateLimit, Verdict};
//!
//! /// Clients may not call `kick` on any node, and may send 60 messages a second.
//! struct NoKick;
//!
//! impl Filter for NoKick {
//!     type State = Tracker;
//!
//!     fn open(&self, connection: &Connection) -> Tracker {
//!         connection.tracker(Arc::default()) // Godot 3 names its methods; Godot 4 needs lists
//!     }
//!
//!     fn judge(&self, tracker: &mut Tracker, frame: &Frame<'_>) -> Verdict {
//!         match tracker.message(frame.direction(), frame.channel().map_or(0, |c| c.number), frame.bytes()) {
//!             Err(refusal) => Verdict::drop(refusal.reason(), refusal),
//!             Ok(message) => match &message.call {
//!                 Some(call) if frame.direction() == Direction::ToServer
//!                     && call.member.as_deref() != Some("kick") => Verdict::Forward,
//!                 Some(call) if frame.direction() == Direction::ToServer => Verdict::drop("kick", call),
//!                 _ => Verdict::Forward,
//!             },
//!         }
//!     }
//! }
//!
//! let filter = NoKick.then(RateLimit::per_second(60));
//! # let _ = filter;
//! ```
//!
//! # What is checked where
//!
//! - **Before the filter** ([`Messages::Values`]): each message must be one value Godot's
//!   `get_var` accepts (read as the [`Config`]'s version reads it); over ENet with Godot 3, the
//!   8-byte header must name the sending client and clients may not send on the system
//!   channel. What fails is dropped and reported to the [`Observer`]. With
//!   [`Messages::Multiplayer`] the filter reads each message itself (the [`Guard`] does, with
//!   `gdvariant_multiplayer`'s tracker); the ENet header checks still apply. A filter that
//!   needs one kind says so ([`Filter::reads`]), and a relay configured for the other refuses
//!   to start.
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
//! Logging never blocks forwarding: [`Log`] queues each line to [`LogWriter::stderr`], a
//! bounded queue written by a thread of its own; when standard error does not keep up, lines
//! are dropped and counted (and reported with a `log_dropped` line once it does), never waited
//! for. Flush it before the process exits ([`LogWriter::flush`]).
//!
//! # Transports
//!
//! [`Transport::Tcp`] and [`Transport::Udp`] are always there; [`Transport::WebSocket`]
//! (feature `websocket`) and [`Transport::Enet`] (feature `enet`) are default features. ENet's
//! compression and Godot's DTLS are not supported: both sides must leave them off (Godot's
//! default).

mod accept;
mod activity;
pub mod checks;
mod compose;
mod config;
mod detail;
#[cfg(feature = "enet")]
mod enet;
mod filter;
mod guard;
mod link;
mod log;
mod observer;
mod rate;
mod relay;
mod tcp;
mod udp;
#[cfg(feature = "websocket")]
mod websocket;
mod work;
mod writer;

pub use compose::{Chain, FilterExt};
pub use config::{Config, ENET_MAX_PEERS, Messages, Transport};
pub use filter::{Channel, Connection, Detail, Direction, Filter, Frame, TransferMode, Verdict};
pub use guard::{Guard, GuardState, Tap};
pub use log::Log;
pub use observer::{Count, Dropped, End, Observer, Tally};
pub use rate::RateLimit;
pub use relay::Relay;
pub use writer::{LOG_QUEUE_BYTES, LOG_QUEUE_LINES, LogWriter};

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
