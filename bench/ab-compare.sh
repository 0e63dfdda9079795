#!/usr/bin/env bash
# Two builds of the same kernels, timed in one session: DIR/cmp holds
# before-NAME.{ptx,json} and after-NAME.{ptx,json}; each pair runs at
# M = N = K = ${SIZE:-8192}, checked, alternating, for ${ROUNDS:-3} rounds,
# cuBLAS timed alongside. Writes DIR/cmp.csv and prints the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/gpu}
size=${SIZE:-8192}
scripts/gpu-suite.sh build "$dir" > /dev/null
tool=build-gpu/bin/tgemm-run
"$tool" --csv-header | sed 's/$/,version,round/' > "$dir/cmp.csv"
for round in $(seq "${ROUNDS:-3}"); do
  for json in "$dir"/cmp/before-*.json; do
    name=${json#*/before-}
    name=${name%.json}
    for version in before after; do
      "$tool" "$dir/cmp/$version-$name.ptx" --manifest "$dir/cmp/$version-$name.json" \
        --m "$size" --n "$size" --k "$size" --check --csv --reps 20 \
        | sed "s/\$/,$version,$round/" >> "$dir/cmp.csv"
    done
  done
done
python3 - "$dir/cmp.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    key = (r["lowering"], r["a"], r["c"])
    by.setdefault(key, {}).setdefault(r["version"], []).append(float(r["kernel_rate"]))
for key, v in sorted(by.items()):
    b, a = statistics.median(v["before"]), statistics.median(v["after"])
    print("%-5s %-5s->%-5s before %s  after %s  after/before %.3f" % (
        key[0], key[1], key[2], "/".join("%.1f" % x for x in v["before"]),
        "/".join("%.1f" % x for x in v["after"]), a / b))
PY
