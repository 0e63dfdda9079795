#!/usr/bin/env python3
"""The legality module's promise, checked end to end.

For each input and target (chip, family), the target check's verdict
(`--tgemm-attach-target --tgemm-from-linalg --tgemm-select-config
--tgemm-check-target`) must equal whether the whole `--tgemm-pipeline`
succeeds; every success must give PTX that ptxas assembles for the chip and a
manifest that the runtime's validator (`tgemm-run`, which checks every input
before it opens a device) accepts; and no tool may die by a signal.

  examples MODE: every example x chip x family x the four A/B layouts
  mutants  MODE: mechanically mutated examples (test/Tools/mutate.py), each
                 for one chip and family drawn from the seed

Prints one line per disagreement (FAIL ...) and a summary; exits non-zero on
any FAIL.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

CHIPS = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
FAMILIES = ["wmma", "ptx", "wgmma"]
LAYOUTS = [(a, b) for a in ("row", "col") for b in ("row", "col")]
MATMUL = re.compile(
    r"tgemm\.matmul (%\w+), (%\w+), (%\w+) layout\((row|col), (row|col)\)")
TIMEOUT = 300


def with_layouts(text, layout_a, layout_b):
    """`text` with every matmul's layouts set. The examples' operands are
    square or dynamic, so their types stay as they are."""
    return MATMUL.sub(lambda m: "tgemm.matmul %s, %s, %s layout(%s, %s)" % (
        m.group(1), m.group(2), m.group(3), layout_a, layout_b), text)


def run(cmd, stdin=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    return p


def died(p):
    return p is None or p.returncode < 0 or "Stack dump" in p.stderr \
        or "LLVM ERROR" in p.stderr or "PLEASE submit a bug report" in p.stderr


def sizes_for(kernel):
    """Command-line sizes for the runtime: dynamic ones at 256 (batch 2)."""
    args = []
    problem = kernel.get("problem", {})
    for dim in ("m", "n", "k"):
        if problem.get(dim) is None:
            args += ["--" + dim, "256"]
    if "batch" in problem and problem["batch"] is None:
        args += ["--batch", "2"]
    return args


def check_case(opts, name, text, chip, family, tmp):
    """Returns (verdict, problems): verdict is 'accepted' or 'rejected'."""
    src = os.path.join(tmp, "in.mlir")
    with open(src, "w") as f:
        f.write(text)
    target = "--tgemm-attach-target=chip=%s family=%s" % (chip, family)
    check = run([opts.opt, src, target, "--tgemm-from-linalg",
                 "--tgemm-select-config", "--tgemm-check-target"])
    full = run([opts.opt, src,
                "--tgemm-pipeline=lowering=%s chip=%s" % (family, chip)])
    problems = []
    for what, p in (("check", check), ("pipeline", full)):
        if died(p):
            problems.append("%s died: %s" % (
                what, "timeout" if p is None else p.stderr[-400:]))
    if problems:
        return "died", problems
    ok_check, ok_full = check.returncode == 0, full.returncode == 0
    if ok_check != ok_full:
        first = (full.stderr or check.stderr).strip().splitlines()
        problems.append("check says %s, pipeline %s: %s" % (
            "ok" if ok_check else "no", "succeeds" if ok_full else "fails",
            first[0] if first else ""))
        return "disagree", problems
    if not ok_full:
        if "error:" not in full.stderr:
            problems.append("rejected without an error: " + full.stderr[-200:])
        return "rejected", problems
    if "gpu.binary" not in full.stdout:
        return "accepted", problems  # nothing to compile (no matmul left)
    compiled = os.path.join(tmp, "out.mlir")
    with open(compiled, "w") as f:
        f.write(full.stdout)
    ptx = os.path.join(tmp, "out.ptx")
    manifest = os.path.join(tmp, "out.json")
    for emit, path in (("ptx", ptx), ("manifest", manifest)):
        p = run([opts.translate, "--emit=" + emit, compiled, "-o", path])
        if p is None or p.returncode != 0:
            problems.append("translate --emit=%s: %s" % (
                emit, "timeout" if p is None else p.stderr[-300:]))
            return "accepted", problems
    if opts.ptxas and os.path.getsize(ptx) > 0:
        p = run([opts.ptxas, "-arch=" + chip, ptx, "-o", os.devnull])
        if p is None or p.returncode != 0:
            problems.append("ptxas -arch=%s: %s" % (
                chip, "timeout" if p is None else p.stderr[-300:]))
    if opts.run and os.path.getsize(ptx) > 0:
        with open(manifest) as f:
            kernels = json.load(f)["kernels"]
        for kernel in kernels:
            p = run([opts.run, ptx, "--manifest", manifest, "--kernel",
                     kernel["name"], "--reps", "0", "--warmup", "0"]
                    + sizes_for(kernel))
            # 4: every check passed and there is no device; 0: it ran.
            if p is None or p.returncode not in (0, 4):
                problems.append("tgemm-run rejects the manifest: %s" % (
                    "timeout" if p is None else p.stderr[-300:]))
    return "accepted", problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["examples", "mutants"])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--opt", default="tgemm-opt")
    ap.add_argument("--translate", default="tgemm-translate")
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--run", default="", help="tgemm-run (validates manifests)")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    opts = ap.parse_args()

    sources = {}
    for path in sorted(opts.inputs):
        with open(path) as f:
            sources[os.path.basename(path)] = f.read()
    cases = []
    if opts.mode == "examples":
        for name, text in sources.items():
            for la, lb in LAYOUTS:
                variant = with_layouts(text, la, lb)
                for chip in CHIPS:
                    for family in FAMILIES:
                        cases.append(("%s layout(%s, %s)" % (name, la, lb),
                                      variant, chip, family))
    else:
        rng = random.Random(opts.seed)
        names = sorted(sources)
        for i in range(opts.count):
            name = rng.choice(names)
            cases.append(("%s mutant %d" % (name, i),
                          mutate.mutate(sources[name], rng),
                          rng.choice(CHIPS), rng.choice(FAMILIES)))

    counts = {"accepted": 0, "rejected": 0, "disagree": 0, "died": 0}
    failures = 0

    def one(case):
        with tempfile.TemporaryDirectory() as tmp:
            return case, check_case(opts, case[0], case[1], case[2], case[3],
                                    tmp)

    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        for (name, _, chip, family), (verdict, problems) in pool.map(one,
                                                                     cases):
            counts[verdict] += 1
            for problem in problems:
                failures += 1
                print("FAIL %s %s %s: %s" % (name, chip, family, problem))
    print("%d cases: %d accepted (PTX assembled, manifest valid), %d rejected "
          "by the target check, %d disagreements, %d crashes" % (
              len(cases), counts["accepted"], counts["rejected"],
              counts["disagree"], counts["died"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
