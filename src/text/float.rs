//! Numbers as Godot's text writer prints them.
//!
//! * Godot 4 (`rtos_fix` then `String::num_scientific`): `0` for both zeros, `inf`, `inf_neg`,
//!   `nan`; otherwise the Grisu2 digits of the value, computed in single precision when the value
//!   is exactly a 32-bit float (so an f32 `0.1` prints as `0.1`, not `0.10000000149011612`), in
//!   double precision otherwise; fixed notation for decimal exponents from -4 to 15, else
//!   `d.ddde+XX` with at least two exponent digits.
//! * Godot 3 (`rtosfix` then `printf("%lg")`): the value narrowed to a 32-bit float (Godot 3
//!   stores reals as `float`), six significant digits, trailing zeros removed; `0`, `inf`,
//!   `-inf`, `nan`, and `-nan` for a NaN with its sign bit set (whatever its payload).
//!   The six digits are the value rounded by exact integer arithmetic (`six_digits`), the
//!   digits `%.5e` gives, which it still gives below about `1e-26` and for subnormals.
//!
//! Grisu2 is not always the shortest representation (Ryu and Rust's `{}` are), so it is
//! implemented here as the engine runs it: the same cached powers of ten (computed from exact
//! powers of ten, rounded to 64 bits), the same digit generation and rounding step. Everything is
//! integer arithmetic on the stack; nothing allocates.

use core::fmt::{self, Write};

/// `f * 2^e`.
#[derive(Clone, Copy)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    /// `x * y`, rounded to the upper 64 bits (ties up).
    fn mul(self, other: DiyFp) -> DiyFp {
        let product = u128::from(self.f).wrapping_mul(u128::from(other.f));
        let high = (product >> 64) as u64;
        let round = ((product >> 63) & 1) as u64;
        DiyFp { f: high.wrapping_add(round), e: self.e.wrapping_add(other.e).wrapping_add(64) }
    }

    /// Shifts the significand left until its top bit is set. `f` must not be zero.
    fn normalize(self) -> DiyFp {
        let shift = self.f.leading_zeros();
        DiyFp { f: self.f.wrapping_shl(shift), e: self.e.wrapping_sub(shift as i32) }
    }

    /// The same value with exponent `e` (the upper bits of `f` must be free).
    fn normalize_to(self, e: i32) -> DiyFp {
        let delta = self.e.wrapping_sub(e);
        DiyFp { f: self.f.wrapping_shl(delta as u32), e }
    }
}

/// The value, and its lower and upper rounding boundaries, as normalized [`DiyFp`]s sharing the
/// upper boundary's exponent. `bits` is the IEEE-754 pattern of a finite positive value with
/// `precision` significand bits (hidden bit included) and exponent `bias`.
fn boundaries(bits: u64, precision: u32, bias: i32) -> (DiyFp, DiyFp, DiyFp) {
    let hidden = 1u64.wrapping_shl(precision.wrapping_sub(1));
    let biased = bits.wrapping_shr(precision.wrapping_sub(1));
    let fraction = bits & hidden.wrapping_sub(1);
    let min_exp = 1i32.wrapping_sub(bias);
    let v = if biased == 0 {
        DiyFp { f: fraction, e: min_exp }
    } else {
        DiyFp { f: fraction.wrapping_add(hidden), e: (biased as i32).wrapping_sub(bias) }
    };
    let lower_closer = fraction == 0 && biased > 1;
    let plus = DiyFp { f: v.f.wrapping_mul(2).wrapping_add(1), e: v.e.wrapping_sub(1) };
    let minus = if lower_closer {
        DiyFp { f: v.f.wrapping_mul(4).wrapping_sub(1), e: v.e.wrapping_sub(2) }
    } else {
        DiyFp { f: v.f.wrapping_mul(2).wrapping_sub(1), e: v.e.wrapping_sub(1) }
    };
    let plus = plus.normalize();
    (minus.normalize_to(plus.e), v.normalize(), plus)
}

/// Normalized approximations of `10^k` for `k = -300, -292, ..., 324`: `(f, e, k)` with
/// `f * 2^e ≈ 10^k`, `2^63 <= f < 2^64`, `f` rounded to nearest.
const CACHED_POWERS: [(u64, i32, i32); 79] = [
    (0xAB70FE17C79AC6CA, -1060, -300),
    (0xFF77B1FCBEBCDC4F, -1034, -292),
    (0xBE5691EF416BD60C, -1007, -284),
    (0x8DD01FAD907FFC3C, -980, -276),
    (0xD3515C2831559A83, -954, -268),
    (0x9D71AC8FADA6C9B5, -927, -260),
    (0xEA9C227723EE8BCB, -901, -252),
    (0xAECC49914078536D, -874, -244),
    (0x823C12795DB6CE57, -847, -236),
    (0xC21094364DFB5637, -821, -228),
    (0x9096EA6F3848984F, -794, -220),
    (0xD77485CB25823AC7, -768, -212),
    (0xA086CFCD97BF97F4, -741, -204),
    (0xEF340A98172AACE5, -715, -196),
    (0xB23867FB2A35B28E, -688, -188),
    (0x84C8D4DFD2C63F3B, -661, -180),
    (0xC5DD44271AD3CDBA, -635, -172),
    (0x936B9FCEBB25C996, -608, -164),
    (0xDBAC6C247D62A584, -582, -156),
    (0xA3AB66580D5FDAF6, -555, -148),
    (0xF3E2F893DEC3F126, -529, -140),
    (0xB5B5ADA8AAFF80B8, -502, -132),
    (0x87625F056C7C4A8B, -475, -124),
    (0xC9BCFF6034C13053, -449, -116),
    (0x964E858C91BA2655, -422, -108),
    (0xDFF9772470297EBD, -396, -100),
    (0xA6DFBD9FB8E5B88F, -369, -92),
    (0xF8A95FCF88747D94, -343, -84),
    (0xB94470938FA89BCF, -316, -76),
    (0x8A08F0F8BF0F156B, -289, -68),
    (0xCDB02555653131B6, -263, -60),
    (0x993FE2C6D07B7FAC, -236, -52),
    (0xE45C10C42A2B3B06, -210, -44),
    (0xAA242499697392D3, -183, -36),
    (0xFD87B5F28300CA0E, -157, -28),
    (0xBCE5086492111AEB, -130, -20),
    (0x8CBCCC096F5088CC, -103, -12),
    (0xD1B71758E219652C, -77, -4),
    (0x9C40000000000000, -50, 4),
    (0xE8D4A51000000000, -24, 12),
    (0xAD78EBC5AC620000, 3, 20),
    (0x813F3978F8940984, 30, 28),
    (0xC097CE7BC90715B3, 56, 36),
    (0x8F7E32CE7BEA5C70, 83, 44),
    (0xD5D238A4ABE98068, 109, 52),
    (0x9F4F2726179A2245, 136, 60),
    (0xED63A231D4C4FB27, 162, 68),
    (0xB0DE65388CC8ADA8, 189, 76),
    (0x83C7088E1AAB65DB, 216, 84),
    (0xC45D1DF942711D9A, 242, 92),
    (0x924D692CA61BE758, 269, 100),
    (0xDA01EE641A708DEA, 295, 108),
    (0xA26DA3999AEF774A, 322, 116),
    (0xF209787BB47D6B85, 348, 124),
    (0xB454E4A179DD1877, 375, 132),
    (0x865B86925B9BC5C2, 402, 140),
    (0xC83553C5C8965D3D, 428, 148),
    (0x952AB45CFA97A0B3, 455, 156),
    (0xDE469FBD99A05FE3, 481, 164),
    (0xA59BC234DB398C25, 508, 172),
    (0xF6C69A72A3989F5C, 534, 180),
    (0xB7DCBF5354E9BECE, 561, 188),
    (0x88FCF317F22241E2, 588, 196),
    (0xCC20CE9BD35C78A5, 614, 204),
    (0x98165AF37B2153DF, 641, 212),
    (0xE2A0B5DC971F303A, 667, 220),
    (0xA8D9D1535CE3B396, 694, 228),
    (0xFB9B7CD9A4A7443C, 720, 236),
    (0xBB764C4CA7A44410, 747, 244),
    (0x8BAB8EEFB6409C1A, 774, 252),
    (0xD01FEF10A657842C, 800, 260),
    (0x9B10A4E5E9913129, 827, 268),
    (0xE7109BFBA19C0C9D, 853, 276),
    (0xAC2820D9623BF429, 880, 284),
    (0x80444B5E7AA7CF85, 907, 292),
    (0xBF21E44003ACDD2D, 933, 300),
    (0x8E679C2F5E44FF8F, 960, 308),
    (0xD433179D9C8CB841, 986, 316),
    (0x9E19DB92B4E31BA9, 1013, 324),
];

/// The cached power `c ≈ 10^-k` that brings a value with binary exponent `e` into the range
/// where digit generation works (`-60 <= e + e_c + 64 <= -32`).
fn cached_power(e: i32) -> Option<(DiyFp, i32)> {
    const ALPHA: i32 = -60;
    let f = ALPHA.wrapping_sub(e).wrapping_sub(1);
    // ceil(f * log10(2)), with log10(2) ≈ 78913 / 2^18.
    let k = f.wrapping_mul(78913).wrapping_div(1 << 18).wrapping_add(i32::from(f > 0));
    let index = 300i32.wrapping_add(k).wrapping_add(7).wrapping_div(8);
    let &(f, e, k) = CACHED_POWERS.get(usize::try_from(index).ok()?)?;
    Some((DiyFp { f, e }, k))
}

/// Decimal digits of a finite positive value: `digits[..len] * 10^exponent`.
pub(super) struct Digits {
    digits: [u8; 20],
    len: usize,
    exponent: i32,
}

impl Digits {
    fn push(&mut self, digit: u8) {
        if let Some(slot) = self.digits.get_mut(self.len) {
            *slot = b'0'.wrapping_add(digit);
            self.len = self.len.wrapping_add(1);
        }
    }

    fn as_slice(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or(&[])
    }

    /// Moves the last digit down by one (Grisu2's rounding step).
    fn decrement_last(&mut self) {
        if let Some(last) = self.len.checked_sub(1).and_then(|i| self.digits.get_mut(i)) {
            *last = last.wrapping_sub(1);
        }
    }
}

/// The largest power of ten not above `n` (1 for 0), and its number of digits.
fn largest_pow10(n: u32) -> (u32, i32) {
    let mut pow10 = 1u32;
    let mut digits = 1i32;
    while let Some(next) = pow10.checked_mul(10) {
        if next > n {
            break;
        }
        pow10 = next;
        digits = digits.wrapping_add(1);
    }
    (pow10, digits)
}

/// Moves the last digit towards `w` while that stays within the boundaries.
fn round(digits: &mut Digits, dist: u64, delta: u64, mut rest: u64, ten_k: u64) {
    while rest < dist
        && delta.wrapping_sub(rest) >= ten_k
        && (rest.wrapping_add(ten_k) < dist
            || dist.wrapping_sub(rest) > rest.wrapping_add(ten_k).wrapping_sub(dist))
    {
        digits.decrement_last();
        rest = rest.wrapping_add(ten_k);
    }
}

/// Grisu2 on the boundaries of a value.
fn grisu2(minus: DiyFp, v: DiyFp, plus: DiyFp) -> Option<Digits> {
    let (c, k) = cached_power(plus.e)?;
    let w = v.mul(c);
    let w_minus = minus.mul(c);
    let w_plus = plus.mul(c);
    let m_minus = DiyFp { f: w_minus.f.wrapping_add(1), e: w_minus.e };
    let m_plus = DiyFp { f: w_plus.f.wrapping_sub(1), e: w_plus.e };
    let mut out = Digits { digits: [0; 20], len: 0, exponent: k.wrapping_neg() };

    let mut delta = m_plus.f.wrapping_sub(m_minus.f);
    let mut dist = m_plus.f.wrapping_sub(w.f);
    let shift = u32::try_from(m_plus.e.wrapping_neg()).ok().filter(|s| (32..=60).contains(s))?;
    let one = 1u64 << shift;
    let mut p1 = (m_plus.f >> shift) as u32;
    let mut p2 = m_plus.f & one.wrapping_sub(1);

    let (mut pow10, mut n) = largest_pow10(p1);
    while n > 0 {
        let digit = p1.checked_div(pow10)?;
        p1 = p1.checked_rem(pow10)?;
        out.push(digit as u8);
        n = n.wrapping_sub(1);
        let rest = (u64::from(p1) << shift).wrapping_add(p2);
        if rest <= delta {
            out.exponent = out.exponent.wrapping_add(n);
            round(&mut out, dist, delta, rest, u64::from(pow10) << shift);
            return Some(out);
        }
        pow10 /= 10;
    }
    let mut m = 0i32;
    loop {
        p2 = p2.wrapping_mul(10);
        out.push((p2 >> shift) as u8);
        p2 &= one.wrapping_sub(1);
        m = m.wrapping_add(1);
        delta = delta.wrapping_mul(10);
        dist = dist.wrapping_mul(10);
        if p2 <= delta || out.len >= 20 {
            break;
        }
    }
    out.exponent = out.exponent.wrapping_sub(m);
    round(&mut out, dist, delta, p2, one);
    Some(out)
}

/// Writes `digits * 10^exponent` as Godot 4 does: fixed notation when the decimal point falls
/// within `(-4, 15]` digits of the first digit, else `d.ddde+XX`.
fn format_digits<W: Write + ?Sized>(out: &mut W, d: &Digits) -> fmt::Result {
    const MIN_EXP: i32 = -4;
    const MAX_EXP: i32 = 15;
    let digits = d.as_slice();
    let k = i32::try_from(digits.len()).unwrap_or(0);
    let n = k.wrapping_add(d.exponent);
    if k <= n && n <= MAX_EXP {
        out.write_str(text(digits))?;
        for _ in 0..n.wrapping_sub(k) {
            out.write_char('0')?;
        }
        return Ok(());
    }
    if 0 < n && n <= MAX_EXP {
        let (int, frac) = digits.split_at(usize::try_from(n).unwrap_or(0).min(digits.len()));
        out.write_str(text(int))?;
        out.write_char('.')?;
        return out.write_str(text(frac));
    }
    if MIN_EXP < n && n <= 0 {
        out.write_str("0.")?;
        for _ in 0..n.wrapping_neg() {
            out.write_char('0')?;
        }
        return out.write_str(text(digits));
    }
    let (first, rest) = digits.split_at(digits.len().min(1));
    out.write_str(text(first))?;
    if !rest.is_empty() {
        out.write_char('.')?;
        out.write_str(text(rest))?;
    }
    write_exponent(out, n.wrapping_sub(1))
}

/// ASCII digits as text.
fn text(bytes: &[u8]) -> &str {
    core::str::from_utf8(bytes).unwrap_or("")
}

/// `e+XX` / `e-XX`: a sign and at least two digits, as printf writes it.
fn write_exponent<W: Write + ?Sized>(out: &mut W, exponent: i32) -> fmt::Result {
    out.write_str(if exponent < 0 { "e-" } else { "e+" })?;
    let magnitude = exponent.unsigned_abs();
    if magnitude < 10 {
        out.write_char('0')?;
    }
    out.write_str(itoa::Buffer::new().format(magnitude))
}

/// The Grisu2 text of a finite non-zero value: in single precision when `single`.
fn write_grisu<W: Write + ?Sized>(out: &mut W, value: f64, single: bool) -> fmt::Result {
    if value.is_sign_negative() {
        out.write_char('-')?;
    }
    let magnitude = value.abs();
    let (minus, v, plus) = if single {
        boundaries(u64::from((magnitude as f32).to_bits()), 24, 150)
    } else {
        boundaries(magnitude.to_bits(), 53, 1075)
    };
    match grisu2(minus, v, plus) {
        Some(digits) => format_digits(out, &digits),
        // Unreachable for finite values; Rust's shortest form is the nearest substitute.
        None => write!(out, "{magnitude:e}"),
    }
}

/// A real as Godot 4's `rtos_fix` writes it in `var_to_str` (compatibility mode).
pub(super) fn write_real_godot4<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    if value == 0.0 {
        out.write_char('0')
    } else if value.is_nan() {
        out.write_str("nan")
    } else if value.is_infinite() {
        out.write_str(if value > 0.0 { "inf" } else { "inf_neg" })
    } else {
        write_grisu(out, value, f64::from(value as f32) == value)
    }
}

/// A `float` value as Godot 4 writes it: a real, with `.0` added when it would read back as an
/// integer.
pub(super) fn write_float_godot4<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    let mut text = StackText::new();
    write_real_godot4(&mut text, value)?;
    out.write_str(text.as_str())?;
    let s = text.as_str();
    if !matches!(s, "inf" | "-inf" | "nan") && !s.contains(['.', 'e', 'E']) {
        out.write_str(".0")?;
    }
    Ok(())
}

/// A real as Godot 3's `rtosfix` writes it: narrowed to f32, then `%lg` (which writes a NaN's
/// sign: `-nan`).
pub(super) fn write_real_godot3<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    if value.is_nan() {
        return out.write_str(if value.is_sign_negative() { "-nan" } else { "nan" });
    }
    let value = f64::from(value as f32);
    if value == 0.0 {
        return out.write_char('0');
    }
    if value.is_infinite() {
        return out.write_str(if value > 0.0 { "inf" } else { "-inf" });
    }
    // Six significant digits, correctly rounded (ties to even, as glibc does).
    let mut digits = [b'0'; 6];
    let exponent = match six_digits((value as f32).abs(), &mut digits) {
        Some(exponent) => exponent,
        None => {
            let mut scientific = StackText::new();
            write!(scientific, "{:.5e}", value.abs())?;
            let (mantissa, exponent) = scientific.as_str().split_once('e').unwrap_or(("0", "0"));
            for (slot, digit) in digits.iter_mut().zip(mantissa.bytes().filter(u8::is_ascii_digit))
            {
                *slot = digit;
            }
            exponent.parse().unwrap_or(0)
        }
    };
    let significant = digits.iter().rposition(|&d| d != b'0').map_or(1, |i| i.wrapping_add(1));
    let digits = digits.get(..significant).unwrap_or(b"0");
    if value < 0.0 {
        out.write_char('-')?;
    }
    if (-4..6).contains(&exponent) {
        if exponent >= 0 {
            let int_len = usize::try_from(exponent).unwrap_or(0).wrapping_add(1);
            let (int, frac) = digits.split_at(int_len.min(digits.len()));
            out.write_str(text(int))?;
            for _ in digits.len()..int_len {
                out.write_char('0')?;
            }
            if !frac.is_empty() {
                out.write_char('.')?;
                out.write_str(text(frac))?;
            }
        } else {
            out.write_str("0.")?;
            for _ in 1..exponent.unsigned_abs() {
                out.write_char('0')?;
            }
            out.write_str(text(digits))?;
        }
        return Ok(());
    }
    let (first, rest) = digits.split_at(1.min(digits.len()));
    out.write_str(text(first))?;
    if !rest.is_empty() {
        out.write_char('.')?;
        out.write_str(text(rest))?;
    }
    write_exponent(out, exponent)
}

/// The six significant digits `%lg` prints for a finite positive `f32` `x`: `x` rounded to six
/// significant digits, ties to even, by exact integer arithmetic. Fills `digits` and returns
/// the decimal exponent of the first; `None` where the exact fraction does not fit in `u128`
/// (values below about `1e-26`, where `%.5e` rounds instead).
///
/// `x = m * 2^e` exactly; for a decimal exponent `k` (first guessed from the binary exponent,
/// then moved until the quotient has six digits) the quotient `x / 10^(k - 5)` is an exact
/// fraction `n / d` of integers, and its rounding is read from the remainder. The tests compare
/// this with `%.5e` over the corpora and a sweep of values.
fn six_digits(x: f32, digits: &mut [u8; 6]) -> Option<i32> {
    let bits = x.to_bits();
    let (biased, fraction) = ((bits >> 23) & 0xff, bits & 0x7f_ffff);
    let (m, e) = match biased {
        0 => (fraction, -149i32),
        _ => (fraction | 0x80_0000, i32::try_from(biased).ok()?.checked_sub(150)?),
    };
    if m == 0 {
        return None;
    }
    // floor(log2 x), and floor(log10 x) within one: log10(2) ~ 1233 / 4096.
    let log2 = e.checked_add(31i32.checked_sub(i32::try_from(m.leading_zeros()).ok()?)?)?;
    let mut exponent = log2.checked_mul(1233)? >> 12;
    for _ in 0..3 {
        let (n, d) = fraction_of(m, e, exponent.checked_sub(5)?)?;
        let (q, r) = (n.checked_div(d)?, n.checked_rem(d)?);
        if q < 100_000 {
            exponent = exponent.checked_sub(1)?;
            continue;
        }
        if q >= 1_000_000 {
            exponent = exponent.checked_add(1)?;
            continue;
        }
        let half = d.checked_sub(r)?;
        let up = r > half || (r == half && q % 2 == 1);
        let mut q = u32::try_from(q).ok()?.checked_add(u32::from(up))?;
        if q == 1_000_000 {
            q = 100_000;
            exponent = exponent.checked_add(1)?;
        }
        for slot in digits.iter_mut().rev() {
            *slot = b'0'.checked_add(u8::try_from(q % 10).ok()?)?;
            q /= 10;
        }
        return Some(exponent);
    }
    None
}

/// `m * 2^e / 10^s` as a fraction `(n, d)` of integers, when both fit in `u128`.
fn fraction_of(m: u32, e: i32, s: i32) -> Option<(u128, u128)> {
    let (mut n, mut d) = (u128::from(m), 1u128);
    // `m < 2^24`: `m * 2^e` fits for every `e` an `f32` has (`e <= 104`).
    if e >= 0 {
        n = n.checked_shl(e.unsigned_abs())?;
    } else {
        d = d.checked_shl(e.unsigned_abs())?;
    }
    let power = 10u128.checked_pow(s.unsigned_abs())?;
    if s >= 0 {
        d = d.checked_mul(power)?;
    } else {
        n = n.checked_mul(power)?;
    }
    Some((n, d))
}

/// A `float` value as Godot 3 writes it: `.0` added unless the text has a point or an exponent
/// (or is `inf` or `nan`; `-inf` and `-nan` do get it: `-inf.0`, `-nan.0`).
pub(super) fn write_float_godot3<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    let mut text = StackText::new();
    write_real_godot3(&mut text, value)?;
    let s = text.as_str();
    out.write_str(s)?;
    if s != "inf" && s != "nan" && !s.contains(['.', 'e']) {
        out.write_str(".0")?;
    }
    Ok(())
}

/// A small text buffer on the stack (numbers never need more than 40 bytes).
pub(super) struct StackText {
    bytes: [u8; 64],
    len: usize,
}

impl StackText {
    pub(super) fn new() -> Self {
        StackText { bytes: [0; 64], len: 0 }
    }

    pub(super) fn as_str(&self) -> &str {
        self.bytes.get(..self.len).and_then(|b| core::str::from_utf8(b).ok()).unwrap_or("")
    }
}

impl Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    fn g4(value: f64) -> alloc::string::String {
        let mut s = alloc::string::String::new();
        write_float_godot4(&mut s, value).unwrap();
        s
    }

    fn g3(value: f64) -> alloc::string::String {
        let mut s = alloc::string::String::new();
        write_float_godot3(&mut s, value).unwrap();
        s
    }

    #[test]
    fn godot4_forms() {
        assert_eq!(g4(1.0), "1.0");
        assert_eq!(g4(-0.0), "0.0");
        assert_eq!(g4(0.1), "0.1");
        assert_eq!(g4(f64::from(0.1f32)), "0.1");
        assert_eq!(g4(1e10), "10000000000.0");
        assert_eq!(g4(1e15), "1e+15");
        assert_eq!(g4(1e14), "100000000000000.0");
        assert_eq!(g4(0.0001), "0.0001");
        assert_eq!(g4(0.00001), "1e-05");
        assert_eq!(g4(5e-324), "5e-324");
        assert_eq!(g4(f64::NEG_INFINITY), "inf_neg");
        assert_eq!(g4(1.0 / 3.0), "0.3333333333333333");
    }

    #[test]
    fn grisu_round_trips() {
        // Every output must read back as the same value (Grisu2 is not always the shortest).
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = f64::from_bits(x);
            if !value.is_finite() || value == 0.0 {
                continue;
            }
            let mut s = alloc::string::String::new();
            write_grisu(&mut s, value, false).unwrap();
            assert_eq!(s.parse::<f64>().unwrap(), value, "{s}");
            let single = f32::from_bits(x as u32);
            if single.is_finite() && single != 0.0 {
                let mut s = alloc::string::String::new();
                write_grisu(&mut s, f64::from(single), true).unwrap();
                assert_eq!(s.parse::<f32>().unwrap(), single, "{s}");
            }
        }
    }

    /// The formatter replaced (`%.5e` for every value), kept as the oracle: a real as Godot 3's `rtosfix` writes it: narrowed to f32, then `%lg` (which writes a NaN's
    /// sign: `-nan`).
    fn old_write_real_godot3<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
        if value.is_nan() {
            return out.write_str(if value.is_sign_negative() { "-nan" } else { "nan" });
        }
        let value = f64::from(value as f32);
        if value == 0.0 {
            return out.write_char('0');
        }
        if value.is_infinite() {
            return out.write_str(if value > 0.0 { "inf" } else { "-inf" });
        }
        // Six significant digits, correctly rounded (ties to even, as glibc does).
        let mut scientific = StackText::new();
        write!(scientific, "{:.5e}", value.abs())?;
        let (mantissa, exponent) = scientific.as_str().split_once('e').unwrap_or(("0", "0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let mut digits = [b'0'; 6];
        for (slot, digit) in digits.iter_mut().zip(mantissa.bytes().filter(u8::is_ascii_digit)) {
            *slot = digit;
        }
        let significant = digits.iter().rposition(|&d| d != b'0').map_or(1, |i| i.wrapping_add(1));
        let digits = digits.get(..significant).unwrap_or(b"0");
        if value < 0.0 {
            out.write_char('-')?;
        }
        if (-4..6).contains(&exponent) {
            if exponent >= 0 {
                let int_len = usize::try_from(exponent).unwrap_or(0).wrapping_add(1);
                let (int, frac) = digits.split_at(int_len.min(digits.len()));
                out.write_str(text(int))?;
                for _ in digits.len()..int_len {
                    out.write_char('0')?;
                }
                if !frac.is_empty() {
                    out.write_char('.')?;
                    out.write_str(text(frac))?;
                }
            } else {
                out.write_str("0.")?;
                for _ in 1..exponent.unsigned_abs() {
                    out.write_char('0')?;
                }
                out.write_str(text(digits))?;
            }
            return Ok(());
        }
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.write_str(text(first))?;
        if !rest.is_empty() {
            out.write_char('.')?;
            out.write_str(text(rest))?;
        }
        write_exponent(out, exponent)
    }

    /// Every real of the corpora and of the sweep (`f64`s, and `f32`s widened) prints as
    /// with `%.5e`.
    #[test]
    fn godot3_digits_are_those_of_the_old_formatter() {
        use crate::wire::sweep;
        let from_f32 = sweep::corpus_f32().into_iter().map(|b| f64::from(f32::from_bits(b)));
        let generated_f32 = sweep::generated_f32().into_iter().map(f64::from);
        let corpus = sweep::corpus_f64().into_iter().map(f64::from_bits);
        let mut checked = 0usize;
        for value in from_f32.chain(generated_f32).chain(corpus).chain(sweep::generated_f64()) {
            let (mut new, mut old) = (StackText::new(), StackText::new());
            write_real_godot3(&mut new, value).unwrap();
            old_write_real_godot3(&mut old, value).unwrap();
            assert_eq!(new.as_str(), old.as_str(), "{:016x}", value.to_bits());
            checked += 1;
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    #[test]
    fn godot3_forms() {
        assert_eq!(g3(1.0 / 3.0), "0.333333");
        assert_eq!(g3(1e10), "1e+10");
        assert_eq!(g3(16777217.0), "1.67772e+07");
        assert_eq!(g3(1e300), "inf");
        assert_eq!(g3(f64::NEG_INFINITY), "-inf.0");
        assert_eq!(g3(f64::NAN), "nan");
        assert_eq!(g3(-f64::NAN), "-nan.0");
        assert_eq!(g3(5e-324), "0.0");
        assert_eq!(g3(123456.0), "123456.0");
        assert_eq!(g3(0.0001), "0.0001");
        assert_eq!(g3(0.00001), "1e-05");
        assert_eq!(g3(100.0), "100.0");
    }
}
