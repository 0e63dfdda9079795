#!/usr/bin/env python3
"""Compiles examples through a tgemm pipeline for several chips and runs
ptxas -v on each PTX; prints one line per kernel (registers, spills) and a
summary. Exits non-zero if any compilation or assembly fails or spills more
than --max-spill-bytes. With --default-config, each example's own tile
config is dropped, so that the pipeline picks the family's (the tuned
database's, else the default)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--lowering", required=True)
    ap.add_argument("--chips", required=True)
    ap.add_argument("--skip", default="", help="comma-separated substrings")
    ap.add_argument("--opt", default="tgemm-opt")
    ap.add_argument("--translate", default="tgemm-translate")
    ap.add_argument("--default-config", action="store_true")
    ap.add_argument("--max-spill-bytes", type=int, default=0)
    ap.add_argument("--options", default="",
                    help="more --tgemm-pipeline options, e.g. persistent=true")
    ap.add_argument("examples", nargs="+")
    opts = ap.parse_args()
    chips = opts.chips.split(",")
    skips = [s for s in opts.skip.split(",") if s]
    ok = failed = skipped = rejected = 0
    with tempfile.TemporaryDirectory() as tmp:
        for example in sorted(opts.examples):
            name = os.path.basename(example)[:-len(".mlir")]
            if opts.default_config:
                with open(example) as f:
                    text = re.sub(r"config\(<[^>]*>\)", "", f.read())
                example = os.path.join(tmp, name + ".mlir")
                with open(example, "w") as f:
                    f.write(text)
            for chip in chips:
                if any(s in name for s in skips):
                    skipped += 1
                    continue
                # What the legality module refuses for this chip (e.g. a
                # pipeline that does not fit its shared memory) is reported
                # as rejected; whatever it accepts must compile.
                check = subprocess.run(
                    [opts.opt, example,
                     "--tgemm-attach-target=chip=%s family=%s" % (
                         chip, opts.lowering),
                     "--tgemm-select-config"] + (
                         ["--tgemm-override-config=" + opts.options]
                         if opts.options else []) + ["--tgemm-check-target"],
                    capture_output=True, text=True)
                if check.returncode != 0:
                    print("REJECTED %s %s: %s" % (
                        name, chip, check.stderr.splitlines()[0]))
                    rejected += 1
                    continue
                ptx = os.path.join(tmp, "%s-%s.ptx" % (name, chip))
                pipeline = "--tgemm-pipeline=lowering=%s chip=%s %s" % (
                    opts.lowering, chip, opts.options)
                compiled = subprocess.run([opts.opt, example, pipeline],
                                          capture_output=True, text=True)
                if compiled.returncode == 0:
                    compiled = subprocess.run(
                        [opts.translate, "--emit=ptx", "-o", ptx],
                        input=compiled.stdout, capture_output=True, text=True)
                if compiled.returncode != 0:
                    print("FAIL %s %s: %s" % (name, chip, compiled.stderr))
                    failed += 1
                    continue
                asm = subprocess.run(
                    [opts.ptxas, "-arch=" + chip, "-v", ptx, "-o",
                     os.devnull], capture_output=True, text=True)
                report = asm.stdout + asm.stderr
                regs = re.search(r"Used (\d+) registers", report)
                spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes "
                                  r"spill loads", report)
                if asm.returncode != 0 or not regs or not spill:
                    print("FAIL %s %s: ptxas: %s" % (name, chip, report))
                    failed += 1
                    continue
                stores, loads = int(spill.group(1)), int(spill.group(2))
                print("%-28s %-6s %3s registers, spill stores %d, loads %d" % (
                    name, chip, regs.group(1), stores, loads))
                if max(stores, loads) > opts.max_spill_bytes:
                    print("FAIL %s %s: spills" % (name, chip))
                    failed += 1
                    continue
                ok += 1
    print("%d examples x %d chips: %d compiled, %d rejected, %d failed, "
          "%d skipped" % (len(opts.examples), len(chips), ok, rejected,
                          failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
