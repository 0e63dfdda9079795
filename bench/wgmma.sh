#!/usr/bin/env bash
# The wgmma family against the ptx family and cuBLAS, in one session:
#
#   bench/wgmma.sh prepare [DIR]   here: compile bench/wgmma-kernels.txt
#                                  (KERNELS=FILE for another list) to
#                                  DIR/LOWERING-TAG.{ptx,json} (default
#                                  build/wgmma), sm_90a for wgmma, sm_90 for
#                                  the others; a 13th column of the list
#                                  names pipeline options (switches such as
#                                  warp-specialize,tma, or NAME=VALUE such
#                                  as split-k=4)
#   bench/wgmma.sh run [DIR]       on the GPU host: build tgemm-run; check
#                                  every kernel at the odd shapes (CHECK_SHAPES,
#                                  rows in DIR/checks.csv);
#                                  then ROUNDS rounds of every kernel in turn
#                                  at each of SIZES, checked, cuBLAS timed in
#                                  the same process; DIR/wgmma.csv and a
#                                  table of medians with the ratio to cuBLAS
#   bench/wgmma.sh sanitize [DIR]  on the GPU host: compute-sanitizer memcheck
#                                  and racecheck on each wgmma kernel and
#                                  each persistent one alone (--no-anchor,
#                                  no --check; persistent kernels with
#                                  --persistent-blocks 2 over 3 x 3 tiles)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/build-runtime.sh
mode=${1:-}
dir=${2:-build/wgmma}
sizes=${SIZES:-"8192x8192x8192 4096x4096x4096 4096x11008x4096"}
check_shapes=${CHECK_SHAPES:-"1000x1000x1000 4095x4097x999 1x4096x4096 128x128x64"}
rounds=${ROUNDS:-3}
tool=build-gpu/bin/tgemm-run

prepare() {
  # The build's tools, else those on PATH (as lit runs it).
  local opt=build/bin/tgemm-opt translate=build/bin/tgemm-translate
  [ -x "$opt" ] || { opt=tgemm-opt; translate=tgemm-translate; }
  rm -rf "$dir"
  mkdir -p "$dir/src"
  grep -v '^#' "${KERNELS:-bench/wgmma-kernels.txt}" |
    while read -r lowering name a b acc c la lb block warps stages raster opts; do
      [ -n "$lowering" ] || continue
      local chip=sm_90
      [ "$lowering" = wgmma ] && chip=sm_90a
      local tag="$name-${block//,/x}-w${warps//,/x}-s$stages-r$raster"
      # Layouts other than (row, col) name the kernel too.
      [ "$la$lb" = rowcol ] || tag="$name-$la$lb-${tag#$name-}"
      # Optional pipeline options: switches set to true (e.g.
      # warp-specialize,tma,setmaxnreg) or NAME=VALUE (e.g. split-k=4);
      # they name the kernel too.
      local switches=""
      if [ -n "${opts:-}" ] && [ "$opts" != - ]; then
        for o in ${opts//,/ }; do
          case "$o" in *=*) switches+=" $o" ;; *) switches+=" $o=true" ;; esac
        done
        opts=${opts//=/}
        tag+="-${opts//,/-}"
      fi
      local src="$dir/src/$lowering-$tag.mlir"
      local ty="memref<?x?x$a>, memref<?x?x$b>, memref<?x?x$c>"
      cat > "$src" <<MLIR
func.func @${lowering}_${tag//-/_}(%a: memref<?x?x$a>, %b: memref<?x?x$b>, %c: memref<?x?x$c>) {
  tgemm.matmul %a, %b, %c layout($la, $lb) acc($acc)
      config(<block = [${block//,/, }], warps = [${warps//,/, }], stages = $stages, raster = $raster>)
      : $ty
  return
}
MLIR
      local out="$dir/$lowering-$tag"
      "$opt" "$src" --tgemm-pipeline="lowering=$lowering chip=$chip$switches" -o "$out.mlir"
      "$translate" --emit=ptx "$out.mlir" -o "$out.ptx"
      "$translate" --emit=manifest "$out.mlir" -o "$out.json"
      rm "$out.mlir"
      echo "prepared $out.ptx"
    done
}

run() {
  build_runtime "$dir"
  local failed=0 csv="$dir/wgmma.csv"
  echo "== checks at odd shapes"
  # Each check's row goes to DIR/checks.csv (one timed repetition beside
  # the check), so that the checks leave a record.
  "$tool" --csv-header | sed 's/$/,round/' > "$dir/checks.csv"
  for json in "$dir"/*.json; do
    # A persistent kernel also with 3 blocks per grid layer, so that each
    # block loops over several tiles at the small shapes too.
    local limits=("")
    grep -q '"persistent": *true' "$json" && limits=("" 3)
    for shape in $check_shapes; do
      IFS=x read -r m n k <<< "$shape"
      for limit in "${limits[@]}"; do
        if ! "$tool" "${json%.json}.ptx" --manifest "$json" --m "$m" \
            --n "$n" --k "$k" ${limit:+--persistent-blocks "$limit"} \
            --check --csv --reps 1 > "$dir/check.log" 2>&1; then
          echo "FAILED: $(basename "$json" .json) at $shape${limit:+, $limit blocks}"
          failed=1
          tail -3 "$dir/check.log"
        else
          sed "s/\$/,check${limit:+-$limit}/" "$dir/check.log" >> "$dir/checks.csv"
        fi
      done
    done
  done
  [ "$rounds" -gt 0 ] || return $failed
  echo "== timing: $rounds rounds x ($sizes), every kernel in turn"
  "$tool" --csv-header | sed 's/$/,round/' > "$csv"
  for round in $(seq "$rounds"); do
    for shape in $sizes; do
      IFS=x read -r m n k <<< "$shape"
      for json in "$dir"/*.json; do
        "$tool" "${json%.json}.ptx" --manifest "$json" --m "$m" --n "$n" \
          --k "$k" --check --csv --reps 20 | sed "s/\$/,$round/" >> "$csv" ||
          { echo "FAILED: $(basename "$json" .json) at $shape"; failed=1; }
      done
    done
  done
  python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    key = (r["m"] + "x" + r["n"] + "x" + r["k"], r["kernel"])
    by.setdefault(key, []).append(r)
print("%-16s %-52s %8s %8s %7s %s" % ("shape", "kernel", "TFLOP/s", "cuBLAS",
                                       "ratio", "check"))
for (shape, kernel), rs in sorted(by.items()):
    rate = statistics.median(float(r["kernel_rate"]) for r in rs)
    # A precision the library has no kernel for leaves anchor_rate empty.
    anchors = [float(r["anchor_rate"]) for r in rs if r["anchor_rate"]]
    checks = "/".join(sorted(set(r["check"] for r in rs)))
    if anchors:
        anchor = statistics.median(anchors)
        print("%-16s %-52s %8.1f %8.1f %7.3f %s" % (
            shape, kernel[:52], rate, anchor, rate / anchor, checks))
    else:
        print("%-16s %-52s %8.1f %8s %7s %s" % (
            shape, kernel[:52], rate, "-", "-", checks))
PY
  return $failed
}

sanitize() {
  build_runtime "$dir"
  local failed=0
  for json in "$dir"/*.json; do
    # A persistent kernel at a shape of 3 x 3 tiles or more (edges
    # included), 2 blocks: each block loops over several tiles.
    local args=(--m 256 --n 256 --k 256)
    if grep -q '"persistent": *true' "$json"; then
      args=(--m 384 --n 520 --k 320 --persistent-blocks 2)
    elif [[ "$(basename "$json")" != wgmma-* ]]; then
      continue
    fi
    for t in memcheck racecheck; do
      if compute-sanitizer --tool "$t" --error-exitcode 99 "$tool" \
          "${json%.json}.ptx" --manifest "$json" "${args[@]}" \
          --reps 0 --no-anchor > "$dir/sanitizer.log" 2>&1; then
        echo "$(basename "$json" .json) $t: clean ($(grep -oE '(ERROR|RACECHECK) SUMMARY: .*' "$dir/sanitizer.log" || echo 'no summary'))"
      else
        echo "$(basename "$json" .json) $t: FAILED"; failed=1
        tail -20 "$dir/sanitizer.log"
      fi
    done
  done
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) mkdir -p "$dir"; run ;;
  sanitize) mkdir -p "$dir"; sanitize ;;
  *) echo "usage: $0 prepare|run|sanitize [DIR]" >&2; exit 2 ;;
esac
