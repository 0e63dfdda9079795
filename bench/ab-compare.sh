#!/usr/bin/env bash
# Several builds of the same kernels, timed in one session: DIR/cmp holds
# VERSION-NAME.{ptx,json} for each VERSION of ${VERSIONS:-before after}
# (the first is the baseline); each kernel runs at each shape of SIZES
# (MxNxK, default M = N = K = ${SIZE:-8192}), checked, every version in
# turn, for ${ROUNDS:-3} rounds, cuBLAS timed alongside. Before the timing,
# the last version's kernels are checked at each shape of CHECK_SHAPES
# (none by default), and with SANITIZE=MxNxK its first kernel runs alone
# under compute-sanitizer memcheck and racecheck at that shape. Writes
# DIR/cmp.csv and prints the medians and each version's ratio to the
# baseline per shape.
#
# Versions that differ by pipeline options are prepared here with
#   KERNELS=FILE LOWERING=ptx|wmma \
#   VERSION_OPTIONS="sync=async-copy=false;async=" bench/ab-compare.sh prepare DIR
# (FILE in scripts/gpu-suite.sh's kernel-list format; each VERSION=OPTIONS
# adds OPTIONS to the --tgemm-pipeline of that version), then run on the GPU
# host with VERSIONS="sync async" bench/ab-compare.sh DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = prepare ]; then
  dir=${2:-build/gpu}
  lowering=${LOWERING:-ptx}
  : "${KERNELS:?KERNELS=FILE names the kernels}"
  : "${VERSION_OPTIONS:?VERSION_OPTIONS=\"NAME=OPTIONS;...\" names the versions}"
  rm -rf "$dir/cmp" "$dir/cmp-tmp"
  mkdir -p "$dir/cmp"
  IFS=';' read -r -a specs <<< "$VERSION_OPTIONS"
  for spec in "${specs[@]}"; do
    version=${spec%%=*}
    options=${spec#*=}
    mkdir -p "$dir/cmp-tmp/src"
    # gpu-suite's prepare writes one source per kernel line and compiles it
    # through both lowerings; keep this lowering's.
    KERNELS=$KERNELS PIPELINE_OPTIONS=$options \
      scripts/gpu-suite.sh prepare "$dir/cmp-tmp" > /dev/null
    for ptx in "$dir/cmp-tmp/$lowering"-*.ptx; do
      name=$(basename "${ptx%.ptx}")
      cp "$ptx" "$dir/cmp/$version-$name.ptx"
      cp "${ptx%.ptx}.json" "$dir/cmp/$version-$name.json"
    done
    rm -rf "$dir/cmp-tmp"
    echo "prepared $version: $(ls "$dir/cmp/$version"-*.ptx | wc -l) kernels ($lowering${options:+, $options})"
  done
  exit 0
fi
dir=${1:-build/gpu}
sizes=${SIZES:-"${SIZE:-8192}x${SIZE:-8192}x${SIZE:-8192}"}
read -r -a versions <<< "${VERSIONS:-before after}"
last=${versions[${#versions[@]}-1]}
scripts/gpu-suite.sh build "$dir" > /dev/null
tool=build-gpu/bin/tgemm-run
failed=0
for json in "$dir"/cmp/"$last"-*.json; do
  for shape in ${CHECK_SHAPES:-}; do
    IFS=x read -r m n k <<< "$shape"
    "$tool" "${json%.json}.ptx" --manifest "$json" --m "$m" --n "$n" --k "$k" \
      --check --reps 0 > "$dir/check.log" 2>&1 ||
      { echo "FAILED: $(basename "$json" .json) at $shape"; failed=1; tail -3 "$dir/check.log"; }
  done
done
if [ -n "${SANITIZE:-}" ]; then
  IFS=x read -r m n k <<< "$SANITIZE"
  first=$(ls "$dir"/cmp/"$last"-*.json | head -1)
  for t in memcheck racecheck; do
    if compute-sanitizer --tool "$t" --error-exitcode 99 "$tool" "${first%.json}.ptx" \
        --manifest "$first" --m "$m" --n "$n" --k "$k" --reps 0 --no-anchor \
        > "$dir/sanitizer.log" 2>&1; then
      echo "$(basename "$first" .json) $t: clean"
    else
      echo "$(basename "$first" .json) $t: FAILED"; failed=1; tail -5 "$dir/sanitizer.log"
    fi
  done
fi
"$tool" --csv-header | sed 's/$/,version,round/' > "$dir/cmp.csv"
for round in $(seq "${ROUNDS:-3}"); do
  for shape in $sizes; do
    IFS=x read -r m n k <<< "$shape"
    for json in "$dir"/cmp/"${versions[0]}"-*.json; do
      name=${json#*/cmp/"${versions[0]}"-}
      name=${name%.json}
      for version in "${versions[@]}"; do
        "$tool" "$dir/cmp/$version-$name.ptx" --manifest "$dir/cmp/$version-$name.json" \
          --m "$m" --n "$n" --k "$k" --check --csv --reps 20 \
          | sed "s/\$/,$version,$round/" >> "$dir/cmp.csv" || failed=1
      done
    done
  done
done
python3 - "$dir/cmp.csv" "${versions[@]}" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
versions = sys.argv[2:]
by = {}
for r in rows:
    key = (r["m"] + "x" + r["n"] + "x" + r["k"], r["kernel"])
    by.setdefault(key, {}).setdefault(r["version"], []).append(
        (float(r["kernel_rate"]), float(r["anchor_rate"] or "nan"), r["check"]))
for (shape, kernel), v in sorted(by.items()):
    base = statistics.median(x[0] for x in v[versions[0]])
    anchor = statistics.median(x[1] for vs in v.values() for x in vs)
    checks = "/".join(sorted(set(x[2] for vs in v.values() for x in vs)))
    cells = []
    for version in versions:
        rate = statistics.median(x[0] for x in v[version])
        cells.append("%s %.1f (%.3fx)" % (version, rate, rate / base))
    print("%-14s %-36s %s  cuBLAS %.1f  %s" % (
        shape, kernel[:-7] if kernel.endswith("_kernel") else kernel,
        "  ".join(cells), anchor, checks))
PY
exit $failed
