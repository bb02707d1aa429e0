//! Godot's high-level multiplayer packets: what `rpc()`, `rset()`, `MultiplayerSpawner`,
//! `MultiplayerSynchronizer` and `send_bytes` put on the network, for Godot 4 (as of 4.6,
//! [`godot4`]) and Godot 3 (3.2.3, [`godot3`]).
//!
//! These packets wrap Variant values (RPC arguments, synchronized state) in a format of their
//! own: commands, path-cache ids, method indexes, compressed values. This module reads them
//! without copying or allocating, with Godot's own accept/refuse behaviour and typed errors at
//! byte offsets ([`PacketError`]); writes them byte for byte as the engines do (`write`
//! modules); follows the ids of a connection ([`session`], feature `alloc`); reads the transport
//! framing around them ([`transport`]); and reads and writes capture files ([`capture`]).
//!
//! ```
//! use gdvariant::multiplayer::godot4::{self, Packet, Sys};
//!
//! // A client's RAW packet for peer 5, relayed through the server (SYS RELAY).
//! let packet = [0x07, 0x03, 0x05, 0x00, 0x00, 0x00, 0x03, b'h', b'i'];
//! let Packet::Sys(Sys::Relay(relay)) = godot4::decode(&packet, gdvariant::Options::godot4())? else { panic!() };
//! assert_eq!(relay.peer(), 5);
//! assert!(matches!(relay.packet()?, Packet::Raw(b"hi")));
//! # Ok::<(), gdvariant::multiplayer::PacketError>(())
//! ```
//!
//! # What is validated where
//!
//! * `decode` ([`godot4::decode`], [`godot3::decode`]): every check the engine makes on the
//!   packet's own bytes before it acts, in its order; O(1) (plus a name, a spawn argument).
//! * Iterators over arguments, spawn state and sync elements: each value as Godot's
//!   `decode_variant` reads it (the crate's [`validate`](crate::validate) walk; compressed
//!   `bool` and `int` forms here), when reached. `validate` on a packet reads everything, O(n).
//! * [`session`]: what only a connection's history tells (cache ids, network ids, method
//!   names), O(log entries) per packet with bounded memory.
//!
//! Nothing recurses but a relay into the one packet it carries (relays do not nest), nothing
//! reads a byte twice but the measuring pass of a writer, and no input can panic: every field
//! is read through the crate's bounds-checked reads (`wire::read`).
//!
//! # Costs
//!
//! | operation | cost |
//! | --- | --- |
//! | [`godot4::decode`], [`godot3::decode`] | O(1) plus a spawn's name and argument or a Godot 3 name; no allocation |
//! | iterating arguments, state, sync elements; `Packet::validate` | O(bytes read); no allocation |
//! | `write` functions | O(bytes written) (twice where a size or offset precedes what it measures); no allocation |
//! | [`transport`] readers and writers, [`capture`] records | O(1) per message |
//! | [`session::Session4::observe`], [`session::Session4::rpc`], [`session::Session3`] | O(log entries + length of the path stored or compared) |
//! | [`checksum_of`] | O(length of the names) |

pub mod capture;
mod error;
mod field;
pub mod godot3;
pub mod godot4;
mod md5;
#[cfg(feature = "alloc")]
pub mod session;
pub mod transport;

pub use error::{PacketError, PacketErrorKind};

/// The MD5 Godot 4 puts in SIMPLIFY_PATH for RPC methods `names`, in the order given (the
/// `Node.rpc_config` methods sorted by name, then the script's `@rpc` functions sorted by name):
/// 32 lowercase hexadecimal characters. O(total length), no allocation.
///
/// ```
/// // A node whose script has the @rpc functions "jump" and "take_damage".
/// let checksum = gdvariant::multiplayer::checksum_of(["jump", "take_damage"]);
/// assert_eq!(&checksum, b"8c9db814c76add40efb4f84ba37edf87");
/// // A node without RPC methods (a spawner, a synchronizer):
/// assert_eq!(&gdvariant::multiplayer::checksum_of([]), b"d41d8cd98f00b204e9800998ecf8427e");
/// ```
pub fn checksum_of<'n>(names: impl IntoIterator<Item = &'n str>) -> [u8; 32] {
    let mut md5 = md5::Md5::new();
    for name in names {
        md5.update(name.as_bytes());
    }
    md5.hex()
}
