#!/usr/bin/env bash
# What the edge guards cost on tile-multiple shapes: kernels compiled before
# and after predication, launched alternately in one process per shape pair
# (A, B, A, B, ...), each run checked and timed with cuBLAS beside it.
#
#   bench/predication-overhead.sh BEFORE_DIR AFTER_DIR OUT.csv
#
# BEFORE_DIR and AFTER_DIR hold PTX + manifests of the same configs (from
# scripts/gpu-suite.sh prepare at the two commits); tgemm-run must be built
# (scripts/gpu-suite.sh run builds it into build-gpu/).
set -euo pipefail
before=$1 after=$2 out=$3
run=${TGEMM_RUN:-build-gpu/bin/tgemm-run}
shapes=${SHAPES:-"4096x4096x4096 8192x8192x8192"}
rounds=${ROUNDS:-3}
echo "variant,$("$run" --csv-header)" > "$out"
for json in "$after"/*.json; do
  name=$(basename "$json" .json)
  [ -f "$before/$name.json" ] || continue
  for shape in $shapes; do
    IFS=x read -r m n k <<< "$shape"
    for ((r = 0; r < rounds; ++r)); do
      for variant in before after; do
        dir=$([ "$variant" = before ] && echo "$before" || echo "$after")
        line=$("$run" "$dir/$name.ptx" --manifest "$dir/$name.json" --m "$m" \
          --n "$n" --k "$k" --check --csv --reps 20)
        echo "$variant,$line" >> "$out"
      done
    done
  done
done
python3 - "$out" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = sorted({(r["kernel"], r["lowering"], r["m"], r["n"], r["k"]) for r in rows})
print("%-40s %-5s %-15s %8s %8s %7s" % ("kernel", "lower", "shape", "before", "after", "after/before"))
for key in keys:
    rate = {v: statistics.median(float(r["kernel_rate"]) for r in rows
                                 if (r["kernel"], r["lowering"], r["m"], r["n"], r["k"]) == key
                                 and r["variant"] == v) for v in ("before", "after")}
    print("%-40s %-5s %-15s %8.1f %8.1f %7.3f" % (key[0][:40], key[1], "x".join(key[2:]),
          rate["before"], rate["after"], rate["after"] / rate["before"]))
bad = [r for r in rows if r["check"] != "ok"]
print("%d runs, %d failed checks" % (len(rows), len(bad)))
PY
