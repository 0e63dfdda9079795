#!/usr/bin/env python3
"""`tgemm.scaled_mm` (per-tensor fp8 scales) against torch._scaled_mm.

    python3 bench/scaled-mm.py prepare [DIR]   # here: compile into DIR
    python3 bench/scaled-mm.py run [DIR]       # GPU host (torch)

`prepare` compiles, with `tgemm.ops.precompile_scaled_mm` (sm_90a, the
chip's default family), into the cache directory DIR (default
build/scaled-mm) the kernels `tgemm.scaled_mm` picks for each case below:
scale_a and scale_b as one-element float32 device tensors (two
`scale(scalar)` steps), a bfloat16 bias (`bias(col)`), C bfloat16.

  e4m3 x e4m3, B column-major (K-major)   what torch._scaled_mm takes
  e4m3 x e5m2, B column-major             mixed
  e5m2 x e4m3, B column-major             mixed
  e4m3 x e4m3, B row-major (K x N)        torch._scaled_mm refuses it

`run` builds the runtime library (build-gpu, no LLVM) and, per case and
shape, on random fp8 tensors (randn, scaled into range, then rounded to
fp8) and random scales, calls `tgemm.scaled_mm` (from the warm cache: no
compiler on the GPU host) and torch._scaled_mm (cuBLASLt) with the same
arguments, alternating over ROUNDS rounds (default 3), each the median of 5
samples of 10 back-to-back launches after warm-up. Both outputs are checked
against an f32 reference, (a * scale_a) @ (b * scale_b) + bias, by relative
Frobenius error (< 1e-2). It writes DIR/scaled-mm.csv and prints a table;
it exits 1 if a check fails. SHAPES (default "8192x8192x8192
4096x4096x4096 1008x1008x1008") comes from the environment.
"""

import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torchbench  # noqa: E402
from torchbench import timed  # noqa: E402

torchbench.use_package()

# name: (A dtype, B dtype, B layout)
CASES = {
    "e4m3": ("float8_e4m3fn", "float8_e4m3fn", "col"),
    "e4m3xe5m2": ("float8_e4m3fn", "float8_e5m2", "col"),
    "e5m2xe4m3": ("float8_e5m2", "float8_e4m3fn", "col"),
    "e4m3-brow": ("float8_e4m3fn", "float8_e4m3fn", "row"),
}


def prepare(out):
    from tgemm import ops
    import json
    for name, (da, db, lb) in CASES.items():
        ptx, manifest = ops.precompile_scaled_mm(
            da, db, "bfloat16", layout_b=lb, bias="bfloat16", cache_dir=out)
        kernel = json.load(open(manifest))["kernels"][0]
        steps = ", ".join("%s(%s)" % (s["op"], s["broadcast"])
                          for s in kernel["epilogue"])
        print("prepared %s: %s x %s, b %s, %s lowering, %s; %s" % (
            name, kernel["a"]["type"], kernel["b"]["type"],
            kernel["b"]["layout"], kernel["lowering"], steps,
            os.path.basename(ptx)))


def run(out):
    torchbench.build_runtime(out)
    import torch
    import tgemm
    os.environ["TGEMM_CACHE_DIR"] = out
    torch.manual_seed(0)
    dev = torch.device("cuda")
    shapes = [tuple(int(x) for x in s.split("x")) for s in os.environ.get(
        "SHAPES", "8192x8192x8192 4096x4096x4096 1008x1008x1008").split()]
    rounds = int(os.environ.get("ROUNDS", "3"))
    rows, failed = [], 0
    for name, (da, db, lb) in CASES.items():
        for m, n, k in shapes:
            ta, tb = getattr(torch, da), getattr(torch, db)
            a = (torch.randn(m, k, device=dev) * 2).to(ta)
            if lb == "col":
                b = (torch.randn(n, k, device=dev) * 2).to(tb).t()
            else:
                b = (torch.randn(k, n, device=dev) * 2).to(tb)
            scale_a = torch.rand((), device=dev) + 0.25
            scale_b = torch.rand((), device=dev) + 0.25
            bias = torch.randn(n, device=dev).to(torch.bfloat16)
            ref = (a.float() * scale_a) @ (b.float() * scale_b) + bias.float()
            out_t = torch.empty(m, n, device=dev, dtype=torch.bfloat16)

            def ours():
                tgemm.scaled_mm(a, b, scale_a, scale_b, bias=bias, out=out_t)

            def lib():
                return torch._scaled_mm(a, b, scale_a, scale_b, bias=bias,
                                        out_dtype=torch.bfloat16)

            def error(c):
                return float((c.float() - ref).norm() / ref.norm())

            ours()
            err = error(out_t)
            try:
                lib_err = error(lib())
            except (RuntimeError, TypeError) as e:
                lib, lib_err = None, None
                why = str(e).splitlines()[0][:60]
            ok = err < 1e-2 and (lib_err is None or lib_err < 1e-2)
            failed += not ok
            t_ours, t_lib = [], []
            for _ in range(rounds):
                t_ours.append(timed(ours))
                if lib is not None:
                    t_lib.append(timed(lib))
            flops = 2.0 * m * n * k
            ms = statistics.median(t_ours)
            lib_ms = statistics.median(t_lib) if t_lib else None
            rows.append({
                "case": name, "m": m, "n": n, "k": k,
                "tgemm_ms": "%.4f" % ms,
                "tgemm_tflops": "%.1f" % (flops / ms / 1e9),
                "lib_ms": "%.4f" % lib_ms if lib_ms else "",
                "lib_tflops": "%.1f" % (flops / lib_ms / 1e9) if lib_ms
                else "",
                "ratio": "%.3f" % (lib_ms / ms) if lib_ms else "",
                "tgemm_err": "%.2e" % err,
                "lib_err": "%.2e" % lib_err if lib_err is not None else
                "refused: " + why,
                "check": "ok" if ok else "FAILED"})
    path = os.path.join(out, "scaled-mm.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print("%-10s %-16s %8s %8s %6s %9s %s" % (
        "case", "shape", "tgemm", "cuBLASLt", "ratio", "err", "check"))
    for r in rows:
        print("%-10s %-16s %8s %8s %6s %9s %s" % (
            r["case"], "%dx%dx%d" % (r["m"], r["n"], r["k"]),
            r["tgemm_tflops"], r["lib_tflops"] or "-", r["ratio"] or "-",
            r["tgemm_err"], r["check"]))
    print("wrote %s (%d failed)" % (path, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(torchbench.main(sys.argv, __doc__, prepare, run, "scaled-mm"))
