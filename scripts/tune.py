#!/usr/bin/env python3
"""The autotuner: tile configs per precision, lowering and shape class,
measured on the GPU, the fastest checked one written to the config database
that the compiler's `config auto` and scripts/study.py read.

  scripts/tune.py prepare [DIR]   here (LLVM/MLIR, no GPU): enumerate
                                  candidate configs, prune (the compiler's
                                  legality module, through the Python
                                  extension, and the accumulator's
                                  registers; then what spills more than
                                  MAX_SPILL_BYTES by ptxas), keep the best by a
                                  heuristic up to a GPU-time budget, compile
                                  them under DIR (default build/tune), write
                                  DIR/plan.txt and DIR/candidates.csv
  scripts/tune.py run [DIR]       on the GPU host: like `study.py run`, into
                                  DIR/tune.csv
  scripts/tune.py pick CSV [--out configs/h200.json]
                                  the fastest checked config per (chip,
                                  lowering, types, shape) -> the database

Candidates: block tiles BM, BN in {64, 128, 256} and BK in {16, 32, 64, 128}
elements of a 16-bit type (the same bytes for other widths: 8 to 64 for
tf32, 32 to 256 for 8-bit, 64 to 512 for 4-bit types), 4 or 8 warps
(WM x WN), 2 to 5 stages, at raster 1 and (ptx) the xor layout; raster 8
and the pad layout as variants of the best two (--extras). The suite's
default config is always a candidate. wgmma (compiled and checked for
sm_90a, whatever --chip says) takes BN in {64, 128, 192, 256} and 2 to 6
stages over the same BM, BK and warps, of which the legality module keeps
the warpgroup tiles (warps [4, 1] or [8, 1], BM 16 x WM, BK 128 bytes):
36 per precision; its default config (gemmbench.precisions.wgmma_default)
is always a candidate. Shape classes: square-large (4096^3), llm
(4096x11008x4096), skinny (128x4096x4096), decode (16x4096x4096), odd
(1000^3) and deep-k (512x512x16384). A class whose M is below 64 (decode)
also tries block M 16 and 32, the mma.sync decode tiles. Where a
candidate's tiles leave more than half of the SMs idle (the compiler's
rule for splitting K, tgemm::chooseSplitK), split_k in {1, 2, 4, 8, 16} is
a further axis, as deep as leaves each part 4 granules of K; a split
candidate is checked by tgemm-opt at the class's shape, kernels and plan
lines carry the split (-k4 in the kernel's name, a split_k column), and
`pick` writes it into the entry's config.

The whole plan is sized to fit --budget-s of GPU-host time (18 minutes of
the 20 a re-tune may take) by the estimate of gemmbench/plan.py; `run`
takes --max-seconds and --resume to split it into shorter calls.
"""
import argparse
import collections
import itertools
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from gemmbench import configdb, results
from gemmbench.kernels import (Kernel, compile_many, default_jobs,
                               find_tools, require_tools)
from gemmbench.plan import (PlanLine, estimate_seconds,
                            shape_text, write_plan)
from gemmbench.precisions import (FAMILIES, LOWERINGS, PRECISIONS, REPO,
                                  WGMMA_CHIP, TileConfig, by_types,
                                  config_tag, database_chip, has_lowering,
                                  kernel_chip, select, suite_defaults,
                                  wgmma_default)
from gemmbench.runner import run_directory

CLASSES = collections.OrderedDict([
    ("square-large", (4096, 4096, 4096)),
    ("llm", (4096, 11008, 4096)),
    ("skinny", (128, 4096, 4096)),
    # The shapes of bench/README.md's "Shape classes in the tuned
    # database": a decode step, a small cube off the tile multiples, and a
    # deep K of few tiles (split K's case).
    ("decode", (16, 4096, 4096)),
    ("odd", (1000, 1000, 1000)),
    ("deep-k", (512, 512, 16384)),
])
BLOCK_MN = (64, 128, 256)
# Block M of the mma.sync decode tiles (configs/h200.json's ptx entries at
# 16 and 32 x 4096 x 4096: [16, 64, BK] and [32, 64, BK], warps [1, 4]),
# tried besides BLOCK_MN for a class whose M is below BLOCK_MN's smallest.
DECODE_BLOCK_M = (16, 32)
BK_BYTES = (32, 64, 128, 256)  # BK 16..128 for 16-bit types
WARPS = ((1, 4), (2, 2), (4, 1), (1, 8), (2, 4), (4, 2), (8, 1))
STAGES = (2, 3, 4, 5)
# wgmma: one instruction covers the block tile N (the legality module's
# `warpgroup` rule), and the TMA producer keeps deeper pipelines fed; the
# other axes are the ones above, whose warpgroup tiles the legality module
# keeps (warps [4k, 1], BM = 16 x WM, BK = 128 bytes).
WGMMA_BN = (64, 128, 192, 256)
WGMMA_STAGES = (2, 3, 4, 5, 6)
TAGS = ["precision", "lowering", "shape_class", "block", "warps", "stages",
        "raster", "split_k", "swizzle"]
NO_SWIZZLE = "-"  # the swizzle tag of wmma and wgmma kernels
# The whole re-tune must fit 20 minutes of GPU-host time; the plan aims at
# 18 to leave room for the estimate's error.
BUDGET_S = 1080

# sm_90 (H200) limits for the heuristic (the compiler checks the block's).
SMS = 132
SMEM_PER_SM = 233472
REGS_PER_SM = 65536
THREADS_PER_SM = 2048
BLOCKS_PER_SM = 32
# The accumulator takes this many of a thread's 255 registers at most;
# more spills (ptx f16 128x128 with 2x2 warps: 128 accumulator registers,
# 240 in all).
MAX_ACC_REGS = 128
# Spills (bytes per thread, stores or loads) a candidate may have and still
# run: the ptx kernels of 8-warp blocks, which carry the next stage's
# fragments across the barrier, spill 4-24 bytes at 255 registers and
# measured faster than every spill-free tile (bench/README.md, "Fragments
# carried across the barrier"); anything heavier is pruned.
MAX_SPILL_BYTES = 32
# Registers besides the accumulator (fragments, addresses), a guess for
# occupancy.
OTHER_REGS = 96
# wgmma: the producer warpgroup the block adds to its consumer warps, and
# the registers a consumer needs beside its accumulator (descriptors, the
# loop's state: the compiler's kWgmmaRegisterHeadroom).
PRODUCER_THREADS = 128
WGMMA_OTHER_REGS = 40
# Bytes of operand tiles in flight per SM that cover HBM latency, roughly
# (bandwidth per SM x latency).
INFLIGHT_BYTES = 64 * 1024
# Split K. The compiler splits a static problem whose tiles fill less than
# half of the SMs (tgemm::chooseSplitK, lib/Target/DefaultConfigs.cpp):
# its parts start on granules of tgemm::kSplitKGranule (256) elements of K,
# or of the block K where that does not divide 256 (tgemm::splitKGranule),
# and each keeps at least 4 of them; at most 16 parts. Where a candidate's
# tiles leave that many SMs idle, the tuner measures each of SPLIT_K that
# keeps the 4 granules per part, rather than the rule's one choice.
SPLIT_K = (1, 2, 4, 8, 16)
SPLIT_K_GRANULE = 256
SPLIT_K_MIN_GRANULES = 4


# split_k: the parts K is split into (the config's split_k; 1: none).
Candidate = collections.namedtuple("Candidate", "config swizzle split_k",
                                   defaults=(1,))


def bk_values(precision):
    return tuple(b * 8 // precision.bits for b in BK_BYTES)


def default_swizzle(lowering):
    """The layout a lowering's candidates start from: xor for ptx; wmma's
    and wgmma's kernels have no swizzle option."""
    return "xor" if lowering == "ptx" else NO_SWIZZLE


def tile_axes(precision, lowering, block_m=BLOCK_MN):
    """The values enumerate_tiles() combines: block M (`block_m`), block
    N, block K, warps, stages."""
    if lowering == "wgmma":
        return block_m, WGMMA_BN, bk_values(precision), WARPS, WGMMA_STAGES
    return block_m, BLOCK_MN, bk_values(precision), WARPS, STAGES


def block_m_values(shape):
    """The block M a shape class tries: BLOCK_MN, and below it the decode
    tiles' DECODE_BLOCK_M where the class's M is smaller than every
    BLOCK_MN (wgmma's legality module keeps none of those: its block M is
    16 x warps M, 64 or 128)."""
    if shape[0] < min(BLOCK_MN):
        return tuple(sorted(set(DECODE_BLOCK_M) | set(BLOCK_MN)))
    return BLOCK_MN


def split_values(config, shape):
    """The split_k values a tile is measured with at `shape`: (1,) where
    its tiles fill half of the SMs or more (chooseSplitK's condition: the
    compiler would not split), else each of SPLIT_K that leaves every part
    SPLIT_K_MIN_GRANULES granules of K."""
    m, n, k = shape
    bm, bn, bk = config.block
    tiles = -(-m // bm) * -(-n // bn)
    if 2 * tiles >= SMS:
        return (1,)
    granule = SPLIT_K_GRANULE if SPLIT_K_GRANULE % bk == 0 else bk
    granules = -(-k // granule)
    return tuple(s for s in SPLIT_K
                 if s == 1 or s * SPLIT_K_MIN_GRANULES <= granules)


def split_tag(config, split_k):
    """config_tag(), with the parts of a split K after it:
    64x64x128-w2x2-s4-r1-k8 (an unsplit config's tag is config_tag's)."""
    tag = config_tag(config)
    return tag if split_k == 1 else "%s-k%d" % (tag, split_k)


_LEGALITY = {}


def load_legality(tgemm_opt, chip):
    """The legality module (tgemm::checkForTarget and the shared-memory
    plan), through the Python extension built beside `tgemm_opt`
    (BUILD/bin/tgemm-opt -> BUILD/python), for the GPU `chip` (each
    lowering's kernels are checked for kernel_chip(lowering, chip)); split
    candidates through `tgemm_opt` itself (check_splits)."""
    _LEGALITY["chip"] = chip
    _LEGALITY["opt"] = tgemm_opt
    if "check" not in _LEGALITY:
        build = os.path.dirname(os.path.dirname(os.path.abspath(tgemm_opt)))
        sys.path.insert(0, os.path.join(build, "python"))
        try:
            import tgemm
            _LEGALITY["check"] = tgemm.compiler.extension().check_config
        except ImportError as error:
            raise SystemExit("tune.py asks tgemm's legality module through "
                             "the Python extension: %s" % error)
    return _LEGALITY["check"]


def legality(precision, lowering, config, swizzle):
    """The compiler's verdict on a candidate (dynamic sizes, A row-major, B
    column-major, on the chip the lowering's kernels compile for:
    kernel_chip(lowering, the GPU's chip), sm_90a for wgmma): {rule,
    message, shared_memory}, cached."""
    check = _LEGALITY.get("check")
    if check is None:
        raise SystemExit("tune.py: load_legality() first")
    chip = kernel_chip(lowering, _LEGALITY["chip"])
    key = (precision.name, lowering, config, swizzle, chip)
    if key not in _LEGALITY:
        _LEGALITY[key] = check(
            precision.a, precision.b, precision.acc, precision.c, True, False,
            None, None, None, list(config.block), list(config.warps),
            config.stages, config.raster, chip, lowering,
            None if swizzle == NO_SWIZZLE else swizzle)
    return _LEGALITY[key]


def check_splits(precision, lowering, candidates, shape):
    """The compiler's verdict on split candidates (split_k > 1, the default
    layout) at the class's static `shape`, A row-major and B column-major,
    on kernel_chip(lowering, the GPU's chip): {candidate: None, or the
    first error}. The extension's check_config takes no split_k, so
    tgemm-opt checks a module of one tgemm.matmul per candidate as the
    pipeline does: the verifier (split K's granules and grid), then
    tgemm-select-config's schedule for a config given (the family's
    default, less what a split excludes: persistent, cluster, tma_store),
    then tgemm-check-target. A module the verifier refuses runs no pass,
    so what it refuses is taken out and the rest checked again."""
    opt = _LEGALITY.get("opt")
    if opt is None:
        raise SystemExit("tune.py: load_legality() first")
    chip = kernel_chip(lowering, _LEGALITY["chip"])
    m, n, k = shape
    p = precision
    types = "memref<%dx%dx%s>, memref<%dx%dx%s>, memref<%dx%dx%s>" % (
        m, k, p.mlir_a, n, k, p.mlir_b, m, n, p.mlir_c)
    verdicts = {}
    left = [c for c in candidates if c.split_k > 1]
    while left:
        text, at_line = [], {}
        for i, c in enumerate(left):
            cfg = c.config
            text.append("func.func @split_%d(%%a: memref<%dx%dx%s>, "
                        "%%b: memref<%dx%dx%s>, %%c: memref<%dx%dx%s>) {" % (
                            i, m, k, p.mlir_a, n, k, p.mlir_b, m, n,
                            p.mlir_c))
            at_line[len(text) + 1] = c
            text += ["  tgemm.matmul %%a, %%b, %%c layout(row, col) acc(%s)"
                     % p.mlir_acc,
                     "      config(<block = [%s], warps = [%s], stages = %d, "
                     "raster = %d, split_k = %d>)" % (
                         ", ".join(map(str, cfg.block)),
                         ", ".join(map(str, cfg.warps)), cfg.stages,
                         cfg.raster, c.split_k),
                     "      : " + types, "  return", "}"]
        with tempfile.TemporaryDirectory(prefix="tgemm-split-") as tmp:
            source = os.path.join(tmp, "splits.mlir")
            with open(source, "w") as f:
                f.write("\n".join(text) + "\n")
            step = subprocess.run(
                [opt, source, "--tgemm-attach-target=chip=%s family=%s" % (
                    chip, lowering), "--tgemm-select-config",
                 "--tgemm-check-target", "-o", os.devnull],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                universal_newlines=True)
        if step.returncode == 0:
            verdicts.update((c, None) for c in left)
            break
        refused = {}
        for line in step.stderr.splitlines():
            found = re.match(r".*?:(\d+):\d+: error: (.*)$", line)
            if found and int(found.group(1)) in at_line:
                refused.setdefault(at_line[int(found.group(1))],
                                   found.group(2))
        if not refused:
            raise SystemExit("tgemm-opt failed on the split candidates of "
                             "%s %s: %s" % (p.name, lowering,
                                            step.stderr.strip()))
        verdicts.update(refused)
        left = [c for c in left if c not in refused]
    return verdicts


def ring_bytes(precision, config, swizzle, lowering):
    """The kernel's dynamic shared memory as the compiler plans it (rings,
    padding and epilogue scratch): what the manifest will say. Only for a
    candidate that prune() keeps: the legality module plans no shared
    memory for a config that an earlier rule rejects."""
    verdict = legality(precision, lowering, config, swizzle)
    if verdict["rule"] is not None:
        raise ValueError("tune.py: %s %s %s is illegal (%s: %s); prune() "
                         "drops it before it is scored" % (
                             precision.name, lowering, config_tag(config),
                             verdict["rule"], verdict["message"]))
    return verdict["shared_memory"]


def acc_regs(precision, config):
    bm, bn, _ = config.block
    wm, wn = config.warps
    acc_bytes = 2 if precision.acc == "f16" else 4
    return (bm // wm) * (bn // wn) * acc_bytes // (4 * 32)


def block_threads(lowering, config):
    """A block's threads: its warps, and for wgmma the producer warpgroup
    besides the consumer warps."""
    threads = 32 * config.warps[0] * config.warps[1]
    return threads + PRODUCER_THREADS if lowering == "wgmma" else threads


def prune(precision, lowering, config, swizzle):
    """Why a candidate is not worth compiling: None, 'registers' (wmma,
    ptx: the accumulator alone needs more than MAX_ACC_REGS per thread,
    which spills), or the name of the legality rule the compiler would
    reject it by ('shared-memory', 'warp-tile', 'warpgroup', ...; wgmma's
    accumulator budget is the legality module's own 'registers' rule)."""
    if lowering != "wgmma" and acc_regs(precision, config) > MAX_ACC_REGS:
        return "registers"
    return legality(precision, lowering, config, swizzle)["rule"]


def score(precision, lowering, config, swizzle, shape, split_k=1):
    """How much of the chip a config should use at `shape`: the fraction of
    resident block slots busy over the waves (a tile's `split_k` parts are
    blocks of their own), times the fraction of the tiles' area inside the
    matrix, times how well the stages in flight cover memory latency,
    times operand reuse of the warp and block tiles (saturating at 64x64
    warp tiles and 128x128 block tiles; for wgmma, whose warpgroups read
    both operands from shared memory, the warpgroup's 64-row tile stands
    for the warp tile), times, for a split K, the share of a block's
    memory traffic that is operands rather than its part of the
    accumulators (stored, and read back by the reducing block). Only
    orders candidates; the GPU decides. `config` must pass prune()."""
    m, n, k = shape
    bm, bn, bk = config.block
    wm, wn = config.warps
    threads = block_threads(lowering, config)
    others = WGMMA_OTHER_REGS if lowering == "wgmma" else OTHER_REGS
    regs = min(255, acc_regs(precision, config) + others)
    regs = (regs + 7) // 8 * 8
    smem = ring_bytes(precision, config, swizzle, lowering)
    per_sm = min(SMEM_PER_SM // (smem + 1024), THREADS_PER_SM // threads,
                 REGS_PER_SM // (threads * regs), BLOCKS_PER_SM)
    if per_sm < 1:
        return 0.0
    tiles_m, tiles_n = -(-m // bm), -(-n // bn)
    tiles = tiles_m * tiles_n * split_k
    slots = SMS * per_sm
    waves = -(-tiles // slots)
    utilization = float(tiles) / (waves * slots)
    inside = float(m * n) / (tiles_m * bm * tiles_n * bn)
    resident = min(per_sm, -(-tiles // SMS))
    inflight = resident * (config.stages - 1) * (bm + bn) * bk * \
        precision.bits / 8.0
    cover = min(1.0, inflight / INFLIGHT_BYTES)
    if lowering == "wgmma":
        warp_m, warp_n = bm // max(1, wm // 4), bn // wn
    else:
        warp_m, warp_n = bm // wm, bn // wn
    warp_reuse = min(1.0, warp_m * warp_n / float(warp_m + warp_n) / 32.0)
    block_reuse = min(1.0, bm * bn / float(bm + bn) / 64.0)
    reduce = 1.0
    if split_k > 1:
        operands = (bm + bn) * (k / float(split_k)) * precision.bits / 8.0
        parts = 2.0 * bm * bn * (2 if precision.acc == "f16" else 4)
        reduce = operands / (operands + parts)
    return utilization * inside * cover * reduce * \
        math.sqrt(warp_reuse * block_reuse)


def enumerate_tiles(precision, lowering, pruned, block_m=BLOCK_MN):
    """Every (block, warps, stages) of tile_axes() (block M in `block_m`)
    at raster 1 and the default layout that passes prune(); counts the
    others in `pruned` by reason."""
    swizzle = default_swizzle(lowering)
    block_m, block_n, block_k, warps_values, stages_values = tile_axes(
        precision, lowering, block_m)
    out = []
    for bm in block_m:
        for bn in block_n:
            for bk in block_k:
                for warps in warps_values:
                    for stages in stages_values:
                        config = TileConfig((bm, bn, bk), warps, stages, 1)
                        why = prune(precision, lowering, config, swizzle)
                        if why:
                            pruned[why] += 1
                            continue
                        out.append(Candidate(config, swizzle))
    return out


def class_candidates(precision, lowering, tiles, shape, refused):
    """A shape class's candidates from enumerate_tiles()'s `tiles`: those
    of its block_m_values(), each at every split_values() that tgemm-opt
    accepts at `shape` (check_splits; the message of each it refuses is
    appended to `refused`)."""
    block_m = block_m_values(shape)
    out = [Candidate(t.config, t.swizzle, s)
           for t in tiles if t.config.block[0] in block_m
           for s in split_values(t.config, shape)]
    verdicts = check_splits(precision, lowering, out, shape)
    refused.extend(why for why in verdicts.values() if why)
    return [c for c in out if not verdicts.get(c)]


def depth(lowering, config):
    """What rank() varies within a block tile family: block K, or for
    wgmma (whose block K is fixed at 128 bytes) the stages."""
    return config.stages if lowering == "wgmma" else config.block[2]


def rank(precision, lowering, tiles, shape, cap, extras, seeds=()):
    """The candidates for one shape class in the order to try them: the
    seeds (the family's default config) that prune() keeps first, then by
    score (ties: less shared memory first), at most two per (block M, N,
    warps, split_k), with different depth(), until every such family had
    its turn. Where K is split, tiles that fill half of the SMs unsplit and
    split candidates take turns (the score's waves favour the splits), and
    unsplit tiles that the compiler would split (split_values() gives them
    more than 1: `config auto` gives such an entry the rule's split)
    follow them. Raster 8 (and, for ptx, pad) variants of the two that
    score best take up to a quarter of `cap`; the rest follow, to replace
    what the compiler rejects. Every candidate scored has passed prune():
    `tiles` come from enumerate_tiles() (class_candidates())."""
    seeds = [s for s in seeds
             if not prune(precision, lowering, s.config, s.swizzle)]

    def key(c):
        return (-round(score(precision, lowering, c.config, c.swizzle,
                             shape, c.split_k), 3),
                ring_bytes(precision, c.config, c.swizzle, lowering),
                c.config.block, c.config.warps, c.config.stages, c.split_k)

    def stream(c):
        if c in seeds:
            return "seed"
        if c.split_k > 1:
            return "split"
        return "whole" if len(split_values(c.config, shape)) == 1 \
            else "unsplit"
    ordered = list(seeds)
    for name in ("whole", "split", "unsplit"):
        ordered += sorted((c for c in tiles if stream(c) == name), key=key)
    first, rest = [], []
    per_family, seen = collections.Counter(), set()
    for c in ordered:
        family = (c.config.block[:2], c.config.warps, c.split_k)
        axis = depth(lowering, c.config)
        if per_family[family] < 2 and (family, axis) not in seen:
            first.append(c)
            per_family[family] += 1
            seen.add((family, axis))
        else:
            rest.append(c)
    turns = {name: [c for c in first if stream(c) == name]
             for name in ("seed", "whole", "split", "unsplit")}
    first = turns["seed"] + [
        c for pair in itertools.zip_longest(turns["whole"], turns["split"])
        for c in pair if c is not None] + turns["unsplit"]
    ordered = first + rest
    variants = []
    for c in sorted(first, key=key)[:2]:
        if "raster" in extras and c.config.raster != 8:
            variants.append(c._replace(config=c.config._replace(raster=8)))
        if "pad" in extras and lowering == "ptx" and c.swizzle != "pad":
            variants.append(c._replace(swizzle="pad"))
    variants = [v for v in variants if v not in ordered[:cap]][:cap // 4]
    head = cap - len(variants)
    tail = [c for c in ordered[head:] if c not in variants]
    return ordered[:head] + variants + tail


class SplitKernel(collections.namedtuple(
        "SplitKernel", "precision lowering config options split_k")):
    """A Kernel whose config splits K into `split_k` parts (more than 1),
    which gemmbench's Kernel and TileConfig do not say: its stem and
    function name carry split_tag() (ptx-f16-f32-64x64x128-w2x2-s4-r1-k8),
    its source `split_k = N` in the config."""

    def unsplit(self):
        return Kernel(self.precision, self.lowering, self.config,
                      self.options)

    def option_string(self):
        return self.unsplit().option_string()

    def stem(self):
        parts = [self.lowering, self.precision.name,
                 split_tag(self.config, self.split_k)]
        parts += ["%s-%s" % kv for kv in self.options]
        return "-".join(parts)

    def function_name(self):
        return (self.precision.name + "_" +
                split_tag(self.config, self.split_k)).replace("-", "_")

    def source(self):
        base = self.unsplit()
        text = base.source()
        raster = "raster = %d>" % self.config.raster
        for old, new in (
                ("@%s(" % base.function_name(),
                 "@%s(" % self.function_name()),
                (raster, "raster = %d, split_k = %d>" % (
                    self.config.raster, self.split_k))):
            if text.count(old) != 1:
                raise ValueError("tune.py: %r not once in the kernel's "
                                 "source" % old)
            text = text.replace(old, new)
        return text


def kernel_of(precision, lowering, candidate):
    options = ()
    if lowering == "ptx" and candidate.swizzle != "xor":
        options = (("swizzle", candidate.swizzle),)
    if candidate.split_k > 1:
        return SplitKernel(precision, lowering, candidate.config, options,
                           candidate.split_k)
    return Kernel(precision, lowering, candidate.config, options)


def kernel_split(kernel):
    """The parts a kernel of kernel_of() splits K into."""
    return getattr(kernel, "split_k", 1)


def heavier(a, b):
    """Whether candidate `a` should need at least the registers of `b`: a
    warp tile and a BK at least as large, at least as many stages, raster
    8 if b has it, split K if b has it (the reduction takes registers of
    its own), and the same layout."""
    (am, an, ak), (bm, bn, bk) = a.config.block, b.config.block
    awm, awn = a.config.warps
    bwm, bwn = b.config.warps
    return (am // awm >= bm // bwm and an // awn >= bn // bwn and ak >= bk and
            a.config.stages >= b.config.stages and
            a.config.raster >= b.config.raster and
            (a.split_k > 1) >= (b.split_k > 1) and a.swizzle == b.swizzle)


def compile_progress(done, total, job, result):
    """One line per finished compile of a batch, so that a long prepare
    shows where it is."""
    kernel, chip = job[0], job[1]
    print("  [%d/%d] %s for %s: %s" % (done, total, kernel.stem(), chip,
                                      result.get("status", "?")
                                      if isinstance(result, dict) else "done"),
          flush=True)


def choose(precision, lowering, ranked, cap, compiled, records, compile_jobs,
           batch_limit=8):
    """Walks each class's ranked candidates, round-robin over the classes,
    compiling up to `batch_limit` at a time, until each class has `cap`
    that compile within MAX_SPILL_BYTES of spills or has none left. A
    candidate heavier() than one that spilled more is skipped without
    compiling. `compiled` (stem ->
    result) is shared across groups; every compile and skip is appended to
    `records`. Returns {class: [Candidate]}."""
    classes = list(ranked)
    chosen = {c: [] for c in classes}
    position = {c: 0 for c in classes}
    spilled = []
    while True:
        batch, wanted = collections.OrderedDict(), {c: [] for c in classes}
        busy = True
        while busy and len(batch) < batch_limit:
            busy = False
            for c in classes:
                if (len(chosen[c]) + len(wanted[c]) >= cap or
                        position[c] >= len(ranked[c]) or
                        len(batch) >= batch_limit):
                    continue
                busy = True
                candidate = ranked[c][position[c]]
                position[c] += 1
                kernel = kernel_of(precision, lowering, candidate)
                stem = kernel.stem()
                if stem not in compiled and stem not in batch:
                    like = [s for s in spilled if heavier(candidate, s)]
                    if like:
                        compiled[stem] = {
                            "status": "skipped", "registers": None,
                            "spill_stores": None, "spill_loads": None,
                            "smem": None,
                            "message": "at least as heavy as %s, which "
                                       "spills" % kernel_of(
                                           precision, lowering,
                                           like[0]).stem()}
                        records.append((precision, lowering, kernel,
                                        compiled[stem]))
                if stem in compiled:
                    if compiled_ok(compiled[stem]):
                        chosen[c].append(candidate)
                else:
                    wanted[c].append(candidate)
                    batch[stem] = candidate
        if not batch:
            return chosen
        kernels = [kernel_of(precision, lowering, cand)
                   for cand in batch.values()]
        for kernel, cand, result in zip(kernels, batch.values(),
                                        compile_jobs(kernels)):
            compiled[kernel.stem()] = result
            records.append((precision, lowering, kernel, result))
            if result["status"] == "ok" and not compiled_ok(result):
                spilled.append(cand)
        for c in classes:
            for candidate in wanted[c]:
                stem = kernel_of(precision, lowering, candidate).stem()
                if compiled_ok(compiled[stem]) and len(chosen[c]) < cap:
                    chosen[c].append(candidate)


def chips_text(lowerings, chip):
    """'wmma, ptx for sm_90; wgmma for sm_90a': the chip each lowering's
    kernels compile for on the GPU `chip`."""
    groups = collections.OrderedDict()
    for lowering in lowerings:
        groups.setdefault(kernel_chip(lowering, chip), []).append(lowering)
    return "; ".join("%s for %s" % (", ".join(l), c)
                     for c, l in groups.items())


def compiled_ok(result):
    return result["status"] == "ok" and max(
        result["spill_stores"] or 0,
        result["spill_loads"] or 0) <= MAX_SPILL_BYTES


def prepare(args):
    tools = find_tools(args.bin, args.ptxas)
    require_tools(tools)
    load_legality(tools.opt, args.chip)
    if not os.path.exists(tools.ptxas):
        raise SystemExit("%s not found: the spill check needs ptxas "
                         "(--ptxas)" % tools.ptxas)
    precisions = select(args.only)
    lowerings = [l for l in args.lowerings.split(",") if l]
    unknown = [l for l in lowerings if l not in FAMILIES]
    if unknown:
        raise SystemExit("unknown lowering %s; known: %s" % (
            ", ".join(unknown), " ".join(FAMILIES)))
    classes = [c for c in args.classes.split(",") if c]
    for c in classes:
        if c not in CLASSES:
            raise SystemExit("unknown shape class %s; known: %s" % (
                c, " ".join(CLASSES)))
    groups = [(p, l) for p in precisions for l in lowerings
              if has_lowering(p, l)]

    # The candidates per (group, class) that fit the budget.
    per_slot = sum(estimate_seconds(p.name, l, *CLASSES[c])
                   for p, l in groups for c in classes)
    cap = min(args.max_per, int(args.budget_s // per_slot)) if per_slot \
        else args.max_per
    if cap < 1:
        raise SystemExit("a budget of %.0f s buys no candidate (one per "
                         "precision, lowering and class takes %.0f s)" % (
                             args.budget_s, per_slot))
    print("== %d precision x lowering groups x %d shape classes, up to %d "
          "candidates each (--max-per %d, --budget-s %.0f: %.1f s per "
          "candidate slot)" % (len(groups), len(classes), cap, args.max_per,
                              args.budget_s, per_slot))
    compiled_for = chips_text([l for l in lowerings
                               if any(g[1] == l for g in groups)], args.chip)
    print("== compiled and checked: %s" % compiled_for)
    sys.stdout.flush()

    if os.path.isdir(args.dir) and os.listdir(args.dir):
        if not os.path.exists(os.path.join(args.dir, "plan.txt")):
            raise SystemExit("%s exists and has no plan.txt: not removing it"
                             % args.dir)
        shutil.rmtree(args.dir)
    os.makedirs(args.dir, exist_ok=True)

    extras = [e for e in args.extras.split(",") if e]
    defaults = suite_defaults()
    compiled = {}  # kernel stem -> compile result
    lines, records = [], []
    block_m = tuple(sorted({bm for c in classes
                            for bm in block_m_values(CLASSES[c])}))
    for p, lowering in groups:
        pruned, refused = collections.Counter(), []
        tiles = enumerate_tiles(p, lowering, pruned, block_m)
        if lowering == "wgmma":
            seeds = [Candidate(wgmma_default(p), NO_SWIZZLE)]
        else:
            seeds = [Candidate(defaults[p.name], default_swizzle(lowering))] \
                if p.name in defaults else []
        candidates = {c: class_candidates(p, lowering, tiles, CLASSES[c],
                                          refused) for c in classes}
        ranked = {c: rank(p, lowering, candidates[c], CLASSES[c], cap, extras,
                          seeds) for c in classes}
        chosen = choose(p, lowering, ranked, cap, compiled, records,
                        lambda jobs: compile_many(
                            [(k, kernel_chip(k.lowering, args.chip), tools,
                              os.path.join(args.dir, k.stem()))
                             for k in jobs], args.jobs,
                            progress=compile_progress),
                        batch_limit=4 * args.jobs)
        mine = [r for q, l, _, r in records if (q, l) == (p, lowering)]
        print("%-9s %-4s %5d tile configs, %5d pruned (%s), %3d compiled, %3d "
              "rejected or spilling, %3d skipped; %s" % (
                  p.name, lowering, len(tiles) + sum(pruned.values()),
                  sum(pruned.values()),
                  ", ".join("%s %d" % kv for kv in sorted(pruned.items())),
                  sum(1 for r in mine if r["status"] != "skipped"),
                  sum(1 for r in mine if r["status"] != "skipped" and
                      not compiled_ok(r)),
                  sum(1 for r in mine if r["status"] == "skipped"),
                  ", ".join("%s %d" % (c, len(chosen[c])) for c in classes)))
        split = [c for c in classes
                 if any(x.split_k > 1 for x in candidates[c])]
        if split or refused:
            print("%-9s %-4s split K: %s; %d refused by tgemm-opt%s" % (
                p.name, lowering, "; ".join(
                    "%s %d of %d candidates, %d planned" % (
                        c, sum(1 for x in candidates[c] if x.split_k > 1),
                        len(candidates[c]),
                        sum(1 for x in chosen[c] if x.split_k > 1))
                    for c in split) or "none searched",
                len(refused), " (first: %s)" % refused[0] if refused
                else ""))
        sys.stdout.flush()
        for c in classes:
            for candidate in chosen[c]:
                kernel = kernel_of(p, lowering, candidate)
                cfg = candidate.config
                lines.append(PlanLine(
                    kernel.stem() + ".ptx", kernel.stem() + ".json",
                    CLASSES[c][0], CLASSES[c][1], CLASSES[c][2],
                    collections.OrderedDict([
                        ("precision", p.name), ("lowering", lowering),
                        ("shape_class", c),
                        ("block", "x".join(map(str, cfg.block))),
                        ("warps", "x".join(map(str, cfg.warps))),
                        ("stages", cfg.stages), ("raster", cfg.raster),
                        ("split_k", candidate.split_k),
                        ("swizzle", candidate.swizzle)])))

    with open(os.path.join(args.dir, "candidates.csv"), "w") as f:
        f.write("precision,lowering,config,swizzle,chip,status,registers,"
                "spill_stores,spill_loads,dynamic_shared_memory,message\n")
        for p, lowering, kernel, r in records:
            status = r["status"]
            if status == "ok" and not compiled_ok(r):
                status = "spills"
            f.write(",".join([
                p.name, lowering,
                split_tag(kernel.config, kernel_split(kernel)),
                dict(kernel.options).get("swizzle", "xor")
                if lowering == "ptx" else NO_SWIZZLE,
                kernel_chip(lowering, args.chip), status,
                "" if r["registers"] is None else str(r["registers"]),
                "" if r["spill_stores"] is None else str(r["spill_stores"]),
                "" if r["spill_loads"] is None else str(r["spill_loads"]),
                "" if r["smem"] is None else str(r["smem"]),
                '"%s"' % r["message"].replace('"', "'")]) + "\n")
    # Only the planned kernels stay (not those that spill).
    planned = {l.ptx for l in lines} | {l.manifest for l in lines}
    for name in os.listdir(args.dir):
        if name.endswith((".ptx", ".json")) and name not in planned:
            os.remove(os.path.join(args.dir, name))
    estimate = sum(estimate_seconds(l.tags["precision"], l.tags["lowering"],
                                    l.m, l.n, l.k) for l in lines)
    kernels = len({l.ptx for l in lines})
    write_plan(os.path.join(args.dir, "plan.txt"), TAGS, lines, [
        "tgemm tuning plan (scripts/tune.py prepare): %d runs of %d kernels "
        "compiled: %s" % (len(lines), kernels, compiled_for),
        "estimated GPU-host time: %.0f s (tgemm-run --reps 20 --warmup 5 "
        "per line)" % estimate])
    print("== %s/plan.txt: %d runs of %d kernels (%s/candidates.csv: %d "
          "compiled, %d skipped)" % (
              args.dir, len(lines), kernels, args.dir,
              sum(1 for r in records if r[3]["status"] != "skipped"),
              sum(1 for r in records if r[3]["status"] == "skipped")))
    print("== estimated GPU-host time: %.0f s (%.1f min; budget %.0f s), "
          "plus building tgemm-run" % (estimate, estimate / 60,
                                       args.budget_s))
    return 0


def run(args):
    csv_path, status = run_directory(args, "tune.py", "tune.csv")
    db = pick_database(results.load(csv_path), None)
    print()
    print("\n".join(summary(db)))
    return status


# ------------------------------------------------------------------- pick


def row_config(row):
    """(block, warps, stages, raster, split_k, swizzle) of a CSV row; a CSV
    without the split_k column (of an earlier tune.py, or bench/retune.sh)
    has none: 1."""
    for tag in ("block", "warps", "stages", "raster", "swizzle"):
        if not row.get(tag):
            raise SystemExit("row of kernel %s has no %s column: pick reads "
                             "the CSV of `tune.py run`" % (row["kernel"], tag))
    return (tuple(int(x) for x in row["block"].split("x")),
            tuple(int(x) for x in row["warps"].split("x")),
            int(row["stages"]), int(row["raster"]),
            int(row.get("split_k") or 1), row["swizzle"])


def tie_key(config):
    """Among equal rates: the smaller tile, fewer warps and stages, raster
    1, fewer parts of K, and the default layout (xor) first."""
    block, warps, stages, raster, split_k, swizzle = config
    return (block, warps, stages, raster, split_k,
            swizzle not in ("xor", NO_SWIZZLE), swizzle)


def entry_key(e):
    """Database order: precision as in PRECISIONS, lowering as in FAMILIES
    (wmma, ptx, wgmma), shape."""
    p = by_types(e["a"], e["b"], e["acc"], e["c"])
    order = [q.name for q in PRECISIONS]
    return (order.index(p.name) if p else len(order),
            e["a"], e["b"], e["acc"], e["c"],
            FAMILIES.index(e["lowering"]) if e["lowering"] in FAMILIES
            else len(FAMILIES), e["lowering"], e["m"], e["n"], e["k"])


def pick_database(rows, chip):
    """The database of the fastest checked config per (chip, lowering,
    types, shape); ties go by tie_key. A row counts for the database chip
    of the chip its kernel was compiled for (database_chip: wgmma's sm_90a
    rows are sm_90's, as the compiler looks them up). The entry's config
    has "split_k" where the winner splits K (as configs/h200.json spells
    it; none for 1); an unsplit winner whose tiles the compiler would split
    is noted on stderr."""
    rows = [dict(r, chip=database_chip(r["chip"])) for r in rows]
    if chip:
        rows = [r for r in rows if r["chip"] == database_chip(chip)]
    chips = sorted({r["chip"] for r in rows})
    if len(chips) > 1:
        raise SystemExit("the CSV has runs for %s: choose one with --chip" %
                         ", ".join(chips))
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["lowering"], r["a"], r["b"], r["acc"], r["c"], r["m"],
                r["n"], r["k"])].append(r)
    entries = []
    for key, members in groups.items():
        checked = [r for r in members if results.passed(r)]
        if not checked:
            print("warning: no checked run for %s %s at %s" % (
                key[0], "/".join(key[1:5]), shape_text(*key[5:])),
                file=sys.stderr)
            continue
        best = sorted(checked, key=lambda r: (-r["kernel_rate"],
                                              tie_key(row_config(r))))[0]
        block, warps, stages, raster, split_k, swizzle = row_config(best)
        config = collections.OrderedDict([
            ("block", list(block)), ("warps", list(warps)),
            ("stages", stages), ("raster", raster)])
        if split_k > 1:
            config["split_k"] = split_k
        if split_k == 1 and len(split_values(
                TileConfig(block, warps, stages, raster), key[5:])) > 1:
            print("note: %s %s at %s: the fastest checked config, %s, does "
                  "not split K, but its tiles leave more than half of the "
                  "SMs idle: `config auto` splits K for its entry "
                  "(tgemm::chooseSplitK) unless split-k=false" % (
                      key[0], "/".join(key[1:5]), shape_text(*key[5:]),
                      config_tag(TileConfig(block, warps, stages, raster))),
                  file=sys.stderr)
        library = results.median(r["anchor_rate"] for r in members)
        entries.append(collections.OrderedDict([
            ("lowering", key[0]), ("a", key[1]), ("b", key[2]),
            ("acc", key[3]), ("c", key[4]),
            ("m", key[5]), ("n", key[6]), ("k", key[7]),
            ("config", config),
            ("options", {"swizzle": swizzle} if key[0] == "ptx" else {}),
            ("tflops", round(best["kernel_rate"], 1)),
            ("library_tflops", None if library is None
             else round(library, 1))]))

    entries.sort(key=entry_key)
    names = collections.Counter(results.device_name(r["device"])
                                for r in rows if r.get("device"))
    device = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] \
        if names else ""
    return collections.OrderedDict([
        ("version", configdb.VERSION), ("chip", chips[0] if chips else chip),
        ("device", device), ("entries", entries)])


def summary(db):
    out = ["%s (%s): the fastest checked config per precision, lowering "
           "and shape (TFLOP/s; TOP/s for integers)" % (db["device"],
                                                        db["chip"]), "",
           "%-9s %-5s %-16s %-28s %-7s %8s %8s" % (
               "precision", "lower", "m x n x k", "config", "swizzle",
               "rate", "library")]
    for e in db["entries"]:
        p = by_types(e["a"], e["b"], e["acc"], e["c"])
        c = e["config"]
        tag = split_tag(TileConfig(tuple(c["block"]), tuple(c["warps"]),
                                   c["stages"], c["raster"]),
                        c.get("split_k", 1))
        out.append("%-9s %-5s %-16s %-28s %-7s %8.1f %8s" % (
            p.name if p else "/".join((e["a"], e["acc"], e["c"])),
            e["lowering"], shape_text(e["m"], e["n"], e["k"]), tag,
            e["options"].get("swizzle", NO_SWIZZLE), e["tflops"],
            "-" if e["library_tflops"] is None
            else "%.1f" % e["library_tflops"]))
    return out


def pick(args):
    db = pick_database(results.load(args.csv), args.chip)
    if args.merge and os.path.exists(args.out):
        old = configdb.load(args.out)
        if old["chip"] == db["chip"]:
            def key(e):
                return tuple(e[k] for k in ("lowering", "a", "b", "acc", "c",
                                            "m", "n", "k"))
            new = {key(e) for e in db["entries"]}
            kept = [e for e in old["entries"] if key(e) not in new]
            db["entries"] = sorted(db["entries"] + kept, key=entry_key)
    directory = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(directory, exist_ok=True)
    with open(args.out, "w") as f:
        f.write(configdb.dumps(db))
    print("\n".join(summary(db)))
    print("== %s: %d entries" % (args.out, len(db["entries"])))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="mode")
    sub.required = True

    pp = sub.add_parser("prepare", help="choose and compile the candidates")
    pp.add_argument("dir", nargs="?", default=os.path.join(REPO, "build",
                                                           "tune"))
    pp.add_argument("--only", default="",
                    help="comma-separated precisions (default all): %s" %
                    ",".join(p.name for p in PRECISIONS))
    pp.add_argument("--lowerings", default=",".join(LOWERINGS),
                    help="comma-separated families: %s (default %s; "
                    "wgmma compiles for %s)" % (", ".join(FAMILIES),
                                                ",".join(LOWERINGS),
                                                WGMMA_CHIP))
    pp.add_argument("--classes", default=",".join(CLASSES),
                    help="shape classes: %s" % ", ".join(
                        "%s (%s)" % (c, shape_text(*s))
                        for c, s in CLASSES.items()))
    pp.add_argument("--max-per", type=int, default=24,
                    help="candidates per precision, lowering and class")
    pp.add_argument("--budget-s", type=float, default=BUDGET_S,
                    help="GPU-host seconds for the whole plan")
    pp.add_argument("--extras", default="raster,pad",
                    help="variants of the best two tiles: raster (8), pad")
    pp.add_argument("--chip", default="sm_90",
                    help="the GPU's chip, which wmma and ptx compile for")
    pp.add_argument("--bin", help="folder of tgemm-opt and tgemm-translate")
    pp.add_argument("--ptxas", help="ptxas (default: PATH, else "
                    "/usr/local/cuda/bin/ptxas)")
    pp.add_argument("--jobs", type=int, default=default_jobs(),
                    help="compiles at a time (default: this machine's "
                    "cores, %(default)s)")

    rp = sub.add_parser("run", help="run the plan on the GPU host")
    rp.add_argument("dir", nargs="?", default=os.path.join(REPO, "build",
                                                           "tune"))
    rp.add_argument("--tgemm-run", help="use this tgemm-run instead of "
                    "building one")
    rp.add_argument("--reps", type=int, default=20)
    rp.add_argument("--warmup", type=int, default=5)
    rp.add_argument("--resume", action="store_true",
                    help="keep tune.csv and run only what it lacks")
    rp.add_argument("--max-seconds", type=float,
                    help="start no run after this many seconds (exit 3 when "
                    "runs are left; rerun with --resume)")

    kp = sub.add_parser("pick", help="write the config database")
    kp.add_argument("csv")
    kp.add_argument("--out", default=os.path.join(REPO, "configs",
                                                  "h200.json"))
    kp.add_argument("--chip", help="use only this chip's runs (those of "
                    "sm_90a kernels count as sm_90's)")
    kp.add_argument("--merge", action="store_true",
                    help="keep the --out entries that the CSV does not "
                    "replace")

    args = ap.parse_args(argv)
    return {"prepare": prepare, "run": run, "pick": pick}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
