//! Bounds-checked reads of a packet's fixed fields: the only code of this crate that indexes
//! a packet (values inside packets are read by the core, `gdvariant::view::Element::validate_at`).
//! Positions are absolute in the buffer the decoder was given; a field that runs past the end
//! is [`PacketErrorKind::Truncated`](crate::PacketErrorKind::Truncated) at its first byte
//! (clamped to the buffer's end). Every read is O(1) plus the bytes it hands out, and counts
//! one unit of work, plus one per 64 bytes (feature `work-counter`), as the core's reads do.

use crate::error::{PacketError, PacketErrorKind};

/// The error for a field of `needed` bytes at `pos` that the buffer does not hold.
fn truncated(buf: &[u8], pos: usize, needed: usize) -> PacketError {
    PacketError::new(pos.min(buf.len()), PacketErrorKind::Truncated { needed })
}

/// The `len` bytes at `pos`, or `None` when the buffer ends first.
#[inline]
fn bytes(buf: &[u8], pos: usize, len: usize) -> Option<&[u8]> {
    crate::work((len >> 6).saturating_add(1));
    pos.checked_add(len).and_then(|end| buf.get(pos..end))
}

/// The `N` bytes at `pos`.
#[inline]
pub(crate) fn array<const N: usize>(buf: &[u8], pos: usize) -> Result<[u8; N], PacketError> {
    bytes(buf, pos, N)
        .and_then(|bytes| <[u8; N]>::try_from(bytes).ok())
        .ok_or_else(|| truncated(buf, pos, N))
}

/// The byte at `pos`.
#[inline]
pub(crate) fn u8_at(buf: &[u8], pos: usize) -> Result<u8, PacketError> {
    array::<1>(buf, pos).map(|[b]| b)
}

/// The little-endian u16 at `pos`.
#[inline]
pub(crate) fn u16_at(buf: &[u8], pos: usize) -> Result<u16, PacketError> {
    array::<2>(buf, pos).map(u16::from_le_bytes)
}

/// The little-endian u32 at `pos`.
#[inline]
pub(crate) fn u32_at(buf: &[u8], pos: usize) -> Result<u32, PacketError> {
    array::<4>(buf, pos).map(u32::from_le_bytes)
}

/// The little-endian i32 at `pos`.
#[inline]
pub(crate) fn i32_at(buf: &[u8], pos: usize) -> Result<i32, PacketError> {
    array::<4>(buf, pos).map(i32::from_le_bytes)
}

/// The little-endian u64 at `pos`.
#[inline]
pub(crate) fn u64_at(buf: &[u8], pos: usize) -> Result<u64, PacketError> {
    array::<8>(buf, pos).map(u64::from_le_bytes)
}

/// The `len` bytes at `pos`.
#[inline]
pub(crate) fn slice(buf: &[u8], pos: usize, len: usize) -> Result<&[u8], PacketError> {
    bytes(buf, pos, len).ok_or_else(|| truncated(buf, pos, len))
}

/// Every byte from `pos` to the end (empty when `pos` is at or past the end).
#[inline]
pub(crate) fn rest(buf: &[u8], pos: usize) -> &[u8] {
    bytes(buf, pos, buf.len().saturating_sub(pos)).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounds_checked_and_little_endian() {
        let buf = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert_eq!(u8_at(&buf, 8), Ok(9));
        assert_eq!(u16_at(&buf, 0), Ok(0x0201));
        assert_eq!(u32_at(&buf, 5), Ok(0x0908_0706));
        assert_eq!(i32_at(&[0xFF; 4], 0), Ok(-1));
        assert_eq!(u64_at(&buf, 1), Ok(0x0908_0706_0504_0302));
        assert_eq!(slice(&buf, 7, 2), Ok(&buf[7..]));
        assert_eq!(rest(&buf, 6), &buf[6..]);
        assert_eq!(rest(&buf, 9), &[] as &[u8]);
        assert_eq!(rest(&buf, usize::MAX), &[] as &[u8]);
        let short = u32_at(&buf, 6).unwrap_err();
        assert_eq!((short.offset(), short.kind()), (6, PacketErrorKind::Truncated { needed: 4 }));
        let past = u64_at(&buf, usize::MAX).unwrap_err();
        assert_eq!(past.offset(), 9, "an offset past the end is clamped to it");
        assert!(slice(&buf, 1, usize::MAX).is_err());
    }
}
