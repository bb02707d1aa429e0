"""Runs the probes on the real engines through the project's driver, tools/engines/godot.py:
Godot 3.2.3 (`godot3-server`, headless) runs probe3/probe3.gd, Godot 4.6 (the official web export
template) runs probe4/ in headless Chromium; both folders also hold the scripts of the
objects the probes build. A case that kills or hangs an engine is reported and the run resumes
after it in a fresh engine. Python standard library only.
"""
import base64
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "engines"))
import godot  # noqa: E402  (the project's engine driver)

log = godot.log


def _godot3_once(payload, timeout):
    # Without a project, res:// is the working directory: the scripts of the objects it builds.
    return godot.run_godot3(["-s", "{home}/probe3.gd"], files=godot.project_files(os.path.join(HERE, "probe3")),
                            extra={"cases.txt": payload}, env={"TEXT_CASES": "{home}/cases.txt"}, timeout=timeout)


def _godot4_once(payload, timeout, stall=120, project=os.path.join(HERE, "probe4")):
    return godot.run_godot4(godot.project_files(project), ["--headless"], extra={"cases.txt": payload},
                            timeout=timeout, stall=stall)


def _parse(engine, lines):
    """Records by name, the log lines of each case, and whether the run finished."""
    begin = "BEGIN\t" if engine == 3 else "STDERR BEGIN\t"
    records, logs, current, finished = {}, {}, None, False
    for line in lines:
        if line.startswith(begin):
            current = line[len(begin):].strip()
            logs[current] = []
        elif line.startswith("REC\t"):
            parts = line.rstrip("\n").split("\t")
            name = parts[1]
            records[name] = {"bytes": parts[2], "text": parts[3], "again": parts[4] if len(parts) > 4 else "",
                             "input": parts[5] if len(parts) > 5 else None, "log": logs.get(name, [])}
            current = None
        elif line.startswith("PROBE_DONE"):
            finished = True
            current = None
        elif current is not None and line.strip():
            logs[current].append(line[len("STDERR "):] if line.startswith("STDERR ") else line)
    return records, logs, finished


def run(engine, cases, timeout=1800):
    """Runs `cases` ([(name, bytes or "*recipe")]) on Godot `engine` (3 or 4). Returns (records by
    name, crashed case names)."""
    once = _godot3_once if engine == 3 else _godot4_once
    todo = list(cases)
    records, crashed = {}, []
    while todo:
        payload = "".join("%s\t%s\n" % (name, data if isinstance(data, str) else base64.b64encode(data).decode())
                          for name, data in todo)
        rc, lines = once(payload, timeout)
        got, logs, finished = _parse(engine, lines)
        records.update(got)
        if finished:
            break
        names = [name for name, _ in todo]
        started = [name for name in names if name in logs]
        if not started:
            sys.exit("godot%d failed before the first case (rc=%s):\n%s" % (engine, rc, "\n".join(lines[-30:])))
        last = started[-1]
        if last in got:
            sys.exit("godot%d stopped between cases (rc=%s):\n%s" % (engine, rc, "\n".join(lines[-30:])))
        log("godot%d: engine died or hung (rc=%s) on %s" % (engine, rc, last))
        crashed.append(last)
        todo = todo[names.index(last) + 1:]
    return records, crashed
