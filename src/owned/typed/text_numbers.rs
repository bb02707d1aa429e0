//! `String::to_int` and `String::to_float` as Godot 4.6 runs them, for strings converted into
//! packed arrays of numbers. Both are lax: they read what they can and never fail. O(length),
//! no allocation.

use crate::wire::work;

/// `String::to_int()`: the digits before the first `.`, wherever they are (every other
/// character is skipped), a `-` seen while the value is still 0 flipping the sign; past the
/// `i64` range, `i64::MAX` or `i64::MIN` (Godot logs an error).
pub(super) fn to_int(text: &str) -> i64 {
    work::add(text.len() / 64);
    let before_point = text.split('.').next().unwrap_or("");
    let mut integer = 0u64;
    let mut digits = 0u32;
    let mut positive = true;
    for c in before_point.chars() {
        if let Some(digit) = c.to_digit(10) {
            if digits > 18 {
                let max = i64::MAX as u64;
                let overflow = integer > max / 10
                    || (integer == max / 10
                        && ((positive && digit > 7) || (!positive && digit > 8)));
                if overflow {
                    return if positive { i64::MAX } else { i64::MIN };
                }
            }
            integer = integer.wrapping_mul(10).wrapping_add(u64::from(digit));
            digits = digits.saturating_add(1);
        } else if integer == 0 && c == '-' {
            positive = !positive;
        }
    }
    if positive { integer as i64 } else { integer.wrapping_neg() as i64 }
}

/// `String::to_float()` (Godot's `built_in_strtod`, not correctly rounded): optional blanks,
/// a sign, up to 18 significant digits with an optional point, an optional exponent; the
/// exponent is clamped to 511 and applied with a table of `10^(2^i)`. Anything after the number
/// is ignored; no number gives 0 (`-0.0` after a `-`). An `e` without digits after it ends the
/// number before any scaling, so the point is ignored too (`"1.5e"` is 15), as in the engine.
/// The exponent is read in the engine's wrapping 32-bit arithmetic (`"1e4294967296"` is 1).
pub(super) fn to_float(text: &str) -> f64 {
    work::add(text.len() / 64);
    let chars: &[u8] = text.as_bytes();
    let at = |i: usize| chars.get(i).copied().unwrap_or(0);
    let mut p = 0usize;
    while matches!(at(p), b' ' | b'\t' | b'\n') {
        p = p.saturating_add(1);
    }
    let negative = at(p) == b'-';
    if negative || at(p) == b'+' {
        p = p.saturating_add(1);
    }
    // The mantissa: digits with at most one point.
    let mut point: Option<usize> = None;
    let mut size = 0usize;
    loop {
        let c = at(p.saturating_add(size));
        if !c.is_ascii_digit() {
            if c != b'.' || point.is_some() {
                break;
            }
            point = Some(size);
        }
        size = size.saturating_add(1);
    }
    let exponent_at = p.saturating_add(size);
    let decimal_point = match point {
        Some(at_point) => {
            size = size.saturating_sub(1);
            at_point
        }
        None => size,
    };
    let mut fraction_exponent;
    if size > 18 {
        fraction_exponent = (decimal_point as i64).saturating_sub(18);
        size = 18;
    } else {
        fraction_exponent = (decimal_point as i64).saturating_sub(size as i64);
    }
    if size == 0 {
        return if negative { -0.0 } else { 0.0 };
    }
    let mut digits = chars.get(p..).unwrap_or(&[]).iter().filter(|c| **c != b'.');
    let mut next_digit = || i32::from(digits.next().copied().unwrap_or(b'0').wrapping_sub(b'0'));
    let mut high = 0i32;
    while size > 9 {
        high = high.wrapping_mul(10).wrapping_add(next_digit());
        size = size.saturating_sub(1);
    }
    let mut low = 0i32;
    while size > 0 {
        low = low.wrapping_mul(10).wrapping_add(next_digit());
        size = size.saturating_sub(1);
    }
    let mut fraction = 1.0e9 * f64::from(high) + f64::from(low);
    // The exponent, in the engine's 32-bit arithmetic.
    let mut exponent = 0i32;
    let mut exponent_negative = false;
    let mut q = exponent_at;
    if matches!(at(q), b'E' | b'e') {
        q = q.saturating_add(1);
        if at(q) == b'-' {
            exponent_negative = true;
            q = q.saturating_add(1);
        } else if at(q) == b'+' {
            q = q.saturating_add(1);
        }
        if !at(q).is_ascii_digit() {
            // The engine jumps to its end here, past the scaling: the point is ignored too
            // ("1.5e" reads as 15).
            return if negative { -fraction } else { fraction };
        }
        while at(q).is_ascii_digit() {
            exponent = exponent.wrapping_mul(10).wrapping_add(i32::from(at(q).wrapping_sub(b'0')));
            q = q.saturating_add(1);
        }
    }
    fraction_exponent = fraction_exponent.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
    let fraction_exponent = fraction_exponent as i32;
    let mut exponent = if exponent_negative {
        fraction_exponent.wrapping_sub(exponent)
    } else {
        fraction_exponent.wrapping_add(exponent)
    };
    let divide = exponent < 0;
    if divide {
        exponent = exponent.wrapping_neg();
    }
    // An exponent that wrapped to `i32::MIN` stays negative once negated; the engine's build
    // takes it as past the limit (it warns "Exponent too high") and divides by its largest power.
    if !(0..=511).contains(&exponent) {
        exponent = 511;
    }
    let mut scale = 1.0f64;
    for power in POWERS_OF_TWO_OF_TEN {
        if exponent == 0 {
            break;
        }
        if exponent & 1 != 0 {
            scale *= power;
        }
        exponent >>= 1;
    }
    if divide {
        fraction /= scale;
    } else {
        fraction *= scale;
    }
    if negative { -fraction } else { fraction }
}

/// `10^(2^i)`, the engine's table.
const POWERS_OF_TWO_OF_TEN: [f64; 9] =
    [10., 100., 1.0e4, 1.0e8, 1.0e16, 1.0e32, 1.0e64, 1.0e128, 1.0e256];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_int_as_the_probes_measured() {
        for (text, value) in [
            ("12abc", 12),
            ("0x1F", 1),
            ("ff8000", 8000),
            ("#ff000080", 80),
            ("1e3", 13),
            (" 12", 12),
            ("-3.7", -3),
            ("true", 0),
            ("99999999999999999999", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("--5", 5),
        ] {
            assert_eq!(to_int(text), value, "{text}");
        }
    }

    #[test]
    fn to_float_as_the_probes_measured() {
        for (text, value) in [
            ("12abc", 12.0),
            ("1e3", 1000.0),
            ("-3.7", -3.7),
            ("0x1F", 0.0),
            ("ff8000", 0.0),
            ("true", 0.0),
            ("99999999999999999999", 1e20),
            ("1.5", 1.5),
            (" 12", 12.0),
        ] {
            assert_eq!(to_float(text), value, "{text}");
        }
        assert_eq!(to_float("1.5e"), 15.0);
        assert_eq!(to_float("-x").to_bits(), (-0.0f64).to_bits());
        assert_eq!(to_float("-1e-2147483648").to_bits(), (-0.0f64).to_bits());
        assert_eq!(to_float("-123.5e2147483648"), f64::NEG_INFINITY);
        assert_eq!(to_float("1e-4294967295"), 10.0);
    }
}
