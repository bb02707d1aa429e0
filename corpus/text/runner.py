"""Runs the probes on the real engines: Godot 3.2.3 (`godot3-server`, headless) runs
probe3/probe3.gd, Godot 4.6 (the official web export template, fetched once by
../probes/engines.py) runs probe4/ in headless Chromium; both folders also hold the scripts of the
objects the probes build. A case that kills or hangs an engine is reported and the run resumes
after it in a fresh engine. Python standard library only.
"""
import base64
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROBES = os.path.join(os.path.dirname(HERE), "probes")
sys.path.insert(0, PROBES)
import engines as probe_engines  # noqa: E402  (../probes/engines.py: finds and fetches the engines)


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def _godot3_once(payload, timeout):
    tmp = tempfile.mkdtemp(prefix="text-g3-")
    # Without a project, res:// is the working directory: the scripts of the objects it builds.
    for f in os.listdir(os.path.join(HERE, "probe3")):
        shutil.copy(os.path.join(HERE, "probe3", f), tmp)
    path = os.path.join(tmp, "cases.txt")
    with open(path, "w") as f:
        f.write(payload)
    env = dict(os.environ, TEXT_CASES=path, LC_ALL="C.UTF-8", HOME=tmp,
               XDG_DATA_HOME=tmp + "/d", XDG_CONFIG_HOME=tmp + "/c", XDG_CACHE_HOME=tmp + "/k")
    out = os.path.join(tmp, "log")
    with open(out, "wb") as o:
        try:
            rc = subprocess.run([probe_engines.godot3(), "--no-window", "-s", os.path.join(tmp, "probe3.gd")],
                                stdout=o, stderr=subprocess.STDOUT, env=env, cwd=tmp, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    with open(out, "rb") as f:
        lines = f.read().decode("utf-8", "replace").split("\n")
    shutil.rmtree(tmp, ignore_errors=True)
    return rc, lines


def _godot4_once(payload, timeout, stall=120, project=os.path.join(HERE, "probe4")):
    engine = probe_engines.fetch_engine4()
    web = tempfile.mkdtemp(prefix="text-g4-")
    for f in probe_engines.ENGINE_FILES:
        os.symlink(os.path.join(engine, f), os.path.join(web, f))
    shutil.copy(os.path.join(PROBES, "probe4", "run.html"), os.path.join(web, "run.html"))
    with zipfile.ZipFile(os.path.join(web, "probe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(os.listdir(project)):
            z.write(os.path.join(project, f), f)
        z.writestr("cases.txt", payload)
    chunks, state = [], {"last": time.time(), "done": None}
    done = threading.Event()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=web, **k)

        def end_headers(self):
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def guess_type(self, path):
            if path.endswith(".wasm"):
                return "application/wasm"
            return "application/javascript" if path.endswith(".js") else super().guess_type(path)

        def log_message(self, *a):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            u = urllib.parse.urlparse(self.path)
            state["last"] = time.time()
            if u.path == "/log":
                chunks.append(body.decode("utf-8", "replace"))
            elif u.path == "/done":
                state["done"] = u.query
                done.set()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    srv = Server(("127.0.0.1", 0), Handler)   # loopback only
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    args = ["--headless"]
    url = "http://127.0.0.1:%d/run.html?args=%s" % (srv.server_address[1], urllib.parse.quote(json.dumps(args)))
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium not found: apt-get install -y chromium")
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu",
                             "--disable-extensions", "--user-data-dir=" + profile, url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0, rc = time.time(), None
    while True:
        if done.wait(1):
            rc = state["done"]
            time.sleep(0.5)
            break
        if time.time() - t0 > timeout or time.time() - state["last"] > stall:
            rc = "timeout"
            break
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    srv.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(web, ignore_errors=True)
    return rc, "\n".join(chunks).split("\n")


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
