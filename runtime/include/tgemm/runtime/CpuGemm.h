//===- CpuGemm.h - A host GEMM on stored operands -------------------------===//
//
// The slow, obviously-correct reference: decodes each stored element to a
// double (integers exactly), accumulates in double or int64, and applies the
// epilogue once. The self-test checks the GPU references against it, and
// the unit tests use it to check the cuBLAS argument mapping.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_CPUGEMM_H
#define TGEMM_RUNTIME_CPUGEMM_H

#include "tgemm/runtime/ElementType.h"
#include "tgemm/runtime/Problem.h"

#include <cstdint>

namespace tgemm::runtime {

/// Element `index` of a stored buffer of `type`, as a double.
double loadElement(ElementType type, const uint8_t *base, int64_t index);

/// Stores `value` as element `index`, rounding to nearest even (integers
/// wrap to the type's width like a two's-complement store).
void storeElement(ElementType type, uint8_t *base, int64_t index,
                  double value);

/// The logical A(i, l) / B(l, j) of stored operands.
double loadA(const GemmSpec &spec, const GemmShape &shape, const uint8_t *a,
             int64_t i, int64_t l);
double loadB(const GemmSpec &spec, const GemmShape &shape, const uint8_t *b,
             int64_t l, int64_t j);

/// C = alpha * A * B + beta * C (C read only when beta != 0).
void cpuGemm(const GemmSpec &spec, const GemmShape &shape, const uint8_t *a,
             const uint8_t *b, uint8_t *c);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_CPUGEMM_H
