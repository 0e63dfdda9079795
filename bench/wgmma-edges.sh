#!/usr/bin/env bash
# The wgmma family's default kernel (a producer warpgroup, TMA, mbarriers)
# on strided and batched operands:
#
#   bench/wgmma-edges.sh prepare [DIR]   here: compile strided and batched
#                                        f16/bf16 kernels (default build/wgmma-edges)
#   bench/wgmma-edges.sh run [DIR]       on the GPU host: check each against
#                                        cuBLAS at leading dimensions and
#                                        offsets that keep rows 16-byte aligned
#                                        (tensor maps: TMA) and that do not
#                                        (null maps: the cp.async producer), and
#                                        batches; then compute-sanitizer
#                                        memcheck and racecheck on one of each
#
# OPTIONS: pipeline options added to the family's default schedule (e.g.
# "persistent=true tma-store=true"); with persistent=true every check also
# runs with --persistent-blocks 3, so that blocks loop over several tiles.
# "strided" has alpha and beta (the epilogue reads C first), "scaled" alpha
# alone; with tma-store both store C through its tensor map where C's rows
# allow one (explicit options are kept: only tgemm-select-config's database
# entries drop tma-store where the epilogue reads memory).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/build-runtime.sh
mode=${1:-}
dir=${2:-build/wgmma-edges}
tool=build-gpu/bin/tgemm-run

prepare() {
  local opt=build/bin/tgemm-opt translate=build/bin/tgemm-translate
  [ -x "$opt" ] || { opt=tgemm-opt; translate=tgemm-translate; }
  rm -rf "$dir"; mkdir -p "$dir"
  for t in f16:f32 bf16:bf16; do
    local a=${t%:*} c=${t#*:}
    local s2="strided<[?, 1], offset: ?>" s3="strided<[?, ?, 1], offset: ?>"
    cat > "$dir/src-$a.mlir" <<MLIR
func.func @strided_$a(%a: memref<?x?x$a, $s2>, %b: memref<?x?x$a, $s2>, %c: memref<?x?x$c, $s2>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(0.5) beta(1.5)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      : memref<?x?x$a, $s2>, memref<?x?x$a, $s2>, memref<?x?x$c, $s2>
  return
}
func.func @scaled_$a(%a: memref<?x?x$a, $s2>, %b: memref<?x?x$a, $s2>, %c: memref<?x?x$c, $s2>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(0.5)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      : memref<?x?x$a, $s2>, memref<?x?x$a, $s2>, memref<?x?x$c, $s2>
  return
}
func.func @batched_$a(%a: memref<?x?x?x$a, $s3>, %b: memref<?x?x?x$a, $s3>, %c: memref<?x?x?x$c, $s3>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      : memref<?x?x?x$a, $s3>, memref<?x?x?x$a, $s3>, memref<?x?x?x$c, $s3>
  return
}
MLIR
    "$opt" "$dir/src-$a.mlir" --tgemm-pipeline="lowering=wgmma chip=sm_90a${OPTIONS:+ $OPTIONS}" \
      -o "$dir/$a.mlir" || return 1
    for k in strided scaled batched; do
      "$translate" --emit=ptx --module "${k}_${a}_module" "$dir/$a.mlir" -o "$dir/$k-$a.ptx" || return 1
      "$translate" --emit=manifest --module "${k}_${a}_module" "$dir/$a.mlir" -o "$dir/$k-$a.json" || return 1
      echo "prepared $dir/$k-$a.ptx"
    done
  done
}

run() {
  build_runtime "$dir" || return 1
  local failed=0
  one_launch() { # label kernel args...
    local label=$1 k=$2; shift 2
    if out=$("$tool" "$dir/$k.ptx" --manifest "$dir/$k.json" --kernel "${k/-/_}_kernel" \
        --check --reps 0 "$@" 2>&1); then
      echo "$label: $(echo "$out" | grep -oE 'check[^,]*' | head -1)"
    else
      echo "$label: FAILED"; echo "$out" | tail -5; failed=1
    fi
  }
  one() { # label kernel args...: as compiled, and persistent ones on 3 blocks
    one_launch "$@"
    if grep -q '"persistent": true' "$dir/$2.json"; then
      local label=$1; shift
      one_launch "$label, 3 persistent blocks" "$@" --persistent-blocks 3
    fi
  }
  for a in f16 bf16; do
    # pad 0 and 8 elements keep rows on 16 bytes (TMA); 1 and 3 do not.
    for pad in 0 8 1 3; do
      one "strided-$a 1000x1000x1000 pad $pad" "strided-$a" --m 1000 --n 1000 --k 1000 \
        --lda $((1000 + pad)) --ldb $((1000 + pad)) --ldc $((1000 + pad)) \
        --offset-a "$pad" --offset-b "$pad" --offset-c "$pad"
    done
    one "strided-$a 4095x4097x999" "strided-$a" --m 4095 --n 4097 --k 999
    for pad in 0 8 1; do
      one "scaled-$a 1000x1000x1000 pad $pad" "scaled-$a" --m 1000 --n 1000 --k 1000 \
        --lda $((1000 + pad)) --ldb $((1000 + pad)) --ldc $((1000 + pad)) \
        --offset-a "$pad" --offset-b "$pad" --offset-c "$pad"
    done
    one "scaled-$a 4095x4097x999" "scaled-$a" --m 4095 --n 4097 --k 999
    one "batched-$a batch 3, 777x555x1001" "batched-$a" --batch 3 --m 777 --n 555 --k 1001
    one "batched-$a batch 4, 512x512x512" "batched-$a" --batch 4 --m 512 --n 512 --k 512
  done
  for t in memcheck racecheck; do
    for args in "strided-f16 --m 300 --n 260 --k 203" \
                "strided-f16 --m 300 --n 260 --k 256 --lda 264 --ldb 264 --ldc 264 --offset-a 8" \
                "scaled-bf16 --m 300 --n 520 --k 256 --lda 264 --ldb 264 --ldc 528 --offset-c 64" \
                "batched-bf16 --batch 2 --m 200 --n 300 --k 128"; do
      set -- $args; k=$1; shift
      grep -q '"persistent": true' "$dir/$k.json" && set -- "$@" --persistent-blocks 2
      if out=$(compute-sanitizer --tool "$t" --error-exitcode 99 "$tool" "$dir/$k.ptx" \
          --manifest "$dir/$k.json" --kernel "${k/-/_}_kernel" --reps 0 --no-anchor "$@" 2>&1); then
        echo "$k $* $t: clean ($(echo "$out" | grep -oE '(ERROR|RACECHECK) SUMMARY: .*'))"
      else
        echo "$k $* $t: FAILED"; echo "$out" | tail -10; failed=1
      fi
    done
  done
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) mkdir -p "$dir"; run ;;
  *) echo "usage: $0 prepare|run [DIR]" >&2; exit 2 ;;
esac
