#!/usr/bin/env python3
"""Records corpus/captures/godot3_websocket_mp.pcap and its .json: tcpdump on loopback while a
Godot 3.2.3 WebSocketServer and WebSocketClient (record_godot3_ws.gd, one process, the client
connected straight to the server) hold a multiplayer session.

Needs tcpdump and godot3-server, and root (or capture rights) for tcpdump. The JSON holds every
call the engine logged as received, in order: {"port", "engine", "calls": [{"side", "node",
"method", "args": [hex of var2bytes of each argument]}]}.
"""
import json, os, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "godot3_websocket_mp"

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def main():
    port = free_port()
    pcap = os.path.join(HERE, NAME + ".pcap")
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-w", pcap, "tcp", "port", str(port)],
                            stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, WS_PORT=str(port), WS_SCRIPTS=HERE, HOME=home, LC_ALL="C.UTF-8",
                   XDG_DATA_HOME=home + "/d", XDG_CONFIG_HOME=home + "/c",
                   XDG_CACHE_HOME=home + "/k")
        run = subprocess.run(["godot3-server", "--no-window", "-s",
                              os.path.join(HERE, "record_godot3_ws.gd")],
                             cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=120)
    time.sleep(0.5)
    dump.send_signal(signal.SIGINT)
    dump.wait(timeout=10)
    if "RESULT ok" not in run.stdout:
        sys.exit("session failed: " + run.stdout[-500:])
    calls = []
    for line in run.stdout.splitlines():
        if line.startswith("GOT "):
            _, side, node, method, hexes = line.split(" ")
            calls.append({"side": side, "node": node, "method": method,
                          "args": hexes.split(",")})
    record = {"port": port, "engine": "Godot 3.2.3 (godot3-server)", "calls": calls}
    with open(os.path.join(HERE, NAME + ".json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")

if __name__ == "__main__":
    main()
