"""tgemm.compile: every precision through every lowering that computes it,
the PTX instructions each produces, the manifest, the pipeline options and
cubins."""

import json
import os

import pytest

import tgemm
from conftest import EXAMPLES, needs_extension, needs_ptxas

pytestmark = needs_extension

# example, chip, the mma instruction of the ptx lowering, and of the wmma
# lowering (None: WMMA has no instruction for fp8).
PRECISIONS = [
    ("gemm-f16-f32.mlir", "sm_90",
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
     "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"),
    ("gemm-f16-f16.mlir", "sm_80",
     "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
     "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16"),
    ("gemm-bf16-f32.mlir", "sm_86",
     "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
     "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32"),
    ("gemm-tf32-f32.mlir", "sm_90",
     "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
     "wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32"),
    ("gemm-s8-s32.mlir", "sm_89",
     "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
     "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32"),
    ("gemm-u8-s32.mlir", "sm_90",
     "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32",
     "wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32"),
    ("gemm-s4-s32.mlir", "sm_90",
     "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
     "wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32"),
    ("gemm-e4m3-f32.mlir", "sm_89",
     "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", None),
    ("gemm-e5m2-f32.mlir", "sm_90",
     "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", None),
]


@pytest.mark.parametrize("name,chip,mma,wmma", PRECISIONS,
                         ids=[p[0][5:-5] for p in PRECISIONS])
def test_ptx_lowering(example, name, chip, mma, wmma):
    kernel = tgemm.compile(example(name), "ptx", chip, source_name=name)
    ptx = kernel.ptx
    assert ".target " + chip in ptx
    assert mma in ptx
    assert "cp.async.cg.shared.global" in ptx
    assert "ldmatrix.sync.aligned" in ptx
    assert "wmma." not in ptx
    [entry] = kernel.kernels
    assert entry["lowering"] == "ptx" and entry["chip"] == chip
    assert ".entry " + entry["name"] in ptx
    assert kernel.cubin is None


@pytest.mark.parametrize("name,chip,mma,wmma",
                         [p for p in PRECISIONS if p[3]],
                         ids=[p[0][5:-5] for p in PRECISIONS if p[3]])
def test_wmma_lowering(example, name, chip, mma, wmma):
    kernel = tgemm.compile(example(name), "wmma", chip, source_name=name)
    assert wmma in kernel.ptx
    # Copies through NVVM's cp.async; no ldmatrix or mma.sync of its own.
    assert "cp.async.cg.shared.global" in kernel.ptx
    assert "ldmatrix" not in kernel.ptx
    assert kernel.kernels[0]["lowering"] == "wmma"
    sync = tgemm.compile(example(name), "wmma", chip, source_name=name,
                         async_copy=False)
    assert "cp.async" not in sync.ptx and "ld.global.v4" in sync.ptx


def test_manifest_fields(example):
    kernel = tgemm.compile(example("gemm-f16-f32.mlir"), "ptx", "sm_90")
    manifest = kernel.manifest
    assert manifest["version"] == 8
    [k] = manifest["kernels"]
    assert k["name"] == "gemm_f16_f32_kernel"
    assert k["module"] == "gemm_f16_f32_module"
    assert k["problem"] == {"m": 4096, "n": 4096, "k": 4096}
    assert k["a"] == {"type": "f16", "layout": "row"}
    assert k["b"] == {"type": "f16", "layout": "col"}
    assert k["c"] == {"type": "f32", "layout": "row"}
    assert k["acc"] == "f32"
    assert (k["alpha"], k["beta"]) == (1.0, 0.0)
    assert k["config"]["block"] == [128, 128, 32]
    assert k["config"]["warps"] == [2, 2]
    assert k["config"]["stages"] == 3
    assert k["block"] == [128, 1, 1]
    assert len(k["grid"]) == 3
    assert k["dynamic_shared_memory"] > 0
    assert [a["name"] for a in k["args"]] == ["a", "b", "c"]
    assert all(a["kind"] == "memref" and a["rank"] == 2 for a in k["args"])
    # The same JSON tgemm-translate writes (docs/manifest.md).
    assert json.loads(kernel.manifest_json()) == manifest
    # Written only when true.
    assert "persistent" not in k


@pytest.mark.parametrize("name,lowering,chip", [
    ("gemm-f16-f32.mlir", "ptx", "sm_90"),
    ("gemm-f16-f32-wgmma.mlir", "wgmma", "sm_90a")])
def test_persistent(example, name, lowering, chip):
    kernel = tgemm.compile(example(name), lowering, chip, persistent=True)
    [k] = kernel.kernels
    assert k["persistent"] is True
    # The grid still lists the tiles; the runtime launches fewer blocks.
    block = k["config"]["block"]
    assert k["grid"][:2] == [{"dim": "n", "tile": block[1]},
                             {"dim": "m", "tile": block[0]}]
    # Each block loops over tile indices: the loop's step is the grid.
    assert "%nctaid.x" in kernel.ptx
    plain = tgemm.compile(example(name), lowering, chip, persistent=False)
    assert "persistent" not in plain.kernels[0]
    assert "%nctaid.x" not in plain.ptx


def test_cluster(example):
    kernel = tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma",
                           "sm_90a", cluster=2)
    [k] = kernel.kernels
    assert k["cluster"] == 2
    # Two blocks per tile column, bands of two tile-rows, half of B's tile
    # in each block's copy.
    block = k["config"]["block"]
    assert k["grid"][:2] == [{"dim": "n", "tile": block[1], "times": 2},
                             {"dim": "m", "tile": 2 * block[0]}]
    assert k["tensor_maps"][1]["box"] == [block[1] // 2, 64]
    assert ".reqnctapercluster 2, 1, 1" in kernel.ptx
    assert "multicast::cluster" in kernel.ptx
    plain = tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma",
                          "sm_90a", cluster=1)
    assert "cluster" not in plain.kernels[0]
    assert "reqnctapercluster" not in plain.ptx
    # Only wgmma with TMA has clusters; 1 or 2 blocks.
    with pytest.raises(tgemm.CompileError) as info:
        tgemm.compile(example("gemm-f16-f32.mlir"), "ptx", "sm_90", cluster=2)
    assert "cluster = 2 is a wgmma knob" in str(info.value)
    with pytest.raises(tgemm.CompileError) as info:
        tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma", "sm_90a",
                      cluster=3)
    assert "cluster (3) must be between 1 and 2 blocks" in str(info.value)
    with pytest.raises(TypeError):
        tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma", "sm_90a",
                      cluster="2")


def test_dynamic_manifest(example):
    kernel = tgemm.compile(example("gemm-f16-dynamic-epilogue.mlir"), "wmma",
                           "sm_80")
    [k] = kernel.kernels
    assert k["problem"] == {"m": None, "n": None, "k": None}
    assert (k["alpha"], k["beta"]) == (0.5, 2.0)
    assert (k["a"]["layout"], k["b"]["layout"]) == ("row", "row")


def test_shared_memory_rejected(example):
    # The padded wmma rings and scratch of this 4-stage pipeline do not fit
    # sm_89's 99 KiB: the target check says so, with the numbers.
    with pytest.raises(tgemm.CompileError) as info:
        tgemm.compile(example("gemm-f16-dynamic-epilogue.mlir"), "wmma",
                      "sm_89")
    assert ("the 4-stage pipeline needs 116736 bytes of shared memory; "
            "sm_89 allows a block 101376 bytes") in str(info.value)


def test_pipeline_options(example):
    source = example("gemm-f16-f32.mlir")
    sync = tgemm.compile(source, "ptx", "sm_90", async_copy=False)
    assert "cp.async" not in sync.ptx
    assert "ld.global.v4" in sync.ptx
    no_ldmatrix = tgemm.compile(source, "ptx", "sm_90", ldmatrix=False)
    assert "ldmatrix" not in no_ldmatrix.ptx
    two = tgemm.compile(source, "ptx", "sm_90", stages=2)
    assert two.kernels[0]["config"]["stages"] == 2
    assert "cp.async.wait_group 1;" not in two.ptx
    xor = tgemm.compile(source, "ptx", "sm_90")
    pad = tgemm.compile(source, "ptx", "sm_90", swizzle="pad", padding=16)
    # Padded rows take more shared memory than the XOR swizzle.
    assert pad.kernels[0]["dynamic_shared_memory"] > \
        xor.kernels[0]["dynamic_shared_memory"]


def test_bytes_source(example):
    kernel = tgemm.compile(example("gemm-s8-s32.mlir").encode(), "ptx")
    assert kernel.chip == "sm_90" and kernel.lowering == "ptx"


def test_several_modules():
    source = tgemm.matmul_ir(128, 128, 64, name="first") + \
        tgemm.matmul_ir(128, 128, 64, a="bf16", name="second")
    kernel = tgemm.compile(source)
    assert [m.name for m in kernel.modules] == ["first_module",
                                                 "second_module"]
    assert [k["name"] for k in kernel.kernels] == ["first_kernel",
                                                    "second_kernel"]
    with pytest.raises(ValueError, match="2 kernel modules"):
        kernel.ptx


def test_write(tmp_path, example):
    kernel = tgemm.compile(example("gemm-f16-f32.mlir"))
    written = kernel.write(tmp_path / "k")
    assert written == {"ptx": [str(tmp_path / "k.ptx")], "cubin": [],
                       "manifest": str(tmp_path / "k.json")}
    assert (tmp_path / "k.ptx").read_text() == kernel.ptx
    assert json.loads((tmp_path / "k.json").read_text()) == kernel.manifest


@needs_ptxas
def test_cubin(tmp_path, example):
    kernel = tgemm.compile(example("gemm-s8-s32.mlir"), "wmma", "sm_86",
                           emit_cubin=True)
    assert kernel.cubin.startswith(b"\x7fELF")
    written = kernel.write(tmp_path / "k")
    assert written["cubin"] == [str(tmp_path / "k.cubin")]
    assert (tmp_path / "k.cubin").read_bytes() == kernel.cubin


def test_compile_file():
    path = os.path.join(EXAMPLES, "gemm-bf16-f32.mlir")
    kernel = tgemm.compile_file(path, "wmma", "sm_80")
    assert "bf16" in kernel.ptx


def test_threads(example):
    # The extension releases the GIL while compiling; each call has its own
    # MLIR context, so concurrent compilations are independent.
    from concurrent.futures import ThreadPoolExecutor
    sources = [example(p[0]) for p in PRECISIONS[:4]]
    with ThreadPoolExecutor(4) as pool:
        kernels = list(pool.map(lambda s: tgemm.compile(s, "ptx", "sm_90"),
                                sources))
    for kernel, (_, _, mma, _) in zip(kernels, PRECISIONS[:4]):
        assert mma in kernel.ptx


LINALG = """
func.func @matmul(%a: memref<1000x512xf16>, %b: memref<768x512xf16>,
                  %c: memref<1000x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1000x768xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<1000x512xf16>, memref<768x512xf16>)
      outs(%c : memref<1000x768xf32>)
  return
}
"""


@pytest.mark.parametrize("lowering", ["wmma", "ptx"])
def test_linalg_matmul(lowering):
    # Upstream linalg is imported by the pipeline; the config is chosen for
    # it (tuned or default), and a zero fill of C becomes beta = 0.
    kernel = tgemm.compile(LINALG, lowering=lowering, chip="sm_90")
    [k] = kernel.kernels
    assert k["problem"] == {"m": 1000, "n": 768, "k": 512}
    assert k["a"] == {"type": "f16", "layout": "row"}
    assert k["b"] == {"type": "f16", "layout": "col"}
    assert k["beta"] == 0
    assert set(k["config"]) == {"block", "warps", "stages", "raster", "split_k"}
    assert ("mma.sync" if lowering == "ptx" else "wmma.mma.sync") in kernel.ptx


@needs_ptxas
def test_linalg_matmul_cubin():
    kernel = tgemm.compile(LINALG, lowering="ptx", chip="sm_90",
                           emit_cubin=True)
    assert all(m.cubin for m in kernel.modules)


def test_linalg_not_imported():
    # An f32 linalg.matmul is not imported without tf32: a module whose
    # contractions all stay linalg is an error naming why.
    text = LINALG.replace("f16", "f32")
    with pytest.raises(tgemm.CompileError,
                       match=r"(?s)f32 operands would be computed as TF32.*"
                             r"no kernel: none of the module's 1 contraction "
                             r"could be imported"):
        tgemm.compile(text, lowering="ptx", chip="sm_90")


def test_linalg_epilogue():
    # The element-wise linalg.generic after the matmul (bias per column,
    # relu, the cast to bf16) becomes the kernel's epilogue: the manifest
    # lists its steps and the bias as an argument after C, which the
    # launcher then takes after c.
    text = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @linear_relu(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                       %bias: memref<?xf32>, %y: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xbf16>
  %n = memref.dim %w, %c1 : memref<?x?xbf16>
  %acc = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<?x?xf32>)
  linalg.matmul ins(%x, %w : memref<?x?xbf16>, memref<?x?xbf16>)
                outs(%acc : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc, %bias : memref<?x?xf32>, memref<?xf32>)
      outs(%y : memref<?x?xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %v = arith.addf %a, %b : f32
    %r = arith.maximumf %v, %zero : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %acc : memref<?x?xf32>
  return
}
"""
    kernel = tgemm.compile(text, lowering="wgmma", chip="sm_90a")
    [k] = kernel.kernels
    assert k["c"]["type"] == "bf16"
    assert k["epilogue"] == [
        {"op": "bias", "broadcast": "col", "arg": "epilogue0"},
        {"op": "relu"}]
    names = [a["name"] for a in k["args"]]
    assert names[names.index("c") + 1] == "epilogue0"


def test_tma_store(example):
    kernel = tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma",
                           "sm_90a", tma_store=True)
    [k] = kernel.kernels
    # A third map, C's: boxes of 16 rows by one 128-byte line of f32.
    maps = k["tensor_maps"]
    assert [m["operand"] for m in maps] == ["a", "b", "c"]
    assert maps[2]["box"] == [16, 32]
    assert maps[2]["swizzle"] == 128
    assert "cp.async.bulk.tensor.3d.global.shared::cta" in kernel.ptx
    assert "cp.async.bulk.wait_group.read" in kernel.ptx
    plain = tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma",
                          "sm_90a", tma_store=False)
    assert [m["operand"] for m in plain.kernels[0]["tensor_maps"]] == \
        ["a", "b"]
    assert "global.shared::cta" not in plain.ptx
    # Only wgmma with TMA stores through a map.
    with pytest.raises(tgemm.CompileError) as info:
        tgemm.compile(example("gemm-f16-f32.mlir"), "ptx", "sm_90",
                      tma_store=True)
    assert "tma_store is a wgmma knob" in str(info.value)
    with pytest.raises(tgemm.CompileError) as info:
        tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma", "sm_90a",
                      tma=False, tma_store=True)
    assert "tma_store needs tma = true" in str(info.value)
    with pytest.raises(TypeError):
        tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma", "sm_90a",
                      tma_store="yes")


S8_ROW_ROW = """
func.func @s8_rr(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
"""


def test_transpose_kernel():
    kernel = tgemm.compile(S8_ROW_ROW, "wgmma", "sm_90a",
                           transpose_kernel=True)
    [k] = kernel.kernels
    # B (stored K x N) is copied N x K by a kernel of the same module,
    # launched first; the GEMM reads the copy by TMA.
    assert k["b"]["layout"] == "row"
    assert k["transposes"] == [{"operand": "b", "kernel": "s8_rr_transpose_b",
                                "tile": [128, 64], "block": [256, 1, 1]}]
    assert ".entry s8_rr_transpose_b(" in kernel.ptx
    # Left out, the selection takes the copy where B is reused across 1024
    # rows of A or more, or M is known only at launch (as here).
    default = tgemm.compile(S8_ROW_ROW, "wgmma", "sm_90a")
    assert default.kernels[0]["transposes"] == k["transposes"]
    few_rows = S8_ROW_ROW.replace("?x?xi8>, %b", "512x4096xi8>, %b").replace(
        "?x?xi32>)", "512x4096xi32>)")
    few_rows = few_rows.replace(
        ": memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>",
        ": memref<512x4096xi8>, memref<?x?xi8>, memref<512x4096xi32>")
    assert "transposes" not in tgemm.compile(few_rows, "wgmma",
                                             "sm_90a").kernels[0]
    staged = tgemm.compile(S8_ROW_ROW, "wgmma", "sm_90a",
                           transpose_kernel=False)
    assert "transposes" not in staged.kernels[0]
    assert "_transpose_b" not in staged.ptx
    # Every family serves an MN-major 8-bit operand through the same copy
    # kernel, by default where it is reused enough; ptx in place with
    # transpose_kernel=False (ldmatrix.trans and prmt).
    ptx = tgemm.compile(S8_ROW_ROW, "ptx", "sm_90", transpose_kernel=True)
    assert ptx.kernels[0]["transposes"] == k["transposes"]
    assert ".entry s8_rr_transpose_b(" in ptx.ptx
    assert tgemm.compile(S8_ROW_ROW, "ptx", "sm_90").kernels[0][
        "transposes"] == k["transposes"]
    assert "transposes" not in tgemm.compile(
        S8_ROW_ROW, "ptx", "sm_90", transpose_kernel=False).kernels[0]
    with pytest.raises(TypeError):
        tgemm.compile(S8_ROW_ROW, "wgmma", "sm_90a", transpose_kernel=1)


F16_ODD_K = """
func.func @f16_odd(%a: memref<2048x999xf16>, %b: memref<2048x999xf16>,
                   %c: memref<2048x2048xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<2048x999xf16>, memref<2048x999xf16>, memref<2048x2048xf32>
  return
}
"""


def test_align_kernel():
    # K = 999: rows of 1998 bytes, 2-byte aligned. By default each operand
    # is copied as stored with rows of 1000 elements by a kernel of the
    # same module, launched first; the GEMM reads the copies by TMA.
    for lowering, chip in (("wgmma", "sm_90a"), ("ptx", "sm_80")):
        kernel = tgemm.compile(F16_ODD_K, lowering, chip)
        [k] = kernel.kernels
        assert k["aligned_copies"] == [
            {"operand": operand, "kernel": "f16_odd_align_" + operand,
             "tile": [16, 256], "block": [256, 1, 1]}
            for operand in ("a", "b")]
        assert ".entry f16_odd_align_a(" in kernel.ptx
        assert "transposes" not in k
        off = tgemm.compile(F16_ODD_K, lowering, chip, align_kernel=False)
        assert "aligned_copies" not in off.kernels[0]
        assert "_align_a" not in off.ptx
    with pytest.raises(TypeError):
        tgemm.compile(F16_ODD_K, "wgmma", "sm_90a", align_kernel="yes")
