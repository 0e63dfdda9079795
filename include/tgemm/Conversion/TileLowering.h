//===- TileLowering.h - What every tile-op lowering shares -------*- C++ -*-===//
//
// Addressing of global operands and of shared-memory rings, and the
// placement of a kernel's rings in its dynamic shared memory. Each
// instruction-level lowering chooses a ring layout (padding, swizzle) and
// emits its own instructions, but computes addresses through these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_CONVERSION_TILELOWERING_H
#define TGEMM_CONVERSION_TILELOWERING_H

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tgemm {

/// Where one `!tgemm.smem` ring lives: rows are `rowPitch` bytes apart
/// (the row's data plus padding), stages `stagePitch` bytes apart.
struct RingLayout {
  int64_t offset = 0;     // bytes from the start of dynamic shared memory
  int64_t rowBytes = 0;   // bytes of data per row
  int64_t rowPitch = 0;   // bytes from one row to the next
  int64_t stagePitch = 0; // bytes from one stage to the next
  int64_t elementBits = 0;

  int64_t sizeBytes(int64_t stages) const { return stages * stagePitch; }
  /// The row pitch in elements (the `ldm`/stride of matrix loads).
  int64_t pitchElements() const { return rowPitch * 8 / elementBits; }
};

/// The rings of one kernel, laid out one after another, each aligned to
/// 128 bytes, followed by `extraBytes` of scratch the lowering asked for.
struct SharedMemoryPlan {
  llvm::DenseMap<Operation *, RingLayout> rings; // keyed by tgemm.alloc_smem
  int64_t scratchOffset = 0;
  int64_t totalBytes = 0;

  /// Plans every `tgemm.alloc_smem` in `kernel`, padding each row by
  /// `rowPadding` bytes.
  static SharedMemoryPlan build(gpu::GPUFuncOp kernel, int64_t rowPadding,
                                int64_t extraBytes);
};

int64_t getElementBits(Type type);

/// The kernel's dynamic shared memory as an `!llvm.ptr<3>`.
Value getDynamicSharedMemory(OpBuilder &b, Location loc,
                             gpu::GPUModuleOp module);

/// `base + byteOffset` for a shared-memory pointer; `byteOffset` is index.
Value offsetSharedPointer(OpBuilder &b, Location loc, Value base,
                          Value byteOffset);

/// Address of element (row, col) of a rank-2 memref in global memory, as an
/// `!llvm.ptr<1>`. Works for sub-byte element types: `col` must then be a
/// whole number of bytes into the row.
Value getGlobalElementPointer(OpBuilder &b, Location loc, Value memref,
                              Value row, Value col);

/// The threads per block of the kernel (its `known_block_size`).
int64_t getThreadsPerBlock(gpu::GPUFuncOp kernel);

} // namespace mlir::tgemm

#endif // TGEMM_CONVERSION_TILELOWERING_H
