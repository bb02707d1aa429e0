"""Zeroes the padding bytes of a value's wire bytes: Godot 3 leaves the padding after NodePath
strings uninitialised, so its encoding of one value differs from run to run there. The bytes are
a value Godot itself encoded (no checks). Python standard library only.
"""
import struct

# Fixed payload sizes (f32 components) by Godot 4 type id; Godot 3 ids map onto these below.
REALS_4 = {5: 2, 7: 4, 9: 3, 11: 6, 12: 4, 14: 4, 15: 4, 16: 6, 17: 9, 18: 12, 19: 16}
FIXED_4 = {6: 8, 8: 16, 10: 12, 13: 16, 20: 16}
# Godot 3 type id -> Godot 4 type id (0-4 are the same).
G3_TO_G4 = {5: 5, 6: 7, 7: 9, 8: 11, 9: 14, 10: 15, 11: 16, 12: 17, 13: 18, 14: 20, 15: 22, 16: 23,
            17: 24, 18: 27, 19: 28, 20: 29, 21: 30, 22: 32, 23: 34, 24: 35, 25: 36, 26: 37}


def zero_padding(data, version):
    out = bytearray(data)
    _value(out, 0, version)
    return bytes(out)


def _u32(buf, pos):
    return struct.unpack_from("<I", buf, pos)[0]


def _string(buf, pos):
    """Zeroes the padding of the string at `pos`; returns the position after it."""
    n = _u32(buf, pos)
    end = pos + 4 + n
    pad = -n % 4
    buf[end:end + pad] = b"\0" * pad
    return end + pad


def _typed(buf, pos, kind):
    if kind == 1:
        return pos + 4
    if kind in (2, 3):
        return _string(buf, pos)
    return pos


def _value(buf, pos, version):
    header = _u32(buf, pos)
    ty = header & 0xFF
    wide = bool(header & (1 << 16))
    if version == 3:
        ty = G3_TO_G4.get(ty, ty)
    pos += 4
    if ty == 0:
        return pos
    if ty == 1:
        return pos + 4
    if ty in (2, 3):
        return pos + (8 if wide else 4)
    if ty in (4, 21):
        return _string(buf, pos)
    if ty in REALS_4:
        return pos + REALS_4[ty] * (8 if wide and version == 4 else 4)
    if ty in FIXED_4:
        return pos + FIXED_4[ty]
    if ty == 22:
        names = _u32(buf, pos)
        if not names & 0x80000000:
            return _string(buf, pos)
        subnames, flags = _u32(buf, pos + 4), _u32(buf, pos + 8)
        pos += 12
        for _ in range((names & 0x7FFFFFFF) + subnames + (1 if flags & 2 else 0)):
            pos = _string(buf, pos)
        return pos
    if ty == 23:
        return pos + (8 if version == 4 else 0)
    if ty == 24:
        if wide:
            return pos + 8
        if _u32(buf, pos) == 0:
            return pos + 4
        pos = _string(buf, pos)
        count = _u32(buf, pos)
        pos += 4
        for _ in range(count):
            pos = _string(buf, pos)
            pos = _value(buf, pos, version)
        return pos
    if ty == 25:
        return pos
    if ty == 26:
        return _string(buf, pos) + 8
    if ty in (27, 28):
        if version == 4:
            pos = _typed(buf, pos, (header >> 16) & 3)
            if ty == 27:
                pos = _typed(buf, pos, (header >> 18) & 3)
        count = _u32(buf, pos) & 0x7FFFFFFF
        pos += 4
        for _ in range(count * (2 if ty == 27 else 1)):
            pos = _value(buf, pos, version)
        return pos
    count = _u32(buf, pos)
    pos += 4
    if ty == 29:
        pad = -count % 4
        buf[pos + count:pos + count + pad] = b"\0" * pad
        return pos + count + pad
    if ty == 34:
        for _ in range(count):
            pos = _string(buf, pos)
        return pos
    width = {30: 4, 31: 8, 32: 4, 33: 8, 35: 8, 36: 12, 37: 16, 38: 16}[ty]
    if wide and version == 4 and ty in (35, 36, 38):
        width *= 2
    return pos + count * width
