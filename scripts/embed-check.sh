#!/usr/bin/env bash
# tgemm as a package for other CMake projects: installs a build of tgemm
# into a temporary prefix, configures and builds examples/embed (its own
# project, find_package(TGemm)) against it in a fresh build directory, runs
# its tool on examples/embed/matmul.mlir for both lowerings, checks that it
# writes what the installed tgemm-opt | tgemm-translate write for the same
# pipeline, that it fails with a diagnostic on a bad input, and assembles the
# PTX with ptxas for sm_90 where the CUDA toolkit is.
#
#   scripts/embed-check.sh [BUILD_DIR]      default: build, already built
#
# PTXAS=path overrides /usr/local/cuda/bin/ptxas; KEEP=1 keeps the
# temporary directory. Prints "embed-check: OK" last on success.
set -euo pipefail
fail() { echo "embed-check: $*" >&2; exit 1; }

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" 2> /dev/null && pwd) || fail "no directory ${1:-build}"
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}

[ -f "$build/CMakeCache.txt" ] || fail "$build is not a CMake build directory"
[ -x "$build/bin/tgemm-opt" ] || fail "$build has no bin/tgemm-opt: build it first"

work=$(mktemp -d "${TMPDIR:-/tmp}/tgemm-embed.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
  echo "embed-check: keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
prefix="$work/prefix"

echo "== install $build into $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }
[ -f "$prefix/lib/cmake/tgemm/TGemmConfig.cmake" ] ||
  fail "no lib/cmake/tgemm/TGemmConfig.cmake in the prefix"

# The consumer is built with the compiler tgemm was built with; MLIR is not
# named: the package must find it by itself.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
generator=()
if command -v ninja > /dev/null; then generator=(-G Ninja); fi
echo "== configure and build examples/embed against it"
cmake "${generator[@]}" -S "$src/examples/embed" -B "$work/embed" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} > "$work/configure.log" ||
  { cat "$work/configure.log" >&2; fail "configuring examples/embed failed"; }
cmake --build "$work/embed" > "$work/build.log" ||
  { cat "$work/build.log" >&2; fail "building examples/embed failed"; }
demo="$work/embed/tgemm-embed-demo"

input="$src/examples/embed/matmul.mlir"
for lowering in ptx wmma; do
  out="$work/out-$lowering"
  echo "== tgemm-embed-demo --lowering=$lowering --chip=sm_90"
  "$demo" "$input" -o "$out" --lowering="$lowering" --chip=sm_90
  shopt -s nullglob
  ptx_files=("$out"/*.ptx)
  shopt -u nullglob
  [ "${#ptx_files[@]}" -gt 0 ] || fail "no .ptx written for $lowering"
  [ -s "$out/manifest.json" ] || fail "no manifest.json written for $lowering"
  python3 -m json.tool "$out/manifest.json" > /dev/null ||
    fail "manifest.json ($lowering) is not JSON"

  # The C++ API and the textual pipeline give the same kernel.
  "$prefix/bin/tgemm-opt" "$input" \
    --tgemm-pipeline="lowering=$lowering chip=sm_90" -o "$work/$lowering.mlir"
  if [ "${#ptx_files[@]}" -eq 1 ]; then
    "$prefix/bin/tgemm-translate" --emit=ptx "$work/$lowering.mlir" \
      -o "$work/$lowering.ptx"
    cmp -s "$work/$lowering.ptx" "${ptx_files[0]}" ||
      fail "$lowering: the PTX differs from tgemm-opt | tgemm-translate's"
  fi
  "$prefix/bin/tgemm-translate" --emit=manifest "$work/$lowering.mlir" \
    -o "$work/$lowering.json"
  cmp -s "$work/$lowering.json" "$out/manifest.json" ||
    fail "$lowering: the manifest differs from tgemm-translate's"

  if [ -x "$ptxas" ]; then
    for f in "${ptx_files[@]}"; do
      "$ptxas" -arch=sm_90 "$f" -o "$work/kernel.cubin" ||
        fail "ptxas rejects $(basename "$f") ($lowering)"
    done
    echo "ptxas -arch=sm_90: ${#ptx_files[@]} module(s) assemble"
  fi
done
[ -x "$ptxas" ] || echo "($ptxas not found: PTX not assembled)"

echo "== a bad input fails with a diagnostic"
printf 'func.func @f(%%a: memref<8x8xf16>) {\n  tgemm.matmul %%a\n}\n' \
  > "$work/bad.mlir"
if "$demo" "$work/bad.mlir" -o "$work/out-bad" 2> "$work/bad.err"; then
  fail "tgemm-embed-demo succeeded on a bad input"
fi
grep -q "bad.mlir:[0-9]*:[0-9]*: error:" "$work/bad.err" ||
  { cat "$work/bad.err" >&2; fail "no located error for a bad input"; }

echo "embed-check: OK"
