#!/usr/bin/env python3
"""tgemm kernels launched on torch tensors, checked against torch.matmul.

    python3 bench/torch-launch.py prepare [DIR]   # here: compile the kernels
    python3 bench/torch-launch.py run [DIR]       # on the GPU host (torch)

`prepare` compiles, with tgemm's Python API, one kernel per precision torch
has (f16, bf16, tf32, s8, e4m3) and, for f16, every layout, a padded
(strided) A and a batch, to DIR (default build/torch-launch): NAME.ptx and
NAME.json; and fills DIR/cache with tgemm.matmul's kernels for x @ w.t() of
each precision (tgemm.ops.precompile), which `run` then calls, eagerly and
in a CUDA graph, on a host without the compiler. `run` builds the runtime library (build-gpu, no LLVM), then per
kernel and shape: makes random tensors, launches the kernel on them with
`tgemm.launch.Launcher` on the current stream, compares C with torch.matmul
computed in higher precision, captures the same launch in a CUDA graph and
replays it on new random inputs (checked again), and times the kernel and
the library (torch.matmul, torch._int_mm for s8, torch._scaled_mm for
e4m3: cuBLAS/cuBLASLt) with CUDA events after 5 launches of warm-up: the
median of 5 samples of 10 back-to-back launches. It writes DIR/torch-launch.csv and prints a table; it exits 1 if
any check fails.
"""

import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torchbench  # noqa: E402

torchbench.use_package()

# name: (a, b, acc, c, layout_a, layout_b, strided, batched, lowering)
KERNELS = {
    "f16-rowcol": ("f16", "f16", "f32", "f16", "row", "col", False, False, "wgmma"),
    "f16-rowrow": ("f16", "f16", "f32", "f16", "row", "row", False, False, "wgmma"),
    "f16-colrow": ("f16", "f16", "f32", "f32", "col", "row", False, False, "wgmma"),
    "f16-strided": ("f16", "f16", "f32", "f16", "row", "col", True, False, "wgmma"),
    "f16-batched": ("f16", "f16", "f32", "f16", "row", "col", True, True, "wgmma"),
    "f16-ptx": ("f16", "f16", "f32", "f16", "row", "col", False, False, "ptx"),
    "bf16": ("bf16", "bf16", "f32", "bf16", "row", "col", False, False, "wgmma"),
    "tf32": ("tf32", "tf32", "f32", "f32", "row", "col", False, False, "wgmma"),
    "s8": ("s8", "s8", "s32", "s32", "row", "col", False, False, "wgmma"),
    "e4m3": ("e4m3", "e4m3", "f32", "bf16", "row", "col", False, False, "wgmma"),
}
MLIR = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "f32": "f32",
        "s8": "i8", "s32": "i32", "e4m3": "f8E4M3FN"}
SHAPES = [(4096, 4096, 4096), (1000, 1000, 1000), (4095, 4097, 999)]
MATMUL_DTYPES = ["float16", "bfloat16", "float32", "int8", "float8_e4m3fn"]
BATCH = 4


def source(name, a, b, acc, c, la, lb, strided, batched):
    rank = "?x?x?x" if batched else "?x?x"
    layout = (", strided<[?, ?, 1], offset: ?>" if batched else
              ", strided<[?, 1], offset: ?>") if strided else ""
    ty = lambda t: "memref<%s%s%s>" % (rank, MLIR[t], layout)
    acc_ir = {"f32": "f32", "s32": "i32"}[acc]
    return ("func.func @%s(%%a: %s, %%b: %s, %%c: %s) {\n"
            "  tgemm.matmul %%a, %%b, %%c layout(%s, %s) acc(%s)\n"
            "      : %s, %s, %s\n  return\n}\n" % (
                name.replace("-", "_"), ty(a), ty(b), ty(c), la, lb, acc_ir,
                ty(a), ty(b), ty(c)))


def prepare(out):
    import tgemm
    os.makedirs(out, exist_ok=True)
    for name, (a, b, acc, c, la, lb, strided, batched, lowering) in \
            KERNELS.items():
        text = source(name, a, b, acc, c, la, lb, strided, batched)
        chip = "sm_90a" if lowering == "wgmma" else "sm_90"
        kernel = tgemm.compile(text, lowering=lowering, chip=chip)
        kernel.write(os.path.join(out, name))
        print("prepared %s (%s, %s)" % (name, kernel.lowering, chip))
    # tgemm.matmul's kernels, compiled into a cache the GPU host (which has
    # no compiler) reads: a @ w.t() per dtype.
    for dtype in MATMUL_DTYPES:
        tgemm.ops.precompile(dtype, layout_a="row", layout_b="col",
                             chip="sm_90a", cache_dir=os.path.join(out,
                                                                   "cache"))
        print("cached tgemm.matmul(%s)" % dtype)


def run(out):
    torchbench.build_runtime(out)
    import torch
    from tgemm.launch import Launcher
    torch.manual_seed(0)
    dev = torch.device("cuda")
    rows, failed = [], 0

    def make(kind, shape):
        if kind in ("f16", "bf16", "tf32", "e4m3"):
            t = torch.randn(shape, device=dev)
            return {"f16": t.half(), "bf16": t.bfloat16(), "tf32": t,
                    "e4m3": t.to(torch.float8_e4m3fn)}[kind]
        return torch.randint(-128, 128, shape, device=dev, dtype=torch.int8)

    def operand(kind, rows_, cols, layout, strided, batch):
        """A logical rows_ x cols matrix stored as `layout` says; padded
        rows when strided; batched with a leading dimension."""
        lead = (batch,) if batch else ()
        stored = (rows_, cols) if layout == "row" else (cols, rows_)
        pad = 8 if strided else 0
        t = make(kind, lead + (stored[0], stored[1] + pad))
        t = t[..., :stored[1]]
        return t if layout == "row" else t.transpose(-1, -2)

    def out_tensor(kind, m, n, batch):
        dtype = {"f16": torch.float16, "bf16": torch.bfloat16,
                 "f32": torch.float32, "s32": torch.int32}[kind]
        return torch.zeros(((batch,) if batch else ()) + (m, n), device=dev,
                           dtype=dtype)

    def reference(a, b, kind):
        if kind == "s8":
            return torch.matmul(a.double(), b.double())
        if kind == "tf32":
            return torch.matmul(a.double(), b.double())
        return torch.matmul(a.float(), b.float()).double()

    def library(a, b, kind):
        """What torch itself computes for these operands (cuBLAS)."""
        if kind in ("f16", "bf16"):
            return lambda: torch.matmul(a, b)
        if kind == "tf32":
            torch.backends.cuda.matmul.allow_tf32 = True
            return lambda: torch.matmul(a, b)
        if kind == "s8":
            return lambda: torch._int_mm(a, b)
        one = torch.ones((), device=dev)
        return lambda: torch._scaled_mm(a, b, one, one,
                                        out_dtype=torch.bfloat16)

    def error(c, ref, kind):
        c = c.double()
        if kind == "s8":
            return float((c - ref).abs().max()), 0.0
        return float(torch.linalg.norm(c - ref) / torch.linalg.norm(ref)), \
            {"f16": 2e-3, "bf16": 1e-2, "tf32": 2e-3, "e4m3": 1e-2}[kind]

    timed = torchbench.timed

    for name, (ka, kb, acc, kc, la, lb, strided, batched, lowering) in \
            KERNELS.items():
        launcher = Launcher(os.path.join(out, name + ".ptx"),
                            os.path.join(out, name + ".json"))
        for (m, n, k) in SHAPES:
            batch = BATCH if batched else 0
            a = operand(ka, m, k, la, strided, batch)
            b = operand(kb, k, n, lb, strided, batch)
            c = out_tensor(kc, m, n, batch)
            launcher(a, b, c)
            torch.cuda.synchronize()
            ref = reference(a, b, ka)
            err, tol = error(c, ref, ka)
            ok = err <= tol
            # The same launch captured in a CUDA graph, replayed on new
            # inputs written into the same tensors.
            graph = torch.cuda.CUDAGraph()
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                with torch.cuda.graph(graph, stream=stream):
                    launcher(a, b, c)
            torch.cuda.current_stream().wait_stream(stream)
            a.copy_(operand(ka, m, k, la, False, batch))
            b.copy_(operand(kb, k, n, lb, False, batch))
            c.zero_()
            graph.replay()
            torch.cuda.synchronize()
            gerr, _ = error(c, reference(a, b, ka), ka)
            gok = gerr <= tol
            tg_ms = timed(lambda: launcher(a, b, c))
            lib_ms = None
            if not batched and not strided and la == "row" and lb == "col":
                try:
                    lib_ms = timed(library(a, b, ka))
                except RuntimeError as e:  # a shape the library refuses
                    print("  (torch %s at %dx%dx%d: %s)" % (ka, m, n, k,
                                                            str(e)[:80]))
            ops = 2.0 * (batch or 1) * m * n * k
            rows.append({
                "kernel": name, "lowering": lowering, "a": ka, "c": kc,
                "layouts": la + "," + lb, "strided": int(strided),
                "batch": batch or 1, "m": m, "n": n, "k": k,
                "error": "%.3g" % err, "graph_error": "%.3g" % gerr,
                "tolerance": tol, "check": "ok" if ok and gok else "FAILED",
                "tgemm_ms": "%.4f" % tg_ms,
                "tgemm_rate": "%.1f" % (ops / tg_ms / 1e9),
                "torch_ms": "" if lib_ms is None else "%.4f" % lib_ms,
                "torch_rate": "" if lib_ms is None else "%.1f" % (
                    ops / lib_ms / 1e9),
                "ratio": "" if lib_ms is None else "%.3f" % (lib_ms / tg_ms),
                "device": torch.cuda.get_device_name(),
            })
            failed += not (ok and gok)
    # tgemm.matmul(x, w.t()) from the cache made here by `prepare`, eager
    # and captured in a CUDA graph.
    import tgemm
    os.environ["TGEMM_CACHE_DIR"] = os.path.join(out, "cache")
    kinds = {"float16": "f16", "bfloat16": "bf16", "float32": "tf32",
             "int8": "s8", "float8_e4m3fn": "e4m3"}
    for dtype in MATMUL_DTYPES:
        kind = kinds[dtype]
        m = n = k = 2048
        x = make(kind, (m, k))
        w = make(kind, (n, k))
        y = tgemm.matmul(x, w.t())
        torch.cuda.synchronize()
        err, tol = error(y, reference(x, w.t(), kind), kind)
        graph = torch.cuda.CUDAGraph()
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            with torch.cuda.graph(graph, stream=stream):
                tgemm.matmul(x, w.t(), out=y)
        torch.cuda.current_stream().wait_stream(stream)
        x.copy_(make(kind, (m, k)))
        y.zero_()
        graph.replay()
        torch.cuda.synchronize()
        gerr, _ = error(y, reference(x, w.t(), kind), kind)
        ok = err <= tol and gerr <= tol
        failed += not ok
        rows.append({
            "kernel": "tgemm.matmul", "lowering": "auto", "a": kind,
            "c": str(y.dtype).replace("torch.", ""), "layouts": "row,col",
            "strided": 0, "batch": 1, "m": m, "n": n, "k": k,
            "error": "%.3g" % err, "graph_error": "%.3g" % gerr,
            "tolerance": tol, "check": "ok" if ok else "FAILED",
            "tgemm_ms": "", "tgemm_rate": "", "torch_ms": "",
            "torch_rate": "", "ratio": "",
            "device": torch.cuda.get_device_name()})
    path = os.path.join(out, "torch-launch.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("%-12s %-6s %-16s %9s %9s %6s %8s %8s %6s" % (
        "kernel", "fam", "shape", "error", "graph", "check", "tgemm",
        "torch", "ratio"))
    for r in rows:
        print("%-12s %-6s %-16s %9s %9s %6s %8s %8s %6s" % (
            (r["kernel"] + ":" + r["a"])[:12] if r["kernel"] == "tgemm.matmul"
            else r["kernel"], r["lowering"],
            "%sx%sx%s" % (r["m"], r["n"], r["k"]),
            r["error"], r["graph_error"], r["check"], r["tgemm_rate"] or "-",
            r["torch_rate"] or "-", r["ratio"] or "-"))
    # tgemm.matmul rows have no timing
    print("wrote %s; %d failed" % (path, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(torchbench.main(sys.argv, __doc__, prepare, run,
                             "torch-launch"))
