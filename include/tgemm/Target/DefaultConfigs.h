//===- DefaultConfigs.h - Default tile configs per precision ----*- C++ -*-===//
//
// The tile config tgemm uses when the user asks for none: one sound choice
// per precision (A/B element kind and accumulator), valid on every chip that
// has an instruction for the precision and through every lowering that
// computes it. Front ends that build `tgemm.matmul` themselves (the Python
// problem builder, importers) take their default from here so that all of
// them agree.
//
// Plain C++ (no MLIR), like InstructionFacts.h.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TARGET_DEFAULTCONFIGS_H
#define TGEMM_TARGET_DEFAULTCONFIGS_H

#include "tgemm/Target/InstructionFacts.h"

#include <array>
#include <cstdint>
#include <optional>

namespace tgemm {

/// The fields of `#tgemm.config`.
struct TileConfig {
  std::array<int64_t, 3> block; // BM, BN, BK
  std::array<int64_t, 2> warps; // WM, WN
  int64_t stages;
  int64_t raster = 1;
  int64_t splitK = 1; // parts K is split into (#tgemm.config's split_k)
};

/// Split K's parts start on multiples of this many elements of K (of the
/// block tile K where that does not divide it), so that kernels whose
/// block tile K divides it split K at the same places and add the same
/// products in the same order.
constexpr int64_t kSplitKGranule = 256;
/// The granule of a block tile K: kSplitKGranule, or `blockK` itself.
inline int64_t splitKGranule(int64_t blockK) {
  return kSplitKGranule % blockK == 0 ? kSplitKGranule : blockK;
}

/// The parts to split K into for a static problem (M, N, K, `batch`
/// matrices) so that its grid fills `sms` SMs: 1 when the tiles alone
/// fill half of them, else as many as fill them, each at least 4 granules
/// deep, at most 16. `deterministic`: from the shape alone, with square
/// tiles of `deterministicTile` (the family's, deterministicSplitTile) and
/// 132 SMs whatever the config and chip, so that every config of the
/// family (whose block tile K divides the granule) and every GPU add the
/// same products in the same order. A dynamic size gives 1.
int64_t chooseSplitK(int64_t m, int64_t n, int64_t k, int64_t batch,
                     const TileConfig &tile, int64_t sms, bool deterministic,
                     int64_t deterministicTile = 128);

/// The default tile for `a` x `b` accumulated in `acc`, or std::nullopt when
/// no instruction computes that combination (see legalAccumulators()).
std::optional<TileConfig> defaultConfig(ElemKind a, ElemKind b, ElemKind acc);

/// The default tile of `family` for the precision: defaultConfig, except
/// where the family's own shape rules need another (wgmma: warpgroups
/// stacked along M and 128-byte rows).
std::optional<TileConfig> defaultConfig(ElemKind a, ElemKind b, ElemKind acc,
                                        Family family);

} // namespace tgemm

#endif // TGEMM_TARGET_DEFAULTCONFIGS_H
