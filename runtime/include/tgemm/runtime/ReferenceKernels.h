//===- ReferenceKernels.h - tgemm's own CUDA reference kernels ------------===//
//
// What no library does: a straightforward GEMM for every tgemm precision
// (the reference for s4, u8 and e5m2*e5m2, and a second opinion in the
// self-test), the epilogue applied after a library GEMM that cannot write
// C's type, and the copies that put operands into the layout a library
// needs. All run on the given stream and throw Error(Device) if a launch
// fails.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_REFERENCEKERNELS_H
#define TGEMM_RUNTIME_REFERENCEKERNELS_H

#include "tgemm/runtime/ElementType.h"
#include "tgemm/runtime/Epilogue.h"
#include "tgemm/runtime/Problem.h"

#include <cuda.h>

#include <vector>

namespace tgemm::runtime {

/// C = alpha * A * B + beta * C on the device, accumulating in f32 (float
/// types, TF32 operands rounded to TF32) or s32 (dequantized in f32 for a
/// float C), and rounding to C's type like the kernels do. C is read only when
/// beta != 0. For a batch (shape.batch > 1) A, B and C hold that many packed
/// matrices one after another.
void launchReferenceGemm(const GemmSpec &spec, const GemmShape &shape,
                         CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                         CUstream stream);

/// One step of the reference epilogue (Epilogue.h): the op, and for bias,
/// scale and residual the packed operand it reads on the device and its
/// element type (f32, f16 or bf16).
struct ReferenceEpilogueStep {
  EpilogueOp op = EpilogueOp::Relu;
  Broadcast broadcast = Broadcast::Col;
  CUdeviceptr operand = 0;
  ElementType type = ElementType::F32;
};

/// The most steps launchEpilogue applies (they travel as a kernel
/// parameter).
constexpr size_t kMaxReferenceEpilogueSteps = 32;

/// For the shape.batch packed M x N matrices D and C: C = alpha * D +
/// beta * C, then `steps` in order, D of type `dType` (f32, f16 or s32).
/// With an s32 C (no steps) in 64-bit integers, wrapping like the kernels'
/// 32-bit epilogue; otherwise in f32 (an s32 D converted: dequantization),
/// the activations with applyActivation's definitions, and rounded once to
/// `cType`. A bias or scale vector is indexed by C's row, its column or not
/// at all (row, col, scalar) and shared by every matrix of the batch; a
/// residual is batch x M x N like C. C is read only when beta != 0. Throws
/// Error(Unsupported) for more than kMaxReferenceEpilogueSteps steps.
void launchEpilogue(CUdeviceptr d, ElementType dType, CUdeviceptr c,
                    ElementType cType, const GemmShape &shape, double alpha,
                    double beta,
                    const std::vector<ReferenceEpilogueStep> &steps,
                    CUstream stream);

/// Copies `batch` packed rows x cols row-major matrices of a 1-byte type, or
/// of s4 widened to one signed byte per element, into `dst`, each
/// transposed (cols x rows) if `transpose`.
void launchRelayout(CUdeviceptr src, ElementType srcType, MatrixShape stored,
                    int64_t batch, bool transpose, CUdeviceptr dst,
                    CUstream stream);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_REFERENCEKERNELS_H
