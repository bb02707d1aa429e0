"""Crafted decoder inputs for run.py: cases3() and cases4() return
(name, input hex, allow_objects, note) tuples. Questions A-G: see README.md."""
import struct

T3 = dict(NIL=0, BOOL=1, INT=2, FLOAT=3, STRING=4, VECTOR2=5, COLOR=14, NODE_PATH=15, RID=16, OBJECT=17,
          DICT=18, ARRAY=19, PBYTE=20, PINT32=21, PFLOAT32=22, PSTRING=23, PVECTOR2=24, PVECTOR3=25, PCOLOR=26)
T4 = dict(NIL=0, BOOL=1, INT=2, FLOAT=3, STRING=4, VECTOR2=5, COLOR=20, STRING_NAME=21, NODE_PATH=22, RID=23,
          OBJECT=24, CALLABLE=25, SIGNAL=26, DICT=27, ARRAY=28, PBYTE=29, PINT32=30, PINT64=31, PFLOAT32=32,
          PFLOAT64=33, PSTRING=34, PVECTOR2=35, PVECTOR3=36, PCOLOR=37, PVECTOR4=38)


def u32(x):
    return struct.pack("<I", x & 0xFFFFFFFF).hex()


def u64(x):
    return struct.pack("<Q", x & 0xFFFFFFFFFFFFFFFF).hex()


def f32(x):
    return struct.pack("<f", x).hex()


def gstr(b, length=None):
    """marshalls string: u32 length + bytes + zero padding to 4"""
    n = len(b) if length is None else length
    return u32(n) + b.hex() + "00" * ((4 - len(b) % 4) % 4)


def string_cases():
    """A: STRING (type 4 in both engines) with crafted UTF-8; same bytes for 3.x and 4.x."""
    out = []

    def s(name, hexbytes, note):
        b = bytes.fromhex(hexbytes.replace(" ", ""))
        out.append(("probe_str_" + name, "04000000" + gstr(b), False, note))

    for x in range(0x80, 0x100):
        s("1b_%02x" % x, "%02x" % x, "single byte %02x alone" % x)
    s("2b_c0_80", "c0 80", "overlong 2-byte NUL (C0 80)")
    s("2b_c0_af", "c0 af", "overlong 2-byte '/'")
    s("2b_c1_bf", "c1 bf", "overlong 2-byte U+007F")
    s("2b_c2_80", "c2 80", "U+0080, smallest 2-byte (valid)")
    s("2b_df_bf", "df bf", "U+07FF, largest 2-byte (valid)")
    s("2b_c3_41", "c3 41", "2-byte lead, ASCII continuation")
    s("2b_c3_c3", "c3 c3", "2-byte lead, lead as continuation")
    s("3b_e0_80_80", "e0 80 80", "overlong 3-byte NUL")
    s("3b_e0_80_8f", "e0 80 8f", "overlong 3-byte U+000F")
    s("3b_e0_80_90", "e0 80 90", "overlong 3-byte U+0010")
    s("3b_e0_80_bf", "e0 80 bf", "overlong 3-byte U+003F")
    s("3b_e0_81_80", "e0 81 80", "overlong 3-byte U+0040")
    s("3b_e0_9f_bf", "e0 9f bf", "overlong 3-byte U+07FF")
    s("3b_e0_a0_80", "e0 a0 80", "U+0800 smallest 3-byte (valid)")
    s("3b_ed_9f_bf", "ed 9f bf", "U+D7FF last before surrogates (valid)")
    s("3b_ed_a0_80", "ed a0 80", "surrogate U+D800")
    s("3b_ed_af_bf", "ed af bf", "surrogate U+DBFF")
    s("3b_ed_b0_80", "ed b0 80", "surrogate U+DC00")
    s("3b_ed_bf_bf", "ed bf bf", "surrogate U+DFFF")
    s("6b_cesu_pair", "ed a0 bd ed b8 80", "CESU-8 surrogate pair for U+1F600")
    s("3b_ee_80_80", "ee 80 80", "U+E000 first after surrogates (valid)")
    s("3b_ef_bf_be", "ef bf be", "noncharacter U+FFFE")
    s("3b_ef_bf_bf", "ef bf bf", "noncharacter U+FFFF")
    s("3b_e2_82_41", "e2 82 41", "3-byte with bad 3rd byte")
    s("4b_f0_80_80_80", "f0 80 80 80", "overlong 4-byte NUL")
    s("4b_f0_80_87_bf", "f0 80 87 bf", "overlong 4-byte U+01FF")
    s("4b_f0_80_88_80", "f0 80 88 80", "overlong 4-byte U+0200")
    s("4b_f0_8f_bf_bf", "f0 8f bf bf", "overlong 4-byte U+FFFF")
    s("4b_f0_90_80_80", "f0 90 80 80", "U+10000 smallest 4-byte (valid)")
    s("4b_f0_9f_98_80", "f0 9f 98 80", "U+1F600 (valid)")
    s("4b_f4_8f_bf_bf", "f4 8f bf bf", "U+10FFFF (valid)")
    s("4b_f4_90_80_80", "f4 90 80 80", "U+110000 (> U+10FFFF)")
    s("4b_f5_80_80_80", "f5 80 80 80", "lead F5: U+140000")
    s("4b_f6_80_80_80", "f6 80 80 80", "lead F6")
    s("4b_f7_bf_bf_bf", "f7 bf bf bf", "lead F7: U+1FFFFF")
    s("5b_f8_80_80_80_80", "f8 80 80 80 80", "5-byte overlong NUL")
    s("5b_f8_80_84_80_80", "f8 80 84 80 80", "5-byte overlong U+10000")
    s("5b_f8_87_bf_bf_bf", "f8 87 bf bf bf", "5-byte overlong U+1FFFFF")
    s("5b_f8_88_80_80_80", "f8 88 80 80 80", "5-byte non-overlong U+200000")
    s("5b_fb_bf_bf_bf_bf", "fb bf bf bf bf", "5-byte max U+3FFFFFF")
    s("5b_f8_88_80_80_41", "f8 88 80 80 41", "5-byte with bad last byte")
    s("6b_fc_80_80_80_80_80", "fc 80 80 80 80 80", "6-byte overlong NUL")
    s("6b_fc_80_82_80_80_80", "fc 80 82 80 80 80", "6-byte overlong U+200000")
    s("6b_fc_84_80_80_80_80", "fc 84 80 80 80 80", "6-byte non-overlong U+4000000")
    s("6b_fd_bf_bf_bf_bf_bf", "fd bf bf bf bf bf", "6-byte max U+7FFFFFFF")
    s("fe_80", "fe 80", "FE lead")
    s("ff_bf_bf_bf", "ff bf bf bf", "FF lead")
    s("trunc_61_c3", "61 c3", "2-byte sequence cut by the length")
    s("trunc_61_e2_82", "61 e2 82", "3-byte sequence cut by the length")
    s("trunc_e2_82", "e2 82", "3-byte sequence cut by the length")
    s("trunc_f0_9f", "f0 9f", "4-byte sequence cut after 2")
    s("trunc_f0_9f_98", "f0 9f 98", "4-byte sequence cut after 3")
    s("trunc_61_f8_88_80_80", "61 f8 88 80 80", "5-byte sequence cut after 4")
    s("nul_c3_00", "c3 00", "NUL inside a 2-byte sequence")
    s("nul_c3_00_a9", "c3 00 a9", "NUL inside a 2-byte sequence, continuation after")
    s("nul_e2_00_82_ac", "e2 00 82 ac", "NUL inside a 3-byte sequence")
    s("nul_61_00_ff", "61 00 ff", "invalid byte after a NUL")
    s("nul_61_00_c3", "61 00 c3", "truncated sequence after a NUL")
    s("nul_00_ff", "00 ff", "leading NUL then invalid byte")
    s("nul_00_41", "00 41", "leading NUL then 'A'")
    s("nul_61_00_62", "61 00 62", "a NUL b")
    s("bom_61", "ef bb bf 61", "BOM + 'a'")
    s("bom_alone", "ef bb bf", "BOM alone")
    s("bom_ff", "ef bb bf ff", "BOM + invalid byte")
    s("bom_c3", "ef bb bf c3", "BOM + truncated 2-byte")
    s("bom_c3_a9", "ef bb bf c3 a9", "BOM + U+00E9")
    s("bom_bom_61", "ef bb bf ef bb bf 61", "two BOMs + 'a' (is the second kept?)")
    s("bom_after_61", "61 ef bb bf", "'a' + BOM (not leading)")
    s("bom_00_41", "ef bb bf 00 41", "BOM + NUL + 'A'")
    s("nul_bom", "00 ef bb bf", "NUL + BOM")
    s("ef_bb_alone", "ef bb", "EF BB alone (BOM prefix, truncated)")
    s("ef_bb_61", "ef bb 61", "EF BB + 'a'")
    s("ef_bb_00", "ef bb 00", "EF BB + NUL")
    s("ascii_7f", "7f", "DEL (valid)")
    s("c3_a9", "c3 a9", "U+00E9 (valid control)")
    return out


def depth_cases(T, big):
    out = []
    A, D = T["ARRAY"], T["DICT"]
    arr1, arr0 = u32(A) + u32(1), u32(A) + u32(0)
    for n in (1024, 1025, 1026):
        out.append(("probe_depth_array_%d" % n, arr1 * (n - 1) + arr0, False,
                    "%d nested Arrays, innermost empty (outermost = level 1)" % n))
    for n in (1024, 1025):
        out.append(("probe_depth_array_%d_int" % n, arr1 * n + "0200000007000000", False,
                    "%d nested Arrays, innermost holds int 7" % n))
    key = "04000000" + gstr(b"k")
    dv1, d0 = u32(D) + u32(1), u32(D) + u32(0)
    for n in (1024, 1025, 1026):
        out.append(("probe_depth_dict_value_%d" % n, (dv1 + key) * (n - 1) + d0, False,
                    "%d nested Dictionaries {\"k\": {...}} (as values), innermost empty" % n))
    out.append(("probe_depth_dict_value_1025_int", (dv1 + key) * 1025 + "0200000007000000", False,
                "1025 nested Dictionaries as values, innermost {\"k\": 7}"))
    for n in (1024, 1025, 1026):
        out.append(("probe_depth_dict_key_%d" % n, dv1 * (n - 1) + d0 + "00000000" * (n - 1), False,
                    "%d nested Dictionaries as KEYS ({{...}: null}), innermost empty" % n))
    if big:
        out.append(("probe_depth_array_5000", arr1 * 4999 + arr0, False, "5000 nested Arrays"))
        out.append(("probe_depth_array_100000", arr1 * 99999 + arr0, False,
                    "100000 nested Arrays (input > 64 KiB: PacketPeerStream input_buffer_max_size raised)"))
    return out


def nodepath_cases(T):
    NP = u32(T["NODE_PATH"])
    a, b = "04000000" if False else "", ""
    sa, sb = gstr(b"a"), gstr(b"b")
    out = []

    def np(name, names, subs, flags, strs, note):
        out.append(("probe_np_" + name, NP + u32(names) + u32(subs) + u32(flags) + "".join(strs), False, note))

    np("ctrl_abs", 0x80000001, 0, 1, [sa], "control: /a")
    np("sum_wrap_7fffffff_80000002", 0xFFFFFFFF, 0x80000002, 0, [sa, sb],
       "names 0x7FFFFFFF (|bit31), subnames 0x80000002: u32 sum wraps to 1; 2 strings present")
    np("sum_wrap_7fffffff_80000002_nostr", 0xFFFFFFFF, 0x80000002, 0, [],
       "names 0x7FFFFFFF, subnames 0x80000002, no strings")
    np("sum_wrap_1_ffffffff", 0x80000001, 0xFFFFFFFF, 0, [sa, sb], "names 1, subnames 0xFFFFFFFF: sum wraps to 0; 2 strings present")
    np("sum_wrap_0_ffffffff_flag2", 0x80000000, 0xFFFFFFFF, 2, [sa, sb], "names 0, subnames 0xFFFFFFFF, flags 2: +1 wraps to 0")
    np("sum_wrap_1_fffffffe_flag2", 0x80000001, 0xFFFFFFFE, 2, [sa, sb], "names 1, subnames 0xFFFFFFFE, flags 2: total wraps to 0")
    np("sum_wrap_2_ffffffff", 0x80000002, 0xFFFFFFFF, 0, [sa, sb], "names 2, subnames 0xFFFFFFFF: total wraps to 1")
    np("empty_abs", 0x80000000, 0, 1, [], "no names, no subnames, absolute flag")
    np("sum_wrap_1_ffffffff_abs", 0x80000001, 0xFFFFFFFF, 1, [sa, sb],
       "names 1, subnames 0xFFFFFFFF, absolute flag: total wraps to 0")
    np("names_huge_nostr", 0xFFFFFFFF, 0, 0, [sa], "names 0x7FFFFFFF, one string present")
    np("empty_name", 0x80000001, 0, 0, [gstr(b"")], "one empty name string")
    np("empty_name_then_a", 0x80000002, 0, 0, [gstr(b""), sa], "names '' and 'a'")
    np("empty_subname", 0x80000001, 1, 0, [sa, gstr(b"")], "name a, empty subname")
    np("flags_4", 0x80000001, 0, 4, [sa], "flags 4")
    np("flags_5", 0x80000001, 0, 5, [sa], "flags 5 (absolute + bit 2)")
    np("flags_fffffff0", 0x80000001, 0, 0xFFFFFFF0, [sa], "flags 0xFFFFFFF0 (bits 0,1 clear)")
    np("flags_fffffff1", 0x80000001, 0, 0xFFFFFFF1, [sa], "flags 0xFFFFFFF1")
    np("flags_fffffff2_extra", 0x80000001, 0, 0xFFFFFFF2, [sa, sb], "flags 0xFFFFFFF2: bit 1 -> extra subname b")
    np("flags_fffffff2_noextra", 0x80000001, 0, 0xFFFFFFF2, [sa], "flags 0xFFFFFFF2 without the extra subname")
    np("flags_2_only_extra", 0x80000000, 0, 2, [sb], "no names, flags 2, one string -> subname")
    np("flags_ffffffff_extra", 0x80000001, 0, 0xFFFFFFFF, [sa, sb], "flags 0xFFFFFFFF with extra subname")
    np("name_invalid_utf8", 0x80000001, 0, 0, [gstr(b"\xff")], "name with invalid UTF-8")
    np("short_header", 0x80000001, 0, 0, [], "header only 12 bytes, names 1, no string")
    out.append(("probe_np_short_8", NP + u32(0x80000000) + u32(0), False, "only 8 bytes after type"))
    return out


def object_cases(T, v4):
    O = T["OBJECT"]
    cls = b"RefCounted" if v4 else b"Reference"
    cn = "RefCounted" if v4 else "Reference"
    full = lambda props_count, props="": u32(O) + gstr(cls) + u32(props_count) + props
    i5 = "0200000005000000"
    out = []

    def o(name, h, allow, note):
        out.append(("probe_obj_" + name, h, allow, note))

    o("ctrl_full", full(0), True, "control: %s, 0 properties" % cn)
    o("count_ffffffff", full(0xFFFFFFFF), True, "%s, property count 0xFFFFFFFF (negative), nothing after" % cn)
    o("count_ffffffff_trailing", full(0xFFFFFFFF, gstr(b"foo") + i5), True, "count 0xFFFFFFFF followed by a property")
    o("count_80000000", full(0x80000000), True, "%s, property count 0x80000000" % cn)
    o("count_7fffffff", full(0x7FFFFFFF), True, "%s, property count 0x7FFFFFFF, nothing after" % cn)
    o("propname_invalid_utf8", full(1, gstr(b"\xff") + i5), True, "property name is invalid UTF-8")
    o("propname_empty", full(1, gstr(b"") + i5), True, "property name ''")
    sc = gstr(b"script")
    o("script_int5", full(1, sc + i5), True, "script = int 5")
    o("script_res_nope", full(1, sc + "04000000" + gstr(b"res://nope.gd")), True, "script = String res://nope.gd")
    o("script_empty_string", full(1, sc + "04000000" + gstr(b"")), True, "script = String ''")
    o("script_user_path", full(1, sc + "04000000" + gstr(b"user://x.gd")), True, "script = String user://x.gd")
    o("script_nil", full(1, sc + "00000000"), True, "script = Nil")
    o("script_int5_disallowed", full(1, sc + i5), False, "script = int 5, allow_objects=false")
    nested = u32(O) + gstr(cls) + u32(0)
    o("unknown_prop_full_object", full(1, gstr(b"foo") + nested), True, "unknown property foo = full %s" % cn)
    o("unknown_prop_as_id", full(1, gstr(b"foo") + u32(O | 0x10000) + u64(12345)), True, "unknown property foo = object-as-id 12345")
    for allow in (False, True):
        a = "allowed" if allow else "disallowed"
        o("as_id_12345_" + a, u32(O | 0x10000) + u64(12345), allow, "object-as-id 12345")
        o("as_id_0_" + a, u32(O | 0x10000) + u64(0), allow, "object-as-id 0")
        o("as_id_missing_" + a, u32(O | 0x10000), allow, "object-as-id, 8 id bytes missing")
        o("as_id_4bytes_" + a, u32(O | 0x10000) + u32(1), allow, "object-as-id, only 4 id bytes")
    o("as_id_bit17", u32(O | 0x30000) + u64(12345), False, "object-as-id header with bit 17 also set")
    o("as_id_bits_ff", u32(O | 0xFFFF0000) + u64(12345), False, "object-as-id header with bits 16-31 all set")
    o("full_bit17", u32(O | 0x20000) + gstr(cls) + u32(0), True, "full object header with bit 17 (bit 16 clear)")
    o("full_bit17_disallowed", u32(O | 0x20000) + gstr(cls) + u32(0), False, "full object header with bit 17, allow_objects=false")
    arr = u32(T["ARRAY"]) + u32(2) + i5 + nested
    o("in_array_disallowed", arr, False, "[5, full %s] with allow_objects=false" % cn)
    o("in_array_allowed", arr, True, "[5, full %s] with allow_objects=true" % cn)
    d = u32(T["DICT"]) + u32(1) + "04000000" + gstr(b"k") + nested
    o("in_dict_value_disallowed", d, False, "{k: full %s} with allow_objects=false" % cn)
    o("empty_class_disallowed", u32(O) + u32(0), False, "full object with empty class name, allow_objects=false")
    o("empty_class_allowed", u32(O) + u32(0), True, "full object with empty class name, allow_objects=true")
    o("node_name_prop", u32(O) + gstr(b"Node") + u32(1) + gstr(b"name") + "04000000" + gstr(b"X"), True, "Node with name = 'X'")
    # classes (question 2)
    for c, note in (("Object", "class Object"), ("Node", "class Node"), ("OS", "singleton OS"),
                    ("Engine", "singleton Engine"), ("_OS", "3.x bound class _OS"), ("_Engine", "3.x bound class _Engine"),
                    ("String", "non-Object class String"), ("int", "builtin type name int"),
                    ("Resource", "class Resource"), ("CanvasItem", "abstract class CanvasItem"),
                    ("Script", "abstract class Script"), ("Texture", "abstract in 3.x (Texture)"),
                    ("Texture2D", "abstract in 4.x (Texture2D)"), ("EncodedObjectAsID", "EncodedObjectAsID"),
                    ("Reference", "Reference (3.x) / not a class (4.x)"), ("RefCounted", "RefCounted (4.x)")):
        o("class_" + c, u32(O) + gstr(c.encode()) + u32(0), True, note + ", 0 properties")
    o("class_space", u32(O) + gstr(b" ") + u32(0), True, "class name ' '")
    o("class_nul", u32(O) + gstr(b"\x00") + u32(0), True, "class name NUL byte (decodes to '')")
    o("class_nul_node", u32(O) + gstr(b"\x00Node") + u32(0), True, "class name NUL 'Node' (decodes to '')")
    o("class_node_nul", u32(O) + gstr(b"Node\x00") + u32(0), True, "class name 'Node' NUL")
    o("class_bom_node", u32(O) + gstr(b"\xef\xbb\xbfNode") + u32(0), True, "class name BOM + 'Node'")
    o("class_invalid_utf8", u32(O) + gstr(b"\xff") + u32(0), True, "class name invalid UTF-8")
    o("class_lowercase_node", u32(O) + gstr(b"node") + u32(0), True, "class name 'node'")
    return out


def packed_cases(T, v4):
    out = []
    A = u32(T["ARRAY"])
    i7 = "0200000007000000"

    def p(name, h, note):
        out.append(("probe_packed_" + name, h, False, note))

    PS = u32(T["PSTRING"])
    p("string_neg_in_array", A + u32(2) + PS + u32(0xFFFFFFFF) + i7, "[PackedStringArray count 0xFFFFFFFF, int 7]")
    p("string_neg_more_data", PS + u32(0xFFFFFFFF) + gstr(b"a\x00") + gstr(b"b\x00"), "PackedStringArray count 0xFFFFFFFF then element data")
    p("string_80000000_in_array", A + u32(2) + PS + u32(0x80000000) + i7, "[PackedStringArray count 0x80000000, int 7]")
    PB = u32(T["PBYTE"])
    p("byte_nopad_in_array", A + u32(2) + PB + u32(1) + "07" + i7, "[PackedByteArray [7] without padding, int 7]")
    p("byte_nopad_in_array_3pad", A + u32(2) + PB + u32(1) + "07" + "aabbcc" + i7, "[PackedByteArray [7] + 3 junk pad bytes, int 7]")
    p("byte_nopad_last_in_array", A + u32(2) + i7 + PB + u32(1) + "07", "[int 7, PackedByteArray [7] without padding] at end of buffer")
    p("byte_neg", PB + u32(0xFFFFFFFF), "PackedByteArray count 0xFFFFFFFF")
    for tname, esz in (("PINT32", 4), ("PFLOAT32", 4), ("PVECTOR2", 8)):
        t = u32(T[tname])
        for c in (0x40000000, 0x20000000, 0x80000000, 0xFFFFFFFF):
            p("%s_count_%08x" % (tname.lower(), c), t + u32(c) + "00" * 16,
              "%s count 0x%08X (count*%d = 0x%X), 16 bytes of data" % (tname, c, esz, c * esz))
    if v4:
        for tname in ("PINT64", "PFLOAT64"):
            t = u32(T[tname])
            for c in (0x10000000, 0x20000000):
                p("%s_count_%08x" % (tname.lower(), c), t + u32(c) + "00" * 16,
                  "%s count 0x%08X (count*8 = 0x%X), 16 bytes of data" % (tname, c, c * 8))
        PV2 = T["PVECTOR2"]
        p("pvector2_f64_ctrl", u32(PV2 | 0x10000) + u32(1) + struct.pack("<dd", 1.0, 2.0).hex(), "PackedVector2Array f64 flag, 1 element (1,2)")
        p("pvector2_f64_as_f32", u32(PV2 | 0x10000) + u32(1) + f32(1.0) + f32(2.0), "PackedVector2Array f64 flag, 1 element but only 8 bytes")
        for c in (0x08000000, 0x10000000):
            p("pvector2_f64_count_%08x" % c, u32(PV2 | 0x10000) + u32(c) + "00" * 32,
              "PackedVector2Array f64 flag, count 0x%08X (f32 size 0x%X, f64 size 0x%X)" % (c, c * 8, c * 16))
        p("pcolor_flag64", u32(T["PCOLOR"] | 0x10000) + u32(1) + f32(1) + f32(0.5) + f32(0.25) + f32(1), "PackedColorArray with bit 16, 1 color as f32")
    return out


def misc_cases(T, v4):
    out = []

    def m(name, h, note):
        out.append(("probe_misc_" + name, h, False, note))

    for bit in range(16, 32):
        m("bool_bit%d" % bit, u32(1 | 1 << bit) + u32(1) + "00000000", "BOOL true with header bit %d (+4 extra bytes)" % bit)
        m("int_bit%d" % bit, u32(2 | 1 << bit) + u32(5) + u32(1), "INT 05000000 01000000 with header bit %d" % bit)
        m("float_bit%d" % bit, u32(3 | 1 << bit) + f32(1.0) + u32(0x3FF00000), "FLOAT f32 1.0 then 0x3FF00000 with header bit %d" % bit)
    for bit in (16, 17, 31):
        m("string_bit%d" % bit, u32(4 | 1 << bit) + gstr(b"ab"), "STRING 'ab' with header bit %d" % bit)
        m("vector2_bit%d" % bit, u32(5 | 1 << bit) + f32(1) + f32(2) + "00" * 8, "VECTOR2 (1,2) f32 + 8 zero bytes, header bit %d" % bit)
    m("int_f64_only4", u32(2 | 1 << 16) + u32(5), "INT with bit 16 but only 4 payload bytes")
    for h, note in ((0x01000102, "bits 8 and 24"), (0xFF00FF02, "bits 8-15 and 24-31 all set"),
                    (0x0000FF02, "bits 8-15 all set"), (0xFF000002, "bits 24-31 all set"),
                    (0x80000002, "bit 31"), (0x00000102, "bit 8 only")):
        m("int_hdr_%08x" % h, u32(h) + u32(5), "INT 5 with header 0x%08X (%s)" % (h, note))
    m("string_hdr_ff00ff04", u32(0xFF00FF04) + gstr(b"ab"), "STRING 'ab' with header 0xFF00FF04")
    m("type_0x1b_hi", u32(0x0000011B), "type byte 0x1B with bit 8 (3.x: 27 = VARIANT_MAX)")
    m("type_0x27_hi", u32(0x00000127), "type byte 0x27 with bit 8 (4.x: 39 = VARIANT_MAX)")
    m("type_0xff", u32(0x000000FF), "type byte 0xFF")
    m("nil_bits", u32(0xFFFFFF00), "NIL with every other bit set")
    if v4:
        C = T["COLOR"]
        cf = f32(1.0) + f32(0.5) + f32(0.25) + f32(1.0)
        m("color_bit16_16bytes", u32(C | 0x10000) + cf, "COLOR with bit 16, exactly 16 bytes of f32")
        m("color_bit16_32bytes", u32(C | 0x10000) + struct.pack("<dddd", 1.0, 0.5, 0.25, 1.0).hex(), "COLOR with bit 16, 4 f64 (32 bytes)")
        m("color_ctrl", u32(C) + cf, "COLOR control")
        R = T["RID"]
        m("rid_ctrl", u32(R) + u64(0x123456789), "RID id 0x123456789")
        m("rid_bit16", u32(R | 0x10000) + u64(0x123456789), "RID with bit 16")
        m("rid_4bytes", u32(R) + u32(5), "RID with only 4 bytes")
        S = T["SIGNAL"]
        m("signal_ctrl", u32(S) + gstr(b"sig") + u64(1234), "SIGNAL name sig, id 1234")
        m("signal_id_4bytes", u32(S) + gstr(b"sig") + u32(1234), "SIGNAL name sig, then only 4 bytes of id")
        m("signal_no_id", u32(S) + gstr(b"sig"), "SIGNAL name only")
        m("signal_bad_utf8", u32(S) + gstr(b"\xff") + u64(1), "SIGNAL name invalid UTF-8")
        m("signal_bit16", u32(S | 0x10000) + gstr(b"sig") + u64(1234), "SIGNAL with bit 16")
        K = T["CALLABLE"]
        m("callable_trailing", u32(K) + "deadbeef", "CALLABLE followed by 4 bytes")
        m("callable_bit16", u32(K | 0x10000), "CALLABLE with bit 16")
        m("callable_in_array", u32(T["ARRAY"]) + u32(2) + u32(K) + "0200000007000000", "[Callable, int 7]: Callable consumes 0 bytes")
        SN = T["STRING_NAME"]
        m("stringname_invalid_utf8", u32(SN) + gstr(b"\xff"), "StringName invalid UTF-8")
        m("stringname_bom", u32(SN) + gstr(b"\xef\xbb\xbfa"), "StringName BOM + a")
        m("stringname_nul", u32(SN) + gstr(b"a\x00b"), "StringName a NUL b")
        m("pstring_invalid_utf8", u32(T["PSTRING"]) + u32(1) + gstr(b"\xff\x00"), "PackedStringArray element invalid UTF-8")
        m("nodepath_name_invalid_utf8_4", u32(T["NODE_PATH"]) + u32(0x80000001) + u32(0) + u32(0) + gstr(b"\xed\xa0\x80"), "NodePath name = surrogate")
    else:
        m("rid_bit16", u32(T["RID"] | 0x10000) + u64(5), "RID with bit 16 and 8 trailing bytes")
        m("pstring_invalid_utf8", u32(T["PSTRING"]) + u32(1) + gstr(b"\xff\x00"), "PoolStringArray element invalid UTF-8")
        m("pstring_surrogate", u32(T["PSTRING"]) + u32(1) + gstr(b"\xed\xa0\x80\x00"), "PoolStringArray element surrogate U+D800")
        m("nodepath_name_surrogate", u32(T["NODE_PATH"]) + u32(0x80000001) + u32(0) + u32(0) + gstr(b"\xed\xa0\x80"), "NodePath name = surrogate")
        m("color_bit16", u32(T["COLOR"] | 0x10000) + f32(1) + f32(0.5) + f32(0.25) + f32(1), "COLOR with bit 16")
    return out


def typed_cases():
    """C: typed containers (4.x only)."""
    T = T4
    out = []
    AR, DI = T["ARRAY"], T["DICT"]
    i7 = "0200000007000000"
    sx = "04000000" + gstr(b"x")

    def c(name, h, allow, note):
        out.append(("probe_typed_" + name, h, allow, note))

    for t in (0, 2, 27, 38, 39, 0xFFFFFFFF):
        c("array_builtin_%x" % t, u32(AR | 1 << 16) + u32(t) + u32(0), False, "Array kind 1 (builtin) type id %d, count 0" % (t if t < 2**31 else -1))
    c("array_builtin_nil_with_elem", u32(AR | 1 << 16) + u32(0) + u32(1) + i7, False, "Array kind 1 type 0 (NIL) holding int 7")
    c("array_int_ctrl", u32(AR | 1 << 16) + u32(2) + u32(1) + i7, False, "Array[int] [7]")
    c("array_int_holding_string", u32(AR | 1 << 16) + u32(2) + u32(2) + i7 + sx, False, "Array[int] holding 7 and String 'x'")
    c("array_int_holding_float", u32(AR | 1 << 16) + u32(2) + u32(1) + "03000000" + f32(1.5), False, "Array[int] holding float 1.5")
    c("array_string_holding_stringname", u32(AR | 1 << 16) + u32(4) + u32(1) + u32(21) + gstr(b"sn"), False, "Array[String] holding StringName")
    c("array_builtin_truncated", u32(AR | 1 << 16), False, "Array kind 1, type id missing")
    for cls, tag in ((b"NoSuchClass", "nosuch"), (b"Node", "node"), (b"", "empty"), (b"\xff", "badutf8"),
                     (b"EncodedObjectAsID", "eoaid"), (b"int", "int")):
        for allow in (False, True):
            c("array_class_%s_%s" % (tag, "allowed" if allow else "disallowed"), u32(AR | 2 << 16) + gstr(cls) + u32(0), allow,
              "Array kind 2 (class name) %r, count 0" % cls.decode("latin-1"))
    c("array_class_node_holding_int", u32(AR | 2 << 16) + gstr(b"Node") + u32(1) + i7, True, "Array[Node] holding int 7")
    c("array_class_node_holding_refcounted", u32(AR | 2 << 16) + gstr(b"Node") + u32(1) + u32(24) + gstr(b"RefCounted") + u32(0), True,
      "Array[Node] holding a full RefCounted")
    c("array_class_node_holding_id", u32(AR | 2 << 16) + gstr(b"Node") + u32(1) + u32(24 | 1 << 16) + u64(12345), False,
      "Array[Node] holding object-as-id 12345, allow false")
    for path, tag in ((b"", "empty"), (b"res://x.gd", "res"), (b"user://x.gd", "user"), (b"NoPath", "nopath")):
        for allow in (False, True):
            c("array_script_%s_%s" % (tag, "allowed" if allow else "disallowed"), u32(AR | 3 << 16) + gstr(path) + u32(0), allow,
              "Array kind 3 (script) %r, count 0" % path.decode())
    for bits, note in ((0x3 << 18, "bits 18-19"), (0x1 << 16 | 0x3 << 18, "kind 1 + bits 18-19"), (0xFFF << 20, "bits 20-31")):
        extra = u32(2) if bits & (3 << 16) else ""
        c("array_hdr_%08x" % (AR | bits), u32(AR | bits) + extra + u32(1) + i7, False, "Array header with %s, then [7]" % note)
    # typed dictionaries: key kind bits 16-17, value kind bits 18-19
    def dh(k, v):
        return u32(DI | k << 16 | v << 18)
    c("dict_int_string_ctrl", dh(1, 1) + u32(2) + u32(4) + u32(1) + i7 + sx, False, "Dictionary[int, String] {7: 'x'}")
    c("dict_int_string_wrong_key", dh(1, 1) + u32(2) + u32(4) + u32(1) + sx + sx, False, "Dictionary[int, String] {'x': 'x'}")
    c("dict_int_string_wrong_value", dh(1, 1) + u32(2) + u32(4) + u32(1) + i7 + i7, False, "Dictionary[int, String] {7: 7}")
    c("dict_key_builtin_39", dh(1, 0) + u32(39) + u32(0), False, "Dictionary key kind 1 type 39")
    c("dict_value_builtin_ffffffff", dh(0, 1) + u32(0xFFFFFFFF) + u32(0), False, "Dictionary value kind 1 type 0xFFFFFFFF")
    c("dict_key_builtin_0", dh(1, 0) + u32(0) + u32(0), False, "Dictionary key kind 1 type 0 (NIL)")
    for allow in (False, True):
        a = "allowed" if allow else "disallowed"
        c("dict_key_class_nosuch_" + a, dh(2, 0) + gstr(b"NoSuchClass") + u32(0), allow, "Dictionary key kind 2 'NoSuchClass'")
        c("dict_value_class_node_" + a, dh(0, 2) + gstr(b"Node") + u32(0), allow, "Dictionary value kind 2 'Node'")
        c("dict_value_class_empty_" + a, dh(0, 2) + gstr(b"") + u32(0), allow, "Dictionary value kind 2 ''")
        c("dict_value_class_badutf8_" + a, dh(0, 2) + gstr(b"\xff") + u32(0), allow, "Dictionary value kind 2 invalid UTF-8")
        c("dict_value_script_res_" + a, dh(0, 3) + gstr(b"res://x.gd") + u32(0), allow, "Dictionary value kind 3 'res://x.gd' (key untyped)")
        c("dict_value_script_empty_" + a, dh(0, 3) + gstr(b"") + u32(0), allow, "Dictionary value kind 3 ''")
        c("dict_key_script_user_" + a, dh(3, 0) + gstr(b"user://x.gd") + u32(0), allow, "Dictionary key kind 3 'user://x.gd'")
        c("dict_int_value_script_res_" + a, dh(1, 3) + u32(2) + gstr(b"res://x.gd") + u32(0), allow, "Dictionary key int, value kind 3 'res://x.gd'")
    for bits in (1 << 20, 0xF << 20, 0xFFF << 20):
        c("dict_hdr_%08x" % (DI | bits), u32(DI | bits) + u32(1) + i7 + sx, False, "Dictionary header with bits 0x%08X, {7: 'x'}" % bits)
    c("dict_hdr_bits20_typed", u32(DI | 1 << 16 | 1 << 18 | 0xFFF << 20) + u32(2) + u32(4) + u32(1) + i7 + sx, False,
      "Dictionary[int, String] header with bits 20-31 set, {7: 'x'}")
    return out


def cases3():
    return (string_cases() + depth_cases(T3, True) + nodepath_cases(T3) + object_cases(T3, False)
            + packed_cases(T3, False) + misc_cases(T3, False))


def cases4():
    return (string_cases() + depth_cases(T4, False) + typed_cases() + nodepath_cases(T4) + object_cases(T4, True)
            + packed_cases(T4, True) + misc_cases(T4, True))
