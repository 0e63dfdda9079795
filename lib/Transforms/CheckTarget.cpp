//===- CheckTarget.cpp - Check matmuls against their target ---------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMCHECKTARGET
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {

struct CheckTargetPass
    : public mlir::tgemm::impl::TGemmCheckTargetBase<CheckTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](MatmulOp op) {
      TargetAttr target = lookupTarget(op);
      if (!target) {
        (void)emitMissingTarget(op);
        failed = true;
        return;
      }
      failed |= ::mlir::failed(verifyForTarget(op, target.getValue()));
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
