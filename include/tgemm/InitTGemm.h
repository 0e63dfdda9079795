//===- InitTGemm.h - Register tgemm with an MLIR context --------*- C++ -*-===//
//
// What an embedding compiler calls to make tgemm's dialect and passes
// available, the way mlir/InitAllDialects.h does for upstream.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_INITTGEMM_H
#define TGEMM_INITTGEMM_H

#include "mlir/IR/DialectRegistry.h"
#include "tgemm/Conversion/Passes.h" // registerTGemmConversionPasses()
#include "tgemm/Pipelines/Pipelines.h" // registerTGemmPipelines()
#include "tgemm/Transforms/Passes.h" // registerTGemmPasses()

namespace mlir::tgemm {

/// Adds the tgemm dialect (and the dialects its passes create) to `registry`.
void registerTGemmDialects(DialectRegistry &registry);

/// Adds everything a context needs to parse a tgemm input and run
/// buildPipeline on it to PTX, the same set tgemm-opt registers: the tgemm
/// dialect, upstream's dialects (func, memref, linalg, arith, scf, gpu, nvvm,
/// llvm, ...) and their extensions (the NVVM target attribute, the
/// conversions to LLVM), and the translations to LLVM IR that
/// gpu-module-to-binary uses.
void registerAllTGemmDialects(DialectRegistry &registry);

/// Registers every tgemm pass and pipeline with the global registries.
inline void registerAllTGemmPasses() {
  registerTGemmPasses();
  registerTGemmConversionPasses();
  registerTGemmPipelines();
}

} // namespace mlir::tgemm

#endif // TGEMM_INITTGEMM_H
