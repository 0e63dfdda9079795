//===- CheckTarget.cpp - Check matmuls against a chip and lowering --------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Transforms/TargetOptions.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMCHECKTARGET
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;
using ::tgemm::ChipInfo;
using ::tgemm::Family;
using ::tgemm::MmaFact;

namespace {

/// Checks one matmul for one family on one chip; emits on failure.
LogicalResult checkFamily(MatmulOp op, Family family, const ChipInfo &chip) {
  MatmulKinds kinds = getMatmulKinds(op);
  const MmaFact *fact = ::tgemm::lookupMma(family, kinds.a, kinds.b, kinds.acc);
  if (!fact)
    return op.emitOpError()
           << "the " << ::tgemm::loweringName(family) << " lowering has no "
           << ::tgemm::familyName(family) << " instruction for "
           << op.getA().getType().getElementType() << " x "
           << op.getB().getType().getElementType() << " -> " << op.getAcc();
  // WMMA loads its fragments itself, so the instruction's operand layouts
  // bind the operands' storage; mma.sync fragments are assembled by the
  // lowering, which transposes where needed.
  if (family == Family::Wmma && fact->rowColOnly &&
      (op.getLayoutA() != Layout::Row || op.getLayoutB() != Layout::Col))
    return op.emitOpError()
           << "the wmma " << ::tgemm::ptxName(kinds.a)
           << " instruction takes only layout(row, col), got layout("
           << stringifyLayout(op.getLayoutA()) << ", "
           << stringifyLayout(op.getLayoutB()) << ")";
  if (fact->minSm > chip.sm)
    return op.emitOpError()
           << ::tgemm::familyName(family) << " with "
           << ::tgemm::ptxName(kinds.a) << " operands needs sm_" << fact->minSm
           << " or newer; the target is " << chip.name;
  if (!op.getConfigAttr())
    return success(); // no tile yet: tgemm-select-config picks one that fits
  int64_t bytes = getPipelineSharedBytes(op.getConfigAttr(), kinds.a, kinds.b);
  if (bytes > chip.maxSharedBytesPerBlock)
    return op.emitOpError()
           << "the " << op.getConfigAttr().getStages() << "-stage pipeline needs "
           << bytes << " bytes of shared memory; " << chip.name
           << " allows a block " << chip.maxSharedBytesPerBlock << " bytes";
  return success();
}

struct CheckTargetPass
    : public mlir::tgemm::impl::TGemmCheckTargetBase<CheckTargetPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<const ::tgemm::ChipInfo *> found =
        lookupChipOption(context, chip);
    if (failed(found))
      return failure();
    chipInfo = *found;
    if (lowering != "any" && !::tgemm::parseFamily(lowering))
      return emitError(UnknownLoc::get(context))
             << "unknown lowering '" << lowering
             << "'; expected wmma, ptx or any";
    return success();
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](MatmulOp op) {
      if (lowering != "any") {
        failed |= ::mlir::failed(
            checkFamily(op, *::tgemm::parseFamily(lowering), *chipInfo));
        return;
      }
      // Either family will do: report the mma.sync reason if neither can,
      // since it covers every precision the wmma family covers.
      {
        ScopedDiagnosticHandler silence(op.getContext(),
                                        [](Diagnostic &) { return success(); });
        if (succeeded(checkFamily(op, Family::Wmma, *chipInfo)))
          return;
      }
      failed |= ::mlir::failed(checkFamily(op, Family::MmaSync, *chipInfo));
    });
    if (failed)
      signalPassFailure();
  }

  const ChipInfo *chipInfo = nullptr;
};

} // namespace
