"""A lossy UDP relay in two hops, for captures in which ENet really resends.

    clients -> OUTER (port P) -> one socket per client -> INNER (port M) -> one socket per
    client -> the server, and back the same way

Only the middle hop (port M) is captured (`tcpdump ... udp port M`). The relay drops datagrams
in two places:

- after the capture ("after"): datagrams towards the server as they reach INNER, towards a
  client as they reach the client's socket of the first hop. tcpdump saw them: the capture holds
  them, then the sent-again reliable commands that follow the loss (seen twice);
- before the capture ("before"): datagrams from a client as they reach OUTER, from the server
  as they reach its socket of the second hop. tcpdump never sees them: the capture holds only
  the reliable commands sent again, after later ones (as a capture taken at the receiving end
  of a lossy link does).

Losses are deterministic per connection, direction and place: the n-th datagram (from 0, each
place counting the datagrams that reach it) is dropped when n % every == every // 2, with
`every` from `after` and `before` ({"to_server": N, "to_client": N}; None: no loss there). Every
drop is recorded: {"conn", "dir" ("to_server" / "to_client"), "where" ("after" / "before"),
"n", "hex"}.

    relay = LossyRelay(outer_port, inner_port, server_port,
                       after={"to_server": 7, "to_client": 6}, before=None)
    relay.start(); ...; relay.stop(); relay.drops

Standard library only.
"""
import select
import socket
import threading


class LossyRelay:
    def __init__(self, outer_port, inner_port, server_port, after, before=None):
        self.outer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.outer.bind(("127.0.0.1", outer_port))
        self.inner = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.inner.bind(("127.0.0.1", inner_port))
        self.server = ("127.0.0.1", server_port)
        self.inner_address = ("127.0.0.1", inner_port)
        self.every = {"after": after, "before": before}
        self.first = {}      # client address -> (conn, first-hop socket)
        self.first_of = {}   # first-hop socket -> client address
        self.second = {}     # first-hop socket's address -> (conn, second-hop socket)
        self.second_of = {}  # second-hop socket -> first-hop socket's address
        self.counts = {}
        self.drops = []
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.running = False
        self.thread.join(5)

    def _lost(self, conn, direction, where, data):
        key = (conn, direction, where)
        n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        every = (self.every[where] or {}).get(direction)
        if every and n % every == every // 2:
            self.drops.append({"conn": conn, "dir": direction, "where": where, "n": n,
                               "hex": data.hex()})
            return True
        return False

    def _run(self):
        while self.running:
            sockets = [self.outer, self.inner] + list(self.first_of) + list(self.second_of)
            ready, _, _ = select.select(sockets, [], [], 0.1)
            for s in ready:
                data, addr = s.recvfrom(65536)
                if s is self.outer:
                    # A client's datagram: on to the middle hop, from its own socket.
                    if addr not in self.first:
                        hop = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                        hop.bind(("127.0.0.1", 0))
                        self.first[addr] = (len(self.first), hop)
                        self.first_of[hop] = addr
                    conn, hop = self.first[addr]
                    if not self._lost(conn, "to_server", "before", data):
                        hop.sendto(data, self.inner_address)
                elif s is self.inner:
                    # Across the middle hop towards the server: maybe lost here.
                    if addr not in self.second:
                        client = self.first_of_address(addr)
                        conn = self.first[client][0] if client else len(self.second)
                        hop = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                        hop.bind(("127.0.0.1", 0))
                        self.second[addr] = (conn, hop)
                        self.second_of[hop] = addr
                    conn, hop = self.second[addr]
                    if not self._lost(conn, "to_server", "after", data):
                        hop.sendto(data, self.server)
                elif s in self.second_of:
                    # The server's datagram: across the middle hop, from INNER.
                    conn = self.second[self.second_of[s]][0]
                    if not self._lost(conn, "to_client", "before", data):
                        self.inner.sendto(data, self.second_of[s])
                else:
                    # Across the middle hop towards a client: maybe lost here.
                    client = self.first_of[s]
                    conn = self.first[client][0]
                    if not self._lost(conn, "to_client", "after", data):
                        self.outer.sendto(data, client)

    def first_of_address(self, address):
        for hop, client in self.first_of.items():
            if hop.getsockname() == address:
                return client
        return None
