#!/usr/bin/env bash
# The GPU suite, in two halves:
#
#   scripts/gpu-suite.sh prepare [DIR]   here (LLVM/MLIR, no GPU): compile every
#                                        precision x lowering x config to PTX +
#                                        manifest under DIR (default build/suite)
#   scripts/gpu-suite.sh run [DIR]       on the GPU host (CUDA, cmake, ninja):
#                                        build the runtime, self-test it, run
#                                        every kernel at every shape with
#                                        --check, write DIR/results.csv and
#                                        print a table
#   scripts/gpu-suite.sh sanitize [DIR]  on the GPU host: compute-sanitizer
#                                        memcheck and racecheck on one kernel
#                                        per precision and lowering
#   scripts/gpu-suite.sh build [DIR]     on the GPU host: only build tgemm-run
#                                        (build-gpu/bin; logs under DIR)
#   scripts/gpu-suite.sh kernels         print the kernel list below
#   scripts/gpu-suite.sh compile SRC DIR TAG A
#                                        here: SRC through both lowerings to
#                                        DIR/LOWERING-TAG.{ptx,json} (A: the
#                                        operand element type)
#
# scripts/study.py and scripts/tune.py use `build` and `kernels`.
#
# Kernels are compiled for dynamic sizes, so one kernel serves every shape.
# `run` exits non-zero if any kernel is wrong or any tool fails.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
dir=${2:-build/suite}
chip=${CHIP:-sm_90}
shapes=${SHAPES:-"1024x1024x1024 4096x4096x4096 8192x8192x8192 4096x11008x4096"}
reps=${REPS:-20}

# name  A  B  acc  C  layout_a layout_b  block  warps  stages  raster
# (KERNELS=FILE replaces this list with FILE's lines, same columns;
# PIPELINE_OPTIONS="..." adds options to every --tgemm-pipeline.)
kernels() {
  if [ -n "${KERNELS:-}" ]; then
    grep -v '^#' "$KERNELS"
    return
  fi
  cat <<'EOF'
f16-f32    f16      f16      f32 f32  row col 128,128,32 2,2 3 1
f16-f32    f16      f16      f32 f32  row col 128,256,32 2,4 3 8
f16-f16    f16      f16      f16 f16  row col 128,128,32 2,2 3 1
bf16-f32   bf16     bf16     f32 bf16 row col 128,128,32 2,2 3 1
bf16-f32   bf16     bf16     f32 bf16 row col 128,256,32 2,4 3 8
tf32-f32   f32      f32      f32 f32  row col 128,128,16 2,2 4 1
s8-s32     i8       i8       i32 i32  row col 128,128,64 2,2 3 1
s8-s32     i8       i8       i32 i32  row col 128,256,64 2,4 3 8
u8-s32     ui8      ui8      i32 i32  row col 128,128,64 2,2 3 1
s4-s32     i4       i4       i32 i32  row col 128,128,64 2,2 3 1
e4m3-f32   f8E4M3FN f8E4M3FN f32 f32  row col 128,128,64 2,4 3 1
e5m2-f32   f8E5M2   f8E5M2   f32 f32  row col 128,128,64 2,4 3 1
EOF
}

prepare() {
  local bin=build/bin
  [ -x "$bin/tgemm-opt" ] || make build
  rm -rf "$dir"
  mkdir -p "$dir/src"
  kernels | while read -r name a b acc c la lb block warps stages raster; do
    local tag="$name-${block//,/x}-w${warps//,/x}-s$stages-r$raster"
    local src="$dir/src/$tag.mlir"
    local ty="memref<?x?x$a>, memref<?x?x$b>, memref<?x?x$c>"
    cat > "$src" <<EOF
func.func @${tag//-/_}(%a: memref<?x?x$a>, %b: memref<?x?x$b>, %c: memref<?x?x$c>) {
  tgemm.matmul %a, %b, %c layout($la, $lb) acc($acc)
      config(<block = [${block//,/, }], warps = [${warps//,/, }], stages = $stages, raster = $raster>)
      : $ty
  return
}
EOF
    compile "$src" "$dir" "$tag" "$a"
  done
}

# compile SRC DIR TAG A: SRC through both lowerings (wmma has no fp8, A's
# element type says) to DIR/LOWERING-TAG.{ptx,json}.
compile() {
  local src=$1 out_dir=$2 tag=$3 a=$4 bin=build/bin
  for lowering in wmma ptx; do
    case "$lowering-$a" in wmma-f8*) continue ;; esac
    local out="$out_dir/$lowering-$tag"
    "$bin/tgemm-opt" "$src" \
      --tgemm-pipeline="lowering=$lowering chip=$chip${PIPELINE_OPTIONS:+ $PIPELINE_OPTIONS}" \
      -o "$out.mlir"
    "$bin/tgemm-translate" --emit=ptx "$out.mlir" -o "$out.ptx"
    "$bin/tgemm-translate" --emit=manifest "$out.mlir" -o "$out.json"
    rm "$out.mlir"
    echo "prepared $out.ptx"
  done
}

gpu_build=build-gpu
build_runtime() {
  cmake -G Ninja -S . -B "$gpu_build" -DTGEMM_ENABLE_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=Release > "$dir/cmake.log"
  ninja -C "$gpu_build" tgemm-run > "$dir/ninja.log"
}

run() {
  build_runtime
  local run="$gpu_build/bin/tgemm-run"
  "$run" --list-devices
  echo "== reference self-test"
  "$run" --self-test | tee "$dir/self-test.txt"

  local csv="$dir/results.csv" failed=0
  "$run" --csv-header > "$csv"
  for json in "$dir"/*.json; do
    local ptx="${json%.json}.ptx"
    for shape in $shapes; do
      IFS=x read -r m n k <<< "$shape"
      # Packed 4-bit rows need an even K (the manifest's requires); tgemm-run
      # would refuse the launch, so the suite does not ask.
      if grep -q '"multiple_of": 2' "$json" && [ $((k % 2)) -ne 0 ]; then
        echo "skipped: $(basename "$ptx") at $shape (K must be even)" >> "$dir/errors.log"
        continue
      fi
      if ! "$run" "$ptx" --manifest "$json" --m "$m" --n "$n" --k "$k" \
          --check --csv --reps "$reps" >> "$csv" 2>> "$dir/errors.log"; then
        echo "FAILED: $(basename "$ptx") at $shape" | tee -a "$dir/errors.log"
        failed=1
      fi
    done
  done

  echo "== results ($csv)"
  python3 scripts/suite-table.py "$csv"
  return $failed
}

sanitize() {
  build_runtime
  local run="$gpu_build/bin/tgemm-run" failed=0
  local shape=${SANITIZE_SHAPE:-256x256x256} m n k
  IFS=x read -r m n k <<< "$shape"
  echo "== compute-sanitizer (one kernel per precision and lowering, $shape)"
  local seen=""
  for json in "$dir"/*.json; do
    local key
    key=$(basename "$json" | cut -d- -f1-3)
    case " $seen " in *" $key "*) continue ;; esac
    seen="$seen $key"
    for tool in memcheck racecheck; do
      if compute-sanitizer --tool "$tool" --error-exitcode 99 \
          "$run" "${json%.json}.ptx" --manifest "$json" --m "$m" --n "$n" \
          --k "$k" --reps 0 --no-anchor > "$dir/sanitizer.log.tmp" 2>&1; then
        echo "$key $tool: clean ($(grep -oE '(ERROR|RACECHECK) SUMMARY: .*' \
          "$dir/sanitizer.log.tmp" || echo 'no summary'))"
      else
        echo "$key $tool: FAILED"; failed=1
        cat "$dir/sanitizer.log.tmp" >> "$dir/sanitizer-failures.log"
      fi
    done
  done | tee "$dir/sanitizer.txt"
  grep -q FAILED "$dir/sanitizer.txt" && failed=1
  rm -f "$dir/sanitizer.log.tmp"
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) run ;;
  sanitize) sanitize ;;
  build) mkdir -p "$dir"; build_runtime ;;
  kernels) kernels ;;
  compile) shift; [ -x build/bin/tgemm-opt ] || make build; compile "$@" ;;
  *) echo "usage: $0 prepare|run|sanitize|build|kernels [DIR]" >&2; exit 2 ;;
esac
