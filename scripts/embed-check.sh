#!/usr/bin/env bash
# tgemm as a package for other CMake projects: installs a build of tgemm
# into a temporary prefix, configures and builds examples/embed (its own
# project, find_package(TGemm)) against it in a fresh build directory, runs
# its tool on examples/embed/matmul.mlir for both lowerings, checks that it
# writes what the installed tgemm-opt | tgemm-translate write for the same
# pipeline, that it fails with a diagnostic on a bad input, and assembles the
# PTX with ptxas for sm_90 where the CUDA toolkit is. It also checks the
# version (find_package(TGemm 0.2) finds the package, another minor version
# does not; the installed tools print the build's version) and the installed
# Python package (imports from the prefix, compiles, finds the prefix's
# runtime library).
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
[ -f "$prefix/lib/cmake/tgemm/TGemmConfigVersion.cmake" ] ||
  fail "no lib/cmake/tgemm/TGemmConfigVersion.cmake in the prefix"
[ -f "$prefix/include/tgemm/Version.h" ] ||
  fail "no include/tgemm/Version.h in the prefix"

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
echo "== the installed tools are tgemm $version"
for tool in tgemm-opt tgemm-translate; do
  "$prefix/bin/$tool" --version | grep -qx "$tool (tgemm) $version" ||
    fail "$tool --version does not say tgemm $version"
done

echo "== find_package(TGemm) takes $version, and no other minor version"
major_minor=${version%.*}
other="${version%%.*}.$(( ${major_minor#*.} + 1 ))"
mkdir -p "$work/version-probe"
cat > "$work/version-probe/CMakeLists.txt" << 'PROBE'
cmake_minimum_required(VERSION 3.20)
project(version-probe NONE)
find_package(TGemm ${WANTED} CONFIG QUIET)
message(STATUS "probe: found=${TGemm_FOUND} version=${TGemm_VERSION}")
PROBE
probe() {
  rm -rf "$work/version-probe/build"
  cmake -S "$work/version-probe" -B "$work/version-probe/build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DWANTED="$1" 2>&1 | sed -n 's/.*probe: //p'
}
[ "$(probe "$major_minor")" = "found=1 version=$version" ] ||
  fail "find_package(TGemm $major_minor) does not find tgemm $version"
[ "$(probe "$other")" = "found=0 version=" ] ||
  fail "find_package(TGemm $other) accepts tgemm $version"

python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
python_dir=$(sed -n 's/^TGEMM_INSTALL_PYTHON_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
if ls "$build"/python/tgemm/_tgemm*.so > /dev/null 2>&1; then
  echo "== the installed Python package ($python_dir) imports and compiles"
  [ -d "$prefix/$python_dir/tgemm" ] || fail "no $python_dir/tgemm in the prefix"
  (cd "$work" && env -u TGEMM_RUNTIME_LIB PYTHONPATH="$prefix/$python_dir" \
    PYTHONDONTWRITEBYTECODE=1 "$python" - "$prefix" "$version" << 'PY'
import os, sys
import tgemm
prefix, version = os.path.realpath(sys.argv[1]), sys.argv[2]
assert os.path.realpath(tgemm.__file__).startswith(prefix), tgemm.__file__
assert tgemm.__version__ == version, (tgemm.__version__, version)
kernel = tgemm.compile_problem(128, 128, 128, a="f16", lowering="wmma")
assert "wmma.mma.sync" in kernel.ptx
library = tgemm.runtime.find_library()
if os.path.isabs(library):  # built with the runtime (the CUDA toolkit)
    assert os.path.realpath(library) == os.path.join(
        prefix, "lib", "libtgemm_runtime.so"), library
print("python: tgemm", tgemm.__version__, "from the prefix; runtime:", library)
PY
  ) || fail "the installed Python package does not work"
fi

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
