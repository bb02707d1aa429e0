#!/usr/bin/env python3
"""The engine runs of the probes here and of corpus/probes/campaign, through the project's
driver, tools/engines/godot.py.

run_godot3(cases, script): Godot 3.2.3 (`godot3-server`, Debian bookworm
package godot3-server) runs `script` (an `extends SceneTree` script) with
PROBE_CASES naming a JSON file holding `cases`; returns its output lines
(stdout and stderr in one stream).

run_godot4(cases, project): the official Godot 4.6 web export template (fetched
once with `npm pack` into $GODOT4_WEB_CACHE, default /tmp/godot4-web-engine) runs
the project folder `project` (project.godot, main.tscn, probe.gd; cases.json is
added to the pack) in headless Debian `chromium`; returns the printed lines
(stderr lines prefixed with "STDERR "). A script error ends the run early.

Python standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "engines"))
import godot  # noqa: E402  (the project's engine driver)


def run_godot3(case_list, script=os.path.join(HERE, "probe3.gd")):
    rc, lines = godot.run_godot3(["-s", script], extra={"cases.json": json.dumps(case_list)},
                                 env={"PROBE_CASES": "{home}/cases.json"}, timeout=600)
    if rc == "timeout":
        sys.exit("Godot 3 did not finish")
    return lines


def run_godot4(case_list, project=os.path.join(HERE, "probe4")):
    rc, lines = godot.run_godot4(godot.project_files(project, ["project.godot", "main.tscn", "probe.gd"]),
                                 ["--headless"], extra={"cases.json": json.dumps(case_list)},
                                 timeout=int(os.environ.get("GODOT4_TIMEOUT", "300")),
                                 stop_on=("Parse Error", "Failed to load script"))
    if rc == "timeout":
        sys.exit("Godot 4 did not finish")
    return lines
