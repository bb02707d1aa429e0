"""Crafted inputs for the typed-container conversion probe (Godot 4.6 only).

cases() returns (name, input hex, allow_objects, note) tuples, the format of
../cases.py. Every element value is a complete Godot 4 wire Variant (header
included) so it can sit inside an Array or Dictionary body.

Questions (see README.md):
  1. typed Array, kind 1 (BUILTIN), element type T in 1..38, one element of every
     type U in 0..38 (several values for some U); plus some 3-element arrays
  2. typed Dictionary keys (types bool/int/float/String/StringName/Vector2) and
     values (int/float/String/StringName) holding every U
  3. Object-typed arrays (kind 2 class name, and kind 1 type OBJECT)
  4. exact int <-> float conversions (covered by the values of 1: see VALUES)
"""
import struct

ARRAY, DICT, OBJECT = 28, 27, 24

TYPE_NAMES = ["Nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i", "Vector3",
              "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion", "AABB", "Basis",
              "Transform3D", "Projection", "Color", "StringName", "NodePath", "RID", "Object", "Callable",
              "Signal", "Dictionary", "Array", "PackedByteArray", "PackedInt32Array", "PackedInt64Array",
              "PackedFloat32Array", "PackedFloat64Array", "PackedStringArray", "PackedVector2Array",
              "PackedVector3Array", "PackedColorArray", "PackedVector4Array"]


def u32(x):
    return struct.pack("<I", x & 0xFFFFFFFF).hex()


def u64(x):
    return struct.pack("<Q", x & 0xFFFFFFFFFFFFFFFF).hex()


def i32(x):
    return struct.pack("<i", x).hex()


def f32(*xs):
    return "".join(struct.pack("<f", x).hex() for x in xs)


def f64(x):
    return struct.pack("<d", x).hex()


def gstr(b):
    """marshalls string: u32 length + bytes + zero padding to 4"""
    return u32(len(b)) + b.hex() + "00" * ((4 - len(b) % 4) % 4)


def v_int(x):
    if -2**31 <= x < 2**31:
        return u32(2) + i32(x)
    return u32(2 | 1 << 16) + u64(x)


def v_float(x, wide=None):
    """f32 iff exact in f32 (and not NaN), like the encoder; wide forces f64."""
    if wide is None:
        try:
            wide = x != x or struct.unpack("<f", struct.pack("<f", x))[0] != x
        except OverflowError:
            wide = True
    return u32(3 | 1 << 16) + f64(x) if wide else u32(3) + struct.pack("<f", x).hex()


def v_str(s, t=4):
    return u32(t) + gstr(s.encode())


NAN = float("nan")
INF = float("inf")

# (tag, U, wire hex, description). Tags are unique and used in case names.
VALUES = [
    ("nil", 0, u32(0), "Nil"),
    ("bool_true", 1, u32(1) + u32(1), "bool true"),
    ("bool_false", 1, u32(1) + u32(0), "bool false"),
    ("int_7", 2, v_int(7), "int 7"),
    ("int_m3", 2, v_int(-3), "int -3"),
    ("int_0", 2, v_int(0), "int 0"),
    ("int_1", 2, v_int(1), "int 1"),
    ("int_2p53p1", 2, v_int(2**53 + 1), "int 2^53+1 = 9007199254740993 (i64)"),
    ("int_2p24p1", 2, v_int(2**24 + 1), "int 2^24+1 = 16777217"),
    ("int_i64max", 2, v_int(2**63 - 1), "int 2^63-1 (i64)"),
    ("int_i64min", 2, v_int(-2**63), "int -2^63 (i64)"),
    ("int_3e9", 2, v_int(3000000000), "int 3000000000 (i64)"),
    ("float_1_5", 3, v_float(1.5), "float 1.5 (f32)"),
    ("float_m2_7", 3, v_float(-2.7, True), "float -2.7 (f64)"),
    ("float_2_5", 3, v_float(2.5), "float 2.5 (f32)"),
    ("float_m2_5", 3, v_float(-2.5), "float -2.5 (f32)"),
    ("float_m0_5", 3, v_float(-0.5), "float -0.5 (f32)"),
    ("float_0_7", 3, v_float(0.7, True), "float 0.7 (f64)"),
    ("float_m0_0", 3, v_float(-0.0), "float -0.0 (f32)"),
    ("float_0", 3, v_float(0.0), "float 0.0 (f32)"),
    ("float_1e20", 3, v_float(1e20, True), "float 1e20 (f64)"),
    ("float_m1e20", 3, v_float(-1e20, True), "float -1e20 (f64)"),
    ("float_3e9", 3, v_float(3e9), "float 3e9 (f32-exact)"),
    ("float_2p63", 3, v_float(2.0**63), "float 2^63 (f32)"),
    ("float_m2p63", 3, v_float(-2.0**63), "float -2^63 (f32)"),
    ("float_2p53p2", 3, v_float(2.0**53 + 2, True), "float 2^53+2 (f64)"),
    ("float_nan", 3, v_float(NAN, True), "float NaN (f64, 7ff8000000000000)"),
    ("float_inf", 3, v_float(INF), "float +inf (f32)"),
    ("float_minf", 3, v_float(-INF), "float -inf (f32)"),
    ("float_1e300", 3, v_float(1e300, True), "float 1e300 (f64)"),
    ("float_300_7", 3, v_float(300.7, True), "float 300.7 (f64)"),
    ("float_2p32p5", 3, v_float(2.0**32 + 5, True), "float 2^32+5 = 4294967301.0 (f64)"),
    ("float_m2p31m1", 3, v_float(-2.0**31 - 1, True), "float -2^31-1 (f64)"),
    ("string_12", 4, v_str("12"), "String \"12\""),
    ("string_ab", 4, v_str("ab"), "String \"ab\""),
    ("string_1_5", 4, v_str("1.5"), "String \"1.5\""),
    ("string_empty", 4, v_str(""), "String \"\""),
    ("string_path", 4, v_str("a/b:c"), "String \"a/b:c\""),
    ("string_html6", 4, v_str("ff8000"), "String \"ff8000\""),
    ("string_html3", 4, v_str("#abc"), "String \"#abc\""),
    ("string_html8", 4, v_str("#ff000080"), "String \"#ff000080\""),
    ("string_red", 4, v_str("red"), "String \"red\""),
    ("string_hex", 4, v_str("0x1F"), "String \"0x1F\""),
    ("string_sp12", 4, v_str(" 12"), "String \" 12\""),
    ("string_12abc", 4, v_str("12abc"), "String \"12abc\""),
    ("string_m3_7", 4, v_str("-3.7"), "String \"-3.7\""),
    ("string_1e3", 4, v_str("1e3"), "String \"1e3\""),
    ("string_big", 4, v_str("99999999999999999999"), "String \"99999999999999999999\""),
    ("string_true", 4, v_str("true"), "String \"true\""),
    ("vector2", 5, u32(5) + f32(1.5, 2), "Vector2(1.5, 2)"),
    ("vector2_neg", 5, u32(5) + f32(-2.7, 3.5), "Vector2(-2.7f, 3.5)"),
    ("vector2_big", 5, u32(5) + f32(1e10, NAN), "Vector2(1e10f, NaN)"),
    ("vector2_bigneg", 5, u32(5) + f32(-1e10, INF), "Vector2(-1e10f, +inf)"),
    ("vector2i", 6, u32(6) + i32(3) + i32(4), "Vector2i(3, 4)"),
    ("rect2", 7, u32(7) + f32(1.5, 2, 3, 4), "Rect2(1.5, 2, 3, 4)"),
    ("rect2_big", 7, u32(7) + f32(-2.7, 1e10, NAN, -0.5), "Rect2(-2.7f, 1e10f, NaN, -0.5)"),
    ("rect2i", 8, u32(8) + i32(1) + i32(2) + i32(3) + i32(4), "Rect2i(1, 2, 3, 4)"),
    ("vector3", 9, u32(9) + f32(1.5, 2, 3), "Vector3(1.5, 2, 3)"),
    ("vector3_big", 9, u32(9) + f32(-2.7, 1e10, NAN), "Vector3(-2.7f, 1e10f, NaN)"),
    ("vector3i", 10, u32(10) + i32(3) + i32(4) + i32(5), "Vector3i(3, 4, 5)"),
    ("transform2d", 11, u32(11) + f32(1, 2, 3, 4, 5, 6), "Transform2D x=(1,2) y=(3,4) origin=(5,6)"),
    ("vector4", 12, u32(12) + f32(1.5, 2, 3, 4), "Vector4(1.5, 2, 3, 4)"),
    ("vector4_big", 12, u32(12) + f32(-2.7, -1e10, NAN, -INF), "Vector4(-2.7f, -1e10f, NaN, -inf)"),
    ("vector4i", 13, u32(13) + i32(3) + i32(4) + i32(5) + i32(6), "Vector4i(3, 4, 5, 6)"),
    ("plane", 14, u32(14) + f32(0, 1, 0, 2), "Plane normal (0,1,0) d 2"),
    ("quaternion", 15, u32(15) + f32(0, 0, 0.6, 0.8), "Quaternion(0, 0, 0.6, 0.8) (normalized)"),
    ("quaternion_raw", 15, u32(15) + f32(1, 2, 3, 4), "Quaternion(1, 2, 3, 4) (not normalized)"),
    ("aabb", 16, u32(16) + f32(1, 2, 3, 4, 5, 6), "AABB pos (1,2,3) size (4,5,6)"),
    ("basis", 17, u32(17) + f32(1, 2, 3, 4, 5, 6, 7, 8, 9), "Basis wire 1..9"),
    ("basis_rot", 17, u32(17) + f32(0, -1, 0, 1, 0, 0, 0, 0, 1), "Basis 90deg rotation about z"),
    ("transform3d", 18, u32(18) + f32(*range(1, 13)), "Transform3D wire 1..12"),
    ("projection", 19, u32(19) + f32(*range(1, 17)), "Projection wire 1..16"),
    ("color", 20, u32(20) + f32(1, 0.5, 0.25, 1), "Color(1, 0.5, 0.25, 1)"),
    ("color_odd", 20, u32(20) + f32(2, -0.5, 0.3, NAN), "Color(2, -0.5, 0.3f, NaN)"),
    ("stringname_ab", 21, v_str("ab", 21), "StringName &\"ab\""),
    ("stringname_12", 21, v_str("12", 21), "StringName &\"12\""),
    ("nodepath", 22, u32(22) + u32(0x80000002) + u32(1) + u32(0) + gstr(b"a") + gstr(b"b") + gstr(b"c"),
     "NodePath a/b:c"),
    ("rid", 23, u32(23) + u64(0x123456789), "RID id 0x123456789"),
    ("object_id", 24, u32(24 | 1 << 16) + u64(12345), "object-as-id 12345 (EncodedObjectAsID)"),
    ("object_null", 24, u32(24 | 1 << 16) + u64(0), "object-as-id 0 (null Object)"),
    ("callable", 25, u32(25), "Callable (header only)"),
    ("signal", 26, u32(26) + gstr(b"sig") + u64(1234), "Signal sig, object id 1234"),
    ("dictionary", 27, u32(27) + u32(1) + v_str("k") + v_int(7), "Dictionary {\"k\": 7}"),
    ("dictionary_empty", 27, u32(27) + u32(0), "Dictionary {}"),
    ("array", 28, u32(28) + u32(1) + v_int(7), "Array [7]"),
    ("array_mixed", 28, u32(28) + u32(2) + v_float(1.5) + v_str("ab"), "Array [1.5, \"ab\"]"),
    ("array_empty", 28, u32(28) + u32(0), "Array []"),
    ("array_typed_int", 28, u32(28 | 1 << 16) + u32(2) + u32(1) + v_int(7), "Array[int] [7]"),
    ("pbytes", 29, u32(29) + u32(2) + "0102" + "0000", "PackedByteArray [1, 2]"),
    ("pint32", 30, u32(30) + u32(2) + i32(7) + i32(-3), "PackedInt32Array [7, -3]"),
    ("pint64", 31, u32(31) + u32(2) + u64(7) + u64(2**40), "PackedInt64Array [7, 2^40]"),
    ("pfloat32", 32, u32(32) + u32(2) + f32(1.5, -2.5), "PackedFloat32Array [1.5, -2.5]"),
    ("pfloat64", 33, u32(33) + u32(2) + f64(1.5) + f64(-2.7), "PackedFloat64Array [1.5, -2.7]"),
    ("pstring", 34, u32(34) + u32(2) + gstr(b"a\x00") + gstr(b"12\x00"), "PackedStringArray [\"a\", \"12\"]"),
    ("pvector2", 35, u32(35) + u32(1) + f32(1.5, 2), "PackedVector2Array [(1.5, 2)]"),
    ("pvector3", 36, u32(36) + u32(1) + f32(1.5, 2, 3), "PackedVector3Array [(1.5, 2, 3)]"),
    ("pcolor", 37, u32(37) + u32(1) + f32(1, 0.5, 0.25, 1), "PackedColorArray [(1, 0.5, 0.25, 1)]"),
    ("pvector4", 38, u32(38) + u32(1) + f32(1, 2, 3, 4), "PackedVector4Array [(1, 2, 3, 4)]"),
]
VAL = {t: (u, h, d) for t, u, h, d in VALUES}
assert len(VAL) == len(VALUES)
assert sorted({u for _, u, _, _ in VALUES}) == list(range(39))


def typed_array(t, elems):
    return u32(ARRAY | 1 << 16) + u32(t) + u32(len(elems)) + "".join(elems)


def typed_dict(kt, vt, pairs):
    """kt / vt: None = untyped (kind 0), else builtin type id (kind 1)."""
    hdr = DICT | (0 if kt is None else 1 << 16) | (0 if vt is None else 1 << 18)
    info = ("" if kt is None else u32(kt)) + ("" if vt is None else u32(vt))
    return u32(hdr) + info + u32(len(pairs)) + "".join(k + v for k, v in pairs)


def cases():
    out = []

    def c(name, h, allow, note):
        out.append((name, h, allow, note))

    # 1. every builtin element type T, one element of every value
    for t in range(1, 39):
        for tag, u, h, d in VALUES:
            c("arr_t%02d_%s" % (t, tag), typed_array(t, [h]), False,
              "Array[%s] (kind 1, type %d) holding 1 element: %s (type %d %s)" % (TYPE_NAMES[t], t, d, u, TYPE_NAMES[u]))
    # 1b. 3-element arrays: order, and that a drop does not shift/abort the rest
    three = [
        (2, ["int_7", "string_ab", "float_1_5"]),
        (2, ["string_ab", "float_m2_7", "int_m3"]),
        (2, ["float_nan", "int_7", "float_1e20"]),
        (2, ["nil", "bool_true", "int_7"]),
        (3, ["int_7", "string_12", "float_1_5"]),
        (3, ["int_2p53p1", "bool_true", "nil"]),
        (4, ["stringname_ab", "int_7", "string_12"]),
        (4, ["nodepath", "string_ab", "stringname_12"]),
        (21, ["string_ab", "int_7", "stringname_12"]),
        (22, ["string_path", "stringname_ab", "int_7"]),
        (5, ["vector2i", "vector3", "vector2"]),
        (6, ["vector2", "vector2_neg", "vector2i"]),
        (24, ["object_id", "object_null", "nil"]),
        (24, ["int_7", "object_id", "string_ab"]),
        (28, ["array", "pint32", "dictionary"]),
        (30, ["pint64", "array", "pfloat32"]),
        (34, ["array", "pstring", "string_ab"]),
        (1, ["int_0", "float_0_7", "bool_true"]),
    ]
    for i, (t, tags) in enumerate(three):
        c("arr3_%02d_t%02d_%s" % (i, t, "_".join(tags)), typed_array(t, [VAL[x][1] for x in tags]), False,
          "Array[%s] holding 3 elements: %s" % (TYPE_NAMES[t], ", ".join(VAL[x][2] for x in tags)))
    # 1c. Array -> Packed*Array: how each element of the source Array is converted
    for t in range(29, 39):
        for tag, u, h, d in VALUES:
            c("pk_t%02d_%s" % (t, tag), typed_array(t, [u32(ARRAY) + u32(1) + h]), False,
              "Array[%s] holding 1 element: untyped Array [%s]" % (TYPE_NAMES[t], d))
    # 1d. RID from full objects (allow_objects=true)
    for cls in (b"Resource", b"ImageTexture", b"PlaceholderTexture2D", b"Node", b"RefCounted", b"Image"):
        c("arr_t23_allowed_full_%s" % cls.decode(), typed_array(23, [u32(OBJECT) + gstr(cls) + u32(0)]), True,
          "Array[RID] (allow_objects=true) holding a full %s" % cls.decode())
    # 3. Object-typed arrays
    obj_elems = ["nil", "object_id", "object_null", "int_7", "int_0", "string_ab", "stringname_ab", "rid",
                 "callable", "signal", "dictionary", "array", "bool_false"]
    for cls, allows in ((b"EncodedObjectAsID", (False, True)), (b"Node", (False, True)), (b"Object", (False, True)),
                        (b"RefCounted", (True,)), (b"NoSuchClass", (True,))):
        for allow in allows:
            for tag in obj_elems:
                c("objarr_%s_%s_%s" % (cls.decode(), "allowed" if allow else "disallowed", tag),
                  u32(ARRAY | 2 << 16) + gstr(cls) + u32(1) + VAL[tag][1], allow,
                  "Array[%s] (kind 2 class name, allow_objects=%s) holding %s" % (cls.decode(), allow, VAL[tag][2]))
    for allow in (False, True):
        c("objarr_3_%s" % ("allowed" if allow else "disallowed"),
          u32(ARRAY | 2 << 16) + gstr(b"Node") + u32(3) + VAL["object_id"][1] + VAL["int_7"][1] + VAL["object_null"][1],
          allow, "Array[Node] (kind 2) [object-as-id 12345, int 7, object-as-id 0], allow_objects=%s" % allow)
    for tag in ("object_id", "object_null", "nil"):
        c("objarr_full_refcounted_in_node_%s" % tag,
          u32(ARRAY | 2 << 16) + gstr(b"Node") + u32(2) + u32(OBJECT) + gstr(b"RefCounted") + u32(0) + VAL[tag][1], True,
          "Array[Node] (allow_objects=true) [full RefCounted, %s]" % VAL[tag][2])
    c("objarr_full_node_in_node", u32(ARRAY | 2 << 16) + gstr(b"Node") + u32(1) + u32(OBJECT) + gstr(b"Node") + u32(0), True,
      "Array[Node] (allow_objects=true) [full Node]")
    c("objarr_full_node_in_object", u32(ARRAY | 2 << 16) + gstr(b"Object") + u32(1) + u32(OBJECT) + gstr(b"Node") + u32(0), True,
      "Array[Object] (allow_objects=true) [full Node]")
    c("objarr_full_refcounted_in_eoaid", u32(ARRAY | 2 << 16) + gstr(b"EncodedObjectAsID") + u32(1) + u32(OBJECT) + gstr(b"RefCounted") + u32(0), True,
      "Array[EncodedObjectAsID] (allow_objects=true) [full RefCounted]")
    # kind 1 type OBJECT: covered by arr_t24_*; with allow_objects=true too
    for tag in ("object_id", "object_null", "nil", "int_7"):
        c("arr_t24_allowed_%s" % tag, typed_array(OBJECT, [VAL[tag][1]]), True,
          "Array (kind 1, type 24 Object), allow_objects=true, holding %s" % VAL[tag][2])
    c("arr_t24_allowed_full_node", typed_array(OBJECT, [u32(OBJECT) + gstr(b"Node") + u32(0)]), True,
      "Array (kind 1, type 24 Object), allow_objects=true, holding full Node")
    # 2. typed dictionaries
    kv_default_key = v_str("k")
    kv_default_val = v_int(1)
    for kt in (1, 2, 3, 4, 21, 5):
        for tag, u, h, d in VALUES:
            c("dict_k%02d_%s" % (kt, tag), typed_dict(kt, None, [(h, kv_default_val)]), False,
              "Dictionary[%s, Variant] {%s: int 1}" % (TYPE_NAMES[kt], d))
    for vt in (2, 3, 4, 21):
        for tag, u, h, d in VALUES:
            c("dict_v%02d_%s" % (vt, tag), typed_dict(None, vt, [(kv_default_key, h)]), False,
              "Dictionary[Variant, %s] {\"k\": %s}" % (TYPE_NAMES[vt], d))
    # both typed
    for kt, vt, kk, vv in ((2, 4, "float_1_5", "int_7"), (2, 4, "int_7", "stringname_ab"), (2, 4, "string_ab", "string_ab"),
                           (4, 2, "stringname_ab", "float_1_5"), (4, 2, "string_ab", "string_12"),
                           (3, 3, "int_7", "int_7"), (21, 21, "string_ab", "string_12"), (2, 2, "float_nan", "float_nan")):
        c("dict_k%02d_v%02d_%s_%s" % (kt, vt, kk, vv), typed_dict(kt, vt, [(VAL[kk][1], VAL[vv][1])]), False,
          "Dictionary[%s, %s] {%s: %s}" % (TYPE_NAMES[kt], TYPE_NAMES[vt], VAL[kk][2], VAL[vv][2]))
    # key collisions after conversion
    for kt, tags in ((2, ["int_1", "float_1_5"]), (2, ["float_1_5", "int_1"]), (2, ["float_1_5", "string_ab", "float_m2_7"]),
                     (4, ["string_ab", "stringname_ab"]), (21, ["stringname_ab", "string_ab"]), (3, ["float_1_5", "int_7", "string_ab"])):
        pairs = [(VAL[x][1], v_int(i + 1)) for i, x in enumerate(tags)]
        c("dict_k%02d_multi_%s" % (kt, "_".join(tags)), typed_dict(kt, None, pairs), False,
          "Dictionary[%s, Variant] {%s}" % (TYPE_NAMES[kt], ", ".join("%s: int %d" % (VAL[x][2], i + 1) for i, x in enumerate(tags))))
    # object-typed dictionary keys/values (kind 2)
    for where in ("key", "value"):
        for tag in ("object_id", "object_null", "nil", "int_7", "string_ab"):
            if where == "key":
                h = u32(DICT | 2 << 16) + gstr(b"EncodedObjectAsID") + u32(1) + VAL[tag][1] + kv_default_val
            else:
                h = u32(DICT | 2 << 18) + gstr(b"EncodedObjectAsID") + u32(1) + kv_default_key + VAL[tag][1]
            c("dict_obj%s_%s" % (where, tag), h, False,
              "Dictionary with %s kind 2 EncodedObjectAsID (allow_objects=false), %s %s" % (where, where, VAL[tag][2]))
    names = [x[0] for x in out]
    assert len(names) == len(set(names))
    return out


if __name__ == "__main__":
    cs = cases()
    print(len(cs), "cases")
