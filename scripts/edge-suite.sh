#!/usr/bin/env bash
# Strided and batched operands on the GPU, in two halves like gpu-suite.sh:
#
#   scripts/edge-suite.sh prepare [DIR]  here: compile kernels whose operands
#                                        are strided views
#                                        (memref<?x?xT, strided<[?, 1], offset: ?>>)
#                                        and batches (memref<?x?x?xT>), both
#                                        lowerings, under DIR (default
#                                        build/edge)
#   scripts/edge-suite.sh run [DIR]      on the GPU host: build tgemm-run and
#                                        run each kernel with padded leading
#                                        dimensions and offsets (aligned and
#                                        misaligned) or a batch, --check,
#                                        into DIR/edge.csv
#
# `run` exits non-zero if any check fails (a wrong element, or a write into
# C's padding, which tgemm-run compares byte for byte).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
dir=${2:-build/edge}
chip=${CHIP:-sm_90}
reps=${REPS:-10}

# name  A  B  acc  C  block  warps  stages
kernels() {
  cat <<'EOF2'
f16-f32  f16      f16      f32 f32  128,128,32 2,2 3
bf16-f32 bf16     bf16     f32 bf16 128,128,32 2,2 3
tf32-f32 f32      f32      f32 f32  128,128,16 2,2 4
s8-s32   i8       i8       i32 i32  128,128,64 2,2 3
s4-s32   i4       i4       i32 i32  128,128,128 2,2 3
e4m3-f32 f8E4M3FN f8E4M3FN f32 f32  128,128,64 2,4 3
EOF2
}

prepare() {
  rm -rf "$dir" && mkdir -p "$dir/src"
  kernels | while read -r name a b acc c block warps stages; do
    for kind in strided batched; do
      local tag="$kind-$name" ta tb tc
      if [ "$kind" = strided ]; then
        ta="memref<?x?x$a, strided<[?, 1], offset: ?>>"
        tb="memref<?x?x$b, strided<[?, 1], offset: ?>>"
        tc="memref<?x?x$c, strided<[?, 1], offset: ?>>"
      else
        ta="memref<?x?x?x$a>" tb="memref<?x?x?x$b>" tc="memref<?x?x?x$c>"
      fi
      cat > "$dir/src/$tag.mlir" <<EOF2
func.func @${tag//-/_}(%a: $ta, %b: $tb, %c: $tc) {
  tgemm.matmul %a, %b, %c layout(row, col) acc($acc)
      config(<block = [${block//,/, }], warps = [${warps//,/, }], stages = $stages>)
      : $ta, $tb, $tc
  return
}
EOF2
      CHIP=$chip scripts/gpu-suite.sh compile "$dir/src/$tag.mlir" "$dir" "$tag" "$a"
    done
  done
}

run() {
  mkdir -p "$dir"
  scripts/gpu-suite.sh build "$dir"
  local tool=build-gpu/bin/tgemm-run csv="$dir/edge.csv" failed=0
  "$tool" --csv-header > "$csv"
  one() { # ptx json args...
    local ptx=$1 json=$2
    shift 2
    if ! "$tool" "$ptx" --manifest "$json" --check --csv --reps "$reps" "$@" \
        >> "$csv" 2>> "$dir/errors.log"; then
      echo "FAILED: $(basename "$ptx") $*" | tee -a "$dir/errors.log"
      failed=1
    fi
  }
  for json in "$dir"/*-strided-*.json; do
    local ptx=${json%.json}.ptx
    # (M N K, padding of each leading dimension, offset), as elements: K and
    # N multiples of the tile with 16-byte-aligned padding take the
    # unguarded path; odd padding or offsets take the guarded one.
    # (4-bit operands: even values only.)
    for case in "4096 4096 4096 64 0" "4096 4096 4096 2 2" \
                "1000 1000 1000 6 4" "4095 11008 4095 10 2" "7 64 1000 2 0"; do
      read -r m n k pad off <<< "$case"
      # Packed 4-bit rows need an even K (the manifest's requires).
      case "$json" in *s4-s32*) [ $((k % 2)) -eq 0 ] || continue ;; esac
      one "$ptx" "$json" --m "$m" --n "$n" --k "$k" \
        --lda $((k + pad)) --ldb $((k + pad)) --ldc $((n + pad)) \
        --offset-a "$off" --offset-b "$off" --offset-c "$off"
    done
    case "$json" in *s4-s32*) continue ;; esac
    one "$ptx" "$json" --m 1000 --n 1000 --k 1000 --lda 1003 --ldb 1001 \
      --ldc 1005 --offset-a 3 --offset-b 1 --offset-c 7
  done
  for json in "$dir"/*-batched-*.json; do
    local ptx=${json%.json}.ptx
    one "$ptx" "$json" --batch 8 --m 1024 --n 1024 --k 1024
    one "$ptx" "$json" --batch 3 --m 1000 --n 7 --k 4096
    one "$ptx" "$json" --batch 16 --m 128 --n 4096 --k 4096
  done
  echo "== results ($csv)"
  python3 scripts/suite-table.py "$csv" || true
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) run ;;
  *) echo "usage: $0 prepare|run [DIR]" >&2; exit 2 ;;
esac
