"""Compiling MLIR text through the tgemm pipeline: `compile()` and what it
returns. The work is done by the compiled extension `tgemm._tgemm`; this
module turns its results into objects and its diagnostics into
`CompileError`."""

import glob
import json
import os
import threading

try:
    from . import _tgemm
    _EXTENSION_ERROR = None
except ImportError as error:  # a runtime-only install: no LLVM/MLIR here
    _tgemm = None
    _here = os.path.dirname(os.path.abspath(__file__))
    if glob.glob(os.path.join(_here, "_tgemm*.so")):
        _EXTENSION_ERROR = str(error)  # there, but it does not load
    else:
        _EXTENSION_ERROR = "it is not built: no _tgemm*.so in " + _here

# An extension left from another version's build would compile with that
# version's rules: it is refused, not half used.
if _tgemm is not None:
    from . import __version__ as _package_version
    _built = getattr(_tgemm, "__version__", "unknown")
    if _built != _package_version:
        _EXTENSION_ERROR = ("%s was built by tgemm %s, but this package is "
                            "tgemm %s: rebuild it" % (
                                _tgemm.__file__, _built, _package_version))
        _tgemm = None

class CompileError(Exception):
    """MLIR rejected the input or an option. `diagnostics` holds every
    diagnostic as tgemm-opt prints it (file:line:col: error: ..., with the
    source line)."""

    def __init__(self, diagnostics):
        self.diagnostics = diagnostics.rstrip("\n")
        super().__init__(self.diagnostics or "compilation failed")


class ExtensionMissing(ImportError):
    """The compiled extension is not importable, so nothing can be compiled
    here; `tgemm.runtime` still works."""


def extension_available():
    """Whether this installation can compile (has `tgemm._tgemm`)."""
    return _tgemm is not None


def extension():
    """The compiled extension, or ExtensionMissing saying why it is not
    there and how to get it."""
    if _tgemm is None:
        raise ExtensionMissing(
            "tgemm's compiler extension (tgemm._tgemm) is not available "
            "(%s); build it with `cmake -G Ninja -S . -B build && ninja -C "
            "build` (needs LLVM/MLIR 22 and pybind11) and put build/python on "
            "PYTHONPATH. Running compiled kernels (tgemm.runtime) does not "
            "need it." % _EXTENSION_ERROR)
    return _tgemm


class KernelModule:
    """One compiled `gpu.module`: its name, chip, PTX and (when asked for)
    cubin."""

    def __init__(self, name, chip, ptx, cubin=None):
        self.name = name
        self.chip = chip
        self.ptx = ptx
        self.cubin = cubin

    def __repr__(self):
        return "KernelModule(%r, chip=%r, %d bytes of PTX%s)" % (
            self.name, self.chip, len(self.ptx),
            "" if self.cubin is None else ", %d of cubin" % len(self.cubin))


class CompiledKernel:
    """The result of `compile()`: the PTX (and cubin) of each kernel module
    and the launch manifest of docs/manifest.md as a dict.

    Most sources have one `tgemm.matmul`, hence one module; `ptx` and `cubin`
    are then that module's. With several, use `modules`."""

    def __init__(self, modules, manifest, lowering, chip, diagnostics=""):
        self.modules = tuple(modules)
        self.manifest = manifest
        self.lowering = lowering
        self.chip = chip
        # Warnings and remarks of a successful compilation.
        self.diagnostics = diagnostics
        self._launcher = None
        self._launcher_lock = threading.Lock()

    def __call__(self, a, b, c, *epilogue, stream=None, workspace=None):
        """Launches the kernel on CUDA tensors: C = alpha * A @ B + beta *
        C, then the kernel's epilogue steps, with A (M x K), B (K x N) and C
        (M x N) as torch tensors or objects with __dlpack__ or
        __cuda_array_interface__, strided as the kernel's layouts say, and
        after them the epilogue's operands (bias, scale, residual) in the
        manifest's order; on `stream` or the current torch stream,
        asynchronously. Returns c. A kernel that splits K takes a
        `workspace` (with torch tensors, one is kept per stream). See
        tgemm.launch."""
        with self._launcher_lock:
            if self._launcher is None:
                from .launch import Launcher
                self._launcher = Launcher(self)
        return self._launcher(a, b, c, *epilogue, stream=stream,
                              workspace=workspace)

    def _only_module(self):
        if len(self.modules) != 1:
            raise ValueError(
                "the source compiled to %d kernel modules (%s); pick one from "
                ".modules" % (len(self.modules),
                              ", ".join(m.name for m in self.modules)))
        return self.modules[0]

    @property
    def ptx(self):
        """The PTX text of the only kernel module."""
        return self._only_module().ptx

    @property
    def cubin(self):
        """The cubin of the only kernel module (None unless compiled with
        emit_cubin=True)."""
        return self._only_module().cubin

    @property
    def kernels(self):
        """The manifest's kernel entries."""
        return self.manifest["kernels"]

    def manifest_json(self):
        """The manifest as tgemm-translate --emit=manifest writes it."""
        return json.dumps(self.manifest, indent=2) + "\n"

    def write(self, prefix):
        """Writes PREFIX.ptx, PREFIX.json and, when compiled, PREFIX.cubin;
        with several kernel modules PREFIX.MODULE.ptx (and .cubin) each.
        Returns the paths written, by kind ("ptx", "cubin": lists; "manifest")."""
        prefix = os.fspath(prefix)
        written = {"ptx": [], "cubin": []}
        for module in self.modules:
            stem = prefix if len(self.modules) == 1 else "%s.%s" % (
                prefix, module.name)
            with open(stem + ".ptx", "w") as f:
                f.write(module.ptx)
            written["ptx"].append(stem + ".ptx")
            if module.cubin is not None:
                with open(stem + ".cubin", "wb") as f:
                    f.write(module.cubin)
                written["cubin"].append(stem + ".cubin")
        with open(prefix + ".json", "w") as f:
            f.write(self.manifest_json())
        written["manifest"] = prefix + ".json"
        return written

    def __repr__(self):
        return "CompiledKernel(lowering=%r, chip=%r, modules=%r)" % (
            self.lowering, self.chip, [m.name for m in self.modules])


def _optional_flag(name, value):
    # A schedule knob is on, off or left to the schedule (None); anything
    # else ("yes", 1) is a caller's mistake, not a truth value.
    if value is None or isinstance(value, bool):
        return value
    raise TypeError("%s must be True, False or None, not %r" % (name, value))


def compile(mlir_text, lowering="ptx", chip="sm_90", *, stages=0,
            async_copy=True, ldmatrix=True, swizzle="xor", padding=16,
            warp_specialize=None, tma=None, setmaxnreg=None,
            persistent=None, cluster=None, tma_store=None,
            transpose_kernel=None, align_kernel=None, opt_level=3,
            emit_cubin=False, ptxas=None,
            source_name="<source>"):
    """Compiles MLIR text holding `tgemm.matmul` ops through
    `--tgemm-pipeline` and returns a CompiledKernel.

    lowering: "wmma", "ptx" or "wgmma", or None for the chip's fastest
    family that every matmul of the source is legal for (on sm_90a wgmma,
    then ptx, or ptx first where every matmul is a decode with a static M
    of at most 16; elsewhere ptx); chip: "sm_80", "sm_86", "sm_89", "sm_90" or
    "sm_90a" (wgmma needs sm_90a);
    stages (0 keeps each config's), async_copy, ldmatrix, swizzle ("xor",
    "pad", "none") and padding (bytes) are the pipeline's options (README.md,
    "The pipeline"); warp_specialize, tma and setmaxnreg switch wgmma's
    producer warpgroup, TMA copies and setmaxnreg, and persistent (every
    family) a grid of the blocks that fit at once, each looping over tiles;
    cluster (wgmma with tma: 1 or 2 blocks per cluster, sharing B's tiles
    by TMA multicast) and tma_store (wgmma with tma: C stored through
    shared memory with the copy engine) and transpose_kernel (every family:
    8-bit and tf32 operands (wmma: 8-bit) stored MN-major transposed by a kernel
    launched before the GEMM, into the workspace; None: where the GEMM
    reuses the operand across 1024 rows or more, or a size known only at
    launch, but not for ptx's fp8 operands) and
    align_kernel (every family: an operand whose rows the source places
    less than 16-byte aligned, an odd f16 leading dimension say, copied
    with aligned rows by a kernel launched before the GEMM, into the
    workspace; None: where the GEMM reuses the operand across 1024 rows or
    columns or more, or a size known only at launch). emit_cubin also assembles each module with ptxas (found
    in CUDA_HOME, /usr/local/cuda or PATH unless `ptxas` gives its path).
    source_name is the file name diagnostics show.

    Raises CompileError with the diagnostics when the source or an option is
    rejected, and ExtensionMissing where the extension is not built."""
    ext = extension()
    if isinstance(mlir_text, bytes):
        mlir_text = mlir_text.decode("utf-8")
    if not isinstance(mlir_text, str):
        raise TypeError("mlir_text must be str or bytes, not %s"
                        % type(mlir_text).__name__)
    for name, value in (("stages", stages), ("padding", padding),
                        ("opt_level", opt_level)) + (
                            (("cluster", cluster),) if cluster is not None
                            else ()):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("%s must be an int, not %r" % (name, value))
    if lowering is not None and not isinstance(lowering, str):
        raise TypeError("lowering must be a str or None, not %r" % (lowering,))
    result = ext.compile(
        mlir_text, lowering="" if lowering is None else lowering,
        chip=str(chip), stages=stages,
        async_copy=bool(async_copy), ldmatrix=bool(ldmatrix),
        swizzle=str(swizzle), padding=padding, opt_level=opt_level,
        emit_cubin=bool(emit_cubin), ptxas="" if ptxas is None else
        os.fspath(ptxas), source_name=str(source_name),
        warp_specialize=_optional_flag("warp_specialize", warp_specialize),
        tma=_optional_flag("tma", tma),
        setmaxnreg=_optional_flag("setmaxnreg", setmaxnreg),
        persistent=_optional_flag("persistent", persistent), cluster=cluster,
        tma_store=_optional_flag("tma_store", tma_store),
        transpose_kernel=_optional_flag("transpose_kernel", transpose_kernel),
        align_kernel=_optional_flag("align_kernel", align_kernel))
    diagnostics = result["diagnostics"].decode("utf-8", "replace")
    if not result["success"]:
        raise CompileError(diagnostics)
    modules = [KernelModule(m["name"], m["chip"], m["ptx"], m["cubin"])
               for m in result["modules"]]
    manifest = json.loads(result["manifest"])
    if lowering is None and manifest.get("kernels"):
        lowering = manifest["kernels"][0]["lowering"]
    return CompiledKernel(modules, manifest, lowering, chip, diagnostics)


def compile_file(path, lowering="ptx", chip="sm_90", **options):
    """compile() on the contents of a file; diagnostics name the file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    options.setdefault("source_name", os.fspath(path))
    return compile(text, lowering, chip, **options)
