//! Exact conversions between `f32` and `f64` components, done on bits so that every `f32`
//! (signalling NaNs included) survives a trip through `f64` unchanged, on every target.

/// Widens `value` to `f64` exactly; a NaN keeps its sign, its quiet bit and its payload.
pub(crate) fn widen_exact(value: f32) -> f64 {
    if value.is_nan() {
        let bits = value.to_bits();
        let sign = u64::from(bits >> 31) << 63;
        let mantissa = u64::from(bits & 0x007f_ffff) << 29;
        f64::from_bits(sign | 0x7ff0_0000_0000_0000 | mantissa)
    } else {
        f64::from(value)
    }
}

/// Narrows `value` to `f32`: rounds to nearest; a NaN keeps its sign, quiet bit and the top of
/// its payload (and stays a NaN), so `narrow_exact(widen_exact(x))` is `x` bit for bit.
pub(crate) fn narrow_exact(value: f64) -> f32 {
    if value.is_nan() {
        let bits = value.to_bits();
        let sign = ((bits >> 63) as u32) << 31;
        let mut mantissa = ((bits >> 29) & 0x007f_ffff) as u32;
        if mantissa == 0 {
            // The payload sat in the low bits only; keep it a NaN.
            mantissa = 0x0040_0000;
        }
        f32::from_bits(sign | 0x7f80_0000 | mantissa)
    } else {
        value as f32
    }
}

/// `value` with a NaN made quiet (its quiet bit set; sign and payload kept).
///
/// Godot's official builds hold `real_t` as `f32`: an f64 read from the wire into one goes
/// through the hardware's conversion, which quiets a signalling NaN (x86-64 `cvtsd2ss`, AArch64
/// `fcvt`). The owned value keeps the f64 (for double-precision writing) with its NaN quieted,
/// so that [`narrow_exact`] gives the `f32` bits the engine holds: sign, quiet bit, the top 22
/// bits of the payload.
pub(crate) fn quiet(value: f64) -> f64 {
    if value.is_nan() { f64::from_bits(value.to_bits() | 0x0008_0000_0000_0000) } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_f32_round_trips_bit_for_bit() {
        for bits in [
            0u32,
            0x8000_0000,
            1,
            0x3f80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7f80_0001,
            0x7fc0_0000,
            0xffc0_1234,
            0x7fbf_ffff,
            0x0080_0000,
            0x7f7f_ffff,
        ] {
            let value = f32::from_bits(bits);
            assert_eq!(narrow_exact(widen_exact(value)).to_bits(), bits, "{bits:#x}");
        }
        assert!(narrow_exact(f64::from_bits(0x7ff0_0000_0000_0001)).is_nan());
        assert_eq!(narrow_exact(0.1), 0.1f32);
    }

    #[test]
    fn quieted_f64_narrows_to_the_bits_godot_4_6_writes() {
        // f64 bits of a 64-bit real_t field, and the f32 bits Godot 4.6 re-encodes
        // (corpus/probes/dict-keys/godot4-identity.jsonl, narrow_*).
        for (wide, single) in [
            (0x7ff0_0000_0000_0001u64, 0x7fc0_0000u32),
            (0x7ff4_0000_0000_0000, 0x7fe0_0000),
            (0xfff0_0000_0000_0001, 0xffc0_0000),
            (0x7ff8_0000_0000_0001, 0x7fc0_0000),
            (0x7ff0_0000_dead_beef, 0x7fc0_0006),
            (0xfff7_ffff_ffff_ffff, 0xffff_ffff),
            (0x7e37_e43c_8800_759c, 0x7f80_0000),
            (0x0000_0000_0000_0001, 0),
        ] {
            let narrowed = narrow_exact(quiet(f64::from_bits(wide)));
            assert_eq!(narrowed.to_bits(), single, "{wide:#x}");
        }
    }
}
