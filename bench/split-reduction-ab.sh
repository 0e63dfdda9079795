#!/usr/bin/env bash
# The split-K reduction before and after a change, alternated in one
# process per kernel and shape (GPU host):
#   bench/split-reduction-ab.sh DIR
# DIR holds before-NAME.{ptx,json} and after-NAME.{ptx,json} (the kernels of
# bench/split-reduction-kernels.txt compiled by `bench/wgmma.sh prepare`
# with each compiler). Every run is checked; the after kernels are also
# checked at odd shapes and under compute-sanitizer. Writes DIR/ab.csv and
# prints each kernel's medians and after/before.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/build-runtime.sh
dir=${1:?usage: $0 DIR}
sizes=${SIZES:-"512x512x16384 1000x1000x1000"}
rounds=${ROUNDS:-3}
tool=build-gpu/bin/tgemm-run
build_runtime "$dir"
failed=0
for json in "$dir"/after-*.json; do
  for shape in 4095x4097x999 300x200x2048; do
    IFS=x read -r m n k <<< "$shape"
    "$tool" "${json%.json}.ptx" --manifest "$json" --m "$m" --n "$n" --k "$k" \
      --check --reps 0 > "$dir/check.log" 2>&1 ||
      { echo "FAILED: $(basename "$json" .json) at $shape"; failed=1; }
  done
done
first=$(ls "$dir"/after-*.json | head -1)
for t in memcheck racecheck; do
  compute-sanitizer --tool "$t" --error-exitcode 99 "$tool" "${first%.json}.ptx" \
    --manifest "$first" --m 300 --n 200 --k 2048 --reps 0 --no-anchor \
    > "$dir/sanitizer.log" 2>&1 && echo "$(basename "$first" .json) $t: clean" ||
    { echo "$(basename "$first" .json) $t: FAILED"; failed=1; tail -5 "$dir/sanitizer.log"; }
done
"$tool" --csv-header | sed 's/$/,version,round/' > "$dir/ab.csv"
for round in $(seq "$rounds"); do
  for shape in $sizes; do
    IFS=x read -r m n k <<< "$shape"
    for json in "$dir"/before-*.json; do
      name=${json#"$dir"/before-}
      name=${name%.json}
      for version in before after; do
        "$tool" "$dir/$version-$name.ptx" --manifest "$dir/$version-$name.json" \
          --m "$m" --n "$n" --k "$k" --check --csv --reps 20 2>/dev/null \
          | sed "s/\$/,$version,$round/" >> "$dir/ab.csv" || failed=1
      done
    done
  done
done
python3 - "$dir/ab.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    key = (r["m"] + "x" + r["n"] + "x" + r["k"], r["kernel"])
    by.setdefault(key, {}).setdefault(r["version"], []).append(r)
print("%-16s %-48s %8s %8s %7s %8s %s" % ("shape", "kernel", "before", "after",
                                          "after/b", "cuBLAS", "checks"))
for (shape, kernel), v in sorted(by.items()):
    med = {x: statistics.median(float(r["kernel_rate"]) for r in v[x]) for x in v}
    anchor = statistics.median(float(r["anchor_rate"]) for x in v for r in v[x])
    checks = "/".join(sorted(set(r["check"] for x in v for r in v[x])))
    print("%-16s %-48s %8.1f %8.1f %7.3f %8.1f %s" % (
        shape, kernel[:48], med["before"], med["after"],
        med["after"] / med["before"], anchor, checks))
PY
exit $failed
