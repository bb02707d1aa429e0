#!/usr/bin/env python3
"""Records corpus/captures/godot4_websocket_mp.pcap and its .json: tcpdump on loopback while a
Godot 4.6 client (Godot's own WebSocketMultiplayerPeer) and a Godot 4.6 server hold a
multiplayer session over WebSocket (godot4_ws/session.gd).

Godot 4.6 is the official web export template in headless Chromium, run by the project's driver
(tools/engines/godot.py, fetched once with npm into $GODOT4_WEB_CACHE). The web build cannot
listen, so the server side is cli/tests/engines/godot4mp/bridge_peer.gd: it connects to a bridge
(this script, standard library only) that pairs it with the client and passes binary messages
both ways unchanged: every message payload on the wire is the bytes a Godot page sent. The
capture holds only the client's connection (the bridge's client port): the client's upgrade and
masked frames as Chromium sent them, the bridge's upgrade answer and unmasked frames carrying
the server's messages (first the client's id, as Godot's WebSocketMultiplayerPeer server sends
it), and the close handshake.

Needs tcpdump (root or capture rights), chromium and npm. The JSON holds {"port", "client_id",
"engine", "events"}: every EV line the engine printed, in order, each one of
  {"event": "sent" | "got", "side", "node", "method", "args": [var_to_bytes hex], "target"}
  {"event": "raw_sent" | "raw_got", "side", "hex", "from"}
  {"event": "spawned", "side": "client", "node", "scene", "state": {property: var_to_bytes hex}}
  {"event": "synchronized" | "delta_synchronized" | "despawned", "side": "client", "node", ...}
  {"event": "connected", "side": "client", "id"}
"""
import base64
import hashlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "engines"))
import godot  # noqa: E402  (the project's engine driver)

NAME = "godot4_websocket_mp"
PROJECT = os.path.join(HERE, "godot4_ws")
BRIDGE_PEER = os.path.join(ROOT, "cli", "tests", "engines", "godot4mp", "bridge_peer.gd")
CLIENT_ID = 928374651   # the id the bridge gives the client (any id above 1)
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Ws:
    """One accepted WebSocket connection (server side of RFC 6455, no extensions)."""

    def __init__(self, sock):
        self.sock, self.buf, self.lock, self.closed = sock, b"", threading.Lock(), False
        while b"\r\n\r\n" not in self.buf:
            self._more()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        key = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
                   if line.lower().startswith(b"sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        self.sock.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                          b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")

    def _more(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buf += data

    def _take(self, n):
        while len(self.buf) < n:
            self._more()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def message(self):
        """(opcode, payload) of the next whole message; pings are answered."""
        parts, first = [], None
        while True:
            b0, b1 = self._take(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._take(8))[0]
            mask = self._take(4) if b1 & 0x80 else b"\0\0\0\0"
            payload = bytes(c ^ mask[i % 4] for i, c in enumerate(self._take(n)))
            opcode = b0 & 0x0F
            if opcode == 9:
                self.send(10, payload)
                continue
            if opcode >= 8:
                return opcode, payload
            first = opcode if first is None else first
            parts.append(payload)
            if b0 & 0x80:
                return first, b"".join(parts)

    def send(self, opcode, payload):
        """Sends one frame, unmasked; nothing after a close frame."""
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([n])
        elif n < 65536:
            head += bytes([126]) + struct.pack(">H", n)
        else:
            head += bytes([127]) + struct.pack(">Q", n)
        with self.lock:
            if not self.closed:
                self.closed = opcode == 8
                self.sock.sendall(head + payload)


def bridge(server_listener, client_listener):
    """Pairs the server page's connection with the client's: tells the server the client's id
    (a text message), then passes binary messages both ways; a close from either side is
    answered (unless it answers the bridge's) and passed on."""
    server = Ws(server_listener.accept()[0])
    client = Ws(client_listener.accept()[0])
    server.send(1, str(CLIENT_ID).encode())

    def pump(src, dst):
        try:
            while True:
                opcode, payload = src.message()
                if opcode == 2:
                    dst.send(2, payload)
                elif opcode == 8:
                    src.send(8, payload[:2])
                    dst.send(8, payload[:2])
                    return
        except (EOFError, OSError):
            return

    threading.Thread(target=pump, args=(server, client), daemon=True).start()
    pump(client, server)


def listener():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s


def main():
    server_listener, client_listener = listener(), listener()
    port = client_listener.getsockname()[1]
    threading.Thread(target=bridge, args=(server_listener, client_listener), daemon=True).start()
    pcap = os.path.join(HERE, NAME + ".pcap")
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-w", pcap, "tcp", "port", str(port)],
                            stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    files = godot.project_files(PROJECT)
    files["bridge_peer.gd"] = BRIDGE_PEER
    args = ["--headless", "--", "server=ws://127.0.0.1:%d/server" % server_listener.getsockname()[1],
            "client=ws://127.0.0.1:%d/client" % port]
    rc, lines = godot.run_godot4(files, args, timeout=180, errors="surrogatepass")
    time.sleep(0.5)
    dump.send_signal(signal.SIGINT)
    dump.wait(timeout=10)
    if not any(l.startswith("RESULT ok") for l in lines):
        sys.exit("session failed (%s):\n%s" % (rc, "\n".join(lines[-40:])))
    # Engine errors but the one every run of a pack without a .godot folder prints.
    errors = [l for l in lines if l.startswith("STDERR ") and l[7:].strip()]
    errors = [l for l in errors if "global script cache" not in l and "get_global_class_list" not in l]
    if errors:
        sys.exit("engine errors:\n" + "\n".join(errors[:20]))
    events = [json.loads(l.split("\t", 1)[1]) for l in lines if l.startswith("EV\t")]
    record = {"port": port, "client_id": CLIENT_ID, "engine": "Godot 4.6 (official web build)",
              "events": events}
    with open(os.path.join(HERE, NAME + ".json"), "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("%s: %d events, %d bytes of capture" % (NAME, len(events), os.path.getsize(pcap)))


if __name__ == "__main__":
    main()
