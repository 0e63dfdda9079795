//===- OverrideConfig.cpp - Replace parts of configs and schedules --------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Transforms/TargetOptions.h"

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

  LogicalResult initialize(MLIRContext *) override {
    if (swizzle.hasValue() && !::tgemm::parseSwizzle(swizzle))
      return failure(reportOptionError(
          "swizzle", "unknown swizzle '" + swizzle + "'; expected xor, pad or none"));
    if (stages < 0 || stages > kMaxOptionValue)
      return failure(reportOptionError(
          "stages", "expected an integer between 0 and " +
                        llvm::Twine(kMaxOptionValue) + ", got " +
                        llvm::Twine(stages.getValue())));
    for (auto [name, value] :
         {std::pair<StringRef, int64_t>{"padding", padding},
          {"prefetch-fragments-min-warps", prefetchMinWarps}})
      if (value < 0 || value > kMaxOptionValue)
        return failure(reportOptionError(
            name, "expected an integer between 0 and " +
                      llvm::Twine(kMaxOptionValue) + ", got " +
                      llvm::Twine(value)));
    return success();
  }

  bool changesSchedule() const {
    return refillAfterMma.hasValue() || interleaveCopies.hasValue() ||
           prefetchMinWarps.hasValue() || asyncCopy.hasValue() ||
           ldmatrix.hasValue() || swizzle.hasValue() || padding.hasValue();
  }

  /// What the op's config says in a message, so a rejected override says
  /// which value it tried.
  std::string describeOverride() const {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (stages != 0)
      os << " stages = " << stages.getValue();
    if (refillAfterMma.hasValue())
      os << " refill-after-mma = " << refillAfterMma.getValue();
    if (interleaveCopies.hasValue())
      os << " interleave-copies = " << interleaveCopies.getValue();
    if (prefetchMinWarps.hasValue())
      os << " prefetch-fragments-min-warps = " << prefetchMinWarps.getValue();
    if (asyncCopy.hasValue())
      os << " async-copy = " << asyncCopy.getValue();
    if (ldmatrix.hasValue())
      os << " ldmatrix = " << ldmatrix.getValue();
    if (swizzle.hasValue())
      os << " swizzle = " << swizzle.getValue();
    if (padding.hasValue())
      os << " padding = " << padding.getValue();
    return text;
  }

  LogicalResult overrideOp(MatmulOp op) {
    ConfigAttr old = op.getConfigAttr();
    if (!old)
      return success(); // nothing to override until a config is chosen
    auto emit = [&] {
      return op.emitOpError() << "with" << describeOverride() << ": ";
    };
    ConfigAttr config = old;
    if (stages != 0) {
      config = ConfigAttr::getChecked(emit, op.getContext(), old.getBlock(),
                                      old.getWarps(), stages.getValue(),
                                      old.getRaster());
      if (!config)
        return failure();
      op.setConfigAttr(config);
    }
    TargetAttr target = lookupTarget(op);
    if (changesSchedule()) {
      ::tgemm::TileConfig tile = getTileConfig(config);
      ::tgemm::Schedule s =
          op.getScheduleAttr() ? op.getScheduleAttr().getValue()
          : target ? ::tgemm::defaultSchedule(target.getFamily(), tile)
                   : ::tgemm::Schedule();
      if (refillAfterMma.hasValue())
        s.refillAfterMma = refillAfterMma;
      if (interleaveCopies.hasValue())
        s.interleaveCopies = interleaveCopies;
      if (prefetchMinWarps.hasValue())
        s.prefetchFragments =
            prefetchMinWarps > 0 &&
            config.getWarpsM() * config.getWarpsN() >= prefetchMinWarps &&
            config.getStages() > 1;
      if (asyncCopy.hasValue())
        s.asyncCopy = asyncCopy;
      if (ldmatrix.hasValue())
        s.ldmatrix = ldmatrix;
      if (swizzle.hasValue())
        s.swizzle = *::tgemm::parseSwizzle(swizzle);
      if (padding.hasValue())
        s.padding = padding;
      op.setScheduleAttr(ScheduleAttr::get(op.getContext(), s));
    }
    if (failed(op.verify()))
      return failure();
    if (!target)
      return success();
    ::tgemm::TileConfig tile = getTileConfig(config);
    ::tgemm::Schedule schedule =
        op.getScheduleAttr()
            ? op.getScheduleAttr().getValue()
            : ::tgemm::defaultSchedule(target.getFamily(), tile);
    if (::tgemm::Verdict v = ::tgemm::checkForTarget(getProblem(op), &tile,
                                                     schedule,
                                                     target.getValue()))
      return emit() << v->message;
    return success();
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk(
        [&](MatmulOp op) { failed |= ::mlir::failed(overrideOp(op)); });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
