"""What each engine prints for the values whose `var2str` / `var_to_str` text may be empty or
stand for something the bytes do not hold: RIDs and objects sent by id, alone and inside
containers (and Godot 4's Callable and Signal, which print no contents). For each case the
engine decodes the bytes (objects not allowed) and prints `var2str` / `var_to_str` and `str()`
of the result. Writes display/godot3.jsonl and display/godot4.jsonl; run from anywhere:

    python3 corpus/text/display.py

Python standard library only; the engines through the project's driver (tools/engines/godot.py).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "engines"))
import godot  # noqa: E402

OUT = os.path.join(HERE, "display")

CASES3 = [
    ("rid", "10000000"),
    ("rid_in_array", "13000000" "01000000" "10000000"),
    ("rid_int_in_array", "13000000" "02000000" "10000000" "0200000001000000"),
    ("rid_in_dictionary", "12000000" "01000000" "04000000" "01000000" "6b000000" "10000000"),
    ("object_id", "11000100" "3930000000000000"),
    ("object_id_zero", "11000100" "0000000000000000"),
    ("object_id_in_array", "13000000" "01000000" "11000100" "3930000000000000"),
]

CASES4 = [
    ("rid_empty", "17000000" "0000000000000000"),
    ("rid_id", "17000000" "0100000015000000"),
    ("rid_in_array", "1c000000" "01000000" "17000000" "0100000015000000"),
    ("rid_in_dictionary", "1b000000" "01000000" "04000000" "01000000" "6b000000" "17000000" "0100000015000000"),
    ("live_rid", "*live_rid"),
    ("object_id", "18000100" "3930000000000000"),
    ("object_id_zero", "18000100" "0000000000000000"),
    ("object_id_in_array", "1c000000" "01000000" "18000100" "3930000000000000"),
    ("callable", "19000000"),
    ("signal", "1a000000" "00000000" "0000000000000000"),
]


def parse(lines):
    records = []
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("REC\t"):
            _, name, type_id, text, shown = line.split("\t")
            records.append({"name": name, "type_id": int(type_id),
                            "var2str": bytes.fromhex(text).decode("utf-8"),
                            "str": bytes.fromhex(shown).decode("utf-8")})
    if not any(line.startswith("PROBE_DONE") for line in lines):
        sys.exit("the probe did not finish:\n" + "\n".join(lines[-30:]))
    return records


def write(engine, cases, records):
    by_name = {r["name"]: r for r in records}
    with open(os.path.join(OUT, "godot%d.jsonl" % engine), "w", encoding="utf-8") as f:
        for name, data in cases:
            record = dict(by_name[name])
            if not data.startswith("*"):
                record["input"] = data
            f.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")


def main():
    payload3 = "".join("%s\t%s\n" % case for case in CASES3)
    rc, lines = godot.run_godot3(["-s", "{home}/probe3.gd"], files={"probe3.gd": os.path.join(OUT, "probe3.gd")},
                                 extra={"cases.txt": payload3}, env={"CASES": "{home}/cases.txt"}, timeout=120)
    write(3, CASES3, parse(lines))
    payload4 = "".join("%s\t%s\n" % case for case in CASES4)
    rc, lines = godot.run_godot4(godot.project_files(os.path.join(OUT, "probe4")), ["--headless"],
                                 extra={"cases.txt": payload4}, timeout=300)
    write(4, CASES4, parse(lines))


if __name__ == "__main__":
    main()
