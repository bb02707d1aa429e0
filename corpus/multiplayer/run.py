#!/usr/bin/env python3
"""Regenerates the real-engine multiplayer captures of this folder.

    python3 run.py godot4            # -> godot4.jsonl, godot4-rpc.json
    python3 run.py godot3-enet       # -> godot3-enet.jsonl
    python3 run.py godot3-websocket  # -> godot3-websocket.jsonl (through `gdvariant proxy`)
    python3 run.py all

godot4: Godot 4.6 (the official web build, headless Chromium; web4.py) runs godot4/capture.gd:
three SceneMultiplayer instances in one scene tree joined by a GDScript MultiplayerPeerExtension
that prints every packet, what each receiver did with it, and the engine's errors.

godot3-*: Godot 3.2.3 (`godot3-server`) runs godot3/capture.gd: three MultiplayerAPI instances
in one scene tree, joined by real NetworkedMultiplayerENet over loopback through enet_relay.py
(which reads ENet's protocol and records every packet it carries), or by WebSocketServer /
WebSocketClient through `gdvariant proxy --websocket --multiplayer --monitor --capture` (the
command is built with cargo first; it forwards everything, crafted packets included).

Each output line is one packet with what the engines made of it; README.md describes the
fields. Needs python3, chromium and npm (godot4), godot3-server (godot3-*), cargo
(godot3-websocket). Standard library only.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "engines"))
import godot  # noqa: E402  (the project's engine driver)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def parse_lines(lines):
    """(kind, object) for every "KIND\\t{json}" line; engine error lines as ("ERR", text)."""
    out = []
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("STDERR "):
            text = line[len("STDERR "):]
            if text.strip():
                out.append(("ERR", text))
            continue
        kind, tab, rest = line.partition("\t")
        if tab and kind.isupper() and rest.startswith("{"):
            out.append((kind, json.loads(rest)))
        elif line.startswith("ERROR:") or line.startswith("   at:") or line.startswith("WARNING:"):
            out.append(("ERR", line))
    return out


def dump_jsonl(name, records):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
    log("%s: %d packets" % (name, len(records)))


# ------------------------------------------------------------------ Godot 4

def godot4():
    import web4
    finished, lines = web4.run(os.path.join(HERE, "godot4"), timeout=600)
    if not finished or not any(l.strip() == "PROBE_DONE" for l in lines):
        sys.exit("godot4 capture did not finish; tail:\n" + "\n".join(lines[-40:]))
    packets, by_seq, configs = [], {}, []
    delivery, step = None, None
    loose = []
    for kind, obj in parse_lines(lines):
        if kind == "STEP":
            step, delivery = obj["step"], None
        elif kind == "PKT":
            record = dict(obj)
            record["deliveries"] = []
            packets.append(record)
            by_seq[obj["seq"]] = record
            if delivery is not None:
                delivery["sent"].append(obj["seq"])
        elif kind == "DLV":
            delivery = {"to": obj["to"], "effects": [], "errors": [], "sent": []}
            by_seq[obj["seq"]]["deliveries"].append(delivery)
        elif kind == "FX":
            (delivery["effects"] if delivery is not None else loose).append(obj)
        elif kind == "ERR":
            if delivery is not None and len(delivery["errors"]) < 24:
                delivery["errors"].append(obj)
        elif kind == "RPCCFG":
            configs.append(obj)
    dump_jsonl("godot4.jsonl", packets)
    with open(os.path.join(HERE, "godot4-rpc.json"), "w") as f:
        json.dump(configs, f, indent=1, sort_keys=True)
        f.write("\n")


# ------------------------------------------------------------------ Godot 3

def free_port(kind=socket.SOCK_DGRAM):
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_godot3(transport, connect_port, server_port):
    rc, lines = godot.run_godot3(["--path", os.path.join(HERE, "godot3"), "-s", "capture.gd"],
                                 env={"MP_TRANSPORT": transport, "MP_SERVER_PORT": str(server_port),
                                      "MP_CONNECT_PORT": str(connect_port)}, timeout=240)
    if not any(l.startswith("DONE\t") for l in lines):
        sys.exit("godot3 %s capture did not finish (rc %s); tail:\n%s" % (transport, rc, "\n".join(lines[-40:])))
    return lines


def godot3_records(transport, captured, lines):
    """Joins the captured packets (conn, dir, channel, kind, hex) with the engine's log.

    Each connection's packets are split into steps by the RAW markers "step:NAME" and the
    engine's effects by its STEP lines. Within a step, the k-th CALL or SET a receiver processed
    from a sender (in capture order) is the k-th call or set that receiver reported from that
    sender: its method or property, node and values become the packet's "expect". A packet the
    server forwards keeps its expectation on both legs. Injected packets (the hostile step) get
    the engine's effects and errors between their INJECT line and the next."""
    events = parse_lines(lines)
    peers = next(obj for kind, obj in events if kind == "PEERS")
    side_of = {v: k for k, v in peers.items()}
    effects, errors, injected = {}, {}, []
    step = "connect"
    for kind, obj in events:
        if kind == "STEP":
            step = obj["step"]
        elif kind == "INJECT":
            injected.append({"name": obj["name"], "hex": obj["hex"], "effects": [], "errors": []})
        elif kind == "FX":
            if step == "hostile" and injected:
                injected[-1]["effects"].append(obj)
            else:
                effects.setdefault(step, []).append(obj)
        elif kind == "ERR":
            if step == "hostile" and injected:
                injected[-1]["errors"].append(obj)
            else:
                errors.setdefault(step, []).append(obj)
    header = 8 if transport == "enet" else 9
    marker = "04" + b"step:".hex()
    steps, records, conn_side = {}, [], {}
    for r in captured:
        key = (r["conn"], r["dir"])
        data = bytes.fromhex(r["hex"])
        record = dict(r)
        if transport == "enet" and r["channel"] == 0:
            record["step"] = steps.get(key, "connect")
            records.append(record)
            continue
        if transport == "enet":
            source = int.from_bytes(data[0:4], "little")
            target = int.from_bytes(data[4:8], "little", signed=True)
            kind = 0
        else:
            kind = data[0]
            source = int.from_bytes(data[1:5], "little", signed=True)
            target = int.from_bytes(data[5:9], "little", signed=True)
        body = data[header:].hex()
        if kind == 0 and body.startswith(marker):
            steps[key] = bytes.fromhex(body[2:]).decode()[len("step:"):]
        if r["dir"] == "to_server" and kind == 0:
            conn_side[r["conn"]] = side_of.get(source)
        record["step"] = steps.get(key, "connect")
        record["source"], record["target"] = source, target
        records.append(record)
    # Who processes each payload.
    for record in records:
        if "source" not in record or (transport == "websocket" and bytes.fromhex(record["hex"])[0] != 0):
            continue
        if record["dir"] == "to_server":
            t = record["target"]
            if t == 1 or t == 0 or (t < 0 and (transport == "websocket" or t != -1)):
                record["processed_by"] = "S"
        else:
            record["processed_by"] = conn_side.get(record["conn"])
    # Match calls and sets with the effects, per step, receiver and sender.
    queues = {}
    for st, fx in effects.items():
        for e in fx:
            if e["kind"] in ("call", "set") and side_of.get(e["from"]) != e["side"]:
                queues.setdefault((st, e["side"], e["from"]), []).append(e)
    inject_hex = {i["hex"]: i for i in injected}
    for record in records:
        body = bytes.fromhex(record["hex"])[header:] if "source" in record else b""
        if record["step"] == "hostile" and record["dir"] == "to_server" and body.hex() in inject_hex:
            case = inject_hex[body.hex()]
            record["injected"] = case["name"]
            record["engine"] = {"effects": case["effects"], "errors": case["errors"]}
            continue
        if "processed_by" not in record or not body or body[0] not in (0, 1):
            continue
        queue = queues.get((record["step"], record["processed_by"], record["source"]), [])
        if not queue:
            sys.exit("no effect for %s" % record)
        record["expect"] = queue.pop(0)
    left = {k: v for k, v in queues.items() if v}
    if left:
        sys.exit("effects without a packet: %s" % left)
    # A forwarded packet carries the same expectation on its first leg.
    by_bytes = {(r["step"], r["hex"]): r["expect"] for r in records if "expect" in r}
    for record in records:
        if "expect" not in record and (record["step"], record["hex"]) in by_bytes and record.get("source"):
            body = bytes.fromhex(record["hex"])[header:]
            if body and body[0] in (0, 1):
                record["expect"] = by_bytes[(record["step"], record["hex"])]
    return records, {"peers": peers, "errors": errors}


def godot3_enet():
    from enet_relay import EnetRelay
    server_port, relay_port = free_port(), free_port()
    relay = EnetRelay(relay_port, server_port)
    relay.start()
    lines = run_godot3("enet", relay_port, server_port)
    time.sleep(0.5)
    relay.stop()
    if relay.errors:
        sys.exit("enet relay: %s" % relay.errors[:5])
    captured = [r for r in relay.records if "hex" in r]
    records, log_ = godot3_records("enet", captured, lines)
    log_["connect_data"] = [r for r in relay.records if "connect_data" in r]
    write_godot3("godot3-enet", records, log_)


def godot3_websocket():
    subprocess.check_call(["cargo", "build", "--release", "-q", "-p", "gdvariant-cli"], cwd=ROOT)
    binary = os.path.join(ROOT, "target", "release", "gdvariant")
    server_port, proxy_port = free_port(socket.SOCK_STREAM), free_port(socket.SOCK_STREAM)
    capture = tempfile.mktemp(prefix="gdvariant-mp3-", suffix=".capture")
    # --monitor: the proxy forwards everything (the crafted packets must reach the engine);
    # --allow-objects: the capture's full-object step.
    proxy = subprocess.Popen([binary, "proxy", "--websocket", "--multiplayer", "--godot", "3",
                              "--monitor", "--allow-objects",
                              "--listen", "127.0.0.1:%d" % proxy_port,
                              "--upstream", "ws://127.0.0.1:%d/" % server_port, "--capture", capture],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.5)
    lines = run_godot3("websocket", proxy_port, server_port)
    time.sleep(0.5)
    proxy.terminate()
    proxy.wait(10)
    out = subprocess.check_output([binary, "multiplayer", "--format", "json", capture])
    captured = []
    for line in out.decode().split("\n"):
        r = json.loads(line) if line.strip() else {}
        if "hex" in r:
            captured.append({"conn": r["connection"], "dir": r["direction"], "channel": 0,
                             "kind": "reliable", "hex": r["hex"]})
    os.unlink(capture)
    records, log_ = godot3_records("websocket", captured, lines)
    write_godot3("godot3-websocket", records, log_)


def write_godot3(name, records, log_):
    dump_jsonl(name + ".jsonl", records)
    with open(os.path.join(HERE, name + "-log.json"), "w", encoding="utf-8") as f:
        json.dump(log_, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    for name, fn in [("godot4", godot4), ("godot3-enet", godot3_enet), ("godot3-websocket", godot3_websocket)]:
        if what in (name, "all"):
            fn()
