//===- CheckTarget.cpp - Check matmuls against their target ---------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Target/Legality.h"
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

  /// A remark for each operand that `target`'s family loads other than
  /// with its own instruction path.
  static void reportOperandPaths(MatmulOp op, const ::tgemm::Target &target) {
    ::tgemm::Problem p = getProblem(op);
    // The op's schedule, else the one its family's lowering takes.
    ::tgemm::Schedule schedule =
        op.getScheduleAttr()
            ? op.getScheduleAttr().getValue()
            : ::tgemm::defaultSchedule(target.family,
                                       op.getConfigAttr()
                                           ? getTileConfig(op.getConfigAttr())
                                           : ::tgemm::TileConfig());
    ::tgemm::TransposePlan plan =
        ::tgemm::transposePlan(p, target.family, schedule);
    auto report = [&](StringRef name, ::tgemm::ElemKind type, bool kMajor,
                      StringRef stored) {
      std::optional<::tgemm::OperandPath> path =
          ::tgemm::operandPath(target.family, type, kMajor, schedule.ldmatrix);
      if (!path || *path == ::tgemm::OperandPath::Native)
        return;
      InFlightDiagnostic remark = op.emitRemark();
      remark << name << " (" << ::tgemm::ptxName(type) << ", " << stored
             << ") is MN-major: ";
      if (name == "A" ? plan.kernelA : plan.kernelB) {
        remark << "a kernel launched before the GEMM transposes it into the "
                  "workspace (transpose_kernel), and the "
               << ::tgemm::loweringName(target.family)
               << " lowering reads that K-major copy";
        return;
      }
      remark << "the " << ::tgemm::loweringName(target.family)
             << " lowering loads it with " << ::tgemm::operandPathName(*path);
      if (*path == ::tgemm::OperandPath::TransposedCopy)
        remark << (plan.staged
                       ? " (the copy engine fills a staging ring as stored; "
                         "the producer warpgroup transposes it with prmt)"
                       : " (copies through registers, the producer copying "
                         "with cp.async: no TMA)");
    };
    report("A", p.a, p.rowA, "stored K x M");
    report("B", p.b, !p.rowB, "stored K x N");
    // Rows the IR places less than 16-byte aligned.
    auto reportRows = [&](StringRef name, bool isA) {
      if (!::tgemm::rowsMisaligned(p, isA))
        return;
      int64_t ld = isA ? p.ldA : p.ldB;
      ::tgemm::ElemKind type = isA ? p.a : p.b;
      int64_t rowBytes = ld * ::tgemm::bitWidth(type) / 8;
      int64_t alignment = rowBytes & -rowBytes;
      InFlightDiagnostic remark = op.emitRemark();
      remark << name << " (" << ::tgemm::ptxName(type) << ") has rows " << ld
             << " elements apart, aligned to " << alignment
             << (alignment == 1 ? " byte: " : " bytes: ");
      if (isA ? plan.alignA : plan.alignB) {
        remark << "a kernel launched before the GEMM copies it into the "
                  "workspace with rows on 16 bytes (align_kernel), and the "
               << ::tgemm::loweringName(target.family)
               << " lowering reads that copy";
        return;
      }
      if (isA ? plan.kernelA : plan.kernelB)
        return; // the transposed copy's rows are aligned
      remark << "the " << ::tgemm::loweringName(target.family)
             << " lowering reads it in place with narrower copies"
             << (target.family == ::tgemm::Family::Wgmma
                     ? " and without tensor maps"
                     : "");
    };
    reportRows("A", true);
    reportRows("B", false);
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](MatmulOp op) {
      TargetAttr target = lookupTarget(op);
      if (!target) {
        (void)emitMissingTarget(op);
        failed = true;
        return;
      }
      if (::mlir::failed(verifyForTarget(op, target.getValue()))) {
        failed = true;
        return;
      }
      // What the check accepts, tgemm-tile compiles: its memref form.
      if (op.hasTensorForm()) {
        (void)emitTensorForm(op);
        failed = true;
        return;
      }
      if (reportLayouts)
        reportOperandPaths(op, target.getValue());
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
