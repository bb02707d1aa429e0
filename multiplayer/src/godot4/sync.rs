//! NETWORK_COMMAND_SYNC: `MultiplayerSynchronizer` state, whole (unreliable) or changed
//! properties only (delta, reliable).
//!
//! ```text
//! full   06, u16 sync time, then elements while 8 bytes and one more remain:
//!        u32 synchronizer network id, u32 size, size bytes of compressed values (the
//!        synchronizer's sync properties, in order)
//! delta  16 (flag bit 4), then elements while 16 bytes and one more remain:
//!        u32 network id, u64 mask of the changed watched properties, u32 size, size bytes
//!        of compressed values (the changed properties, in index order)
//! ```
//!
//! A network id with bit 31 set is `0x80000000 | path-cache id` (a synchronizer present in every
//! peer's scene), else the id a SPAWN gave it. Both forms need at least 11 bytes. Godot stops at
//! an element whose size runs past the packet, at a full-sync value it cannot read, and at a
//! delta element whose values do not fill exactly its size; it skips elements of
//! synchronizers it does not know. Decoding is O(1); elements and values are read when
//! iterated. Values never hold full objects.

use crate::error::{PacketError, PacketErrorKind};
use crate::field::{u16_at, u32_at, u64_at};
use crate::godot4::value::Values;
use gdvariant::Options;

/// The smallest sync packet Godot reads (full or delta).
const MINIMUM: usize = 11;

/// Bit 31 of a network id: the rest is a path-cache id.
pub const PATH_ID: u32 = 0x8000_0000;

/// A full SYNC packet.
#[derive(Clone, Copy, Debug)]
pub struct FullSync<'a> {
    buf: &'a [u8],
    base: usize,
    time: u16,
    options: Options,
}

impl<'a> FullSync<'a> {
    pub(crate) fn read(buf: &'a [u8], base: usize, options: Options) -> Result<Self, PacketError> {
        check_length(buf, base)?;
        let time = u16_at(buf, base.saturating_add(1))?;
        Ok(FullSync { buf, base, time, options: options.with_allow_objects(false) })
    }

    /// The sender's sync time for this peer (a u16 counter; Godot drops state older than what
    /// it has, modulo wrapping).
    pub fn time(&self) -> u16 {
        self.time
    }

    /// The elements, read as iterated: O(1) per element, no allocation.
    pub fn elements(&self) -> SyncElements<'a> {
        SyncElements {
            buf: self.buf,
            pos: self.base.saturating_add(3),
            options: self.options,
            failed: false,
        }
    }
}

/// One synchronizer's state in a full SYNC.
#[derive(Clone, Copy, Debug)]
pub struct SyncElement<'a> {
    net_id: u32,
    at: usize,
    size: u32,
    values: Values<'a>,
}

impl<'a> SyncElement<'a> {
    /// The synchronizer's network id (bit 31: a path-cache id, see [`PATH_ID`]).
    pub fn net_id(&self) -> u32 {
        self.net_id
    }

    /// The element's offset (its network id's first byte).
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The declared size of its values.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The values, read as iterated (Godot reads as many as the synchronizer has sync
    /// properties and ignores the rest).
    pub fn values(&self) -> Values<'a> {
        self.values
    }
}

/// The elements of a full SYNC.
#[derive(Clone, Debug)]
pub struct SyncElements<'a> {
    buf: &'a [u8],
    pos: usize,
    options: Options,
    failed: bool,
}

impl<'a> Iterator for SyncElements<'a> {
    type Item = Result<SyncElement<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos.saturating_add(8) >= self.buf.len() {
            return None;
        }
        let at = self.pos;
        let read = || -> Result<SyncElement<'a>, PacketError> {
            let net_id = u32_at(self.buf, at)?;
            let size = u32_at(self.buf, at.saturating_add(4))?;
            let values_at = at.saturating_add(8);
            if u64::from(size) > self.buf.len().saturating_sub(values_at) as u64 {
                return Err(PacketError::new(
                    at.saturating_add(4),
                    PacketErrorKind::BadSize { size },
                ));
            }
            let end = values_at.saturating_add(size as usize);
            Ok(SyncElement {
                net_id,
                at,
                size,
                values: Values::new(self.buf, values_at, end, self.options),
            })
        };
        match read() {
            Ok(element) => {
                self.pos = at.saturating_add(8).saturating_add(element.size as usize);
                Some(Ok(element))
            }
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

impl core::iter::FusedIterator for SyncElements<'_> {}

/// A delta SYNC packet.
#[derive(Clone, Copy, Debug)]
pub struct DeltaSync<'a> {
    buf: &'a [u8],
    base: usize,
    options: Options,
}

impl<'a> DeltaSync<'a> {
    pub(crate) fn read(buf: &'a [u8], base: usize, options: Options) -> Result<Self, PacketError> {
        check_length(buf, base)?;
        Ok(DeltaSync { buf, base, options: options.with_allow_objects(false) })
    }

    /// The elements, read as iterated: O(1) per element, no allocation.
    pub fn elements(&self) -> DeltaElements<'a> {
        DeltaElements {
            buf: self.buf,
            pos: self.base.saturating_add(1),
            options: self.options,
            failed: false,
        }
    }
}

/// One synchronizer's changed properties in a delta SYNC.
#[derive(Clone, Copy, Debug)]
pub struct DeltaElement<'a> {
    net_id: u32,
    at: usize,
    mask: u64,
    size: u32,
    values: Values<'a>,
}

impl<'a> DeltaElement<'a> {
    /// The synchronizer's network id (bit 31: a path-cache id).
    pub fn net_id(&self) -> u32 {
        self.net_id
    }

    /// The element's offset.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Which watched properties changed: bit i for the i-th property whose replication mode is
    /// ON_CHANGE, in the synchronizer's configuration order.
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// The indexes of the changed properties, in the order their values follow.
    pub fn indexes(&self) -> impl Iterator<Item = u32> {
        let mask = self.mask;
        (0..64u32).filter(move |i| mask & (1u64 << i) != 0)
    }

    /// The declared size of the values.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The values, read as iterated.
    pub fn values(&self) -> Values<'a> {
        self.values
    }
}

/// The elements of a delta SYNC. An element whose values do not end exactly at its size is an
/// error (Godot stops there).
#[derive(Clone, Debug)]
pub struct DeltaElements<'a> {
    buf: &'a [u8],
    pos: usize,
    options: Options,
    failed: bool,
}

impl<'a> Iterator for DeltaElements<'a> {
    type Item = Result<DeltaElement<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos.saturating_add(16) >= self.buf.len() {
            return None;
        }
        let at = self.pos;
        let read = || -> Result<DeltaElement<'a>, PacketError> {
            let net_id = u32_at(self.buf, at)?;
            let mask = u64_at(self.buf, at.saturating_add(4))?;
            let size = u32_at(self.buf, at.saturating_add(12))?;
            let values_at = at.saturating_add(16);
            if u64::from(size) > self.buf.len().saturating_sub(values_at) as u64 {
                return Err(PacketError::new(
                    at.saturating_add(12),
                    PacketErrorKind::BadSize { size },
                ));
            }
            let end = values_at.saturating_add(size as usize);
            Ok(DeltaElement {
                net_id,
                at,
                mask,
                size,
                values: Values::new(self.buf, values_at, end, self.options),
            })
        };
        match read() {
            Ok(element) => {
                self.pos = at.saturating_add(16).saturating_add(element.size as usize);
                Some(Ok(element))
            }
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

impl core::iter::FusedIterator for DeltaElements<'_> {}

/// Godot's first check of both forms, made before it looks at the delta flag.
fn check_length(buf: &[u8], base: usize) -> Result<(), PacketError> {
    if buf.len().saturating_sub(base) < MINIMUM {
        return Err(PacketError::new(base, PacketErrorKind::TooShort { minimum: MINIMUM }));
    }
    Ok(())
}
