#!/usr/bin/env bash
# Installs what tgemm's build and tests need on Debian 12. Idempotent: when
# every package is already there it changes nothing and needs no network.
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools  # MLIR, FileCheck, lit
  cmake ninja-build g++ python3
  clang-22 libclang-rt-22-dev  # libFuzzer and sanitizers (scripts/fuzz.sh)
  python3-dev pybind11-dev python3-pytest                 # the Python package
  python3-venv python3-setuptools python3-wheel           # pip install . (setup.py)
  python3-matplotlib                                      # the study report's plots
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"

if [ -x /usr/local/cuda/bin/ptxas ]; then
  echo "install-deps: ptxas found at /usr/local/cuda/bin/ptxas (PTX tests will run)"
else
  echo "install-deps: no CUDA toolkit at /usr/local/cuda: PTX tests will be reported UNSUPPORTED"
fi
