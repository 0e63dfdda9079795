//===- SelectConfig.cpp - Tuned tile configs for matmuls without one ------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Target/DefaultConfigs.h"
#include "tgemm/Target/TuningDatabase.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Transforms/TargetOptions.h"

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

/// Whether `op` verifies with `config` and its rings fit `chip`; the op is
/// left with `config` set when they do. Diagnostics of the trial are
/// dropped.
bool tryConfig(MatmulOp op, const ::tgemm::TileConfig &tile,
               const ::tgemm::ChipInfo &chip) {
  MLIRContext *ctx = op.getContext();
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  auto config = ConfigAttr::getChecked(
      [&] { return op.emitOpError(); }, ctx, ArrayRef<int64_t>(tile.block),
      ArrayRef<int64_t>(tile.warps), tile.stages, tile.raster);
  if (!config)
    return false;
  MatmulKinds kinds = getMatmulKinds(op);
  if (getPipelineSharedBytes(config, kinds.a, kinds.b) >
      chip.maxSharedBytesPerBlock)
    return false;
  op.setConfigAttr(config);
  if (succeeded(op.verify()))
    return true;
  op.removeConfigAttr();
  return false;
}

std::string describe(const ::tgemm::TileConfig &c) {
  return llvm::formatv("block = [{0}, {1}, {2}], warps = [{3}, {4}], "
                       "stages = {5}, raster = {6}",
                       c.block[0], c.block[1], c.block[2], c.warps[0],
                       c.warps[1], c.stages, c.raster)
      .str();
}

struct SelectConfigPass
    : public mlir::tgemm::impl::TGemmSelectConfigBase<SelectConfigPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<const ::tgemm::ChipInfo *> found =
        lookupChipOption(context, chip);
    if (failed(found))
      return failure();
    chipInfo = *found;
    if (lowering != "wmma" && lowering != "ptx")
      return emitError(UnknownLoc::get(context))
             << "unknown lowering '" << lowering
             << "'; expected wmma or ptx";
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

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](MatmulOp op) {
      if (op.getConfigAttr())
        return;
      MatmulKinds kinds = getMatmulKinds(op);
      ::tgemm::TuningQuery query{chip,    lowering,       kinds.a,
                                 kinds.b, kinds.acc,      kinds.c,
                                 op.getStaticM(), op.getStaticN(),
                                 op.getStaticK()};
      std::string source;
      const ::tgemm::TuningDatabase *databases[] = {
          &user, &::tgemm::TuningDatabase::builtin()};
      for (const ::tgemm::TuningDatabase *db : databases) {
        if (db != &user && !builtin)
          continue;
        const ::tgemm::TunedConfig *tuned = db->lookup(query);
        if (tuned && tryConfig(op, tuned->config, *chipInfo)) {
          source = llvm::formatv("tuned at {0}x{1}x{2}", tuned->m, tuned->n,
                                 tuned->k)
                       .str();
          break;
        }
      }
      if (source.empty()) {
        std::optional<::tgemm::TileConfig> fallback =
            ::tgemm::defaultConfig(kinds.a, kinds.b, kinds.acc);
        if (!fallback || !tryConfig(op, *fallback, *chipInfo)) {
          op.emitOpError() << "has no tile config and neither a tuned nor "
                              "the default config fits it on "
                           << chipInfo->name;
          failed = true;
          return;
        }
        source = "default";
      }
      if (report) {
        ConfigAttr c = op.getConfigAttr();
        ::tgemm::TileConfig chosen{{c.getBlockM(), c.getBlockN(), c.getBlockK()},
                                   {c.getWarpsM(), c.getWarpsN()},
                                   c.getStages(),
                                   c.getRaster()};
        op.emitRemark() << "config for " << chip << " " << lowering << ": "
                        << describe(chosen) << " (" << source << ")";
      }
    });
    if (failed)
      signalPassFailure();
  }

  const ::tgemm::ChipInfo *chipInfo = nullptr;
  ::tgemm::TuningDatabase user;
};

} // namespace
