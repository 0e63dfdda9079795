"""tgemm from Python: compile tiled GEMMs for NVIDIA tensor cores to PTX,
cubin and a launch manifest, and run them.

    import tgemm
    kernel = tgemm.compile_problem(4096, 4096, 4096, a="f16", lowering="ptx")
    kernel.write("gemm")                      # gemm.ptx, gemm.json
    tgemm.runtime.run(kernel, m=4096, n=4096, k=4096)   # where a GPU is
    kernel(a, b, c)                    # on torch (or DLPack) CUDA tensors
    c = tgemm.matmul(a, b)             # compiled on first use, cached

Compiling needs the compiled extension (tgemm._tgemm, built with the
project); tgemm.runtime needs only libtgemm_runtime.so, so on a machine with
a GPU but no LLVM this package imports and runs kernels compiled elsewhere.
See docs/python.md."""

def _source_tree_version():
    """The version project() names in the top-level CMakeLists.txt, for a
    package imported straight from the source tree (PYTHONPATH=python),
    which no build has stamped with _version.py."""
    import os
    import re
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                       os.pardir, "CMakeLists.txt")
    try:
        with open(top) as f:
            found = re.search(r"^project\(tgemm\s+VERSION\s+([0-9.]+)",
                              f.read(), re.MULTILINE)
    except OSError:
        found = None
    return found.group(1) if found else "unknown"


try:
    from ._version import __version__
except ImportError:
    __version__ = _source_tree_version()

from . import runtime
from .compiler import (CompiledKernel, CompileError, ExtensionMissing,
                       KernelModule, compile, compile_file,
                       extension_available)
from .ops import matmul, scaled_mm
from .problem import (compile_problem, default_config, element_types,
                      matmul_ir)
from .runtime import LibraryNotFound, NoDevice, RunError, WrongResult


def chips():
    """The chips tgemm compiles for (needs the extension)."""
    from .compiler import extension
    return list(extension().chips())


__all__ = [
    "CompileError", "CompiledKernel", "ExtensionMissing", "KernelModule",
    "LibraryNotFound", "NoDevice", "RunError", "WrongResult", "chips",
    "compile", "compile_file", "compile_problem", "default_config",
    "element_types", "extension_available", "matmul", "matmul_ir", "scaled_mm",
    "runtime",
]
