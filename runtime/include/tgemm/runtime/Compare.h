//===- Compare.h - Checking a kernel's C against the reference's ----------===//
//
// Integer GEMMs must match exactly. Floating-point ones are compared with two
// bounds, both derived in docs/runtime.md:
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
/// length `k` against tgemm-run's reference for it.
Tolerance toleranceFor(const GemmSpec &spec, int64_t k);

struct CompareResult {
  bool passed = true;
  /// ||C - R||_F / ||R||_F (0 when R is all zeros and C equals it).
  double relativeError = 0;
  /// Floats: max |C - R| / rms(R). Integers: max |C - R|.
  double maxError = 0;
  /// Elements outside the per-element bound (or different, for integers).
  int64_t mismatches = 0;
  /// Row-major index of the first such element, or -1.
  int64_t firstMismatch = -1;
  double firstGot = 0, firstExpected = 0;
  int64_t rows = 0, cols = 0;
  Tolerance tolerance;

  /// Why the check failed (empty when it passed), e.g. "C[3][17] = nan,
  /// expected 1.25 (the first of 256 mismatches); relative error ...".
  std::string describeFailure() const;
};

/// Compares two stored row-major rows x cols matrices of type `type`.
CompareResult compareMatrices(ElementType type, const uint8_t *got,
                              const uint8_t *expected, int64_t rows,
                              int64_t cols, const Tolerance &tolerance);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_COMPARE_H
