#!/usr/bin/env bash
# The ptx lowering's 8- and 4-byte cp.async for rows not aligned to 16 bytes,
# on the GPU host, in one process per run but alternating kernels:
#   DIR/cmp/{before,after}-NAME.{ptx,json}: the same config compiled before
#     and after the change, timed packed at 8192^3 in 3 alternating rounds
#     (the change must not cost the aligned path anything);
#   DIR/edge: scripts/edge-suite.sh kernels (strided and batched), every
#     case checked, including leading dimensions that leave rows 4- or
#     8-byte aligned.
# Writes DIR/cmp.csv (bench/ab-compare.sh) and DIR/edge/edge.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/gpu}
bench/ab-compare.sh "$dir"
scripts/edge-suite.sh run "$dir/edge"
