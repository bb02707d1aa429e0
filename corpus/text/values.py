"""Variant values as plain Python tuples, and their wire bytes for Godot 3 and Godot 4.

A value is a tuple whose first item names its kind:

    ("nil",)                              ("bool", b)
    ("int", n, wide)                      wide: written as 64 bits even when it fits in 32
    ("float", wire, bits)                 wire "f32" / "f64", bits: the IEEE pattern on the wire
    ("string", raw) / ("stringname", raw) raw: the bytes on the wire (not always valid text)
    ("reals", type, wire, [bits])         Vector2 ... Projection, Color: f32 or f64 components
    ("ints", type, [n])                   Vector2i ... Rect2i
    ("nodepath", absolute, [names], [subnames])   names as raw bytes
    ("rid", id)   ("object", id)   ("callable",)   ("signal", raw_name, id)
    ("array", typed, [values])            typed: None, ("builtin", type), ("class", raw_name)
    ("dict", key_typed, value_typed, [(key, value)])
    ("packed", type, wire, [elements])    bytes, ints, float bits, raw strings, component bits

Python standard library only.
"""
import struct

G3 = 3
G4 = 4

# Wire type ids (the Godot 4 names; Godot 3 lacks the types it has no id for).
TYPE_IDS = {
    G3: {
        "nil": 0, "bool": 1, "int": 2, "float": 3, "string": 4, "Vector2": 5, "Rect2": 6,
        "Vector3": 7, "Transform2D": 8, "Plane": 9, "Quaternion": 10, "AABB": 11, "Basis": 12,
        "Transform3D": 13, "Color": 14, "nodepath": 15, "rid": 16, "object": 17, "dict": 18,
        "array": 19, "PackedByteArray": 20, "PackedInt32Array": 21, "PackedFloat32Array": 22,
        "PackedStringArray": 23, "PackedVector2Array": 24, "PackedVector3Array": 25,
        "PackedColorArray": 26,
    },
    G4: {
        "nil": 0, "bool": 1, "int": 2, "float": 3, "string": 4, "Vector2": 5, "Vector2i": 6,
        "Rect2": 7, "Rect2i": 8, "Vector3": 9, "Vector3i": 10, "Transform2D": 11, "Vector4": 12,
        "Vector4i": 13, "Plane": 14, "Quaternion": 15, "AABB": 16, "Basis": 17,
        "Transform3D": 18, "Projection": 19, "Color": 20, "stringname": 21, "nodepath": 22,
        "rid": 23, "object": 24, "callable": 25, "signal": 26, "dict": 27, "array": 28,
        "PackedByteArray": 29, "PackedInt32Array": 30, "PackedInt64Array": 31,
        "PackedFloat32Array": 32, "PackedFloat64Array": 33, "PackedStringArray": 34,
        "PackedVector2Array": 35, "PackedVector3Array": 36, "PackedColorArray": 37,
        "PackedVector4Array": 38,
    },
}

# Real components of each math type.
REAL_COUNTS = {
    "Vector2": 2, "Rect2": 4, "Vector3": 3, "Transform2D": 6, "Vector4": 4, "Plane": 4,
    "Quaternion": 4, "AABB": 6, "Basis": 9, "Transform3D": 12, "Projection": 16, "Color": 4,
}
INT_COUNTS = {"Vector2i": 2, "Rect2i": 4, "Vector3i": 3, "Vector4i": 4}
# Components of one element of a packed vector or color array.
PACKED_WIDTHS = {"PackedVector2Array": 2, "PackedVector3Array": 3, "PackedVector4Array": 4,
                 "PackedColorArray": 4}

FLAG_64 = 1 << 16


def type_id(value, version):
    kind = value[0]
    if kind in ("reals", "ints", "packed"):
        return TYPE_IDS[version][value[1]]
    return TYPE_IDS[version][kind]


def u32(n):
    return struct.pack("<I", n & 0xFFFFFFFF)


def string_bytes(raw):
    return u32(len(raw)) + raw + b"\0" * (-len(raw) % 4)


def encode(value, version):
    out = bytearray()
    _write(out, value, version)
    return bytes(out)


def _typed_info(typed):
    """(kind bits, info bytes) of a container's element / key / value type."""
    if typed is None:
        return 0, b""
    if typed[0] == "builtin":
        return 1, u32(typed[1])
    return 2, string_bytes(typed[1])


def _write(out, value, version):
    kind = value[0]
    tid = type_id(value, version)
    if kind == "nil":
        out += u32(tid)
    elif kind == "bool":
        out += u32(tid) + u32(1 if value[1] else 0)
    elif kind == "int":
        n, wide = value[1], value[2]
        if wide or not -2**31 <= n < 2**31:
            out += u32(tid | FLAG_64) + struct.pack("<q", n)
        else:
            out += u32(tid) + struct.pack("<i", n)
    elif kind == "float":
        wire, bits = value[1], value[2]
        if wire == "f64":
            out += u32(tid | FLAG_64) + struct.pack("<Q", bits)
        else:
            out += u32(tid) + struct.pack("<I", bits)
    elif kind in ("string", "stringname"):
        out += u32(tid) + string_bytes(value[1])
    elif kind == "reals":
        wire, comps = value[2], value[3]
        if wire == "f64":
            out += u32(tid | FLAG_64) + b"".join(struct.pack("<Q", c) for c in comps)
        else:
            out += u32(tid) + b"".join(struct.pack("<I", c) for c in comps)
    elif kind == "ints":
        out += u32(tid) + b"".join(struct.pack("<i", c) for c in value[2])
    elif kind == "nodepath":
        absolute, names, subnames = value[1], value[2], value[3]
        out += u32(tid) + u32(len(names) | 0x80000000) + u32(len(subnames)) + u32(1 if absolute else 0)
        for part in names + subnames:
            out += string_bytes(part)
    elif kind == "rid":
        out += u32(tid)
        if version == G4:
            out += struct.pack("<Q", value[1])
    elif kind == "object":
        out += u32(tid | FLAG_64) + struct.pack("<Q", value[1])
    elif kind == "callable":
        out += u32(tid)
    elif kind == "signal":
        out += u32(tid) + string_bytes(value[1]) + struct.pack("<Q", value[2])
    elif kind == "array":
        typed, items = value[1], value[2]
        bits, info = _typed_info(typed)
        out += u32(tid | bits << 16) + info + u32(len(items))
        for item in items:
            _write(out, item, version)
    elif kind == "dict":
        key_typed, value_typed, entries = value[1], value[2], value[3]
        key_bits, key_info = _typed_info(key_typed)
        value_bits, value_info = _typed_info(value_typed)
        out += u32(tid | key_bits << 16 | value_bits << 18) + key_info + value_info + u32(len(entries))
        for k, v in entries:
            _write(out, k, version)
            _write(out, v, version)
    elif kind == "packed":
        name, wire, elements = value[1], value[2], value[3]
        flag = FLAG_64 if wire == "f64" and name in ("PackedVector2Array", "PackedVector3Array",
                                                      "PackedVector4Array") else 0
        out += u32(tid | flag) + u32(len(elements))
        if name == "PackedByteArray":
            data = bytes(elements)
            out += data + b"\0" * (-len(data) % 4)
        elif name == "PackedInt32Array":
            out += b"".join(struct.pack("<i", e) for e in elements)
        elif name == "PackedInt64Array":
            out += b"".join(struct.pack("<q", e) for e in elements)
        elif name == "PackedFloat32Array":
            out += b"".join(struct.pack("<I", e) for e in elements)
        elif name == "PackedFloat64Array":
            out += b"".join(struct.pack("<Q", e) for e in elements)
        elif name == "PackedStringArray":
            out += b"".join(string_bytes(e) for e in elements)
        else:
            fmt = "<Q" if flag else "<I"
            out += b"".join(struct.pack(fmt, c) for e in elements for c in e)
    else:
        raise ValueError("unknown value kind %r" % (kind,))
