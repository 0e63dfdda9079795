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
// Small integers keep every s32 sum exact for any K tgemm handles.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_INPUTS_H
#define TGEMM_RUNTIME_INPUTS_H

#include "tgemm/runtime/ElementType.h"

#include <cstdint>
#include <vector>

namespace tgemm::runtime {

/// Which matrix a random stream belongs to, so A, B and C differ.
enum class DataStream : uint64_t { A = 1, B = 2, C = 3 };

/// `elements` values of `type` as stored bytes. Element i depends only on
/// (seed, stream, i), so the result does not depend on how the work is
/// split across threads.
std::vector<uint8_t> makeRandomMatrix(ElementType type, int64_t elements,
                                      uint64_t seed, DataStream stream);

/// The byte to fill a C of type `type` with when the kernel must write every
/// element: 0xff is NaN in f32, f16 and bf16. s32 uses kIntPoison instead.
constexpr uint8_t kFloatPoisonByte = 0xff;
/// INT32_MIN: no s32 result of tgemm-run's inputs can reach it.
constexpr uint32_t kIntPoison = 0x80000000u;

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_INPUTS_H
