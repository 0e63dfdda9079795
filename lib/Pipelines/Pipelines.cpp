//===- Pipelines.cpp - The tgemm compilation pipeline ---------------------===//

#include "tgemm/Pipelines/Pipelines.h"

#include "tgemm/Conversion/Passes.h"
#include "tgemm/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
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
  TGemmAttachTargetOptions target;
  target.chip = options.chip;
  target.family = options.lowering;
  pm.addPass(createTGemmAttachTarget(target));
  if (options.fromLinalg) {
    TGemmFromLinalgOptions import;
    import.tf32 = options.tf32;
    pm.addPass(createTGemmFromLinalg(import));
  }
  TGemmSelectConfigOptions select;
  select.database = options.configDatabase;
  pm.addPass(createTGemmSelectConfig(select));

  // Only what the options name explicitly overrides the selected schedule.
  TGemmOverrideConfigOptions override;
  bool overrides = false;
  auto take = [&](const auto &from, auto &to) {
    if (!from.hasValue())
      return;
    to = from.getValue();
    overrides = true;
  };
  override.stages = options.stages;
  overrides |= options.stages != 0;
  take(options.refillAfterMma, override.refillAfterMma);
  take(options.interleaveCopies, override.interleaveCopies);
  take(options.prefetchMinWarps, override.prefetchMinWarps);
  take(options.asyncCopy, override.asyncCopy);
  take(options.ldmatrix, override.ldmatrix);
  take(options.swizzle, override.swizzle);
  take(options.padding, override.padding);
  if (overrides)
    pm.addPass(createTGemmOverrideConfig(override));
  pm.addPass(createTGemmCheckTarget());
  pm.addPass(createTGemmTile());
  // Each lowering takes the kernels of its family.
  pm.addPass(createTGemmLowerToWMMA());
  pm.addPass(createTGemmLowerToPTX());
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
