//===- AttachTarget.cpp - Put the #tgemm.target on the module -------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Transforms/TargetOptions.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMATTACHTARGET
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {

struct AttachTargetPass
    : public mlir::tgemm::impl::TGemmAttachTargetBase<AttachTargetPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *) override {
    if (std::string error = chipNameError(chip); !error.empty())
      return failure(reportOptionError("chip", error));
    if (std::string error = familyNameError(family); !error.empty())
      return failure(reportOptionError("family", error));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto existing =
        module->getAttrOfType<TargetAttr>(TargetAttr::getAttrName());
    if (!existing && module->hasAttr(TargetAttr::getAttrName())) {
      module.emitError() << "'" << TargetAttr::getAttrName()
                         << "' must be a #tgemm.target, got "
                         << module->getAttr(TargetAttr::getAttrName());
      return signalPassFailure();
    }
    std::optional<::tgemm::Family> wanted =
        family.empty() ? std::nullopt : ::tgemm::parseFamily(family);
    if (existing) {
      bool chipDiffers = !chip.empty() && chip != existing.getChip();
      bool familyDiffers = wanted && *wanted != existing.getFamily();
      if (chipDiffers || familyDiffers) {
        module.emitError() << "the module's target " << existing
                           << " differs from the requested "
                           << (chipDiffers ? "chip '" + chip + "'" : "")
                           << (chipDiffers && familyDiffers ? " and " : "")
                           << (familyDiffers ? "family '" + family + "'" : "")
                           << "; remove one of them";
        return signalPassFailure();
      }
      return;
    }
    std::string chipName = chip.empty() ? std::string("sm_90") : chip.getValue();
    ::tgemm::Family chosen =
        wanted ? *wanted : fastestLegalFamily(module, chipName);
    module->setAttr(TargetAttr::getAttrName(),
                    TargetAttr::get(module.getContext(), chipName, chosen));
  }

  /// The fastest family (legality module's order for the chip) that every
  /// tgemm.matmul of the module is legal for, with its config and schedule
  /// where it has them; else the last one tried, whose rules the checks
  /// then report.
  static ::tgemm::Family fastestLegalFamily(ModuleOp module,
                                            StringRef chipName) {
    const ::tgemm::ChipInfo *info = ::tgemm::lookupChip(chipName);
    llvm::SmallVector<::tgemm::Problem> problems;
    module.walk([&](MatmulOp op) { problems.push_back(getProblem(op)); });
    llvm::SmallVector<::tgemm::Family, 2> families =
        ::tgemm::familiesBySpeed(*info, problems);
    for (::tgemm::Family family : families) {
      ::tgemm::Target target{info, family};
      WalkResult walk = module.walk([&](MatmulOp op) {
        return checkForTarget(op, target) ? WalkResult::interrupt()
                                          : WalkResult::advance();
      });
      if (!walk.wasInterrupted())
        return family;
    }
    return families.back();
  }
};

} // namespace
