#!/usr/bin/env python3
"""Records corpus/captures/godot3_tcp_put_var.pcap and its .json: tcpdump on loopback while two
Godot 3.2.3 peers (record_godot3.gd) talk over TCP with StreamPeerTCP.put_var.

Needs tcpdump and godot3-server, and root (or capture rights) for tcpdump. The JSON holds what
each engine printed it sent, in order: {"port", "to_server": [...], "to_client": [...]}, each
entry {"hex": value bytes, "refused": whether Godot's get_var refuses the frame}.
"""
import json, os, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "godot3_tcp_put_var"

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def godot(mode, port, home):
    env = dict(os.environ, REC_MODE=mode, REC_PORT=str(port), HOME=home, LC_ALL="C.UTF-8",
               XDG_DATA_HOME=home + "/d", XDG_CONFIG_HOME=home + "/c", XDG_CACHE_HOME=home + "/k")
    return subprocess.Popen(["godot3-server", "--no-window", "-s", os.path.join(HERE, "record_godot3.gd")],
                            cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

def sent(output):
    out = []
    for line in output.splitlines():
        if line.startswith("SENT_REFUSED "):
            out.append({"hex": line.split(" ", 1)[1].strip(), "refused": True})
        elif line.startswith("SENT "):
            out.append({"hex": line.split(" ", 1)[1].strip(), "refused": False})
    return out

def main():
    port = free_port()
    pcap = os.path.join(HERE, NAME + ".pcap")
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-w", pcap, "tcp", "port", str(port)],
                            stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    with tempfile.TemporaryDirectory() as home:
        server = godot("server", port, home)
        while True:
            line = server.stdout.readline()
            if not line or line.strip() == "READY":
                break
        client = godot("client", port, home)
        client_out, _ = client.communicate(timeout=120)
        server_out, _ = server.communicate(timeout=120)
    time.sleep(0.5)
    dump.send_signal(signal.SIGINT)
    dump.wait(timeout=10)
    # The server must have read every frame up to "the end" and sent its own; the client's
    # reading back is not needed for the capture (what is on the wire is what each side
    # logged), so only the server's result is required.
    if "RESULT ok" not in server_out:
        sys.exit("server failed: " + server_out[-300:])
    record = {"port": port, "engine": "Godot 3.2.3 (godot3-server)",
              "to_server": sent(client_out), "to_client": sent(server_out)}
    with open(os.path.join(HERE, NAME + ".json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(f"{pcap}: {os.path.getsize(pcap)} bytes, {len(record['to_server'])} + {len(record['to_client'])} frames")

main()
