#!/usr/bin/env python3
"""Inputs that separate Godot's rules of dictionary key identity and key order.

cases(ver) -> list of {"name", "b64", "note"} for ver 3 or 4. Each case is one
Variant's bytes (mostly a Dictionary) that both engines accept; identity.py
records what the engine makes of it (size, text, re-encoding).

Values are built by functions of the version (3 or 4) returning bytes; the
same builders serve corpus/probes/campaign.
"""
import base64
import struct

T3 = dict(nil=0, bool=1, int=2, float=3, string=4, vector2=5, rect2=6, vector3=7, transform2d=8,
          plane=9, quaternion=10, aabb=11, basis=12, transform3d=13, color=14, nodepath=15, rid=16,
          object=17, dict=18, array=19, pbyte=20, pint32=21, pfloat32=22, pstring=23, pvector2=24,
          pvector3=25, pcolor=26)
T4 = dict(nil=0, bool=1, int=2, float=3, string=4, vector2=5, vector2i=6, rect2=7, rect2i=8, vector3=9,
          vector3i=10, transform2d=11, vector4=12, vector4i=13, plane=14, quaternion=15, aabb=16,
          basis=17, transform3d=18, projection=19, color=20, stringname=21, nodepath=22, rid=23,
          object=24, callable=25, signal=26, dict=27, array=28, pbyte=29, pint32=30, pint64=31,
          pfloat32=32, pfloat64=33, pstring=34, pvector2=35, pvector3=36, pcolor=37, pvector4=38)
FLAG64 = 1 << 16
# Number of real components per math type.
REALS = dict(vector2=2, rect2=4, vector3=3, transform2d=6, vector4=4, plane=4, quaternion=4, aabb=6,
             basis=9, transform3d=12, projection=16, color=4)
INTS = dict(vector2i=2, rect2i=4, vector3i=3, vector4i=4)
PACKED_VECTORS = dict(pvector2=2, pvector3=3, pvector4=4, pcolor=4)

NAN64 = 0x7FF8000000000000
NAN32 = 0x7FC00000
NEG0_32 = 0x80000000
NEG0_64 = 0x8000000000000000


def u32(x):
    return struct.pack("<I", x & 0xFFFFFFFF)


def u64(x):
    return struct.pack("<Q", x & 0xFFFFFFFFFFFFFFFF)


def bstr(raw):
    return u32(len(raw)) + raw + b"\0" * (-len(raw) % 4)


def T(v):
    return T3 if v == 3 else T4


def has(kind):
    """A builder of a type only some versions have: the versions that have it."""
    return lambda v: kind in T(v)


# --- builders: each returns a function of the version giving bytes ---------------------------

def nil():
    return lambda v: u32(T(v)["nil"])


def boolean(b):
    return lambda v: u32(T(v)["bool"]) + u32(1 if b else 0)


def i32(x):
    return lambda v: u32(T(v)["int"]) + struct.pack("<i", x)


def i64(x):
    return lambda v: u32(T(v)["int"] | FLAG64) + struct.pack("<q", x)


def f32(bits):
    return lambda v: u32(T(v)["float"]) + u32(bits)


def f64(bits):
    return lambda v: u32(T(v)["float"] | FLAG64) + u64(bits)


def fval(x):
    """A float given as a Python float, written as f32 when exact, else f64."""
    b = struct.pack("<f", x) if abs(x) < 3e38 else None
    if b is not None and struct.unpack("<f", b)[0] == x:
        return f32(struct.unpack("<I", b)[0])
    return f64(struct.unpack("<Q", struct.pack("<d", x))[0])


def bits32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def string(raw):
    return lambda v: u32(T(v)["string"]) + bstr(raw)


def sname(raw):
    return lambda v: u32(T(v)["stringname"]) + bstr(raw)


def math(kind, *bits, wide=False):
    """A math value from its components' bits (u32, or u64 with wide=True: Godot 4's flag)."""
    def b(v):
        n = REALS[kind]
        comps = (list(bits) + [0] * n)[:n]
        if wide:
            return u32(T(v)[kind] | FLAG64) + b"".join(u64(c) for c in comps)
        return u32(T(v)[kind]) + b"".join(u32(c) for c in comps)
    return b


def mathf(kind, *xs):
    return math(kind, *[bits32(x) for x in xs])


def ivec(kind, *xs):
    def b(v):
        n = INTS[kind]
        comps = (list(xs) + [0] * n)[:n]
        return u32(T(v)[kind]) + b"".join(struct.pack("<i", c) for c in comps)
    return b


def nodepath(*names, absolute=False, subnames=()):
    # Names of 4 bytes: Godot leaves a NodePath's padding unwritten (garbage in var2bytes).
    def b(v):
        return (u32(T(v)["nodepath"]) + u32(len(names) | 0x80000000) + u32(len(subnames))
                + u32(1 if absolute else 0) + b"".join(bstr(n) for n in names)
                + b"".join(bstr(n) for n in subnames))
    return b


def rid(i):
    return lambda v: u32(T(v)["rid"]) + (u64(i) if v == 4 else b"")


def objid(i):
    return lambda v: u32(T(v)["object"] | FLAG64) + u64(i)


def callable_():
    return lambda v: u32(T(v)["callable"])


def signal(name, oid):
    return lambda v: u32(T(v)["signal"]) + bstr(name) + u64(oid)


def array(*items):
    return lambda v: u32(T(v)["array"]) + u32(len(items)) + b"".join(i(v) for i in items)


def dictionary(*kv):
    return lambda v: u32(T(v)["dict"]) + u32(len(kv)) + b"".join(k(v) + x(v) for k, x in kv)


def pbytes(*xs):
    return lambda v: u32(T(v)["pbyte"]) + u32(len(xs)) + bytes(xs) + b"\0" * (-len(xs) % 4)


def pint32(*xs):
    return lambda v: u32(T(v)["pint32"]) + u32(len(xs)) + b"".join(struct.pack("<i", x) for x in xs)


def pint64(*xs):
    return lambda v: u32(T(v)["pint64"]) + u32(len(xs)) + b"".join(struct.pack("<q", x) for x in xs)


def pfloat32(*bits):
    return lambda v: u32(T(v)["pfloat32"]) + u32(len(bits)) + b"".join(u32(x) for x in bits)


def pfloat64(*bits):
    return lambda v: u32(T(v)["pfloat64"]) + u32(len(bits)) + b"".join(u64(x) for x in bits)


def pstring(*raws):
    def one(r):
        r = r + b"\0"
        return u32(len(r)) + r + b"\0" * (-len(r) % 4)
    return lambda v: u32(T(v)["pstring"]) + u32(len(raws)) + b"".join(one(r) for r in raws)


def pvec(kind, *elems, wide=False):
    """A packed vector/color array; each element a tuple of component bits."""
    def b(v):
        n = PACKED_VECTORS[kind]
        out = u32(T(v)[kind] | (FLAG64 if wide else 0)) + u32(len(elems))
        for e in elems:
            comps = (list(e) + [0] * n)[:n]
            out += b"".join((u64(c) if wide else u32(c)) for c in comps)
        return out
    return b


def keys(*ks):
    """{k1: 1, k2: 2, ...}"""
    return dictionary(*[(k, i32(i + 1)) for i, k in enumerate(ks)])


F1 = 0x3F800000
F1_64 = 0x3FF0000000000000

# --- the cases -------------------------------------------------------------------------------

# (name, value builder, note, versions)
CASES = []


def case(name, build, note, versions=(3, 4)):
    CASES.append((name, build, note, versions))


# Class 1: NaN and +-0 inside container keys, at depth 1 and 2; dictionary keys in different order.
NANS = [("nan64", f64(NAN64)), ("nan32", f32(NAN32)), ("nan64payload", f64(0x7FF8000000000123)),
        ("negnan64", f64(0xFFF8000000000000)), ("snan64", f64(0x7FF0000000000001)),
        ("snan32", f32(0x7F800001))]
for (n1, a), (n2, b) in [(NANS[0], NANS[0]), (NANS[0], NANS[1]), (NANS[1], NANS[1]), (NANS[0], NANS[2]),
                         (NANS[0], NANS[3]), (NANS[4], NANS[0]), (NANS[5], NANS[1])]:
    case("nan_top_%s_%s" % (n1, n2), keys(a, b), "top-level float keys %s, %s" % (n1, n2))
    case("nan_arr_%s_%s" % (n1, n2), keys(array(a), array(b)), "[%s], [%s]" % (n1, n2))
    case("nan_arr2_%s_%s" % (n1, n2), keys(array(array(a)), array(array(b))), "[[%s]], [[%s]]" % (n1, n2))
    case("nan_dictkey_%s_%s" % (n1, n2), keys(dictionary((a, i32(1))), dictionary((b, i32(1)))),
         "{%s: 1}, {%s: 1}" % (n1, n2))
    case("nan_dictval_%s_%s" % (n1, n2), keys(dictionary((i32(1), a)), dictionary((i32(1), b))),
         "{1: %s}, {1: %s}" % (n1, n2))
case("zero_arr", keys(array(f32(0)), array(f32(NEG0_32))), "[0.0], [-0.0]")
case("zero_arr2", keys(array(array(f32(NEG0_32))), array(array(f32(0)))), "[[-0.0]], [[0.0]]")
case("zero_dictval", keys(dictionary((i32(1), f32(0))), dictionary((i32(1), f32(NEG0_32)))), "{1: 0.0}, {1: -0.0}")
case("zero_dictkey", keys(dictionary((f32(0), i32(1))), dictionary((f32(NEG0_32), i32(1)))), "{0.0: 1}, {-0.0: 1}")
case("nan_arr_mixed", keys(array(i32(1), f64(NAN64)), array(i32(1), f64(NAN64)), array(i32(2))),
     "[1, NaN] twice, then [2]")
case("nan_dictkey_arr", keys(dictionary((array(f64(NAN64)), i32(1))), dictionary((array(f64(NAN64)), i32(1)))),
     "{[NaN]: 1} twice")
case("nan_arr_dictkey", keys(array(dictionary((f64(NAN64), i32(1)))), array(dictionary((f64(NAN64), i32(1))))),
     "[{NaN: 1}] twice")
case("nan_arr_dictval", keys(array(dictionary((i32(1), f64(NAN64)))), array(dictionary((i32(1), f64(NAN64))))),
     "[{1: NaN}] twice")
case("dict_order", keys(dictionary((i32(1), i32(1)), (i32(2), i32(2))), dictionary((i32(2), i32(2)), (i32(1), i32(1)))),
     "{1:1, 2:2}, {2:2, 1:1}")
case("dict_same", keys(dictionary((i32(1), i32(1)), (i32(2), i32(2))), dictionary((i32(1), i32(1)), (i32(2), i32(2)))),
     "{1:1, 2:2} twice")
case("dict_order_arr", keys(array(dictionary((i32(1), i32(1)), (i32(2), i32(2)))),
                            array(dictionary((i32(2), i32(2)), (i32(1), i32(1))))),
     "[{1:1, 2:2}], [{2:2, 1:1}]")
case("dict_order_inner", keys(dictionary((i32(0), dictionary((i32(1), i32(1)), (i32(2), i32(2))))),
                              dictionary((i32(0), dictionary((i32(2), i32(2)), (i32(1), i32(1)))))),
     "{0: {1:1, 2:2}}, {0: {2:2, 1:1}} (inner dictionaries as values)")
case("dict_order_innerkey", keys(dictionary((dictionary((i32(1), i32(1)), (i32(2), i32(2))), i32(0))),
                                 dictionary((dictionary((i32(2), i32(2)), (i32(1), i32(1))), i32(0)))),
     "{{1:1, 2:2}: 0}, {{2:2, 1:1}: 0} (inner dictionaries as keys)")
case("dict_value_int_float", keys(dictionary((i32(1), i32(1))), dictionary((i32(1), f32(F1)))), "{1: 1}, {1: 1.0}")

# Float-bearing compound types at depth 1 and 2, with NaN and -0.
for kind in REALS:
    if kind == "color":
        nan_c, negz = [NAN32], [NEG0_32]
    else:
        nan_c, negz = [NAN32], [NEG0_32]
    vs = [v for v in (3, 4) if kind in T3 or v == 4] if kind in T3 else (4,)
    a, b = math(kind, *nan_c), math(kind, 0x7FC00001)
    z, nz = math(kind, 0), math(kind, *negz)
    case("math_%s_nan_top" % kind, keys(a, b), "%s with NaN x (two payloads), top level" % kind, vs)
    case("math_%s_nan_arr" % kind, keys(array(a), array(b)), "[%s NaN], twice" % kind, vs)
    case("math_%s_nan_arr2" % kind, keys(array(array(a)), array(array(b))), "[[%s NaN]], twice" % kind, vs)
    case("math_%s_nan_dictval" % kind, keys(dictionary((i32(1), a)), dictionary((i32(1), b))), "{1: %s NaN}, twice" % kind, vs)
    case("math_%s_zero_top" % kind, keys(z, nz), "%s 0 and -0 x" % kind, vs)
    case("math_%s_zero_arr" % kind, keys(array(z), array(nz)), "[%s 0], [%s -0]" % (kind, kind), vs)
    if kind != "color":
        case("math_%s_wide_nan_arr" % kind, keys(array(math(kind, 0x7FF0000000000001, wide=True)), array(a)),
             "[%s f64 sNaN x], [%s f32 NaN x]" % (kind, kind), (4,))
for kind in INTS:
    case("ivec_%s" % kind, keys(ivec(kind, 1, 2), ivec(kind, 1, 2), array(ivec(kind, 1)), array(ivec(kind, 1))),
         "%s twice, [%s] twice" % (kind, kind), (4,))
for kind, nan_elem, negz_elem in [("pvector2", (NAN32, 0), (NEG0_32, 0)), ("pvector3", (NAN32, 0, 0), (NEG0_32, 0, 0)),
                                  ("pvector4", (NAN32,), (NEG0_32,)), ("pcolor", (NAN32,), (NEG0_32,))]:
    vs = (3, 4) if kind in T3 else (4,)
    a = pvec(kind, nan_elem)
    case("packed_%s_nan_top" % kind, keys(a, a), "%s [NaN] twice" % kind, vs)
    case("packed_%s_nan_arr" % kind, keys(array(a), array(a)), "[%s [NaN]] twice" % kind, vs)
    case("packed_%s_zero_top" % kind, keys(pvec(kind, ()), pvec(kind, negz_elem)), "%s [0], [-0]" % kind, vs)
    case("packed_%s_zero_arr" % kind, keys(array(pvec(kind, ())), array(pvec(kind, negz_elem))), "[%s [0]], [%s [-0]]" % (kind, kind), vs)
for name, build in [("pfloat32", lambda *b: pfloat32(*b)), ("pfloat64", None)]:
    pass
# Packed float arrays (class 6 for Godot 3's PoolRealArray).
for tag, z, nz, n1, n2 in [("pfloat32", pfloat32(0), pfloat32(NEG0_32), pfloat32(NAN32), pfloat32(0x7FC00001)),
                           ("pfloat64", pfloat64(0), pfloat64(NEG0_64), pfloat64(NAN64), pfloat64(0x7FF8000000000123))]:
    vs = (3, 4) if tag == "pfloat32" else (4,)
    case("%s_zero_top" % tag, keys(z, nz), "%s [0.0], [-0.0]" % tag, vs)
    case("%s_nan_top" % tag, keys(n1, n1), "%s [NaN] twice (same bits)" % tag, vs)
    case("%s_nan_payload_top" % tag, keys(n1, n2), "%s [NaN], [NaN other payload]" % tag, vs)
    case("%s_zero_arr" % tag, keys(array(z), array(nz)), "[%s [0.0]], [%s [-0.0]]" % (tag, tag), vs)
    case("%s_nan_arr" % tag, keys(array(n1), array(n1)), "[%s [NaN]] twice" % tag, vs)
    case("%s_same_top" % tag, keys(z, z, nz), "%s [0.0] twice then [-0.0]" % tag, vs)
case("pfloat32_one_nan_twice", keys(pfloat32(F1, NAN32), pfloat32(F1, NAN32)), "PoolRealArray [1, NaN] twice", (3, 4))
case("pfloat32_order", keys(pfloat32(bits32(2.0)), pfloat32(F1), pfloat32(NEG0_32), pfloat32(0)), "pfloat32 [2], [1], [-0], [0]")

# Class 2: String / StringName / NodePath mixes at the top, depth 1 and 2.
S, N = string(b"a"), sname(b"a")
case("sn_top", keys(S, N), '"a", &"a"', (4,))
case("sn_top_rev", keys(N, S), '&"a", "a"', (4,))
case("sn_empty_top", keys(string(b""), sname(b"")), '"", &""', (4,))
case("sn_arr", keys(array(S), array(N)), '["a"], [&"a"]', (4,))
case("sn_arr2", keys(array(array(S)), array(array(N))), '[["a"]], [[&"a"]]', (4,))
case("sn_dictval", keys(dictionary((i32(1), S)), dictionary((i32(1), N))), '{1: "a"}, {1: &"a"}', (4,))
case("sn_dictkey", keys(dictionary((S, i32(1))), dictionary((N, i32(1)))), '{"a": 1}, {&"a": 1}', (4,))
case("sn_arr_dictkey", keys(array(dictionary((S, i32(1)))), array(dictionary((N, i32(1))))), '[{"a": 1}], [{&"a": 1}]', (4,))
case("sn_arr_dictval", keys(array(dictionary((i32(1), S))), array(dictionary((i32(1), N)))), '[{1: "a"}], [{1: &"a"}]', (4,))
case("sn_pstring_arr", keys(pstring(b"a"), array(S)), 'PackedStringArray(["a"]), ["a"]')
case("sn_nodepath", keys(string(b"abcd"), nodepath(b"abcd"), sname(b"abcd")), '"abcd", ^"abcd", &"abcd"', (4,))
case("s_nodepath", keys(string(b"abcd"), nodepath(b"abcd"), array(string(b"abcd")), array(nodepath(b"abcd"))),
     '"abcd", ^"abcd", ["abcd"], [^"abcd"]')
case("sn_order", keys(sname(b"b"), string(b"c"), sname(b"a"), string(b"b")), '&"b", "c", &"a", "b"', (4,))
case("sn_order_arr", keys(array(sname(b"b")), array(string(b"c")), array(sname(b"a")), array(string(b"b"))),
     '[&"b"], ["c"], [&"a"], ["b"]', (4,))

# Class 3: keys that become equal once a repeated inner key is merged.
case("merge_inner", keys(dictionary((i32(1), i32(1)), (i32(1), i32(2))), dictionary((i32(1), i32(2)))),
     "{{1:1, 1:2}: 1, {1:2}: 2}")
case("merge_inner_order_same", dictionary((dictionary((i32(1), i32(1)), (i32(2), i32(2)), (i32(1), i32(3))), string(b"x")),
                                          (dictionary((i32(1), i32(3)), (i32(2), i32(2))), string(b"y"))),
     "{{1:1, 2:2, 1:3}: x, {1:3, 2:2}: y}")
case("merge_inner_order_diff", dictionary((dictionary((i32(1), i32(1)), (i32(2), i32(2)), (i32(1), i32(3))), string(b"x")),
                                          (dictionary((i32(2), i32(2)), (i32(1), i32(3))), string(b"y"))),
     "{{1:1, 2:2, 1:3}: x, {2:2, 1:3}: y}")
case("merge_inner_arr", keys(array(dictionary((i32(1), i32(1)), (i32(1), i32(2)))), array(dictionary((i32(1), i32(2))))),
     "{[{1:1, 1:2}]: 1, [{1:2}]: 2}")
case("merge_inner_sn", keys(dictionary((S, i32(1)), (N, i32(2))), dictionary((S, i32(2)))),
     '{{"a":1, &"a":2}: 1, {"a":2}: 2}', (4,))
case("merge_inner_nan", keys(dictionary((array(f64(NAN64)), i32(1)), (array(f64(NAN64)), i32(2)))),
     "{{[NaN]:1, [NaN]:2}: 1}")
case("merge_inner_nan_key", keys(dictionary((f64(NAN64), i32(1)), (f32(NAN32), i32(2))), dictionary((f64(NAN64), i32(2)))),
     "{{NaN:1, NaN:2}: 1, {NaN:2}: 2}")
case("merge_inner_zero", keys(dictionary((f32(0), i32(1)), (f32(NEG0_32), i32(2))), dictionary((f32(0), i32(2)))),
     "{{0.0:1, -0.0:2}: 1, {0.0:2}: 2}")
case("merge_inner2", keys(dictionary((i32(0), dictionary((i32(1), i32(1)), (i32(1), i32(2))))),
                          dictionary((i32(0), dictionary((i32(1), i32(2)))))),
     "{{0: {1:1, 1:2}}: 1, {0: {1:2}}: 2}")
case("merge_inner_key2", keys(dictionary((dictionary((i32(1), i32(1)), (i32(1), i32(2))), i32(0))),
                              dictionary((dictionary((i32(1), i32(2))), i32(0)))),
     "{{{1:1, 1:2}: 0}: 1, {{1:2}: 0}: 2}")

# A value replaced by a repeated inner key leaves no trace (found by ../campaign: Godot 3 once
# took the dictionary as lost for a lost key inside the value it no longer holds).
case("merge_inner_replaced_lost", keys(dictionary((array(), dictionary((pfloat32(NAN32), i32(1)))), (array(), f32(F1))),
                                       array(f32(F1))),
     "{{[]: {PoolRealArray([NaN]): 1}, []: 1.0}: 1, [1.0]: 2}")
case("merge_inner_replaced_lost_arr", keys(dictionary((i32(0), array(pfloat32(NAN32))), (i32(0), i32(1))), i32(7)),
     "{{0: [PoolRealArray([NaN])], 0: 1}: 1, 7: 2}")

# Depth: Godot 4's recursive_hash stops at 100 levels (MAX_RECURSION, logging "Max recursion
# reached"): arrays deeper hash alike.
def deep(levels, leaf):
    b = leaf
    for _ in range(levels):
        b = array(b)
    return b


for levels in (98, 99, 100, 101, 102, 105):
    case("deep_%d" % levels, keys(deep(levels, i32(1)), deep(levels, i32(2))),
         "two keys: arrays nested %d levels around 1 and around 2" % levels)
# Equality stops sooner: hash_compare passes recursion_count + 1 to Array::recursive_equal,
# which adds 1 again, so arrays past 50 levels are equal. (Two keys nested 48 to 50 levels
# around a NaN hang Godot 4.6's var_to_str: Array::operator< asks both ways at every level, 2^n
# steps when every level ties; left out.)
for levels in (51, 60):
    case("deep_nan_%d" % levels, keys(deep(levels, f64(NAN64)), deep(levels, f64(NAN64))),
         "two keys: arrays nested %d levels around NaN" % levels, (4,))
for levels in (48, 49, 50, 51, 60):
    case("deep_sname_%d" % levels, keys(deep(levels, string(b"a")), deep(levels, sname(b"a"))),
         "two keys: arrays nested %d levels around \"a\" and &\"a\"" % levels, (4,))

# Class 4: 64-bit real_t fields narrowed to float (single values: their re-encoding).
for tag, bits in [("snan_low", 0x7FF0000000000001), ("snan_high", 0x7FF4000000000000), ("negsnan", 0xFFF0000000000001),
                  ("qnan", 0x7FF8000000000001), ("snan_payload", 0x7FF00000DEADBEEF), ("big", 0x7E37E43C8800759C),
                  ("tiny", 0x0000000000000001), ("round", 0x3FF0000010000000), ("negsnan_payload", 0xFFF7FFFFFFFFFFFF)]:
    case("narrow_vector2_%s" % tag, math("vector2", bits, F1_64, wide=True), "Vector2 f64 x=%016x" % bits, (4,))
    case("narrow_pvector3_%s" % tag, pvec("pvector3", (0, 0, bits), wide=True), "PackedVector3Array f64 z=%016x" % bits, (4,))
for kind in ("rect2", "vector3", "transform2d", "vector4", "plane", "quaternion", "aabb", "basis", "transform3d",
             "projection", "pvector2", "pvector4"):
    if kind in REALS:
        case("narrow_%s_snan" % kind, math(kind, 0x7FF0000000000001, 0xFFF4000000000000, wide=True),
             "%s f64 sNaN components" % kind, (4,))
    else:
        case("narrow_%s_snan" % kind, pvec(kind, (0x7FF0000000000001, 0xFFF4000000000000), wide=True),
             "%s f64 sNaN components" % kind, (4,))
case("float_f64_snan", f64(0x7FF0000000000001), "FLOAT f64 sNaN")
case("float_f32_snan", f32(0x7F800001), "FLOAT f32 sNaN")
case("float_f32_snan_neg", f32(0xFF800123), "FLOAT f32 -sNaN with payload")
case("pfloat32_snan", pfloat32(0x7F800001), "packed float32 sNaN")
case("pfloat64_snan", pfloat64(0x7FF0000000000001), "PackedFloat64Array sNaN", (4,))
case("vector2_f32_snan", math("vector2", 0x7F800001, F1), "Vector2 f32 sNaN x")
case("narrow_keys_vector2", keys(math("vector2", 0x7FF0000000000001, F1_64, wide=True), math("vector2", NAN32, F1)),
     "Vector2 f64 sNaN x, Vector2 f32 NaN x", (4,))
case("narrow_keys_vector2_round", keys(math("vector2", F1_64, 0, wide=True), math("vector2", 0x3FF0000000000001, 0, wide=True)),
     "Vector2 f64 1.0 and 1.0000000000000002 (same float)", (4,))
case("narrow_keys_in_arr", keys(array(math("vector2", 0x7FF0000000000001, wide=True)), array(math("vector2", 0x7FF8000000000000, wide=True))),
     "[Vector2 f64 sNaN], [Vector2 f64 qNaN]", (4,))

# Class 5: Godot 3 orders vectors approximately (and Godot 4 exactly).
V2, V3 = (lambda x, y: mathf("vector2", x, y)), (lambda x, y, z: mathf("vector3", x, y, z))
for tag, ks in [("v2_1", [V2(2e-7, 0), V2(1e-7, 1)]), ("v2_2", [V2(1e-7, 1), V2(2e-7, 0)]),
                ("v2_3", [V2(1, 5), V2(1.000001, 0)]), ("v2_4", [V2(1000, 5), V2(1000.001, 0)]),
                ("v2_5", [V2(1000, 5), V2(1000.02, 0)]), ("v3_6", [V3(0, 1e-6, 9), V3(0, 0, 1)]),
                ("v2_chain_abc", [V2(0, 2), V2(0.000008, 1), V2(0.000016, 0)]),
                ("v2_chain_cba", [V2(0.000016, 0), V2(0.000008, 1), V2(0, 2)]),
                ("v2_nan", [V2(float("nan"), 1), V2(0, 0)]), ("v2_negzero", [V2(0, 0), V2(-0.0, 5), V2(-0.0, 0)]),
                ("v3_approx_z", [V3(1e-6, 0, 3), V3(0, 1e-6, 2), V3(-1e-6, -1e-6, 1)]),
                ("v2_big_neg", [V2(-1000, 1), V2(-1000.005, 0), V2(-999.995, 2)]),
                ("v2_inf", [V2(float("inf"), 0), V2(float("inf"), -1), V2(1e38, 3)]),
                ("v2_many", [V2(i * 3e-6, (7 * i) % 5) for i in range(20)]),
                ("v3_many", [V3((i % 4) * 4e-6, (i % 3) * 5e-6, (11 * i) % 7) for i in range(24)]),
                ("arr_v2", [array(V2(2e-7, 0)), array(V2(1e-7, 1))]),
                ("pv2", [pvec("pvector2", (bits32(2e-7), 0)), pvec("pvector2", (bits32(1e-7), F1))])]:
    case("order_%s" % tag, keys(*ks), "vector key order %s" % tag)
for tag, ks in [("float_near", [fval(2e-7), fval(1e-7), fval(1.0000001), fval(1.0)]),
                ("rect2", [mathf("rect2", 1e-7, 1), mathf("rect2", 2e-7, 0)]),
                ("int_float_mix", [fval(1.5), i32(1), boolean(True), nil(), string(b"a"), fval(-0.0), i32(-1)]),
                ("color", [mathf("color", 1, 0, 0, 1), mathf("color", 0, 1, 0, 1)]),
                ("arrays", [array(i32(2)), array(i32(1)), array(i32(1), i32(0)), array()]),
                ("strings", [string(b"b"), string(b"B"), string(b"a"), string(b"\xc3\xa9"), string(b"")])]:
    case("order_%s" % tag, keys(*ks), "key order %s" % tag)

# Every type as a key: twice at the top, in an array, in an array in an array, as an inner key
# and an inner value.
SAMPLES = [("nil", nil(), nil()), ("bool", boolean(True), boolean(True)), ("int", i32(5), i64(5)),
           ("float", f32(F1), f64(F1_64)), ("string", string(b"abc"), string(b"abc")),
           ("vector2", mathf("vector2", 1, 2), mathf("vector2", 1, 2)), ("rect2", mathf("rect2", 1, 2, 3, 4), mathf("rect2", 1, 2, 3, 4)),
           ("vector3", mathf("vector3", 1, 2, 3), mathf("vector3", 1, 2, 3)),
           ("transform2d", mathf("transform2d", 1, 0, 0, 1, 5, 6), mathf("transform2d", 1, 0, 0, 1, 5, 6)),
           ("plane", mathf("plane", 0, 1, 0, 2), mathf("plane", 0, 1, 0, 2)),
           ("quaternion", mathf("quaternion", 0, 0, 0, 1), mathf("quaternion", 0, 0, 0, 1)),
           ("aabb", mathf("aabb", 1, 2, 3, 4, 5, 6), mathf("aabb", 1, 2, 3, 4, 5, 6)),
           ("basis", mathf("basis", 1, 0, 0, 0, 1, 0, 0, 0, 1), mathf("basis", 1, 0, 0, 0, 1, 0, 0, 0, 1)),
           ("transform3d", mathf("transform3d", *([1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9])), mathf("transform3d", *([1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9]))),
           ("color", mathf("color", 1, 0.5, 0, 1), mathf("color", 1, 0.5, 0, 1)),
           ("nodepath", nodepath(b"abcd", b"efgh"), nodepath(b"abcd", b"efgh")),
           ("rid", rid(7), rid(7)), ("nullobject", objid(0), objid(0)), ("objectid", objid(99), objid(99)),
           ("array", array(i32(1), string(b"x")), array(i32(1), string(b"x"))),
           ("dict", dictionary((i32(1), i32(2))), dictionary((i32(1), i32(2)))),
           ("pbyte", pbytes(1, 2, 3), pbytes(1, 2, 3)), ("pint32", pint32(1, -2), pint32(1, -2)),
           ("pfloat32", pfloat32(F1), pfloat32(F1)), ("pstring", pstring(b"a", b""), pstring(b"a", b"")),
           ("pvector2", pvec("pvector2", (F1, 0)), pvec("pvector2", (F1, 0))),
           ("pvector3", pvec("pvector3", (F1, 0, 0)), pvec("pvector3", (F1, 0, 0))),
           ("pcolor", pvec("pcolor", (F1, 0, 0, F1)), pvec("pcolor", (F1, 0, 0, F1)))]
SAMPLES4 = [("stringname", sname(b"abc"), sname(b"abc")), ("vector2i", ivec("vector2i", 1, 2), ivec("vector2i", 1, 2)),
            ("rect2i", ivec("rect2i", 1, 2, 3, 4), ivec("rect2i", 1, 2, 3, 4)),
            ("vector3i", ivec("vector3i", 1, 2, 3), ivec("vector3i", 1, 2, 3)),
            ("vector4", mathf("vector4", 1, 2, 3, 4), mathf("vector4", 1, 2, 3, 4)),
            ("vector4i", ivec("vector4i", 1, 2, 3, 4), ivec("vector4i", 1, 2, 3, 4)),
            ("projection", mathf("projection", *range(16)), mathf("projection", *range(16))),
            ("callable", callable_(), callable_()), ("signal", signal(b"abcd", 5), signal(b"abcd", 5)),
            ("pint64", pint64(1, -2), pint64(1, -2)), ("pfloat64", pfloat64(F1_64), pfloat64(F1_64)),
            ("pvector4", pvec("pvector4", (F1, 0, 0, 0)), pvec("pvector4", (F1, 0, 0, 0)))]
for tag, a, b in SAMPLES + SAMPLES4:
    vs = (4,) if (tag, a, b) in SAMPLES4 else (3, 4)
    case("type_%s_top" % tag, keys(a, b), "%s twice" % tag, vs)
    case("type_%s_arr" % tag, keys(array(a), array(b)), "[%s] twice" % tag, vs)
    case("type_%s_arr2" % tag, keys(array(array(a)), array(array(b))), "[[%s]] twice" % tag, vs)
    case("type_%s_dictkey" % tag, keys(dictionary((a, i32(0))), dictionary((b, i32(0)))), "{%s: 0} twice" % tag, vs)
    case("type_%s_dictval" % tag, keys(dictionary((i32(0), a)), dictionary((i32(0), b))), "{0: %s} twice" % tag, vs)
# Every type against every other type at the top level (order and identity).
# (Objects other than null left out: Godot re-encodes the id of the EncodedObjectAsID it made,
# and Godot 3 orders objects by address.)
ALL3 = [a for t, a, _ in SAMPLES if t != "objectid"]
ALL4 = ALL3 + [a for _, a, _ in SAMPLES4]
case("types_all_top", keys(*ALL3), "one key of every Godot 3 type (Godot 4 reads other types)")
case("types_all_top4", keys(*ALL4), "one key of every type", (4,))
case("types_all_arr4", keys(*[array(a) for a in ALL4]), "[one value] of every type", (4,))
case("types_all_arr3", keys(*[array(a) for a in ALL3]), "[one value] of every Godot 3 type", (3,))


def cases(ver):
    out = []
    for name, build, note, versions in CASES:
        if ver in versions:
            out.append({"name": name, "b64": base64.b64encode(build(ver)).decode(), "note": note})
    return out


if __name__ == "__main__":
    import json
    import sys
    for c in cases(int(sys.argv[1]) if len(sys.argv) > 1 else 4):
        print(json.dumps(c))
