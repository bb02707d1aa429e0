//! The numbers of both JSON forms: integers by `itoa`, finite reals by `ryu`, in the layout the
//! JSON has always had (Rust's `{:?}`: fixed notation from `1e-4` up to below `1e16`, with at
//! least one decimal, `1.0`; `1e16`, `1.5e-7` outside that range). No allocation; a real's
//! digits are at most 17 (9 for an `f32`), so each number is bounded work.
//!
//! A real that is an integer below 2^53 (2^24 for an `f32`) is its integer's digits and `.0`.
//! Otherwise `ryu` prints the same shortest round-trip digits as `{:?}`, and the same text
//! inside the range where both use fixed notation and outside the range where either does; it
//! switches at other points (an `f64` at `1e-5`, an `f32` at `1e-6` and `1e13`). Between those
//! points its text is laid out again from its digits ([`relayout`]). Where the shortest digits
//! are a choice between two equally near candidates, `ryu` and `{:?}` may choose differently,
//! and such a value (one with few exact digits, found by [`tie`]) is printed by `{:?}`. The
//! equality with `{:?}` is checked by this module's tests over the corpora and a generated
//! sweep of values.

use core::fmt::{self, Write};

/// Writes an integer in decimal.
#[inline]
pub(crate) fn write_int<W: Write + ?Sized, I: itoa::Integer>(out: &mut W, value: I) -> fmt::Result {
    out.write_str(itoa::Buffer::new().format(value))
}

/// Writes a finite `f64` as `{:?}` writes it (anything else as `ryu` does: not reached).
#[inline]
pub(crate) fn write_f64<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    // An integer below 2^53 other than zero: its shortest digits are all its digits (its
    // neighbours are at most 1 away), in fixed notation (it is below 1e16), then `.0`.
    let integer = value as i64;
    if integer as f64 == value && integer != 0 && integer.unsigned_abs() < 1 << 53 {
        write_int(out, integer)?;
        return out.write_str(".0");
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(value);
    let bits = value.to_bits();
    let (biased, fraction) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
    let (m, e) = match biased {
        0 => (fraction, -1074),
        _ => (fraction | 1 << 52, i32::try_from(biased).unwrap_or(0).saturating_sub(1075)),
    };
    if tie(m, e, text) {
        return write!(out, "{value:?}");
    }
    let magnitude = value.abs();
    // `{:?}` uses fixed notation exactly for 1e-4 <= |x| < 1e16 (and zero); ryu for digits
    // from 1e-5 up to below 1e16: they differ only below 1e-4.
    if magnitude < 1e-4 && magnitude != 0.0 {
        relayout(out, text, false)
    } else {
        out.write_str(text)
    }
}

/// Writes a finite `f32` as `{:?}` writes it (anything else as `ryu` does: not reached).
#[inline]
pub(crate) fn write_f32<W: Write + ?Sized>(out: &mut W, value: f32) -> fmt::Result {
    // An integer below 2^24 other than zero, as for `f64`.
    let integer = value as i32;
    if integer as f32 == value && integer != 0 && integer.unsigned_abs() < 1 << 24 {
        write_int(out, integer)?;
        return out.write_str(".0");
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(value);
    let bits = value.to_bits();
    let (biased, fraction) = ((bits >> 23) & 0xff, u64::from(bits & ((1 << 23) - 1)));
    let (m, e) = match biased {
        0 => (fraction, -149),
        _ => (fraction | 1 << 23, i32::try_from(biased).unwrap_or(0).saturating_sub(150)),
    };
    if tie(m, e, text) {
        return write!(out, "{value:?}");
    }
    let magnitude = value.abs();
    // `{:?}` uses fixed notation exactly for 1e-4 <= |x| < 1e16 (and zero); ryu for digits
    // from 1e-6 up to below 1e13.
    if magnitude < 1e-4 && magnitude != 0.0 {
        relayout(out, text, false)
    } else if (1e13..1e16).contains(&magnitude) {
        relayout(out, text, true)
    } else {
        out.write_str(text)
    }
}

/// Whether the shortest digits of `m * 2^e` (`m > 0`, ryu's `text`) were a choice between two
/// equally near candidates: the exact value has one significant digit more than `text`, and
/// that digit is 5. ryu then takes the even candidate, `{:?}` may take the other (`1048576.
/// 2543945312` and `...313`), so such values are printed by `{:?}` itself. Only values with at
/// most 18 exact significant digits can tie: `m * 5^k / 10^k` for `k = -e <= 25`, or, for `e
/// >= 0`, an integer that must hold `5^e`, so `e <= 22`.
fn tie(m: u64, e: i32, text: &str) -> bool {
    if m == 0 {
        return false;
    }
    let zeros = m.trailing_zeros();
    let (m, e) = (m >> zeros, e.saturating_add(i32::try_from(zeros).unwrap_or(0)));
    // Fewer than 2^64: at most 18 digits are wanted; a larger value has 19 or more.
    let exact: u64 = if e >= 0 {
        if e > 22 {
            return false;
        }
        let Some(mut n) = m.checked_shl(e.unsigned_abs()).filter(|n| n >> e == m) else {
            return false;
        };
        while n % 10 == 0 {
            n /= 10;
        }
        n
    } else {
        let k = e.unsigned_abs();
        if k > 25 {
            return false;
        }
        // Odd and a multiple of 5: it ends in 5.
        match 5u64.checked_pow(k).and_then(|power| m.checked_mul(power)) {
            Some(n) => n,
            None => return false,
        }
    };
    if exact % 10 != 5 || exact >= 1_000_000_000_000_000_000 {
        return false;
    }
    // The significant digits of `text`: leading and trailing zeros left out.
    let mantissa = text.split('e').next().unwrap_or(text);
    let mut digits = 0u32;
    let mut significant = 0u32;
    for byte in mantissa.bytes().filter(u8::is_ascii_digit) {
        if byte != b'0' || digits > 0 {
            digits = digits.saturating_add(1);
            if byte != b'0' {
                significant = digits;
            }
        }
    }
    let shorter = 10u64.saturating_pow(significant);
    (shorter..shorter.saturating_mul(10)).contains(&exact)
}

/// Writes ryu's `text` of a finite non-zero real in fixed notation (`fixed`: `12340000000.0`,
/// for a value of at least 1) or in exponent notation (`1.234e-5`), whichever `text` is in.
/// The digits and their decimal exponent are read from `text`, in either of ryu's layouts.
fn relayout<W: Write + ?Sized>(out: &mut W, text: &str, fixed: bool) -> fmt::Result {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.split_once('e') {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i32>().map_err(|_| fmt::Error)?),
        None => (unsigned, 0),
    };
    // The significant digits, and the decimal exponent of the first: value = d.ddd * 10^point.
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits = [0u8; 40];
    let mut len = 0usize;
    let mut point =
        exponent.saturating_add(i32::try_from(int.len()).unwrap_or(0)).saturating_sub(1);
    for &byte in int.as_bytes().iter().chain(frac.as_bytes()) {
        if len == 0 && byte == b'0' {
            point = point.saturating_sub(1);
            continue;
        }
        let slot = digits.get_mut(len).ok_or(fmt::Error)?;
        *slot = byte;
        len = len.saturating_add(1);
    }
    // Trailing zeros (ryu's `.0`, or the zeros of a fixed integer) are not significant.
    while len > 1 && digits.get(len.saturating_sub(1)) == Some(&b'0') {
        len = len.saturating_sub(1);
    }
    let digits = digits.get(..len).ok_or(fmt::Error)?;
    let digits = core::str::from_utf8(digits).map_err(|_| fmt::Error)?;
    if negative {
        out.write_char('-')?;
    }
    if fixed {
        // An integer of `point + 1` digits (at most 16; the digits are at most 9).
        out.write_str(digits)?;
        let width = usize::try_from(point.saturating_add(1)).unwrap_or(0);
        for _ in digits.len()..width {
            out.write_char('0')?;
        }
        return out.write_str(".0");
    }
    let (first, rest) = digits.split_at(digits.len().min(1));
    out.write_str(first)?;
    if !rest.is_empty() {
        out.write_char('.')?;
        out.write_str(rest)?;
    }
    out.write_char('e')?;
    write_int(out, point)
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;

    use super::*;
    use crate::wire::sweep;

    fn f64_text(value: f64) -> String {
        let mut out = String::new();
        write_f64(&mut out, value).unwrap();
        out
    }

    fn f32_text(value: f32) -> String {
        let mut out = String::new();
        write_f32(&mut out, value).unwrap();
        out
    }

    #[test]
    fn the_layouts_of_debug_at_each_switch() {
        for value in [0.0, -0.0, 1.0, 0.1, 1e-4, 9.9e-5, 1e-5, 1.5e-5, 1e-6, 1e-7, 1e15, 1e16, 1e17]
        {
            assert_eq!(f64_text(value), format!("{value:?}"));
            assert_eq!(f64_text(-value), format!("{:?}", -value));
        }
        for value in [1e-4f32, 9.9e-5, 1e-5, 1.5e-6, 1e-6, 1e-7, 1e12, 1e13, 1.5e14, 1e15, 1e16] {
            assert_eq!(f32_text(value), format!("{value:?}"));
            assert_eq!(f32_text(-value), format!("{:?}", -value));
        }
        assert_eq!(f64_text(1.5e-5), "1.5e-5");
        assert_eq!(f32_text(1.5e14), "150000000000000.0");
        assert_eq!(f64_text(-3.0), "-3.0");
        assert_eq!(f32_text(16_777_216.0), "16777216.0");
    }

    /// The old formatter, `{:?}`, is the oracle: every finite real of the corpora and of the
    /// sweep prints the same.
    // Over a million values and every corpus file: hours under Miri, which runs the `json::`
    // unit tests for the byte order of the reads; the formatting is arithmetic only.
    #[test]
    #[cfg_attr(miri, ignore = "a sweep of a million values; the plain test command runs it")]
    fn ryu_and_itoa_print_what_debug_printed() {
        let mut checked = 0usize;
        let corpus = sweep::corpus_f64().into_iter().map(f64::from_bits);
        for value in corpus.chain(sweep::generated_f64()).filter(|v| v.is_finite()) {
            assert_eq!(f64_text(value), format!("{value:?}"), "{:016x}", value.to_bits());
            checked += 1;
        }
        let corpus = sweep::corpus_f32().into_iter().map(f32::from_bits);
        for value in corpus.chain(sweep::generated_f32()).filter(|v| v.is_finite()) {
            assert_eq!(f32_text(value), format!("{value:?}"), "{:08x}", value.to_bits());
            checked += 1;
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    #[test]
    #[cfg_attr(miri, ignore = "a sweep of 100,000 values; the plain test command runs it")]
    fn integers_print_as_display_did() {
        let mut bits = sweep::Bits(7);
        for _ in 0..100_000 {
            let value = bits.next() as i64 >> (bits.next() % 64);
            let mut out = String::new();
            write_int(&mut out, value).unwrap();
            assert_eq!(out, format!("{value}"));
        }
        for value in [0, -1, i64::MIN, i64::MAX] {
            let mut out = String::new();
            write_int(&mut out, value).unwrap();
            assert_eq!(out, format!("{value}"));
        }
    }
}
