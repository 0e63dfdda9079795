#!/usr/bin/env bash
# The ptx lowering's 8- and 4-byte cp.async for rows not aligned to 16 bytes,
# on the GPU host, in one process per run but alternating kernels:
#   DIR/cmp/{before,after}-NAME.{ptx,json}: the same config compiled before
#     and after the change, timed packed at 8192^3 in 3 alternating rounds
#     (the change must not cost the aligned path anything);
#   DIR/edge: scripts/edge-suite.sh kernels (strided and batched), every
#     case checked, including leading dimensions that leave rows 4- or
#     8-byte aligned.
# Writes DIR/cmp.csv and DIR/edge/edge.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/gpu}
scripts/gpu-suite.sh build "$dir/edge" > /dev/null
tool=build-gpu/bin/tgemm-run
"$tool" --csv-header | sed 's/$/,version,round/' > "$dir/cmp.csv"
for round in 1 2 3; do
  for json in "$dir"/cmp/before-*.json; do
    name=${json#*/before-}
    name=${name%.json}
    for version in before after; do
      "$tool" "$dir/cmp/$version-$name.ptx" --manifest "$dir/cmp/$version-$name.json" \
        --m 8192 --n 8192 --k 8192 --check --csv --reps 20 \
        | sed "s/\$/,$version,$round/" >> "$dir/cmp.csv"
    done
  done
done
python3 - "$dir/cmp.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault((r["a"], r["version"]), []).append(float(r["kernel_rate"]))
for a in sorted({k[0] for k in by}):
    b, n = statistics.median(by[(a, "before")]), statistics.median(by[(a, "after")])
    print(f"{a} 8192^3 packed: before {b:.1f}, after {n:.1f}, after/before {n / b:.3f}")
PY
scripts/edge-suite.sh run "$dir/edge"
