#!/usr/bin/env python3
"""Godot 3 strings that are not standard UTF-8, in the places a program meets them.
`python3 cases.py` prints one case per line: name, hex of the value's bytes, allow_objects
(0/1), note. run.sh feeds them to Godot 3.2.3 (probe3.gd)."""
import struct

OVERLONG_T = b"\xe0\x81\xb4"          # U+0074 't' as an overlong 3-byte form
OVERLONG_A = b"\xe0\x81\xa1"          # U+0061 'a'
OVERLONG_R = b"\xe0\x81\x92"          # U+0052 'R'
SURROGATE = b"\xed\xa0\x80"           # U+D800
ABOVE = b"\xf4\x90\x80\x80"           # U+110000
FIVE = b"\xf8\x88\x80\x80\x80"        # U+200000
SIX = b"\xfd\xbf\xbf\xbf\xbf\xbf"     # U+7FFFFFFF
OVERLONG_4 = b"\xf0\x80\xa0\x80"      # U+0800 as an overlong 4-byte form
OVERLONG_5 = b"\xf8\x80\x84\x80\x80"  # U+4000 as an overlong 5-byte form
OVERLONG_6 = b"\xfc\x80\x82\x80\x80\x80"  # U+80000 as an overlong 6-byte form


def u32(x):
    return struct.pack("<I", x)


def s(body):
    """A string body with its length and padding (no header)."""
    return u32(len(body)) + body + b"\0" * (-len(body) % 4)


def string(body):
    return u32(4) + s(body)


def integer(x):
    return u32(2) + u32(x)


def dictionary(*entries):
    return u32(18) + u32(len(entries)) + b"".join(k + v for k, v in entries)


def array(*items):
    return u32(19) + u32(len(items)) + b"".join(items)


def node_path(names, subnames, absolute=False):
    return (u32(15) + u32(0x80000000 | len(names)) + u32(len(subnames)) + u32(1 if absolute else 0)
            + b"".join(s(n) for n in names + subnames))


def pool_strings(*bodies):
    return u32(23) + u32(len(bodies)) + b"".join(s(b) for b in bodies)


def full_object(class_body, properties):
    return (u32(17) + s(class_body) + u32(len(properties))
            + b"".join(s(name) + value for name, value in properties))


CASES = [
    ("str_overlong_t", string(OVERLONG_T + b"ype"), 0, "overlong 't' then 'ype'"),
    ("str_overlong_4_5_6", string(OVERLONG_4 + OVERLONG_5 + OVERLONG_6), 0, "overlong 4-, 5-, 6-byte forms"),
    ("str_surrogate", string(b"a" + SURROGATE + b"b"), 0, "a U+D800 b"),
    ("str_above_10ffff", string(ABOVE), 0, "U+110000"),
    ("str_five_byte", string(FIVE), 0, "U+200000 (5 bytes)"),
    ("str_six_byte", string(SIX), 0, "U+7FFFFFFF (6 bytes)"),
    ("str_overlong_and_surrogate", string(OVERLONG_T + SURROGATE), 0, "overlong 't' then U+D800"),
    ("str_escapes", string(b'"\\' + OVERLONG_T + b"\n"), 0, "quote, backslash, overlong 't', newline"),
    ("dict_overlong_key", dictionary((string(OVERLONG_T + b"ype"), integer(1))), 0,
     "{overlong 'type': 1}"),
    ("dict_plain_then_overlong", dictionary((string(b"type"), integer(1)),
                                            (string(OVERLONG_T + b"ype"), integer(2))), 0,
     "{'type': 1, overlong 'type': 2}"),
    ("dict_overlong_then_plain", dictionary((string(OVERLONG_T + b"ype"), integer(1)),
                                            (string(b"type"), integer(2))), 0,
     "{overlong 'type': 1, 'type': 2}"),
    ("dict_order_overlong_a", dictionary((string(b"b"), integer(1)),
                                         (string(OVERLONG_A), integer(2))), 0,
     "{'b': 1, overlong 'a': 2}: var2str order"),
    ("dict_order_surrogate", dictionary((string("\ue000".encode()), integer(1)),
                                        (string(SURROGATE), integer(2)),
                                        (string(b"z"), integer(3))), 0,
     "{U+E000: 1, U+D800: 2, 'z': 3}: var2str order"),
    ("array_surrogate_in_key_array", dictionary((array(string(SURROGATE)), integer(1)),
                                                (array(string(SURROGATE)), integer(2))), 0,
     "two keys [U+D800]: one key?"),
    ("node_path_overlong", node_path([OVERLONG_T + b"ype", SURROGATE], [OVERLONG_A]), 0,
     "NodePath names [overlong 'type', U+D800], subnames [overlong 'a']"),
    ("pool_strings", pool_strings(OVERLONG_T + b"ype", SURROGATE, SIX, b"x"), 0,
     "PoolStringArray [overlong 'type', U+D800, U+7FFFFFFF, 'x']"),
    ("object_overlong_class", full_object(OVERLONG_R + b"eference", []), 1,
     "full object of class overlong 'Reference'"),
    ("object_overlong_property", full_object(b"Resource", [(b"resource_" + b"\xe0\x81\xae" + b"ame",
                                                            string(b"x"))]), 1,
     "Resource with property overlong 'resource_name' = 'x'"),
]


if __name__ == "__main__":
    for name, data, allow, note in CASES:
        print("%s\t%s\t%d\t%s" % (name, data.hex(), allow, note))
