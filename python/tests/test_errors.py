"""Everything MLIR rejects comes back as tgemm.CompileError carrying the
located diagnostic, never as a crash."""

import random

import pytest

import tgemm
from conftest import find_ptxas, needs_extension, needs_ptxas

pytestmark = needs_extension


def compile_error(*args, **kwargs):
    with pytest.raises(tgemm.CompileError) as info:
        tgemm.compile(*args, **kwargs)
    assert str(info.value) == info.value.diagnostics
    return info.value.diagnostics


def test_syntax_error():
    text = compile_error("func.func @f() {\n  tgemm.matmul\n}\n",
                         source_name="broken.mlir")
    # file:line:col, the message and the source line with a caret.
    assert text.startswith("broken.mlir:2:15: error:")
    assert "  tgemm.matmul\n" in text and "^" in text


def test_verifier_error():
    source = tgemm.matmul_ir(256, 256, 256, config={
        "block": [128, 32, 32], "warps": [2, 4], "stages": 3})
    text = compile_error(source, source_name="tile.mlir")
    assert "tile.mlir:2:3: error: 'tgemm.matmul' op warp tile N" in text


def test_fp8_with_wmma(example):
    text = compile_error(example("gemm-e4m3-f32.mlir"), "wmma", "sm_90",
                         source_name="gemm-e4m3-f32.mlir")
    assert "gemm-e4m3-f32.mlir:5:3: error:" in text
    assert "no wmma instruction for 'f8E4M3FN'" in text


def test_fp8_needs_sm89(example):
    text = compile_error(example("gemm-e5m2-f32.mlir"), "ptx", "sm_80")
    assert "needs sm_89 or newer; the target is sm_80" in text


def test_unknown_chip(example):
    text = compile_error(example("gemm-f16-f32.mlir"), "ptx", "sm_75")
    assert "error: unknown chip 'sm_75'; known chips: sm_80, sm_86, sm_89, " \
        "sm_90" in text


def test_unknown_lowering(example):
    text = compile_error(example("gemm-f16-f32.mlir"), "tensor")
    assert text == ("error: unknown lowering 'tensor'; expected wmma, ptx or "
                    "wgmma")


def test_wgmma_needs_sm90a(example):
    text = compile_error(example("gemm-f16-f32-wgmma.mlir"), "wgmma", "sm_90")
    assert "error: 'tgemm.matmul' op wgmma is an architecture-specific " \
        "instruction: it needs the sm_90a target, not sm_90" in text


@needs_ptxas
def test_wgmma_compiles(example):
    kernel = tgemm.compile(example("gemm-f16-f32-wgmma.mlir"), "wgmma",
                           "sm_90a", emit_cubin=True, ptxas=find_ptxas())
    assert "wgmma.mma_async.sync.aligned.m64n" in kernel.ptx
    assert kernel.manifest["kernels"][0]["lowering"] == "wgmma"
    assert kernel.manifest["kernels"][0]["chip"] == "sm_90a"
    assert kernel.cubin


def test_fastest_family():
    # lowering=None: the chip's fastest family the source is legal for.
    source = tgemm.matmul_ir(None, None, None, a="bf16", c="bf16")
    hopper = tgemm.compile(source, None, "sm_90a")
    assert hopper.lowering == "wgmma"
    assert "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" in hopper.ptx
    assert tgemm.compile(source, None, "sm_90").lowering == "ptx"
    # s4 has no wgmma: ptx on sm_90a too.
    s4 = tgemm.matmul_ir(None, None, None, a="s4")
    assert tgemm.compile(s4, None, "sm_90a").lowering == "ptx"
    with pytest.raises(TypeError, match="lowering must be a str or None"):
        tgemm.compile(source, 3, "sm_90a")


def test_wgmma_schedule_switches(example):
    source = example("gemm-f16-f32-wgmma.mlir")
    # The family's default: a producer warpgroup copying with TMA.
    default = tgemm.compile(source, "wgmma", "sm_90a")
    assert "cp.async.bulk.tensor.3d" in default.ptx
    kernel = default.manifest["kernels"][0]
    assert kernel["block"] == [384, 1, 1]
    assert [m["operand"] for m in kernel["tensor_maps"]] == ["a", "b"]
    # Each switch alone: cp.async from the producer, or every warp copying.
    copies = tgemm.compile(source, "wgmma", "sm_90a", tma=False)
    assert "cp.async.bulk.tensor" not in copies.ptx
    assert "mbarrier.try_wait.parity" in copies.ptx
    assert "tensor_maps" not in copies.manifest["kernels"][0]
    plain = tgemm.compile(source, "wgmma", "sm_90a", warp_specialize=False,
                          tma=False)
    assert "mbarrier" not in plain.ptx
    assert plain.manifest["kernels"][0]["block"] == [256, 1, 1]
    assert "setmaxnreg needs tma = true" in compile_error(
        source, "wgmma", "sm_90a", tma=False, setmaxnreg=True)


def test_bad_options(example):
    source = example("gemm-f16-f32.mlir")
    assert "unknown swizzle 'zigzag'" in compile_error(source,
                                                       swizzle="zigzag")
    assert "padding (3) must be a multiple of 16 bytes between 0 and 256" in \
        compile_error(source, "wmma", padding=3)
    assert "stages (9) must be between 1 and 8" in compile_error(source,
                                                                 stages=9)
    assert "optimization level 7" in compile_error(source, opt_level=7)
    with pytest.raises(TypeError):
        tgemm.compile(source, stages="3")


def test_no_matmul():
    text = compile_error("func.func @f() {\n  return\n}\n")
    assert "no tgemm kernel launch" in text


def test_not_mlir():
    compile_error("\x00\xff garbage")
    compile_error("")


def test_missing_ptxas(example):
    text = compile_error(example("gemm-f16-f32.mlir"), emit_cubin=True,
                         ptxas="/nonexistent/ptxas")
    assert "ptxas failed on module 'gemm_f16_f32_module'" in text


def test_error_does_not_poison_later_compiles(example):
    compile_error("func.func @f(")
    assert tgemm.compile(example("gemm-f16-f32.mlir")).ptx


def test_mutated_sources(example):
    # Like test/Tools/mutate.py for tgemm-opt: mechanically broken examples
    # either compile or raise CompileError; the process survives.
    source = example("gemm-f16-dynamic-epilogue.mlir")
    tokens = source.split(" ")
    rng = random.Random(7)
    outcomes = {"compiled": 0, "rejected": 0}
    for _ in range(40):
        mutated = list(tokens)
        i = rng.randrange(len(mutated))
        choice = rng.randrange(4)
        if choice == 0:
            del mutated[i]
        elif choice == 1:
            mutated.insert(i, mutated[rng.randrange(len(mutated))])
        elif choice == 2:
            mutated[i] = str(rng.choice([0, 1, 3, 7, 64, 4096, -1, 2**40]))
        else:
            mutated = mutated[:i]
        try:
            tgemm.compile(" ".join(mutated), "ptx", "sm_90")
            outcomes["compiled"] += 1
        except tgemm.CompileError as error:
            assert "error" in error.diagnostics
            outcomes["rejected"] += 1
    assert outcomes["rejected"] > 0
