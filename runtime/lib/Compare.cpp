//===- Compare.cpp - Checking a kernel's C against the reference's --------===//

#include "tgemm/runtime/Compare.h"

#include "tgemm/runtime/CpuGemm.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tgemm::runtime {

namespace {

/// Rounding error of one accumulation chain relative to rms(C), at K = 1024;
/// it grows like sqrt(K) (see docs/runtime.md for the derivation).
double accumulationError(const GemmSpec &spec) {
  if (spec.isInteger())
    return 1e-6; // exact sums; only the f32 dequantization rounds
  if (spec.acc == ElementType::F16)
    return 2e-2; // both sides round partial sums to f16 (u = 2^-11)
  if (isFloat8Type(spec.a.type))
    return 5e-3; // cuBLASLt's fp8 tensor-core accumulation keeps ~14 bits
  // Exact products, f32 sums in different orders; tensor cores truncate
  // their additions, which biases long sums by up to ~2^-24 per step.
  return 1e-4;
}

/// The relative size of one unit in the last place of a C element.
double outputUlp(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return std::ldexp(1.0, -10);
  case ElementType::BF16:
    return std::ldexp(1.0, -7);
  default:
    return std::ldexp(1.0, -23);
  }
}

std::string formatValue(double v) {
  if (std::isnan(v))
    return "nan"; // the sign of a NaN means nothing here
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.7g", v);
  return buffer;
}

} // namespace

Tolerance toleranceFor(const GemmSpec &spec, int64_t k, bool fusedEpilogue) {
  Tolerance t;
  if (spec.c.type == ElementType::S32) {
    t.exact = true;
    return t;
  }
  double acc = accumulationError(spec) *
               std::sqrt(std::max<double>(k, 1) / 1024.0);
  // Two correct results may round to neighbouring outputs.
  double ulp = outputUlp(spec.c.type);
  t.frobenius = acc + (spec.c.type == ElementType::F32 ? 0.0 : ulp / 2);
  t.element = std::max(8 * acc, 1e-3);
  t.relative = 2 * ulp;
  if (fusedEpilogue) {
    t.frobenius += kEpilogueRelativeError;
    t.relative += kEpilogueRelativeError;
  }
  return t;
}

CompareResult compareMatrices(ElementType type, const uint8_t *got,
                              const uint8_t *expected, int64_t rows,
                              int64_t cols, const Tolerance &tolerance) {
  CompareResult r;
  r.rows = rows;
  r.cols = cols;
  r.tolerance = tolerance;
  int64_t count = rows * cols;

  double refSquares = 0;
  for (int64_t i = 0; i < count; ++i) {
    double e = loadElement(type, expected, i);
    refSquares += e * e;
  }
  double rms = count ? std::sqrt(refSquares / count) : 0;

  double diffSquares = 0;
  bool nonFinite = false;
  for (int64_t i = 0; i < count; ++i) {
    double g = loadElement(type, got, i);
    double e = loadElement(type, expected, i);
    double diff = std::fabs(g - e);
    bool bad;
    if (tolerance.exact) {
      bad = g != e;
      r.maxError = std::max(r.maxError, diff);
    } else if (!std::isfinite(g) && std::isfinite(e)) {
      bad = true;
      nonFinite = true;
    } else if (!std::isfinite(e)) {
      bad = !(g == e); // the same infinity, or both NaN, would be equal
      if (std::isnan(g) && std::isnan(e))
        bad = false;
      diff = 0;
    } else {
      bad = diff > tolerance.element * rms + tolerance.relative * std::fabs(e);
      if (rms > 0)
        r.maxError = std::max(r.maxError, diff / rms);
      else
        r.maxError = std::max(r.maxError, diff);
    }
    if (std::isfinite(diff))
      diffSquares += diff * diff;
    if (bad) {
      if (r.firstMismatch < 0) {
        r.firstMismatch = i;
        r.firstGot = g;
        r.firstExpected = e;
      }
      ++r.mismatches;
    }
  }
  if (refSquares > 0)
    r.relativeError = std::sqrt(diffSquares / refSquares);
  else
    r.relativeError = diffSquares > 0 ? INFINITY : 0;
  if (nonFinite) {
    r.relativeError = INFINITY;
    r.maxError = INFINITY;
  }
  r.passed = r.mismatches == 0 &&
             (tolerance.exact || r.relativeError <= tolerance.frobenius);
  return r;
}

CompareResult compareBatch(ElementType type, const uint8_t *got,
                           const uint8_t *expected, int64_t batches,
                           bool batched, int64_t rows, int64_t cols,
                           const Tolerance &tolerance) {
  if (!batched && batches == 1)
    return compareMatrices(type, got, expected, rows, cols, tolerance);
  CompareResult total;
  total.rows = rows;
  total.cols = cols;
  total.batches = batches;
  total.tolerance = tolerance;
  size_t bytes = static_cast<size_t>(storageBytes(type, rows * cols));
  for (int64_t b = 0; b < batches; ++b) {
    CompareResult r = compareMatrices(type, got + b * bytes,
                                      expected + b * bytes, rows, cols,
                                      tolerance);
    total.passed = total.passed && r.passed;
    total.relativeError = std::max(total.relativeError, r.relativeError);
    total.maxError = std::max(total.maxError, r.maxError);
    total.mismatches += r.mismatches;
    if (total.firstMismatch < 0 && r.firstMismatch >= 0) {
      total.firstMismatch = b * rows * cols + r.firstMismatch;
      total.firstGot = r.firstGot;
      total.firstExpected = r.firstExpected;
    }
  }
  return total;
}

std::string CompareResult::describeFailure() const {
  if (passed)
    return "";
  std::string s;
  if (paddingChanged > 0)
    s = "the kernel wrote outside C: " + std::to_string(paddingChanged) +
        " element" + (paddingChanged == 1 ? "" : "s") +
        " of C's allocation outside the matrix changed, the first at " +
        paddingWhere;
  if (firstMismatch >= 0) {
    int64_t matrix = rows * cols;
    int64_t within = firstMismatch % matrix;
    std::string where =
        (batches > 0 ? "[" + std::to_string(firstMismatch / matrix) + "]"
                     : std::string()) +
        "[" + std::to_string(within / cols) + "][" +
        std::to_string(within % cols) + "]";
    s += std::string(s.empty() ? "" : "; ") + "C" + where + " = " +
         formatValue(firstGot) + ", expected " + formatValue(firstExpected) +
         " (the first of " + std::to_string(mismatches) +
         " mismatching elements of " +
         std::to_string(matrix * (batches > 0 ? batches : 1)) + ")";
    if (!tolerance.exact)
      s += "; allowed per element: " + formatValue(tolerance.element) +
           "*rms(C) + " + formatValue(tolerance.relative) + "*|C|";
  }
  if (!tolerance.exact) {
    s += std::string(s.empty() ? "" : "; ") +
         (batches > 0 ? "largest relative Frobenius error of a matrix "
                      : "relative Frobenius error ") +
         formatValue(relativeError) + " (bound " +
         formatValue(tolerance.frobenius) + ")";
  }
  return s;
}

} // namespace tgemm::runtime
