"""The problem builder: tgemm.matmul IR from sizes, types and layouts, the
default configs, and compile_problem."""

import json

import pytest

import tgemm
from conftest import needs_extension

# Each operand type with its accumulator, the instruction of the ptx
# lowering, and whether the wmma lowering computes it.
PROBLEMS = [
    ("f16", "f32", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", True),
    ("bf16", "f32", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
     True),
    ("tf32", "f32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
     True),
    ("s8", "s32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", True),
    ("u8", "s32", "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", True),
    ("s4", "s32", "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", True),
    ("e4m3", "f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
     False),
    ("e5m2", "f32", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",
     False),
]

F16_CONFIG = {"block": [128, 128, 32], "warps": [2, 2], "stages": 3}


def test_static_ir():
    text = tgemm.matmul_ir(4096, 2048, 1024, config=F16_CONFIG)
    assert text == (
        "func.func @gemm_f16_f32(%a: memref<4096x1024xf16>, "
        "%b: memref<2048x1024xf16>, %c: memref<4096x2048xf32>) {\n"
        "  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)\n"
        "      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)\n"
        "      : memref<4096x1024xf16>, memref<2048x1024xf16>, "
        "memref<4096x2048xf32>\n"
        "  return\n"
        "}\n")


def test_auto_config_ir():
    # No config in the IR: the compiler's tgemm-select-config chooses.
    for config in (None, "auto"):
        text = tgemm.matmul_ir(4096, 2048, 1024, config=config)
        assert "config(" not in text
        assert "acc(f32)\n      : memref<4096x1024xf16>" in text


def test_dynamic_and_layouts_ir():
    text = tgemm.matmul_ir(None, 256, None, a="bf16", c="bf16",
                           layout_a="col", layout_b="row", alpha=0.5,
                           beta=1e-5, config=dict(F16_CONFIG, raster=4),
                           name="g")
    # A col is K x M, B row is K x N.
    assert "%a: memref<?x?xbf16>, %b: memref<?x256xbf16>, " \
        "%c: memref<?x256xbf16>" in text
    assert "layout(col, row) acc(f32) alpha(0.5) beta(1.0e-05)" in text
    assert "stages = 3, raster = 4>" in text
    assert text.startswith("func.func @g(")


def test_split_k_config_text():
    text = tgemm.matmul_ir(512, 512, 16384, config=dict(F16_CONFIG,
                                                        split_k=8))
    assert "stages = 3, split_k = 8>" in text
    # A manifest's config (split_k 1 included) goes back in as it came.
    text = tgemm.matmul_ir(512, 512, 16384, config=dict(F16_CONFIG, raster=1,
                                                        split_k=1))
    assert "split_k" not in text


def test_type_spellings():
    ir = tgemm.matmul_ir(128, 128, 128, a="i4", acc="i32", config={
        "block": [128, 128, 128], "warps": [2, 2], "stages": 3})
    assert "memref<128x128xi4>" in ir and "acc(i32)" in ir
    assert "xf8E4M3FN>" in tgemm.matmul_ir(128, 128, 64, a="f8E4M3FN",
                                           config=F16_CONFIG)
    assert "xui8>" in tgemm.matmul_ir(128, 128, 64, a="u8", config=F16_CONFIG)
    # f32 operands are computed as TF32.
    assert "%a: memref<128x64xf32>" in tgemm.matmul_ir(
        128, 128, 64, a="f32", config=F16_CONFIG)


@pytest.mark.parametrize("kwargs,message", [
    (dict(a="f64"), "unknown element type 'f64' for A"),
    (dict(c="s8"), "unknown element type 's8' for C"),
    (dict(layout_a="diagonal"), "layout_a must be 'row' or 'col'"),
    (dict(m=0), "m must be a positive int or None"),
    (dict(k=1.5), "k must be a positive int or None"),
    (dict(alpha=float("nan")), "alpha must be finite"),
    (dict(config={"block": [128, 128], "warps": [2, 2], "stages": 3}),
     "block = \\[BM, BN, BK\\]"),
    (dict(config={"block": [128, 128, 32], "warps": [2, 2]}),
     "config needs block, warps and stages"),
    (dict(config="fast"), "config must be a dict, None or 'auto'"),
])
def test_bad_problems(kwargs, message):
    args = dict(m=128, n=128, k=64, config=F16_CONFIG)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        tgemm.matmul_ir(**args)


@needs_extension
def test_default_configs():
    assert tgemm.default_config("f16") == {
        "block": [128, 128, 32], "warps": [2, 2], "stages": 3, "raster": 1,
        "split_k": 1}
    assert tgemm.default_config("bf16")["block"] == [128, 128, 32]
    assert tgemm.default_config("tf32") == {
        "block": [128, 128, 16], "warps": [2, 2], "stages": 4, "raster": 1,
        "split_k": 1}
    assert tgemm.default_config("s8")["block"] == [128, 128, 64]
    assert tgemm.default_config("u8")["block"] == [128, 128, 64]
    assert tgemm.default_config("s4")["block"] == [128, 128, 128]
    assert tgemm.default_config("e4m3")["warps"] == [2, 4]
    with pytest.raises(ValueError, match="no tensor-core instruction"):
        tgemm.default_config("s8", acc="f32")
    with pytest.raises(ValueError, match="no tensor-core instruction"):
        tgemm.default_config("e4m3", "s8")
    # Mixed fp8 has an instruction (wgmma's e4m3 x e5m2).
    assert tgemm.default_config("e4m3", "e5m2")["block"][2] > 0


@needs_extension
@pytest.mark.parametrize("a,acc,mma,wmma", PROBLEMS,
                         ids=[p[0] for p in PROBLEMS])
@pytest.mark.parametrize("chip", ["smallest", "sm_90"])
def test_default_config_compiles_everywhere(a, acc, mma, wmma, chip):
    # The default of every precision compiles through every lowering that
    # computes it, on the chip with the least shared memory that has its
    # instruction (sm_86, or sm_89 for fp8: 99 KiB) and on the largest.
    if chip == "smallest":
        chip = "sm_89" if a.startswith("e") else "sm_86"
    kernel = tgemm.compile_problem(4096, 4096, 4096, a=a, chip=chip)
    assert mma in kernel.ptx
    [k] = kernel.kernels
    assert k["a"]["type"] == a and k["acc"] == acc
    # No tuned entries exist for the smaller chips: the default applies.
    if chip != "sm_90":
        assert k["config"] == tgemm.default_config(a)
    if wmma:
        kernel = tgemm.compile_problem(4096, 4096, 4096, a=a, chip=chip,
                                       lowering="wmma", config="auto")
        assert "wmma.mma.sync" in kernel.ptx


@needs_extension
@pytest.mark.parametrize("layout_a", ["row", "col"])
@pytest.mark.parametrize("layout_b", ["row", "col"])
@pytest.mark.parametrize("lowering", ["wmma", "ptx"])
def test_f16_layouts(layout_a, layout_b, lowering):
    kernel = tgemm.compile_problem(256, 256, 256, layout_a=layout_a,
                                   layout_b=layout_b, lowering=lowering)
    [k] = kernel.kernels
    assert (k["a"]["layout"], k["b"]["layout"]) == (layout_a, layout_b)
    assert k["problem"] == {"m": 256, "n": 256, "k": 256}


@needs_extension
def test_dynamic_problem():
    kernel = tgemm.compile_problem(None, None, None, a="bf16", c="f16",
                                   alpha=2.0, beta=0.5)
    [k] = kernel.kernels
    assert k["problem"] == {"m": None, "n": None, "k": None}
    assert k["c"]["type"] == "f16" and (k["alpha"], k["beta"]) == (2.0, 0.5)
    assert k["name"] == "gemm_bf16_f16_kernel"


@needs_extension
def test_mixed_sizes_and_options():
    kernel = tgemm.compile_problem(None, 512, 1024, a="s8", stages=2,
                                   async_copy=False, name="int8")
    [k] = kernel.kernels
    assert k["problem"] == {"m": None, "n": 512, "k": 1024}
    assert k["config"]["stages"] == 2 and k["name"] == "int8_kernel"
    assert "cp.async" not in kernel.ptx


@needs_extension
def test_explicit_config():
    kernel = tgemm.compile_problem(
        1024, 1024, 1024, config={"block": [64, 64, 32], "warps": [2, 2],
                                  "stages": 2, "raster": 8})
    assert kernel.kernels[0]["config"] == {
        "block": [64, 64, 32], "warps": [2, 2], "stages": 2, "raster": 8,
        "split_k": 1}


@needs_extension
def test_uncompilable_problem():
    with pytest.raises(tgemm.CompileError, match="<problem>:2:3: error:"):
        tgemm.compile_problem(256, 256, 256, a="e4m3", lowering="wmma")


@needs_extension
def test_element_types_are_the_shared_table():
    types = tgemm.element_types()
    names = [t["name"] for t in types]
    # ElementTypes.def's order; one entry per type.
    assert names == ["f16", "bf16", "f32", "tf32", "s8", "u8", "s4", "e4m3",
                     "e5m2", "s32"]
    by_name = {t["name"]: t for t in types}
    assert by_name["tf32"]["mlir"] == "f32" and by_name["s4"]["bits"] == 4
    assert [n for n in names if by_name[n]["operand"]] == [
        p[0] for p in PROBLEMS]
    assert [n for n in names if by_name[n]["result"]] == [
        "f16", "bf16", "f32", "s32"]
    # MLIR's spellings name the same types.
    assert "xui8>" in tgemm.matmul_ir(64, 64, 64, a="ui8")
    assert "memref<64x64xi32>" in tgemm.matmul_ir(64, 64, 64, a="si8", c="i32")
    with pytest.raises(ValueError, match="expected one of f16, bf16, tf32, "
                       "s8, u8, s4, e4m3, e5m2"):
        tgemm.matmul_ir(64, 64, 64, a="s32")


@needs_extension
def test_check_manifest_is_the_runtime_reader():
    kernel = tgemm.compile_problem(256, 256, 256)
    ext = tgemm.compiler.extension()
    assert ext.check_manifest(kernel.manifest_json(), "m.json") is None
    broken = json.loads(kernel.manifest_json())
    broken["kernels"][0]["grid"][1] = {"dim": "q", "tile": 1}
    assert ext.check_manifest(json.dumps(broken), "m.json") == (
        "m.json: kernels[0].grid[1].dim: unknown dimension 'q' (expected m, "
        "n or k, or batch in a batched kernel)")
