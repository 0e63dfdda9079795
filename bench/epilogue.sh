#!/usr/bin/env bash
# Fused epilogues on the GPU host: each kernel with an epilogue and the
# same kernel without one, checked against the reference (which applies
# the same steps) and timed next to the plain library GEMM in the same
# process; plain and fused runs alternate, ROUNDS times.
#
#   bench/epilogue.sh prepare DIR   # here: compile the kernels into DIR
#   bench/epilogue.sh run DIR       # GPU host: runtime build, runs, CSV
#
# LOWERINGS (default "ptx wgmma") picks the families to prepare; OPTIONS
# adds pipeline options to each (e.g. LOWERINGS=wgmma OPTIONS=tma-store=true).
#
# The fused kernel's overhead is its ratio to the library over the plain
# kernel's ratio, both against the library of their own process.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?prepare or run}
dir=${2:?directory}
ROUNDS=${ROUNDS:-2}
# name|lowering|chip|A|acc|C (s8 dequantized to bf16 / f16, e4m3 to bf16)
KERNELS=(
  "f16-ptx|ptx|sm_90|f16|f32|f16"
  "f16-wgmma|wgmma|sm_90a|f16|f32|f16"
  "bf16-wgmma|wgmma|sm_90a|bf16|f32|bf16"
  "s8-ptx|ptx|sm_90|i8|i32|bf16"
  "s8-wgmma|wgmma|sm_90a|i8|i32|f16"
  "e4m3-wgmma|wgmma|sm_90a|f8E4M3FN|f32|bf16"
)
EPILOGUES=(
  "plain|"
  "bias-gelu|bias(col) %e0 : memref<?xE>, gelu_tanh"
  "bias-relu|bias(col) %e0 : memref<?xE>, relu"
  "gelu-erf|gelu_erf"
  "silu-residual|silu, residual %e0 : memref<?x?xE>"
  "scale-bias|scale(col) %e0 : memref<?xf32>, bias(row) %e1 : memref<?xE>"
)
emit() { # A acc C epilogue -> MLIR
  local a=$1 acc=$2 c=$3 epi=$4 args="" e="${4//E/$3}"
  [[ $e == *"%e0"* ]] && args+=", %e0: $(sed -E 's/.*%e0 : ([^,)]*).*/\1/' <<<"$e")"
  [[ $e == *"%e1"* ]] && args+=", %e1: $(sed -E 's/.*%e1 : ([^,)]*).*/\1/' <<<"$e")"
  local ep=""; [[ -n $e ]] && ep="epilogue($e)"
  cat <<MLIR
func.func @gemm(%a: memref<?x?x$a>, %b: memref<?x?x$a>, %c: memref<?x?x$c>$args) {
  tgemm.matmul %a, %b, %c layout(row, col) acc($acc) $ep
      : memref<?x?x$a>, memref<?x?x$a>, memref<?x?x$c>
  return
}
MLIR
}
if [[ $mode == prepare ]]; then
  opt=build/bin/tgemm-opt translate=build/bin/tgemm-translate
  [ -x "$opt" ] || { opt=tgemm-opt; translate=tgemm-translate; }
  mkdir -p "$dir"
  for k in "${KERNELS[@]}"; do
    IFS='|' read -r name lowering chip a acc c <<<"$k"
    [[ " ${LOWERINGS:-ptx wgmma} " == *" $lowering "* ]] || continue
    for e in "${EPILOGUES[@]}"; do
      IFS='|' read -r ename sig <<<"$e"
      emit "$a" "$acc" "$c" "$sig" > "$dir/$name-$ename.mlir"
      "$opt" "$dir/$name-$ename.mlir" \
        --tgemm-pipeline="lowering=$lowering chip=$chip${OPTIONS:+ $OPTIONS}" -o "$dir/$name-$ename.k.mlir"
      "$translate" --emit=ptx "$dir/$name-$ename.k.mlir" -o "$dir/$name-$ename.ptx"
      "$translate" --emit=manifest "$dir/$name-$ename.k.mlir" -o "$dir/$name-$ename.json"
    done
  done
  ls "$dir"/*.ptx | wc -l
  exit 0
fi
source bench/build-runtime.sh
out=${OUT:-$dir}
build_runtime "$out"
csv="$out/epilogue.csv"
{ printf "kernel,"; build-gpu/bin/tgemm-run --csv-header; } > "$csv"
SHAPES=${SHAPES:-"8192x8192x8192 4096x11008x4096 1000x1000x1000"}
for round in $(seq "$ROUNDS"); do
  for shape in $SHAPES; do
    IFS=x read -r m n k <<<"$shape"
    for ptx in "$dir"/*.ptx; do
      base=${ptx%.ptx}
      build-gpu/bin/tgemm-run "$ptx" --manifest "$base.json" --m "$m" --n "$n" --k "$k" \
        --check --reps 30 --csv 2>>"$out/errors.log" | sed "s|^|$(basename "$base"),|" >> "$csv" || echo "FAILED $base $shape" >> "$out/errors.log"
    done
  done
done
wc -l "$csv"
