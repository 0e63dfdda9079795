"""tgemm.launch and tgemm.ops without a GPU: every argument check that comes
before a device, the C launch structure's layout, and the kernel cache."""

import ctypes
import os

import pytest

import tgemm
from tgemm import launch, ops
from conftest import RUNTIME_INPUTS, needs_extension, needs_runtime

F16_JSON = os.path.join(RUNTIME_INPUTS, "f16.json")      # 4096^3, A row, B col
BATCHED_JSON = os.path.join(RUNTIME_INPUTS, "batched.json")
GEMM_PTX = os.path.join(RUNTIME_INPUTS, "gemm.ptx")


class Cai:
    """A stand-in CUDA array: __cuda_array_interface__ version 3."""

    def __init__(self, shape, typestr="<f2", strides=None, data=0x7f0000000000):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr, "data": (data, False),
            "strides": strides, "version": 3}


def matrices(m=4096, n=4096, k=4096, b_strides=None):
    # A row-major M x K f16; B column-major K x N f16 (unit stride along its
    # rows: byte strides (2, 2K)); C row-major M x N f32.
    a = Cai((m, k), "<f2")
    b = Cai((k, n), "<f2", b_strides if b_strides else (2, 2 * k))
    c = Cai((m, n), "<f4")
    return a, b, c


@needs_runtime
def test_launch_args_layout():
    rt = launch._library(None)
    assert rt.lib.tgemm_rt_launch_args_size() == \
        ctypes.sizeof(launch._LaunchArgs)


@needs_runtime
def test_checks_before_the_device():
    k = launch.Launcher(GEMM_PTX, F16_JSON)
    assert k.name == "gemm_f16_f32_kernel"
    a, b, c = matrices()
    with pytest.raises(ValueError, match=r"shapes do not make a GEMM: a \(4096, "
                       r"4096\) @ b \(2048, 4096\)"):
        k(a, Cai((2048, 4096), "<f2", (2, 4096)), c)
    with pytest.raises(TypeError, match="argument 'c' is f16; kernel "
                       "'gemm_f16_f32_kernel' takes f32"):
        k(a, b, Cai((4096, 4096), "<f2"))
    # B row-major where the kernel takes it column-major.
    with pytest.raises(ValueError, match="argument 'b' has shape .* kernel "
                       "'gemm_f16_f32_kernel' takes it column-major"):
        k(a, Cai((4096, 4096), "<f2"), c)
    with pytest.raises(ValueError, match="argument 'a' has shape \\(4096,\\): "
                       "kernel 'gemm_f16_f32_kernel' takes a matrix"):
        k(Cai((4096,), "<f2"), b, c)
    with pytest.raises(TypeError, match="argument 'a': expected a CUDA tensor"):
        k([[1.0]], b, c)
    with pytest.raises(TypeError, match="argument 'b' has typestr '<f8'"):
        k(a, Cai((4096, 4096), "<f8", (8, 8 * 4096)), c)
    with pytest.raises(ValueError, match="strides .* not whole elements"):
        k(a, Cai((4096, 4096), "<f2", (3, 8192)), c)
    with pytest.raises(TypeError, match="stream must be"):
        k(a, b, c, stream="fast")


@needs_runtime
def test_a_valid_call_reaches_the_device():
    # Every check passes; there is no GPU here, so loading the kernel on a
    # device is what fails, with the runtime's own words.
    k = launch.Launcher(GEMM_PTX, F16_JSON)
    with pytest.raises(tgemm.RunError) as error:
        k(*matrices())
    assert "CUDA" in str(error.value) or "device" in str(error.value)


@needs_runtime
def test_batched_rank():
    k = launch.Launcher(GEMM_PTX, BATCHED_JSON, kernel_name=None) \
        if os.path.exists(BATCHED_JSON) else None
    if k is None:
        pytest.skip("no batched manifest")
    with pytest.raises(ValueError, match="takes a batch of matrices"):
        k(*matrices(256, 256, 256))


@needs_runtime
def test_manifest_is_needed_for_a_file():
    with pytest.raises(TypeError, match="a manifest is needed"):
        launch.Launcher(GEMM_PTX)


class Strided:
    def __init__(self, shape, strides, dtype="torch.float16"):
        self.shape, self._strides, self.dtype = shape, strides, dtype

    def stride(self):
        return self._strides


def test_layouts_from_strides():
    assert ops._layout(Strided((64, 32), (32, 1)), "a") == ("row", False)
    assert ops._layout(Strided((64, 32), (1, 64)), "a") == ("col", False)
    assert ops._layout(Strided((64, 32), (40, 1)), "a") == ("row", True)
    assert ops._layout(Strided((4, 64, 32), (2048, 32, 1)), "a") == \
        ("row", False)
    assert ops._layout(Strided((4, 64, 32), (4096, 32, 1)), "a") == \
        ("row", True)
    with pytest.raises(ValueError, match="neither its rows nor its columns"):
        ops._layout(Strided((64, 32), (64, 2)), "a")


def test_cache_location(monkeypatch, tmp_path):
    monkeypatch.setenv("TGEMM_CACHE_DIR", str(tmp_path / "c"))
    assert ops.cache_location() == str(tmp_path / "c")
    assert ops.cache_location(tmp_path / "d") == str(tmp_path / "d")
    monkeypatch.delenv("TGEMM_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert ops.cache_location() == str(tmp_path / "x" / "tgemm")


def test_kernel_source_per_dtype():
    s8 = ops._spec("int8", "int8", None, "row", "col", False, False, 1.0, 0.0)
    assert "memref<?x?xi8>" in s8 and "acc(i32)" in s8 and "?x?xi32" in s8
    fp8 = ops._spec("float8_e4m3fn", "float8_e5m2", None, "row", "col",
                    False, False, 1.0, 0.0)
    assert "f8E4M3FN" in fp8 and "f8E5M2" in fp8 and "?x?xbf16" in fp8
    strided = ops._spec("float16", "float16", "float32", "col", "row", True,
                        True, 0.5, 2.0)
    assert "strided<[?, ?, 1], offset: ?>" in strided
    assert "layout(col, row)" in strided and "alpha(0.5) beta(2.0)" in strided
    with pytest.raises(TypeError, match="no tgemm kernel multiplies"):
        ops._spec("float64", "float64", None, "row", "col", False, False, 1, 0)
    with pytest.raises(TypeError, match="which no tgemm kernel writes"):
        ops._spec("float16", "float16", "int8", "row", "col", False, False, 1,
                  0)


@needs_extension
def test_precompile_caches_by_source_options_and_version(tmp_path, monkeypatch):
    ptx, manifest = ops.precompile("float16", chip="sm_90a",
                                   cache_dir=tmp_path)
    assert os.path.exists(ptx) and os.path.exists(manifest)
    assert ".target sm_90a" in open(ptx).read()
    first = os.path.getmtime(ptx)
    # The same request is a cache hit: nothing is compiled or written.
    assert ops.precompile("float16", chip="sm_90a", cache_dir=tmp_path) == \
        (ptx, manifest)
    assert os.path.getmtime(ptx) == first
    # Another layout, chip or tool version is another kernel.
    other, _ = ops.precompile("float16", layout_b="row", chip="sm_90a",
                              cache_dir=tmp_path)
    ptx90, _ = ops.precompile("float16", chip="sm_90", cache_dir=tmp_path)
    assert len({ptx, other, ptx90}) == 3
    key = ops._key("x", {"chip": "sm_90"})
    monkeypatch.setattr(tgemm, "__version__",
                        str(getattr(tgemm, "__version__", "")) + ".next",
                        raising=False)
    assert ops._key("x", {"chip": "sm_90"}) != key
    # Nothing half-written is left beside the kernels.
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".tgemm-")]


@needs_extension
def test_precompile_int8_with_a_row_major_b(tmp_path):
    """`a @ b` on int8 tensors hands over B stored K x N: for sm_90a that is
    the wgmma family, B staged by TMA as stored and transposed into the
    K-major ring with byte permutes before the async proxy reads it."""
    import json
    ptx, manifest = ops.precompile("int8", layout_b="row", chip="sm_90a",
                                   cache_dir=tmp_path)
    kernel = json.load(open(manifest))["kernels"][0]
    assert kernel["lowering"] == "wgmma"
    assert kernel["b"] == {"type": "s8", "layout": "row"}
    text = open(ptx).read()
    for spelling in ("wgmma.mma_async", "cp.async.bulk.tensor", "prmt.b32",
                     "fence.proxy.async"):
        assert spelling in text, spelling


@needs_extension
def test_precompile_scaled_mm_scales_as_steps_or_alpha(tmp_path):
    """Per-tensor fp8 scales passed as tensors are scale(scalar) steps read
    from device memory, in torch._scaled_mm's order (scales, then bias);
    numbers fold into alpha."""
    import json
    _, manifest = ops.precompile_scaled_mm(
        "float8_e4m3fn", "float8_e5m2", "bfloat16", bias="bfloat16",
        cache_dir=tmp_path)
    kernel = json.load(open(manifest))["kernels"][0]
    assert (kernel["a"]["type"], kernel["b"]["type"]) == ("e4m3", "e5m2")
    assert kernel["c"]["type"] == "bf16" and kernel["alpha"] == 1.0
    assert [(s["op"], s["broadcast"]) for s in kernel["epilogue"]] == [
        ("scale", "scalar"), ("scale", "scalar"), ("bias", "col")]
    assert [(a["name"], a["type"], a["rank"]) for a in kernel["args"][3:]] \
        == [("epilogue0", "f32", 1), ("epilogue1", "f32", 1),
            ("epilogue2", "bf16", 1)]
    _, manifest = ops.precompile_scaled_mm(scale_a=0.5, scale_b=3.0,
                                           cache_dir=tmp_path)
    kernel = json.load(open(manifest))["kernels"][0]
    assert kernel["alpha"] == 1.5 and not kernel.get("epilogue")
    assert len(kernel["args"]) == 3


def test_precompile_scaled_mm_refuses_a_bias_type():
    with pytest.raises(TypeError, match="bias must be float32, float16 or "
                                        "bfloat16, not int8"):
        ops.precompile_scaled_mm(bias="int8")


def epilogue_manifest(tmp_path):
    """f16.json (4096^3, A row, B col, C f32) with a fused epilogue:
    scale(col) f32, bias(row) f16, residual bf16... as f16 here (CAI has no
    bf16), then gelu_tanh."""
    import json
    with open(F16_JSON) as f:
        manifest = json.load(f)
    manifest["version"] = 4
    kernel = manifest["kernels"][0]
    kernel["args"] += [
        {"name": "epilogue0", "kind": "memref", "type": "f32", "rank": 1},
        {"name": "epilogue1", "kind": "memref", "type": "f16", "rank": 1},
        {"name": "epilogue2", "kind": "memref", "type": "f16", "rank": 2}]
    kernel["epilogue"] = [
        {"op": "scale", "broadcast": "col", "arg": "epilogue0"},
        {"op": "bias", "broadcast": "row", "arg": "epilogue1"},
        {"op": "residual", "arg": "epilogue2"},
        {"op": "gelu_tanh"}]
    path = tmp_path / "epilogue.json"
    path.write_text(json.dumps(manifest))
    return str(path)


@needs_runtime
def test_epilogue_operands_are_checked(tmp_path):
    k = launch.Launcher(GEMM_PTX, epilogue_manifest(tmp_path))
    assert [(e["name"], e["op"], e["broadcast"], e["type"])
            for e in k.epilogue_operands()] == [
        ("epilogue0", "scale", "col", "f32"),
        ("epilogue1", "bias", "row", "f16"),
        ("epilogue2", "residual", None, "f16")]
    a, b, c = matrices()
    scale, bias = Cai((4096,), "<f4"), Cai((4096,), "<f2")
    residual = Cai((4096, 4096), "<f2")
    with pytest.raises(TypeError, match=r"kernel 'gemm_f16_f32_kernel' takes "
                       r"3 epilogue operands after c \(epilogue0: scale\(col\) "
                       r"f32\[4096\], epilogue1: bias\(row\) f16\[4096\], "
                       r"epilogue2: residual f16\[4096 x 4096\]\), got 1"):
        k(a, b, c, scale)
    with pytest.raises(TypeError, match=r"epilogue0 \(scale, col\): expected "
                       r"4096 elements of float32, got float16"):
        k(a, b, c, bias, bias, residual)
    with pytest.raises(ValueError, match=r"epilogue1 \(bias, row\): expected "
                       r"4096 elements of float16, got shape \(2048,\)"):
        k(a, b, c, scale, Cai((2048,), "<f2"), residual)
    with pytest.raises(ValueError, match=r"epilogue1 \(bias, row\): expected "
                       r"4096 elements of float16, got shape \(64, 64\)"):
        k(a, b, c, scale, Cai((64, 64), "<f2"), residual)
    with pytest.raises(ValueError, match=r"epilogue2 \(residual\): expected "
                       r"16777216 elements of float16 shaped \(4096, 4096\) "
                       r"\(C's shape\), got shape \(4096, 2048\)"):
        k(a, b, c, scale, bias, Cai((4096, 2048), "<f2"))
    with pytest.raises(ValueError, match=r"epilogue2 \(residual\): .*"
                       r"contiguous; got strides \(1, 4096\)"):
        k(a, b, c, scale, bias, Cai((4096, 4096), "<f2", (2, 8192)))
    with pytest.raises(ValueError, match=r"epilogue0 \(scale, col\): .*"
                       r"contiguous; got strides \(2,\)"):
        k(a, b, c, Cai((4096,), "<f4", (8,)), bias, residual)
    with pytest.raises(TypeError, match="argument 'epilogue0': expected a "
                       "CUDA tensor"):
        k(a, b, c, [1.0], bias, residual)
    # A vector may come as a row (1 x N); every check passes, so loading
    # the kernel on a device is what fails here.
    with pytest.raises(tgemm.RunError) as error:
        k(a, b, c, Cai((1, 4096), "<f4"), bias, residual)
    assert "CUDA" in str(error.value) or "device" in str(error.value)


@needs_runtime
def test_epilogue_free_kernel_takes_no_operands():
    k = launch.Launcher(GEMM_PTX, F16_JSON)
    assert k.epilogue_operands() == []
    with pytest.raises(TypeError, match="takes 0 epilogue operands after c, "
                       "got 1"):
        k(*matrices(), Cai((4096,), "<f4"))


@needs_runtime
def test_launch_args_carry_the_epilogue():
    names = [f[0] for f in launch._LaunchArgs._fields_]
    assert names[-2:] == ["epilogue", "num_epilogue"]
    assert tgemm.runtime.ABI_VERSION == 2
