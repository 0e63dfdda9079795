#!/usr/bin/env bash
# Several builds of the same kernels, timed in one session: DIR/cmp holds
# VERSION-NAME.{ptx,json} for each VERSION of ${VERSIONS:-before after}
# (the first is the baseline); each kernel runs at M = N = K = ${SIZE:-8192},
# checked, every version in turn, for ${ROUNDS:-3} rounds, cuBLAS timed
# alongside. Writes DIR/cmp.csv and prints the medians and each version's
# ratio to the baseline.
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
size=${SIZE:-8192}
read -r -a versions <<< "${VERSIONS:-before after}"
scripts/gpu-suite.sh build "$dir" > /dev/null
tool=build-gpu/bin/tgemm-run
"$tool" --csv-header | sed 's/$/,version,round/' > "$dir/cmp.csv"
for round in $(seq "${ROUNDS:-3}"); do
  for json in "$dir"/cmp/"${versions[0]}"-*.json; do
    name=${json#*/cmp/"${versions[0]}"-}
    name=${name%.json}
    for version in "${versions[@]}"; do
      "$tool" "$dir/cmp/$version-$name.ptx" --manifest "$dir/cmp/$version-$name.json" \
        --m "$size" --n "$size" --k "$size" --check --csv --reps 20 \
        | sed "s/\$/,$version,$round/" >> "$dir/cmp.csv"
    done
  done
done
python3 - "$dir/cmp.csv" "${versions[@]}" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
versions = sys.argv[2:]
by = {}
for r in rows:
    by.setdefault(r["kernel"], {}).setdefault(r["version"], []).append(
        (float(r["kernel_rate"]), float(r["anchor_rate"])))
for kernel, v in sorted(by.items()):
    base = statistics.median(x[0] for x in v[versions[0]])
    anchor = statistics.median(x[1] for vs in v.values() for x in vs)
    cells = []
    for version in versions:
        rate = statistics.median(x[0] for x in v[version])
        cells.append("%s %.1f (%.3fx)" % (version, rate, rate / base))
    print("%-36s %s  cuBLAS %.1f" % (kernel[:-7] if kernel.endswith("_kernel") else kernel,
                                     "  ".join(cells), anchor))
PY
