#!/usr/bin/env bash
# The main job: parse, verify and print an example GEMM, then check every
# example against each chip and lowering (which instruction family can compile
# which precision where).
set -euo pipefail
build=${1:-build}
opt="$build/bin/tgemm-opt"
example=examples/gemm-f16-f32.mlir

echo "== $example, parsed, verified and printed by tgemm-opt"
"$opt" "$example"

echo "== which lowering can compile each example, per chip (tgemm-check-target)"
chips=(sm_80 sm_86 sm_89 sm_90)
printf '%-28s %-8s' example lowering
printf ' %-6s' "${chips[@]}"
echo
for f in examples/*.mlir; do
  for lowering in wmma ptx; do
    printf '%-28s %-8s' "$(basename "$f" .mlir)" "$lowering"
    for chip in "${chips[@]}"; do
      if "$opt" "$f" --tgemm-check-target="chip=$chip lowering=$lowering" \
          -o /dev/null 2>/dev/null; then
        printf ' %-6s' yes
      else
        printf ' %-6s' -
      fi
    done
    echo
  done
done
echo "(run '$opt FILE --tgemm-check-target=\"chip=C lowering=L\"' to see why a '-' is one)"
