#!/usr/bin/env python3
"""Stands in for tgemm-run in the tests of `study.py run` and `tune.py run`:
the same command line and CSV columns, no GPU. The rate is made up from the
sizes; a kernel file whose name contains 'wrong' gives check FAIL and exit
3 (a wrong result), 'broken' exit 1 with no CSV line. Each call's arguments
are appended to $FAKE_TGEMM_RUN_LOG when it is set."""
import json
import os
import sys

HEADER = ("kernel,lowering,chip,a,b,c,acc,a_layout,b_layout,m,n,k,unit,"
          "kernel_ms,kernel_rate,anchor,anchor_layout,anchor_ms,anchor_rate,"
          "ratio,check,rel_error,max_error,device")


def main(argv):
    log = os.environ.get("FAKE_TGEMM_RUN_LOG")
    if log:
        with open(log, "a") as f:
            f.write(" ".join(os.path.basename(a) for a in argv) + "\n")
    if argv == ["--csv-header"]:
        print(HEADER)
        return 0
    if argv == ["--list-devices"]:
        print("0: FAKE GPU (sm_90, 132 SMs)")
        return 0
    kernel_file, opts = argv[0], {}
    i = 1
    while i < len(argv):
        if argv[i] in ("--check", "--csv"):
            opts[argv[i]] = True
            i += 1
        else:
            opts[argv[i]] = argv[i + 1]
            i += 2
    if "broken" in kernel_file:
        print("tgemm-run: error: %s: PTX has no kernel" % kernel_file,
              file=sys.stderr)
        return 1
    with open(opts["--manifest"]) as f:
        k = json.load(f)["kernels"][0]
    m, n, kk = int(opts["--m"]), int(opts["--n"]), int(opts["--k"])
    rate = 100.0 + (m + n + kk) % 97 + (50 if k["lowering"] == "ptx" else 0)
    ms = 2.0 * m * n * kk / (rate * 1e9)
    wrong = "wrong" in kernel_file
    integer = k["acc"] == "s32"
    print(",".join(str(x) for x in [
        k["name"], k["lowering"], k["chip"], k["a"]["type"], k["b"]["type"],
        k["c"]["type"], k["acc"], "row", "col", m, n, kk,
        "TOP/s" if integer else "TFLOP/s", "%.4f" % ms, "%.1f" % rate,
        "fake library", "TN", "%.4f" % (ms / 2), "%.1f" % (2 * rate),
        "0.500", "FAIL" if wrong else "ok",
        "1.000e-01" if wrong else "0.000e+00",
        "1.000e+00" if wrong else "0.000e+00",
        '"FAKE GPU (sm_90, 132 SMs)"']))
    if wrong:
        print("tgemm-run: error: wrong result: kernel '%s'" % k["name"],
              file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
