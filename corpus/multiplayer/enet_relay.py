"""A UDP relay that records what Godot 3.2.3's NetworkedMultiplayerENet sends through it.

Every datagram is forwarded unchanged (each client address gets its own socket towards the
server, so the server sees one peer per client). Each datagram is also read as ENet protocol
(`thirdparty/enet/protocol.c` of Godot 3.2.3: big-endian fields, no checksum, no compression,
which are Godot's defaults), and every packet it delivers (SEND_RELIABLE, SEND_UNRELIABLE,
SEND_UNSEQUENCED, and fragments once reassembled) is recorded once, with its connection,
direction, ENet channel and delivery kind. Retransmissions (the same reliable sequence number
on the same channel) are recorded once. The CONNECT command's `data` field (the client's
unique id in Godot) is recorded too.

    relay = EnetRelay(listen_port, server_port); relay.start(); ...; relay.stop()
    relay.records -> list of dicts, in arrival order

Standard library only.
"""
import select
import socket
import struct
import threading

COMMAND_SIZES = {1: 8, 2: 48, 3: 44, 4: 8, 5: 4, 6: 6, 7: 8, 8: 24, 9: 8, 10: 12, 11: 16, 12: 24}
KINDS = {6: "reliable", 7: "unreliable", 9: "unsequenced", 8: "reliable", 12: "unreliable"}


class EnetRelay:
    def __init__(self, listen_port, server_port):
        self.listen = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.listen.bind(("127.0.0.1", listen_port))
        self.server = ("127.0.0.1", server_port)
        self.clients = {}      # client address -> (connection number, upstream socket)
        self.by_socket = {}    # upstream socket -> client address
        self.records = []
        self.seen = set()
        self.fragments = {}
        self.errors = []
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.running = False
        self.thread.join(5)

    def _run(self):
        while self.running:
            sockets = [self.listen] + list(self.by_socket)
            ready, _, _ = select.select(sockets, [], [], 0.1)
            for s in ready:
                data, addr = s.recvfrom(65536)
                if s is self.listen:
                    if addr not in self.clients:
                        up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                        up.bind(("127.0.0.1", 0))
                        self.clients[addr] = (len(self.clients), up)
                        self.by_socket[up] = addr
                    conn, up = self.clients[addr]
                    self._read(conn, "to_server", data)
                    up.sendto(data, self.server)
                else:
                    client = self.by_socket[s]
                    conn, _ = self.clients[client]
                    self._read(conn, "to_client", data)
                    self.listen.sendto(data, client)

    def _record(self, conn, direction, channel, kind, payload, key):
        if key in self.seen:
            return
        self.seen.add(key)
        self.records.append({"conn": conn, "dir": direction, "channel": channel, "kind": kind,
                             "hex": payload.hex()})

    def _read(self, conn, direction, data):
        try:
            (peer_id,) = struct.unpack_from(">H", data, 0)
            o = 2
            if peer_id & 0x4000:
                self.errors.append("compressed datagram")
                return
            if peer_id & 0x8000:
                o += 2
            while o < len(data):
                command = data[o] & 0x0F
                channel = data[o + 1]
                (reliable_seq,) = struct.unpack_from(">H", data, o + 2)
                size = COMMAND_SIZES.get(command)
                if size is None:
                    self.errors.append("unknown command %d" % command)
                    return
                if command == 2:
                    (connect_data,) = struct.unpack_from(">I", data, o + 44)
                    self.records.append({"conn": conn, "dir": direction, "connect_data": connect_data})
                if command == 6:
                    (length,) = struct.unpack_from(">H", data, o + 4)
                    payload = data[o + 6:o + 6 + length]
                    self._record(conn, direction, channel, "reliable", payload,
                                 (conn, direction, channel, "r", reliable_seq))
                    o += 6 + length
                    continue
                if command in (7, 9):
                    (second, length) = struct.unpack_from(">HH", data, o + 4)
                    payload = data[o + 8:o + 8 + length]
                    key = (conn, direction, channel, command, reliable_seq, second)
                    self._record(conn, direction, channel, KINDS[command], payload, key)
                    o += 8 + length
                    continue
                if command in (8, 12):
                    start, length, count, number, total, offset = struct.unpack_from(">HHIIII", data, o + 4)
                    fkey = (conn, direction, channel, command, start)
                    entry = self.fragments.setdefault(fkey, {"total": total, "parts": {}})
                    entry["parts"][number] = (offset, data[o + 24:o + 24 + length])
                    if len(entry["parts"]) == count:
                        whole = bytearray(total)
                        for off, part in entry["parts"].values():
                            whole[off:off + len(part)] = part
                        self._record(conn, direction, channel, KINDS[command], bytes(whole), fkey)
                        del self.fragments[fkey]
                    o += 24 + length
                    continue
                o += size
        except struct.error as e:
            self.errors.append("short datagram: %s" % e)
