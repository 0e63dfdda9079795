//===- OverrideConfig.cpp - Replace parts of tile configs -----------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMOVERRIDECONFIG
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {
struct OverrideConfigPass
    : public mlir::tgemm::impl::TGemmOverrideConfigBase<OverrideConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    if (stages == 0)
      return;
    bool failed = false;
    getOperation()->walk([&](MatmulOp op) {
      ConfigAttr old = op.getConfigAttr();
      if (!old)
        return; // nothing to override until a config is chosen
      auto emit = [&] { return op.emitOpError() << "with stages = "
                                                << stages.getValue() << ": "; };
      ConfigAttr config = ConfigAttr::getChecked(
          emit, op.getContext(), old.getBlock(), old.getWarps(),
          stages.getValue(), old.getRaster());
      if (!config || (op.setConfigAttr(config), ::mlir::failed(op.verify())))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
