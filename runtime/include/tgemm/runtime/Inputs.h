//===- Inputs.h - Deterministic test data ---------------------------------===//
//
// The matrices tgemm-run feeds a kernel: pseudo-random, reproducible from a
// seed, never all zeros, and exact in the operand type, so the kernel and
// the reference see the same numbers whatever rounding they apply on load:
//
//   floats   uniform in [-1, 1], rounded to the type (f32 and tf32 operands
//            to TF32, fp8 with E4M3/E5M2 rounding)
//   s8       integers in [-16, 15]      u8  in [0, 31]
//   s4       integers in [-8, 7], two per byte, low nibble first
//   s32 (C)  integers in [-64, 63]
//
// Small integers keep every s32 sum exact for any K tgemm handles. The
// fused epilogue's operands (makeEpilogueOperand), rounded to their type:
//
//   bias, residual  uniform in [-1, 1]
//   scale           uniform in [0.5, 1.5], so that no element is zero
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_INPUTS_H
#define TGEMM_RUNTIME_INPUTS_H

#include "tgemm/runtime/ElementType.h"
#include "tgemm/runtime/Epilogue.h"
#include "tgemm/runtime/Problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tgemm::runtime {

/// Which matrix a random stream belongs to, so A, B and C differ; the
/// padding of each (between rows, and before the first element) has its own.
enum class DataStream : uint64_t {
  A = 1,
  B = 2,
  C = 3,
  PaddingA = 4,
  PaddingB = 5,
  PaddingC = 6,
  /// The first epilogue operand's; operand j (in args order) has
  /// Epilogue0 + j.
  Epilogue0 = 16,
};

/// `elements` values of `type` as stored bytes. Element i depends only on
/// (seed, stream, i), so the result does not depend on how the work is
/// split across threads.
std::vector<uint8_t> makeRandomMatrix(ElementType type, int64_t elements,
                                      uint64_t seed, DataStream stream);

/// `elements` values of the epilogue operand of type `type` (f32, f16 or
/// bf16) that a step `op` (bias, scale or residual) reads, the `ordinal`-th
/// epilogue argument of the kernel (its own stream), as stored bytes.
std::vector<uint8_t> makeEpilogueOperand(EpilogueOp op, ElementType type,
                                         int64_t elements, uint64_t seed,
                                         size_t ordinal);

/// `bytes` pseudo-random bytes of any bit pattern (NaNs and infinities
/// included, as in memory nobody initialized), reproducible from the seed.
std::vector<uint8_t> makeRandomBytes(size_t bytes, uint64_t seed,
                                     DataStream stream);

/// An allocation laid out as `storage` (storageBytes(type,
/// storage.allocationElements()) bytes): `fill`, with the packed matrices
/// `packed` (storage.packedElements() elements of `type`, batch after batch,
/// row-major) written over the elements they occupy.
std::vector<uint8_t> scatterToStorage(ElementType type,
                                      const MatrixStorage &storage,
                                      const uint8_t *packed,
                                      std::vector<uint8_t> fill);

/// The packed matrices (storage.packedElements() elements) out of an
/// allocation laid out as `storage`.
std::vector<uint8_t> gatherFromStorage(ElementType type,
                                       const MatrixStorage &storage,
                                       const uint8_t *allocation);

/// Elements of an allocation outside its matrices (the offset before the
/// first, the padding at the end of each row) that differ between `before`
/// and `after`.
struct PaddingChange {
  int64_t changed = 0;
  /// Allocation index of the first changed element, or -1.
  int64_t first = -1;
};
PaddingChange comparePadding(ElementType type, const MatrixStorage &storage,
                             const uint8_t *before, const uint8_t *after);

/// Where allocation element `index` of `storage` lies, for messages: "the
/// offset before the first element" or "row 3, column 130 of matrix 0".
std::string describeStorageIndex(const MatrixStorage &storage, int64_t index);

/// The byte to fill a C of type `type` with when the kernel must write every
/// element: 0xff is NaN in f32, f16 and bf16. s32 uses kIntPoison instead.
constexpr uint8_t kFloatPoisonByte = 0xff;
/// INT32_MIN: no s32 result of tgemm-run's inputs can reach it.
constexpr uint32_t kIntPoison = 0x80000000u;

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_INPUTS_H
