#!/usr/bin/env python3
"""Typed-container conversion probe, Godot 4.6 only.

    python3 run_typed.py        # -> godot4.jsonl (+ crashes-godot4.json)

Cases: cases_typed.py. The engine driver, the Godot 4 probe project and the record handling
(merge, dump_jsonl) are those of the parent folder (../engines.py, ../probe4/, ../run.py).
Python standard library only.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import engines       # noqa: E402  (../engines.py)
import run as probes  # noqa: E402  (../run.py)
import cases_typed   # noqa: E402


def out(name):
    return os.path.join(HERE, name)


# ------------------------------------------------------------------ records (from ../run.py)

def main():
    cs = cases_typed.cases()
    items = ["%s\t%s\t%s\t%s" % (n, h, "1" if a else "0", note.replace("\t", " ")) for n, h, a, note in cs]
    lines, crashed = engines.run(4, "cases", items, timeout=3000)
    recs = probes.merge(4, lines)
    got = {r["name"] for r in recs}
    missing = [c[0] for c in cs if c[0] not in got and c[0] not in {x["name"] for x in crashed}]
    probes.dump_jsonl(out("godot4.jsonl"), recs)
    with open(out("crashes-godot4.json"), "w") as f:
        json.dump(crashed, f, indent=1)
        f.write("\n")
    print("godot4 typed: %d cases, %d records, %d accepted, %d crashed/hung %s, %d missing %s" % (
        len(cs), len(recs), sum(r["accepted"] for r in recs), len(crashed), [c["name"] for c in crashed],
        len(missing), missing[:10]))


if __name__ == "__main__":
    main()
