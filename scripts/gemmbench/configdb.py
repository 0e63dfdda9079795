"""The tuned config database (configs/h200.json), written by
`scripts/tune.py pick` and read by `scripts/study.py prepare` and by the
compiler's `config auto`:

    {"version": 1, "chip": "sm_90", "device": "NVIDIA H200",
     "entries": [{"lowering": "ptx", "a": "f16", "b": "f16", "acc": "f32",
                  "c": "f32", "m": 4096, "n": 4096, "k": 4096,
                  "config": {"block": [128, 128, 32], "warps": [2, 2],
                             "stages": 3, "raster": 1},
                  "options": {"swizzle": "xor"},
                  "tflops": 400.1, "library_tflops": 700.0}]}

For an op, the entries matching the chip, the lowering and the four types
apply, and the one whose (m, n, k) is nearest in log space wins (the first
in file order on a tie)."""
import json
import math
import os

from gemmbench.precisions import TileConfig

VERSION = 1
ENTRY_KEYS = ("lowering", "a", "b", "acc", "c", "m", "n", "k", "config",
              "options", "tflops", "library_tflops")


def load(path):
    """The database, or None when the file does not exist."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        db = json.load(f)
    if db.get("version") != VERSION:
        raise SystemExit("%s: version %r, expected %d" % (
            path, db.get("version"), VERSION))
    return db


def log_distance(entry, m, n, k):
    return sum((math.log(a) - math.log(b)) ** 2
               for a, b in ((entry["m"], m), (entry["n"], n), (entry["k"], k)))


def nearest(db, chip, lowering, precision, m, n, k):
    """The entry `config auto` would use for this op, or None."""
    if not db or db.get("chip") != chip:
        return None
    best, best_distance = None, None
    for entry in db.get("entries", []):
        if (entry["lowering"], entry["a"], entry["b"], entry["acc"],
                entry["c"]) != (lowering, precision.a, precision.b,
                                precision.acc, precision.c):
            continue
        distance = log_distance(entry, m, n, k)
        if best is None or distance < best_distance:
            best, best_distance = entry, distance
    return best


def entry_config(entry):
    c = entry["config"]
    return TileConfig(tuple(c["block"]), tuple(c["warps"]), int(c["stages"]),
                      int(c.get("raster", 1)))


def entry_options(entry):
    """The entry's pipeline options as sorted (name, value) pairs."""
    return tuple(sorted((k, str(v).lower() if isinstance(v, bool) else str(v))
                        for k, v in entry.get("options", {}).items()))


def dumps(db):
    """The database as text: one entry per few lines, keys in a fixed order,
    so that a re-tune's diff is readable."""
    out = ["{",
           '  "version": %d,' % db["version"],
           '  "chip": %s,' % json.dumps(db["chip"]),
           '  "device": %s,' % json.dumps(db["device"]),
           '  "entries": [']
    entries = db["entries"]
    for i, e in enumerate(entries):
        types = ", ".join('"%s": %s' % (key, json.dumps(e[key]))
                          for key in ("lowering", "a", "b", "acc", "c"))
        sizes = ", ".join('"%s": %d' % (key, e[key]) for key in "mnk")
        config = json.dumps(e["config"])
        options = json.dumps(e["options"], sort_keys=True)
        rates = '"tflops": %.1f, "library_tflops": %s' % (
            e["tflops"], "null" if e["library_tflops"] is None
            else "%.1f" % e["library_tflops"])
        out.append("    {%s,\n     %s,\n     \"config\": %s,\n"
                   "     \"options\": %s,\n     %s}%s" % (
                       types, sizes, config, options, rates,
                       "," if i + 1 < len(entries) else ""))
    out += ["  ]", "}"]
    return "\n".join(out) + "\n"
