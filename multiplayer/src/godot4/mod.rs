//! Godot 4's `SceneMultiplayer` packets (as of 4.6), read without copying or allocating.
//!
//! The first byte's low three bits are the command; the bits above carry flags for some
//! commands and are ignored by the others (Godot masks with 7 everywhere):
//!
//! | command | byte | what | module |
//! | --- | --- | --- | --- |
//! | RPC | `0x00` + flags | a remote call: node, method id, arguments | [`Rpc`] |
//! | SIMPLIFY_PATH | `0x01` | "path P is id N from now on", with the MD5 of P's RPC methods | [`SimplifyPath`] |
//! | CONFIRM_PATH | `0x02` | "id N received; checksum matched or not" | [`ConfirmPath`] |
//! | RAW | `0x03` | `send_bytes` data | [`Godot4Packet::Raw`] |
//! | SPAWN | `0x04` | a `MultiplayerSpawner` made a node | [`Spawn`] |
//! | DESPAWN | `0x05` | it freed one | [`Despawn`] |
//! | SYNC | `0x06`, `0x16` | `MultiplayerSynchronizer` state, full or delta | [`FullSync`], [`DeltaSync`] |
//! | SYS | `0x07` | authentication, peers joining and leaving, the server relay | [`Sys`] |
//!
//! # What is checked where
//!
//! [`decode`] makes every check Godot makes on the bytes alone, in Godot's order, and refuses
//! what Godot refuses with a [`PacketError`] at the offset of the problem: lengths, node-id
//! widths, path offsets, sizes, spawn names and arguments, SYS sub-commands, what a relay
//! carries. It reads headers and fixed fields only: O(1), plus a spawn's name and argument.
//! RPC arguments, spawn state and sync values are compressed values ([`Value`]), read when
//! their iterators are (O(bytes read)), each plain value by the core's own walk with
//! [`validate`](gdvariant::validate)'s checks. [`Godot4Packet::validate`] reads everything: O(n).
//!
//! What only the receiving game knows (whether a cache id, a network id or a node exists, RPC
//! modes and authority, whether a peer is still authenticating) is not checked here; the
//! [`session`](crate::session) tracker follows ids across a connection. Godot
//! still calls an RPC whose arguments it cannot read (with `null` from the bad one on):
//! [`Rpc::check_arguments`] says so, and [`Godot4Packet::validate`] refuses such a packet.
//!
//! Nothing here allocates or recurses (a relay holds one packet, which cannot be a SYS), and
//! no input can panic.

mod cache;
mod rpc;
mod spawn;
mod sync;
mod sys;
mod value;
pub mod write;

pub use cache::{ConfirmPath, SimplifyPath};
pub use rpc::{Arguments, IdWidth, NodeAddress, Rpc};
pub use spawn::{CUSTOM_SPAWN, Despawn, Spawn};
pub use sync::{
    DeltaElement, DeltaElements, DeltaSync, FullSync, PATH_ID, SyncElement, SyncElements,
};
pub use sys::{RelayPacket, Sys};
pub use value::{Carried, IntWidth, Value, Values, read_compressed};

use super::error::{PacketError, PacketErrorKind};
use super::field::{rest, u8_at};
use gdvariant::{Options, Version};

/// A command: the first byte's low three bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `NETWORK_COMMAND_REMOTE_CALL` (0).
    Rpc,
    /// `NETWORK_COMMAND_SIMPLIFY_PATH` (1).
    SimplifyPath,
    /// `NETWORK_COMMAND_CONFIRM_PATH` (2).
    ConfirmPath,
    /// `NETWORK_COMMAND_RAW` (3).
    Raw,
    /// `NETWORK_COMMAND_SPAWN` (4).
    Spawn,
    /// `NETWORK_COMMAND_DESPAWN` (5).
    Despawn,
    /// `NETWORK_COMMAND_SYNC` (6).
    Sync,
    /// `NETWORK_COMMAND_SYS` (7).
    Sys,
}

impl Command {
    /// The command of a first byte.
    pub const fn of(first: u8) -> Command {
        match first & 7 {
            0 => Command::Rpc,
            1 => Command::SimplifyPath,
            2 => Command::ConfirmPath,
            3 => Command::Raw,
            4 => Command::Spawn,
            5 => Command::Despawn,
            6 => Command::Sync,
            _ => Command::Sys,
        }
    }

    /// Godot's name for it, lowercase: `rpc`, `simplify_path`, `confirm_path`, `raw`, `spawn`,
    /// `despawn`, `sync`, `sys`.
    pub const fn name(self) -> &'static str {
        match self {
            Command::Rpc => "rpc",
            Command::SimplifyPath => "simplify_path",
            Command::ConfirmPath => "confirm_path",
            Command::Raw => "raw",
            Command::Spawn => "spawn",
            Command::Despawn => "despawn",
            Command::Sync => "sync",
            Command::Sys => "sys",
        }
    }
}

/// A Godot 4 multiplayer packet, borrowed from the caller's buffer.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Godot4Packet<'a> {
    /// A remote call.
    Rpc(Rpc<'a>),
    /// A path announced with its cache id.
    SimplifyPath(SimplifyPath<'a>),
    /// A path's cache id confirmed.
    ConfirmPath(ConfirmPath),
    /// `send_bytes` data: the bytes after the command byte (at least one).
    Raw(&'a [u8]),
    /// A node spawned.
    Spawn(Spawn<'a>),
    /// A node despawned.
    Despawn(Despawn),
    /// Full synchronizer state.
    Sync(FullSync<'a>),
    /// Changed synchronizer properties.
    DeltaSync(DeltaSync<'a>),
    /// Authentication, peers, relay.
    Sys(Sys<'a>),
}

impl<'a> Godot4Packet<'a> {
    /// The packet's command.
    pub fn command(&self) -> Command {
        match self {
            Godot4Packet::Rpc(_) => Command::Rpc,
            Godot4Packet::SimplifyPath(_) => Command::SimplifyPath,
            Godot4Packet::ConfirmPath(_) => Command::ConfirmPath,
            Godot4Packet::Raw(_) => Command::Raw,
            Godot4Packet::Spawn(_) => Command::Spawn,
            Godot4Packet::Despawn(_) => Command::Despawn,
            Godot4Packet::Sync(_) | Godot4Packet::DeltaSync(_) => Command::Sync,
            Godot4Packet::Sys(_) => Command::Sys,
        }
    }

    /// Reads everything [`decode`] leaves for later, as Godot reads it: RPC arguments, spawn
    /// state, every sync element and value, and what a relay carries. O(n), no allocation.
    ///
    /// # Errors
    /// The first problem. This is stricter than Godot in one place: Godot 4 still calls an RPC
    /// whose arguments it cannot read (with `null` arguments from the bad one on), and still
    /// spawns a node whose spawn state a synchronizer cannot read.
    pub fn validate(&self) -> Result<(), PacketError> {
        match self {
            Godot4Packet::Rpc(rpc) => rpc.check_arguments(),
            Godot4Packet::Spawn(spawn) => spawn.state().try_for_each(|v| v.map(|_| ())),
            Godot4Packet::Sync(sync) => sync
                .elements()
                .try_for_each(|element| element?.values().try_for_each(|v| v.map(|_| ()))),
            Godot4Packet::DeltaSync(delta) => delta.elements().try_for_each(|element| {
                let element = element?;
                if element.mask() == 0 {
                    return Err(PacketError::new(
                        element.offset().saturating_add(4),
                        PacketErrorKind::EmptyMask,
                    ));
                }
                let mut values = element.values();
                for value in values.by_ref() {
                    value?;
                }
                let start = element.offset().saturating_add(16);
                let consumed = values.position().saturating_sub(start);
                if consumed != element.size() as usize {
                    return Err(PacketError::new(
                        element.offset().saturating_add(12),
                        PacketErrorKind::SizeMismatch { size: element.size(), consumed },
                    ));
                }
                Ok(())
            }),
            Godot4Packet::Sys(Sys::Relay(relay)) => relay.packet()?.validate(),
            Godot4Packet::SimplifyPath(_)
            | Godot4Packet::ConfirmPath(_)
            | Godot4Packet::Raw(_)
            | Godot4Packet::Despawn(_)
            | Godot4Packet::Sys(_) => Ok(()),
        }
    }
}

/// Decodes one Godot 4 multiplayer packet: the bytes a `MultiplayerPeer` hands over (ENet and
/// WebSocket add nothing; see [`transport`](crate::transport) for the WebSocket
/// peer-id message). `options` says how RPC arguments are read: Godot 4's dialect is used
/// whatever its version, and its `allow_objects` is `SceneMultiplayer.allow_object_decoding`
/// (off by default; spawn and sync state never allow full objects).
///
/// O(1) (a spawn: O(its name and argument)); no allocation. See the [module docs](self) for
/// what is checked here and what later.
///
/// # Errors
/// What Godot refuses in the packet's own bytes, at its offset.
///
/// ```
/// use gdvariant_multiplayer::godot4::{self, NodeAddress, Godot4Packet};
///
/// // rpc("jump", 5) on a node whose path has cache id 1, "jump" being method 0.
/// let packet = [0x00, 0x01, 0x00, 0x01, 0x02, 0x05];
/// let Godot4Packet::Rpc(rpc) = godot4::decode(&packet, gdvariant::Options::godot4())? else { panic!() };
/// assert_eq!(rpc.node(), NodeAddress::Cached(1));
/// assert_eq!(rpc.method_id(), 0);
/// let args: Vec<_> = rpc.arguments().collect::<Result<_, _>>()?;
/// assert_eq!(args[0].value().as_int(), Some(5));
/// # Ok::<(), gdvariant_multiplayer::PacketError>(())
/// ```
pub fn decode(packet: &[u8], options: Options) -> Result<Godot4Packet<'_>, PacketError> {
    decode_at(packet, 0, godot4_options(options), false)
}

/// The same options in Godot 4's dialect.
fn godot4_options(options: Options) -> Options {
    Options::new(Version::Godot4)
        .with_allow_objects(options.allow_objects())
        .with_max_depth(options.max_depth())
}

/// Decodes the packet that starts at `base` and runs to the end of `buf`; `relayed` when it is
/// carried by a RELAY (then a SYS is refused, as Godot's `_process_packet` refuses it).
pub(crate) fn decode_at(
    buf: &[u8],
    base: usize,
    options: Options,
    relayed: bool,
) -> Result<Godot4Packet<'_>, PacketError> {
    crate::work(1);
    let first = match u8_at(buf, base) {
        Ok(first) => first,
        Err(_) => return Err(PacketError::new(base.min(buf.len()), PacketErrorKind::Empty)),
    };
    Ok(match Command::of(first) {
        Command::Rpc => Godot4Packet::Rpc(Rpc::read(buf, base, options)?),
        Command::SimplifyPath => Godot4Packet::SimplifyPath(SimplifyPath::read(buf, base)?),
        Command::ConfirmPath => Godot4Packet::ConfirmPath(ConfirmPath::read(buf, base)?),
        Command::Raw => {
            let payload = rest(buf, base.saturating_add(1));
            if payload.is_empty() {
                return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: 2 }));
            }
            Godot4Packet::Raw(payload)
        }
        Command::Spawn => Godot4Packet::Spawn(Spawn::read(buf, base, options)?),
        Command::Despawn => Godot4Packet::Despawn(Despawn::read(buf, base)?),
        Command::Sync if first & 0x10 != 0 => {
            Godot4Packet::DeltaSync(DeltaSync::read(buf, base, options)?)
        }
        Command::Sync => Godot4Packet::Sync(FullSync::read(buf, base, options)?),
        Command::Sys if relayed => {
            return Err(PacketError::new(base, PacketErrorKind::SysInRelay));
        }
        Command::Sys => Godot4Packet::Sys(Sys::read(buf, base, options)?),
    })
}
