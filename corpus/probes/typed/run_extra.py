#!/usr/bin/env python3
"""Follow-up probes for the typed-container conversions, Godot 4.6 only.

    python3 run_extra.py          # all of the below
    python3 run_extra.py parents  # -> class-parents-godot4.tsv
    python3 run_extra.py cases    # -> godot4-extra.jsonl (+ crashes-godot4-extra.json)

parents: every class of ClassDB with its parent class (`ClassDB.get_parent_class`), which
         decides what a class-typed container keeps when full objects are allowed.
cases:   the inputs of cases_extra.py: the conversions README.md's first probe leaves open
         (text of numbers and values, NodePath and Color from text, String::to_int/to_float,
         Quaternion/Basis arithmetic, the RID of a fresh object of every class).
Same engine, route and record format as run_typed.py (../engines.py, ../probe4/, ../run.py).
Python standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import engines       # noqa: E402  (../engines.py)
import run as probes  # noqa: E402  (../run.py)


def out(name):
    return os.path.join(HERE, name)


def run_parents():
    lines, _ = engines.run(4, "parents", [""])
    pairs = sorted({tuple(l.split("\t")[1:3]) for l in lines if l.startswith("PARENT\t")})
    with open(out("class-parents-godot4.tsv"), "w") as f:
        f.write("# class\tparent (ClassDB.get_parent_class, Godot 4.6 official web template)\n")
        for c, p in pairs:
            f.write("%s\t%s\n" % (c, p))
    print("godot4 parents: %d classes" % len(pairs))


def run_cases():
    import cases_extra
    cs = cases_extra.cases()
    names = [c[0] for c in cs]
    assert len(names) == len(set(names)), "duplicate case names"
    items = ["%s\t%s\t%s\t%s" % (n, h, "1" if a else "0", note.replace("\t", " ")) for n, h, a, note in cs]
    lines, crashed = engines.run(4, "cases", items, timeout=3000)
    recs = probes.merge(4, lines)
    probes.dump_jsonl(out("godot4-extra.jsonl"), recs)
    with open(out("crashes-godot4-extra.json"), "w") as f:
        json.dump(crashed, f, indent=1)
        f.write("\n")
    print("godot4 extra: %d cases, %d records, %d accepted, %d crashed/hung %s" % (
        len(cs), len(recs), sum(r["accepted"] for r in recs), len(crashed), [c["name"] for c in crashed]))


def main():
    what = sys.argv[1:] or ["parents", "cases"]
    for w in what:
        {"parents": run_parents, "cases": run_cases}[w]()


if __name__ == "__main__":
    main()
