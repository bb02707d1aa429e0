#!/usr/bin/env python3
"""Regenerates godot3.jsonl and godot4.jsonl: each engine's text of seeded random values.

    python3 generate.py [3] [4] [--seed N]      # default: both engines, the committed seed

Every case's bytes (cases.py) are decoded by the engine, which records its own encoding of the
value (var2bytes / var_to_bytes) and its text (var2str / var_to_str). See README.md for the
record fields. Python standard library only.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import cases  # noqa: E402
import padding  # noqa: E402
import runner  # noqa: E402

SEED = 20240601


def record(version, name, data, got):
    if isinstance(data, str):
        # Built by the engine: full objects, and the bytes it decoded.
        rec = {"name": name, "input": padding.zero_padding(bytes.fromhex(got["input"]), version).hex(),
               "full_objects": True}
    else:
        rec = {"name": name, "input": data.hex()}
    text = bytes.fromhex(got["text"])
    try:
        rec["text"] = text.decode("utf-8")
    except UnicodeDecodeError:
        rec["text_hex"] = got["text"]
    engine_bytes = padding.zero_padding(bytes.fromhex(got["bytes"]), version).hex()
    if got["again"]:
        rec["bytes_omitted"] = "the engine prints its own encoding of the value differently"
    elif engine_bytes != rec["input"]:
        rec["bytes"] = engine_bytes
    if got["log"]:
        rec["log"] = got["log"]
    return rec


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engines", nargs="*", type=int, default=[3, 4])
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    for engine in args.engines:
        todo = cases.cases(engine, args.seed)
        records, crashed = runner.run(engine, todo)
        out = os.path.join(HERE, "godot%d.jsonl" % engine)
        with open(out, "w", encoding="utf-8") as f:
            for name, data in todo:
                if name in records:
                    f.write(json.dumps(record(engine, name, data, records[name]), ensure_ascii=False) + "\n")
        with open(os.path.join(HERE, "crashes-godot%d.json" % engine), "w") as f:
            json.dump(crashed, f, indent=1)
            f.write("\n")
        missing = [name for name, _ in todo if name not in records and name not in crashed]
        print("godot%d: %d cases, %d recorded, %d crashed %s, %d missing %s" % (
            engine, len(todo), len(records), len(crashed), crashed[:5], len(missing), missing[:5]))


if __name__ == "__main__":
    main()
