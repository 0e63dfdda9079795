#!/usr/bin/env bash
# Small M (decode shapes) against cuBLAS and the copy bandwidth:
#
#   bench/small-m.sh prepare [DIR]  here: every config of the lists below
#                                   at every shape of SHAPES and precision
#                                   of PRECS, as a static tgemm.matmul (row x
#                                   col; f16 -> f32, bf16 -> bf16, s8 -> s32),
#                                   `auto` being the config tgemm-select-config
#                                   picks, to DIR/LOWERING-PREC-TAG-SHAPE.{ptx,json}
#                                   (default build/small-m)
#   bench/small-m.sh run [DIR]      on the GPU host: build tgemm-run; ROUNDS
#                                   rounds of every kernel, checked, cuBLAS
#                                   and a copy of as many bytes timed in the
#                                   same process (--copy); DIR/small-m.csv and
#                                   a table of medians: the rate, the ratio
#                                   to cuBLAS and the fraction of the copy's
#                                   bandwidth
#
# SHAPES, PRECS, CONFIGS (f16's) and OTHER_CONFIGS (the other precisions')
# replace the lists; a config is LOWERING:BM,BN,BK:WM,WN:STAGES:SPLIT with
# BK in 2-byte elements (doubled for s8, so that a row has as many bytes),
# or LOWERING:auto.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/build-runtime.sh
mode=${1:-}
dir=${2:-build/small-m}
shapes=${SHAPES:-"1x4096x4096 16x4096x4096 64x4096x4096"}
configs=${CONFIGS:-"
ptx:auto
ptx:128,128,32:2,2:3:2 ptx:128,128,32:2,2:3:4 ptx:128,128,32:2,2:3:8
ptx:64,128,32:2,2:4:4 ptx:64,128,32:2,2:4:8
ptx:32,128,64:1,4:4:4 ptx:32,128,64:1,4:4:8 ptx:32,64,64:1,4:4:8
wgmma:auto
wgmma:128,128,64:8,1:4:4 wgmma:128,128,64:8,1:4:8
wgmma:128,256,64:8,1:4:4 wgmma:128,256,64:8,1:4:8
wgmma:64,128,64:4,1:4:2 wgmma:64,128,64:4,1:4:4 wgmma:64,128,64:4,1:4:8 wgmma:64,256,64:4,1:4:8
wgmma:64,64,64:4,1:4:2 wgmma:64,64,64:4,1:4:4"}
other_configs=${OTHER_CONFIGS:-"ptx:auto wgmma:auto
wgmma:128,128,64:8,1:4:4 wgmma:64,128,64:4,1:4:2 wgmma:64,128,64:4,1:4:4
wgmma:64,64,64:4,1:4:2 wgmma:64,64,64:4,1:4:4"}
precs=${PRECS:-"f16 bf16 s8"}
rounds=${ROUNDS:-2}
tool=build-gpu/bin/tgemm-run

prepare() {
  local opt=build/bin/tgemm-opt translate=build/bin/tgemm-translate
  [ -x "$opt" ] || { opt=tgemm-opt; translate=tgemm-translate; }
  rm -rf "$dir"
  mkdir -p "$dir/src"
  for prec in $precs; do
    local a c acc list=$other_configs scale=1
    case $prec in
      f16) a=f16; c=f32; acc=f32; list=$configs ;;
      bf16) a=bf16; c=bf16; acc=f32 ;;
      s8) a=i8; c=i32; acc=i32; scale=2 ;;
      *) echo "unknown precision $prec" >&2; exit 2 ;;
    esac
    for shape in $shapes; do
      IFS=x read -r m n k <<< "$shape"
      local ty="memref<${m}x${k}x$a>, memref<${n}x${k}x$a>, memref<${m}x${n}x$c>"
      for entry in $list; do
        local lowering=${entry%%:*} spec=${entry#*:} tag config=""
        if [ "$spec" = auto ]; then
          tag=auto
        else
          local block warps stages split bm bn bk
          IFS=: read -r block warps stages split <<< "$spec"
          IFS=, read -r bm bn bk <<< "$block"
          bk=$((bk * scale))
          tag="${bm}x${bn}x${bk}-w${warps//,/x}-s$stages-k$split"
          config="config(<block = [$bm, $bn, $bk], warps = [${warps//,/, }], stages = $stages, raster = 1, split_k = $split>)"
        fi
        local chip=sm_90
        [ "$lowering" = wgmma ] && chip=sm_90a
        local name="$lowering-$prec-$tag-$shape"
        cat > "$dir/src/$name.mlir" <<MLIR
func.func @small_m_${m}x${n}x${k}(%a: memref<${m}x${k}x$a>, %b: memref<${n}x${k}x$a>, %c: memref<${m}x${n}x$c>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc($acc) $config
      : $ty
  return
}
MLIR
        local out="$dir/$name"
        if ! "$opt" "$dir/src/$name.mlir" \
            --tgemm-pipeline="lowering=$lowering chip=$chip" -o "$out.mlir" \
            2> "$out.err"; then
          echo "refused $name: $(head -1 "$out.err")"
          continue
        fi
        "$translate" --emit=ptx "$out.mlir" -o "$out.ptx"
        "$translate" --emit=manifest "$out.mlir" -o "$out.json"
        rm -f "$out.mlir" "$out.err"
        echo "prepared $out"
      done
    done
  done
}

run() {
  build_runtime "$dir"
  local failed=0 csv="$dir/small-m.csv"
  "$tool" --csv-header | sed 's/$/,round,config,tile_split/' > "$csv"
  for round in $(seq "$rounds"); do
    for json in "$dir"/*.json; do
      local name config split
      name=$(basename "$json" .json)
      config=${name%-*}
      split=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["kernels"][0]["config"]; print("%s/%s" % ("x".join(map(str, c["block"])), c.get("split_k", 1)))' "$json")
      "$tool" "${json%.json}.ptx" --manifest "$json" --check --csv --copy \
        --reps 20 | sed "s|\$|,$round,$config,$split|" >> "$csv" ||
        { echo "FAILED: $name"; failed=1; }
    done
  done
  python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault((r["a"], int(r["m"]), r["config"]), []).append(r)
print("%-5s %-6s %-34s %-14s %8s %8s %6s %8s %8s %6s %s" % (
    "prec", "M", "config", "tile/S", "TFLOP/s", "cuBLAS", "ratio", "GB/s",
    "copy", "frac", "check"))
for (prec, m, config), rs in sorted(by.items()):
    def med(field):
        values = [float(r[field]) for r in rs if r[field]]
        return statistics.median(values) if values else float("nan")
    # No anchor where the library has no such GEMM (s8 at M = 1).
    rate, lib, gbs, copy = (med("kernel_rate"), med("anchor_rate"),
                            med("kernel_gbs"), med("copy_gbs"))
    checks = "/".join(sorted(set(r["check"] for r in rs)))
    print("%-5s %-6d %-34s %-14s %8.2f %8.2f %6.2f %8.0f %8.0f %6.2f %s" % (
        prec, m, config[:34], rs[0]["tile_split"], rate, lib, rate / lib, gbs, copy,
        gbs / copy, checks))
PY
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) mkdir -p "$dir"; run ;;
  *) echo "usage: $0 prepare|run [DIR]" >&2; exit 2 ;;
esac
