# Sourced by the bench scripts on the GPU host: build_runtime LOGDIR builds
# tgemm-run alone (no compiler: the host has no LLVM/MLIR) into build-gpu,
# its cmake and ninja logs in LOGDIR.
build_runtime() {
  cmake -G Ninja -S . -B build-gpu -DTGEMM_ENABLE_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=Release > "$1/cmake.log" &&
    ninja -C build-gpu tgemm-run > "$1/ninja.log"
}
