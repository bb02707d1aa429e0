//! Bounds-checked reads at absolute positions: the only place that touches raw bytes.
//!
//! Every read names the absolute position it starts at and fails with
//! [`ErrorKind::Truncated`] when the buffer ends first. Positions may point past the end of the
//! buffer (Godot counts the padding of a final `PackedByteArray` even when it is absent); such a
//! position reads as empty and error offsets are clamped to the buffer's length, so an error
//! always names a place inside the input or its very end.

use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::work;

/// An error of `kind` at `pos`, with the offset clamped to the end of `buf`.
#[inline]
pub(crate) fn error_at(buf: &[u8], pos: usize, kind: ErrorKind) -> Error {
    Error::new(pos.min(buf.len()), kind)
}

/// The `len` bytes at `pos`.
#[inline]
pub(crate) fn bytes_at(buf: &[u8], pos: usize, len: usize) -> Result<&[u8]> {
    work::add((len / 64).saturating_add(1));
    pos.checked_add(len)
        .and_then(|end| buf.get(pos..end))
        .ok_or_else(|| error_at(buf, pos, ErrorKind::Truncated { needed: len }))
}

/// The `N` bytes at `pos`, as an array.
#[inline]
pub(crate) fn array_at<const N: usize>(buf: &[u8], pos: usize) -> Result<[u8; N]> {
    let bytes = bytes_at(buf, pos, N)?;
    let mut out = [0u8; N];
    out.copy_from_slice(bytes);
    Ok(out)
}

/// The little-endian u32 at `pos`.
#[inline]
pub(crate) fn u32_at(buf: &[u8], pos: usize) -> Result<u32> {
    array_at::<4>(buf, pos).map(u32::from_le_bytes)
}

/// The little-endian u64 at `pos`.
#[inline]
pub(crate) fn u64_at(buf: &[u8], pos: usize) -> Result<u64> {
    array_at::<8>(buf, pos).map(u64::from_le_bytes)
}

/// Bytes of zero padding that follow `len` bytes to reach a multiple of 4.
#[inline]
pub(crate) const fn padding(len: usize) -> usize {
    len.wrapping_neg() & 3
}

/// Bytes left from `pos` to the end of `buf` (zero when `pos` is past the end).
#[inline]
pub(crate) fn remaining(buf: &[u8], pos: usize) -> usize {
    buf.len().saturating_sub(pos)
}

/// The f64 that Godot's `(double)float_value` gives for the f32 bits `bits`: exact for every
/// number; a NaN keeps its sign and payload and becomes quiet, as on x86-64 and ARM hardware.
/// Done on bits so the result is the same on every target and under Miri.
#[inline]
pub(crate) fn widen_f32(bits: u32) -> f64 {
    let value = f32::from_bits(bits);
    if value.is_nan() {
        let sign = u64::from(bits >> 31) << 63;
        let payload = u64::from(bits & 0x007f_ffff) << 29;
        f64::from_bits(sign | 0x7ff8_0000_0000_0000 | payload)
    } else {
        f64::from(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounds_checked() {
        let buf = [1u8, 0, 0, 0, 2];
        assert_eq!(u32_at(&buf, 0), Ok(1));
        let err = u32_at(&buf, 2).unwrap_err();
        assert_eq!((err.offset(), err.kind()), (2, ErrorKind::Truncated { needed: 4 }));
        let err = u32_at(&buf, usize::MAX).unwrap_err();
        assert_eq!(err.offset(), buf.len());
        assert_eq!(remaining(&buf, 9), 0);
    }

    #[test]
    fn widening_matches_godot_on_nan() {
        // Godot 3.2.3 decodes the f32 signalling NaN 0x7F800001 to f64 bits 0x7FF8000020000000.
        assert_eq!(widen_f32(0x7f80_0001).to_bits(), 0x7ff8_0000_2000_0000);
        assert_eq!(widen_f32(0x3f80_0000), 1.0);
        assert_eq!(widen_f32(0x8000_0000).to_bits(), (-0.0f64).to_bits());
    }
}
