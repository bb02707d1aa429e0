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
//! # What is validated where
//!
//! * `decode` ([`godot4::decode`], [`godot3::decode`]): every check the engine makes on the
//!   packet's own bytes before it acts, in its order; O(1) (plus a name, a spawn argument).
//! * Iterators over arguments, spawn state and sync elements: each value as Godot's
//!   `decode_variant` reads it (the crate's [`validate`](gdvariant::validate) walk; compressed
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
//! | iterating arguments, state, sync elements; `Godot4Packet::validate` | O(bytes read); no allocation |
//! | `write` functions | O(bytes written) (twice where a size or offset precedes what it measures); no allocation |
//! | [`transport`] readers and writers, [`capture`] records | O(1) per message |
//! | [`session::Session4::observe`], [`session::Session4::rpc`], [`session::Session3`] | O(log entries + length of the path stored or compared) |
//! | [`checksum_of`] | O(length of the names) |

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
mod error;
mod field;
pub mod godot3;
pub mod godot4;
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
