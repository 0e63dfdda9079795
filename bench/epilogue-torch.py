#!/usr/bin/env python3
"""Fused epilogues against the unfused GEMM and cuBLASLt, in one process.

    python3 bench/epilogue-torch.py prepare [DIR]   # here: compile kernels
    python3 bench/epilogue-torch.py run [DIR]       # GPU host (torch)

`prepare` compiles, with tgemm's Python API (wgmma, sm_90a), per precision a
plain kernel and one with a fused epilogue, into DIR (default
build/epilogue-torch):

  f16, bf16   bias(col) + gelu_tanh                  (C f16 / bf16)
  s8          scale(col) f32 + bias(col)  (dequantized to bf16; i32 acc)
  e4m3        scale(scalar) f32 + bias(col) + gelu_tanh  (C bf16)

`run` builds the runtime library (build-gpu, no LLVM) and, per precision
and shape, on random tensors, times in the same process, alternating
(ROUNDS rounds; each the median of 5 samples of 10 back-to-back launches
after 5 of warm-up; the table gives the median over rounds):

  plain        tgemm's kernel without steps
  fused        tgemm's kernel with the epilogue
  unfused      tgemm's plain kernel, then one element-wise kernel over C
               (Triton where it imports, else torch's eager ops)
  lib          the library's plain GEMM (torch.matmul, torch._int_mm,
               torch._scaled_mm: cuBLAS / cuBLASLt)
  lib_fused    the library with its own epilogue: cuBLASLt's bias+GELU
               (torch._addmm_activation, use_gelu) for f16/bf16, cuBLASLt's
               scaled fp8 GEMM with bias (torch._scaled_mm, bias) for e4m3
               (its GELU then runs as the element-wise kernel)
  lib_unfused  the library's plain GEMM, then the element-wise kernel

Every output is checked against an f32 reference of the same epilogue
(relative Frobenius error; f16 2e-3, bf16/s8/e4m3 1e-2). It writes
DIR/epilogue-torch.csv (one row per precision, shape, variant) and prints a
table; it exits 1 if any check fails. SHAPES (e.g. "8192x8192x8192
4096x11008x4096") and ROUNDS (default 3) come from the environment.
"""

import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torchbench  # noqa: E402
from torchbench import timed  # noqa: E402

torchbench.use_package()

# kind: (A element, accumulator, C element, fused epilogue, its operands)
# Operands are (name, MLIR type) in the order the steps read them.
KINDS = {
    "f16": ("f16", "f32", "f16",
            "bias(col) %bias : memref<?xf16>, gelu_tanh",
            [("bias", "memref<?xf16>")]),
    "bf16": ("bf16", "f32", "bf16",
             "bias(col) %bias : memref<?xbf16>, gelu_tanh",
             [("bias", "memref<?xbf16>")]),
    "s8": ("i8", "i32", "bf16",
           "scale(col) %scale : memref<?xf32>, bias(col) %bias : "
           "memref<?xbf16>",
           [("scale", "memref<?xf32>"), ("bias", "memref<?xbf16>")]),
    "e4m3": ("f8E4M3FN", "f32", "bf16",
             "scale(scalar) %scale : memref<?xf32>, bias(col) %bias : "
             "memref<?xbf16>, gelu_tanh",
             [("scale", "memref<?xf32>"), ("bias", "memref<?xbf16>")]),
}
# The plain kernels: C as the fused one writes it, and for s8 also the i32
# C the unfused dequantization reads.
PLAIN_C = {"f16": ["f16"], "bf16": ["bf16"], "s8": ["bf16", "i32"],
           "e4m3": ["bf16"]}


def source(a, acc, c, epilogue="", operands=()):
    args = "".join(", %%%s: %s" % (n, t) for n, t in operands)
    ep = " epilogue(%s)" % epilogue if epilogue else ""
    m = lambda t: "memref<?x?x%s>" % t
    return ("func.func @gemm(%%a: %s, %%b: %s, %%c: %s%s) {\n"
            "  tgemm.matmul %%a, %%b, %%c layout(row, col) acc(%s)%s\n"
            "      : %s, %s, %s\n  return\n}\n" % (
                m(a), m(a), m(c), args, acc, ep, m(a), m(a), m(c)))


def prepare(out):
    import tgemm
    os.makedirs(out, exist_ok=True)
    for kind, (a, acc, c, epilogue, operands) in KINDS.items():
        jobs = [("%s-plain-%s" % (kind, pc), source(a, acc, pc))
                for pc in PLAIN_C[kind]]
        jobs.append(("%s-fused" % kind, source(a, acc, c, epilogue,
                                               operands)))
        for name, text in jobs:
            kernel = tgemm.compile(text, lowering="wgmma", chip="sm_90a")
            kernel.write(os.path.join(out, name))
            print("prepared %s" % name)


def run(out):
    torchbench.build_runtime(out)
    import torch
    import torch.nn.functional as F
    from tgemm.launch import Launcher
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    shapes = [tuple(int(x) for x in s.split("x")) for s in os.environ.get(
        "SHAPES", "8192x8192x8192 4096x11008x4096").split()]
    rounds = int(os.environ.get("ROUNDS", "3"))
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16,
             "i32": torch.int32}

    try:
        import triton
        import triton.language as tl

        @triton.jit
        def _elementwise(c_ptr, out_ptr, scale_ptr, bias_ptr, n, total,
                         SCALE: tl.constexpr, BIAS: tl.constexpr,
                         GELU: tl.constexpr, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < total
            col = offs % n
            v = tl.load(c_ptr + offs, mask=mask).to(tl.float32)
            if SCALE == 1:
                v = v * tl.load(scale_ptr)
            if SCALE == 2:
                v = v * tl.load(scale_ptr + col, mask=mask)
            if BIAS:
                v = v + tl.load(bias_ptr + col, mask=mask).to(tl.float32)
            if GELU:
                u = 0.7978845608028654 * (v + 0.044715 * v * v * v)
                v = v / (1.0 + tl.exp(-2.0 * u))
            tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty),
                     mask=mask)

        def elementwise(c, out_, scale, bias, scale_mode, gelu):
            total = c.numel()
            block = 1024
            _elementwise[(triton.cdiv(total, block),)](
                c, out_, scale if scale is not None else c,
                bias if bias is not None else c, c.shape[-1], total,
                SCALE=scale_mode, BIAS=bias is not None, GELU=gelu,
                BLOCK=block)
        ew_name = "triton"
    except ImportError:
        def elementwise(c, out_, scale, bias, scale_mode, gelu):
            v = c.float()
            if scale is not None:
                v = v * scale
            if bias is not None:
                v = v + bias.float()
            if gelu:
                v = F.gelu(v, approximate="tanh")
            out_.copy_(v)
        ew_name = "torch"

    def launcher(name):
        return Launcher(os.path.join(out, name + ".ptx"),
                        os.path.join(out, name + ".json"))

    def kernel_names(fn):
        """The CUDA kernels one call of fn launches (to show which library
        path a variant takes)."""
        from torch.profiler import profile, ProfilerActivity
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        return ";".join(sorted({e.key[:60] for e in prof.key_averages()
                                if e.device_type.name == "CUDA"}))

    rows, failed, libpaths = [], 0, {}
    for kind in KINDS:
        plain = {pc: launcher("%s-plain-%s" % (kind, pc))
                 for pc in PLAIN_C[kind]}
        fused = launcher("%s-fused" % kind)
        cdt = torch.bfloat16 if kind in ("s8", "e4m3") else dtype[kind]
        for (m, n, k) in shapes:
            if kind == "s8":
                a = torch.randint(-128, 128, (m, k), device=dev,
                                  dtype=torch.int8)
                w = torch.randint(-128, 128, (n, k), device=dev,
                                  dtype=torch.int8)
                # Per-output-channel dequantization scales.
                scale = (torch.rand(n, device=dev) + 0.5) / 4096.0
                scale_mode, gelu = 2, False
            else:
                a = torch.randn(m, k, device=dev)
                w = torch.randn(n, k, device=dev)
                if kind == "e4m3":
                    a = a.to(torch.float8_e4m3fn)
                    w = w.to(torch.float8_e4m3fn)
                    scale = torch.full((1,), 0.125, device=dev)
                    scale_mode = 1
                else:
                    a, w = a.to(cdt), w.to(cdt)
                    scale, scale_mode = None, 0
                gelu = True
            b = w.t()  # (k, n), column-major: layout(row, col)
            bias = torch.randn(n, device=dev).to(cdt)
            ops = [scale, bias] if scale is not None else [bias]

            acc = torch.matmul(a.float(), b.float())
            ref = acc * scale if scale is not None else acc.clone()
            ref = ref + bias.float()
            if gelu:
                ref = F.gelu(ref, approximate="tanh")
            plain_ref = acc
            tol = 2e-3 if kind == "f16" else 1e-2
            del acc

            c_plain = torch.empty(m, n, device=dev, dtype=cdt)
            c_fused = torch.empty(m, n, device=dev, dtype=cdt)
            c_unfused = torch.empty(m, n, device=dev, dtype=cdt)
            c_lib = torch.empty(m, n, device=dev, dtype=cdt)
            c_i32 = (torch.empty(m, n, device=dev, dtype=torch.int32)
                     if kind == "s8" else None)
            one = torch.ones((), device=dev)
            sa = torch.full((), 0.125, device=dev)

            if kind == "s8":
                def unfused():
                    plain["i32"](a, b, c_i32)
                    elementwise(c_i32, c_unfused, scale, bias, 2, False)

                def lib():
                    return torch._int_mm(a, b)

                def lib_unfused():
                    elementwise(torch._int_mm(a, b), c_lib, scale, bias, 2,
                                False)
                lib_fused = None
            else:
                def unfused():
                    plain[PLAIN_C[kind][0]](a, b, c_unfused)
                    elementwise(c_unfused, c_unfused, scale, bias,
                                scale_mode, gelu)
                if kind == "e4m3":
                    def lib():
                        return torch._scaled_mm(a, b, one, one,
                                                out_dtype=torch.bfloat16)

                    def lib_fused():
                        y = torch._scaled_mm(a, b, sa, one, bias=bias,
                                             out_dtype=torch.bfloat16)
                        elementwise(y, y, None, None, 0, True)
                        return y

                    def lib_unfused():
                        elementwise(lib(), c_lib, scale, bias, 1, True)
                else:
                    def lib():
                        return torch.matmul(a, b)

                    def lib_fused():
                        return torch._addmm_activation(bias, a, b,
                                                       use_gelu=True)

                    def lib_unfused():
                        elementwise(lib(), c_lib, None, bias, 0, True)

            variants = {
                "plain": (lambda: plain[PLAIN_C[kind][0]](a, b, c_plain),
                          lambda: c_plain, plain_ref),
                "fused": (lambda: fused(a, b, c_fused, *ops),
                          lambda: c_fused, ref),
                "unfused": (unfused, lambda: c_unfused, ref),
                "lib": (lib, None, plain_ref),
                "lib_unfused": (lib_unfused, lambda: c_lib, ref),
            }
            if lib_fused is not None:
                variants["lib_fused"] = (lib_fused, None, ref)
            # Check each variant once on its own output.
            errors = {}
            for name, (fn, result, want) in variants.items():
                got = fn()
                torch.cuda.synchronize()
                got = result() if result is not None else got
                errors[name] = float(torch.linalg.norm(got.float() - want) /
                                     torch.linalg.norm(want))
            if (kind, "lib_fused") not in libpaths and lib_fused:
                libpaths[(kind, "lib_fused")] = kernel_names(lib_fused)
            times = {name: [] for name in variants}
            for _ in range(rounds):
                for name, (fn, _, _) in variants.items():
                    times[name].append(timed(fn))
            flops = 2.0 * m * n * k
            med = {name: statistics.median(t) for name, t in times.items()}
            for name in variants:
                ok = errors[name] <= tol
                failed += not ok
                rows.append({
                    "kind": kind, "variant": name, "m": m, "n": n, "k": k,
                    "ms": "%.4f" % med[name],
                    "rate": "%.1f" % (flops / med[name] / 1e9),
                    "vs_plain": "%.3f" % (med[name] / med["plain"]),
                    "vs_lib_fused": "%.3f" % (
                        med[name] / med["lib_fused"]) if "lib_fused" in med
                    else "",
                    "rounds_ms": " ".join("%.4f" % t for t in times[name]),
                    "error": "%.3g" % errors[name], "tolerance": tol,
                    "check": "ok" if ok else "FAILED",
                    "elementwise": ew_name,
                    "device": torch.cuda.get_device_name()})
            del ref, plain_ref
            torch.cuda.empty_cache()
    path = os.path.join(out, "epilogue-torch.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for (kind, name), kernels in libpaths.items():
        print("%s %s launches: %s" % (kind, name, kernels))
    print("%-5s %-17s %-12s %9s %9s %9s %7s %6s" % (
        "kind", "shape", "variant", "ms", "TFLOP/s", "vs plain", "error",
        "check"))
    for r in rows:
        print("%-5s %-17s %-12s %9s %9s %9s %7s %6s" % (
            r["kind"], "%sx%sx%s" % (r["m"], r["n"], r["k"]), r["variant"],
            r["ms"], r["rate"], r["vs_plain"], r["error"], r["check"]))
    print("wrote %s; %d failed" % (path, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(torchbench.main(sys.argv, __doc__, prepare, run,
                             "epilogue-torch"))
