"""python -m tgemm: compile MLIR files or GEMM problems, and run kernels.

    python -m tgemm compile FILE.mlir --lowering ptx --chip sm_90 -o out
    python -m tgemm problem --m 4096 --n 4096 --k 4096 --a f16 -o out
    python -m tgemm run out.ptx --manifest out.json --m 4096 --n 4096 --k 4096 --check

Exit status: 0 success; 1 a compile error or failed run; 2 usage; 3 wrong
result; 4 no CUDA device (as tgemm-run)."""

import argparse
import json
import os
import sys

from . import compiler, problem, runtime


def _error(message, status=1):
    for line in str(message).rstrip("\n").split("\n"):
        print("tgemm: " + line if line.startswith("error") else line,
              file=sys.stderr)
    return status


def _add_pipeline_options(parser):
    group = parser.add_argument_group("pipeline options (README.md)")
    group.add_argument("--lowering", default="ptx", choices=("wmma", "ptx", "wgmma"))
    group.add_argument("--chip", default="sm_90")
    group.add_argument("--stages", type=int, default=0,
                       help="override every config's stage count (0: keep)")
    group.add_argument("--no-async-copy", dest="async_copy",
                       action="store_false",
                       help="copy through registers, not cp.async")
    group.add_argument("--no-ldmatrix", dest="ldmatrix", action="store_false",
                       help="ptx: no ldmatrix")
    group.add_argument("--swizzle", default="xor",
                       help="ptx: xor, pad or none")
    group.add_argument("--padding", type=int, default=16,
                       help="bytes of shared-memory row padding")
    group.add_argument("--cubin", action="store_true",
                       help="also write OUT.cubin (assembled by ptxas)")
    group.add_argument("--ptxas", help="the ptxas to use")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write OUT.ptx and OUT.json (and OUT.cubin)")


def _pipeline_options(args):
    return dict(stages=args.stages, async_copy=args.async_copy,
                ldmatrix=args.ldmatrix, swizzle=args.swizzle,
                padding=args.padding, emit_cubin=args.cubin,
                ptxas=args.ptxas)


def _write(kernel, output):
    written = kernel.write(output)
    for path in written["ptx"] + written["cubin"] + [written["manifest"]]:
        print("wrote " + path)
    return 0


def _compile(args):
    output = args.output or os.path.splitext(os.path.basename(args.file))[0]
    try:
        kernel = compiler.compile_file(args.file, args.lowering, args.chip,
                                       **_pipeline_options(args))
    except OSError as error:
        return _error("error: cannot read %s: %s" % (args.file,
                                                      error.strerror))
    except compiler.CompileError as error:
        return _error(error.diagnostics)
    if kernel.diagnostics:
        print(kernel.diagnostics, file=sys.stderr)
    return _write(kernel, output)


def _size(text):
    if text in ("?", "dynamic"):
        return None
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("sizes are positive")
    return value


def _ints(count):
    def parse(text):
        values = [int(v) for v in text.split(",")]
        if len(values) != count:
            raise argparse.ArgumentTypeError(
                "expected %d comma-separated integers" % count)
        return values
    return parse


def _problem(args):
    config = None
    if args.block or args.warps or args.config_stages or args.raster:
        if not (args.block and args.warps and args.config_stages):
            return _error("error: a config needs --block, --warps and "
                          "--config-stages (or none of them, for the "
                          "default)", 2)
        config = {"block": args.block, "warps": args.warps,
                  "stages": args.config_stages, "raster": args.raster or 1}
    try:
        text = problem.matmul_ir(
            args.m, args.n, args.k, a=args.a, b=args.b, acc=args.acc,
            c=args.c, layout_a=args.layout_a, layout_b=args.layout_b,
            config=config, alpha=args.alpha, beta=args.beta, name=args.name)
        if args.print_ir:
            sys.stdout.write(text)
            return 0
        kernel = compiler.compile(text, args.lowering, args.chip,
                                  source_name="<problem>",
                                  **_pipeline_options(args))
    except ValueError as error:
        return _error("error: %s" % error, 2)
    except compiler.CompileError as error:
        return _error(error.diagnostics)
    output = args.output or (args.name or "gemm")
    return _write(kernel, output)


def _run(args):
    try:
        result = runtime.run(args.kernel, args.manifest, m=args.m, n=args.n,
                             k=args.k, reps=args.reps, check=args.check,
                             kernel_name=args.kernel_name, device=args.device,
                             library=args.library)
    except runtime.WrongResult as error:
        if args.json:
            print(json.dumps(dict(error.result, failure=str(error))))
        return _error("error: %s" % error, error.status)
    except runtime.RunError as error:
        return _error("error: %s" % error, error.status)
    if args.json:
        print(json.dumps(result))
        return 0
    print("kernel %s  M=%s N=%s K=%s" % (result["kernel"], result["m"],
                                         result["n"], result["k"]))
    if result["kernel_ms"] is not None:
        print("  time %.4f ms  %.1f %s" % (result["kernel_ms"],
                                           result["kernel_rate"],
                                           result["unit"]))
    if result["anchor_ms"] is not None:
        print("  anchor %s: %.4f ms  %.1f %s  ratio %.2f" % (
            result["anchor"], result["anchor_ms"], result["anchor_rate"],
            result["unit"], result["ratio"] or 0.0))
    line = "  check %s" % result["check"]
    if result["rel_error"] is not None:
        line += "  rel_error %.3g  max_error %.3g" % (result["rel_error"],
                                                      result["max_error"])
    print(line)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m tgemm",
        description="Compile tiled GEMMs for NVIDIA tensor cores and run "
                    "them (docs/python.md).")
    from . import __version__
    parser.add_argument("--version", action="version",
                        version="python -m tgemm (tgemm) " + __version__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("compile", help="compile an MLIR file holding "
                            "tgemm.matmul to OUT.ptx and OUT.json")
    p.add_argument("file", help="the .mlir file")
    _add_pipeline_options(p)
    p.set_defaults(handler=_compile)

    p = commands.add_parser("problem", help="write a GEMM problem as "
                            "tgemm.matmul and compile it")
    for dim in "mnk":
        p.add_argument("--" + dim, type=_size, default=None,
                       help="size (omit, or ?, for a dynamic size)")
    p.add_argument("--a", default="f16", help="A's type: f16, bf16, tf32, "
                   "s8, u8, s4, e4m3, e5m2")
    p.add_argument("--b", help="B's type (default: A's)")
    p.add_argument("--acc", help="accumulator: f32, f16, s32 (default: f32, "
                   "s32 for integers)")
    p.add_argument("--c", help="C's type (default: the accumulator's)")
    p.add_argument("--layout-a", default="row", choices=problem.LAYOUTS)
    p.add_argument("--layout-b", default="col", choices=problem.LAYOUTS)
    p.add_argument("--alpha", type=float, default=1.0)
    p.add_argument("--beta", type=float, default=0.0)
    p.add_argument("--block", type=_ints(3), metavar="BM,BN,BK",
                   help="block tile (default: the precision's default)")
    p.add_argument("--warps", type=_ints(2), metavar="WM,WN")
    p.add_argument("--config-stages", type=int, metavar="S",
                   help="the config's stage count")
    p.add_argument("--raster", type=int, metavar="G")
    p.add_argument("--name", help="the function's name (default: "
                   "gemm_A_C)")
    p.add_argument("--print-ir", action="store_true",
                   help="print the tgemm.matmul IR and stop")
    _add_pipeline_options(p)
    p.set_defaults(handler=_problem)

    p = commands.add_parser("run", help="run a compiled kernel on a GPU "
                            "through libtgemm_runtime.so")
    p.add_argument("kernel", help="PTX, cubin or fatbin file")
    p.add_argument("--manifest", required=True, help="the launch manifest")
    p.add_argument("--kernel", dest="kernel_name",
                   help="the manifest entry, when it has several")
    for dim in "mnk":
        p.add_argument("--" + dim, type=_size, default=None,
                       help="size (omit for a static size)")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--check", action="store_true",
                   help="compare C with the reference")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON "
                   "object")
    p.add_argument("--library", help="libtgemm_runtime.so to use (default: "
                   "$TGEMM_RUNTIME_LIB, then build/lib)")
    p.set_defaults(handler=_run)

    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except compiler.ExtensionMissing as error:
        return _error("error: %s" % error)


if __name__ == "__main__":
    sys.exit(main())
