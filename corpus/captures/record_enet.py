#!/usr/bin/env python3
"""Records corpus/captures/godot3_enet_multiplayer.pcap and its .jsonl: tcpdump on loopback while
the corpus's Godot 3.2.3 multiplayer scenario (corpus/multiplayer/godot3/capture.gd: a server
and two clients over NetworkedMultiplayerENet) runs, the clients connecting straight to the
server.

With --lossy, records godot3_enet_lossy.pcap and .jsonl instead: the scenario with MP_LARGE=1
(its step "large": RPCs larger than ENet's MTU, so fragmented, reliable and unreliable, and
bursts of small sends), the clients connecting through lossy_relay.py (only its middle hop is
captured), which drops every 7th datagram towards the server and every 6th towards a client
after tcpdump saw it, and every 11th towards the server and 13th towards a client before
tcpdump could see it, so ENet sends the lost reliable commands again. The .jsonl also has a line
{"kind": "DROP", "data": {"conn", "dir", "where", "n", "hex"}} per datagram dropped.

Needs tcpdump and godot3-server, and root (or capture rights) for tcpdump. The .jsonl holds
every line the engine printed (`KIND\\t{json}`), one JSON object a line:
{"kind": KIND, "data": the printed object}; the FX lines are what each receiver logged (its
node, method or property, sender and arguments with their bytes).
"""
import json, os, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
LOSSY = "--lossy" in sys.argv[1:]
NAME = "godot3_enet_lossy" if LOSSY else "godot3_enet_multiplayer"
PROJECT = os.path.join(HERE, "..", "multiplayer", "godot3")

def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def main():
    port = free_udp_port()
    connect_port, captured_port, relay = port, port, None
    if LOSSY:
        sys.path.insert(0, HERE)
        from lossy_relay import LossyRelay
        connect_port, captured_port = free_udp_port(), free_udp_port()
        relay = LossyRelay(connect_port, captured_port, port,
                           after={"to_server": 7, "to_client": 6},
                           before={"to_server": 11, "to_client": 13})
        relay.start()
    pcap = os.path.join(HERE, NAME + ".pcap")
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-w", pcap, "udp", "port",
                             str(captured_port)], stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, MP_TRANSPORT="enet", MP_SERVER_PORT=str(port),
                   MP_CONNECT_PORT=str(connect_port), HOME=home, LC_ALL="C.UTF-8",
                   XDG_DATA_HOME=home + "/d", XDG_CONFIG_HOME=home + "/c",
                   XDG_CACHE_HOME=home + "/k")
        if LOSSY:
            env["MP_LARGE"] = "1"
        engine = subprocess.run(["godot3-server", "--no-window", "--path", PROJECT,
                                 "-s", "capture.gd"], cwd=home, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=300)
    time.sleep(0.5)
    dump.send_signal(signal.SIGINT)
    dump.wait(timeout=10)
    if relay:
        relay.stop()
    lines = engine.stdout.splitlines()
    if not any(l.startswith("DONE\t") for l in lines) or any(l.startswith("FAIL\t") for l in lines):
        sys.exit("the scenario failed:\n" + "\n".join(lines[-30:]))
    with open(os.path.join(HERE, NAME + ".jsonl"), "w") as f:
        for line in lines:
            kind, sep, rest = line.partition("\t")
            if not sep:
                continue
            try:
                data = json.loads(rest)
            except ValueError:
                continue
            f.write(json.dumps({"kind": kind, "data": data}, sort_keys=True) + "\n")
        for drop in relay.drops if relay else []:
            f.write(json.dumps({"kind": "DROP", "data": drop}, sort_keys=True) + "\n")
    effects = sum(1 for l in lines if l.startswith("FX\t"))
    sent = sum(n for (_, _, where), n in relay.counts.items() if where == "before") if relay else 0
    dropped = f", {len(relay.drops)} of the engines' {sent} datagrams dropped" if relay else ""
    print(f"{pcap}: {os.path.getsize(pcap)} bytes, port {captured_port}, {effects} effects logged{dropped}")

main()
