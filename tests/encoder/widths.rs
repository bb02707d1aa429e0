//! Width rules: `int` and `float` at the boundaries of 32 and 64 bits, math components.

use super::*;

/// The header and payload Godot writes for an `int` or `float`.
fn scalar(type_id: u8, wide: bool, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![type_id, 0, u8::from(wide), 0];
    out.extend_from_slice(payload);
    out
}

#[test]
fn ints_take_64_bits_exactly_outside_i32() {
    let cases: [(i64, bool); 10] = [
        (0, false),
        (-1, false),
        (i32::MAX.into(), false),
        (i32::MIN.into(), false),
        (i64::from(i32::MAX) - 1, false),
        (i64::from(i32::MIN) + 1, false),
        (i64::from(i32::MAX) + 1, true),
        (i64::from(i32::MIN) - 1, true),
        (i64::MAX, true),
        (i64::MIN, true),
    ];
    for version in VERSIONS {
        for (value, wide) in cases {
            let bytes = write(EncodeOptions::new(version), |w| w.int(value));
            let payload = if wide {
                value.to_le_bytes().to_vec()
            } else {
                (value as i32).to_le_bytes().to_vec()
            };
            assert_eq!(bytes, scalar(2, wide, &payload), "{value}");
            let back = gdvariant::decode(&bytes, Options::new(version)).unwrap();
            assert_eq!(back, Variant::Int(value));
        }
    }
}

#[test]
fn floats_take_64_bits_exactly_when_f32_is_not_exact() {
    let narrow: [f64; 12] = [
        0.0,
        -0.0,
        0.5,
        -1.5,
        16_777_216.0,
        f32::MAX as f64,
        f32::MIN as f64,
        f32::MIN_POSITIVE as f64,
        f64::from(f32::from_bits(1)), // the smallest f32 subnormal
        f64::from(f32::from_bits(0x807F_FFFF)),
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let wide: [u64; 12] = [
        0.1f64.to_bits(),
        16_777_217.0f64.to_bits(),
        (f32::MAX as f64).to_bits() + 1,
        f64::MAX.to_bits(),
        1,                     // the smallest f64 subnormal
        0x36A0_0000_0000_0001, // just above the smallest f32 subnormal
        0x7FF8_0000_0000_0000, // NaN, even though f32 has it
        0xFFF8_0000_0000_0000, // -NaN
        0x7FF0_0000_0000_0001, // a signalling NaN
        0x7FF8_DEAD_BEEF_0001, // a payload f32 cannot hold
        0xFFFF_FFFF_FFFF_FFFF, // every bit set
        0x7FF8_0000_2000_0000, // an f32 NaN's payload, widened
    ];
    for version in VERSIONS {
        for value in narrow {
            let bytes = write(EncodeOptions::new(version), |w| w.float(value));
            assert_eq!(bytes, scalar(3, false, &(value as f32).to_le_bytes()), "{value}");
            let back = gdvariant::decode(&bytes, Options::new(version)).unwrap();
            assert_eq!(back.as_float().unwrap().to_bits(), value.to_bits(), "{value}");
        }
        for bits in wide {
            let bytes = write(EncodeOptions::new(version), |w| w.float(f64::from_bits(bits)));
            assert_eq!(bytes, scalar(3, true, &bits.to_le_bytes()), "{bits:#x}");
            let back = gdvariant::decode(&bytes, Options::new(version)).unwrap();
            assert_eq!(back.as_float().unwrap().to_bits(), bits, "{bits:#x}");
        }
    }
}

#[test]
fn math_components_narrow_to_the_nearest_f32_keeping_nans() {
    let cases: [(f64, u32); 6] = [
        (0.1, 0.1f32.to_bits()),
        (-0.0, 0x8000_0000),
        (f64::MAX, 0x7F80_0000), // rounds to infinity
        (f64::from_bits(0x7FF0_0000_0000_0001), 0x7FC0_0000), // low payload: still a NaN
        (f64::from_bits(0xFFF4_0000_0000_0000), 0xFFA0_0000), // signalling, sign kept
        (f64::from_bits(1), 0),  // underflows to zero
    ];
    for (value, bits) in cases {
        let bytes = write(EncodeOptions::godot4(), |w| w.vector2(Vector2 { x: value, y: 0.0 }));
        assert_eq!(bytes[4..8], bits.to_le_bytes(), "{value}");
    }
}
