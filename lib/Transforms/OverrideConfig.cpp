//===- OverrideConfig.cpp - Replace parts of configs and schedules --------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Transforms/TargetOptions.h"
#include "tgemm/runtime/Manifest.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

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
    if (swizzle.hasValue())
      if (std::string error = swizzleNameError(swizzle); !error.empty())
        return failure(reportOptionError("swizzle", error));
    if (stages < 0 || stages > kMaxOptionValue)
      return failure(reportOptionError(
          "stages", "expected an integer between 0 and " +
                        llvm::Twine(kMaxOptionValue) + ", got " +
                        llvm::Twine(stages.getValue())));
    if (splitK < 0 || splitK > ::tgemm::runtime::kMaxSplitK)
      return failure(reportOptionError(
          "split-k", "expected an integer between 0 and " +
                         llvm::Twine(::tgemm::runtime::kMaxSplitK) + ", got " +
                         llvm::Twine(splitK.getValue())));
    if (cluster.hasValue())
      if (::tgemm::Verdict v = ::tgemm::checkCluster(cluster))
        return failure(reportOptionError("cluster", v->message));
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
           ldmatrix.hasValue() || swizzle.hasValue() || padding.hasValue() ||
           warpSpecialize.hasValue() || tma.hasValue() ||
           setmaxnreg.hasValue() || persistent.hasValue() ||
           cluster.hasValue() || tmaStore.hasValue() ||
           transposeKernel.hasValue() || alignKernel.hasValue();
  }

  /// What the op's config says in a message, so a rejected override says
  /// which value it tried.
  std::string describeOverride() const {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (stages != 0)
      os << " stages = " << stages.getValue();
    if (splitK != 0)
      os << " split-k = " << splitK.getValue();
    if (refillAfterMma.hasValue())
      os << " refill-after-mma = " << (refillAfterMma ? "true" : "false");
    if (interleaveCopies.hasValue())
      os << " interleave-copies = " << (interleaveCopies ? "true" : "false");
    if (prefetchMinWarps.hasValue())
      os << " prefetch-fragments-min-warps = " << prefetchMinWarps.getValue();
    if (asyncCopy.hasValue())
      os << " async-copy = " << (asyncCopy ? "true" : "false");
    if (ldmatrix.hasValue())
      os << " ldmatrix = " << (ldmatrix ? "true" : "false");
    if (swizzle.hasValue())
      os << " swizzle = " << swizzle.getValue();
    if (padding.hasValue())
      os << " padding = " << padding.getValue();
    if (warpSpecialize.hasValue())
      os << " warp-specialize = " << (warpSpecialize ? "true" : "false");
    if (tma.hasValue())
      os << " tma = " << (tma ? "true" : "false");
    if (setmaxnreg.hasValue())
      os << " setmaxnreg = " << (setmaxnreg ? "true" : "false");
    if (persistent.hasValue())
      os << " persistent = " << (persistent ? "true" : "false");
    if (cluster.hasValue())
      os << " cluster = " << cluster.getValue();
    if (tmaStore.hasValue())
      os << " tma_store = " << (tmaStore ? "true" : "false");
    if (transposeKernel.hasValue())
      os << " transpose-kernel = " << (transposeKernel ? "true" : "false");
    if (alignKernel.hasValue())
      os << " align-kernel = " << (alignKernel ? "true" : "false");
    return text;
  }

  /// `s` with the given schedule options applied; `warps` and `stages` of
  /// the block decide `prefetch-fragments-min-warps`.
  ::tgemm::Schedule apply(::tgemm::Schedule s, int64_t warps,
                          int64_t stages) const {
    if (refillAfterMma.hasValue())
      s.refillAfterMma = refillAfterMma;
    if (interleaveCopies.hasValue())
      s.interleaveCopies = interleaveCopies;
    if (prefetchMinWarps.hasValue())
      s.prefetchFragments =
          prefetchMinWarps > 0 && warps >= prefetchMinWarps && stages > 1;
    if (asyncCopy.hasValue())
      s.asyncCopy = asyncCopy;
    if (ldmatrix.hasValue())
      s.ldmatrix = ldmatrix;
    if (swizzle.hasValue())
      s.swizzle = *::tgemm::parseSwizzle(swizzle);
    if (padding.hasValue())
      s.padding = padding;
    if (warpSpecialize.hasValue())
      s.warpSpecialize = warpSpecialize;
    if (tma.hasValue())
      s.tma = tma;
    if (setmaxnreg.hasValue())
      s.setMaxRegisters = setmaxnreg;
    if (persistent.hasValue())
      s.persistent = persistent;
    if (cluster.hasValue())
      s.cluster = cluster;
    if (tmaStore.hasValue())
      s.tmaStore = tmaStore;
    if (transposeKernel.hasValue())
      s.transposeKernel = transposeKernel;
    if (alignKernel.hasValue())
      s.alignKernel = alignKernel;
    return s;
  }

  /// A kernel that carries a schedule, or whose target names its family,
  /// gets the lowering's fields of the options (the k-loop is written).
  LogicalResult overrideKernel(gpu::GPUFuncOp kernel) {
    bool tiled = false;
    kernel.walk([&](MmaTileOp) { tiled = true; });
    if (!tiled || !changesSchedule())
      return success();
    auto old = kernel->getAttrOfType<ScheduleAttr>(ScheduleAttr::getAttrName());
    TargetAttr target = lookupTarget(kernel);
    if (!old && !target)
      return kernel.emitOpError()
             << "has neither a tgemm.schedule nor a tgemm.target whose "
                "family's default schedule the options could change";
    ::tgemm::Schedule s =
        old ? old.getValue()
            : ::tgemm::defaultSchedule(target.getFamily(), {{0, 0, 0}, {1, 1}, 1});
    bool wasPersistent = s.persistent;
    int64_t wasCluster = s.cluster;
    bool wasTmaStore = s.tmaStore;
    bool wasTransposeKernel = s.transposeKernel;
    bool wasAlignKernel = s.alignKernel;
    s = apply(s, /*warps=*/0, /*stages=*/1);
    // The tile loop is the kernel's own code by now.
    if (s.persistent != wasPersistent || s.cluster != wasCluster ||
        s.tmaStore != wasTmaStore || s.transposeKernel != wasTransposeKernel ||
        s.alignKernel != wasAlignKernel)
      return kernel.emitOpError()
             << "with" << describeOverride() << ": "
             << (s.persistent != wasPersistent             ? "persistent"
                 : s.cluster != wasCluster                 ? "cluster"
                 : s.tmaStore != wasTmaStore               ? "tma_store"
                 : s.transposeKernel != wasTransposeKernel ? "transpose_kernel"
                                                           : "align_kernel")
             << " is fixed when tgemm-tile writes the kernel's tile loop; "
                "give it before tgemm-tile";
    if (::tgemm::Verdict v = ::tgemm::checkPadding(s.padding))
      return kernel.emitOpError() << "with" << describeOverride() << ": "
                                  << v->message;
    if (target)
      if (::tgemm::Verdict v =
              ::tgemm::checkScheduleKnobs(s, target.getFamily()))
        return kernel.emitOpError() << "with" << describeOverride() << ": "
                                    << v->message;
    kernel->setAttr(ScheduleAttr::getAttrName(),
                    ScheduleAttr::get(kernel.getContext(), s));
    return success();
  }

  LogicalResult overrideOp(MatmulOp op) {
    ConfigAttr old = op.getConfigAttr();
    if (!old)
      return success(); // nothing to override until a config is chosen
    auto emit = [&] {
      return op.emitOpError() << "with" << describeOverride() << ": ";
    };
    ConfigAttr config = old;
    if (stages != 0 || splitK != 0) {
      config = ConfigAttr::getChecked(
          emit, op.getContext(), old.getBlock(), old.getWarps(),
          stages != 0 ? stages.getValue() : old.getStages(), old.getRaster(),
          splitK != 0 ? splitK.getValue() : old.getSplitK());
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
      s = apply(s, config.getWarpsM() * config.getWarpsN(),
                config.getStages());
      // Transposing an operand by a kernel or in the producer decides
      // whether the selected persistent grid and cluster still fit; the
      // knobs the options give stay as given.
      if (target && transposeKernel.hasValue())
        s = ::tgemm::fitSchedule(
            getProblem(op), target.getFamily(), tile, s,
            {persistent.hasValue(), cluster.hasValue(), tmaStore.hasValue()});
      ScheduleAttr attr = ScheduleAttr::getChecked(
          emit, op.getContext(), s.refillAfterMma, s.interleaveCopies,
          s.prefetchFragments, s.asyncCopy, s.ldmatrix, s.swizzle, s.padding,
          s.warpSpecialize, s.tma, s.setMaxRegisters, s.persistent, s.cluster,
          s.tmaStore, s.transposeKernel, s.alignKernel);
      if (!attr)
        return failure();
      op.setScheduleAttr(attr);
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
    getOperation()->walk([&](Operation *op) {
      if (auto matmul = dyn_cast<MatmulOp>(op))
        failed |= ::mlir::failed(overrideOp(matmul));
      else if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op))
        failed |= ::mlir::failed(overrideKernel(kernel));
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
