#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck on the ptx lowering's edge
# copies: strided kernels (scripts/edge-suite.sh prepare) at a small odd
# shape with leading dimensions that leave rows 4-, 8- and 16-byte aligned
# and misaligned, plus a batch. Run on the GPU host after
# `scripts/gpu-suite.sh build DIR`.
set -uo pipefail
dir=${1:-build/gpu/edge}
tool=build-gpu/bin/tgemm-run
failed=0
check() { # label kernel args...
  local label=$1 k=$2
  shift 2
  for t in memcheck racecheck; do
    if out=$(compute-sanitizer --tool "$t" --error-exitcode 99 "$tool" \
        "$dir/$k.ptx" --manifest "$dir/$k.json" --reps 0 --no-anchor "$@" 2>&1); then
      echo "$label $t: clean ($(echo "$out" | grep -oE '(ERROR|RACECHECK) SUMMARY: .*'))"
    else
      echo "$label $t: FAILED"; echo "$out" | tail -20; failed=1
    fi
  done
}
for p in f16-f32 s8-s32; do
  for pad in 0 1 2 4 8; do
    check "ptx-strided-$p pad $pad" "ptx-strided-$p" --m 77 --n 45 --k 130 \
      --lda $((130 + pad)) --ldb $((130 + pad)) --ldc $((45 + pad)) \
      --offset-a "$pad" --offset-b "$pad" --offset-c "$pad"
  done
done
check "ptx-strided-s4-s32 pad 2" ptx-strided-s4-s32 --m 77 --n 45 --k 130 \
  --lda 132 --ldb 132 --ldc 47 --offset-a 2 --offset-b 2 --offset-c 2
check "ptx-batched-f16-f32 batch 3" ptx-batched-f16-f32 --batch 3 --m 77 --n 45 --k 130
exit $failed
