//===- KernelManifest.h - The launch manifest on gpu.launch_func -*- C++ -*-===//
//
// `tgemm-tile` records everything a runtime needs to launch a kernel as a
// dictionary attribute on its `gpu.launch_func`; the instruction-level
// lowerings complete it, and `tgemm-translate --emit=manifest` prints it as
// JSON. docs/manifest.md is the contract.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TRANSFORMS_KERNELMANIFEST_H
#define TGEMM_TRANSFORMS_KERNELMANIFEST_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tgemm {

class MatmulOp;

/// The attribute name on gpu.launch_func.
inline constexpr llvm::StringLiteral kManifestAttrName = "tgemm.manifest";

/// The manifest of the kernel `kernel` (in `gpu.module` `module`) that
/// computes `op`, before any lowering: no `lowering` entry yet, and the
/// dynamic shared memory of the unpadded stage rings.
DictionaryAttr buildManifest(MatmulOp op, StringRef module, StringRef kernel,
                             int64_t dynamicSharedBytes);

/// After an instruction-level lowering of `kernel`: records the lowering and
/// the shared memory it needs on every launch of the kernel in `module`, in
/// the launch's operand and in its manifest.
void finishKernelLaunches(ModuleOp module, gpu::GPUFuncOp kernel,
                          StringRef lowering, int64_t dynamicSharedBytes);

} // namespace mlir::tgemm

#endif // TGEMM_TRANSFORMS_KERNELMANIFEST_H
