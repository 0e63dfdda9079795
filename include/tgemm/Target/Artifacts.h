//===- Artifacts.h - PTX, cubin and manifest of a module --------*- C++ -*-===//
//
// What a runtime needs from a module that went through a tgemm pipeline: the
// PTX of each kernel module (a `gpu.binary` with an NVVM target in assembly
// form), the launch manifest (the `tgemm.manifest` dictionaries on its
// `gpu.launch_func` ops, as docs/manifest.md's JSON), and cubins assembled by
// ptxas. tgemm-translate and the Python package both use these, so the two
// write the same files.
//
// Every failure is reported as an MLIR diagnostic on the module.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TARGET_ARTIFACTS_H
#define TGEMM_TARGET_ARTIFACTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tgemm {

/// The PTX of one compiled kernel module and the chip it targets.
struct CompiledModule {
  /// The `gpu.binary` (named after its `gpu.module`).
  std::string name;
  /// The `sm_XX` of its NVVM target.
  std::string chip;
  /// The PTX text; owned by the binary's attribute, so valid while the
  /// module's context lives.
  StringRef ptx;
};

/// The PTX of every `gpu.binary` in `module`, in IR order. Fails, with a
/// diagnostic, on a binary holding something other than PTX (a cubin or
/// fatbin from `gpu-module-to-binary` with another format).
FailureOr<SmallVector<CompiledModule>> collectCompiledModules(ModuleOp module);

/// The launch manifest of every tgemm kernel launch in `module`, as JSON
/// text (docs/manifest.md), with each kernel's `chip` taken from `modules`.
/// Fails, with a diagnostic, when `module` launches no tgemm kernel.
FailureOr<std::string> buildManifestJson(ModuleOp module,
                                         ArrayRef<CompiledModule> modules);

/// The ptxas to assemble cubins with: `explicitPath` when it is not empty,
/// else $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas, then PATH. Empty
/// when none is found.
std::string findPtxas(StringRef explicitPath = {});

/// Assembles `compiled` for its chip with the ptxas at `ptxas` and returns
/// the cubin's bytes. Fails, with a diagnostic at `loc` holding ptxas's own
/// messages, when ptxas does not start or rejects the PTX.
FailureOr<std::string>
assembleCubin(Location loc, const CompiledModule &compiled, StringRef ptxas);

} // namespace mlir::tgemm

#endif // TGEMM_TARGET_ARTIFACTS_H
