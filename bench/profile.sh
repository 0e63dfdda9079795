#!/usr/bin/env bash
# Hardware counters of tgemm kernels, on the GPU host (Nsight Compute).
#
#   bench/profile.sh DIR      profile every DIR/*.ptx (+ .json manifest) at
#                             M = N = K = ${SIZE:-8192}, one launch each,
#                             with Nsight Compute's `full` set; writes
#                             DIR/NAME.ncu.txt (details page), a summary
#                             table of the counters that decide a GEMM's
#                             main loop to DIR/profile.csv, and the stall
#                             samples per SASS instruction (source page) to
#                             DIR/NAME.source.csv, summarized in
#                             DIR/NAME.hot-loop.txt (bench/ncu-hot-loop.py)
#
# Clocks are left as they are (--clock-control none). The kernel is checked
# against the reference in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: bench/profile.sh DIR}
size=${SIZE:-8192}
scripts/gpu-suite.sh build "$dir" > /dev/null
tool=build-gpu/bin/tgemm-run
metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_tensor_op_hmma.sum
metrics+=,smsp__inst_executed.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,smsp__warps_active.avg.per_cycle_active
metrics+=,sm__cycles_elapsed.avg
for json in "$dir"/*.json; do
  ptx=${json%.json}.ptx
  name=$(basename "${json%.json}")
  kernel=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernels"][0]["name"])' "$json")
  ncu --clock-control none --set full -k "regex:^$kernel\$" --launch-count 1 \
    --metrics "$metrics" \
    "$tool" "$ptx" --manifest "$json" --m "$size" --n "$size" --k "$size" \
    --check --warmup 1 --reps 1 --no-anchor > "$dir/$name.ncu.txt" 2>&1 || {
      echo "ncu failed on $name"; tail -20 "$dir/$name.ncu.txt"; continue; }
  ncu --clock-control none --section WarpStateStats --section SourceCounters \
    -k "regex:^$kernel\$" --launch-count 1 --page source --print-source sass --csv \
    "$tool" "$ptx" --manifest "$json" --m "$size" --n "$size" --k "$size" \
    --warmup 1 --reps 1 --no-anchor > "$dir/$name.source.csv" 2>&1 &&
    python3 bench/ncu-hot-loop.py "$dir/$name.source.csv" > "$dir/$name.hot-loop.txt" ||
    echo "ncu's source page failed on $name"
done
python3 - "$dir" <<'PY'
import glob, os, re, sys
rows = []
keys = {
    "tensor %": "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "ld conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smem ld wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "warps/smsp": "smsp__warps_active.avg.per_cycle_active",
    "inst": "smsp__inst_executed.sum",
    "hmma inst": "sm__inst_executed_pipe_tensor_op_hmma.sum",
}
out = open(os.path.join(sys.argv[1], "profile.csv"), "w")
out.write("kernel," + ",".join(keys) + "\n")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.ncu.txt"))):
    text = open(path).read()
    vals = []
    for k, metric in keys.items():
        m = re.search(re.escape(metric) + r"\s+\S*\s+([\d,.]+)", text)
        vals.append(m.group(1).replace(",", "") if m else "")
    name = os.path.basename(path)[:-8]
    out.write(name + "," + ",".join(vals) + "\n")
    print(name)
    for k, v in zip(keys, vals):
        print("   %-20s %s" % (k, v))
PY
