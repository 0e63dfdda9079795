#!/usr/bin/env bash
# The odd-shape grid of the GPU suite (scripts/gpu-suite.sh), in two parts:
#   f16->f32, both lowerings: every (M, N, K) with M, N, K in {1, 7, 64, 1000, 4097}
#   every other precision, both lowerings: 12 shapes of the set {1, 7, 64,
#   1000, 4095, 4097} and LLM shapes
# Usage: bench/odd-shapes/run.sh prepare|run [DIR] (default build/odd-shapes);
# `run` writes DIR/{f16,all}/results.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
dir=${2:-build/odd-shapes}
sizes="1 7 64 1000 4097"
cube=""
for m in $sizes; do for n in $sizes; do for k in $sizes; do
  cube="$cube ${m}x${n}x${k}"
done; done; done
some="1x1x1 7x7x7 64x64x64 1000x1000x1000 4095x4095x4095 4097x4097x4097
1x4096x4096 7x4097x1000 1000x7x4097 4097x1000x7 64x4095x1 4095x11008x4095"
case "$mode" in
  prepare)
    KERNELS=bench/odd-shapes/f16.txt scripts/gpu-suite.sh prepare "$dir/f16"
    KERNELS=bench/odd-shapes/all.txt scripts/gpu-suite.sh prepare "$dir/all" ;;
  run)
    status=0
    SHAPES="$cube" REPS=${REPS:-3} scripts/gpu-suite.sh run "$dir/f16" || status=1
    SHAPES="$some" REPS=${REPS:-3} scripts/gpu-suite.sh run "$dir/all" || status=1
    exit $status ;;
  *) echo "usage: $0 prepare|run [DIR]" >&2; exit 2 ;;
esac
