#!/usr/bin/env bash
# The runtime-only install, as a GPU host without LLVM gets it: configures
# this source tree with -DTGEMM_ENABLE_COMPILER=OFF in a fresh build
# directory (CUDA code for sm_90 only, to keep it short), builds it,
# installs it into a temporary prefix and checks that the prefix has the
# runtime and nothing of the compiler:
#   - bin/tgemm-run, lib/libtgemm_runtime.so, tgemm/runtime/c_api.h and the
#     CMake package TGemmRuntime, all of project()'s version; no tgemm-opt,
#     no compiler libraries, no Python extension;
#   - a C program of its own (find_package(TGemmRuntime 0.2)) links the C
#     API and loads a kernel from PTX and a manifest;
#   - the Python modules import from the prefix, say they cannot compile,
#     find the prefix's runtime library, and run (or, without a GPU, say
#     there is no device).
#
#   scripts/runtime-only-check.sh            needs the CUDA toolkit, not LLVM
#   KERNELS=DIR scripts/runtime-only-check.sh
#
# Without KERNELS the kernel is test/Runtime/Inputs/gemm.ptx, a stand-in
# with the real parameter list and no body: it loads, and launches without
# a check. KERNELS names a directory of kernels compiled elsewhere (NAME.ptx
# or NAME.cubin with NAME.json): on a GPU each one then runs checked
# against the reference library, from C and from Python.
#
# KEEP=1 keeps the temporary directory. Prints "runtime-only-check: OK" last.
set -euo pipefail
fail() { echo "runtime-only-check: $*" >&2; exit 1; }

src=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
work=$(mktemp -d "${TMPDIR:-/tmp}/tgemm-runtime-only.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
  echo "runtime-only-check: keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
prefix="$work/prefix"
generator=()
if command -v ninja > /dev/null; then generator=(-G Ninja); fi

echo "== configure and build the runtime alone"
cmake "${generator[@]}" -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DTGEMM_ENABLE_COMPILER=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DPython3_EXECUTABLE="$python" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring failed"; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$work/build/CMakeCache.txt")
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in the build's CMakeCache.txt"
echo "tgemm $version"
if grep -q "^MLIR_DIR:.*=/" "$work/build/CMakeCache.txt"; then
  fail "the runtime-only configure looked up MLIR"
fi
cmake --build "$work/build" > "$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log" >&2; fail "building failed"; }
cmake --install "$work/build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }

echo "== what the prefix holds"
for f in bin/tgemm-run lib/libtgemm_runtime.so include/tgemm/runtime/c_api.h \
    lib/cmake/TGemmRuntime/TGemmRuntimeConfig.cmake \
    lib/cmake/TGemmRuntime/TGemmRuntimeConfigVersion.cmake; do
  [ -e "$prefix/$f" ] || fail "no $f in the prefix"
done
for f in bin/tgemm-opt bin/tgemm-translate lib/cmake/tgemm; do
  [ ! -e "$prefix/$f" ] || fail "a runtime-only install has $f"
done
if find "$prefix" -name 'libTGemm*.a' -o -name '_tgemm*.so' | grep -q .; then
  fail "a runtime-only install has compiler libraries or the Python extension"
fi
"$prefix/bin/tgemm-run" --version | grep -qx "tgemm-run (tgemm) $version" ||
  fail "tgemm-run --version does not say tgemm $version"
echo "tgemm-run, libtgemm_runtime.so, c_api.h, TGemmRuntime $version; no compiler"

echo "== a C program of its own: find_package(TGemmRuntime ${version%.*})"
mkdir -p "$work/consumer"
cat > "$work/consumer/CMakeLists.txt" << 'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(runtime-consumer LANGUAGES C)
find_package(TGemmRuntime ${WANTED} REQUIRED CONFIG)
add_executable(consumer consumer.c)
target_link_libraries(consumer PRIVATE TGemm::tgemm_runtime)
CMAKE
cat > "$work/consumer/consumer.c" << 'C'
#include "tgemm/runtime/c_api.h"
#include <stdio.h>

/* Loads argv[1] with its manifest argv[2]: without a GPU the load fails,
 * saying so; with one it succeeds. */
int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  printf("version %s abi %d\n", tgemm_rt_version(), tgemm_rt_abi_version());
  tgemm_rt_kernel *kernel = tgemm_rt_load(argv[1], argv[2], NULL, 0);
  if (!kernel) {
    printf("load: %s\n", tgemm_rt_last_error());
    return 0;
  }
  printf("load: ok\n");
  tgemm_rt_free(kernel);
  return 0;
}
C
cmake "${generator[@]}" -S "$work/consumer" -B "$work/consumer/build" \
  -DCMAKE_PREFIX_PATH="$prefix" -DWANTED="${version%.*}" \
  > "$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log" >&2; fail "configuring the C program failed"; }
cmake --build "$work/consumer/build" >> "$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log" >&2; fail "building the C program failed"; }
kernels=()
checked=0
if [ -n "${KERNELS:-}" ]; then
  KERNELS=$(cd "$KERNELS" && pwd) || fail "no directory $KERNELS"
  shopt -s nullglob
  for f in "$KERNELS"/*.ptx "$KERNELS"/*.cubin; do
    [ -f "${f%.*}.json" ] && kernels+=("$f")
  done
  shopt -u nullglob
  [ "${#kernels[@]}" -gt 0 ] || fail "no NAME.ptx|cubin with NAME.json in $KERNELS"
  checked=1
else
  kernels=("$src/test/Runtime/Inputs/gemm.ptx")
fi
manifest_of() {
  if [ "$checked" = 1 ]; then echo "${1%.*}.json"
  else echo "$src/test/Runtime/Inputs/f16.json"; fi
}
for kernel in "${kernels[@]}"; do
  out=$("$work/consumer/build/consumer" "$kernel" "$(manifest_of "$kernel")")
  echo "$out"
  echo "$out" | grep -qx "version $version abi [0-9]*" ||
    fail "the C program does not see tgemm $version"
  echo "$out" | grep -Eq "^load: (ok|.*no CUDA device.*)$" ||
    fail "the C program's load of $(basename "$kernel") neither worked nor said there is no device"
done

echo "== the Python modules from the prefix"
python_dir=$(sed -n 's/^TGEMM_INSTALL_PYTHON_DIR:[A-Z]*=//p' "$work/build/CMakeCache.txt")
(cd "$work" && env -u TGEMM_RUNTIME_LIB PYTHONPATH="$prefix/$python_dir" \
  PYTHONDONTWRITEBYTECODE=1 "$python" - "$prefix" "$version" "$checked" \
  "$src/test/Runtime/Inputs/f16.json" "${kernels[@]}" << 'PY'
import os, sys
import tgemm
prefix, version = os.path.realpath(sys.argv[1]), sys.argv[2]
checked, stand_in_manifest, kernels = sys.argv[3] == "1", sys.argv[4], sys.argv[5:]
assert os.path.realpath(tgemm.__file__).startswith(prefix), tgemm.__file__
assert tgemm.__version__ == version, (tgemm.__version__, version)
assert not tgemm.extension_available()
try:
    tgemm.compile_problem(128, 128, 128)
    raise SystemExit("a runtime-only package compiled")
except tgemm.ExtensionMissing as error:
    print("compile: ExtensionMissing")
library = tgemm.runtime.find_library()
assert os.path.realpath(library) == os.path.join(
    prefix, "lib", "libtgemm_runtime.so"), library
for kernel in kernels:
    manifest = (os.path.splitext(kernel)[0] + ".json" if checked
                else stand_in_manifest)
    try:
        r = tgemm.runtime.run(kernel, manifest=manifest, reps=5,
                              check=checked)
        print("run %s: check %s; %s %.1f %s, %s %.1f" % (
            os.path.basename(kernel), r["check"], r["kernel"],
            r["kernel_rate"], r["unit"], r["anchor"], r["anchor_rate"]))
    except tgemm.NoDevice as error:
        print("run: NoDevice:", error)
print("python: tgemm", tgemm.__version__, "runtime", library)
PY
) || fail "the installed Python modules do not work"

echo "runtime-only-check: OK"
