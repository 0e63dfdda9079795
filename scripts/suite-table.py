#!/usr/bin/env python3
"""Prints the GPU suite's results CSV as a short table: one line per kernel
and shape, with the kernel's rate, the reference library's rate measured in
the same process, their ratio, and the check."""
import csv
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    print("%-44s %-5s %-16s %9s %9s %6s  %s" % (
        "kernel", "lower", "m x n x k", "rate", "anchor", "ratio", "check"))
    for r in rows:
        shape = "%sx%sx%s" % (r["m"], r["n"], r["k"])
        def num(key, fmt):
            try:
                return fmt % float(r[key])
            except ValueError:
                return "-"
        print("%-44s %-5s %-16s %9s %9s %6s  %s (%s)" % (
            r["kernel"].replace("_kernel", "")[:44], r["lowering"], shape,
            num("kernel_rate", "%.1f"), num("anchor_rate", "%.1f"),
            num("ratio", "%.2f"), r["check"], r["anchor"] or "no anchor"))
    print("(rates in TFLOP/s, TOP/s for integer types; anchor: the "
          "reference library, timed in the same process)")
    bad = [r for r in rows if r["check"] != "ok"]
    print("%d runs, %d failed checks" % (len(rows), len(bad)))


if __name__ == "__main__":
    main()
