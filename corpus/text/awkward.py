"""Awkward numbers and strings: the values a text writer gets wrong first.

Floats are IEEE bit patterns (f64 or f32): zeros of both signs, subnormals, the largest and
smallest normals, values just past a single-precision range, powers of ten and their
neighbours, where printf and Grisu switch notation, NaNs of every sign and payload (quiet and
signalling), infinities, and random patterns over the whole exponent range. Strings are built
from every ASCII character, the characters Godot escapes, and non-ASCII text up to U+10FFFF.
Python standard library only.
"""
import ctypes
import math
import struct


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32_bits(x):
    """The bits of `x` narrowed to a 32-bit float (to nearest, too large ones to infinity)."""
    return struct.unpack("<I", bytes(ctypes.c_float(x)))[0]


def f64_of(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def f32_of(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f32_exact(x):
    """Whether the double `x` is exactly a 32-bit float (NaNs: whether the payload fits)."""
    if math.isnan(x):
        return f64_bits(x) & 0x1FFFFFFF == 0
    return f32_of(f32_bits(x)) == x


SPECIAL_F64 = [
    0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, -1 / 3, 0.7, 3.14159, math.pi, math.e,
    100.0, 1e6, 123456.0, 1234567.0, 999999.5, 9999995.0, 0.000123456, 16777217.0, 16777216.0,
    1e14, 1e15, 1e15 - 1, 1e15 + 1, 1e16, 123456789012345680.0, 1e20, 1e21, 1e22, 1e23, 1e100,
    1e-4, 1e-5, 9.9999e-5, 0.0001, 0.00010000000000000002, 5e-5, 1e-7, 1e-10, 1e-300,
    2.0 ** 53, 2.0 ** 53 + 2, 2.0 ** 63, 2.0 ** 64, -2.0 ** 63, 9007199254740993.0,
    5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
    1e308, 3.4028234663852886e38, 3.4028235677973366e38, 3.5e38, 1.401298464324817e-45,
    7e-46, 1.1754943508222875e-38, 1.1754942106924411e-38, 1e-38, 1e-45, 1e-46,
    float("inf"), float("-inf"), 0.30000000000000004, 1.0000001, 1.00000001, 0.999999,
    0.9999995, 4.35, 2.675, 1.005, 1e-6, 123.456, -123.456, 65504.0, 1e9, 4294967296.0,
]

NAN_F64 = [
    0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000000000001, 0xFFF8000000000001,
    0x7FF0000000000001, 0xFFF0000000000001, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF,
    0x7FF4000000000000, 0x7FF80000DEADBEEF, 0xFFFC000000000000,
]

NAN_F32 = [
    0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFC00001, 0x7F800001, 0xFF800001, 0x7FFFFFFF,
    0xFFFFFFFF, 0x7FA00000, 0x7FD00000,
]

SPECIAL_F32 = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
               0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x3DCCCCCD, 0x3EAAAAAB, 0x4B800001, 0x3F800001,
               0x33D6BF95, 0x5F000000, 0x4F000000, 0x49742400, 0x2EDBE6FF]


def random_f64_bits(rng):
    """A double from one of several families, as its bits."""
    pick = rng.random()
    if pick < 0.25:
        return f64_bits(rng.choice(SPECIAL_F64)) ^ (rng.random() < 0.2 and 1 << 63 or 0)
    if pick < 0.35:
        return rng.choice(NAN_F64)
    if pick < 0.5:
        return rng.getrandbits(64)
    if pick < 0.65:
        # Decimal-looking values of any scale.
        digits = rng.randint(1, 17)
        mantissa = rng.randint(1, 10 ** digits - 1)
        exponent = rng.randint(-30, 30) if rng.random() < 0.8 else rng.randint(-320, 300)
        try:
            value = float("%de%d" % (mantissa, exponent))
        except OverflowError:
            value = 1e300
        return f64_bits(-value if rng.random() < 0.3 else value)
    if pick < 0.75:
        # Neighbours of a power of ten or two.
        base = 10.0 ** rng.randint(-8, 22) if rng.random() < 0.7 else 2.0 ** rng.randint(-60, 80)
        return f64_bits(base) + rng.randint(-3, 3)
    if pick < 0.85:
        return f64_bits(float(rng.randint(-2 ** 31, 2 ** 31)))
    # Subnormals and tiny values.
    return rng.randint(1, 1 << 52) if rng.random() < 0.5 else f64_bits(rng.uniform(1e-320, 1e-300))


def random_f32_bits(rng):
    """A single-precision float from one of several families, as its bits."""
    pick = rng.random()
    if pick < 0.2:
        return rng.choice(SPECIAL_F32)
    if pick < 0.3:
        return rng.choice(NAN_F32)
    if pick < 0.5:
        return rng.getrandbits(32)
    if pick < 0.75:
        value = rng.choice([rng.uniform(-10, 10), rng.uniform(-1e6, 1e6), float(rng.randint(-100, 100)),
                            rng.randint(-1000, 1000) / 8, rng.uniform(-1, 1) * 10 ** rng.randint(-12, 12)])
        return f32_bits(value)
    if pick < 0.85:
        return rng.randint(1, 0x7FFFFF) | (rng.random() < 0.3 and 0x80000000 or 0)
    # A double that is not exactly a float, narrowed.
    return f32_bits(f64_of(random_f64_bits(rng)) if rng.random() < 0.5 else rng.random())


def safe_f32_bits(bits):
    """`bits` if they are not NaN (used where a NaN would make keys unorderable), else 1.0."""
    return 0x3F800000 if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF else bits


# Characters Godot escapes somewhere, every ASCII control, and text outside ASCII.
ESCAPED = "\\\"'?\a\b\f\n\r\t\v"
CONTROLS = "".join(chr(c) for c in range(1, 32)) + "\x7f"
UNICODE = ["é", "ß", "ñ", "中文", "日本語", "Ω", "\u0301", "\u00a0", "\u2028", "\u2029", "\u200b",
           "\ufeff", "\ufffd", "\ufffe", "\uffff", "😀", "🎮", "\U0010ffff", "\U00010000",
           "\u0080", "\u07ff", "\u0800", "\ud7ff", "\ue000", "€", "𝄞"]
PRINTABLE = "".join(chr(c) for c in range(32, 127))


def random_text(rng, max_len=12):
    """A short string mixing plain, escaped, control and non-ASCII characters."""
    out = []
    for _ in range(rng.randint(0, max_len)):
        pick = rng.random()
        if pick < 0.45:
            out.append(rng.choice(PRINTABLE))
        elif pick < 0.7:
            out.append(rng.choice(ESCAPED))
        elif pick < 0.85:
            out.append(rng.choice(CONTROLS))
        else:
            out.append(rng.choice(UNICODE))
    return "".join(out)


def key_text(rng):
    """Short text, so that string keys often share prefixes and repeat."""
    if rng.random() < 0.6:
        return "".join(rng.choice("ab?\\\"\n") for _ in range(rng.randint(0, 3)))
    return random_text(rng, 5)
