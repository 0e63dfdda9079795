//===- TuningDatabase.h - Tuned tile configs per chip and shape -*- C++ -*-===//
//
// The autotuner (scripts/tune.py) measures tile configs on a GPU and writes
// the fastest per (chip, lowering, precision, shape) into a JSON database
// under configs/ (format: docs/tuning.md). The compiler reads it when a
// `tgemm.matmul` has no config: `--tgemm-select-config` takes the entry of
// the same chip, lowering and element types whose (M, N, K) is nearest in
// log space, and falls back to tgemm::defaultConfig when there is none.
//
// The databases in configs/ are compiled into the library, so a build finds
// them wherever it is installed; a user may load more.
//
// Plain C++ with LLVM's support library (no MLIR), like InstructionFacts.h.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TARGET_TUNINGDATABASE_H
#define TGEMM_TARGET_TUNINGDATABASE_H

#include "tgemm/Target/DefaultConfigs.h"
#include "tgemm/Target/InstructionFacts.h"
#include "tgemm/Target/Legality.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tgemm {

/// One measured winner.
struct TunedConfig {
  std::string chip;     // sm_90
  std::string lowering; // wmma, ptx or wgmma
  ElemKind a, b, acc, c;
  int64_t m, n, k; // the shape it was tuned at
  TileConfig config;
  /// The entry's "options": schedule fields it was measured with, applied
  /// over the family's default schedule (`swizzle`, `padding`,
  /// `async-copy`, `ldmatrix`, `refill-after-mma`, `interleave-copies`,
  /// `prefetch-fragments`, and wgmma's `warp-specialize`, `tma`,
  /// `setmaxnreg`, `cluster`, `tma-store`; every family's `persistent`).
  struct ScheduleOptions {
    std::optional<Swizzle> swizzle;
    std::optional<int64_t> padding, cluster;
    std::optional<bool> asyncCopy, ldmatrix, refillAfterMma, interleaveCopies,
        prefetchFragments, warpSpecialize, tma, setmaxnreg, persistent,
        tmaStore, transposeKernel, alignKernel;
  } options;
  double tflops = 0; // what it reached there (for reports only)

  /// The schedule the entry was measured with, for `family`.
  Schedule schedule(Family family) const;
};

/// Deepest nesting of objects and lists a database may have: the parser
/// recurses, so a deeper file is rejected before it is parsed.
constexpr int kMaxDatabaseDepth = 32;

/// The problem a config is wanted for; a dynamic size is <= 0.
struct TuningQuery {
  llvm::StringRef chip, lowering;
  ElemKind a, b, acc, c;
  int64_t m, n, k;
};

class TuningDatabase {
public:
  /// Adds the entries of one database file's text; `name` is used in error
  /// messages. On error nothing is added.
  llvm::Error addJson(llvm::StringRef text, llvm::StringRef name);

  /// The entry for `query`: same chip, lowering and element types, nearest
  /// shape (sum of |log2| distances; a dynamic size counts as 4096). Null
  /// when no entry matches.
  const TunedConfig *lookup(const TuningQuery &query) const;

  const std::vector<TunedConfig> &entries() const { return entries_; }

  /// The databases of configs/, compiled in.
  static const TuningDatabase &builtin();

private:
  std::vector<TunedConfig> entries_;
};

} // namespace tgemm

#endif // TGEMM_TARGET_TUNINGDATABASE_H
