"""`tgemm.matmul(a, b, out=None, ...)`: compile on first use, then launch.

The kernel for a call is a function of the operands' element types, their
layouts (which of their strides is 1), whether their rows are padded or
batched, the epilogue (alpha, beta), the chip and the compile options; its
sizes are dynamic, so one kernel serves every M, N and K. Compiled kernels
are kept on disk, keyed by that source, those options and the tool's
version (so a new tgemm never reuses an old kernel), in `cache_dir`, else
$TGEMM_CACHE_DIR, else ~/.cache/tgemm; and in memory for the process. A
host with a warm cache needs only the runtime library, not the compiler.
"""

import hashlib
import json
import os
import tempfile
import threading

from . import problem as _problem

__all__ = ["matmul", "scaled_mm", "precompile", "precompile_scaled_mm",
           "cache_location"]

# torch dtype name -> (tgemm operand type, MLIR element type, C's type).
_OPERANDS = {
    "float16": ("f16", "f16", "f16"),
    "bfloat16": ("bf16", "bf16", "bf16"),
    "float32": ("tf32", "f32", "f32"),
    "int8": ("s8", "i8", "s32"),
    "uint8": ("u8", "ui8", "s32"),
    "float8_e4m3fn": ("e4m3", "f8E4M3FN", "bf16"),
    "float8_e5m2": ("e5m2", "f8E5M2", "bf16"),
}
_RESULTS = {"float16": ("f16", "f16"), "bfloat16": ("bf16", "bf16"),
            "float32": ("f32", "f32"), "int32": ("s32", "i32")}
_TORCH_RESULT = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
                 "s32": "int32"}

_kernels = {}
_lock = threading.Lock()


def cache_location(path=None):
    """Where compiled kernels are kept: `path`, else $TGEMM_CACHE_DIR, else
    ~/.cache/tgemm (XDG_CACHE_HOME/tgemm where that is set)."""
    if path is not None:
        return os.fspath(path)
    if os.environ.get("TGEMM_CACHE_DIR"):
        return os.environ["TGEMM_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tgemm")


def _dtype(t, name):
    return str(t.dtype).replace("torch.", "")


def _layout(t, name):
    """'row' when the matrix steps 1 along its columns, 'col' along its
    rows; and whether its rows (or matrices) are padded."""
    shape, strides = tuple(t.shape), tuple(t.stride())
    rows, cols = shape[-2], shape[-1]
    if strides[-1] == 1 or cols == 1:
        layout, ld, packed_ld = "row", strides[-2], cols
    elif strides[-2] == 1 or rows == 1:
        layout, ld, packed_ld = "col", strides[-1], rows
    else:
        raise ValueError(
            "argument %r has strides %r: neither its rows nor its columns "
            "are contiguous; pass %s.contiguous()" % (name, strides, name))
    padded = ld != packed_ld and (rows > 1 if layout == "row" else cols > 1)
    if len(shape) == 3 and strides[0] != rows * cols:
        padded = True
    return layout, padded


def _chip(device):
    import torch
    major, minor = torch.cuda.get_device_capability(device)
    sm = major * 10 + minor
    # sm_90 parts run the architecture-specific sm_90a code (wgmma, TMA).
    return "sm_90a" if sm == 90 else "sm_%d" % min(sm, 90)


def _source(a_type, b_type, acc, c_type, la, lb, strided, batched, alpha,
            beta, steps=()):
    """The tgemm.matmul for a call; `steps` are the fused epilogue's
    (step, MLIR memref type) pairs, each reading one operand after c."""
    rank = "?x?x?x" if batched else "?x?x"
    layout = ""
    if strided:
        layout = (", strided<[?, ?, 1], offset: ?>" if batched else
                  ", strided<[?, 1], offset: ?>")
    mem = lambda t: "memref<%s%s%s>" % (rank, t, layout)
    epilogue = ""
    if float(alpha) != 1.0:
        epilogue += " alpha(%r)" % float(alpha)
    if float(beta) != 0.0:
        epilogue += " beta(%r)" % float(beta)
    params = "".join(", %%e%d: %s" % (i, t) for i, (_, t) in enumerate(steps))
    if steps:
        epilogue += " epilogue(%s)" % ", ".join(
            "%s %%e%d : %s" % (step, i, t) for i, (step, t) in enumerate(steps))
    return ("func.func @tgemm_matmul(%%a: %s, %%b: %s, %%c: %s%s) {\n"
            "  tgemm.matmul %%a, %%b, %%c layout(%s, %s) acc(%s)%s\n"
            "      : %s, %s, %s\n  return\n}\n" % (
                mem(a_type), mem(b_type), mem(c_type), params, la, lb, acc,
                epilogue, mem(a_type), mem(b_type), mem(c_type)))


def _version():
    import tgemm
    return tgemm.__version__


def _key(source, options):
    return hashlib.sha256(json.dumps(
        {"source": source, "options": options, "tgemm": _version()},
        sort_keys=True).encode()).hexdigest()[:32]


def _kernel(source, options, directory, launch=True):
    """The Launcher for `source` compiled with `options`: from memory, from
    the disk cache, or compiled now (and cached). With launch=False, the
    cached files' paths only."""
    key = _key(source, options)
    with _lock:
        if launch and key in _kernels:
            return _kernels[key]
    ptx = os.path.join(directory, key + ".ptx")
    manifest = os.path.join(directory, key + ".json")
    if not (os.path.exists(ptx) and os.path.exists(manifest)):
        from .compiler import compile as _compile
        compiled = _compile(source, source_name="tgemm.matmul", **options)
        os.makedirs(directory, exist_ok=True)
        # Whole files or none: written beside, then renamed into place.
        for path, data in ((ptx, compiled.ptx),
                           (manifest, compiled.manifest_json())):
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tgemm-")
            with os.fdopen(fd, "w") as f:
                f.write(data)
            os.replace(tmp, path)
    if not launch:
        return ptx, manifest
    from .launch import Launcher
    launcher = Launcher(ptx, manifest)
    with _lock:
        return _kernels.setdefault(key, launcher)


def _options(lowering, chip):
    return {"lowering": lowering, "chip": chip}


def precompile(a="float16", b=None, out=None, *, layout_a="row",
               layout_b="col", batched=False, strided=False, alpha=1.0,
               beta=0.0, lowering=None, chip="sm_90a", cache_dir=None):
    """Compiles into the cache the kernel `matmul` would pick for operands
    of torch dtype names `a` and `b` (b defaults to a) and an `out` of
    dtype name `out` (default: matmul's), in these layouts, for `chip`; so
    that a host with only the runtime library (no compiler) finds it there.
    Returns the paths of the cached PTX and manifest."""
    spec = _spec(a, a if b is None else b, out, layout_a, layout_b, strided,
                 batched, alpha, beta)
    return _kernel(spec, _options(lowering, chip), cache_location(cache_dir),
                   launch=False)


def scaled_mm(a, b, scale_a, scale_b, bias=None, out_dtype=None, out=None,
              *, lowering=None, chip=None, cache_dir=None, stream=None):
    """out = (a * scale_a) @ (b * scale_b) + bias, as torch._scaled_mm
    computes it, on fp8 matrices (float8_e4m3fn or float8_e5m2, either
    mixed): a (M x K), b (K x N). Per-tensor scales: Python numbers (folded
    into alpha at compile time) or one-element float32 CUDA tensors (device
    pointers, read by the kernel's epilogue: `scale(scalar)` steps, so a
    new scale needs no new kernel). `bias`: N elements (float32, float16 or
    bfloat16), added after the scales. out is bfloat16 unless `out_dtype`
    (or `out`) says float16 or float32. Compiled and cached like
    `matmul`; returns out."""
    import torch
    for name, t in (("a", a), ("b", b)):
        if not isinstance(t, torch.Tensor) or t.dim() != 2:
            raise TypeError("argument %r must be a matrix (a 2-D torch "
                            "tensor)" % name)
        if _dtype(t, name) not in ("float8_e4m3fn", "float8_e5m2"):
            raise TypeError("scaled_mm multiplies fp8 matrices "
                            "(float8_e4m3fn, float8_e5m2); %s is %s"
                            % (name, t.dtype))
    alpha, steps, operands = 1.0, [], []
    for name, scale in (("scale_a", scale_a), ("scale_b", scale_b)):
        if isinstance(scale, torch.Tensor):
            if scale.numel() != 1 or scale.dtype != torch.float32:
                raise ValueError(
                    "%s must be one float32 element (a per-tensor scale), "
                    "got %d element(s) of %s" % (name, scale.numel(),
                                                 scale.dtype))
            steps.append(("scale(scalar)", "memref<1xf32>"))
            operands.append(scale.reshape(1))
        else:
            alpha *= float(scale)
    if bias is not None:
        if not isinstance(bias, torch.Tensor):
            raise TypeError("bias must be a torch tensor")
        steps.append(_bias_step(_dtype(bias, "bias")))
        operands.append(bias)
    if out is None:
        dtype = out_dtype if out_dtype is not None else torch.bfloat16
        if str(dtype).replace("torch.", "") not in ("bfloat16", "float16",
                                                     "float32"):
            raise TypeError("scaled_mm writes bfloat16, float16 or float32, "
                            "not %s" % dtype)
        out = torch.empty((a.shape[0], b.shape[1]), device=a.device,
                          dtype=dtype)
    kernel = _kernel_for(a, b, out, alpha, 0.0, steps, lowering, chip,
                         cache_dir)
    return kernel(a, b, out, *operands, stream=stream)


def _bias_step(dtype):
    kinds = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}
    if dtype not in kinds:
        raise TypeError("bias must be float32, float16 or bfloat16, not %s"
                        % dtype)
    return ("bias(col)", "memref<?x%s>" % kinds[dtype])


def precompile_scaled_mm(a="float8_e4m3fn", b=None, out="bfloat16", *,
                         layout_a="row", layout_b="col", scale_a=None,
                         scale_b=None, bias=None, lowering=None,
                         chip="sm_90a", cache_dir=None):
    """Compiles into the cache the kernel `scaled_mm` would pick: fp8 dtype
    names `a` and `b` (b defaults to a), `out`'s dtype name, the layouts;
    `scale_a`/`scale_b` None for a scale passed as a tensor, else the
    number (folded into alpha); `bias` None or the bias's dtype name.
    Returns the paths of the cached PTX and manifest."""
    alpha, steps = 1.0, []
    for scale in (scale_a, scale_b):
        if scale is None:
            steps.append(("scale(scalar)", "memref<1xf32>"))
        else:
            alpha *= float(scale)
    if bias is not None:
        steps.append(_bias_step(bias))
    spec = _spec(a, a if b is None else b, out, layout_a, layout_b, False,
                 False, alpha, 0.0, steps)
    return _kernel(spec, _options(lowering, chip), cache_location(cache_dir),
                   launch=False)


def _spec(da, db, dc, la, lb, strided, batched, alpha, beta, steps=()):
    if da not in _OPERANDS or db not in _OPERANDS:
        raise TypeError("no tgemm kernel multiplies %s by %s" % (da, db))
    ta, ma, c_default = _OPERANDS[da]
    tb, mb, _ = _OPERANDS[db]
    if dc is None:
        dc = _TORCH_RESULT[c_default]
    if dc not in _RESULTS:
        raise TypeError("out has dtype %s, which no tgemm kernel writes" % dc)
    acc = "i32" if ta in ("s8", "u8") else "f32"
    return _source(ma, mb, acc, _RESULTS[dc][1], la, lb, strided, batched,
                   alpha, beta, steps)


def _kernel_for(a, b, out, alpha, beta, steps, lowering, chip, cache_dir):
    """The Launcher for a call on tensors a, b, out: their dtypes, layouts
    and padding, the epilogue, the chip of a's device unless `chip`."""
    la, pa = _layout(a, "a")
    lb, pb = _layout(b, "b")
    lc, pc = _layout(out, "out")
    if lc != "row":
        raise ValueError("out must be row-major (unit stride along its "
                         "columns); got strides %r" % (tuple(out.stride()),))
    spec = _spec(_dtype(a, "a"), _dtype(b, "b"), _dtype(out, "out"), la, lb,
                 pa or pb or pc, a.dim() == 3, alpha, beta, steps)
    return _kernel(spec, _options(
        lowering, chip if chip is not None else _chip(a.device)),
        cache_location(cache_dir))


def matmul(a, b, out=None, *, alpha=1.0, beta=0.0, lowering=None, chip=None,
           cache_dir=None, stream=None):
    """out = alpha * a @ b + beta * out with a tgemm kernel, on torch CUDA
    tensors: a (M x K) and b (K x N), or batches of them (B x M x K,
    B x K x N); out (M x N) is made when not given (f16, bf16 or f32 like
    the operands; s32 for 8-bit integers; bf16 for fp8), and must be
    row-major. float32 operands compute as tf32. The kernel is compiled on
    first use for the tensors' chip (`chip` to override; `lowering` None is
    the chip's fastest family) and cached (see tgemm.ops). Launched on
    `stream` or the current stream, without waiting; returns out."""
    import torch
    for name, t in (("a", a), ("b", b)):
        if not isinstance(t, torch.Tensor):
            raise TypeError("argument %r must be a torch tensor, not %s"
                            % (name, type(t).__name__))
        if t.dim() not in (2, 3):
            raise ValueError("argument %r has %d dimensions; expected a "
                             "matrix or a batch of them" % (name, t.dim()))
    if a.dim() != b.dim():
        raise ValueError("a has %d dimensions and b %d" % (a.dim(), b.dim()))
    da = _dtype(a, "a")
    if out is None:
        if float(beta) != 0.0:
            raise ValueError("beta needs an `out` to read")
        if da not in _OPERANDS:
            raise TypeError("no tgemm kernel multiplies %s by %s"
                            % (a.dtype, b.dtype))
        shape = tuple(a.shape[:-1]) + (b.shape[-1],)
        out = torch.empty(shape, device=a.device, dtype=getattr(
            torch, _TORCH_RESULT[_OPERANDS[da][2]]))
    kernel = _kernel_for(a, b, out, alpha, beta, (), lowering, chip,
                         cache_dir)
    return kernel(a, b, out, stream=stream)
