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
#include "tgemm/runtime/Problem.h"

#include <cuda.h>

namespace tgemm::runtime {

/// C = alpha * A * B + beta * C on the device, accumulating in f32 (float
/// types, TF32 operands rounded to TF32) or s32, and rounding to C's type
/// like the kernels do. C is read only when beta != 0. For a batch
/// (shape.batch > 1) A, B and C hold that many packed matrices one after
/// another.
void launchReferenceGemm(const GemmSpec &spec, const GemmShape &shape,
                         CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                         CUstream stream);

/// C[i] = alpha * D[i] + beta * C[i] for `count` elements, D of type
/// `dType` (f32, f16 or s32), computed in f32 (s32 in 64-bit integers) and
/// rounded to `cType`. C is read only when beta != 0.
void launchEpilogue(CUdeviceptr d, ElementType dType, CUdeviceptr c,
                    ElementType cType, int64_t count, double alpha,
                    double beta, CUstream stream);

/// Copies `batch` packed rows x cols row-major matrices of a 1-byte type, or
/// of s4 widened to one signed byte per element, into `dst`, each
/// transposed (cols x rows) if `transpose`.
void launchRelayout(CUdeviceptr src, ElementType srcType, MatrixShape stored,
                    int64_t batch, bool transpose, CUdeviceptr dst,
                    CUstream stream);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_REFERENCEKERNELS_H
