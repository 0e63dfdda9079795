#!/usr/bin/env python3
"""Validates tgemm-translate --emit=manifest output against docs/manifest.md
and prints one summary line per kernel, for FileCheck. Exits non-zero, with
the offending field, on any departure from the contract."""
import json
import sys

TYPES = {"f16", "bf16", "f32", "tf32", "s8", "u8", "s4", "e4m3", "e5m2", "s32"}


def fail(path, why):
    print("manifest error: %s: %s" % (path, why))
    sys.exit(1)


def expect(obj, key, kind, path):
    if not isinstance(obj, dict) or key not in obj:
        fail(path, "missing '%s'" % key)
    value = obj[key]
    if kind is not None and not isinstance(value, kind):
        fail("%s.%s" % (path, key), "expected %s, got %r" % (kind, value))
    return value


def dim_text(entry, path):
    if "value" in entry:
        return str(expect(entry, "value", int, path))
    dim = expect(entry, "dim", str, path)
    if dim not in ("m", "n", "k", "batch"):
        fail(path + ".dim", "unknown dimension %r" % dim)
    text = "%s/%d" % (dim, expect(entry, "tile", int, path))
    if "times" in entry:
        text += "x%d" % expect(entry, "times", int, path)
    return text


def main():
    root = json.load(sys.stdin)
    if expect(root, "version", int, "$") != 8:
        fail("$.version", "expected 8")
    for i, k in enumerate(expect(root, "kernels", list, "$")):
        p = "kernels[%d]" % i
        problem = expect(k, "problem", dict, p)
        sizes = []
        for d in "mnk":
            v = expect(problem, d, None, p + ".problem")
            if v is not None and not isinstance(v, int):
                fail(p + ".problem." + d, "expected an integer or null")
            sizes.append("?" if v is None else str(v))
        # A batched kernel's problem names its batch (null: at launch) and
        # its memrefs have the batch dimension first.
        rank = 2
        if "batch" in problem:
            b = problem["batch"]
            if b is not None and (not isinstance(b, int) or b < 1):
                fail(p + ".problem.batch", "expected a positive integer or null")
            sizes.insert(0, "?" if b is None else str(b))
            rank = 3
        operands = []
        for name in ("a", "b", "c"):
            o = expect(k, name, dict, p)
            t = expect(o, "type", str, p + "." + name)
            if t not in TYPES:
                fail(p + "." + name + ".type", "unknown type %r" % t)
            layout = expect(o, "layout", str, p + "." + name)
            if layout not in ("row", "col"):
                fail(p + "." + name + ".layout", "unknown layout %r" % layout)
            operands.append("%s=%s/%s" % (name, t, layout))
        grid = expect(k, "grid", list, p)
        block = expect(k, "block", list, p)
        if len(grid) != 3 or len(block) != 3:
            fail(p, "grid and block have 3 entries")
        config = expect(k, "config", dict, p)
        requires = ["%s%%%d" % (expect(r, "dim", str, p + ".requires"),
                                expect(r, "multiple_of", int, p + ".requires"))
                    for r in expect(k, "requires", list, p)]
        args = []
        for j, a in enumerate(expect(k, "args", list, p)):
            ap = "%s.args[%d]" % (p, j)
            if expect(a, "kind", str, ap) != "memref" or \
                    expect(a, "rank", int, ap) != rank:
                fail(ap, "expected a rank-%d memref" % rank)
            args.append("%s:%s" % (expect(a, "name", str, ap),
                                   expect(a, "type", str, ap)))
        maps = []
        for j, m in enumerate(k.get("tensor_maps", [])):
            mp = "%s.tensor_maps[%d]" % (p, j)
            if expect(m, "passing", str, mp) not in ("param", "global"):
                fail(mp + ".passing", "expected \"param\" or \"global\"")
            maps.append("%s:%s/%d" % (
                expect(m, "operand", str, mp),
                "x".join(map(str, expect(m, "box", list, mp))),
                expect(m, "swizzle", int, mp)))
        if maps:
            args.append("maps=" + "+".join(maps))
        cluster = k.get("cluster", 1)
        if not isinstance(cluster, int) or cluster < 2:
            if "cluster" in k:
                fail(p + ".cluster", "written only above 1")
        elif grid[0].get("times") != cluster:
            fail(p + ".grid[0]", "grid x has cluster blocks per tile column")
        else:
            args.append("cluster=%d" % cluster)
        for field in ("transposes", "aligned_copies"):
            copies = []
            for j, t in enumerate(k.get(field, [])):
                tp = "%s.%s[%d]" % (p, field, j)
                if expect(t, "operand", str, tp) not in ("a", "b"):
                    fail(tp + ".operand", "expected \"a\" or \"b\"")
                copies.append("%s:%s/%s/%d" % (
                    t["operand"], expect(t, "kernel", str, tp),
                    "x".join(map(str, expect(t, "tile", list, tp))),
                    expect(t, "block", list, tp)[0]))
            if field in k and not copies:
                fail(p + "." + field, "written only when not empty")
            if copies:
                args.append(field + "=" + "+".join(copies))
        chip = expect(k, "chip", None, p)
        print("kernel %s module=%s lowering=%s chip=%s problem=%s %s acc=%s "
              "alpha=%g beta=%g config=%s/%s/%d grid=%s block=%s smem=%d "
              "requires=%s args=%s" % (
                  expect(k, "name", str, p), expect(k, "module", str, p),
                  expect(k, "lowering", str, p), chip,
                  "x".join(sizes), " ".join(operands),
                  expect(k, "acc", str, p), expect(k, "alpha", (int, float), p),
                  expect(k, "beta", (int, float), p),
                  ",".join(map(str, expect(config, "block", list, p))),
                  ",".join(map(str, expect(config, "warps", list, p))),
                  expect(config, "stages", int, p),
                  ",".join(dim_text(e, p + ".grid") for e in grid),
                  ",".join(map(str, block)),
                  expect(k, "dynamic_shared_memory", int, p),
                  ",".join(requires), ",".join(args)))


if __name__ == "__main__":
    main()
