//===- KernelManifest.h - The launch manifest on gpu.launch_func -*- C++ -*-===//
//
// `tgemm-tile` records everything a runtime needs to launch a kernel on its
// `gpu.launch_func`; the instruction-level lowerings complete it, and
// `tgemm-translate --emit=manifest` writes it out. The schema, its writer
// and its reader are the runtime's (tgemm/runtime/Manifest.h, plain C++);
// on the IR the manifest is the attribute form of its JSON (a dictionary,
// unit for null). docs/manifest.md is the contract.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TRANSFORMS_KERNELMANIFEST_H
#define TGEMM_TRANSFORMS_KERNELMANIFEST_H

#include "tgemm/runtime/Manifest.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tgemm {

class MatmulOp;

/// The attribute name on gpu.launch_func.
inline constexpr llvm::StringLiteral kManifestAttrName = "tgemm.manifest";

/// JSON <-> attribute, field-blind: null is a unit attribute, an integer an
/// i64, any other number an f64. attributeToJson fails on any other
/// attribute (or an integer wider than 64 bits).
Attribute jsonToAttribute(MLIRContext *ctx,
                          const ::tgemm::runtime::JsonValue &value);
FailureOr<::tgemm::runtime::JsonValue> attributeToJson(Attribute attr);

/// The manifest of the kernel `kernel` (in `gpu.module` `module`) that
/// computes `op`, before any lowering: no lowering (the lowering that turns
/// the kernel into NVVM records itself) and no chip (tgemm-translate takes
/// it from the compiled module), `dynamicSharedBytes` of shared memory.
::tgemm::runtime::KernelManifest buildManifest(MatmulOp op, StringRef module,
                                               StringRef kernel,
                                               int64_t dynamicSharedBytes);

/// Sets `manifest` as `launch`'s tgemm.manifest.
void setManifest(Operation *launch,
                 const ::tgemm::runtime::KernelManifest &manifest);

/// `launch`'s tgemm.manifest, checked by the runtime's reader (a kernel not
/// yet lowered or compiled may lack its lowering and chip); an error at
/// `launch` if it is missing or invalid.
FailureOr<::tgemm::runtime::KernelManifest> readManifest(Operation *launch);

/// After an instruction-level lowering of `kernel`: records the lowering and
/// the shared memory it needs on every launch of the kernel in `module`, in
/// the launch's operand and in its manifest. Fails (with an error at the
/// launch) on a launch whose manifest is invalid.
LogicalResult finishKernelLaunches(ModuleOp module, gpu::GPUFuncOp kernel,
                                   StringRef lowering,
                                   int64_t dynamicSharedBytes);

} // namespace mlir::tgemm

#endif // TGEMM_TRANSFORMS_KERNELMANIFEST_H
