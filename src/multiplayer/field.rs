//! Bounds-checked reads of a packet's fixed fields, through the crate's one reading module
//! (`wire::read`). Positions are absolute in the buffer the decoder was given; a field that runs
//! past the end is [`PacketErrorKind::Truncated`](super::PacketErrorKind::Truncated) at its
//! first byte. Every read counts one unit of work (feature `work-counter`).

use super::error::{PacketError, PacketErrorKind};
use crate::wire::read::{array_at, bytes_at, remaining};

/// The error for a field of `needed` bytes at `pos` that the buffer does not hold.
fn truncated(buf: &[u8], pos: usize, needed: usize) -> PacketError {
    PacketError::new(pos.min(buf.len()), PacketErrorKind::Truncated { needed })
}

/// The `N` bytes at `pos`.
#[inline]
pub(crate) fn array<const N: usize>(buf: &[u8], pos: usize) -> Result<[u8; N], PacketError> {
    array_at::<N>(buf, pos).map_err(|_| truncated(buf, pos, N))
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
    bytes_at(buf, pos, len).map_err(|_| truncated(buf, pos, len))
}

/// Every byte from `pos` to the end (empty when `pos` is at or past the end).
#[inline]
pub(crate) fn rest(buf: &[u8], pos: usize) -> &[u8] {
    bytes_at(buf, pos, remaining(buf, pos)).unwrap_or(&[])
}
