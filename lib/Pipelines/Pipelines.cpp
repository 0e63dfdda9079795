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

/// The PTX ISA version every kernel is emitted for: 8.4 is the first with
/// fp8 mma.sync on sm_89 (PTX ISA, "Release notes"), and it covers sm_90.
static constexpr StringLiteral kPtxFeatures = "+ptx84";

void mlir::tgemm::buildPipeline(OpPassManager &pm,
                                const PipelineOptions &options) {
  bool wmma = options.lowering == Lowering::Wmma;
  if (options.fromLinalg) {
    TGemmFromLinalgOptions import;
    import.tf32 = options.tf32;
    pm.addPass(createTGemmFromLinalg(import));
  }
  TGemmSelectConfigOptions select;
  select.chip = options.chip;
  select.lowering = wmma ? "wmma" : "ptx";
  select.database = options.configDatabase;
  pm.addPass(createTGemmSelectConfig(select));
  if (options.stages != 0) {
    TGemmOverrideConfigOptions override;
    override.stages = options.stages;
    pm.addPass(createTGemmOverrideConfig(override));
  }
  TGemmCheckTargetOptions check;
  check.chip = options.chip;
  check.lowering = wmma ? "wmma" : "ptx";
  pm.addPass(createTGemmCheckTarget(check));
  // Measured per lowering (see tgemm-tile's refill-after-mma).
  TGemmTileOptions tile;
  // wmma gains from the late refill with register copies and with cp.async
  // alike; ptx's cp.async lose lookahead with it.
  tile.refillAfterMma = wmma;
  tile.interleaveCopies = options.interleaveCopies;
  // Only the ptx lowering takes prefetched fragments; measured, they pay
  // in blocks of 8 or more warps.
  tile.prefetchMinWarps = wmma ? 0 : options.prefetchMinWarps;
  pm.addPass(createTGemmTile(tile));
  if (wmma) {
    TGemmLowerToWMMAOptions lower;
    lower.asyncCopy = options.asyncCopy;
    lower.padding = options.padding;
    pm.addPass(createTGemmLowerToWMMA(lower));
  } else {
    TGemmLowerToPTXOptions lower;
    lower.asyncCopy = options.asyncCopy;
    lower.ldmatrix = options.ldmatrix;
    lower.swizzle = options.swizzle;
    lower.padding = options.padding;
    pm.addPass(createTGemmLowerToPTX(lower));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = kPtxFeatures.str();
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
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
