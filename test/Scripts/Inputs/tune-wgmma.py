"""Drives tune.py's wgmma candidates through the legality module for
tune-wgmma.test: per precision, the tile configs it enumerates, what the
legality module prunes them by (rule names), the axes of what is left and
its scores at every shape class (none may fail); the chip each family is
checked for; and what happens to a candidate that prune() rejects (never
scored: rank() drops such a seed, ring_bytes() refuses it)."""
import collections
import os
import shutil
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
import tune  # noqa: E402
from gemmbench.precisions import (BY_NAME, PRECISIONS, TileConfig,  # noqa
                                  has_lowering, wgmma_default)

tune.load_legality(shutil.which("tgemm-opt"), "sm_90")
for p in PRECISIONS:
    if not has_lowering(p, "wgmma"):
        print("%s: no wgmma" % p.name)
        continue
    pruned = collections.Counter()
    tiles = tune.enumerate_tiles(p, "wgmma", pruned)
    axes = [sorted({f(c.config) for c in tiles}) for f in (
        lambda c: c.warps, lambda c: c.block[0] // c.warps[0],
        lambda c: c.block[2] * p.bits // 8, lambda c: c.block[1],
        lambda c: c.stages, lambda c: c.raster)]
    print("%s: %d of %d legal; pruned %s" % (
        p.name, len(tiles), len(tiles) + sum(pruned.values()),
        " ".join("%s %d" % kv for kv in sorted(pruned.items()))))
    print("  warps %s, block M / warps M %s, block K bytes %s, block N %s, "
          "stages %s, raster %s, swizzle %s" % tuple(
              axes + [sorted({c.swizzle for c in tiles})]))
    scores = [tune.score(p, "wgmma", c.config, c.swizzle, shape)
              for shape in tune.CLASSES.values() for c in tiles]
    seed = wgmma_default(p)
    print("  %d scores in (0, 1]: %s; default %s %s" % (
        len(scores), all(0 < s <= 1 for s in scores), tune.config_tag(seed),
        tune.prune(p, "wgmma", seed, tune.NO_SWIZZLE) or "legal"))

# The chip of each family: wgmma for sm_90a whatever the GPU's chip, ptx for
# it (a 128 KiB ptx tile fits sm_90's shared memory, not sm_89's).
f16 = BY_NAME["f16-f32"]
big = TileConfig((64, 64, 128), (2, 2), 4, 1)
for chip in ("sm_90", "sm_89"):
    tune.load_legality(shutil.which("tgemm-opt"), chip)
    print("GPU %s: wgmma %s: %s; ptx %s: %s" % (
        chip, tune.config_tag(wgmma_default(f16)),
        tune.legality(f16, "wgmma", wgmma_default(f16), "-")["rule"],
        tune.config_tag(big), tune.legality(f16, "ptx", big, "xor")["rule"]))

# An illegal seed (the ptx suite's tile for wgmma) is not ranked; scoring an
# illegal candidate is refused with the legality module's rule.
tune.load_legality(shutil.which("tgemm-opt"), "sm_90")
pruned = collections.Counter()
tiles = tune.enumerate_tiles(f16, "wgmma", pruned)
bad = tune.Candidate(TileConfig((128, 128, 32), (2, 2), 3, 1), "-")
ranked = tune.rank(f16, "wgmma", tiles, tune.CLASSES["skinny"], 4, ["raster"],
                   [bad])
print("ranked %d, illegal seed ranked: %s, first %s" % (
    len(ranked), bad in ranked, tune.config_tag(ranked[0].config)))
try:
    tune.score(f16, "wgmma", bad.config, bad.swizzle, tune.CLASSES["llm"])
except ValueError as error:
    print("score: %s" % error)
