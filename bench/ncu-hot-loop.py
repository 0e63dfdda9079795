#!/usr/bin/env python3
"""Summarizes Nsight Compute's source page of one kernel (`ncu --section
WarpStateStats --section SourceCounters --page source --print-source sass
--csv`, as `bench/profile.sh` writes it): the stall reasons over all
samples, the executed instruction mix per tensor-core instruction, and the
hottest loop (the instructions executed at least 90% as often as the most
executed one) with each instruction's share of the stall samples.

    bench/ncu-hot-loop.py NAME.source.csv > NAME.hot-loop.txt
"""
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def opcode(source):
    words = source.split()
    if not words:
        return "?"
    word = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    return word.split(".")[0]


def main(path):
    lines = open(path).read().splitlines()
    start = [i for i, line in enumerate(lines) if line.startswith('"Address"')]
    if not start:
        raise SystemExit("%s: no source page (ncu --page source --csv)" % path)
    rows = list(csv.reader(lines[start[0]:]))
    header = rows[0]
    col = {h: i for i, h in enumerate(header)}
    data = [r for r in rows[1:] if len(r) == len(header)]
    samples = col["Warp Stall Sampling (All Samples)"]
    executed = col["Instructions Executed"]
    total = sum(number(r[samples]) for r in data) or 1.0
    reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    by_reason = sorted(((sum(number(r[col[h]]) for r in data), h) for h in reasons),
                       reverse=True)
    print("stall samples: %d" % total)
    print("by reason: " + ", ".join("%s %.1f%%" % (h[6:], 100 * v / total)
                                    for v, h in by_reason if v))
    mix = {}
    for r in data:
        op = opcode(r[col["Source"]])
        mix[op] = mix.get(op, 0) + number(r[executed])
    mma = mix.get("HMMA", 0) + mix.get("IMMA", 0) or 1.0
    print("executed per tensor-core instruction: " + ", ".join(
        "%s %.3f" % (op, n / mma) for op, n in
        sorted(mix.items(), key=lambda kv: -kv[1]) if n / mma >= 0.005))
    most = max(number(r[executed]) for r in data)
    hot = [r for r in data if number(r[executed]) >= 0.9 * most]
    print("hottest loop: %d instructions, each executed %d times" %
          (len(hot), most))
    for r in hot:
        print("%6.2f%%  %s" % (100 * number(r[samples]) / total,
                               r[col["Source"]].strip()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
