"""Run the real engines for run.py: Godot 3.2.3 (Debian godot3-server, headless)
and Godot 4.6 (official web export template from npm, in headless Chromium), both
through the project's driver, tools/engines/godot.py. Both return the engine's
output lines; a case that kills or hangs the engine is reported and the run
resumes after it."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "engines"))
import godot  # noqa: E402  (the project's engine driver)

log = godot.log


def _run3_once(mode, payload, timeout):
    return godot.run_godot3(["-s", os.path.join(HERE, "probe3.gd")], extra={"in.txt": payload},
                            env={"PROBE_MODE": mode, "PROBE_IN": "{home}/in.txt"}, timeout=timeout,
                            errors="surrogatepass")


def _run4_once(mode, payload, timeout, stall=120):
    project = os.path.join(HERE, "probe4")
    return godot.run_godot4(godot.project_files(project, ["project.godot", "main.tscn", "probe4.gd"]),
                            ["--headless", "--", "mode=" + mode], extra={"cases.txt": payload},
                            timeout=timeout, stall=stall, errors="surrogatepass")


# ------------------------------------------------------------------ common

def run(engine, mode, items, timeout=900):
    """Run mode over items (list of text lines). In 'cases' mode an engine
    death or hang is attributed to the case that was being decoded (a
    DECODE_BEGIN without DECODE_END); it is reported in `crashed` and the run
    resumes with the next case. Returns (lines, crashed)."""
    once = _run3_once if engine == 3 else _run4_once
    begin = "DECODE_BEGIN " if engine == 3 else "STDERR DECODE_BEGIN "
    end = "DECODE_END " if engine == 3 else "STDERR DECODE_END "
    all_lines, crashed = [], []
    todo = list(items)
    while True:
        rc, lines = once(mode, "\n".join(todo) + "\n", timeout)
        if any(l.strip() == "PROBE_DONE" for l in lines):
            all_lines += lines
            return all_lines, crashed
        if mode != "cases":
            sys.exit("godot%d %s run failed (rc=%s); tail:\n%s" % (engine, mode, rc, "\n".join(lines[-30:])))
        # the open case: DECODE_BEGIN seen but its REC line not printed yet
        open_case, phase = None, None
        for i, l in enumerate(lines):
            if l.startswith(begin):
                open_case, start_idx, phase = l[len(begin):].strip(), i, "decoding"
            elif l.startswith(end):
                phase, end_idx = "after decode (building the record / releasing the value)", i
            elif "REC\t" in l[:12] and open_case is not None and ('"name":"%s"' % open_case) in l:
                open_case = None
        if open_case is None:
            last = todo[-1].split("\t", 1)[0]
            if any("REC\t" in l[:12] and ('"name":"%s"' % last) in l for l in lines):
                log("godot%d: engine died at exit (rc=%s), after the last case" % (engine, rc))
                return all_lines + lines, crashed
            sys.exit("godot%d died outside a case (rc=%s); tail:\n%s" % (engine, rc, "\n".join(lines[-30:])))
        log("godot%d: engine died or hung (rc=%s) while decoding %s (%s)" % (engine, rc, open_case, phase))
        info = {"name": open_case, "rc": rc, "phase": phase,
                "log_tail": [l for l in lines[start_idx + 1:] if l.strip()][-12:]}
        if phase != "decoding":
            info["decode_log"] = [l for l in lines[start_idx + 1:end_idx] if l.strip()]
        crashed.append(info)
        all_lines += lines[:start_idx]
        names = [t.split("\t", 1)[0] for t in todo]
        todo = todo[names.index(open_case) + 1:]
        if not todo:
            return all_lines, crashed
