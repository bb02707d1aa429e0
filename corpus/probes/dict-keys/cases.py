#!/usr/bin/env python3
"""Crafted Dictionary inputs with possibly-equal keys, for both engines.

cases(ver) -> list of {"name", "input_hex", "note"} for ver 3 or 4.
Each pair (k1, k2) gives a 2-entry case {k1: 1, k2: 2} (suffix _2) and a
3-entry case {k1: 1, "x": 2, k2: 3} (suffix _3); values are 32-bit ints.
"""
import struct

T3 = dict(nil=0, bool=1, int=2, float=3, string=4, vector2=5, nodepath=15, object=17, dict=18, array=19)
T4 = dict(nil=0, bool=1, int=2, float=3, string=4, vector2=5, stringname=21, nodepath=22, object=24, dict=27, array=28)
FLAG64 = 1 << 16


def u32(x):
    return struct.pack("<I", x)


def bstr(raw):
    return u32(len(raw)) + raw + b"\0" * (-len(raw) % 4)


# Each key builder takes the type table and returns bytes.
def nil():
    return lambda T: u32(T["nil"])


def boolean(b):
    return lambda T: u32(T["bool"]) + u32(1 if b else 0)


def i32(v):
    return lambda T: u32(T["int"]) + struct.pack("<i", v)


def i64(v):
    return lambda T: u32(T["int"] | FLAG64) + struct.pack("<q", v)


def f32bits(bits):
    return lambda T: u32(T["float"]) + u32(bits)


def f64bits(bits):
    return lambda T: u32(T["float"] | FLAG64) + struct.pack("<Q", bits)


def string(raw):
    return lambda T: u32(T["string"]) + bstr(raw)


def sname(raw):
    return lambda T: u32(T["stringname"]) + bstr(raw)


def vec2bits(x, y):
    return lambda T: u32(T["vector2"]) + u32(x) + u32(y)


def array(*items):
    return lambda T: u32(T["array"]) + u32(len(items)) + b"".join(i(T) for i in items)


def dictionary(*kv):
    return lambda T: u32(T["dict"]) + u32(len(kv)) + b"".join(k(T) + v(T) for k, v in kv)


def nodepath(name):
    # one name, no subnames, relative
    return lambda T: u32(T["nodepath"]) + u32(1 | 0x80000000) + u32(0) + u32(0) + bstr(name)


def objid(i):
    return lambda T: u32(T["object"] | FLAG64) + struct.pack("<Q", i)


NAN = 0x7FF8000000000000
# (name, k1, k2, note, engines)
PAIRS = [
    ("str_str", string(b"a"), string(b"a"), "control: String a twice", (3, 4)),
    ("str_sname", string(b"a"), sname(b"a"), "String a then StringName &a", (4,)),
    ("sname_str", sname(b"a"), string(b"a"), "StringName &a then String a", (4,)),
    ("sname_sname", sname(b"a"), sname(b"a"), "StringName &a twice", (4,)),
    ("int1_float1", i32(1), f32bits(0x3F800000), "int 1 then float 1.0", (3, 4)),
    ("float1_int1", f32bits(0x3F800000), i32(1), "float 1.0 then int 1", (3, 4)),
    ("int0_false", i32(0), boolean(False), "int 0 then bool false", (3, 4)),
    ("false_int0", boolean(False), i32(0), "bool false then int 0", (3, 4)),
    ("int1_true", i32(1), boolean(True), "int 1 then bool true", (3, 4)),
    ("true_int1", boolean(True), i32(1), "bool true then int 1", (3, 4)),
    ("nil_int0", nil(), i32(0), "Nil then int 0", (3, 4)),
    ("int0_nil", i32(0), nil(), "int 0 then Nil", (3, 4)),
    ("nil_nil", nil(), nil(), "Nil twice", (3, 4)),
    ("zero_negzero", f32bits(0), f32bits(0x80000000), "float 0.0 then -0.0 (f32 wire)", (3, 4)),
    ("negzero_zero", f32bits(0x80000000), f32bits(0), "float -0.0 then 0.0 (f32 wire)", (3, 4)),
    ("nan_nan", f64bits(NAN), f64bits(NAN), "f64 NaN 7ff8000000000000 twice", (3, 4)),
    ("nan_nanpayload", f64bits(NAN), f64bits(0x7FF8000000000123), "NaN 7ff8000000000000 then NaN 7ff8000000000123", (3, 4)),
    ("nan_negnan", f64bits(NAN), f64bits(0xFFF8000000000000), "NaN 7ff8000000000000 then -NaN fff8000000000000", (3, 4)),
    ("nan_snan", f64bits(NAN), f64bits(0x7FF0000000000001), "NaN 7ff8000000000000 then signalling NaN 7ff0000000000001", (3, 4)),
    ("nanpayload_nan", f64bits(0x7FF8000000000123), f64bits(NAN), "NaN 7ff8000000000123 then NaN 7ff8000000000000 (which bits survive?)", (3, 4)),
    ("negnan_nan", f64bits(0xFFF8000000000000), f64bits(NAN), "-NaN fff8000000000000 then NaN 7ff8000000000000", (3, 4)),
    ("nanf32_nanf64", f32bits(0x7FC00000), f64bits(NAN), "f32 NaN 7fc00000 then f64 NaN", (3, 4)),
    ("f32one_f64one", f32bits(0x3F800000), f64bits(0x3FF0000000000000), "1.0 as f32 then 1.0 as f64", (3, 4)),
    ("f64one_f32one", f64bits(0x3FF0000000000000), f32bits(0x3F800000), "1.0 as f64 then 1.0 as f32", (3, 4)),
    ("int5_int5wide", i32(5), i64(5), "int 5 (32-bit) then int 5 (ENCODE_FLAG_64)", (3, 4)),
    ("int5wide_int5", i64(5), i32(5), "int 5 (ENCODE_FLAG_64) then int 5 (32-bit)", (3, 4)),
    ("str_strnul", string(b"a"), string(b"a\0b"), "String a then String a NUL b (decodes to a)", (3, 4)),
    ("strnul_str", string(b"a\0b"), string(b"a"), "String a NUL b then String a", (3, 4)),
    ("str_strbom", string(b"a"), string(b"\xef\xbb\xbfa"), "String a then UTF-8 BOM + a", (3, 4)),
    ("strbom_str", string(b"\xef\xbb\xbfa"), string(b"a"), "UTF-8 BOM + a then String a", (3, 4)),
    ("vec2zero_vec2negzero", vec2bits(0, 0), vec2bits(0x80000000, 0), "Vector2(0,0) then Vector2(-0.0,0)", (3, 4)),
    ("vec2nan_vec2nan", vec2bits(0x7FC00000, 0), vec2bits(0x7FC00000, 0), "Vector2(NaN,0) twice (f32 7fc00000)", (3, 4)),
    ("vec2nan_vec2nanpayload", vec2bits(0x7FC00000, 0x7FC00000), vec2bits(0x7FC00001, 0xFFC00000), "Vector2(NaN,NaN) twice, different NaN payloads/signs", (3, 4)),
    ("arr1_arr1", array(i32(1)), array(i32(1)), "Array [1] twice", (3, 4)),
    ("arr1_arr1f", array(i32(1)), array(f32bits(0x3F800000)), "Array [1] then [1.0]", (3, 4)),
    ("arr_arr", array(), array(), "empty Array twice", (3, 4)),
    ("dict_dict", dictionary(), dictionary(), "empty Dictionary twice", (3, 4)),
    ("dicta_dicta", dictionary((string(b"a"), i32(1))), dictionary((string(b"a"), i32(1))), "Dictionary {a:1} twice", (3, 4)),
    ("arr_dict", array(), dictionary(), "empty Array then empty Dictionary", (3, 4)),
    ("np_np", nodepath(b"a"), nodepath(b"a"), "NodePath a twice (same bytes)", (3, 4)),
    ("np_str", nodepath(b"a"), string(b"a"), "NodePath a then String a", (3, 4)),
    ("str_np", string(b"a"), nodepath(b"a"), "String a then NodePath a", (3, 4)),
    ("np_sname", nodepath(b"a"), sname(b"a"), "NodePath a then StringName &a", (4,)),
    ("objid_objid", objid(12345), objid(12345), "object-as-ID 12345 twice", (3, 4)),
    ("objid0_nil", objid(0), nil(), "object-as-ID 0 (null) then Nil", (3, 4)),
    ("nil_objid0", nil(), objid(0), "Nil then object-as-ID 0 (null)", (3, 4)),
    ("objid0_objid0", objid(0), objid(0), "object-as-ID 0 twice", (3, 4)),
]

ONE, TWO, THREE, OTHER = i32(1), i32(2), i32(3), string(b"x")


def typed_dict(key_t, val_t, *kv):
    # Godot 4 typed Dictionary: bits 16-17 key kind 1 (builtin), bits 18-19 value kind 1
    return lambda T: (u32(T["dict"] | (1 << 16) | (1 << 18)) + u32(key_t) + u32(val_t)
                      + u32(len(kv)) + b"".join(k(T) + v(T) for k, v in kv))


TS, TI, TF, TSN = 4, 2, 3, 21
TYPED = [
    ("typed_si_control", typed_dict(TS, TI, (string(b"a"), ONE), (string(b"b"), TWO)), "Dictionary[String,int] {a:1, b:2} (control)"),
    ("typed_si_snamekey", typed_dict(TS, TI, (string(b"a"), ONE), (sname(b"b"), TWO)), "Dictionary[String,int] {a:1, &b:2}"),
    ("typed_si_snamekey_only", typed_dict(TS, TI, (sname(b"b"), TWO)), "Dictionary[String,int] {&b:2}"),
    ("typed_si_str_sname_dup", typed_dict(TS, TI, (string(b"a"), ONE), (sname(b"a"), TWO)), "Dictionary[String,int] {a:1, &a:2}"),
    ("typed_si_sname_str_dup", typed_dict(TS, TI, (sname(b"a"), ONE), (string(b"a"), TWO)), "Dictionary[String,int] {&a:1, a:2}"),
    ("typed_si_floatkey", typed_dict(TS, TI, (string(b"a"), ONE), (f32bits(0x3FC00000), TWO)), "Dictionary[String,int] {a:1, 1.5:2}"),
    ("typed_si_floatkey_only", typed_dict(TS, TI, (f32bits(0x3FC00000), TWO)), "Dictionary[String,int] {1.5:2}"),
    ("typed_si_intkey", typed_dict(TS, TI, (string(b"a"), ONE), (i32(7), TWO)), "Dictionary[String,int] {a:1, 7:2}"),
    ("typed_si_floatvalue", typed_dict(TS, TI, (string(b"a"), f32bits(0x3FC00000))), "Dictionary[String,int] {a:1.5}"),
    ("typed_si_strvalue", typed_dict(TS, TI, (string(b"a"), string(b"z"))), "Dictionary[String,int] {a:\"z\"}"),
    ("typed_sni_strkey", typed_dict(TSN, TI, (sname(b"a"), ONE), (string(b"b"), TWO)), "Dictionary[StringName,int] {&a:1, b:2}"),
    ("typed_sni_sname_str_dup", typed_dict(TSN, TI, (sname(b"a"), ONE), (string(b"a"), TWO)), "Dictionary[StringName,int] {&a:1, a:2}"),
    ("typed_fi_int_float_dup", typed_dict(TF, TI, (f32bits(0x3F800000), ONE), (i32(1), TWO)), "Dictionary[float,int] {1.0:1, 1:2}"),
    ("typed_fi_intkey", typed_dict(TF, TI, (i32(1), ONE)), "Dictionary[float,int] {1:1}"),
    ("typed_ii_float15key", typed_dict(TI, TI, (f32bits(0x3FC00000), ONE)), "Dictionary[int,int] {1.5:1}"),
    ("typed_si_nilkey", typed_dict(TS, TI, (nil(), ONE), (string(b"b"), TWO)), "Dictionary[String,int] {null:1, b:2}"),
    ("typed_si_dup_3", typed_dict(TS, TI, (string(b"a"), ONE), (string(b"x"), TWO), (sname(b"a"), THREE)), "Dictionary[String,int] {a:1, x:2, &a:3}"),
    ("typed_ii_float_int_dup", typed_dict(TI, TI, (i32(1), ONE), (f32bits(0x3F800000), TWO)), "Dictionary[int,int] {1:1, 1.0:2}"),
]


def cases(ver):
    T = T3 if ver == 3 else T4
    out = []
    for name, k1, k2, note, engines in PAIRS:
        if ver not in engines:
            continue
        two = u32(T["dict"]) + u32(2) + k1(T) + ONE(T) + k2(T) + TWO(T)
        three = u32(T["dict"]) + u32(3) + k1(T) + ONE(T) + OTHER(T) + TWO(T) + k2(T) + THREE(T)
        out.append({"name": "keys_%s_2" % name, "input_hex": two.hex(), "note": note + "; {k1: 1, k2: 2}"})
        out.append({"name": "keys_%s_3" % name, "input_hex": three.hex(), "note": note + "; {k1: 1, \"x\": 2, k2: 3}"})
    if ver == 4:
        for name, build, note in TYPED:
            out.append({"name": "keys_%s" % name, "input_hex": build(T).hex(), "note": note})
    return out


if __name__ == "__main__":
    import json
    import sys
    for c in cases(int(sys.argv[1]) if len(sys.argv) > 1 else 4):
        print(json.dumps(c))
