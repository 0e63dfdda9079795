"""The precisions the study sweeps, the instruction families that compute
them, the instruction ceilings and datasheet peaks it compares against, and
the default tile configs (the GPU suite's, wgmma's)."""
import collections
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# name: the study's name for an (A, B, accumulator, C) combination;
# a, b, acc, c: element types as the manifest and tgemm-run's CSV spell them;
# mlir_*: the same types in tgemm.matmul; bits: A's and B's element width;
# label: for tables and plots.
Precision = collections.namedtuple(
    "Precision", "name a b acc c mlir_a mlir_b mlir_acc mlir_c bits label")

PRECISIONS = [
    Precision("f16-f32", "f16", "f16", "f32", "f32",
              "f16", "f16", "f32", "f32", 16, "f16→f32"),
    Precision("f16-f16", "f16", "f16", "f16", "f16",
              "f16", "f16", "f16", "f16", 16, "f16→f16"),
    # C in bf16, as in scripts/gpu-suite.sh.
    Precision("bf16-f32", "bf16", "bf16", "f32", "bf16",
              "bf16", "bf16", "f32", "bf16", 16, "bf16→f32 (bf16 C)"),
    Precision("tf32-f32", "tf32", "tf32", "f32", "f32",
              "f32", "f32", "f32", "f32", 32, "tf32→f32"),
    Precision("s8-s32", "s8", "s8", "s32", "s32",
              "i8", "i8", "i32", "i32", 8, "s8→s32"),
    Precision("u8-s32", "u8", "u8", "s32", "s32",
              "ui8", "ui8", "i32", "i32", 8, "u8→s32"),
    Precision("s4-s32", "s4", "s4", "s32", "s32",
              "i4", "i4", "i32", "i32", 4, "s4→s32"),
    Precision("e4m3-f32", "e4m3", "e4m3", "f32", "f32",
              "f8E4M3FN", "f8E4M3FN", "f32", "f32", 8, "e4m3→f32"),
    Precision("e5m2-f32", "e5m2", "e5m2", "f32", "f32",
              "f8E5M2", "f8E5M2", "f32", "f32", 8, "e5m2→f32"),
]
BY_NAME = {p.name: p for p in PRECISIONS}
# The instruction families (the study's): the WMMA API, hand-written PTX
# (cp.async, ldmatrix, mma.sync), and Hopper's TMA + mbarriers +
# wgmma.mma_async.
FAMILIES = ("wmma", "ptx", "wgmma")
# The families scripts/tune.py tunes by default (its --lowerings): wgmma is
# tuned on request (--lowerings ptx,wgmma, docs/tuning.md), since a third
# family in the same GPU-time budget would cut every family's candidates
# by a third.
LOWERINGS = ("wmma", "ptx")
# wgmma is an architecture-specific instruction: its kernels compile for
# sm_90a (the PTX runs on any sm_90 GPU, the H200); the others for the
# GPU's chip.
WGMMA_CHIP = "sm_90a"


def by_types(a, b, acc, c):
    """The precision of a CSV row or database entry, or None."""
    for p in PRECISIONS:
        if (p.a, p.b, p.acc, p.c) == (a, b, acc, c):
            return p
    return None


def has_lowering(precision, lowering):
    """WMMA has no fp8 instruction, wgmma no 4-bit one."""
    if lowering == "wmma":
        return precision.a not in ("e4m3", "e5m2")
    if lowering == "wgmma":
        return precision.bits != 4
    return True


def kernel_chip(lowering, chip):
    """The chip that a lowering's kernels compile for on the GPU `chip`."""
    return WGMMA_CHIP if lowering == "wgmma" else chip


def database_chip(chip):
    """The chip whose tuned database entries a kernel compiled for `chip`
    belongs to: sm_90a is sm_90 with more instructions, and the compiler's
    `config auto` looks sm_90a's configs up among sm_90's entries
    (lib/Transforms/SelectConfig.cpp)."""
    return chip.rstrip("a")


def select(only):
    """The precisions named in a comma-separated list (all when empty)."""
    if not only:
        return list(PRECISIONS)
    names = [n for n in only.split(",") if n]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise SystemExit("unknown precision %s; known: %s" % (
            ", ".join(unknown), " ".join(p.name for p in PRECISIONS)))
    return [p for p in PRECISIONS if p.name in names]


# Tensor-core issue ceilings on the H200 (sm_90), TFLOP/s or TOP/s, as
# docs/study/ceilings.md gives them (the instruction alone, registers only,
# 32 warps per SM). Each value is the highest rate measured for the
# instruction: the fixed-operand rate where it is valid; for e4m3 (fixed
# operands are merged by ptxas) and s4, the varying-operand maximum. u8 and
# e5m2 were not measured: u8 takes s8's value (the same IMMA.16832 pipe)
# and e5m2 e4m3's (the same emulation through HMMA.16816). WMMA has no
# fp8, and its s4 shape was not measured.
CEILINGS = {
    # precision: (mma.sync, wmma)
    "f16-f32": (644.0, 430.0),
    "f16-f16": (646.0, 643.0),
    "bf16-f32": (644.0, 431.0),
    "tf32-f32": (322.0, 241.0),
    "s8-s32": (1290.0, 967.0),
    "u8-s32": (1290.0, 967.0),
    "s4-s32": (46.0, None),
    "e4m3-f32": (403.0, None),
    "e5m2-f32": (403.0, None),
}
CEILING_NOTES = {
    "u8-s32": "u8 not measured: s8's ceilings",
    "s4-s32": "mma.sync s4 is emulated on sm_90 (unpack + IMMA s8)",
    "e4m3-f32": "mma.sync e4m3 is emulated on sm_90 (unpack + HMMA f16)",
    "e5m2-f32": "e5m2 not measured: e4m3's ceiling (same emulation)",
}


def ceiling(precision_name, lowering):
    """The issue ceiling of the lowering's instruction, or None (wgmma's
    was not measured)."""
    pair = CEILINGS.get(precision_name)
    if pair is None or lowering not in ("ptx", "wmma"):
        return None
    return pair[0] if lowering == "ptx" else pair[1]


# The H200 SXM's dense tensor-core peaks at the boost clock, TFLOP/s or
# TOP/s, from the NVIDIA H200 Tensor Core GPU datasheet (which gives them
# with sparsity, twice these): FP16/BF16 989.5, TF32 494.7, FP8 and INT8
# 1979. The datasheet gives one FP16 rate for both accumulators and no
# 4-bit rate (Hopper's tensor cores have no INT4).
DATASHEET_PEAKS = {
    "f16-f32": 989.5,
    "f16-f16": 989.5,
    "bf16-f32": 989.5,
    "tf32-f32": 494.7,
    "s8-s32": 1979.0,
    "u8-s32": 1979.0,
    "e4m3-f32": 1979.0,
    "e5m2-f32": 1979.0,
}
DATASHEET_NOTE = ("dense tensor-core peaks of the H200 SXM at the boost "
                  "clock, from the NVIDIA H200 Tensor Core GPU datasheet "
                  "(which lists twice these with sparsity; no 4-bit rate)")


def datasheet_peak(precision_name):
    """The chip's dense datasheet peak for the precision, or None."""
    return DATASHEET_PEAKS.get(precision_name)


TileConfig = collections.namedtuple("TileConfig", "block warps stages raster")


def config_tag(config):
    """128x128x32-w2x2-s3-r1, the suite's spelling of a config."""
    return "%s-w%s-s%d-r%d" % ("x".join(map(str, config.block)),
                               "x".join(map(str, config.warps)),
                               config.stages, config.raster)


def parse_config_tag(tag):
    block, warps, stages, raster = tag.split("-")
    return TileConfig(tuple(int(x) for x in block.split("x")),
                      tuple(int(x) for x in warps[1:].split("x")),
                      int(stages[1:]), int(raster[1:]))


def wgmma_default(precision):
    """The wgmma family's default config, as tgemm::defaultConfig(a, b,
    acc, Family::Wgmma) in lib/Target/DefaultConfigs.cpp gives it: two
    consumer warpgroups of 64 x 256 (warps 8 x 1; the kernel adds the
    producer warpgroup), a block K of 128 bytes, 4 stages, raster 8."""
    return TileConfig((128, 256, 128 * 8 // precision.bits), (8, 1), 4, 8)


def suite_defaults():
    """The first config scripts/gpu-suite.sh lists for each precision, from
    its own list (`gpu-suite.sh kernels`, with KERNELS unset)."""
    env = dict(os.environ)
    env.pop("KERNELS", None)
    text = subprocess.run(
        ["bash", os.path.join(REPO, "scripts", "gpu-suite.sh"), "kernels"],
        env=env, check=True, stdout=subprocess.PIPE,
        universal_newlines=True).stdout
    defaults = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        name, block, warps, stages, raster = (fields[0], fields[7], fields[8],
                                              fields[9], fields[10])
        if name in defaults:
            continue
        defaults[name] = TileConfig(
            tuple(int(x) for x in block.split(",")),
            tuple(int(x) for x in warps.split(",")), int(stages), int(raster))
    return defaults
