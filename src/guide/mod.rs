//! Guides: the crate's documentation beyond the API, one page per topic.
//!
//! Each page is plain text and runnable examples (every code block is a doctest); examples that
//! need a feature say which (`#[cfg(feature = "serde")]`, `tokio`), and all of them run under
//! `cargo test --all-features --doc`.
//!
//! | guide | for |
//! | --- | --- |
//! | [`reading`] | a quick start beyond the front page; whole values in one pass ([`Cursor`](crate::view::Cursor), [`Tape`](crate::view::Tape)) |
//! | [`owned`] | owned values, Godot's key rules, encoding, the [`Writer`](crate::Writer) |
//! | [`strings`] | strings as the game reads them (Godot 3's looser UTF-8), and which accessor gives what |
//! | [`typed_containers`] | Godot 4's typed containers as the game sees them (the game view) |
//! | [`framing`] | `store_var` dumps and `put_var` streams: frames from a buffer or a reader |
//! | [`network`] | tokio codecs for streams and datagrams (feature `tokio`), and the example relays |
//! | [`serde`] | serde for values, and Godot bytes into your own types (feature `serde`) |
//! | [`versions`] | Godot 3 and Godot 4; what `parse` checks and what `validate` checks |
//! | [`costs`] | performance against Godot's decoder, and the cost of each operation |
//! | [`differences`] | where this crate and the engine can still disagree |
//! | [`security`] | the guarantees on hostile input, how each is held and tested; fuzzing |

#[doc = include_str!("reading.md")]
pub mod reading {}

#[doc = include_str!("owned.md")]
pub mod owned {}

#[doc = include_str!("strings.md")]
pub mod strings {}

#[doc = include_str!("typed_containers.md")]
pub mod typed_containers {}

#[doc = include_str!("framing.md")]
pub mod framing {}

#[doc = include_str!("network.md")]
pub mod network {}

#[doc = include_str!("serde.md")]
pub mod serde {}

#[doc = include_str!("versions.md")]
pub mod versions {}

#[doc = include_str!("costs.md")]
pub mod costs {}

#[doc = include_str!("differences.md")]
pub mod differences {}

#[doc = include_str!("security.md")]
pub mod security {}
