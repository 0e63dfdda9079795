//===- Problem.h - Problem sizes, requirements and launch dimensions ------===//
//
// Everything about a launch that follows from the manifest and M, N, K alone,
// so it is decided (and every mistake reported) before a device is touched.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_PROBLEM_H
#define TGEMM_RUNTIME_PROBLEM_H

#include "tgemm/runtime/Manifest.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tgemm::runtime {

/// The most elements a matrix of a resolved shape has (2^48).
constexpr int64_t kMaxMatrixElements = int64_t(1) << 48;

struct GemmShape {
  int64_t m = 0, n = 0, k = 0;

  int64_t get(Dim dim) const {
    return dim == Dim::M ? m : dim == Dim::N ? n : k;
  }
  /// "M=4096 N=4096 K=4096".
  std::string str() const;
  /// 2*M*N*K: the operations of one GEMM.
  double operations() const { return 2.0 * m * n * k; }
};

/// Reconciles sizes from the command line (nullopt: not given) with the
/// sizes the kernel was compiled for: a static size is used when none is
/// given and must match when one is. Throws Error(Usage) for a missing
/// dynamic size, Error(Unsupported) for a static size mismatch or a matrix
/// of more than kMaxMatrixElements elements.
GemmShape resolveShape(const KernelManifest &kernel,
                       std::optional<int64_t> m, std::optional<int64_t> n,
                       std::optional<int64_t> k);

/// Throws Error(Unsupported) naming the first requirement `shape` breaks.
void checkRequirements(const KernelManifest &kernel, const GemmShape &shape);

struct LaunchDims {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t dynamicSharedMemory = 0;
};

/// Grid, block and dynamic shared memory for `shape`. Throws
/// Error(Unsupported) if a tiled grid extent does not divide exactly or a
/// grid extent exceeds what CUDA can launch.
LaunchDims computeLaunch(const KernelManifest &kernel, const GemmShape &shape);

/// Rows and columns of a stored matrix, in elements.
struct MatrixShape {
  int64_t rows = 0, cols = 0;
  int64_t elements() const { return rows * cols; }
};

/// The stored shape of an operand: A row is MxK, A col KxM; B row KxN,
/// B col NxK; C is MxN.
MatrixShape storedShape(Operand operand, Layout layout,
                        const GemmShape &shape);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_PROBLEM_H
