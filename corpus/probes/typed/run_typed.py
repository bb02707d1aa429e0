#!/usr/bin/env python3
"""Typed-container conversion probe, Godot 4.6 only.

    python3 run_typed.py        # -> godot4.jsonl (+ crashes-godot4.json)

Cases: cases_typed.py. Engine driver: engines.py (copy of ../engines.py; runs
probe4/ (copy of ../probe4/ whose probe4.gd also records `size`) in the official
Godot 4.6 web export template in headless Chromium). merge()/sanitize()/
dump_jsonl() below are copied from ../run.py unchanged, except that `size` is
dropped with `result` on a rejected decode. Python standard library only.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engines       # noqa: E402
import cases_typed   # noqa: E402


def out(name):
    return os.path.join(HERE, name)


# ------------------------------------------------------------------ records (from ../run.py)

def merge(engine, lines):
    """Attach each case's engine error lines and derive accepted/godot_error the
    same way tools/godot{3,4}-corpus/generate.py do for decode.jsonl."""
    pre = "" if engine == 3 else "STDERR "
    logs, recs, cur = {}, [], None
    for line in lines:
        if line.startswith(pre + "DECODE_BEGIN "):
            cur = line.split(" ")[-1].strip()
            logs[cur] = []
        elif line.startswith(pre + "DECODE_END "):
            cur = None
        elif line.startswith("REC\t") or line.startswith(pre + "REC\t"):
            recs.append(json.loads(line.split("\t", 1)[1], strict=False))
        elif cur is not None:
            if engine == 4 and line.startswith("STDERR "):
                line = line[len("STDERR "):]
            logs[cur].append(line.rstrip())
    result = []
    for r in recs:
        lines_ = [l for l in logs.get(r["name"], []) if l.strip()]
        if engine == 3:
            accepted = not any("_bnd_get_var" in l for l in lines_)
            rx = r"Return(?:ed|ing): (ERR_[A-Z_]+)"
            glog = [l for l in lines_ if not l.strip().startswith("At: core/io/packet_peer")]
        else:
            accepted = not (any("get_var" in l for l in lines_) or r.get("packet_error", 0) != 0)
            rx = r"Return(?:ed|ing):? (ERR_[A-Z_]+)"
            glog = lines_
        code = None
        for l in lines_:
            m = re.search(rx, l)
            if m:
                code = m.group(1)
                break
        r["accepted"] = accepted
        r["godot_error"] = None if accepted else (code or "FAILED")
        r["godot_log"] = glog
        if not accepted:
            for k in ("result", "result_var2str", "result_var_to_str", "result_type", "result_codepoints", "size"):
                r.pop(k, None)
        result.append(sanitize(r))
    return result


def has_surrogates(x):
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in x)


def sanitize(r):
    """JSON text cannot carry lone surrogates (3.2.3 accepts them in strings):
    such strings inside result / result_var2str become null and the record gets
    result_unrepresentable=true (the code points of a top-level String are in
    result_codepoints); in godot_log they become U+FFFD."""
    flag = []

    def walk(x):
        if isinstance(x, str):
            if has_surrogates(x):
                flag.append(1)
                return None
            return x
        if isinstance(x, list):
            return [walk(y) for y in x]
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        return x
    for k in ("result", "result_var2str", "result_var_to_str"):
        if k in r:
            r[k] = walk(r[k])
    if flag:
        r["result_unrepresentable"] = True
    r["godot_log"] = ["".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in l) for l in r["godot_log"]]
    return r


def dump_jsonl(path, recs):
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")



def main():
    cs = cases_typed.cases()
    items = ["%s\t%s\t%s\t%s" % (n, h, "1" if a else "0", note.replace("\t", " ")) for n, h, a, note in cs]
    lines, crashed = engines.run(4, "cases", items, timeout=3000)
    recs = merge(4, lines)
    got = {r["name"] for r in recs}
    missing = [c[0] for c in cs if c[0] not in got and c[0] not in {x["name"] for x in crashed}]
    dump_jsonl(out("godot4.jsonl"), recs)
    with open(out("crashes-godot4.json"), "w") as f:
        json.dump(crashed, f, indent=1)
        f.write("\n")
    print("godot4 typed: %d cases, %d records, %d accepted, %d crashed/hung %s, %d missing %s" % (
        len(cs), len(recs), sum(r["accepted"] for r in recs), len(crashed), [c["name"] for c in crashed],
        len(missing), missing[:10]))


if __name__ == "__main__":
    main()
