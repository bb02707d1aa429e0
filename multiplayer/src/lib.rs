//! # gdvariant-multiplayer
//!
//! Godot's high-level multiplayer packets: what `rpc()`, `rset()`, `MultiplayerSpawner`,
//! `MultiplayerSynchronizer` and `send_bytes` put on the network, for Godot 4 (as of 4.6,
//! [`godot4`]) and Godot 3 (3.2.3, [`godot3`]).
//!
//! Most Godot games do not call `put_var` themselves: they use the high-level multiplayer API
//! (`@rpc` functions, `MultiplayerSpawner`, `MultiplayerSynchronizer` in Godot 4; `rpc()`,
//! `rset()` and `NetworkedMultiplayerENet` in Godot 3), whose packets wrap Variant values (RPC
//! arguments, synchronized state) in a format of their own: commands, path-cache ids, method
//! indexes, compressed values. This crate reads every packet of both without copying or
//! allocating, with the engines' own accept/refuse behaviour and typed errors at byte offsets
//! ([`PacketError`]); writes each kind byte for byte as the engines do (the `write` modules);
//! follows a connection's ids ([`session`], feature `alloc`) and names everything a connection
//! carries ([`track`]); judges what clients send against an allow-list ([`rules`], feature
//! `std`); reads a Godot 4 project's method lists and replication configs from its scripts and
//! scenes ([`project`]); reads the transports' framing ([`transport`]); and reads and writes
//! capture files ([`capture`]). Every packet of the
//! real-engine captures (`corpus/multiplayer/` in the repository: 1,300 Godot 4.6 packets, 580
//! Godot 3.2.3 packets over ENet and WebSocket) decodes to what the receiving engine did with it
//! (the node, the method, the arguments it got; the node it spawned and its state; the values
//! it synchronized) and re-encodes byte for byte, and 137 crafted packets get the engine's
//! verdict.
//!
//! It is a crate of its own, on top of [`gdvariant`]: a protocol over Variant values, built
//! only by those who need it, that uses nothing of the core but its public API (the values
//! inside packets are read by [`gdvariant::view::Element::validate_at`], names are
//! [`gdvariant::view::GdStr`]s).
//!
//! ```
//! use std::sync::Arc;
//! use gdvariant::Options;
//! use gdvariant_multiplayer::godot4::{self, Godot4Packet};
//! use gdvariant_multiplayer::session::{Checksum, Limits, MethodList, Route, RpcMethods, Session4};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // Godot 4 sends no method names: an index into the node's @rpc functions sorted by name.
//!     let mut methods = RpcMethods::new();
//!     methods.node("Main/Player", MethodList::script(["take_damage", "jump"]));
//!     let mut session = Session4::new(Arc::new(methods), Limits::default());
//!
//!     // Client 7 announces Main/Player as cache id 1 (with the MD5 of its method list) ...
//!     let mut simplify = vec![0x01];
//!     simplify.extend_from_slice(b"8c9db814c76add40efb4f84ba37edf87\0");
//!     simplify.extend_from_slice(&1u32.to_le_bytes());
//!     simplify.extend_from_slice(b"Main/Player\0");
//!     session.observe(7, 1, &godot4::decode(&simplify, Options::godot4())?)?;
//!
//!     // ... then calls rpc("jump", 5) on it.
//!     let packet = [0x00, 0x01, 0x00, 0x01, 0x02, 0x05];
//!     let Godot4Packet::Rpc(rpc) = godot4::decode(&packet, Options::godot4())? else { unreachable!() };
//!     let call = session.rpc(Route::direct(7, 1), &rpc);
//!     assert_eq!((call.path, call.method), (Some("Main/Player"), Some("jump")));
//!     assert_eq!(call.checksum, Checksum::Verified); // the list is the peer's
//!     let five = rpc.arguments().next().unwrap()?;
//!     assert_eq!(five.value().as_int(), Some(5));
//!     Ok(())
//! }
//! ```
//!
//! A relay, one packet inside another:
//!
//! ```
//! use gdvariant_multiplayer::godot4::{self, Godot4Packet, Sys};
//!
//! // A client's RAW packet for peer 5, relayed through the server (SYS RELAY).
//! let packet = [0x07, 0x03, 0x05, 0x00, 0x00, 0x00, 0x03, b'h', b'i'];
//! let Godot4Packet::Sys(Sys::Relay(relay)) = godot4::decode(&packet, gdvariant::Options::godot4())? else { panic!() };
//! assert_eq!(relay.peer(), 5);
//! assert!(matches!(relay.packet()?, Godot4Packet::Raw(b"hi")));
//! # Ok::<(), gdvariant_multiplayer::PacketError>(())
//! ```
//!
//! # The packets
//!
//! | Godot 4 ([`godot4`]) | first byte | carries |
//! | --- | --- | --- |
//! | RPC | `0x00` + flags: node-id width (bits 4-5), method-id width (bit 6), byte-only (bit 7) | a cache id (1, 2 or 4 bytes) or a path appended after the arguments; a method index (1 or 2 bytes; bit 15 for `Node.rpc_config` methods); an argument count and compressed values (a `bool` in one byte, an `int` in 1 to 8, anything else as `var_to_bytes`), or in the byte-only form no argument or one `PackedByteArray`'s bare bytes |
//! | SIMPLIFY_PATH / CONFIRM_PATH | `0x01` / `0x02` | the MD5 of the node's RPC method names, a cache id and a path / the id and whether the checksum matched |
//! | RAW | `0x03` | `send_bytes` data |
//! | SPAWN / DESPAWN | `0x04` / `0x05` | scene index (0xFF: custom), spawner cache id, network ids, node name, custom argument, spawn state / a network id |
//! | SYNC | `0x06`, `0x16` | full state (sync time, per synchronizer: id, size, values) / delta (id, mask of changed properties, size, values) |
//! | SYS | `0x07` | authentication data, peers added and removed, and RELAY (a packet for or from another peer: one level) |
//!
//! | Godot 3 ([`godot3`]) | first byte | carries |
//! | --- | --- | --- |
//! | CALL / SET | `0x00` / `0x01` | a cache id or path offset, the method or property name (UTF-8, NUL), the values as `var2bytes` |
//! | SIMPLIFY / CONFIRM | `0x02` / `0x03` | a cache id and a path / the path |
//! | RAW | `0x04` | `send_bytes` data |
//!
//! | transport ([`transport`]) | around each packet |
//! | --- | --- |
//! | Godot 3 ENet | `u32 source, i32 target`; channel 0: the server's `u32 0/1, u32 peer` (a peer joined or left) |
//! | Godot 3 WebSocket | 9 bytes: type (0 packet, 1 peer joined, 2 left, 3 your id), `i32 from`, `i32 to` |
//! | Godot 4 ENet, WebSocket | nothing; the WebSocket server's first message is the client's `i32` id |
//!
//! ## Names
//!
//! A decoded packet is a [`godot4::Godot4Packet`] or a [`godot3::Godot3Packet`]: the version is
//! in the name because both are often in scope at once (a proxy reads either), beside
//! [`transport::enet3::EnetPacket`] and the core's `gdvariant::net::Packet` (a datagram, not a
//! multiplayer packet). Godot 4's full-state SYNC is [`godot4::FullSync`], beside
//! [`godot4::DeltaSync`] (a `Sync` would shadow the standard trait).
//!
//! # What is validated where
//!
//! * `decode` ([`godot4::decode`], [`godot3::decode`]): every check the engine makes on the
//!   packet's own bytes before it acts, in its order (lengths, widths, path offsets, sizes,
//!   spawn names and arguments, SYS commands, what a relay carries); O(1) (plus a name, a spawn
//!   argument).
//! * Iterators over arguments, spawn state and sync elements: each value as Godot's
//!   `decode_variant` reads it (the core's [`validate`](gdvariant::validate) walk; compressed
//!   `bool` and `int` forms here), when reached. `validate` on a packet
//!   ([`Godot4Packet::validate`](godot4::Godot4Packet::validate),
//!   [`Godot3Packet::validate`](godot3::Godot3Packet::validate)) reads everything, O(n).
//! * [`session`]: what only a connection's history tells (cache ids, network ids, method
//!   names, a method list that does not match the peer's checksum), O(log entries) per packet
//!   with bounded memory.
//!
//! What only the game knows (whether a node or method exists, RPC modes) is not checked. Two
//! places are stricter than Godot, and `validate` says so: Godot 4 still calls an RPC whose
//! arguments it cannot read (with `null` arguments), and its synchronizers read only the values
//! they expect (trailing bytes, elements of unknown synchronizers); this crate refuses such
//! packets. Godot 4.6 itself crashes on a SPAWN whose synchronizer count wraps its 32-bit size
//! check; this crate refuses it (`corpus/multiplayer/` lists everything the captures showed).
//!
//! Nothing recurses but a relay into the one packet it carries (relays do not nest), nothing
//! reads a byte twice but the measuring pass of a writer, and no input can panic: every fixed
//! field is read through this crate's bounds-checked reads, every value through the core's.
//!
//! # Costs
//!
//! | operation | cost |
//! | --- | --- |
//! | [`godot4::decode`], [`godot3::decode`] | O(1) plus a spawn's name and argument or a Godot 3 name; no allocation |
//! | iterating arguments, state, sync elements; `validate` on a packet | O(bytes read); no allocation |
//! | `write` functions | O(bytes written) (twice where a size or offset precedes what it measures); no allocation |
//! | [`transport`] readers and writers, [`capture`] records | O(1) per message |
//! | [`session::Session4::observe`], [`session::Session4::rpc`], [`session::Session3`] | O(log entries + length of the path stored or compared) |
//! | [`track::Tracker::message`] | O(message bytes + log entries + path lengths); allocates the session's new entries and a spawn's or sync's list of property names |
//! | [`rules::Rules::judge`] | O(lines x path length) per named member; a rate limiter the first time a client uses a line with a rate |
//! | [`checksum_of`] | O(length of the names) |
//!
//! # Features
//!
//! * `std` (default): implies `alloc`; the [`rules`] (their rates need a clock: `governor`).
//! * `alloc`: the [`session`] trackers, the connection [`track`]er, the [`project`] reader, and owned `gdvariant::Variant` arguments in the writers.
//! * `work-counter`: counts this crate's work with the core's counter (`gdvariant::work`), for
//!   the tests and the fuzz target that prove its time bounds.
//!
//! Without `alloc`, the crate is `#![no_std]` and needs no allocator.
//!
//! # Following a connection, and an allow-list
//!
//! [`track::Tracker`] (feature `alloc`) follows one connection of either version message by
//! message, as a server guard or a capture reader sees it: each message with its transport's
//! header ([`Framing`]), its [`Direction`] and ENet channel, gives a [`track::Message`]: the
//! packet, its sender and target, and the names the session and the game's project give it (a
//! call's node, method and lazy arguments; a spawn's scene; each synchronizer's properties).
//! [`rules::Rules`] (feature `std`) is an allow-list over those messages: calls by node pattern
//! and method, syncs by property, spawns by scene, RAW packets, each at a rate per client, built
//! in code or read from a rules file; each [`rules::Decision`] says why. `gdvariant-relay`'s
//! `Guard` puts the two in front of a server; `gdvariant proxy --multiplayer --rules` and
//! `gdvariant multiplayer` are built on them (their options are in the command's README).
//!
//! # Vocabulary
//!
//! One set of words across this crate, the relay and the command: a message goes
//! [`Direction::ToServer`] or [`Direction::ToClient`]; ENet delivers it by a [`TransferMode`];
//! the transport wraps it in a [`Framing`]; a call (an RPC, a Godot 3 CALL or SET) as the
//! tracker names it is a [`track::Call`], while the packets that carry one are
//! [`godot4::Rpc`], [`godot3::RemoteCall`] and [`godot3::RemoteSet`]; a Godot 4 packet inside
//! another is a [`godot4::RelayPacket`].

#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod capture;
mod count;
mod delivery;
mod error;
mod field;
pub mod godot3;
pub mod godot4;
#[cfg(feature = "alloc")]
pub mod project;
#[cfg(feature = "std")]
pub mod rules;
#[cfg(feature = "alloc")]
pub mod session;
#[cfg(feature = "alloc")]
pub mod track;
pub mod transport;

pub use delivery::{Direction, Framing, TransferMode};
pub use error::{PacketError, PacketErrorKind};

/// The MD5 Godot 4 puts in SIMPLIFY_PATH for RPC methods `names`, in the order given (the
/// `Node.rpc_config` methods sorted by name, then the script's `@rpc` functions sorted by name):
/// 32 lowercase hexadecimal characters. O(total length), no allocation.
///
/// ```
/// // A node whose script has the @rpc functions "jump" and "take_damage".
/// let checksum = gdvariant_multiplayer::checksum_of(["jump", "take_damage"]);
/// assert_eq!(&checksum, b"8c9db814c76add40efb4f84ba37edf87");
/// // A node without RPC methods (a spawner, a synchronizer):
/// assert_eq!(&gdvariant_multiplayer::checksum_of([]), b"d41d8cd98f00b204e9800998ecf8427e");
/// ```
pub fn checksum_of<'n>(names: impl IntoIterator<Item = &'n str>) -> [u8; 32] {
    use md5::Digest as _;
    let mut md5 = md5::Md5::new();
    for name in names {
        md5.update(name.as_bytes());
        work(name.len() >> 6);
    }
    let digest = md5.finalize();
    // Lowercase hexadecimal, as Godot's `String::md5_text` gives it.
    let digits = b"0123456789abcdef";
    let mut out = [0u8; 32];
    for (pair, byte) in out.chunks_exact_mut(2).zip(digest.iter()) {
        let high = digits.get(usize::from(byte >> 4)).copied().unwrap_or(b'0');
        let low = digits.get(usize::from(byte & 15)).copied().unwrap_or(b'0');
        pair.copy_from_slice(&[high, low]);
    }
    out
}

/// Adds `units` to the core's per-thread work count (feature `work-counter`; nothing without
/// it), where this crate loops without reading through [`field`]: name scans, hashing, the
/// session's B-tree steps.
#[inline(always)]
fn work(units: usize) {
    #[cfg(feature = "work-counter")]
    gdvariant::work::add(units);
    #[cfg(not(feature = "work-counter"))]
    let _ = units;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::checksum_of;

    /// RFC 1321's test vectors, each as one name, and names fed across block boundaries.
    #[test]
    fn checksums_are_md5_in_lowercase_hex() {
        assert_eq!(&checksum_of([]), b"d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(&checksum_of(["a"]), b"0cc175b9c0f1b6a831c399e269772661");
        assert_eq!(&checksum_of(["abc"]), b"900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(&checksum_of(["message digest"]), b"f96b697d7cb7938d525a2f31aaf161d0");
        let digits =
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890";
        assert_eq!(&checksum_of([digits]), b"57edf4a22be3c955ac49da2e2107b67a");
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let pieces =
            (0..alphabet.len()).step_by(7).map(|at| &alphabet[at..(at + 7).min(alphabet.len())]);
        assert_eq!(&checksum_of(pieces), b"d174ab98d277d9f5a5611c2c9f419d9f");
    }
}
