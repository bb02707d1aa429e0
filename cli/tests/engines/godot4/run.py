#!/usr/bin/env python3
"""Runs ws_client.gd in the official Godot 4.6 web export template, headless in Chromium, and
prints every line the engine prints. Usage: python3 run.py WS_URL [TIMEOUT_SECONDS]

The engine, the page and the browser are the project's shared driver's (tools/engines/godot.py):
this folder's project is zipped as the main pack and run with `url=WS_URL`. Exits 0 once the
engine has quit, 1 on a timeout. Standard library only.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "engines"))
import godot  # noqa: E402


def main():
    url = sys.argv[1]
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 120
    files = godot.project_files(HERE, ["project.godot", "main.tscn", "ws_client.gd"])
    rc, _ = godot.run_godot4(files, ["--headless", "--", "url=" + url], timeout=timeout,
                             on_line=lambda line: print(line, flush=True))
    sys.exit(1 if rc == "timeout" else 0)


if __name__ == "__main__":
    main()
