#!/usr/bin/env bash
# A targeted re-measurement of one lowering's tuned configs (the
# square-large and llm classes), for when a compiler change moves the
# optimum and a full `scripts/tune.py` run does not fit the GPU time:
#
#   bench/retune.sh LOWERING prepare [DIR]   here: compile the candidates of
#                                            bench/retune-LOWERING-kernels.txt
#   bench/retune.sh LOWERING run [DIR]       GPU host: run them at 4096^3 and
#                                            4096x11008x4096, checked, and
#                                            write DIR/tune.csv (tune.py's
#                                            columns)
#   python3 scripts/tune.py pick DIR/tune.csv --merge --out configs/h200.json
#
# LOWERING is ptx or wmma. The candidates are not filtered by ptxas: the
# prefetching 8-warp ptx kernels spill a few bytes (within tune.py's
# MAX_SPILL_BYTES) and measured faster than the spill-free ones
# (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bench/retune.sh ptx|wmma prepare|run [DIR]"
lowering=${1:?$usage}
mode=${2:?$usage}
dir=${3:-build/retune-$lowering}
case "$lowering" in
  ptx) other=wmma; swizzle=xor ;;
  wmma) other=ptx; swizzle=- ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
case "$mode" in
  prepare)
    KERNELS=bench/retune-$lowering-kernels.txt scripts/gpu-suite.sh prepare "$dir"
    rm -f "$dir/$other"-*
    ;;
  run)
    SHAPES="4096x4096x4096 4096x11008x4096" scripts/gpu-suite.sh run "$dir"
    python3 - "$dir/results.csv" "$dir/tune.csv" "$swizzle" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
swizzle = sys.argv[3]
extra = ["precision", "shape_class", "block", "warps", "stages", "raster", "swizzle"]
with open(sys.argv[2], "w") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) + extra, lineterminator="\n")
    w.writeheader()
    for r in rows:
        m = re.match(r"(.+?)_(\d+x\d+x\d+)_w(\d+x\d+)_s(\d+)_r(\d+)_kernel$", r["kernel"])
        r.update(precision=m.group(1).replace("_", "-"),
                 shape_class="square-large" if r["n"] == r["m"] else "llm",
                 block=m.group(2), warps=m.group(3), stages=m.group(4),
                 raster=m.group(5), swizzle=swizzle)
        w.writerow(r)
PY
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
