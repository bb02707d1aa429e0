#!/usr/bin/env python3
"""Crate against engine on generated dictionaries: key identity, key order, re-encoding.

    python3 campaign.py [--count N] [--seed S] [--batch B] [3] [4]

Generates N inputs per engine (default 20000): 30% are dict-keys probes (../dict-keys/*.jsonl,
parsed back into value trees) with one to three nodes replaced by near twins or twin keys
added, the rest new dictionaries whose keys are values of every type, nested in arrays and dictionaries, each key often a near twin of an earlier one (another
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

    def __init__(self, rng, ver, probes=()):
        self.r, self.v, self.probes = rng, ver, list(probes)

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

    def mutate(self, tree):
        """`tree` (a probe) with a node replaced by a near twin, or with a twin key added."""
        if tree[0] == "dict" and tree[1] and self.r.random() < 0.4:
            ents = list(tree[1])
            k = self.twin(self.r.choice(ents)[0])
            ents.insert(self.r.randrange(len(ents) + 1), (k, ("int", len(ents), False)))
            return ("dict", tuple(ents))
        nodes = []

        def walk(t, path):
            nodes.append(path)
            if t[0] == "arr":
                for i, x in enumerate(t[1]):
                    walk(x, path + ((i, None),))
            elif t[0] == "dict":
                for i, (x, y) in enumerate(t[1]):
                    walk(x, path + ((i, 0),))
                    walk(y, path + ((i, 1),))
        walk(tree, ())
        path = self.r.choice(nodes)

        def replace(t, path):
            if not path:
                return self.twin(t)
            (i, side), rest = path[0], path[1:]
            if t[0] == "arr":
                items = list(t[1])
                items[i] = replace(items[i], rest)
                return ("arr", tuple(items))
            ents = list(t[1])
            k, v = ents[i]
            ents[i] = (replace(k, rest), v) if side == 0 else (k, replace(v, rest))
            return ("dict", tuple(ents))
        return replace(tree, path)

    def case(self):
        if self.probes and self.r.random() < 0.3:
            tree = self.r.choice(self.probes)
            for _ in range(self.r.randint(1, 3)):
                tree = self.mutate(tree)
            return tree
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
    if k == "npx":
        return b.nodepath(*t[1], subnames=t[2], absolute=t[3])
    if k == "pint64":
        return b.pint64(*t[1])
    if k == "pbyte":
        return b.pbytes(*t[1])
    if k == "rid":
        return b.rid(t[1])
    if k == "obj":
        return b.objid(t[1])
    if k == "signal":
        return b.signal(t[1], t[2])
    if k == "arr":
        return b.array(*[render(x) for x in t[1]])
    return b.dictionary(*[(render(x), render(y)) for x, y in t[1]])


def parse(data, ver, exact=True):
    """The tree of a value's bytes (the types render() writes), or None for anything else (or,
    when `exact`, for bytes render() would not write back the same: padding not zero)."""
    names = {v: k for k, v in b.T(ver).items()}
    pos = [0]

    def u32():
        x = struct.unpack_from("<I", data, pos[0])[0]
        pos[0] += 4
        return x

    def u64():
        x = struct.unpack_from("<Q", data, pos[0])[0]
        pos[0] += 8
        return x

    def text():
        n = u32()
        raw = data[pos[0]:pos[0] + n]
        pos[0] += n + (-n % 4)
        return raw

    def value():
        head = u32()
        kind, wide = names.get(head & 0xFF), bool(head & b.FLAG64)
        if head & 0xFF00 or (head >> 16) & ~1 or kind is None:
            raise ValueError("header")
        if kind == "nil":
            return ("nil",)
        if kind == "bool":
            return ("bool", u32() != 0)
        if kind == "int":
            return ("int", struct.unpack("<q", struct.pack("<Q", u64()))[0] if wide
                    else struct.unpack("<i", struct.pack("<I", u32()))[0], wide)
        if kind == "float":
            return ("f64", u64()) if wide else ("f32", u32())
        if kind in ("string", "stringname"):
            return ("str" if kind == "string" else "sname", text())
        if kind in b.REALS:
            n = b.REALS[kind]
            if wide and kind != "color":
                return ("wide", kind, tuple(u64() for _ in range(n)))
            return ("math", kind, tuple(u32() for _ in range(n)))
        if kind in b.INTS:
            return ("ivec", kind, tuple(struct.unpack("<i", struct.pack("<I", u32()))[0]
                                        for _ in range(b.INTS[kind])))
        if kind == "nodepath":
            count, subs, flags = u32() & 0x7FFFFFFF, u32(), u32()
            return ("npx", tuple(text() for _ in range(count)), tuple(text() for _ in range(subs)),
                    bool(flags & 1))
        if kind == "rid":
            return ("rid", u64() if ver == 4 else 0)
        if kind == "object":
            if not wide:
                raise ValueError("full object")
            return ("obj", u64())
        if kind == "callable":
            return ("callable",)
        if kind == "signal":
            return ("signal", text(), u64())
        if kind == "array":
            if wide:
                raise ValueError("typed array")
            return ("arr", tuple(value() for _ in range(u32() & 0x7FFFFFFF)))
        if kind == "dict":
            if head >> 16:
                raise ValueError("typed dictionary")
            n = u32() & 0x7FFFFFFF
            return ("dict", tuple((value(), value()) for _ in range(n)))
        n = u32()
        if kind == "pbyte":
            out = tuple(data[pos[0]:pos[0] + n])
            pos[0] += n + (-n % 4)
            return ("pbyte", out)
        if kind == "pint32":
            return ("pint", tuple(struct.unpack("<i", struct.pack("<I", u32()))[0] for _ in range(n)))
        if kind == "pint64":
            return ("pint64", tuple(struct.unpack("<q", struct.pack("<Q", u64()))[0] for _ in range(n)))
        if kind == "pfloat32":
            return ("pf32", tuple(u32() for _ in range(n)))
        if kind == "pfloat64":
            return ("pf64", tuple(u64() for _ in range(n)))
        if kind == "pstring":
            out = []
            for _ in range(n):
                raw = text()
                out.append(raw[:-1] if raw.endswith(b"\0") else raw)
            return ("pstr", tuple(out))
        if kind in b.PACKED_VECTORS:
            m = b.PACKED_VECTORS[kind]
            big = wide and kind != "pcolor"
            return ("pvec", kind, big, tuple(tuple((u64() if big else u32()) for _ in range(m)) for _ in range(n)))
        raise ValueError(kind)

    try:
        tree = value()
    except (ValueError, struct.error):
        return None
    if pos[0] != len(data) or (exact and render(tree)(ver) != data):
        return None
    return tree


def depth(t):
    """How deep tree `t` nests (the deep probes are left out: past 50 levels Godot 4 stops
    comparing keys, and two keys nested 48 to 50 levels around a NaN hang its text writer)."""
    if t[0] == "arr":
        return 1 + max((depth(x) for x in t[1]), default=0)
    if t[0] == "dict":
        return 1 + max((max(depth(x), depth(y)) for x, y in t[1]), default=0)
    return 0


def holds_object(t):
    """Whether tree `t` holds an object by a non-zero id."""
    if t[0] == "obj":
        return t[1] != 0
    if t[0] == "arr":
        return any(holds_object(x) for x in t[1])
    if t[0] == "dict":
        return any(holds_object(x) or holds_object(y) for x, y in t[1])
    return False


def probe_inputs(ver):
    """The dict-keys probes of `ver` (their records, with input_hex)."""
    out = []
    for name in ("godot%d-identity.jsonl" % ver, "godot%d.jsonl" % ver):
        path = os.path.join(HERE, "..", "dict-keys", name)
        if os.path.exists(path):
            out.extend(json.loads(line) for line in open(path))
    return out


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
    # Godot 3 encodes a dictionary holding a key it never finds by reading freed memory.
    lost = ver == 3 and (eng.get("size") != eng.get("size_after")
                         or b"[Deleted Object]".hex() in eng["reencoded_hex"])
    theirs, mine = eng["reencoded_hex"], ours.get("reencoded_hex", "")
    if not lost and theirs != mine:
        # Godot leaves NodePath padding unwritten: compare the values the bytes hold.
        a, c = parse(bytes.fromhex(theirs), ver, False), parse(bytes.fromhex(mine), ver, False)
        if a is None or a != c:
            diff.append("reencoded")
    return diff


def main():
    args = sys.argv[1:]
    opt = lambda name, d: int(args[args.index(name) + 1]) if name in args else d  # noqa: E731
    count, seed, batch = opt("--count", 20000), opt("--seed", 1), opt("--batch", 5000)
    values = {i + 1 for i, a in enumerate(args) if a.startswith("--")}
    engines = [int(a) for i, a in enumerate(args) if a in ("3", "4") and i not in values] or [3, 4]
    figures = {}
    for ver in engines:
        # (Objects by id left out: Godot re-encodes the id of the instance it made, and Godot 3
        # orders objects by address; and the deep probes, see depth().)
        probes = [t for t in (parse(bytes.fromhex(r["input_hex"]), ver) for r in probe_inputs(ver))
                  if t is not None and t[0] == "dict" and not holds_object(t) and depth(t) < 8]
        gen = Gen(random.Random(seed * 10 + ver), ver, probes)
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
        figures["godot%d" % ver] = {"inputs": count, "seed": seed, "probe_seeds": len(probes), "engine_logged_errors": engine_refused,
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
