"""tgemm.runtime.run's integer arguments against the C types the C API
takes them as (int64_t sizes, batch, leading dimensions and offsets;
int32_t reps; int device): ctypes keeps the low bits of a value its C type
cannot hold, so run() refuses it, naming the argument, before the library
is loaded or a device looked for. None of these tests needs the runtime
library or a GPU: library="/nonexistent.so" would raise LibraryNotFound
had the checks let the call through."""

import ctypes
import os
import subprocess
import sys

import pytest

import tgemm
from tgemm import runtime
from conftest import RUNTIME_INPUTS

GEMM_PTX = os.path.join(RUNTIME_INPUTS, "gemm.ptx")
F16_JSON = os.path.join(RUNTIME_INPUTS, "f16.json")
STRIDED_JSON = os.path.join(RUNTIME_INPUTS, "strided.json")
NOWHERE = "/nonexistent.so"

INT64_MAX = 2 ** 63 - 1
INT32_MAX = 2 ** 31 - 1
# Where each argument goes in the C API.
INT64_ARGUMENTS = ["m", "n", "k", "batch", "lda", "ldb", "ldc", "offset_a",
                   "offset_b", "offset_c"]
INT32_ARGUMENTS = ["reps", "device"]


def run(**kwargs):
    manifest = STRIDED_JSON if any(
        name.startswith(("ld", "offset", "batch")) for name in kwargs) \
        else F16_JSON
    return runtime.run(GEMM_PTX, manifest, library=NOWHERE, **kwargs)


def test_ctypes_truncates():
    # What the checks guard against: ctypes does not refuse these.
    assert runtime._Options(m=2 ** 64 + 256).m == 256
    assert runtime._Options(reps=2 ** 31).reps == -2 ** 31
    assert ctypes.c_int(2 ** 32 + 1).value == 1


@pytest.mark.parametrize("name", INT64_ARGUMENTS)
@pytest.mark.parametrize("value", [2 ** 64 + 256, 2 ** 63, -2 ** 63 - 1])
def test_int64_overflow(name, value):
    with pytest.raises(OverflowError) as info:
        run(**{name: value})
    message = str(info.value)
    assert message.startswith("%s must be " % name)
    assert "not %d: out of the range of the C API's int64_t" % value \
        in message
    assert "to 9223372036854775807)" in message
    # Also a ValueError and a RunError with tgemm-run's usage status.
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, runtime.ArgumentOverflowError)
    assert isinstance(info.value, tgemm.RunError)
    assert info.value.status == runtime.USAGE


def test_the_reported_case():
    with pytest.raises(OverflowError,
                       match=r"^m must be a positive int or None, not "
                             r"18446744073709551872: out of the range of "
                             r"the C API's int64_t \(1 to "
                             r"9223372036854775807\)$"):
        run(m=2 ** 64 + 256)


@pytest.mark.parametrize("name", INT32_ARGUMENTS)
@pytest.mark.parametrize("value", [2 ** 31, 2 ** 32, 2 ** 64 + 1])
def test_int32_overflow(name, value):
    with pytest.raises(OverflowError,
                       match=r"^%s must be an int >= 0, not %d: out of the "
                             r"range of the C API's int32_t \(0 to "
                             r"2147483647\)$" % (name, value)) as info:
        run(**{name: value})
    assert info.value.status == runtime.USAGE


@pytest.mark.parametrize("name, value, least", [
    ("m", 0, 1), ("n", -1, 1), ("k", -2 ** 63, 1), ("batch", 0, 1),
    ("lda", -5, 1), ("offset_b", -1, 0), ("reps", -1, 0), ("device", -1, 0),
    ("device", -2 ** 31, 0)])
def test_below_the_least(name, value, least):
    # Within the C type, below what the argument may be: a ValueError, not
    # an OverflowError.
    with pytest.raises(ValueError, match=r"^%s must be .*, not %d \(from %d "
                                         r"to \d+\)$" % (name, value, least)) \
            as info:
        run(**{name: value})
    assert not isinstance(info.value, OverflowError)
    assert info.value.status == runtime.USAGE


@pytest.mark.parametrize("name", INT64_ARGUMENTS + INT32_ARGUMENTS)
@pytest.mark.parametrize("value", [True, False, 64.0, 1.5, "64", b"1",
                                   [64]])
def test_not_an_int(name, value):
    with pytest.raises(TypeError) as info:
        run(**{name: value})
    assert str(info.value).startswith(
        "%s must be " % name) and str(info.value).endswith(
        ", not %r (of type %s)" % (value, type(value).__name__))
    assert isinstance(info.value, runtime.ArgumentTypeError)
    assert isinstance(info.value, tgemm.RunError)
    assert info.value.status == runtime.USAGE


@pytest.mark.parametrize("kwargs", [
    {"m": INT64_MAX}, {"n": 1}, {"k": INT64_MAX}, {"batch": INT64_MAX},
    {"lda": INT64_MAX}, {"offset_c": 0}, {"offset_a": INT64_MAX},
    {"reps": INT32_MAX}, {"reps": 0}, {"device": INT32_MAX},
    {"m": None, "n": None, "k": None}])
def test_the_limits_pass(kwargs):
    # Each type's extremes pass the checks: the call goes on to load the
    # library, which does not exist.
    with pytest.raises(tgemm.LibraryNotFound, match="does not exist"):
        run(**kwargs)


def test_numpy_integers_are_ints():
    # numpy's integers count as ints, their values checked like an int's;
    # its floats and bools do not.
    numpy = pytest.importorskip("numpy")
    with pytest.raises(tgemm.LibraryNotFound):
        run(m=numpy.int64(256), reps=numpy.int32(5), device=numpy.uint8(0))
    with pytest.raises(OverflowError, match="^m must be .*, not "
                                            "18446744073709551615:"):
        run(m=numpy.uint64(2 ** 64 - 1))
    with pytest.raises(TypeError, match="^m must be "):
        run(m=numpy.float64(256))
    with pytest.raises(TypeError, match="^reps must be "):
        run(reps=numpy.bool_(True))


def test_cli_overflow():
    # python -m tgemm run: a usage error (exit 2) naming the argument.
    parent = os.path.dirname(os.path.dirname(os.path.abspath(
        tgemm.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [parent, os.environ.get("PYTHONPATH")])))
    result = subprocess.run(
        [sys.executable, "-m", "tgemm", "run", GEMM_PTX, "--manifest",
         F16_JSON, "--m", str(2 ** 64 + 256), "--library", NOWHERE],
        env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "tgemm: error: m must be a positive int or None, not " \
        "18446744073709551872: out of the range of the C API's int64_t" \
        in result.stderr
