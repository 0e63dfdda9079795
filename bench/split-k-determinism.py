#!/usr/bin/env python3
"""Split K's reduction order, shown on the GPU: bitwise-identical C.

    python3 bench/split-k-determinism.py prepare [DIR]  # here: compile
    python3 bench/split-k-determinism.py run [DIR]      # on the GPU host

`prepare` compiles (tgemm-opt, dynamic sizes) groups of f16 -> f32 kernels
that split K alike (the same parts on the same 256-element granules) but
differ in everything else: block tile (so grid size), warps, stages,
block tile K (32, 64, 128: all divide 256) and family (ptx, wmma) within
the mma.sync-backed group, and wgmma's tiles in its own group. `run` builds
the runtime library (build-gpu), then per shape makes one set of random
inputs and launches every kernel REPEATS times on them with
tgemm.launch.Launcher (its own workspace per stream), and reports whether
every launch of a kernel gave the same bits (repeat) and whether every
kernel of a group gave the bits of the group's first (across configs and
grid sizes), checking each against torch.matmul in f32. It writes
DIR/determinism.csv and exits 1 if any launch is wrong or differs.
"""

import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torchbench  # noqa: E402

REPO = torchbench.REPO
sys.path.insert(0, os.path.join(REPO, "python"))

# group: [(name, lowering, chip, block, warps, stages)]; every kernel of a
# group splits K into PARTS.
PARTS = 4
GROUPS = {
    "mma": [
        ("ptx-128x128x32", "ptx", "sm_90", "128, 128, 32", "2, 2", 3),
        ("ptx-64x128x64", "ptx", "sm_90", "64, 128, 64", "2, 2", 4),
        ("ptx-128x256x64", "ptx", "sm_90", "128, 256, 64", "2, 4", 3),
        ("ptx-64x64x128", "ptx", "sm_80", "64, 64, 128", "2, 2", 4),
        ("wmma-128x128x32", "wmma", "sm_90", "128, 128, 32", "2, 2", 3),
    ],
    "wgmma": [
        ("wgmma-128x128x64", "wgmma", "sm_90a", "128, 128, 64", "8, 1", 4),
        ("wgmma-128x256x64", "wgmma", "sm_90a", "128, 256, 64", "8, 1", 4),
        ("wgmma-64x128x64", "wgmma", "sm_90a", "64, 128, 64", "4, 1", 4),
    ],
}
SHAPES = [(512, 512, 16384), (1000, 1000, 1000), (16, 4096, 4096)]
REPEATS = 10


def prepare(out):
    os.makedirs(out, exist_ok=True)
    opt = os.path.join(REPO, "build", "bin", "tgemm-opt")
    translate = os.path.join(REPO, "build", "bin", "tgemm-translate")
    for group in GROUPS.values():
        for name, lowering, chip, block, warps, stages in group:
            src = os.path.join(out, name + ".mlir")
            ty = "memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>"
            with open(src, "w") as f:
                f.write(
                    "func.func @%s(%%a: memref<?x?xf16>, %%b: memref<?x?xf16>,"
                    " %%c: memref<?x?xf32>) {\n"
                    "  tgemm.matmul %%a, %%b, %%c layout(row, col) acc(f32)\n"
                    "      config(<block = [%s], warps = [%s], stages = %d, "
                    "split_k = %d>)\n      : %s\n  return\n}\n" % (
                        name.replace("-", "_"), block, warps, stages, PARTS,
                        ty))
            low = os.path.join(out, name + ".out.mlir")
            subprocess.run([opt, src, "--tgemm-pipeline=lowering=%s chip=%s"
                            % (lowering, chip), "-o", low], check=True)
            for emit, ext in (("ptx", ".ptx"), ("manifest", ".json")):
                subprocess.run([translate, "--emit=" + emit, low, "-o",
                                os.path.join(out, name + ext)], check=True)
            os.unlink(low)
            print("prepared", name)


def run(out):
    torchbench.build_runtime(out)
    import torch
    from tgemm.launch import Launcher
    torch.manual_seed(0)
    rows, bad = [], 0
    launchers = {name: Launcher(os.path.join(out, name + ".ptx"),
                                os.path.join(out, name + ".json"))
                 for group in GROUPS.values() for name, *_ in group}
    print("%-16s %-6s %-18s %7s %8s %8s %s" % (
        "shape", "group", "kernel", "repeat", "as first", "rel err", "ok"))
    for (m, n, k) in SHAPES:
        a = torch.randn(m, k, device="cuda").half()
        w = torch.randn(n, k, device="cuda").half()
        ref = a.float() @ w.float().t()
        for gname, group in GROUPS.items():
            first = None
            for name, *_ in group:
                outs = []
                for _ in range(REPEATS):
                    c = torch.zeros(m, n, device="cuda")
                    launchers[name](a, w.t(), c)
                    outs.append(c)
                torch.cuda.synchronize()
                repeat = all(torch.equal(outs[0], o) for o in outs[1:])
                same = True if first is None else torch.equal(first, outs[0])
                if first is None:
                    first = outs[0]
                err = ((outs[0] - ref).norm() / ref.norm()).item()
                ok = repeat and same and err < 1e-3
                bad += not ok
                rows.append({"m": m, "n": n, "k": k, "group": gname,
                             "kernel": name, "parts": PARTS,
                             "repeats": REPEATS, "bitwise_repeat": repeat,
                             "bitwise_as_first": same, "rel_error": err,
                             "ok": ok})
                print("%-16s %-6s %-18s %7s %8s %8.1e %s" % (
                    "%dx%dx%d" % (m, n, k), gname, name, repeat, same, err,
                    "ok" if ok else "FAILED"))
    with open(os.path.join(out, "determinism.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(torchbench.main(sys.argv, __doc__, prepare, run,
                             "split-k-determinism"))
