//! Godot's constructors between numbers, vectors and transforms, as the decoder runs them when a
//! typed container converts an element. Reals are `f32` (`real_t` of the official,
//! single-precision builds) and every operation is the engine's, in its order, so results match
//! bit for bit. No allocation; O(1) each.

use crate::view::math::{
    Basis, Projection, Quaternion, Transform2D, Transform3D, Vector2, Vector3, Vector4,
};

/// `bool(int)`: true unless zero.
pub(crate) fn bool_from_int(value: i64) -> bool {
    value != 0
}

/// `bool(float)`: true unless `0.0` or `-0.0` (a NaN is true).
pub(crate) fn bool_from_float(value: f64) -> bool {
    value != 0.0
}

/// `int(float)`: truncation toward zero, saturating at the `i64` range, NaN to 0 (what the
/// engine's saturating conversion gives; the README's probes pin it down).
pub(crate) fn int_from_float(value: f64) -> i64 {
    value as i64
}

/// `float(int)`: rounded to nearest, ties to even.
pub(crate) fn float_from_int(value: i64) -> f64 {
    value as f64
}

/// An integer vector component from a real one: truncation, saturating at the `i32` range, NaN
/// to 0.
pub(crate) fn i32_from_real(value: f32) -> i32 {
    value as i32
}

/// A real vector component from an integer one: rounded to nearest, ties to even.
pub(crate) fn real_from_i32(value: i32) -> f32 {
    value as f32
}

/// `Transform2D(Transform3D)`: the upper-left 2x2 of the basis (as columns) and the origin's x
/// and y.
pub(crate) fn transform2d_from_3d(t: Transform3D<f32>) -> Transform2D<f32> {
    let [r0, r1, _] = t.basis.rows;
    Transform2D {
        x: Vector2 { x: r0.x, y: r1.x },
        y: Vector2 { x: r0.y, y: r1.y },
        origin: Vector2 { x: t.origin.x, y: t.origin.y },
    }
}

/// `Transform3D(Transform2D)`: the 2D axes as the basis's first two columns, z kept as the
/// identity's, the origin's z 0.
pub(crate) fn transform3d_from_2d(t: Transform2D<f32>) -> Transform3D<f32> {
    Transform3D {
        basis: Basis {
            rows: [
                Vector3 { x: t.x.x, y: t.y.x, z: 0.0 },
                Vector3 { x: t.x.y, y: t.y.y, z: 0.0 },
                Vector3 { x: 0.0, y: 0.0, z: 1.0 },
            ],
        },
        origin: Vector3 { x: t.origin.x, y: t.origin.y, z: 0.0 },
    }
}

/// `Transform3D(Basis)`: the basis, origin zero.
pub(crate) fn transform3d_from_basis(basis: Basis<f32>) -> Transform3D<f32> {
    Transform3D { basis, origin: Vector3 { x: 0.0, y: 0.0, z: 0.0 } }
}

/// `Basis(Quaternion)` (`Basis::set_quaternion`): the rotation matrix, scaled by `2 / |q|²`
/// (a quaternion that is not unit length is not normalised first).
pub(crate) fn basis_from_quaternion(q: Quaternion<f32>) -> Basis<f32> {
    let d = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    let s = 2.0f32 / d;
    let (xs, ys, zs) = (q.x * s, q.y * s, q.z * s);
    let (wx, wy, wz) = (q.w * xs, q.w * ys, q.w * zs);
    let (xx, xy, xz) = (q.x * xs, q.x * ys, q.x * zs);
    let (yy, yz, zz) = (q.y * ys, q.y * zs, q.z * zs);
    Basis {
        rows: [
            Vector3 { x: 1.0 - (yy + zz), y: xy - wz, z: xz + wy },
            Vector3 { x: xy + wz, y: 1.0 - (xx + zz), z: yz - wx },
            Vector3 { x: xz - wy, y: yz + wx, z: 1.0 - (xx + yy) },
        ],
    }
}

/// `Quaternion(Basis)` (`Basis::get_quaternion`, release builds: the basis is not checked to be
/// a rotation).
pub(crate) fn quaternion_from_basis(b: Basis<f32>) -> Quaternion<f32> {
    let rows = b.rows.map(|r| [r.x, r.y, r.z]);
    let m = |row: usize, column: usize| -> f32 {
        rows.get(row).and_then(|r| r.get(column)).copied().unwrap_or(0.0)
    };
    let trace = m(0, 0) + m(1, 1) + m(2, 2);
    if trace > 0.0 {
        let s = sqrt(trace + 1.0);
        let w = s * 0.5;
        let s = 0.5 / s;
        return Quaternion {
            x: (m(2, 1) - m(1, 2)) * s,
            y: (m(0, 2) - m(2, 0)) * s,
            z: (m(1, 0) - m(0, 1)) * s,
            w,
        };
    }
    // The largest diagonal element `i`, then the two after it, cyclically.
    let (i, j, k) = if m(0, 0) < m(1, 1) {
        if m(1, 1) < m(2, 2) { (2, 0, 1) } else { (1, 2, 0) }
    } else if m(0, 0) < m(2, 2) {
        (2, 0, 1)
    } else {
        (0, 1, 2)
    };
    let s = sqrt(m(i, i) - m(j, j) - m(k, k) + 1.0);
    let mut temp = [0.0f32; 3];
    let mut put = |index: usize, value: f32| {
        if let Some(slot) = temp.get_mut(index) {
            *slot = value;
        }
    };
    put(i, s * 0.5);
    let s = 0.5 / s;
    let w = (m(k, j) - m(j, k)) * s;
    put(j, (m(j, i) + m(i, j)) * s);
    put(k, (m(k, i) + m(i, k)) * s);
    let [x, y, z] = temp;
    Quaternion { x, y, z, w }
}

/// The correctly rounded square root of `x` (IEEE 754, as the engine's `sqrtf` and the hardware
/// give it; written out because `core` has none): a NaN comes back quiet, a negative number
/// gives the default NaN.
fn sqrt(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x == 0.0 || x == f32::INFINITY {
        return x;
    }
    if x < 0.0 {
        return f32::from_bits(0xffc0_0000);
    }
    // x = mantissa * 2^exponent, the mantissa a 24-bit integer (subnormals scaled up).
    let bits = x.to_bits();
    let field = (bits >> 23) & 0xff;
    let (mut mantissa, mut exponent) = if field == 0 {
        (u64::from(bits & 0x007f_ffff), -149i32)
    } else {
        (u64::from((bits & 0x007f_ffff) | 0x0080_0000), (field as i32).wrapping_sub(150))
    };
    // A subnormal's mantissa is shifted up to 24 bits.
    while mantissa < 0x0080_0000 {
        mantissa <<= 1;
        exponent = exponent.wrapping_sub(1);
    }
    if exponent % 2 != 0 {
        mantissa <<= 1;
        exponent = exponent.wrapping_sub(1);
    }
    // sqrt(mantissa * 2^28) has at least 26 bits; the remainder says whether it is exact.
    let scaled = mantissa << 28;
    let root = scaled.isqrt();
    let sticky = u64::from(root.wrapping_mul(root) != scaled);
    // The root with a sticky bit, then scaled back: exact in f64, rounded once to f32.
    let value = ((root << 1) | sticky) as f64;
    let scale = f64::from_bits((exponent.wrapping_div(2).wrapping_add(1023 - 15) as u64) << 52);
    (value * scale) as f32
}

/// `Projection(Transform3D)`: the basis columns and the origin as the four columns, the last row
/// `(0, 0, 0, 1)`.
pub(crate) fn projection_from_transform3d(t: Transform3D<f32>) -> Projection<f32> {
    let [r0, r1, r2] = t.basis.rows;
    Projection {
        columns: [
            Vector4 { x: r0.x, y: r1.x, z: r2.x, w: 0.0 },
            Vector4 { x: r0.y, y: r1.y, z: r2.y, w: 0.0 },
            Vector4 { x: r0.z, y: r1.z, z: r2.z, w: 0.0 },
            Vector4 { x: t.origin.x, y: t.origin.y, z: t.origin.z, w: 1.0 },
        ],
    }
}

/// `Transform3D(Projection)`: the first three columns' x, y, z as the basis columns, the fourth
/// as the origin (the last row is dropped).
pub(crate) fn transform3d_from_projection(p: Projection<f32>) -> Transform3D<f32> {
    let [c0, c1, c2, c3] = p.columns;
    Transform3D {
        basis: Basis {
            rows: [
                Vector3 { x: c0.x, y: c1.x, z: c2.x },
                Vector3 { x: c0.y, y: c1.y, z: c2.y },
                Vector3 { x: c0.z, y: c1.z, z: c2.z },
            ],
        },
        origin: Vector3 { x: c3.x, y: c3.y, z: c3.z },
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn sqrt_is_correctly_rounded() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let check = |bits: u32| {
            let x = f32::from_bits(bits);
            let expected = std::primitive::f32::sqrt(x);
            let ours = sqrt(x);
            assert!(
                ours.to_bits() == expected.to_bits() || (ours.is_nan() && expected.is_nan()),
                "sqrt({x:e} = {bits:#x}): {ours:e} vs {expected:e}"
            );
        };
        for bits in [
            0,
            0x8000_0000,
            1,
            2,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0x4000_0000,
            0x7f7f_ffff,
            0x7f80_0000,
        ] {
            check(bits);
        }
        // A thousand under Miri, where a million take hours.
        for _ in 0..if cfg!(miri) { 1_000 } else { 1_000_000 } {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            check((state >> 33) as u32 & 0x7fff_ffff);
        }
    }
}
