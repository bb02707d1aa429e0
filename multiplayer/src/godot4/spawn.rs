//! NETWORK_COMMAND_SPAWN and NETWORK_COMMAND_DESPAWN: `MultiplayerSpawner` replication.
//!
//! ```text
//! SPAWN    04, u8 scene (an index into the spawner's spawnable scenes; 0xFF: a custom spawn
//!          through spawn_function), u32 spawner cache id, u32 network id of the new node,
//!          u32 count of synchronizer ids, u32 name length (its NUL included),
//!          u32 synchronizer network ids[count], the node name (NUL-terminated),
//!          [custom spawn: u32 size, one compressed value of that size: the spawn argument],
//!          the spawn state: compressed values of every synchronizer's spawn properties, in
//!          order, to the end of the packet (at least 18 bytes)
//! DESPAWN  05, u32 network id (at least 5 bytes)
//! ```
//!
//! Godot checks the sizes (in 32-bit arithmetic, which this crate does not copy: a count whose
//! size overflows it is refused here), that the name is not empty and is a valid node name
//! (none of `. : @ / " %`), and the custom argument; the state is read by each synchronizer as
//! the node enters the tree, and a value it cannot read stops that synchronizer, not the spawn.
//! Decoding is O(name + argument); the state is read when iterated. Values of the state and of
//! the argument never hold full objects.

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{slice, u8_at, u32_at};
use crate::godot4::value::{Carried, Value, Values, carried_bytes, read_value};
use gdvariant::view::GdStr;
use gdvariant::{Options, Version};

/// The scene byte of a custom spawn (`MultiplayerSpawner::INVALID_ID`).
pub const CUSTOM_SPAWN: u8 = 0xFF;

/// The characters Godot 4 refuses in a node name (`String::validate_node_name`).
const INVALID_NAME: &[u8] = b".:@/\"%";

/// A SPAWN packet.
#[derive(Clone, Copy, Debug)]
pub struct Spawn<'a> {
    buf: &'a [u8],
    scene: u8,
    spawner: u32,
    net_id: u32,
    sync_ids_at: usize,
    sync_count: u32,
    name: GdStr<'a>,
    argument: Option<Carried<'a>>,
    state_at: usize,
    options: Options,
}

impl<'a> Spawn<'a> {
    pub(crate) fn read(buf: &'a [u8], base: usize, options: Options) -> Result<Self, PacketError> {
        let len = buf.len().saturating_sub(base);
        if len < 18 {
            return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: 18 }));
        }
        let scene = u8_at(buf, base.saturating_add(1))?;
        let spawner = u32_at(buf, base.saturating_add(2))?;
        let net_id = u32_at(buf, base.saturating_add(6))?;
        let sync_count = u32_at(buf, base.saturating_add(10))?;
        let name_len = u32_at(buf, base.saturating_add(14))?;
        let sync_ids_at = base.saturating_add(18);
        let needed = u64::from(name_len).saturating_add(u64::from(sync_count).saturating_mul(4));
        let left = len.saturating_sub(18) as u64;
        if needed > left {
            return Err(PacketError::new(
                base.saturating_add(10),
                PacketErrorKind::BadSize { size: u32::try_from(needed).unwrap_or(u32::MAX) },
            ));
        }
        if name_len < 1 {
            return Err(PacketError::new(base.saturating_add(14), PacketErrorKind::EmptyName));
        }
        let name_at = sync_ids_at.saturating_add((sync_count as usize).saturating_mul(4));
        let name_bytes = slice(buf, name_at, name_len as usize)
            .map_err(|_| PacketError::new(name_at, PacketErrorKind::BadSize { size: name_len }))?;
        let name = GdStr::from_raw(name_bytes, name_at, Version::Godot4);
        let text = name.text_bytes();
        // validate_node_name(): a name holding a character it replaces is refused.
        if let Some(bad) = text.iter().position(|b| INVALID_NAME.contains(b)) {
            return Err(PacketError::new(
                name_at.saturating_add(bad),
                PacketErrorKind::InvalidName,
            ));
        }
        let mut state_at = name_at.saturating_add(name_len as usize);
        let state_options = options.with_allow_objects(false);
        let argument = if scene == CUSTOM_SPAWN {
            let size_at = state_at;
            let size = u32_at(buf, size_at)?;
            let value_at = size_at.saturating_add(4);
            if u64::from(size) > buf.len().saturating_sub(value_at) as u64 {
                return Err(PacketError::new(size_at, PacketErrorKind::BadSize { size }));
            }
            let value_end = value_at.saturating_add(size as usize);
            let (value, next) = read_value(buf, value_at, value_end, state_options)?;
            state_at = value_end;
            Some(Carried { value, bytes: carried_bytes(buf, value_at, next, value_end) })
        } else {
            None
        };
        Ok(Spawn {
            buf,
            scene,
            spawner,
            net_id,
            sync_ids_at,
            sync_count,
            name,
            argument,
            state_at,
            options: state_options,
        })
    }

    /// The scene: an index into the spawner's spawnable scenes, or [`CUSTOM_SPAWN`].
    pub fn scene(&self) -> u8 {
        self.scene
    }

    /// Whether the node is made by the spawner's `spawn_function` (scene byte 0xFF).
    pub fn is_custom(&self) -> bool {
        self.scene == CUSTOM_SPAWN
    }

    /// The spawner's path-cache id.
    pub fn spawner(&self) -> u32 {
        self.spawner
    }

    /// The new node's network id.
    pub fn net_id(&self) -> u32 {
        self.net_id
    }

    /// The network ids of the node's synchronizers, in the order their state follows (their
    /// count was checked against the packet's length: O(1) per id).
    pub fn sync_ids(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        let buf = self.buf;
        let at = self.sync_ids_at;
        (0..self.sync_count as usize)
            .map(move |i| u32_at(buf, at.saturating_add(i.saturating_mul(4))).unwrap_or(0))
    }

    /// The node's name (its declared bytes; Godot's text stops at the first NUL).
    pub fn name(&self) -> GdStr<'a> {
        self.name
    }

    /// A custom spawn's argument (the value handed to `spawn_function`).
    pub fn argument(&self) -> Option<Value<'a>> {
        self.argument.map(|carried| carried.value)
    }

    /// A custom spawn's argument with the bytes it was carried in (within the argument's size).
    pub fn argument_carried(&self) -> Option<Carried<'a>> {
        self.argument
    }

    /// The spawn state: every synchronizer's spawn properties, in order, read as iterated:
    /// O(bytes read), no allocation.
    pub fn state(&self) -> Values<'a> {
        Values::new(self.buf, self.state_at, self.buf.len(), self.options)
    }
}

/// A DESPAWN packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Despawn {
    net_id: u32,
}

impl Despawn {
    pub(crate) fn read(buf: &[u8], base: usize) -> Result<Self, PacketError> {
        if buf.len().saturating_sub(base) < 5 {
            return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: 5 }));
        }
        Ok(Despawn { net_id: u32_at(buf, base.saturating_add(1))? })
    }

    /// The despawned node's network id.
    pub fn net_id(&self) -> u32 {
        self.net_id
    }
}
