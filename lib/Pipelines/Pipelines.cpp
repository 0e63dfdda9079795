//===- Pipelines.cpp - The tgemm compilation pipeline ---------------------===//

#include "tgemm/Pipelines/Pipelines.h"

#include "tgemm/Conversion/Passes.h"
#include "tgemm/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tgemm;

void mlir::tgemm::buildPipeline(OpPassManager &pm,
                                const PipelineOptions &options) {
  // Tensors first: the import and everything after it work on memrefs.
  // One-shot-bufferize with its defaults, as a user would run it: function
  // arguments become fully dynamic views, which the kernels take (the
  // innermost stride checked by the host before each launch).
  if (options.bufferize) {
    bufferization::OneShotBufferizePassOptions bufferization;
    bufferization.bufferizeFunctionBoundaries = true;
    pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  }
  // The import first, so that the target's family is chosen for the
  // matmuls the module ends up with.
  if (options.fromLinalg) {
    TGemmFromLinalgOptions import;
    import.tf32 = options.tf32;
    import.requireKernel = !options.allowNoKernel;
    pm.addPass(createTGemmFromLinalg(import));
  }
  TGemmAttachTargetOptions target;
  target.chip = options.chip;
  target.family = options.lowering;
  pm.addPass(createTGemmAttachTarget(target));
  TGemmSelectConfigOptions select;
  select.database = options.configDatabase;
  select.deterministic = options.deterministic;
  // The selection fits the tile's stages and the persistent grid to where
  // MN-major operands are transposed.
  if (options.transposeKernel.hasValue())
    select.transposeKernel = options.transposeKernel ? "true" : "false";
  if (options.alignKernel.hasValue())
    select.alignKernel = options.alignKernel ? "true" : "false";
  pm.addPass(createTGemmSelectConfig(select));

  // Only what the options name explicitly overrides the selected schedule:
  // the override pass gets those options as text, so it knows which were
  // given.
  std::string overrides;
  llvm::raw_string_ostream os(overrides);
  auto take = [&](const auto &option, StringRef name) {
    if (!option.hasValue())
      return;
    os << " " << name << "=";
    if constexpr (std::is_same_v<std::decay_t<decltype(option.getValue())>,
                                 bool>)
      os << (option.getValue() ? "true" : "false");
    else
      os << option.getValue();
  };
  if (options.stages != 0)
    os << " stages=" << options.stages.getValue();
  if (options.splitK != 0)
    os << " split-k=" << options.splitK.getValue();
  take(options.refillAfterMma, "refill-after-mma");
  take(options.interleaveCopies, "interleave-copies");
  take(options.prefetchMinWarps, "prefetch-fragments-min-warps");
  take(options.asyncCopy, "async-copy");
  take(options.ldmatrix, "ldmatrix");
  take(options.swizzle, "swizzle");
  take(options.padding, "padding");
  take(options.warpSpecialize, "warp-specialize");
  take(options.tma, "tma");
  take(options.setmaxnreg, "setmaxnreg");
  take(options.persistent, "persistent");
  take(options.cluster, "cluster");
  take(options.tmaStore, "tma-store");
  take(options.transposeKernel, "transpose-kernel");
  take(options.alignKernel, "align-kernel");
  if (!overrides.empty()) {
    std::unique_ptr<Pass> override = createTGemmOverrideConfig();
    // The values were checked when the pipeline's options were parsed.
    (void)override->initializeOptions(
        overrides, [](const Twine &) { return failure(); });
    pm.addPass(std::move(override));
  }
  pm.addPass(createTGemmCheckTarget());
  pm.addPass(createTGemmTile());
  // Each lowering takes the kernels of its family.
  pm.addPass(createTGemmLowerToWMMA());
  pm.addPass(createTGemmLowerToPTX());
  pm.addPass(createTGemmLowerToWGMMA());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  TGemmAttachNVVMTargetOptions nvvm;
  nvvm.optLevel = options.optLevel;
  pm.addPass(createTGemmAttachNVVMTarget(nvvm));
  // Views (a batch's matrices) become explicit base/offset/stride math.
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createExpandStridedMetadataPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  // TMA descriptors travel in the launch's parameters.
  pm.addPass(createTGemmTensorMapsByValue());
  // NVVM ops that are PTX templates (wgmma.mma_async) become inline PTX.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::tgemm::registerTGemmPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "tgemm-pipeline",
      "Compile tgemm.matmul to a gpu.binary with PTX (check, tile, lower, "
      "NVVM, PTX)",
      buildPipeline);
}
