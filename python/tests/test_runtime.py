"""tgemm.runtime: finding and loading libtgemm_runtime.so, and every error
path that needs no GPU. The package must import and run kernels without the
compiled extension (a GPU machine has no LLVM)."""

import ctypes
import json
import os
import shutil
import subprocess
import sys

import pytest

import tgemm
from tgemm import runtime
from conftest import (RUNTIME_INPUTS, needs_extension, needs_runtime,
                      runtime_library)

F16_JSON = os.path.join(RUNTIME_INPUTS, "f16.json")
STRIDED_JSON = os.path.join(RUNTIME_INPUTS, "strided.json")
BATCHED_JSON = os.path.join(RUNTIME_INPUTS, "batched.json")
GEMM_PTX = os.path.join(RUNTIME_INPUTS, "gemm.ptx")


def test_result_layout():
    # tgemm_rt_result: 7 doubles, 2 int64, 4 int32, 128 chars.
    assert ctypes.sizeof(runtime._Result) == 7 * 8 + 2 * 8 + 4 * 4 + 128
    # tgemm_rt_options: 10 int64, 2 int32.
    assert ctypes.sizeof(runtime._Options) == 10 * 8 + 2 * 4


def test_missing_library_env(monkeypatch, tmp_path):
    monkeypatch.setenv("TGEMM_RUNTIME_LIB", str(tmp_path / "nope.so"))
    with pytest.raises(tgemm.LibraryNotFound,
                       match="TGEMM_RUNTIME_LIB names .*nope.so, which does "
                             "not exist"):
        runtime.run(GEMM_PTX, F16_JSON)


def test_unloadable_library(tmp_path):
    fake = tmp_path / "libtgemm_runtime.so"
    fake.write_text("not a shared library")
    with pytest.raises(tgemm.LibraryNotFound,
                       match="cannot load the tgemm runtime"):
        runtime.run(GEMM_PTX, F16_JSON, library=str(fake))


def test_wrong_library():
    # A real shared library without the C API.
    libm = next((os.path.join(d, "libm.so.6") for d in (
        "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
        "/usr/lib64", "/lib/aarch64-linux-gnu")
        if os.path.exists(os.path.join(d, "libm.so.6"))), None)
    if libm is None:
        pytest.skip("no libm.so.6 to load")
    with pytest.raises(tgemm.LibraryNotFound,
                       match="is not the tgemm runtime"):
        runtime.load_library(libm)


def test_argument_checks():
    with pytest.raises(tgemm.RunError, match="needs the kernel's manifest") \
            as info:
        runtime.run(GEMM_PTX)
    assert info.value.status == runtime.USAGE
    with pytest.raises(tgemm.RunError, match="reps must be"):
        runtime.run(GEMM_PTX, F16_JSON, reps=-1)
    with pytest.raises(tgemm.RunError, match="m must be a positive int"):
        runtime.run(GEMM_PTX, F16_JSON, m=0)
    with pytest.raises(tgemm.RunError, match="needs check=False"):
        runtime.run(None, F16_JSON)


@pytest.mark.parametrize("knob, value, message", [
    ("batch", 0, "batch must be an int >= 1 or None, not 0"),
    ("batch", 2.0, "batch must be an int >= 1 or None, not 2.0"),
    ("lda", 0, "lda must be an int >= 1 or None, not 0"),
    ("ldb", True, "ldb must be an int >= 1 or None, not True"),
    ("ldc", "64", "ldc must be an int >= 1 or None, not '64'"),
    ("ldc", 2 ** 63, "ldc must be an int >= 1 or None"),
    ("offset_a", -1, "offset_a must be an int >= 0 or None, not -1"),
    ("offset_c", 1.5, "offset_c must be an int >= 0 or None, not 1.5"),
])
def test_storage_argument_checks(knob, value, message):
    # Checked before the library is even looked for.
    with pytest.raises(tgemm.RunError, match=message) as info:
        runtime.run(GEMM_PTX, STRIDED_JSON, library="/nonexistent.so",
                    **{knob: value})
    assert info.value.status == runtime.USAGE


@needs_runtime
def test_abi():
    rt = runtime.load_library()
    assert rt.lib.tgemm_rt_abi_version() == runtime.ABI_VERSION
    assert rt.lib.tgemm_rt_result_size() == ctypes.sizeof(runtime._Result)


@needs_runtime
def test_missing_kernel_file(tmp_path):
    with pytest.raises(tgemm.RunError,
                       match="cannot read kernel file .*missing.ptx.*No such "
                             "file") as info:
        runtime.run(str(tmp_path / "missing.ptx"), F16_JSON)
    assert info.value.status == runtime.ERROR
    assert not isinstance(info.value, tgemm.NoDevice)


@needs_runtime
def test_bad_manifests(tmp_path):
    with pytest.raises(tgemm.RunError, match="cannot read manifest"):
        runtime.run(GEMM_PTX, str(tmp_path / "missing.json"))
    with pytest.raises(tgemm.RunError, match="invalid JSON"):
        runtime.run(GEMM_PTX, os.path.join(RUNTIME_INPUTS, "truncated.json"))
    with pytest.raises(tgemm.RunError,
                       match="<manifest>: version: unsupported manifest "
                             "version 9"):
        with open(os.path.join(RUNTIME_INPUTS, "version9.json")) as f:
            runtime.run(GEMM_PTX, json.load(f))
    with pytest.raises(tgemm.RunError,
                       match="<manifest>: version: manifest version 1 is "
                             "older than this runtime's 8"):
        with open(os.path.join(RUNTIME_INPUTS, "version1.json")) as f:
            runtime.run(GEMM_PTX, json.load(f))


@needs_runtime
def test_bad_kernel_contents():
    # Contents, not paths: the runtime's messages name them <kernel>.
    with pytest.raises(tgemm.RunError, match="<kernel>: .*neither PTX"):
        runtime.run(b"\x01\x02\x03 not a kernel", F16_JSON)
    with pytest.raises(tgemm.RunError,
                       match="<kernel>: PTX has no kernel "
                             "'gemm_f16_f32_kernel'"):
        runtime.run("//\n.version 8.4\n.target sm_90\n.address_size 64\n",
                    F16_JSON)


@needs_runtime
def test_options_abi():
    rt = runtime.load_library()
    assert rt.has_options
    assert rt.lib.tgemm_rt_options_size() == ctypes.sizeof(runtime._Options)


@needs_runtime
@pytest.mark.parametrize("manifest, kwargs, status, message", [
    # Only arguments the manifest marks strided take a leading dimension or
    # an offset.
    (F16_JSON, {"lda": 4160}, runtime.ERROR,
     "--lda 4160: argument 'a' of kernel 'gemm_f16_f32_kernel' is not "
     "strided"),
    (F16_JSON, {"offset_b": 8}, runtime.ERROR,
     "--offset-b 8: argument 'b' of kernel 'gemm_f16_f32_kernel' is not "
     "strided"),
    (STRIDED_JSON, {"m": 256, "n": 512, "k": 64, "ldc": 500},
     runtime.USAGE, "--ldc 500 is less than the row length of C"),
    # Batches.
    (F16_JSON, {"batch": 2}, runtime.ERROR,
     "kernel 'gemm_f16_f32_kernel' is not batched"),
    (BATCHED_JSON, {"m": 128, "n": 128, "k": 64}, runtime.USAGE,
     "has a dynamic batch size; give it with --batch"),
    (BATCHED_JSON, {"m": 128, "n": 128, "k": 64, "batch": 70000},
     runtime.ERROR, "grid.z = 70000 exceeds CUDA's limit of 65535"),
])
def test_storage_errors_before_the_device(manifest, kwargs, status, message):
    # Refused with the runtime's message whether or not there is a GPU.
    with pytest.raises(tgemm.RunError, match=message) as info:
        runtime.run(GEMM_PTX, manifest, **kwargs)
    assert info.value.status == status
    assert not isinstance(info.value, tgemm.NoDevice)


@needs_runtime
def test_batched_manifest_errors():
    with open(BATCHED_JSON) as f:
        manifest = json.load(f)
    # Rank-3 arguments in a kernel that is not batched.
    del manifest["kernels"][0]["problem"]["batch"]
    manifest["kernels"][0]["grid"][2] = {"value": 1}
    with pytest.raises(tgemm.RunError,
                       match="<manifest>: kernels\\[0\\].args\\[0\\].rank: "
                             "argument 'a' has rank 3 but the kernel is not "
                             "batched") as info:
        runtime.run(GEMM_PTX, manifest, m=128, n=128, k=64)
    assert info.value.status == runtime.ERROR
    manifest["kernels"][0]["args"][0]["strided"] = 1
    with pytest.raises(tgemm.RunError, match="strided: expected true or "
                                             "false, got 1"):
        runtime.run(GEMM_PTX, manifest, m=128, n=128, k=64)


@needs_runtime
def test_kernel_not_in_manifest():
    with pytest.raises(tgemm.RunError, match="nope"):
        runtime.run(GEMM_PTX, F16_JSON, kernel_name="nope")


def _expect_no_device(call):
    """On a machine without a GPU the call raises NoDevice; with one it
    gets further, which this test cannot judge."""
    try:
        call()
    except tgemm.NoDevice as error:
        assert error.status == runtime.NO_DEVICE
        assert str(error).startswith(("no CUDA device",
                                      "unusable CUDA driver"))
        return
    except tgemm.RunError:
        pass
    if os.path.exists("/dev/nvidia0"):
        pytest.skip("a GPU is present")
    pytest.fail("expected NoDevice")


@needs_runtime
def test_no_device():
    _expect_no_device(lambda: runtime.run(GEMM_PTX, F16_JSON, reps=1))
    # The anchor alone needs a device too.
    _expect_no_device(lambda: runtime.run(None, F16_JSON, check=False))
    # Leading dimensions, offsets and batches that pass their checks.
    _expect_no_device(lambda: runtime.run(
        GEMM_PTX, STRIDED_JSON, m=256, n=128, k=64, lda=72, ldc=136,
        offset_a=3, reps=1))
    _expect_no_device(lambda: runtime.run(
        GEMM_PTX, BATCHED_JSON, m=256, n=128, k=64, batch=4, ldb=80, reps=1))


@needs_runtime
@needs_extension
def test_no_device_with_compiled_kernel():
    kernel = tgemm.compile_problem(None, None, None, a="bf16")
    _expect_no_device(lambda: runtime.run(kernel, m=256, n=256, k=256))
    with pytest.raises(tgemm.RunError, match="kernel_name"):
        runtime.run(tgemm.compile(tgemm.matmul_ir(128, 128, 64, name="x") +
                                  tgemm.matmul_ir(128, 128, 64, name="y")))


def _without_extension(tmp_path, script, env):
    # The pure-Python files alone, as on a GPU machine without LLVM.
    package = tmp_path / "tgemm"
    package.mkdir(exist_ok=True)
    source = os.path.dirname(tgemm.__file__)
    for name in os.listdir(source):
        if name.endswith(".py"):
            shutil.copy(os.path.join(source, name), package / name)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), **env)
    return subprocess.run([sys.executable, "-c", script], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)


@needs_runtime
def test_import_without_extension(tmp_path):
    # Without the extension, the element types come from the runtime
    # library: the same table (ElementTypes.def).
    script = (
        "import tgemm\n"
        "assert not tgemm.extension_available()\n"
        "print(tgemm.matmul_ir(128, 128, 64, config={'block': [128, 128, 32],"
        " 'warps': [2, 2], 'stages': 3}).splitlines()[0])\n"
        "try:\n"
        "    tgemm.compile('')\n"
        "except tgemm.ExtensionMissing as e:\n"
        "    print('ExtensionMissing:', e)\n"
        "try:\n"
        "    tgemm.runtime.run('k.ptx', 'k.json', library='/nonexistent.so')\n"
        "except tgemm.LibraryNotFound as e:\n"
        "    print('LibraryNotFound:', e)\n"
        "import json\n"
        "print(json.dumps(tgemm.element_types()))\n")
    result = _without_extension(
        tmp_path, script, {"TGEMM_RUNTIME_LIB": runtime_library()})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("func.func @gemm_f16_f32(")
    assert lines[1].startswith(
        "ExtensionMissing: tgemm's compiler extension (tgemm._tgemm) is not "
        "available (it is not built: no _tgemm*.so in ")
    assert "tgemm.runtime) does not need it" in lines[1]
    assert lines[2] == ("LibraryNotFound: library names /nonexistent.so, "
                        "which does not exist")
    if tgemm.extension_available():
        assert json.loads(lines[3]) == tgemm.element_types()


def test_import_without_any_library(tmp_path):
    # Neither the extension nor the runtime: writing IR needs the element
    # types, and the error says where they come from.
    script = (
        "import tgemm\n"
        "try:\n"
        "    tgemm.matmul_ir(128, 128, 64)\n"
        "except tgemm.ExtensionMissing as e:\n"
        "    print('ExtensionMissing:', e)\n")
    result = _without_extension(
        tmp_path, script, {"TGEMM_RUNTIME_LIB": str(tmp_path / "none.so")})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "ExtensionMissing: tgemm's compiler extension (tgemm._tgemm) is not "
        "available")
    assert "the runtime library cannot say either: TGEMM_RUNTIME_LIB names " \
        in result.stdout
