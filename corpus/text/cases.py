"""Seeded random values of every type of each Godot version, in named families.

    python3 cases.py 3 | head        # name<TAB>hex of the wire bytes, one case a line

Families (the number of cases of each is in FAMILIES):

* `float`: one float of an awkward value (f32 or f64 on the wire).
* `reals`: math values, colors and packed real arrays with awkward components.
* `ints`: integers, integer vectors, packed integer and byte arrays at their extremes.
* `text`: String, StringName, NodePath and PackedStringArray with every escape-relevant
  character, as values and as dictionary keys.
* `keys`: dictionaries whose keys are of every type (numbers of both kinds with NaN and -0.0,
  strings and string names, vectors, arrays and packed arrays, nested containers), from empty
  to 300 keys, with repeated keys written in other equal forms.
* `nested`: random values of every type, containers nested a few levels.
* `deep`: containers nested around Godot 4's printing cut-off (100 levels).
* `typed` (Godot 4): typed arrays and dictionaries of every builtin type.
* `utf8` (Godot 3): strings in the non-standard UTF-8 Godot 3 accepts (surrogates, code
  points above U+10FFFF, overlong forms).
* `objects`: full objects with scripts (RefCounted / Reference and Resource with exported
  variables, in arrays, dictionaries, typed containers of a script), built by the probes
  themselves from the scripts beside them (`RECIPES`), encoded and decoded with objects allowed.

Keys avoid what Godot orders by memory address, which the bytes cannot tell: two objects in one
Godot 3 dictionary's keys, StringNames inside Godot 4 array keys. Godot 3 pool arrays in one
dictionary's keys have one length per type, not empty (Godot 3 compares pool arrays of different
lengths by reading past the shorter one, and crashes when it is empty).

Python standard library only.
"""
import random
import sys

import awkward
from values import G3, G4, INT_COUNTS, PACKED_WIDTHS, REAL_COUNTS, TYPE_IDS, encode

FAMILIES = [("float", 400), ("reals", 300), ("ints", 150), ("text", 400), ("keys", 900),
            ("nested", 300), ("deep", 12), ("typed", 200), ("utf8", 12), ("objects", 8)]

# Full objects the probes build (they need scripts of the probe's project): by version.
RECIPES = {
    G3: ["scripted_reference", "scripted_defaults", "scripted_in_array", "scripted_in_dictionary",
         "scripted_resource", "reference"],
    G4: ["scripted_refcounted", "scripted_defaults", "scripted_in_array", "scripted_in_dictionary",
         "scripted_typed_array", "scripted_typed_dictionary", "scripted_resource", "refcounted"],
}

REALS_G3 = ["Vector2", "Rect2", "Vector3", "Transform2D", "Plane", "Quaternion", "AABB", "Basis",
            "Transform3D", "Color"]
REALS_G4 = REALS_G3 + ["Vector4", "Projection"]
PACKED_G3 = ["PackedByteArray", "PackedInt32Array", "PackedFloat32Array", "PackedStringArray",
             "PackedVector2Array", "PackedVector3Array", "PackedColorArray"]
PACKED_G4 = PACKED_G3 + ["PackedInt64Array", "PackedFloat64Array", "PackedVector4Array"]


def reals_of(version):
    return REALS_G4 if version == G4 else REALS_G3


def packed_of(version):
    return PACKED_G4 if version == G4 else PACKED_G3


# ------------------------------------------------------------------ leaves

def a_float(rng, bits=None):
    """A float value: f32 on the wire when the value allows it (usually), else f64."""
    if bits is None:
        if rng.random() < 0.3:
            return ("float", "f32", awkward.random_f32_bits(rng))
        bits = awkward.random_f64_bits(rng)
    value = awkward.f64_of(bits)
    if awkward.f32_exact(value) and rng.random() < 0.7:
        return ("float", "f32", awkward.f32_bits(value) if value == value else _nan_f32(bits))
    return ("float", "f64", bits)


def _nan_f32(bits64):
    """The f32 NaN that widens to the f64 NaN `bits64` (whose payload fits in 23 bits)."""
    sign = (bits64 >> 63) << 31
    return sign | 0x7F800000 | ((bits64 >> 29) & 0x7FFFFF)


def an_int(rng):
    pick = rng.random()
    if pick < 0.3:
        n = rng.choice([0, 1, -1, 2 ** 31 - 1, -2 ** 31, 2 ** 31, -2 ** 31 - 1, 2 ** 63 - 1, -2 ** 63,
                        2 ** 32, 2 ** 53 + 1, 10 ** 15, -10 ** 18])
    elif pick < 0.6:
        n = rng.randint(-1000, 1000)
    elif pick < 0.8:
        n = rng.randint(-2 ** 31, 2 ** 31 - 1)
    else:
        n = rng.randint(-2 ** 63, 2 ** 63 - 1)
    return ("int", n, rng.random() < 0.2)


def component_bits(rng, wire, tame=False):
    bits = awkward.random_f32_bits(rng)
    if tame:
        bits = awkward.safe_f32_bits(bits)
    if wire == "f64":
        return awkward.f64_bits(awkward.f32_of(bits)) if rng.random() < 0.6 else awkward.random_f64_bits(rng)
    return bits


def a_math(rng, version, name=None):
    name = name or rng.choice(reals_of(version) + (list(INT_COUNTS) if version == G4 else []))
    if name in INT_COUNTS:
        return ("ints", name, [an_int32(rng) for _ in range(INT_COUNTS[name])])
    wire = "f64" if version == G4 and name != "Color" and rng.random() < 0.2 else "f32"
    return ("reals", name, wire, [component_bits(rng, wire) for _ in range(REAL_COUNTS[name])])


def an_int32(rng):
    return rng.choice([0, 1, -1, 2 ** 31 - 1, -2 ** 31, rng.randint(-100, 100), rng.randint(-2 ** 31, 2 ** 31 - 1)])


def a_text(rng, version, short=False):
    text = awkward.key_text(rng) if short else awkward.random_text(rng)
    raw = text.encode("utf-8")
    pick = rng.random()
    if pick < 0.04:
        raw = b"\xef\xbb\xbf" + raw          # one leading BOM is dropped by the decoder
    elif pick < 0.08:
        raw = raw + b"\0" + b"after the NUL"  # the text ends at the first NUL
    return raw


def a_string(rng, version, short=False):
    kind = "stringname" if version == G4 and rng.random() < 0.35 else "string"
    return (kind, a_text(rng, version, short))


def a_nodepath(rng, version):
    def part():
        if rng.random() < 0.1:
            return b""
        return a_text(rng, version, short=True) or b"n"
    names = [part() for _ in range(rng.randint(0, 3))]
    subnames = [part() for _ in range(rng.randint(0, 2))]
    return ("nodepath", rng.random() < 0.4, names, subnames)


def a_packed(rng, version, name=None, length=None, tame=False):
    name = name or rng.choice(packed_of(version))
    n = length if length is not None else rng.choice([0, 1, 2, 3, rng.randint(0, 12)])
    wire = "f64" if version == G4 and name in ("PackedVector2Array", "PackedVector3Array",
                                               "PackedVector4Array") and rng.random() < 0.25 else "f32"
    if name == "PackedByteArray":
        elements = [rng.choice([0, 255, rng.randint(0, 255)]) for _ in range(n)]
    elif name == "PackedInt32Array":
        elements = [an_int32(rng) for _ in range(n)]
    elif name == "PackedInt64Array":
        elements = [an_int(rng)[1] for _ in range(n)]
    elif name == "PackedFloat32Array":
        elements = [component_bits(rng, "f32", tame) for _ in range(n)]
    elif name == "PackedFloat64Array":
        elements = [awkward.random_f64_bits(rng) for _ in range(n)]
    elif name == "PackedStringArray":
        elements = [a_text(rng, version, short=True) for _ in range(n)]
    else:
        elements = [[component_bits(rng, wire if name != "PackedColorArray" else "f32", tame)
                     for _ in range(PACKED_WIDTHS[name])] for _ in range(n)]
    return ("packed", name, wire, elements)


def a_leaf(rng, version):
    """Any value that is not an array or a dictionary."""
    pick = rng.randrange(12)
    if pick == 0:
        return ("nil",)
    if pick == 1:
        return ("bool", rng.random() < 0.5)
    if pick == 2:
        return an_int(rng)
    if pick == 3:
        return a_float(rng)
    if pick == 4:
        return a_string(rng, version)
    if pick == 5:
        return a_math(rng, version)
    if pick == 6:
        return a_nodepath(rng, version)
    if pick == 7:
        return a_packed(rng, version)
    if pick == 8:
        return ("rid", rng.choice([0, 1, 7, 2 ** 40, rng.getrandbits(64)]))
    if pick == 9:
        return ("object", rng.choice([0, 0, 1, 42, rng.getrandbits(63)]))
    if version == G4 and pick == 10:
        return ("callable",)
    if version == G4 and pick == 11:
        return ("signal", a_text(rng, version, short=True), rng.choice([0, 5, rng.getrandbits(63)]))
    return a_string(rng, version)


# ------------------------------------------------------------------ values and keys

def a_value(rng, version, depth):
    """Any value, containers at most `depth` levels deep."""
    pick = rng.random()
    if depth > 0 and pick < 0.15:
        return ("array", None, [a_value(rng, version, depth - 1) for _ in range(rng.randint(0, 4))])
    if depth > 0 and pick < 0.3:
        return a_dict(rng, version, depth - 1, rng.randint(0, 6))
    return a_leaf(rng, version)


class KeyRules:
    """What the keys of one dictionary must avoid (see the module docs)."""

    def __init__(self, rng, version):
        self.version = version
        self.pool_lengths = {name: rng.randint(1, 4) for name in PACKED_G3}
        self.object_used = False


def a_key(rng, version, rules, depth, in_array=False):
    """A dictionary key of any type; few distinct values per type, so keys tie and repeat."""
    kinds = ["nil", "bool", "int", "float", "float", "string", "string", "math", "nodepath",
             "packed", "rid", "object"]
    if version == G4:
        kinds += ["stringname", "stringname", "callable", "signal", "int_math"]
    if depth > 0:
        kinds += ["array", "array", "array", "dict"]
    kind = rng.choice(kinds)
    if kind == "nil":
        return ("nil",)
    if kind == "bool":
        return ("bool", rng.random() < 0.5)
    if kind == "int":
        return ("int", rng.choice([-2, -1, 0, 1, 2, 3, 10, 2 ** 40, -2 ** 63]), rng.random() < 0.2)
    if kind == "float":
        values = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e20, float("inf"), float("-inf"), float("nan"), 0.1]
        if rng.random() < 0.2:
            return a_float(rng)
        bits = awkward.f64_bits(rng.choice(values))
        if bits == awkward.f64_bits(float("nan")):
            bits = rng.choice(awkward.NAN_F64)
        return a_float(rng, bits)
    if kind in ("string", "stringname"):
        if kind == "stringname" and in_array:
            kind = "string"   # Godot 4 orders StringNames inside arrays by address
        return (kind, a_text(rng, version, short=True))
    if kind == "math":
        name = rng.choice(reals_of(version))
        wire = "f64" if version == G4 and name != "Color" and rng.random() < 0.2 else "f32"
        small = [0x00000000, 0x80000000, 0x3F800000, 0x40000000, 0xBF800000, 0x7FC00000]
        comps = [rng.choice(small) for _ in range(REAL_COUNTS[name])]
        if wire == "f64":
            comps = [awkward.f64_bits(awkward.f32_of(c)) for c in comps]
        return ("reals", name, wire, comps)
    if kind == "int_math":
        name = rng.choice(list(INT_COUNTS))
        return ("ints", name, [rng.choice([-1, 0, 1, 2]) for _ in range(INT_COUNTS[name])])
    if kind == "nodepath":
        return ("nodepath", rng.random() < 0.5, [rng.choice([b"a", b"b", b"a?"]) for _ in range(rng.randint(0, 2))],
                [rng.choice([b"x", b"y"]) for _ in range(rng.randint(0, 1))])
    if kind == "packed":
        name = rng.choice(packed_of(version))
        if version == G3:
            return a_small_packed(rng, version, name, rules.pool_lengths[name])
        return a_small_packed(rng, version, name, rng.randint(0, 3))
    if kind == "rid":
        return ("rid", rng.choice([0, 1, 2, 99]))
    if kind == "object":
        if version == G3 and rules.object_used or rng.random() < 0.4:
            return ("object", 0)
        rules.object_used = True
        return ("object", rng.choice([1, 5, 77]))
    if kind == "callable":
        return ("callable",)
    if kind == "signal":
        return ("signal", rng.choice([b"s", b"t"]), rng.choice([0, 1]))
    if kind == "array":
        return ("array", None, [a_key(rng, version, rules, depth - 1, True) for _ in range(rng.randint(0, 3))])
    # A dictionary as a key: its own keys follow their own rules.
    return a_dict(rng, version, depth - 1, rng.randint(0, 3), value_depth=0)


def a_small_packed(rng, version, name, n):
    if name in ("PackedByteArray", "PackedInt32Array", "PackedInt64Array"):
        return ("packed", name, "f32", [rng.choice([0, 1, 2]) for _ in range(n)])
    if name == "PackedStringArray":
        return ("packed", name, "f32", [rng.choice([b"", b"a", b"b"]) for _ in range(n)])
    small = [0x00000000, 0x80000000, 0x3F800000, 0x40000000, 0x7FC00000]
    if name == "PackedFloat32Array":
        return ("packed", name, "f32", [rng.choice(small) for _ in range(n)])
    if name == "PackedFloat64Array":
        return ("packed", name, "f32", [awkward.f64_bits(awkward.f32_of(rng.choice(small))) for _ in range(n)])
    return ("packed", name, "f32", [[rng.choice(small) for _ in range(PACKED_WIDTHS[name])] for _ in range(n)])


def twin(rng, version, key, top=True):
    """Another wire form of a key that Godot holds equal to it."""
    kind = key[0]
    if kind == "int":
        return ("int", key[1], not key[2])
    if kind == "float":
        value = awkward.f64_of(key[2]) if key[1] == "f64" else awkward.f32_of(key[2])
        if value != value:
            return a_float(rng, rng.choice(awkward.NAN_F64))
        if value == 0:
            return a_float(rng, awkward.f64_bits(-value))
        if key[1] == "f32":
            return ("float", "f64", awkward.f64_bits(value))
        return key
    if kind in ("string", "stringname"):
        pick = rng.random()
        if version == G4 and top and pick < 0.5:
            return ("stringname" if kind == "string" else "string", key[1])
        if pick < 0.75 and b"\0" not in key[1]:
            return (kind, key[1] + b"\0junk")
        return key
    if kind == "array":
        return ("array", key[1], [twin(rng, version, item, False) for item in key[2]])
    if kind == "object":
        return ("object", 0)    # every decoded object is a new instance: only null ones are equal
    return key


def a_dict(rng, version, depth, size, value_depth=None, repeats=0.15):
    """A dictionary of `size` entries with keys of every type; some keys repeat in other forms."""
    rules = KeyRules(rng, version)
    keys = []
    for _ in range(size):
        if keys and rng.random() < repeats:
            keys.append(twin(rng, version, rng.choice(keys)))
        else:
            keys.append(a_key(rng, version, rules, min(depth, 2)))
    vdepth = depth if value_depth is None else value_depth
    entries = []
    for i, key in enumerate(keys):
        value = ("int", i, False) if rng.random() < 0.7 else a_value(rng, version, vdepth)
        entries.append((key, value))
    return ("dict", None, None, entries)


# ------------------------------------------------------------------ typed containers (Godot 4)

BUILTIN_G4 = [name for name in TYPE_IDS[G4] if name not in ("nil", "object", "dict", "array")]


def of_type(rng, name):
    """A Godot 4 value of the builtin type `name`."""
    if name == "bool":
        return ("bool", rng.random() < 0.5)
    if name == "int":
        return an_int(rng)
    if name == "float":
        return a_float(rng)
    if name in ("string", "stringname"):
        return (name, a_text(rng, G4, short=True))
    if name in REAL_COUNTS or name in INT_COUNTS:
        return a_math(rng, G4, name)
    if name == "nodepath":
        return a_nodepath(rng, G4)
    if name == "rid":
        return ("rid", rng.choice([0, 3, rng.getrandbits(64)]))
    if name == "callable":
        return ("callable",)
    if name == "signal":
        return ("signal", a_text(rng, G4, short=True), rng.choice([0, 9]))
    return a_packed(rng, G4, name)


def a_typed(rng):
    pick = rng.random()
    if pick < 0.45:
        name = rng.choice(BUILTIN_G4 + ["dict", "array"])
        if name == "dict":
            items = [a_dict(rng, G4, 1, rng.randint(0, 3)) for _ in range(rng.randint(0, 3))]
        elif name == "array":
            items = [("array", None, [a_value(rng, G4, 1) for _ in range(rng.randint(0, 2))])
                     for _ in range(rng.randint(0, 3))]
        else:
            items = [of_type(rng, name) for _ in range(rng.randint(0, 4))]
        return ("array", ("builtin", TYPE_IDS[G4][name]), items)
    if pick < 0.55:
        items = [("object", rng.choice([0, 12])) for _ in range(rng.randint(0, 3))]
        typed = ("class", b"EncodedObjectAsID") if rng.random() < 0.5 else ("builtin", TYPE_IDS[G4]["object"])
        return ("array", typed, items)
    key_name = rng.choice(BUILTIN_G4 + ["variant"])
    value_name = rng.choice(BUILTIN_G4 + ["variant"])
    entries = []
    rules = KeyRules(rng, G4)
    for i in range(rng.randint(0, 6)):
        if key_name == "variant":
            key = a_key(rng, G4, rules, 1)
        elif key_name in ("string", "stringname"):
            key = (key_name, rng.choice([b"a", b"b", b"c?", b"\n", b""]))
        elif key_name in ("int", "float", "bool"):
            key = {"int": ("int", rng.randint(-3, 3), False), "bool": ("bool", rng.random() < 0.5),
                   "float": a_float(rng, awkward.f64_bits(rng.choice([0.0, -0.0, 1.5, float("nan"), 2.0])))}[key_name]
        else:
            key = of_type(rng, key_name)
        value = ("int", i, False) if value_name == "variant" else of_type(rng, value_name)
        entries.append((key, value))
    key_typed = None if key_name == "variant" else ("builtin", TYPE_IDS[G4][key_name])
    value_typed = None if value_name == "variant" else ("builtin", TYPE_IDS[G4][value_name])
    if key_typed is None and value_typed is None:
        value_typed = ("builtin", TYPE_IDS[G4]["int"])
        entries = [(k, ("int", i, False)) for i, (k, _) in enumerate(entries)]
    return ("dict", key_typed, value_typed, entries)


# ------------------------------------------------------------------ families

def one(rng, version, family, index):
    if family == "float":
        return a_float(rng)
    if family == "reals":
        pick = rng.random()
        if pick < 0.5:
            return a_math(rng, version)
        if pick < 0.8:
            return a_packed(rng, version, rng.choice(["PackedFloat32Array", "PackedVector2Array",
                                                      "PackedVector3Array", "PackedColorArray"]
                                                     + (["PackedFloat64Array", "PackedVector4Array"]
                                                        if version == G4 else [])))
        return ("array", None, [a_float(rng) for _ in range(rng.randint(1, 8))])
    if family == "ints":
        pick = rng.random()
        if pick < 0.4:
            return an_int(rng)
        if pick < 0.6 and version == G4:
            return a_math(rng, version, rng.choice(list(INT_COUNTS)))
        return a_packed(rng, version, rng.choice(["PackedByteArray", "PackedInt32Array"]
                                                 + (["PackedInt64Array"] if version == G4 else [])))
    if family == "text":
        pick = rng.random()
        if pick < 0.35:
            return a_string(rng, version)
        if pick < 0.55:
            return a_nodepath(rng, version)
        if pick < 0.75:
            return a_packed(rng, version, "PackedStringArray")
        # As keys (sorted by text) and in arrays.
        entries = [(a_string(rng, version, short=rng.random() < 0.5), ("int", i, False))
                   for i in range(rng.randint(1, 20))]
        return ("dict", None, None, entries)
    if family == "keys":
        pick = rng.random()
        size = (rng.randint(0, 8) if pick < 0.5 else rng.randint(9, 16) if pick < 0.75
                else rng.randint(17, 60) if pick < 0.95 else rng.randint(61, 300))
        return a_dict(rng, version, rng.choice([0, 1, 2, 2, 3]), size, repeats=rng.choice([0.0, 0.15, 0.4]))
    if family == "nested":
        return a_value(rng, version, rng.randint(1, 4))
    if family == "deep":
        depth = [1, 50, 98, 99, 100, 101, 102, 103, 110, 130, 200, 300][index]
        inner = a_dict(rng, version, 1, 3) if index % 2 else ("array", None, [("int", 7, False)])
        value = inner
        for level in range(depth):
            if level % 3 == 2:
                value = ("dict", None, None, [(("string", b"k"), value), (("int", level, False), ("nil",))])
            elif level % 5 == 4:
                value = ("dict", None, None, [(value, ("int", level, False))])
            else:
                value = ("array", None, [value, ("int", level, False)])
        return value
    if family == "typed":
        return a_typed(rng)
    if family == "utf8":
        samples = [b"\xed\xa0\x80", b"a\xed\xa0\xbd\xed\xb8\x80b", b"\xf4\x90\x80\x80", b"\xf7\xbf\xbf\xbf",
                   b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xe0\x80\x90x", b"\xe0\x81\x80",
                   b"\xf0\x80\x88\x80", b"\xf0\x8f\xbf\xbf", b"\xed\xbf\xbf\"", b"q\xe0\x9f\xbf\\"]
        raw = samples[index]
        if index % 3 == 0:
            return ("string", raw)
        if index % 3 == 1:
            return ("packed", "PackedStringArray", "f32", [raw, b"ok"])
        return ("dict", None, None, [(("string", raw), ("int", 1, False)), (("string", b"\xed\x9f\xbf"), ("int", 2, False))])
    raise ValueError(family)


def cases(version, seed=20240601):
    """[(name, wire bytes or "*recipe")] for `version`, the same for the same seed. A recipe is
    a value with full objects that the probe builds itself."""
    out = []
    for family, count in FAMILIES:
        if family == "typed" and version != G4 or family == "utf8" and version != G3:
            continue
        if family == "objects":
            out.extend(("objects_%s" % recipe, "*" + recipe) for recipe in RECIPES[version])
            continue
        rng = random.Random("%s-%d-%s" % (seed, version, family))
        for index in range(count):
            value = one(rng, version, family, index)
            out.append(("%s_%04d" % (family, index), encode(value, version)))
    return out


if __name__ == "__main__":
    for name, data in cases(int(sys.argv[1])):
        print("%s\t%s" % (name, data if isinstance(data, str) else data.hex()))
