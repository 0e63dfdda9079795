//===- DefaultConfigs.cpp - Default tile configs per precision ------------===//

#include "tgemm/Target/DefaultConfigs.h"

using namespace tgemm;

int64_t tgemm::chooseSplitK(int64_t m, int64_t n, int64_t k, int64_t batch,
                            const TileConfig &tile, int64_t sms,
                            bool deterministic, int64_t deterministicTile) {
  if (m <= 0 || n <= 0 || k <= 0 || batch <= 0)
    return 1; // dynamic: one kernel for every shape
  int64_t bm = deterministic ? deterministicTile : tile.block[0];
  int64_t bn = deterministic ? deterministicTile : tile.block[1];
  int64_t granule = deterministic ? kSplitKGranule
                                  : splitKGranule(tile.block[2]);
  if (deterministic)
    sms = 132;
  int64_t tiles = batch * ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
  if (sms <= 0 || 2 * tiles >= sms)
    return 1;
  int64_t deep = ((k + granule - 1) / granule) / 4;
  int64_t parts = std::min<int64_t>({sms / tiles, deep, 16});
  return std::max<int64_t>(parts, 1);
}

std::optional<TileConfig> tgemm::defaultConfig(ElemKind a, ElemKind b,
                                               ElemKind acc) {
  // An f32 operand is computed as TF32; the facts name it so.
  auto operand = [](ElemKind k) {
    return k == ElemKind::F32 ? ElemKind::TF32 : k;
  };
  a = operand(a);
  b = operand(b);
  if (lookupMmaAnyFamily(a, b, acc).empty())
    return std::nullopt;
  // Every config has a 128x128 block tile and a block K of 64 bytes per
  // row, so each stage moves 16 KiB and the ptx lowering's XOR swizzle
  // applies. The stage counts keep the rings, with the WMMA lowering's
  // padding and epilogue scratch, within the 99 KiB of sm_86 and sm_89: the
  // default compiles for every chip that has the instruction.
  switch (a) {
  case ElemKind::F16:
  case ElemKind::BF16:
    return TileConfig{{128, 128, 32}, {2, 2}, 3};
  case ElemKind::TF32:
    // Rows as wide in bytes as f16's; a fourth stage (64 KiB of rings)
    // still fits every chip and keeps one more k-tile in flight.
    return TileConfig{{128, 128, 16}, {2, 2}, 4};
  case ElemKind::S8:
  case ElemKind::U8:
    return TileConfig{{128, 128, 64}, {2, 2}, 3};
  case ElemKind::S4:
    // mma.sync's s4 shape is k64 and wmma's is k32; 128 is a multiple of
    // both and fills 64-byte rows.
    return TileConfig{{128, 128, 128}, {2, 2}, 3};
  case ElemKind::E4M3:
  case ElemKind::E5M2:
    // Eight warps, as in the fp8 examples measured in README.md.
    return TileConfig{{128, 128, 64}, {2, 4}, 3};
  case ElemKind::F32:
  case ElemKind::S32:
    break;
  }
  return std::nullopt;
}

std::optional<TileConfig> tgemm::defaultConfig(ElemKind a, ElemKind b,
                                               ElemKind acc, Family family) {
  if (family != Family::Wgmma)
    return defaultConfig(a, b, acc);
  if (!lookupMma(family, a, b, acc))
    return std::nullopt;
  // Two warpgroups of 64 x 256, block K of 128 bytes (the swizzle's row),
  // four stages (192 KiB of rings, within sm_90a's 227 KiB), tiles in
  // groups of 8 block rows. Measured on the H200 for every precision
  // (bench/README.md): 0.95-0.97x cuBLAS at 4096^3, 0.99-1.15x at 8192^3
  // (s8/u8: 0.83-0.86x and 1.0x).
  return TileConfig{{128, 256, 128 * 8 / bitWidth(a)}, {8, 1}, 4, 8};
}
