"""Runs a Godot 4 project folder in the official Godot 4.6 web export template, headless in
Chromium, and returns (or streams) every line the engine prints (engine errors prefixed
"STDERR "), through the project's shared driver, tools/engines/godot.py. Standard library only.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "engines"))
import godot  # noqa: E402


def run(project, user_args=(), timeout=600, on_line=None):
    """Runs the project folder `project` (its files but the .py ones); returns (finished, lines).
    `on_line` is called with each line as it arrives."""
    files = godot.project_files(project, skip_suffixes=(".py",))
    rc, lines = godot.run_godot4(files, ["--headless", "--"] + list(user_args), timeout=timeout,
                                 on_line=on_line, errors="surrogatepass")
    return rc != "timeout", lines


if __name__ == "__main__":
    # python3 web4.py PROJECT_DIR [ARG...]: prints the engine's lines as they arrive.
    ok, _ = run(sys.argv[1], sys.argv[2:], on_line=lambda l: print(l, flush=True))
    sys.exit(0 if ok else 1)
