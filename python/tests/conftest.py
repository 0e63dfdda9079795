"""Shared fixtures of the tgemm Python tests.

Run with the built package on the path (docs/python.md):
    PYTHONPATH=build/python python3 -m pytest -q python/tests
"""

import os
import shutil

import pytest

import tgemm

REPO = os.path.normpath(os.path.join(os.path.dirname(__file__), os.pardir,
                                     os.pardir))
EXAMPLES = os.path.join(REPO, "examples")
RUNTIME_INPUTS = os.path.join(REPO, "test", "Runtime", "Inputs")


def pytest_report_header(config):
    return "tgemm from %s (extension: %s)" % (
        os.path.dirname(tgemm.__file__),
        "yes" if tgemm.extension_available() else "no")


needs_extension = pytest.mark.skipif(
    not tgemm.extension_available(),
    reason="the compiled extension tgemm._tgemm is not built")


def find_ptxas():
    for candidate in (os.path.join(os.environ.get("CUDA_HOME", "/nonexistent"),
                                   "bin", "ptxas"),
                      "/usr/local/cuda/bin/ptxas", shutil.which("ptxas")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


needs_ptxas = pytest.mark.skipif(find_ptxas() is None,
                                 reason="ptxas (CUDA toolkit) not found")


def runtime_library():
    """The runtime library the package would load, or None."""
    try:
        path = tgemm.runtime.find_library()
    except tgemm.RunError:
        return None
    return path if os.path.isfile(path) else None


needs_runtime = pytest.mark.skipif(
    runtime_library() is None,
    reason="libtgemm_runtime.so is not built (needs the CUDA toolkit)")


@pytest.fixture
def example():
    def read(name):
        with open(os.path.join(EXAMPLES, name)) as f:
            return f.read()
    return read
