#!/usr/bin/env python3
"""Regenerate godot3-identity.jsonl / godot4-identity.jsonl with the real engines.

    python3 identity.py [3] [4]        # default: both

Each case of identity_cases.py is decoded with bytes2var (Godot 3.2.3,
identity3.gd) / bytes_to_var (Godot 4.6, identity4/), and the engine's
answers are recorded: the dictionary's size, its var2str / var_to_str text and
the var2bytes / var_to_bytes re-encoding of the decoded value. Engines as in
run.py (engines.py). Python standard library only.
"""
import base64
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import identity_cases  # noqa: E402
from engines import run_godot3, run_godot4  # noqa: E402


def collect(engine, lines, version, crash_ok=False):
    """REC lines -> records by name; the engine's error lines between each case's markers.

    With crash_ok, an engine that stopped before PROBE_DONE is not an error: the records so far
    are returned, and "_crashed_on" names the case whose decode began last.
    """
    pre = "" if engine == 3 else "STDERR "
    logs, recs, cur, done, last = {}, {}, None, False, None
    for line in lines:
        if line.startswith(pre + "DECODE_BEGIN "):
            cur = last = line.split(" ")[-1].strip()
            logs[cur] = []
        elif line.startswith(pre + "DECODE_END "):
            cur = None
        elif line.startswith("REC\t"):
            r = json.loads(line.split("\t", 1)[1])
            recs[r["name"]] = r
        elif line.startswith("PROBE_DONE"):
            done = True
        elif cur is not None and line.strip():
            logs[cur].append(line[len(pre):] if line.startswith(pre) else line)
    if not done and not crash_ok:
        sys.exit("no PROBE_DONE line:\n" + "\n".join(lines[-30:]))
    out = {}
    if not done:
        out["_crashed_on"] = last or ""
    for name, r in recs.items():
        rec = {"name": name, "godot": version, "type": int(r["type"]),
               "text": r["text"], "reencoded_hex": base64.b64decode(r["reencoded_b64"]).hex(),
               "godot_log": logs.get(name, [])}
        if "size" in r:
            rec["size"] = int(r["size"])
            rec["size_after"] = int(r["size_after"])
        out[name] = rec
    return out


def run(engine, case_list, crash_ok=False):
    """Runs `case_list` ({"name", "b64", ...}) on one engine: records by name (see collect)."""
    if engine == 3:
        lines = run_godot3(case_list, os.path.join(HERE, "identity3.gd"))
        version = "3.2.3-stable"
    else:
        lines = run_godot4(case_list, os.path.join(HERE, "identity4"))
        version = "4.6-stable (official)"
    return collect(engine, lines, version, crash_ok)


def main():
    engines = [int(a) for a in sys.argv[1:]] or [3, 4]
    for e in engines:
        cl = identity_cases.cases(e)
        got = run(e, cl)
        path = os.path.join(HERE, "godot%d-identity.jsonl" % e)
        with open(path, "w", encoding="utf-8") as f:
            for c in cl:
                if c["name"] not in got:
                    sys.exit("godot%d: no record for %s" % (e, c["name"]))
                r = dict(got[c["name"]])
                r["input_hex"] = base64.b64decode(c["b64"]).hex()
                r["note"] = c["note"]
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print("wrote %s (%d records)" % (path, len(cl)))


if __name__ == "__main__":
    main()
