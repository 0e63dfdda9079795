//===- AttachNVVMTarget.cpp - #nvvm.target from #tgemm.target -------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMATTACHNVVMTARGET
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

/// The PTX ISA version every kernel is emitted for: 8.4 is the first with
/// fp8 mma.sync on sm_89 (PTX ISA, "Release notes"), and it covers sm_90
/// and sm_90a.
static constexpr StringLiteral kPtxFeatures = "+ptx84";

namespace {

struct AttachNVVMTargetPass
    : public mlir::tgemm::impl::TGemmAttachNVVMTargetBase<
          AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      TargetAttr target = lookupTarget(module);
      if (!target) {
        module.emitOpError() << "has no tgemm.target to compile for";
        failed = true;
        return;
      }
      MLIRContext *ctx = module.getContext();
      auto nvvm = NVVM::NVVMTargetAttr::get(
          ctx, optLevel, "nvptx64-nvidia-cuda", target.getChip(),
          kPtxFeatures);
      module.setTargetsAttr(ArrayAttr::get(ctx, {nvvm}));
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
