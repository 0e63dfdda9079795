//===- Compare.h - Checking a kernel's C against the reference's ----------===//
//
// An s32 C must match exactly. A float C (an s32 accumulator dequantized
// included) is compared with two bounds, both derived in docs/runtime.md:
//
//  - the relative Frobenius error ||C - R||_F / ||R||_F <= frobenius, which
//    catches errors spread over the whole matrix;
//  - per element, |C - R| <= element * rms(R) + relative * |R|, which catches
//    a single wrong tile (its elements are off by about rms(R), far above the
//    bound) where the Frobenius norm of a large matrix would dilute it.
//
// A NaN or infinity in C where the reference is finite (e.g. poison left in
// an element the kernel never wrote) is always a mismatch.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_COMPARE_H
#define TGEMM_RUNTIME_COMPARE_H

#include "tgemm/runtime/ElementType.h"

#include <cstdint>
#include <string>

namespace tgemm::runtime {

struct Tolerance {
  bool exact = false;
  double frobenius = 0;
  double element = 0;
  double relative = 0;
};

/// The tolerance for comparing a kernel computing `spec` with reduction
/// length `k` against tgemm-run's reference for it. `fusedEpilogue`: the
/// kernel applies epilogue steps (Epilogue.h), its activations with
/// ex2.approx-based exp, tanh and erf (relative error about 1e-6 in f32)
/// where the reference uses CUDA's expf, tanhf and erff; that adds
/// kEpilogueRelativeError to the relative bounds. The steps themselves
/// amplify the GEMM's error by at most about 1.5 (scale <= 1.5, the
/// activations' slopes <= 1.13), well inside the per-element floor.
Tolerance toleranceFor(const GemmSpec &spec, int64_t k,
                       bool fusedEpilogue = false);

/// What the approximate activations may add to an element's relative
/// error: a few times their ~1e-6.
constexpr double kEpilogueRelativeError = 4e-6;

struct CompareResult {
  bool passed = true;
  /// ||C - R||_F / ||R||_F (0 when R is all zeros and C equals it).
  double relativeError = 0;
  /// Floats: max |C - R| / rms(R). Integers: max |C - R|.
  double maxError = 0;
  /// Elements outside the per-element bound (or different, for integers).
  int64_t mismatches = 0;
  /// Row-major index of the first such element, or -1 (in a batch, the
  /// index over all matrices: b*rows*cols + i*cols + j).
  int64_t firstMismatch = -1;
  double firstGot = 0, firstExpected = 0;
  int64_t rows = 0, cols = 0;
  /// The number of matrices of a batched GEMM (each compared on its own;
  /// the errors above are the largest); 0 when not batched.
  int64_t batches = 0;
  /// Elements of C's allocation outside the matrix (its padding between
  /// rows, and the offset before it) that the kernel changed, and where the
  /// first is. Any fails the check.
  int64_t paddingChanged = 0;
  std::string paddingWhere;
  Tolerance tolerance;

  /// Why the check failed (empty when it passed), e.g. "C[3][17] = nan,
  /// expected 1.25 (the first of 256 mismatches); relative error ...".
  std::string describeFailure() const;
};

/// Compares two stored row-major rows x cols matrices of type `type`.
CompareResult compareMatrices(ElementType type, const uint8_t *got,
                              const uint8_t *expected, int64_t rows,
                              int64_t cols, const Tolerance &tolerance);

/// Compares `batches` consecutive rows x cols matrices, each on its own
/// (so that one wrong matrix is not diluted by the others). `batched`: name
/// elements C[b][i][j] in messages.
CompareResult compareBatch(ElementType type, const uint8_t *got,
                           const uint8_t *expected, int64_t batches,
                           bool batched, int64_t rows, int64_t cols,
                           const Tolerance &tolerance);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_COMPARE_H
