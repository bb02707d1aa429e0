#!/usr/bin/env python3
"""Prints the figures of the last `cargo bench` run as a Markdown table (BENCHMARKS.md's).

Reads criterion's estimates under target/criterion/ (the slope estimate, or the mean when a
benchmark has no slope) and states throughputs in decimal units: MB/s and GB/s are 10^6 and
10^9 bytes per second, M/s millions of elements per second.

    python3 benches/criterion_table.py [TARGET_DIR]
"""
import json
import pathlib
import sys


def time_text(ns):
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} us"
    return f"{ns / 1e6:.2f} ms"


def rate_text(throughput, ns):
    if not throughput:
        return ""
    (kind, amount), = throughput.items()
    per_second = amount / (ns / 1e9)
    if kind == "Bytes":
        return f"{per_second / 1e9:.2f} GB/s" if per_second >= 1e9 else f"{per_second / 1e6:.0f} MB/s"
    return f"{per_second / 1e6:.1f} M/s"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target") / "criterion"
    rows = []
    for bench in sorted(root.glob("**/new/benchmark.json")):
        meta = json.loads(bench.read_text())
        estimates = json.loads((bench.parent / "estimates.json").read_text())
        ns = (estimates.get("slope") or estimates["mean"])["point_estimate"]
        rows.append((meta["group_id"], meta["function_id"], time_text(ns), rate_text(meta["throughput"], ns)))
    print("| group | benchmark | time | throughput |")
    print("| --- | --- | ---: | ---: |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
