"""Compiling one GEMM kernel per (precision, lowering, config, pipeline
options, chip) to PTX + launch manifest, the way scripts/gpu-suite.sh does
(a tgemm.matmul on dynamic sizes, memref<?x?xT>, so one kernel serves every
shape), and reading its registers and spills from ptxas -v."""
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from gemmbench.precisions import REPO, config_tag

Tools = collections.namedtuple("Tools", "opt translate ptxas")


def find_tools(bin_dir=None, ptxas=None):
    """tgemm-opt and tgemm-translate from BIN_DIR, else from PATH (lit puts
    the build's tools there), else from the repository's build/bin."""
    def tool(name):
        if bin_dir:
            return os.path.join(bin_dir, name)
        found = shutil.which(name)
        return found or os.path.join(REPO, "build", "bin", name)
    if ptxas is None:
        ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    return Tools(tool("tgemm-opt"), tool("tgemm-translate"), ptxas)


def require_tools(tools, seconds=60):
    """Exits with a message unless tgemm-opt and tgemm-translate exist
    (waiting up to `seconds` for a rebuild to put them back)."""
    deadline = time.time() + seconds
    while True:
        missing = [t for t in (tools.opt, tools.translate)
                   if not os.access(t, os.X_OK)]
        if not missing:
            return
        if time.time() > deadline:
            raise SystemExit("%s not found: build the compiler first (make "
                             "build) or pass --bin" % " and ".join(missing))
        time.sleep(2)


class Kernel(collections.namedtuple(
        "Kernel", "precision lowering config options")):
    """One kernel: a Precision, 'wmma', 'ptx' or 'wgmma', a TileConfig, and
    pipeline options as a tuple of (name, value) pairs (e.g. ('swizzle',
    'pad'))."""

    def option_string(self):
        return " ".join("%s=%s" % kv for kv in self.options)

    def stem(self):
        """File name without extension: ptx-f16-f32-128x128x32-w2x2-s3-r1,
        then any options: -swizzle-pad, -async-copy-false, -stages-1."""
        parts = [self.lowering, self.precision.name, config_tag(self.config)]
        parts += ["%s-%s" % kv for kv in self.options]
        return "-".join(parts)

    def function_name(self):
        return (self.precision.name + "_" + config_tag(self.config)).replace(
            "-", "_")

    def source(self):
        p, c = self.precision, self.config
        ty = "memref<?x?x%s>, memref<?x?x%s>, memref<?x?x%s>" % (
            p.mlir_a, p.mlir_b, p.mlir_c)
        return (
            "func.func @%s(%%a: memref<?x?x%s>, %%b: memref<?x?x%s>, "
            "%%c: memref<?x?x%s>) {\n"
            "  tgemm.matmul %%a, %%b, %%c layout(row, col) acc(%s)\n"
            "      config(<block = [%s], warps = [%s], stages = %d, "
            "raster = %d>)\n"
            "      : %s\n"
            "  return\n"
            "}\n" % (self.function_name(), p.mlir_a, p.mlir_b, p.mlir_c,
                     p.mlir_acc, ", ".join(map(str, c.block)),
                     ", ".join(map(str, c.warps)), c.stages, c.raster, ty))


def _first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "failed"


def _run(cmd, attempts=30):
    """Runs a tool; while it cannot be started (a rebuild is replacing it),
    retries every 2 s for a minute."""
    for attempt in range(attempts):
        try:
            return subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  universal_newlines=True)
        except OSError:
            if attempt + 1 == attempts:
                raise
            time.sleep(2)


def read_ptxas(report):
    """(registers, spill stores, spill loads) from ptxas -v, or None."""
    regs = re.search(r"Used (\d+) registers", report)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      report)
    if not regs or not spill:
        return None
    return int(regs.group(1)), int(spill.group(1)), int(spill.group(2))


def compile_kernel(kernel, chip, tools, out_stem=None):
    """Compiles `kernel` for `chip`. With out_stem, writes OUT_STEM.ptx and
    OUT_STEM.json; without, keeps nothing. Runs ptxas -v for `chip` when
    tools.ptxas exists. Returns a dict: status ('ok', 'rejected',
    'translate-failed', 'ptxas-failed'), message, registers, spill_stores,
    spill_loads, smem (the manifest's dynamic shared memory)."""
    result = {"status": "ok", "message": "", "registers": None,
              "spill_stores": None, "spill_loads": None, "smem": None}
    with tempfile.TemporaryDirectory(prefix="tgemm-kernel-") as tmp:
        src = os.path.join(tmp, "k.mlir")
        with open(src, "w") as f:
            f.write(kernel.source())
        pipeline = "--tgemm-pipeline=lowering=%s chip=%s" % (
            kernel.lowering, chip)
        if kernel.options:
            pipeline += " " + kernel.option_string()
        compiled = os.path.join(tmp, "compiled.mlir")
        step = _run([tools.opt, src, pipeline, "-o", compiled])
        if step.returncode != 0:
            result.update(status="rejected", message=_first_error(step.stderr))
            return result
        ptx = (out_stem or os.path.join(tmp, "k")) + ".ptx"
        manifest = (out_stem or os.path.join(tmp, "k")) + ".json"
        for emit, path in (("ptx", ptx), ("manifest", manifest)):
            step = _run([tools.translate, "--emit=" + emit, compiled,
                         "-o", path])
            if step.returncode != 0:
                result.update(status="translate-failed",
                              message=_first_error(step.stderr))
                return result
        with open(manifest) as f:
            entries = json.load(f)["kernels"]
        result["smem"] = entries[0].get("dynamic_shared_memory")
        if tools.ptxas and os.path.exists(tools.ptxas):
            step = _run([tools.ptxas, "-arch=" + chip, "-v", ptx,
                         "-o", os.devnull])
            numbers = read_ptxas(step.stdout + step.stderr)
            if step.returncode != 0 or numbers is None:
                result.update(status="ptxas-failed",
                              message=_first_error(step.stderr))
                return result
            (result["registers"], result["spill_stores"],
             result["spill_loads"]) = numbers
    return result


def default_jobs():
    """How many compiles to run at a time by default: the CPU cores this
    process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def compile_many(jobs, workers, progress=None):
    """Runs compile_kernel over a list of (kernel, chip, tools, out_stem)
    with `workers` processes at a time (each compile is a few subprocesses,
    so threads suffice); returns the results in the list's order. With
    `progress`, calls progress(done, total, job, result) as each compile
    finishes (in the order they finish, from the calling thread)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(compile_kernel, *job) for job in jobs]
        if progress is not None:
            index = {f: i for i, f in enumerate(futures)}
            for done, f in enumerate(
                    concurrent.futures.as_completed(futures), 1):
                progress(done, len(jobs), jobs[index[f]], f.result())
        return [f.result() for f in futures]


def shape_breaks_requires(manifest_path, m, n, k):
    """The first of the manifest's `requires` (e.g. an even K for 4-bit
    operands) that M, N, K break, as text, or None. tgemm-run would refuse
    the launch, so plans leave such shapes out."""
    with open(manifest_path) as f:
        entries = json.load(f)["kernels"]
    sizes = {"m": m, "n": n, "k": k}
    for entry in entries:
        for req in entry.get("requires", []):
            size, multiple = sizes.get(req.get("dim")), req.get("multiple_of")
            if size is not None and multiple and size % multiple:
                return "%s must be a multiple of %d" % (
                    req["dim"].upper(), multiple)
    return None
