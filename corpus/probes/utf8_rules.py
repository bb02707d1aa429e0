#!/usr/bin/env python3
"""The STRING UTF-8 acceptance rules inferred from the sweeps, as executable
pseudo-code. `python3 utf8_rules.py` checks both models against every input of
run.py's sweep (sweep-godot{3,4}.tsv list the accepted ones) and prints the
number of mismatches (0 expected)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def godot3_utf8(b):
    """Godot 3.2.3. b = the N string bytes (padding excluded). None = rejected
    (ERR_INVALID_DATA), else the list of code points (32-bit, unchecked)."""
    if len(b) >= 3 and b[:3] == b"\xef\xbb\xbf":
        b = b[3:]                                   # one leading BOM dropped
    if 0 in b:
        b = b[:b.index(0)]                          # text ends at the first NUL
    skip = 0                                        # pass 1: lead bytes only
    for c in b:
        if skip:
            skip -= 1
            continue
        if c < 0x80: skip = 0
        elif c & 0xE0 == 0xC0: skip = 1
        elif c & 0xF0 == 0xE0: skip = 2
        elif c & 0xF8 == 0xF0: skip = 3
        elif c & 0xFC == 0xF8: skip = 4
        elif c & 0xFE == 0xFC: skip = 5
        else: return None                           # 80..BF as lead, FE, FF
        if skip == 1 and c & 0x1E == 0: return None  # C0, C1
    if skip: return None                            # sequence cut by the end / by the NUL
    out, i = [], 0                                  # pass 2
    while i < len(b):
        c = b[i]
        n = 1 if c < 0x80 else 2 if c < 0xE0 else 3 if c < 0xF0 else 4 if c < 0xF8 else 5 if c < 0xFC else 6
        u = c if n == 1 else c & (0xFF >> (n + 1))
        for k in range(1, n):
            if b[i + k] & 0xC0 != 0x80: return None
            if k == 2 and u == 0 and (b[i + k] & 0x7F) >> (7 - n) == 0: return None  # only overlong check for n >= 3
            u = (u << 6) | (b[i + k] & 0x3F)
        out.append(u)
        i += n
    return out


def godot4_utf8(b):
    """Godot 4.6: strict RFC 3629 UTF-8 (what Python's 'utf-8' codec accepts)."""
    if 0 in b:
        b = b[:b.index(0)]
    if b[:3] == b"\xef\xbb\xbf":
        b = b[3:]
    try:
        return [ord(ch) for ch in b.decode("utf-8", "strict")]
    except UnicodeDecodeError:
        return None


def main():
    sys.path.insert(0, HERE)
    import run
    for eng, model in ((3, godot3_utf8), (4, godot4_utf8)):
        acc = {}
        for line in open(os.path.join(HERE, "sweep-godot%d.tsv" % eng)):
            if not line.startswith("#"):
                h, _, cps = line.rstrip("\n").split("\t")
                acc[h] = [int(x, 16) for x in cps.split(",")] if cps else []
        bad = 0
        ins = run.sweep_inputs()
        for h in ins:
            n = int.from_bytes(bytes.fromhex(h[8:16]), "little")
            b = bytes.fromhex(h[16:16 + 2 * n])
            if model(b) != acc.get(b.hex()):
                bad += 1
        print("godot%d: %d sweep inputs, %d mismatches" % (eng, len(ins), bad))


if __name__ == "__main__":
    main()
