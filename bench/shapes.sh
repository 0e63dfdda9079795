#!/usr/bin/env bash
# The shapes users have (split K and its selection), against cuBLAS/cuBLASLt:
#
#   bench/shapes.sh prepare [DIR]   here: for every shape x precision x
#                                   lowering of the lists below, a static
#                                   tgemm.matmul without a config, through
#                                   --tgemm-pipeline (tgemm-select-config
#                                   picks the tile and the split), and again
#                                   with deterministic=true, to
#                                   DIR/LOWERING-PREC-MxNxK[-det].{ptx,json}
#                                   (default build/shapes); where the
#                                   selection copies misaligned operands
#                                   (aligned_copies), again with
#                                   align-kernel=false (-inplace)
#   bench/shapes.sh run [DIR]       on the GPU host: build tgemm-run; ROUNDS
#                                   rounds of every kernel at its shape,
#                                   checked, the library and a copy of as
#                                   many bytes (--copy) timed in the same
#                                   process; DIR/shapes.csv and a table of
#                                   medians with the ratio to the library
#                                   and the fraction of the copy's bandwidth
#                                   (`variant`: default, deterministic or
#                                   in-place)
#
# SHAPES, PRECS and LOWERINGS replace the lists.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/build-runtime.sh
mode=${1:-}
dir=${2:-build/shapes}
shapes=${SHAPES:-"512x512x16384 1000x1000x1000 16x4096x4096 1x4096x4096 4095x4097x999 8192x8192x8192"}
precs=${PRECS:-"f16 bf16 s8 tf32"}
lowerings=${LOWERINGS:-"ptx wgmma"}
rounds=${ROUNDS:-3}
tool=build-gpu/bin/tgemm-run

prepare() {
  local opt=build/bin/tgemm-opt translate=build/bin/tgemm-translate
  [ -x "$opt" ] || { opt=tgemm-opt; translate=tgemm-translate; }
  rm -rf "$dir"
  mkdir -p "$dir/src"
  for shape in $shapes; do
    IFS=x read -r m n k <<< "$shape"
    for prec in $precs; do
      local a c acc
      case $prec in
        f16) a=f16; c=f32; acc=f32 ;;
        bf16) a=bf16; c=bf16; acc=f32 ;;
        s8) a=i8; c=i32; acc=i32 ;;
        tf32) a=f32; c=f32; acc=f32 ;;
        *) echo "unknown precision $prec" >&2; exit 2 ;;
      esac
      local ty="memref<${m}x${k}x$a>, memref<${n}x${k}x$a>, memref<${m}x${n}x$c>"
      local src="$dir/src/$prec-$shape.mlir"
      cat > "$src" <<MLIR
func.func @${prec}_${m}x${n}x${k}(%a: memref<${m}x${k}x$a>, %b: memref<${n}x${k}x$a>, %c: memref<${m}x${n}x$c>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc($acc) : $ty
  return
}
MLIR
      for lowering in $lowerings; do
        local chip=sm_90
        [ "$lowering" = wgmma ] && chip=sm_90a
        for variant in default det inplace; do
          local out="$dir/$lowering-$prec-$shape" options=""
          case $variant in
            det) out+="-det"; options=" deterministic=true" ;;
            inplace)
              # Only where the default copies an operand to align it.
              grep -q '"aligned_copies"' "$dir/$lowering-$prec-$shape.json" || continue
              out+="-inplace"; options=" align-kernel=false" ;;
          esac
          "$opt" "$src" --tgemm-pipeline="lowering=$lowering chip=$chip$options" -o "$out.mlir"
          "$translate" --emit=ptx "$out.mlir" -o "$out.ptx"
          "$translate" --emit=manifest "$out.mlir" -o "$out.json"
          rm "$out.mlir"
        done
        echo "prepared $dir/$lowering-$prec-$shape"
      done
    done
  done
}

run() {
  build_runtime "$dir"
  local failed=0 csv="$dir/shapes.csv"
  "$tool" --csv-header | sed 's/$/,round,split_k,variant/' > "$csv"
  for round in $(seq "$rounds"); do
    for json in "$dir"/*.json; do
      local name shape m n k split det=default
      name=$(basename "$json" .json)
      [[ $name == *-det ]] && det=deterministic
      [[ $name == *-inplace ]] && det=in-place
      shape=${name#*-*-}
      shape=${shape%-det}
      shape=${shape%-inplace}
      IFS=x read -r m n k <<< "$shape"
      split=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernels"][0]["config"].get("split_k", 1))' "$json")
      "$tool" "${json%.json}.ptx" --manifest "$json" --m "$m" --n "$n" \
        --k "$k" --check --csv --copy --reps 20 | sed "s/\$/,$round,$split,$det/" >> "$csv" ||
        { echo "FAILED: $name"; failed=1; }
    done
  done
  python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    key = (r["m"] + "x" + r["n"] + "x" + r["k"], r["lowering"] + " " + r["a"], r["variant"])
    by.setdefault(key, []).append(r)
print("%-16s %-34s %13s %4s %9s %9s %6s %7s %7s %5s %s" % (
    "shape", "kernel", "variant", "S", "rate", "library", "ratio", "GB/s",
    "copy", "frac", "check"))
for (shape, kernel, det), rs in sorted(by.items()):
    rate = statistics.median(float(r["kernel_rate"]) for r in rs)
    anchors = [float(r["anchor_rate"]) for r in rs if r["anchor_rate"]]
    anchor = statistics.median(anchors) if anchors else float("nan")
    checks = "/".join(sorted(set(r["check"] for r in rs)))
    gbs = [float(r["kernel_gbs"]) for r in rs if r.get("kernel_gbs")]
    copy = [float(r["copy_gbs"]) for r in rs if r.get("copy_gbs")]
    gbs = statistics.median(gbs) if gbs else float("nan")
    copy = statistics.median(copy) if copy else float("nan")
    print("%-16s %-34s %13s %4s %9.1f %9.1f %6.2f %7.0f %7.0f %5.2f %s" % (
        shape, kernel[:34], det, rs[0]["split_k"], rate, anchor,
        rate / anchor if anchors else float("nan"), gbs, copy, gbs / copy,
        checks))
PY
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) mkdir -p "$dir"; run ;;
  *) echo "usage: $0 prepare|run [DIR]" >&2; exit 2 ;;
esac
