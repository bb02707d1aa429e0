#!/usr/bin/env python3
"""Summarise godot4.jsonl (typed probe): for typed arrays, per target type T, which
values are kept as-is (K), converted (C: shown), or dropped (D)."""
import json, sys, os
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cases_typed import VALUES, TYPE_NAMES
R = {}
for l in open(os.path.join(HERE, "godot4.jsonl")):
    r = json.loads(l)
    R[r["name"]] = r
# as-is description of every value: from the array typed with its own type
asis = {}
for tag, u, h, d in VALUES:
    if u == 0:
        asis[tag] = {"t": "Nil"}
        continue
    r = R["arr_t%02d_%s" % (u, tag)]
    assert r["size"] == 1, tag
    asis[tag] = r["result"]["items"][0]

def short(x):
    s = json.dumps(x, separators=(",", ":"))
    return s if len(s) < 160 else s[:157] + "..."

def classify(r, tag):
    assert r["accepted"], r["name"]
    items = r["result"]["items"] if r["result"]["t"] == "Array" else None
    if r["size"] == 0:
        return "D", None
    it = items[0]
    return ("K", None) if it == asis[tag] else ("C", it)

if __name__ == "__main__":
    for t in range(1, 39):
        print("== T=%d %s" % (t, TYPE_NAMES[t]))
        ks, ds = [], []
        for tag, u, h, d in VALUES:
            k, it = classify(R["arr_t%02d_%s" % (t, tag)], tag)
            if k == "K":
                ks.append(tag)
            elif k == "D":
                ds.append(tag)
            else:
                print("   C %-16s (%s) -> %s" % (tag, d, short(it)))
        print("   K", " ".join(ks))
        print("   D", " ".join(ds))


def type_matrix():
    """per T: source types U kept / converted / dropped (checks that the verdict
    depends on U only)."""
    rows = {}
    for t in range(1, 39):
        per_u = {}
        for tag, u, h, d in VALUES:
            k, _ = classify(R["arr_t%02d_%s" % (t, tag)], tag)
            per_u.setdefault(u, set()).add("D" if k == "D" else "A")
        rows[t] = per_u
    return rows
