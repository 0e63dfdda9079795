//===- CompileSource.cpp - MLIR text to PTX, cubin and manifest -----------===//

#include "tgemm/Target/CompileSource.h"

#include "tgemm/InitTGemm.h"
#include "tgemm/Pipelines/Pipelines.h"
#include "tgemm/Target/Artifacts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The same dialects, extensions and translations as tgemm-opt, so that any
/// input tgemm-opt accepts compiles here too.
static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  mlir::tgemm::registerAllTGemmDialects(registry);
  return registry;
}

namespace tgemm {

CompileResult compileSource(const std::string &source,
                            const CompileOptions &options) {
  CompileResult result;
  llvm::raw_string_ostream diagnostics(result.diagnostics);

  mlir::tgemm::PipelineOptions pipeline;
  if (options.lowering.empty() ||
      (::tgemm::parseFamily(options.lowering) && options.lowering != "mma.sync")) {
    pipeline.lowering = options.lowering;
  } else {
    diagnostics << "error: unknown lowering '" << options.lowering
                << "'; expected " << ::tgemm::knownLoweringNames() << "\n";
    return result;
  }
  if (options.optLevel > 3) {
    diagnostics << "error: optimization level " << options.optLevel
                << " is not one of 0, 1, 2, 3\n";
    return result;
  }
  for (std::string error : {::tgemm::chipNameError(options.chip),
                            ::tgemm::swizzleNameError(options.swizzle)})
    if (!error.empty()) {
      diagnostics << "error: " << error << "\n";
      return result;
    }
  if (options.cluster)
    if (::tgemm::Verdict v = ::tgemm::checkCluster(*options.cluster)) {
      diagnostics << "error: " << v->message << "\n";
      return result;
    }
  pipeline.chip = options.chip;
  pipeline.stages = options.stages;
  // Schedule options override the selected schedule only where they leave
  // the defaults (an assigned option counts as given).
  const mlir::tgemm::PipelineOptions defaults;
  if (options.asyncCopy != defaults.asyncCopy)
    pipeline.asyncCopy = options.asyncCopy;
  if (options.ldmatrix != defaults.ldmatrix)
    pipeline.ldmatrix = options.ldmatrix;
  if (options.swizzle != defaults.swizzle.getValue())
    pipeline.swizzle = options.swizzle;
  if (options.padding != defaults.padding)
    pipeline.padding = options.padding;
  if (options.warpSpecialize)
    pipeline.warpSpecialize = *options.warpSpecialize;
  if (options.tma)
    pipeline.tma = *options.tma;
  if (options.setmaxnreg)
    pipeline.setmaxnreg = *options.setmaxnreg;
  if (options.persistent)
    pipeline.persistent = *options.persistent;
  if (options.cluster)
    pipeline.cluster = *options.cluster;
  if (options.tmaStore)
    pipeline.tmaStore = *options.tmaStore;
  if (options.transposeKernel)
    pipeline.transposeKernel = *options.transposeKernel;
  if (options.alignKernel)
    pipeline.alignKernel = *options.alignKernel;
  pipeline.optLevel = options.optLevel;

  // One thread: a GEMM source has few kernel modules, and a context without
  // a thread pool is cheap to create for every call.
  MLIRContext context(makeRegistry(), MLIRContext::Threading::DISABLED);
  // The failing op's full IR is no help to someone who wrote a tgemm.matmul;
  // the location and source line are.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, options.sourceName),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return result;

  PassManager pm(&context, ModuleOp::getOperationName());
  mlir::tgemm::buildPipeline(pm, pipeline);
  if (failed(pm.run(*module)))
    return result;

  auto compiled = mlir::tgemm::collectCompiledModules(*module);
  if (failed(compiled))
    return result;
  FailureOr<std::string> manifest =
      mlir::tgemm::buildManifestJson(*module, *compiled);
  if (failed(manifest))
    return result;

  std::string ptxas;
  if (options.emitCubin) {
    ptxas = mlir::tgemm::findPtxas(options.ptxas);
    if (ptxas.empty()) {
      emitError(module->getLoc())
          << "ptxas not found (looked in CUDA_HOME, /usr/local/cuda/bin and "
             "PATH); give its path";
      return result;
    }
  }
  for (const mlir::tgemm::CompiledModule &m : *compiled) {
    CompiledArtifact artifact{m.name, m.chip, m.ptx.str(), ""};
    if (options.emitCubin) {
      FailureOr<std::string> cubin =
          mlir::tgemm::assembleCubin(module->getLoc(), m, ptxas);
      if (failed(cubin))
        return result;
      artifact.cubin = std::move(*cubin);
    }
    result.modules.push_back(std::move(artifact));
  }
  result.manifestJson = std::move(*manifest);
  result.success = true;
  return result;
}

} // namespace tgemm
