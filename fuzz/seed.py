#!/usr/bin/env python3
"""Seeds every fuzz target from the project's real-engine corpus.

Writes fuzz/corpus/<target>/ (ignored by git): every value, crafted input and probe input of
both engines under 64 KiB (from corpus/godot3, corpus/godot4 and the `input_hex` fields of
corpus/probes/**/*.jsonl), shaped for each target's input format:

  lazy_walk, differential, reencode,  the bytes as they are
  identity, work_bound
  owned_roundtrip                     a settings byte (0..5), then bytes to drive the generator
  framing                             prefix selector and read-size seed, then a stream capture
                                      (the real streams, big-endian ones included, and single
                                      values framed with a little-endian length)
  packed_alignment                    a type selector (0..16), then packed element bytes
  relay_checks                        a settings byte (version, objects, direction, channel,
                                      size limit), then the bytes as they are
  multiplayer                         a selector (0 Godot 4 packet, 1 Godot 3 packet,
                                      2 transport message, 3 a session of packets), then the
                                      real multiplayer packets of corpus/multiplayer
  pcap                                a settings byte, then the start of the real capture of
                                      corpus/captures (a whole file), and its packets one by
                                      one (a length byte each; Ethernet and raw IP)

Usage: python3 fuzz/seed.py   (from anywhere; existing seed files are kept)
"""
import hashlib
import json
import pathlib
import struct

FUZZ = pathlib.Path(__file__).resolve().parent
CORPUS = FUZZ.parent / "corpus"
MAX_SEED = 64 * 1024


def inputs():
    """(name, bytes) of every small real-engine input."""
    for path in sorted(CORPUS.rglob("*.bin")):
        data = path.read_bytes()
        if len(data) <= MAX_SEED:
            yield path.name, data
    for path in sorted(CORPUS.rglob("*.jsonl")):
        # JSON Lines ends a record at "\n" only: splitlines() would also split inside strings
        # that hold U+2028, U+0085 and the like (the text corpus has them).
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            case = json.loads(line)
            if "input_hex" in case:
                data = bytes.fromhex(case["input_hex"])
                if len(data) <= MAX_SEED:
                    yield case.get("name", "probe"), data


def write(target, data):
    folder = FUZZ / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def multiplayer_seeds():
    """Seeds of the multiplayer target from corpus/multiplayer: each Godot 4 packet, each
    Godot 3 message (as a transport message, and its payload as a packet), and sessions of
    consecutive packets."""
    folder = CORPUS / "multiplayer"
    session = bytearray()
    for path in sorted(folder.glob("godot4*.jsonl")):
        for line in filter(str.strip, path.read_text(encoding="utf-8").split("\n")):
            data = bytes.fromhex(json.loads(line)["hex"])
            write("multiplayer", bytes([0]) + data)
            if len(data) < 128:
                session += bytes([len(data) << 1]) + data
                if len(session) > 1500:
                    write("multiplayer", bytes([3]) + bytes(session))
                    session = bytearray()
    for path in sorted(folder.glob("godot3-*.jsonl")):
        header = 8 if "enet" in path.name else 9
        for line in filter(str.strip, path.read_text(encoding="utf-8").split("\n")):
            data = bytes.fromhex(json.loads(line)["hex"])
            write("multiplayer", bytes([2]) + data)
            write("multiplayer", bytes([1]) + data[header:])


def pcap_seeds():
    """Seeds of the pcap target from corpus/captures: the file's first 4 KiB under both
    versions and both limits, and its first packets as the target's packet list."""
    for path in sorted((CORPUS / "captures").glob("*.pcap")):
        data = path.read_bytes()
        for settings in (0b10, 0b11, 0b0110_0011):
            write("pcap", bytes([settings]) + data[:4000])
        packets, at = [], 24
        while at + 16 <= len(data) and len(packets) < 40:
            caplen = struct.unpack_from("<I", data, at + 8)[0]
            packets.append(data[at + 16 : at + 16 + caplen])
            at += 16 + caplen
        # The capture is Linux loopback's Ethernet: link type 1 as it is, raw IP without the
        # 14-byte header.
        for settings, skip in ((0b01, 0), (0b0110_0101, 14)):
            seed = bytearray([settings])
            for packet in packets:
                body = packet[skip : skip + 255]
                seed.append(len(body))
                seed.extend(body)
            write("pcap", bytes(seed))


def main():
    multiplayer_seeds()
    pcap_seeds()
    counts = {}
    for name, data in inputs():
        for target in ("lazy_walk", "differential", "reencode", "identity", "work_bound"):
            write(target, data)
        write("owned_roundtrip", bytes([len(data) % 6]) + data)
        write("relay_checks", bytes([len(data) % 256]) + data)
        if name.startswith("stream_"):
            big = name.endswith("_be.bin")
            # store_var / stream_peer selectors: 0/2 little-endian, 1/3 big-endian; 4 packet peer.
            for selector in ((1, 3) if big else (0, 2, 4)):
                for godot in (0, 2):  # options index: Godot 3 or Godot 4, objects refused
                    write("framing", bytes([selector + 10 * godot, len(data) % 251]) + data)
        else:
            write("framing", bytes([20, 7]) + struct.pack("<I", len(data)) + data)
        if len(data) > 8:
            write("packed_alignment", bytes([len(data) % 17]) + data[8:])
    for target in sorted((FUZZ / "corpus").iterdir()):
        counts[target.name] = sum(1 for _ in target.iterdir())
    print(" ".join(f"{t}={n}" for t, n in counts.items()))


if __name__ == "__main__":
    main()
