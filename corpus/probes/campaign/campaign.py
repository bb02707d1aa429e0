#!/usr/bin/env python3
"""Crate against engine on generated dictionaries: key identity, key order, re-encoding.

    python3 campaign.py [--count N] [--seed S] [--batch B] [3] [4]

Generates N inputs per engine (default 20000): dictionaries whose keys are values of every
type, nested in arrays and dictionaries, each key often a near twin of an earlier one (another
float width, -0.0, a NaN with another payload, a String for a StringName, a NodePath for a
String, a nearly equal vector component, an inner dictionary reordered or with a repeated key,
...), from the same builders as ../dict-keys/identity_cases.py. Each input goes to the engine
(../dict-keys/identity.py's probes, through ../dict-keys/engines.py, B inputs per engine
process) and to the crate (`examples/identity_batch.rs`, built with cargo), and the two are
compared on the dictionary's size, the text (var2str / var_to_str) and the re-encoding
(var2bytes / var_to_bytes of a fresh decode).

Writes last-run.json (the figures), findings-godot{3,4}.jsonl (the first 200 differences of
each engine, with the input) and crashes-godot{3,4}.txt (inputs the engine died on, hex; the
rest of the batch is run again after them). Python standard library only; the engines as in
../dict-keys/README.md.
"""
import base64
import json
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "dict-keys"))
sys.dont_write_bytecode = True
import identity  # noqa: E402
import identity_cases as b  # noqa: E402

F32 = [0, 0x80000000, b.NAN32, 0x7FC00001, 0xFFC00000, 0x7F800001, b.F1, b.bits32(1e-7), b.bits32(2e-7),
       b.bits32(1.0000001), 0x7F800000, b.bits32(8e-6), b.bits32(1.6e-5), b.bits32(-1.0), b.bits32(1000.0),
       b.bits32(1000.001)]
F64 = [0, b.NEG0_64, b.NAN64, 0x7FF8000000000123, 0xFFF8000000000000, 0x7FF0000000000001, b.F1_64,
       0x3FF0000000000001, 0x3FF0000010000000, 0x7FF4000000000000, 0xFFF0000000000001]
TEXTS = [b"a", b"b", b"", b"ab"]
NAMES = [b"abcd", b"efgh"]
MATH = ["vector2", "vector3", "rect2", "color", "plane", "quaternion", "transform2d", "aabb", "basis",
        "transform3d"]
MATH4 = ["vector4", "projection"]
IVEC = ["vector2i", "vector3i", "rect2i", "vector4i"]
PVEC = ["pvector2", "pvector3", "pcolor"]
PVEC4 = ["pvector4"]


class Gen:
    """Random value trees (nested tuples) for one version, and near twins of them."""

    def __init__(self, rng, ver):
        self.r, self.v = rng, ver

    def atom(self):
        r, v = self.r, self.v
        kinds = ["nil", "bool", "int", "f32", "f64", "str", "np", "math", "pf32", "pvec", "pstr", "pint"]
        if v == 4:
            kinds += ["sname", "sname", "ivec", "pf64", "wide", "callable"]
        k = r.choice(kinds)
        if k == "nil":
            return ("nil",)
        if k == "bool":
            return ("bool", r.random() < 0.5)
        if k == "int":
            return ("int", r.choice([0, 1, -1, 5]), r.random() < 0.3)
        if k == "f32":
            return ("f32", r.choice(F32))
        if k == "f64":
            return ("f64", r.choice(F64))
        if k in ("str", "sname"):
            return (k, r.choice(TEXTS))
        if k == "np":
            return ("np", r.choice(NAMES))
        if k == "callable":
            return ("callable",)
        if k == "math":
            kind = r.choice(MATH + (MATH4 if v == 4 else []))
            n = b.REALS[kind]
            return ("math", kind, tuple(r.choice(F32[:10]) if r.random() < 0.5 else 0 for _ in range(n)))
        if k == "wide":
            kind = r.choice(["vector2", "vector3", "rect2"])
            return ("wide", kind, tuple(r.choice(F64) if r.random() < 0.5 else 0 for _ in range(b.REALS[kind])))
        if k == "ivec":
            kind = r.choice(IVEC)
            return ("ivec", kind, tuple(r.choice([0, 1, -1]) for _ in range(b.INTS[kind])))
        if k == "pf32":
            return ("pf32", tuple(r.choice(F32) for _ in range(r.randint(0, 2))))
        if k == "pf64":
            return ("pf64", tuple(r.choice(F64) for _ in range(r.randint(0, 2))))
        if k == "pvec":
            kind = r.choice(PVEC + (PVEC4 if v == 4 else []))
            n = b.PACKED_VECTORS[kind]
            wide = v == 4 and kind != "pcolor" and r.random() < 0.3
            pool = F64 if wide else F32[:10]
            return ("pvec", kind, wide, tuple(tuple(r.choice(pool) if r.random() < 0.4 else 0 for _ in range(n))
                                              for _ in range(r.randint(0, 2))))
        if k == "pstr":
            return ("pstr", tuple(r.choice(TEXTS) for _ in range(r.randint(0, 2))))
        return ("pint", tuple(r.choice([0, 1, -1]) for _ in range(r.randint(0, 2))))

    def value(self, depth=0):
        x = self.r.random()
        if depth < 3 and x < 0.25:
            return ("arr", tuple(self.value(depth + 1) for _ in range(self.r.randint(0, 3))))
        if depth < 3 and x < 0.4:
            return ("dict", self.entries(depth + 1, self.r.randint(0, 3)))
        return self.atom()

    def entries(self, depth, n):
        out = []
        for _ in range(n):
            if out and self.r.random() < 0.4:
                key = self.twin(self.r.choice(out)[0])
            else:
                key = self.value(depth)
            out.append((key, self.value(depth) if self.r.random() < 0.5 else ("int", len(out), False)))
        return tuple(out)

    def twin(self, t):
        """A value Godot may or may not take for `t`."""
        r, v = self.r, self.v
        k = t[0]
        if k == "f32":
            return r.choice([("f64", r.choice(F64)), ("f32", r.choice(F32)), t])
        if k == "f64":
            return r.choice([("f32", r.choice(F32)), ("f64", r.choice(F64)), t])
        if k == "int":
            return ("int", t[1], not t[2]) if r.random() < 0.7 else ("f32", b.F1)
        if k in ("str", "sname"):
            opts = [("str", t[1]), ("np", NAMES[0])] + ([("sname", t[1])] if v == 4 else [])
            return r.choice(opts)
        if k == "np":
            return r.choice([t, ("str", t[1])] + ([("sname", t[1])] if v == 4 else []))
        if k == "math":
            comps = list(t[2])
            i = r.randrange(len(comps))
            comps[i] = r.choice(F32)
            return ("math", t[1], tuple(comps))
        if k == "wide":
            comps = list(t[2])
            i = r.randrange(len(comps))
            comps[i] = r.choice(F64)
            return ("wide", t[1], tuple(comps))
        if k == "pf32":
            return ("pf32", tuple(r.choice(F32) for _ in t[1])) if t[1] else t
        if k == "pf64":
            return ("pf64", tuple(r.choice(F64) for _ in t[1])) if t[1] else t
        if k == "arr":
            items = list(t[1])
            if items and r.random() < 0.8:
                i = r.randrange(len(items))
                items[i] = self.twin(items[i])
            return ("arr", tuple(items))
        if k == "dict":
            ents = list(t[1])
            x = r.random()
            if ents and x < 0.3:
                r.shuffle(ents)
            elif ents and x < 0.6:
                i = r.randrange(len(ents))
                ents.insert(r.randrange(len(ents) + 1), (ents[i][0], self.value(2)))
            elif ents:
                i = r.randrange(len(ents))
                ents[i] = (self.twin(ents[i][0]), self.twin(ents[i][1]))
            return ("dict", tuple(ents))
        if r.random() < 0.3:
            return ("arr", (t,))
        return t

    def case(self):
        n = self.r.randint(2, 7)
        keys = []
        for _ in range(n):
            if keys and self.r.random() < 0.6:
                keys.append(self.twin(self.r.choice(keys)))
            else:
                keys.append(self.value(1))
        return ("dict", tuple((k, ("int", i, False)) for i, k in enumerate(keys)))


def render(t):
    """The builder of tree `t` (a function of the version giving bytes)."""
    k = t[0]
    if k == "nil":
        return b.nil()
    if k == "bool":
        return b.boolean(t[1])
    if k == "int":
        return b.i64(t[1]) if t[2] else b.i32(t[1])
    if k == "f32":
        return b.f32(t[1])
    if k == "f64":
        return b.f64(t[1])
    if k == "str":
        return b.string(t[1])
    if k == "sname":
        return b.sname(t[1])
    if k == "np":
        return b.nodepath(t[1])
    if k == "callable":
        return b.callable_()
    if k == "math":
        return b.math(t[1], *t[2])
    if k == "wide":
        return b.math(t[1], *t[2], wide=True)
    if k == "ivec":
        return b.ivec(t[1], *t[2])
    if k == "pf32":
        return b.pfloat32(*t[1])
    if k == "pf64":
        return b.pfloat64(*t[1])
    if k == "pvec":
        return b.pvec(t[1], *t[3], wide=t[2])
    if k == "pstr":
        return b.pstring(*t[1])
    if k == "pint":
        return b.pint32(*t[1])
    if k == "arr":
        return b.array(*[render(x) for x in t[1]])
    return b.dictionary(*[(render(x), render(y)) for x, y in t[1]])


def crate(ver, inputs):
    """The crate's answers for `inputs` (bytes), by index."""
    env = dict(os.environ, CARGO_TARGET_DIR=os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")))
    subprocess.check_call(["cargo", "build", "-q", "--example", "identity_batch"], cwd=ROOT, env=env)
    exe = os.path.join(env["CARGO_TARGET_DIR"], "debug", "examples", "identity_batch")
    text = "".join("%d %s\n" % (ver, x.hex()) for x in inputs)
    out = subprocess.run([exe], input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
    return [json.loads(l) for l in out.decode().splitlines()]


def compare(ver, eng, ours, data):
    """The fields where the crate differs from the engine's record."""
    diff = []
    if "error" in ours:
        return ["decode"]
    if eng.get("size") != ours.get("size"):
        diff.append("size")
    if eng["text"] != ours.get("text"):
        same_lines = sorted(eng["text"].splitlines()) == sorted(ours.get("text", "").splitlines())
        # Godot 4 orders two StringNames inside container keys by the address of their interned
        # text, which no reader of the bytes can know: the same entries in another order.
        sname = ver == 4 and b"\x15\x00\x00\x00" in data
        diff.append("text_order_stringname_address" if same_lines and sname else "text")
    lost = ver == 3 and eng.get("size") != eng.get("size_after")
    if not lost and eng["reencoded_hex"] != ours.get("reencoded_hex"):
        diff.append("reencoded")
    return diff


def main():
    args = sys.argv[1:]
    opt = lambda name, d: int(args[args.index(name) + 1]) if name in args else d  # noqa: E731
    count, seed, batch = opt("--count", 20000), opt("--seed", 1), opt("--batch", 5000)
    engines = [int(a) for a in args if a in ("3", "4")] or [3, 4]
    figures = {}
    for ver in engines:
        gen = Gen(random.Random(seed * 10 + ver), ver)
        inputs = [render(gen.case())(ver) for _ in range(count)]
        ours = crate(ver, inputs)
        counts, findings, engine_refused, crashes = {}, [], 0, []
        for start in range(0, count, batch):
            chunk = [{"name": "c%d" % i, "b64": base64.b64encode(inputs[i]).decode(), "note": ""}
                     for i in range(start, min(count, start + batch))]
            got, rest = {}, chunk
            while rest:
                part = identity.run(ver, rest, crash_ok=True)
                crashed = "_crashed_on" in part
                part.pop("_crashed_on", None)
                got.update(part)
                if not crashed:
                    break
                # The engine died on the first case it left without a record: note it, go on after.
                first = next((j for j, c in enumerate(rest) if c["name"] not in part), len(rest))
                if first < len(rest):
                    crashes.append(base64.b64decode(rest[first]["b64"]).hex())
                rest = rest[first + 1:]
            for c in chunk:
                i = int(c["name"][1:])
                eng = got.get(c["name"])
                if eng is None or eng.get("godot_log"):
                    engine_refused += 1
                    continue
                diff = compare(ver, eng, ours[i], inputs[i])
                for d in diff:
                    counts[d] = counts.get(d, 0) + 1
                if diff and len(findings) < 200:
                    findings.append({"input_hex": inputs[i].hex(), "differs": diff, "godot": eng, "crate": ours[i]})
            print("godot%d: %d/%d inputs, differences %s" % (ver, min(count, start + batch), count, counts), flush=True)
        figures["godot%d" % ver] = {"inputs": count, "seed": seed, "engine_logged_errors": engine_refused,
                                    "engine_crashes": len(crashes), "differences": counts,
                                    "differing_inputs_kept": len(findings)}
        with open(os.path.join(HERE, "crashes-godot%d.txt" % ver), "w") as f:
            f.write("".join(h + "\n" for h in crashes))
        with open(os.path.join(HERE, "findings-godot%d.jsonl" % ver), "w") as f:
            for x in findings:
                f.write(json.dumps(x) + "\n")
    path = os.path.join(HERE, "last-run.json")
    old = json.load(open(path)) if os.path.exists(path) else {}
    old.update(figures)
    with open(path, "w") as f:
        json.dump(old, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
