#!/usr/bin/env python3
"""Feeds a tool mechanically mutated copies of MLIR files.

Each mutant deletes, duplicates or swaps tokens, replaces numbers or type
names, or truncates the file. The tool may accept a mutant or reject it with
a diagnostic; it must never die by a signal, hang, print a crash report, or
exit non-zero without saying `error:`. Mutants are reproducible from --seed;
offenders are written to --keep for use as regression tests.
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys

TOKEN = re.compile(r"%?[A-Za-z_][\w.$-]*|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|\S")
NUMBERS = ["0", "-1", "1", "3", "7", "17", "96", "1024", "65536", "65537",
           "2147483648", "-9223372036854775808", "9223372036854775807",
           "99999999999999999999999", "1.5", "1e308", "-0.0", "nan"]
TYPES = ["f16", "bf16", "f32", "f64", "i1", "i4", "i8", "ui8", "si8", "i32",
         "i64", "index", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "tf32",
         "complex<f32>", "vector<4xf16>", "none"]
PUNCT = ["<", ">", "(", ")", "[", "]", "{", "}", ",", ":", "=", "?", "x",
         "#tgemm.config<", "#tgemm<layout", "\"", "%", "@", "-", "//"]


def mutate(text, rng):
    tokens = [m for m in TOKEN.finditer(text)]
    if not tokens:
        return text
    kind = rng.choice(["delete", "duplicate", "swap", "number", "type",
                       "punct", "truncate", "truncate", "multi"])
    if kind == "truncate":
        return text[:rng.randrange(len(text))]
    if kind == "multi":
        for _ in range(rng.randint(2, 5)):
            text = mutate(text, rng)
        return text
    t = rng.choice(tokens)
    start, end = t.span()
    if kind == "delete":
        return text[:start] + text[end:]
    if kind == "duplicate":
        return text[:end] + " " + t.group() + text[end:]
    if kind == "swap":
        u = rng.choice(tokens)
        (a0, a1), (b0, b1) = sorted([t.span(), u.span()])
        if a1 > b0:
            return text
        return (text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] +
                text[b1:])
    if kind == "number":
        nums = [m for m in tokens if re.fullmatch(r"-?\d.*", m.group())]
        if nums:
            start, end = rng.choice(nums).span()
        return text[:start] + rng.choice(NUMBERS) + text[end:]
    if kind == "type":
        types = [m for m in re.finditer(
            r"\b(f16|bf16|f32|i8|ui8|i4|i32|f8E4M3FN|f8E5M2)\b", text)]
        if types:
            start, end = rng.choice(types).span()
        return text[:start] + rng.choice(TYPES) + text[end:]
    return text[:start] + rng.choice(PUNCT) + text[start:]


def run_one(tool, args, text, timeout):
    try:
        p = subprocess.run([tool, "-", "-o", os.devnull] + args,
                           input=text.encode("utf-8", "surrogateescape"),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang"
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return "signal %d" % -p.returncode
    if "Stack dump" in err or "PLEASE submit a bug report" in err:
        return "crash report"
    if p.returncode != 0 and "error:" not in err:
        return "exit %d without a diagnostic" % p.returncode
    return "rejected" if p.returncode else "accepted"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--keep", default="mutants")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--tool-args", action="append", default=[],
                    help="extra arguments, one set chosen per mutant")
    ap.add_argument("files", nargs="+")
    opts = ap.parse_args()

    sources = [open(f, encoding="utf-8").read() for f in opts.files]
    arg_sets = [a.split() for a in opts.tool_args] or [[]]
    rng = random.Random(opts.seed)
    cases = []
    for i in range(opts.count):
        text = mutate(rng.choice(sources), rng)
        cases.append((i, text, rng.choice(arg_sets)))

    counts, bad = {}, []
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        futures = {pool.submit(run_one, opts.tool, args, text, opts.timeout):
                   (i, text, args) for i, text, args in cases}
        for fut in concurrent.futures.as_completed(futures):
            outcome = fut.result()
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome not in ("accepted", "rejected"):
                bad.append((futures[fut], outcome))

    print("%d mutants (seed %d): %s" % (
        opts.count, opts.seed,
        ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))))
    if bad:
        os.makedirs(opts.keep, exist_ok=True)
        for (i, text, args), outcome in sorted(bad, key=lambda b: b[0][0]):
            path = os.path.join(opts.keep, "mutant-%d.mlir" % i)
            with open(path, "w", encoding="utf-8",
                      errors="surrogateescape") as f:
                f.write("// %s with args: %s\n%s" % (outcome, " ".join(args),
                                                     text))
            print("FAIL: %s: %s" % (path, outcome))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
