//===- SelectConfig.cpp - Tuned tile configs for matmuls without one ------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Target/DefaultConfigs.h"
#include "tgemm/Target/TuningDatabase.h"
#include "tgemm/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMSELECTCONFIG
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {

/// Whether `op` verifies with `config` and the legality module accepts it
/// with `schedule` for `target`; the op is left with both set when they do.
/// Diagnostics of the trial are dropped.
bool tryConfig(MatmulOp op, const ::tgemm::TileConfig &tile,
               const ::tgemm::Schedule &schedule,
               const ::tgemm::Target &target) {
  MLIRContext *ctx = op.getContext();
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  auto config = ConfigAttr::getChecked(
      [&] { return op.emitOpError(); }, ctx, ArrayRef<int64_t>(tile.block),
      ArrayRef<int64_t>(tile.warps), tile.stages, tile.raster, tile.splitK);
  if (!config)
    return false;
  if (::tgemm::checkForTarget(getProblem(op), &tile, schedule, target))
    return false;
  op.setConfigAttr(config);
  op.setScheduleAttr(ScheduleAttr::get(ctx, schedule));
  if (succeeded(op.verify()))
    return true;
  op.removeConfigAttr();
  op.removeScheduleAttr();
  return false;
}

std::string describe(const ::tgemm::TileConfig &c) {
  std::string text =
      llvm::formatv("block = [{0}, {1}, {2}], warps = [{3}, {4}], "
                    "stages = {5}, raster = {6}",
                    c.block[0], c.block[1], c.block[2], c.warps[0],
                    c.warps[1], c.stages, c.raster)
          .str();
  if (c.splitK > 1)
    text += llvm::formatv(", split_k = {0}", c.splitK).str();
  return text;
}

struct SelectConfigPass
    : public mlir::tgemm::impl::TGemmSelectConfigBase<SelectConfigPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    for (auto [name, value] :
         {std::pair<StringRef, StringRef>{"transpose-kernel", transposeKernel},
          {"align-kernel", alignKernel}})
      if (value != "auto" && value != "tuned" && value != "true" &&
          value != "false")
        return emitError(UnknownLoc::get(context))
               << name << " must be auto, tuned, true or false, not '" << value
               << "'";
    if (!database.empty()) {
      auto buffer = llvm::MemoryBuffer::getFile(database);
      if (!buffer)
        return emitError(UnknownLoc::get(context))
               << "cannot read the tuning database '" << database
               << "': " << buffer.getError().message();
      if (llvm::Error e = user.addJson((*buffer)->getBuffer(), database))
        return emitError(UnknownLoc::get(context))
               << "bad tuning database: " << llvm::toString(std::move(e));
    }
    return success();
  }

  /// `measured` fitted to `op` under `tile`, `transpose-kernel` deciding
  /// where MN-major operands are transposed and `align-kernel` where
  /// misaligned ones are copied (`tuned`: as `measured` says).
  ::tgemm::Schedule fit(MatmulOp op, ::tgemm::Family family,
                        const ::tgemm::TileConfig &tile,
                        const ::tgemm::Schedule &measured) const {
    using Choice = ::tgemm::CopyKernelChoice;
    auto choice = [](StringRef value) {
      return value == "auto"    ? Choice::Auto
             : value == "true"  ? Choice::Always
             : value == "false" ? Choice::Never
                                : Choice::AsMeasured;
    };
    return ::tgemm::fitSchedule(getProblem(op), family, tile, measured, {},
                                choice(transposeKernel), choice(alignKernel));
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](MatmulOp op) {
      TargetAttr targetAttr = lookupTarget(op);
      if (!targetAttr) {
        (void)emitMissingTarget(op);
        failed = true;
        return;
      }
      ::tgemm::Target target = targetAttr.getValue();
      StringRef lowering = ::tgemm::loweringName(target.family);
      if (ConfigAttr config = op.getConfigAttr()) {
        // The family's default schedule, as far as this problem allows.
        if (!op.getScheduleAttr()) {
          ::tgemm::TileConfig tile = getTileConfig(config);
          op.setScheduleAttr(ScheduleAttr::get(
              op.getContext(),
              fit(op, target.family, tile,
                  ::tgemm::defaultSchedule(target.family, tile))));
        }
        return;
      }
      MatmulKinds kinds = getMatmulKinds(op);
      // sm_90a is sm_90 with more instructions: the same measured configs.
      StringRef chip = StringRef(target.chip->name).rtrim('a');
      ::tgemm::TuningQuery query{chip,              lowering,  kinds.a,
                                 kinds.b,           kinds.acc, kinds.c,
                                 op.getStaticM(),   op.getStaticN(),
                                 op.getStaticK()};
      // A config, with K split where the problem's tiles leave SMs idle
      // (else as it is, if the split does not fit).
      int64_t sms = smCount > 0 ? int64_t(smCount) : target.chip->sms;
      std::string stagesNote;
      auto take = [&](::tgemm::TileConfig tile,
                      const ::tgemm::Schedule &measured, bool itsShape) {
        ::tgemm::Schedule schedule = fit(op, target.family, tile, measured);
        if (deterministic && tile.block[2] > 0 &&
            ::tgemm::kSplitKGranule % tile.block[2] != 0)
          return false;
        // An entry's own split holds for the shape it was measured at;
        // any other shape, and every shape when deterministic, takes the
        // rule's.
        if (deterministic || !itsShape)
          tile.splitK = 1;
        if (splitK && tile.splitK == 1) {
          ::tgemm::TileConfig split = tile;
          split.splitK = ::tgemm::chooseSplitK(
              op.getStaticM(), op.getStaticN(), op.getStaticK(),
              op.getStaticBatch(), tile, sms, deterministic,
              ::tgemm::deterministicSplitTile(target.family));
          // K is split only where the tiles leave more than half of the
          // SMs idle, so that a persistent block would take one tile:
          // the split kernel is launched one block per part instead.
          ::tgemm::Schedule unpersistent = schedule;
          unpersistent.persistent = false;
          unpersistent.cluster = 1;
          unpersistent.tmaStore = false;
          if (split.splitK > 1 && tryConfig(op, split, unpersistent, target))
            return true;
          // Unsplit, this config would sum K in another order than the
          // family's other configs: the same split with fewer stages below,
          // else the next candidate.
          if (deterministic && split.splitK > 1) {
            tile = split;
            schedule = unpersistent;
          }
        }
        if (tryConfig(op, tile, schedule, target))
          return true;
        // A config measured for other operands' layouts may need more
        // shared memory here (the staging rings of transposed operands):
        // the same tile with fewer stages.
        for (::tgemm::TileConfig fewer = tile; fewer.stages > 2;) {
          --fewer.stages;
          ::tgemm::Verdict v = ::tgemm::checkForTarget(getProblem(op), &fewer,
                                                       schedule, target);
          if (v && v->rule != "shared-memory")
            return false;
          if (tryConfig(op, fewer, schedule, target)) {
            stagesNote = llvm::formatv(", {0} stages for shared memory",
                                       fewer.stages)
                             .str();
            return true;
          }
        }
        return false;
      };
      std::string source;
      const ::tgemm::TuningDatabase *databases[] = {
          &user, &::tgemm::TuningDatabase::builtin()};
      for (const ::tgemm::TuningDatabase *db : databases) {
        if (db != &user && !builtin)
          continue;
        const ::tgemm::TunedConfig *tuned = db->lookup(query);
        bool itsShape = tuned && op.getStaticBatch() == 1 &&
                        tuned->m == op.getStaticM() &&
                        tuned->n == op.getStaticN() &&
                        tuned->k == op.getStaticK();
        if (tuned &&
            take(tuned->config, tuned->schedule(target.family), itsShape)) {
          source = llvm::formatv("tuned at {0}x{1}x{2}{3}", tuned->m,
                                 tuned->n, tuned->k, stagesNote)
                       .str();
          break;
        }
      }
      if (source.empty()) {
        std::optional<::tgemm::TileConfig> fallback =
            ::tgemm::defaultConfig(kinds.a, kinds.b, kinds.acc, target.family);
        if (!fallback ||
            !take(*fallback,
                  ::tgemm::defaultSchedule(target.family, *fallback),
                  /*itsShape=*/false)) {
          failed = true;
          // Say why: the op's own rules, else the default config's.
          if (::mlir::failed(verifyForTarget(op, target)))
            return;
          op.emitOpError() << "has no tile config and neither a tuned nor "
                              "the default config fits it on "
                           << target.chip->name << " with the " << lowering
                           << " lowering";
          return;
        }
        source = "default" + stagesNote;
      }
      if (report) {
        ConfigAttr c = op.getConfigAttr();
        op.emitRemark() << "config for " << target.chip->name << " "
                        << lowering << ": " << describe(getTileConfig(c))
                        << "; " << op.getScheduleAttr() << " (" << source
                        << ")";
      }
    });
    if (failed)
      signalPassFailure();
  }

  ::tgemm::TuningDatabase user;
};

} // namespace
