"""Drives tune.choose() with a stand-in compiler for tune-choose.test: a
config 'spills' (more than tune.MAX_SPILL_BYTES) when its warp tile is 64x64
or larger, and is 'rejected' when its block N is 256. Prints what was
compiled, skipped and chosen, then what compiled_ok() says of a few
spills."""
import collections
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
import tune  # noqa: E402
from gemmbench.precisions import BY_NAME, TileConfig  # noqa: E402


def fake_compile(kernels):
    out = []
    for k in kernels:
        bm, bn, _ = k.config.block
        wm, wn = k.config.warps
        result = {"status": "ok", "message": "", "registers": 200,
                  "spill_stores": 0, "spill_loads": 0, "smem": 49152}
        if bn == 256:
            result.update(status="rejected", message="made up")
        elif bm // wm >= 64 and bn // wn >= 64:
            result.update(spill_stores=tune.MAX_SPILL_BYTES + 8,
                          spill_loads=tune.MAX_SPILL_BYTES + 8)
        print("compile %s" % k.stem())
        out.append(result)
    return out


def cand(block, warps, stages):
    return tune.Candidate(TileConfig(block, warps, stages, 1), "xor")


ranked = collections.OrderedDict([
    ("square-large", [
        cand((128, 128, 32), (2, 2), 3),    # spills (64x64 warp tile)
        cand((128, 128, 64), (2, 2), 3),    # heavier: skipped
        cand((64, 256, 32), (2, 4), 3),     # rejected
        cand((128, 128, 32), (2, 4), 3),    # ok (64x32)
        cand((128, 128, 32), (4, 2), 4),    # ok (32x64)
        cand((256, 128, 32), (2, 2), 4)]),  # heavier than the first: skipped
    ("skinny", [
        cand((64, 64, 32), (2, 2), 3),      # ok
        cand((128, 128, 32), (2, 4), 3),    # already compiled: ok
        cand((64, 64, 64), (2, 2), 3)]),    # not needed (cap 2)
])
records = []
chosen = tune.choose(BY_NAME["f16-f32"], "ptx", ranked, 2, {}, records,
                     fake_compile, batch_limit=2)
for _, _, kernel, result in records:
    print("record %s %s %s" % (kernel.stem(), result["status"],
                               result["message"]))
for c, cands in chosen.items():
    print("chosen %s: %s" % (c, " ".join(
        tune.kernel_of(BY_NAME["f16-f32"], "ptx", x).stem() for x in cands)))

for stores, loads in ((0, 0), (tune.MAX_SPILL_BYTES, 4),
                      (tune.MAX_SPILL_BYTES + 4, 0)):
    print("spills %d/%d ok: %s" % (stores, loads, tune.compiled_ok(
        {"status": "ok", "spill_stores": stores, "spill_loads": loads})))
