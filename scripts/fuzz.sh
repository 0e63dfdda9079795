#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, docs/fuzzing.md) with clang in a
# build directory of their own and runs each for SECONDS (default 60) on a
# copy of its seed corpus, both at once. Exits non-zero on any crash,
# assertion, hang, leak, out-of-memory or sanitizer report; the input that
# caused it is saved under build-fuzz/artifacts/<fuzzer>/ and the log under
# build-fuzz/logs/.
#
#   scripts/fuzz.sh [SECONDS]
#
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_CLANG_VERSION
# (default 22, the LLVM that tgemm builds against), FUZZ_TIMEOUT (seconds
# one input may take, default 30), FUZZ_RSS_MB (default 4096).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz}
version=${FUZZ_CLANG_VERSION:-22}
timeout=${FUZZ_TIMEOUT:-30}
rss_mb=${FUZZ_RSS_MB:-4096}

if ! command -v "clang++-$version" >/dev/null; then
  scripts/install-deps.sh
fi

# The runtime proper needs CUDA (nvcc rejects the sanitizer flags); the
# manifest fuzzer builds the runtime's CUDA-free part on its own.
cmake -G Ninja -S . -B "$build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="clang-$version" -DCMAKE_CXX_COMPILER="clang++-$version" \
  -DTGEMM_ENABLE_FUZZERS=ON -DTGEMM_ENABLE_RUNTIME=OFF >/dev/null
cmake --build "$build" --target tgemm-fuzzers

# NAME SEEDS [libFuzzer flags...]: runs in the background, rc in logs/NAME.rc.
run_fuzzer() {
  local name=$1 seeds=$2
  shift 2
  local corpus="$build/corpus/$name" artifacts="$build/artifacts/$name"
  rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts" "$build/logs"
  cp "$seeds"/* "$corpus"/
  touch "$build/logs/$name.start" # artifacts of earlier runs stay, unlisted
  (
    set +e
    "$build/bin/$name" "$corpus" \
      -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss_mb" \
      -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" \
      >"$build/logs/$name.log" 2>&1
    echo $? >"$build/logs/$name.rc"
  ) &
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
run_fuzzer mlir-pipeline-fuzzer fuzz/corpus/mlir \
  -dict=fuzz/mlir.dict -max_len=4096
run_fuzzer manifest-fuzzer fuzz/corpus/manifest \
  -dict=fuzz/manifest.dict -max_len=8192
wait

status=0
for name in mlir-pipeline-fuzzer manifest-fuzzer; do
  rc=$(cat "$build/logs/$name.rc")
  stats=$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
            "$build/logs/$name.log" | sed 's/^stat:://' | tr -s ' \n' ' ' || true)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz: $name: no findings in ${seconds}s ($stats)"
  else
    status=1
    echo "fuzz: $name: FAILED (exit $rc); log: $build/logs/$name.log"
    # The report: from the first line of the sanitizer's, libFuzzer's or the
    # harness's own message on.
    log="$build/logs/$name.log"
    first=$( (grep -n -m1 -E '^==[0-9]+==|runtime error:|^(mlir-pipeline|manifest)-fuzzer: ' \
               "$log" || true) | cut -d: -f1)
    if [ -n "$first" ]; then
      sed -n "$first,\$p" "$log" | head -60 || true
    fi
    find "$build/artifacts/$name" -type f -newer "$build/logs/$name.start"
  fi
done
exit $status
