"""Follow-up inputs for the typed-container conversion probe (Godot 4.6 only).

cases() returns (name, input hex, allow_objects, note) tuples, the format of
cases_typed.py. They settle what godot4.jsonl leaves open, each by decoding a
typed container whose elements Godot converts:

  str_*      Array[PackedStringArray] holding an untyped Array: the text Godot gives
             each element (Variant::stringify): floats of every magnitude, reals of
             vectors near powers of ten, colours, escapes, NodePaths, nesting depth
  toint_*    Array[PackedInt64Array] / [PackedInt32Array] / [PackedByteArray] holding
             an Array of Strings: String::to_int
  tofloat_*  Array[PackedFloat64Array] / [PackedFloat32Array] holding Strings and ints:
             String::to_float, int -> f32
  color_*    Array[Color] holding Strings (every named colour, spellings, HTML codes)
             and ints
  np_*       Array[NodePath] holding Strings; Array[String] holding NodePaths
  quat_*, basis_*, xf_*  Quaternion / Basis / Transform3D / Projection / Transform2D
             conversions on many values, f64 reals on the wire included
  vec_*      integer <-> real vectors with f64 reals on the wire
  rid_full_* Array[RID] holding a full object of every class the decoder instantiates
  cls_*      class-typed arrays holding full objects (allow_objects=true)
  dk_*       typed dictionary keys colliding after conversion
  nest_*     typed containers inside typed containers
"""
import math
import os
import struct

from cases_typed import (ARRAY, DICT, OBJECT, gstr, i32, typed_array, typed_dict, u32, u64,
                         v_float, v_int, v_str)

HERE = os.path.dirname(os.path.abspath(__file__))

T_STRING, T_VECTOR2, T_VECTOR2I, T_RECT2, T_RECT2I, T_VECTOR3, T_VECTOR3I = 4, 5, 6, 7, 8, 9, 10
T_TRANSFORM2D, T_VECTOR4, T_VECTOR4I, T_PLANE, T_QUATERNION, T_AABB, T_BASIS = 11, 12, 13, 14, 15, 16, 17
T_TRANSFORM3D, T_PROJECTION, T_COLOR, T_STRINGNAME, T_NODEPATH, T_RID = 18, 19, 20, 21, 22, 23
T_PBYTES, T_PINT32, T_PINT64, T_PFLOAT32, T_PFLOAT64, T_PSTRING = 29, 30, 31, 32, 33, 34
T_PVECTOR2, T_PVECTOR3, T_PCOLOR, T_PVECTOR4 = 35, 36, 37, 38


def reals(t, xs, wide=False):
    """A real-valued math value: header (bit 16 for f64) and components."""
    if wide:
        return u32(t | 1 << 16) + "".join(struct.pack("<d", x).hex() for x in xs)
    return u32(t) + "".join(struct.pack("<f", x).hex() for x in xs)


def ints(t, xs):
    return u32(t) + "".join(i32(x) for x in xs)


def untyped(elems):
    return u32(ARRAY) + u32(len(elems)) + "".join(elems)


def node_path(names, subnames, absolute=False):
    count = len(names) | (0x80000000)
    return (u32(22) + u32(count) + u32(len(subnames)) + u32(1 if absolute else 0)
            + "".join(gstr(n.encode()) for n in names + subnames))


def f32_below(x, m):
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", b - m))[0]


def f64_below(x, m):
    b = struct.unpack("<Q", struct.pack("<d", x))[0]
    return struct.unpack("<d", struct.pack("<Q", b - m))[0]


def f32r(x):
    """x rounded to f32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def named_colors():
    """Godot 4.6's colour names (core/math/color_names.inc, from the crate's table)."""
    src = open(os.path.join(HERE, "../../../src/view/game/color.rs")).read()
    return [line.split('"')[1] for line in src.splitlines() if line.strip().startswith('("')]


def cases():
    out = []

    def c(name, h, note, allow=False):
        out.append((name, h, allow, note))

    # ---- text of values (Array[PackedStringArray] holding an untyped Array)
    def text(name, elems, note):
        c("str_" + name, typed_array(T_PSTRING, [untyped(elems)]), note)

    floats = [0.1, 1 / 3, 123456.789, 1e-5, 1e-20, -1e-20, 1.5e15, 123456789012345.6, 9.99999999999999e14,
              2.0 ** 53, 12345.678901234567, 0.000123, -0.5, 0.05, 2.675, 0.125, 1e22, 1e23, 5e-324,
              1.7976931348623157e308, 99.5, 10.5, 10.0000001, 999999999999999.9, 0.1 + 0.2, 1e15 + 0.3]
    floats += [f64_below(100.0, m) for m in range(1, 5)] + [f64_below(1e4, m) for m in range(1, 7)]
    floats += [f64_below(1e5, m) for m in range(1, 7)] + [f64_below(1e14, m) for m in range(1, 7)]
    text("floats", [v_float(x, True) for x in floats], "floats (f64) of many magnitudes")
    text("floats_f32", [v_float(f32r(x), False) for x in (0.1, 1 / 3, 123456.789, 1e-7, 3.4e38, 0.3)],
         "floats sent as f32")
    below = [f32_below(10.0 ** k, m) for k in range(1, 8) for m in range(1, 5)]
    for i in range(0, len(below), 4):
        text("vec4_below_%02d" % i, [reals(T_VECTOR4, below[i:i + 4])], "Vector4 of f32 just below powers of ten")
    odd = [0.1, 123456.7, 1e-7, 0.123456789, 1e-3, 1.0000001, 16777215.0, 33554432.0, 1e38, 2.5e-8, 0.5e-6, 7.0]
    for i in range(0, len(odd), 4):
        text("vec4_odd_%02d" % i, [reals(T_VECTOR4, odd[i:i + 4])], "Vector4 of assorted f32")
    text("vector2_wide", [reals(T_VECTOR2, [0.1, 1e300], True)], "Vector2 with f64 reals")
    text("quaternion", [reals(T_QUATERNION, [0.123456789, -1e-7, 123456.7, 10.5])], "Quaternion, no trailing .0")
    text("plane", [reals(T_PLANE, [0.1, 0.2, 0.3, 0.123456789])], "Plane D")
    text("plane_int_d", [reals(T_PLANE, [1, 2, 3, -4])], "Plane integral D")
    text("colors", [reals(T_COLOR, [0.123456, 0.99995, 0.00005, 1e-5]), reals(T_COLOR, [0.33333, -0.5, 2.5, 1e10]),
                    reals(T_COLOR, [float("inf"), float("-inf"), 0.00004999, 123.45678])], "Color (4 decimals)")
    text("rects", [reals(T_RECT2, [0.1, -0.0, 1e10, 3.5]), ints(T_RECT2I, [-1, 2, -3, 4]),
                   reals(T_AABB, [0.1, 0.2, 0.3, -1, -2, -3])], "Rect2, Rect2i, AABB")
    text("transforms", [reals(T_TRANSFORM2D, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
                        reals(T_BASIS, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]),
                        reals(T_TRANSFORM3D, [x / 7 for x in range(12)]),
                        reals(T_PROJECTION, [x / 3 for x in range(16)])], "transforms")
    text("ints", [ints(T_VECTOR2I, [-2147483648, 2147483647]), ints(T_VECTOR3I, [0, -1, 1]),
                  ints(T_VECTOR4I, [1, 2, 3, 4]), v_int(-2 ** 63), v_int(2 ** 63 - 1)], "integer vectors, ints")
    text("strings_nested", [untyped([v_str(s) for s in
                                     ["a\"b", "back\\slash", "q?", "tab\t", "nl\n", "cr\r", "\a\b\f\v", "it's", "é日", "", "%s {}"]])],
         "strings inside an Array: c_escape, quotes")
    text("strings_top", [v_str(s) for s in ["a\"b", "q?", "nl\n", "\\"]], "strings at the top: bare")
    text("stringnames", [untyped([v_str("x\"y", 21), v_str("", 21)]), v_str("top", 21)], "StringName: & and bare")
    text("nodepaths", [untyped([node_path(["a", "b"], ["c"]), node_path(["q\"t"], [], True)]),
                       node_path(["a"], ["x"], True)], "NodePath: ^ and bare")
    text("nodepath_texts", [node_path(["", "a"], []), node_path(["a", ""], []), node_path(["a"], [""]),
                            node_path(["a"], ["", "x"]), node_path(["a"], ["x", ""]), node_path([], [], True),
                            node_path([], ["s"]), node_path([], [], False), node_path(["a"], ["", ""])],
         "text of NodePaths with empty names and subnames")
    text("rids", [u32(23) + u64(2 ** 63 + 5), u32(23) + u64(0), u32(23) + u64(2 ** 64 - 1)], "RID(id) as int64")
    text("signals", [u32(26) + gstr(b"sig\"x") + u64(0), u32(26) + gstr(b"") + u64(1),
                     untyped([u32(26) + gstr(b"s") + u64(7)])], "Signal text")
    text("callables", [u32(25), untyped([u32(25)])], "Callable text")
    text("nils", [u32(0), untyped([u32(0), u32(1) + u32(1)]), u32(24 | 1 << 16) + u64(0)], "null, bool, null object")
    text("dicts", [u32(DICT) + u32(2) + v_str("k") + v_float(0.1, True) + v_int(3) + untyped([]),
                   u32(DICT) + u32(1) + u32(DICT) + u32(0) + u32(DICT) + u32(0),
                   typed_dict(2, 4, [(v_int(1), v_str("one"))])], "Dictionary text")
    text("packed", [u32(T_PFLOAT32) + u32(2) + struct.pack("<ff", 0.1, 1e-7).hex(),
                    u32(T_PFLOAT64) + u32(1) + struct.pack("<d", 0.1).hex(),
                    u32(T_PBYTES) + u32(3) + "00ff7f00",
                    u32(T_PINT32) + u32(1) + i32(-5), u32(T_PINT64) + u32(1) + u64(2 ** 63),
                    u32(T_PSTRING) + u32(2) + gstr(b"a\"\x00") + gstr(b"?\x00"),
                    u32(T_PVECTOR2) + u32(1) + struct.pack("<ff", 0.1, 2).hex(),
                    u32(T_PVECTOR3) + u32(1) + struct.pack("<fff", 0.1, 2, 3).hex(),
                    u32(T_PVECTOR4) + u32(1) + struct.pack("<ffff", 0.1, 2, 3, 4).hex(),
                    u32(T_PCOLOR) + u32(1) + struct.pack("<ffff", 0.1, 0.2, 0.3, 0.4).hex()],
         "packed arrays' text")
    text("typed_array", [typed_array(3, [v_float(0.5), v_float(0.1, True)])], "typed Array text")
    for depth in (98, 99, 100, 101, 102):
        inner = u32(ARRAY) + u32(0)
        for _ in range(depth):
            inner = u32(ARRAY) + u32(1) + inner
        text("depth_array_%d" % depth, [inner], "Array %d levels deep inside the element" % depth)
        inner = u32(DICT) + u32(0)
        for _ in range(depth):
            inner = u32(DICT) + u32(1) + v_int(1) + inner
        text("depth_dict_%d" % depth, [inner], "Dictionary values %d levels deep" % depth)
    text("object_nested", [untyped([u32(24 | 1 << 16) + u64(5)])], "instance id inside an Array")

    # ---- String::to_int (PackedInt64Array, PackedInt32Array, PackedByteArray)
    int_texts = ["", "-", "--5", "5-", "1-2", "-0", "0-5", "00012", "9223372036854775807", "9223372036854775808",
                 "-9223372036854775808", "-9223372036854775809", "92233720368547758070", "-92233720368547758080",
                 "0000000000000000000001", "00000000000000000000009223372036854775807", "١٢٣", "１２", "1.2.3", ".5",
                 "-.5", "+5", " -5", "a-5", "-a5", "5e3", "1_000", "12345678901234567890123", "-1", "4294967297",
                 "2147483648", "-2147483649", "255", "256", "-3"]
    for t, name in ((T_PINT64, "i64"), (T_PINT32, "i32"), (T_PBYTES, "u8")):
        c("toint_%s" % name, typed_array(t, [untyped([v_str(s) for s in int_texts])]),
          "String::to_int of %r" % int_texts)
    int_floats = [-2.7, 300.7, 3e9, 1e20, -1e20, float("nan"), float("inf"), float("-inf"), -0.5, 255.9, 256.0,
                  2.0 ** 31, -2.0 ** 31 - 1, 2.0 ** 32 + 7, -1.0]
    for t, name in ((T_PINT64, "i64"), (T_PINT32, "i32"), (T_PBYTES, "u8")):
        c("toint_floats_%s" % name, typed_array(t, [untyped([v_float(x, True) for x in int_floats])]),
          "float to %s" % name)

    # ---- String::to_float, int -> float
    float_texts = ["", "-", "-x", ".", "-.", "1.", ".5", "1.5e", "1.5e+", "1.5e-", "1.5ex", "1e-5", "1e308", "1e309",
                   "1e-400", "1e512", "1e-512", "1e999999999", "1e2147483647", "1e4294967296", "0.1", "0.3",
                   "1.7976931348623157e308", "123456789012345678901234567890", "0.000000000000000000001234",
                   "3.14159265358979323846", "  \t\n7", "+-5", "-+5", "1e+5", "1E5", "1e5.5", "12.34.56", "1,5",
                   "2.2250738585072014e-308", "4.9e-324", "NaN", "inf", "0x10", "١٢", "8.5e-150", "1e-22", "1e23",
                   "9007199254740993", "123456789012345678", "1.23e-300", "0.1e1", "00000.5", "5.", "-0"]
    for t, name in ((T_PFLOAT64, "f64"), (T_PFLOAT32, "f32")):
        c("tofloat_%s" % name, typed_array(t, [untyped([v_str(s) for s in float_texts])]),
          "String::to_float of %r" % float_texts)
    big_ints = [2 ** 60 + 2 ** 36 + 1, 2 ** 53 + 1, 2 ** 24 + 1, -(2 ** 60 + 2 ** 36 + 1), 2 ** 63 - 1, 16777217 * 3]
    for t, name in ((T_PFLOAT64, "f64"), (T_PFLOAT32, "f32")):
        c("tofloat_ints_%s" % name, typed_array(t, [untyped([v_int(x) for x in big_ints] + [u32(1) + u32(1)])]),
          "int and bool to %s" % name)
    c("tofloat_floats_f32", typed_array(T_PFLOAT32, [untyped([v_float(x, True) for x in (0.1, 1e300, -1e-300, 3.4028235677973366e38)])]),
      "float to f32")

    # ---- Color from text and int
    names = named_colors()
    c("color_names", typed_array(T_COLOR, [v_str(n) for n in names]), "every named colour, as in the table")
    c("color_names_lower", typed_array(T_COLOR, [v_str(n.lower().replace("_", "")) for n in names]), "lower, no _")
    c("color_names_spaced", typed_array(T_COLOR, [v_str(n.title().replace("_", " ")) for n in names]), "Title Case Spaces")
    spellings = ["alice-blue", "alice.blue", "alice'blue", "ALICE__BLUE", " white ", "whıte", "ſnow", "ſilver",
                 "ＷＨＩＴＥ", "\u212Ahaki", "khaki", "WHITE!", "white2", "", "#FFF", "fff", "#ffff", "#12345678",
                 "#1234567", "##fff", "#", "#gggggg", "ＦＦＦ", " #fff", "#AbCdEf", "0x1F", "123", "1234", "12345",
                 "transparent", "Web Gray", "webgray", "grey", "DarkGrey", "rebeccapurple", "navy", "navyblue",
                 "#fFf", "abc", "abcd", "abcdef", "abcdefab", "ABCDEFAB"]
    c("color_spellings", typed_array(T_COLOR, [v_str(s) for s in spellings]), "colour spellings %r" % spellings)
    c("color_ints", typed_array(T_COLOR, [v_int(x) for x in (0xFFFFFFFF, 0x80000000, 0x12345678, -1, 2 ** 32 + 5,
                                                               0x7F7F7F7F, 255, 0xFF00FF00)]), "Color::hex")

    # ---- NodePath from String, String from NodePath
    np_texts = ["", "/", "//", "a", "/a", "a/", "a//b", "/a/b/", ":", "a:", ":b", "a:b:c", "a::b", "a:b::", "a:b:",
                "/:x", ".", "..", "./a", "a/../b", "a:b/c", "a/b:c/d:e", "é/日", " a ", "::", "a:::", "/a:b"]
    c("np_from_text", typed_array(T_NODEPATH, [v_str(s) for s in np_texts]), "NodePath(String) of %r" % np_texts)
    c("np_to_text", typed_array(T_STRING, [node_path(["", "a"], []), node_path(["a", ""], []), node_path(["a"], [""]),
                                           node_path(["a"], ["", "x"]), node_path([], [], True), node_path([], ["s"]),
                                           node_path(["a"], ["", ""]), node_path([], [], False),
                                           node_path(["é"], ["日"], True)]),
      "String(NodePath)")
    c("np_to_stringname", typed_array(T_STRINGNAME, [v_str(s) for s in ("a", "", "é日", "a b")]), "StringName(String)")

    # ---- Quaternion <-> Basis, transforms
    import random
    rnd = random.Random(4)
    bases = [[1, 0, 0, 0, 1, 0, 0, 0, 1], [0] * 9, [-1, 0, 0, 0, -1, 0, 0, 0, 1], [-1, 0, 0, 0, 1, 0, 0, 0, -1],
             [1, 0, 0, 0, -1, 0, 0, 0, -1], [-3, 1, 2, 1, -5, 0.5, 2, 0.5, -1], [0, 1, 0, 0, 0, 1, 1, 0, 0],
             [float("nan")] + [0] * 8, [float("inf"), 0, 0, 0, 1, 0, 0, 0, 1], [1e-30] * 9, [1e30] * 9]
    bases += [[rnd.uniform(-2, 2) for _ in range(9)] for _ in range(12)]
    c("quat_from_basis", typed_array(T_QUATERNION, [reals(T_BASIS, b) for b in bases]), "Quaternion(Basis), f32")
    c("quat_from_basis_wide", typed_array(T_QUATERNION, [reals(T_BASIS, b, True) for b in bases[5:]]),
      "Quaternion(Basis), f64 reals")
    quats = [[0, 0, 0, 1], [0, 0, 0, 0], [1, 2, 3, 4], [1e-30, 0, 0, 0], [1e30, 1e30, 0, 0], [float("nan"), 0, 0, 1],
             [0.5, 0.5, 0.5, 0.5], [-0.1, 0.7, 0.2, -0.6]]
    quats += [[rnd.uniform(-1, 1) for _ in range(4)] for _ in range(12)]
    c("basis_from_quat", typed_array(T_BASIS, [reals(T_QUATERNION, q) for q in quats]), "Basis(Quaternion), f32")
    c("basis_from_quat_wide", typed_array(T_BASIS, [reals(T_QUATERNION, q, True) for q in quats[6:]]),
      "Basis(Quaternion), f64 reals")
    c("xf_from_quat", typed_array(T_TRANSFORM3D, [reals(T_QUATERNION, q) for q in quats[:10]]), "Transform3D(Quaternion)")
    c("xf_from_basis", typed_array(T_TRANSFORM3D, [reals(T_BASIS, b, True) for b in bases[:8]]), "Transform3D(Basis), f64")
    c("xf_from_2d", typed_array(T_TRANSFORM3D, [reals(T_TRANSFORM2D, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], True)]),
      "Transform3D(Transform2D), f64")
    c("xf_from_projection", typed_array(T_TRANSFORM3D, [reals(T_PROJECTION, [x / 3 for x in range(16)], True)]),
      "Transform3D(Projection), f64")
    c("projection_from_xf", typed_array(T_PROJECTION, [reals(T_TRANSFORM3D, [x / 7 for x in range(12)], True)]),
      "Projection(Transform3D), f64")
    c("xf2d_from_xf", typed_array(T_TRANSFORM2D, [reals(T_TRANSFORM3D, [x / 7 for x in range(12)], True)]),
      "Transform2D(Transform3D), f64")

    # ---- vectors with f64 reals
    vals = [0.9999999999, 2147483647.5, -2147483648.7, 1e300, -1e300, 0.49999999999999994, 16777217.0, -0.0]
    c("vec_from_wide", typed_array(T_VECTOR2I, [reals(T_VECTOR2, [vals[i], vals[i + 1]], True) for i in range(0, 8, 2)]),
      "Vector2i(Vector2 with f64 reals)")
    c("vec4i_from_wide", typed_array(T_VECTOR4I, [reals(T_VECTOR4, vals[:4], True), reals(T_VECTOR4, vals[4:], True)]),
      "Vector4i(Vector4 with f64 reals)")
    c("rect2i_from_wide", typed_array(T_RECT2I, [reals(T_RECT2, vals[:4], True)]), "Rect2i(Rect2 with f64 reals)")
    c("vec_from_int", typed_array(T_VECTOR3, [ints(T_VECTOR3I, [16777217, -16777219, 2147483647])]),
      "Vector3(Vector3i): i32 -> f32")
    c("packed_vectors", typed_array(T_PVECTOR2, [untyped([reals(T_VECTOR3, [1, 2, 3]), ints(T_VECTOR4I, [5, 6, 7, 8]),
                                                          reals(T_VECTOR2, [0.1, 0.2], True), v_int(3)])]),
      "PackedVector2Array from mixed vectors")
    c("packed_vectors4", typed_array(T_PVECTOR4, [untyped([reals(T_VECTOR3, [1, 2, 3]), ints(T_VECTOR2I, [5, 6])])]),
      "PackedVector4Array from smaller vectors")
    c("packed_colors", typed_array(T_PCOLOR, [untyped([v_str("red"), v_int(0x11223344), v_str("nope"),
                                                       reals(T_COLOR, [0.1, 0.2, 0.3, 0.4]), v_str("#abc", 21)])]),
      "PackedColorArray from mixed")
    c("packed_strings_mixed", typed_array(T_PSTRING, [untyped([v_str("a"), v_str("b", 21), v_float(0.25)])]),
      "PackedStringArray from mixed")

    # ---- class-typed arrays with full objects
    def objarr(cls, elem_classes, allow=True):
        elems = [u32(OBJECT) + gstr(e.encode()) + u32(0) for e in elem_classes]
        return u32(ARRAY | 2 << 16) + gstr(cls.encode()) + u32(len(elems)) + "".join(elems)
    for cls, elems in (("Node", ["Node2D", "Control", "Node3D", "RefCounted", "Resource", "Timer"]),
                       ("Resource", ["Image", "ImageTexture", "Node", "Gradient"]),
                       ("CanvasItem", ["Node2D", "Control", "Node"]), ("Object", ["Node", "RefCounted", "Image"]),
                       ("Enemy", ["Node"]), ("Texture2D", ["ImageTexture", "Image"]), ("RefCounted", ["Resource", "Node"])):
        c("cls_%s" % cls, objarr(cls, elems), "Array[%s] holding full %s" % (cls, ", ".join(elems)), True)

    # ---- typed dictionary keys colliding after conversion
    c("dk_int_floats", typed_dict(2, None, [(v_float(float("nan"), True), v_int(1)), (v_float(1e20, True), v_int(2)),
                                            (v_float(float("inf")), v_int(3)), (v_int(0), v_int(4))]),
      "Dictionary[int]: NaN, 1e20, inf, 0")
    c("dk_float_ints", typed_dict(3, None, [(v_int(2 ** 53 + 1), v_int(1)), (v_int(2 ** 53), v_int(2)),
                                            (v_float(-0.0), v_int(3)), (v_int(0), v_int(4))]),
      "Dictionary[float]: 2^53+1, 2^53, -0.0, 0")
    c("dk_string", typed_dict(4, None, [(v_str("a", 21), v_int(1)), (node_path(["a"], []), v_int(2)), (v_str("a"), v_int(3)),
                                        (node_path(["a"], ["b"]), v_int(4)), (v_str("a:b"), v_int(5))]),
      "Dictionary[String]: &\"a\", ^\"a\", \"a\", ^\"a:b\", \"a:b\"")
    c("dk_nodepath", typed_dict(22, None, [(v_str("a//b"), v_int(1)), (v_str("a/b"), v_int(2)), (node_path(["a", "b"], []), v_int(3)),
                                           (v_str("a::b"), v_int(4)), (v_str(""), v_int(5))]),
      "Dictionary[NodePath]: texts that parse alike")
    c("dk_color", typed_dict(20, None, [(v_str("red"), v_int(1)), (v_int(0xFF0000FF), v_int(2)), (v_str("#f00"), v_int(3)),
                                        (v_str("nope"), v_int(4)), (v_int(255), v_int(5))]),
      "Dictionary[Color]: red three ways, black twice")
    c("dk_vector2i", typed_dict(6, None, [(reals(T_VECTOR2, [1.5, 2.5]), v_int(1)), (ints(T_VECTOR2I, [1, 2]), v_int(2))]),
      "Dictionary[Vector2i]")
    c("dk_packed", typed_dict(T_PINT32, None, [(untyped([v_int(1), v_str("2")]), v_int(1)),
                                               (u32(T_PINT32) + u32(2) + i32(1) + i32(2), v_int(2)), (v_int(5), v_int(3))]),
      "Dictionary[PackedInt32Array]: [1, \"2\"] and PackedInt32Array([1, 2])")
    c("dk_array", typed_dict(28, None, [(u32(T_PBYTES) + u32(1) + "07000000", v_int(1)), (untyped([v_int(7)]), v_int(2))]),
      "Dictionary[Array]: PackedByteArray([7]) and [7]")
    c("dk_dropped_value", typed_dict(2, None, [(v_str("x"), untyped([untyped([v_int(1)])])), (v_int(1), v_int(2))]),
      "Dictionary[int]: a dropped key's nested value")
    c("dk_array_in_key", typed_dict(None, None, [(typed_array(2, [v_float(1.5), v_str("x")]), v_int(1)),
                                                 (typed_array(2, [v_int(1)]), v_int(2))]),
      "untyped Dictionary whose keys are Array[int] that convert to the same")

    # ---- nesting
    c("nest_typed_in_typed", typed_array(T_PINT32, [typed_array(3, [v_float(1.5), v_int(2), v_str("x")])]),
      "Array[PackedInt32Array] holding Array[float]([1.5, 2, \"x\"])")
    c("nest_array_of_arrays", typed_array(28, [typed_array(2, [v_float(2.5), v_str("x")]), u32(T_PINT32) + u32(1) + i32(9)]),
      "Array[Array] holding Array[int] and PackedInt32Array")

    # ---- RID of a fresh object of every class
    classes = [l.strip() for l in open(os.path.join(HERE, "../godot4-classes.txt")) if l.strip()]
    for cls in classes:
        c("rid_full_%s" % cls, typed_array(T_RID, [u32(OBJECT) + gstr(cls.encode()) + u32(0)]),
          "Array[RID] holding a full %s" % cls, True)

    # ---- the exponent that wraps to INT_MIN in String::to_float (last: it may stop the engine)
    c("tofloat_hang", typed_array(T_PFLOAT64, [untyped([v_str("1e-2147483648")])]),
      "String::to_float(\"1e-2147483648\"): the decimal exponent wraps to INT_MIN")
    wraps = ["-1e-2147483648", "5e-2147483648", "1e2147483648", "-123.5e2147483648", "0.5e-2147483647",
             "10e-2147483649", "1e-2147483647", "1e2147483647", "1e-4294967296", "1e-4294967295"]
    c("tofloat_wraps", typed_array(T_PFLOAT64, [untyped([v_str(s) for s in wraps])]),
      "String::to_float with exponents that wrap: %r" % wraps)

    names_ = [x[0] for x in out]
    assert len(names_) == len(set(names_))
    return out


if __name__ == "__main__":
    print(len(cases()), "cases")
