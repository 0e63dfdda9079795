#!/usr/bin/env bash
# The aligning kernel on every kind of operand it copies, checked:
#
#   bench/aligned-copies.sh prepare [DIR]  here: every function of
#                                          test/Target/Inputs/align-kernel.mlir
#                                          (odd K in f16 and s8, a static
#                                          stride of 1001, a decode read in
#                                          place, a batch of 4 with odd K)
#                                          through --tgemm-pipeline for
#                                          LOWERING (default wgmma, on
#                                          sm_90a; ptx on sm_90): DIR/NAME.ptx
#                                          per module, DIR/all.json the
#                                          manifest (default build/aligned-copies)
#   bench/aligned-copies.sh run [DIR]      on the GPU host: build tgemm-run;
#                                          every kernel once --check'ed
#                                          against the library, then
#                                          compute-sanitizer memcheck and
#                                          racecheck on the kernel alone
#                                          (--no-anchor; SANITIZE names the
#                                          kernels, default all);
#                                          DIR/aligned-copies.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/build-runtime.sh
mode=${1:-}
dir=${2:-build/aligned-copies}
lowering=${LOWERING:-wgmma}
tool=build-gpu/bin/tgemm-run
input=test/Target/Inputs/align-kernel.mlir
# Every function of the input, one module and kernel each.
names=$(sed -n 's/^func\.func @\([a-z0-9_]*\).*/\1/p' "$input")
sanitize=${SANITIZE:-$names}

prepare() {
  local opt=build/bin/tgemm-opt translate=build/bin/tgemm-translate chip=sm_90a
  [ -x "$opt" ] || { opt=tgemm-opt; translate=tgemm-translate; }
  [ "$lowering" = wgmma ] || chip=sm_90
  rm -rf "$dir"
  mkdir -p "$dir"
  "$opt" "$input" \
    --tgemm-pipeline="lowering=$lowering chip=$chip" -o "$dir/all.mlir"
  for name in $names; do
    "$translate" --emit=ptx --module "${name}_module" "$dir/all.mlir" -o "$dir/$name.ptx"
    echo "prepared $dir/$name"
  done
  "$translate" --emit=manifest "$dir/all.mlir" -o "$dir/all.json"
  rm "$dir/all.mlir"
}

# The launch arguments of each kernel: its name, its static stride, its
# batch.
launch_args() {
  echo "--manifest $dir/all.json --kernel ${1}_kernel"
  case $1 in
    f16_strided) echo "--lda 1001" ;;
    f16_batched) echo "--batch 4" ;;
  esac
}

run() {
  build_runtime "$dir"
  local failed=0 out="$dir/aligned-copies.txt"
  : > "$out"
  for name in $names; do
    # shellcheck disable=SC2046
    { echo "== $name: checked"
      "$tool" "$dir/$name.ptx" $(launch_args "$name") \
        --check --reps 10; } >> "$out" 2>&1 || { echo "FAILED: $name"; failed=1; }
  done
  for name in $sanitize; do
    for check in memcheck racecheck; do
      # shellcheck disable=SC2046
      { echo "== $name: $check"
        compute-sanitizer --tool "$check" --error-exitcode 1 "$tool" "$dir/$name.ptx" \
          $(launch_args "$name") --no-anchor \
          --reps 1 --warmup 0 | tail -2; } >> "$out" 2>&1 ||
        { echo "FAILED: $name under $check"; failed=1; }
    done
  done
  grep -E "^==|ok \(|FAILED|SUMMARY" "$out"
  return $failed
}

case "$mode" in
  prepare) prepare ;;
  run) mkdir -p "$dir"; run ;;
  *) echo "usage: $0 prepare|run [DIR]" >&2; exit 2 ;;
esac
