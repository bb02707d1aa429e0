//! Numbers as Godot 4.6's `String` constructors print them (`itos`, `String::num`,
//! `String::num_real`), for the text of values converted into a `PackedStringArray`.
//!
//! `String::num(x, decimals)` prints with `printf("%.<decimals>lf")` (exact decimal expansion,
//! ties to even), then removes trailing zeros, keeping one after the point. `num_real` prints
//! an integral value as an integer (plus `.0` when asked), anything else with 14 decimals
//! (6 for an `f32`) less the value's decimal magnitude above 10. That magnitude is
//! `floor(log10(x))` as the engine's `log10` / `log10f` round it: a value a few units in the
//! last place below a power of ten has the next power's magnitude, as a correctly rounded
//! logarithm gives. O(digits) each.

use alloc::string::String;
use core::fmt::Write;

/// Godot's `MAX_DECIMALS`.
const MAX_DECIMALS: i32 = 32;

/// `itos`: an int in decimal, at the end of `out`.
pub(super) fn itos(out: &mut String, value: i64) {
    let _ = write!(out, "{value}");
}

/// `String::num(x, decimals)`, at the end of `out`: `nan`, `inf`, `-inf`; else `decimals`
/// places (a negative count asks for 14 less the magnitude, and past that for
/// `printf("%lf")`'s six), trailing zeros removed down to one after the point.
pub(super) fn num(out: &mut String, value: f64, decimals: i32) {
    if value.is_nan() {
        out.push_str("nan");
        return;
    }
    if value.is_infinite() {
        out.push_str(if value < 0.0 { "-inf" } else { "inf" });
        return;
    }
    let mut decimals = decimals;
    if decimals < 0 {
        decimals = 14;
        let magnitude = value.abs();
        if magnitude > 10.0 {
            decimals = decimals.saturating_sub(floor_log10(magnitude));
        }
    }
    let places = if decimals < 0 { 6 } else { decimals.min(MAX_DECIMALS) };
    let start = out.len();
    let _ = write!(out, "{value:.*}", places as usize);
    if out.get(start..).is_some_and(|text| text.contains('.')) {
        let kept = out.trim_end_matches('0').len();
        out.truncate(kept);
        if out.ends_with('.') {
            out.push('0');
        }
    }
}

/// `String::num_real(double, trailing)`, at the end of `out`: an integral value as an integer
/// (saturated to the `i64` range, as the engine's conversion does) with `.0` when `trailing`;
/// else [`num`] with 14 decimals less the magnitude above 10.
pub(super) fn num_real(out: &mut String, value: f64, trailing: bool) {
    if !value.is_finite() {
        return num(out, value, 0);
    }
    let integer = value as i64;
    if integer as f64 == value {
        return integral(out, integer, trailing);
    }
    let magnitude = value.abs();
    let mut decimals = 14i32;
    if magnitude > 10.0 {
        decimals = decimals.saturating_sub(floor_log10(magnitude));
    }
    num(out, value, decimals)
}

/// `String::num_real(float, trailing)`, what a single-precision build prints for the reals of
/// vectors, quaternions and planes, at the end of `out`: as [`num_real`], with 6 decimals less
/// the magnitude (taken by `log10f`).
pub(super) fn num_real_f32(out: &mut String, value: f32, trailing: bool) {
    if !value.is_finite() {
        return num(out, f64::from(value), 0);
    }
    let integer = value as i64;
    if integer as f32 == value {
        return integral(out, integer, trailing);
    }
    let magnitude = value.abs();
    let mut decimals = 6i32;
    if magnitude > 10.0 {
        decimals = decimals.saturating_sub(floor_log10_f32(magnitude));
    }
    num(out, f64::from(value), decimals)
}

/// An integer, with `.0` when `trailing`.
fn integral(out: &mut String, value: i64, trailing: bool) {
    itos(out, value);
    if trailing {
        out.push_str(".0");
    }
}

/// `10^k` for `k` in `0..=22`, all exact.
const POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `ln(10)`.
const LN_10: f64 = core::f64::consts::LN_10;

/// `floor(log10(x))` for a finite `x > 10`, as `floor` of the correctly rounded `f64`
/// logarithm: the exact magnitude, or the next one when `x` is so close below a power of ten
/// that its logarithm rounds up to it (checked against the engine on the few values this close
/// below 100, 10^4, 10^5 and 10^14).
fn floor_log10(x: f64) -> i32 {
    let exact = exact_floor_log10(x);
    let next = exact.saturating_add(1);
    match usize::try_from(next).ok().and_then(|k| POWERS.get(k)) {
        // `log10(x) = next + log10(1 - d)`, `d` the relative distance below the power: it
        // rounds to `next` when `d / ln 10` is under half the gap between `next` and the double
        // just below it.
        Some(&power) => {
            let below = (power - x) / power;
            let next_real = f64::from(next);
            let half_gap =
                (next_real - f64::from_bits(next_real.to_bits().saturating_sub(1))) / 2.0;
            if below / LN_10 < half_gap { next } else { exact }
        }
        None => exact,
    }
}

/// `floor(log10f(x))` for a finite `x > 10`, as [`floor_log10`] with the gaps between `f32`
/// logarithms (checked against the engine on the floats just below 10^2 to 10^7).
fn floor_log10_f32(x: f32) -> i32 {
    let x = f64::from(x);
    let exact = exact_floor_log10(x);
    let next = exact.saturating_add(1);
    match usize::try_from(next).ok().and_then(|k| POWERS.get(k)) {
        Some(&power) => {
            let below = (power - x) / power;
            let next_real = next as f32;
            let previous = f32::from_bits(next_real.to_bits().saturating_sub(1));
            let half_gap = f64::from(next_real - previous) / 2.0;
            if below / LN_10 < half_gap { next } else { exact }
        }
        None => exact,
    }
}

/// The exact `floor(log10(x))` of a finite `x >= 1`, by comparison with powers of ten (past
/// `1e22`, whose powers are not exact, by dividing down first).
fn exact_floor_log10(x: f64) -> i32 {
    let mut x = x;
    let mut k = 0i32;
    while x >= 1e22 {
        x /= 1e22;
        k = k.saturating_add(22);
    }
    let below = POWERS.iter().take_while(|&&power| power <= x).count();
    k.saturating_add(i32::try_from(below).unwrap_or(1).saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(value: f64, decimals: i32) -> String {
        let mut out = String::from("x");
        super::num(&mut out, value, decimals);
        String::from(out.get(1..).unwrap_or(""))
    }

    fn num_real(value: f64, trailing: bool) -> String {
        let mut out = String::new();
        super::num_real(&mut out, value, trailing);
        out
    }

    fn num_real_f32(value: f32, trailing: bool) -> String {
        let mut out = String::new();
        super::num_real_f32(&mut out, value, trailing);
        out
    }

    #[test]
    fn num_removes_trailing_zeros_but_one() {
        assert_eq!(num(1.0, 4), "1.0");
        assert_eq!(num(0.25, 4), "0.25");
        assert_eq!(num(2.7, 0), "3");
        assert_eq!(num(-0.0, 4), "-0.0");
        assert_eq!(num(f64::NAN, 4), "nan");
        assert_eq!(num(f64::NEG_INFINITY, 4), "-inf");
    }

    #[test]
    fn num_real_as_the_probes_print() {
        assert_eq!(num_real(-2.7, true), "-2.7");
        assert_eq!(num_real(300.7, true), "300.7");
        assert_eq!(num_real(-0.0, true), "0.0");
        assert_eq!(num_real(1e20, true), "100000000000000000000.0");
        // 2^63 as a literal: `powi` is not exact everywhere (Miri, for one, perturbs it).
        assert_eq!(num_real(9_223_372_036_854_775_808.0, true), "9223372036854775807.0");
        assert_eq!(num_real_f32(1e10, true), "10000000000.0");
        assert_eq!(num_real_f32(-2.7, true), "-2.7");
        assert_eq!(num_real_f32(0.6, false), "0.6");
        assert_eq!(num_real_f32(2.0, false), "2");
    }

    #[test]
    fn magnitudes() {
        assert_eq!(exact_floor_log10(10.5), 1);
        assert_eq!(exact_floor_log10(99.99), 1);
        assert_eq!(exact_floor_log10(100.0), 2);
        assert_eq!(exact_floor_log10(1e300), 300);
        // The largest double below 100: its logarithm rounds to 2.
        assert_eq!(floor_log10(f64::from_bits(100f64.to_bits() - 1)), 2);
        assert_eq!(floor_log10(99.9), 1);
        // The largest float below 100 (99.99999237): log10f rounds to 2.
        assert_eq!(floor_log10_f32(f32::from_bits(100f32.to_bits() - 1)), 2);
        assert_eq!(floor_log10_f32(99.99), 1);
    }
}
