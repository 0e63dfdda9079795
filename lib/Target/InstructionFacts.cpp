//===- InstructionFacts.cpp - Tensor-core instruction facts ---------------===//

#include "tgemm/Target/InstructionFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <numeric>

using namespace tgemm;

namespace {
using EK = ElemKind;
constexpr Family W = Family::Wmma;
constexpr Family M = Family::MmaSync;
constexpr Family G = Family::Wgmma;

// clang-format off
// family, A, B, acc, {m, n, k}, regs A/B/acc, first sm, row.col only
const MmaFact kMmaFacts[] = {
    // wmma.mma.sync.aligned (PTX ISA "Matrix Shape": .m16n16k16 et al.)
    {W, EK::F16,  EK::F16,  EK::F32, {16, 16, 16}, 8, 8, 8, 70, false},
    {W, EK::F16,  EK::F16,  EK::F16, {16, 16, 16}, 8, 8, 4, 70, false},
    {W, EK::BF16, EK::BF16, EK::F32, {16, 16, 16}, 4, 4, 8, 80, false},
    {W, EK::TF32, EK::TF32, EK::F32, {16, 16, 8},  4, 4, 8, 80, false},
    {W, EK::S8,   EK::S8,   EK::S32, {16, 16, 16}, 2, 2, 8, 72, false},
    {W, EK::U8,   EK::U8,   EK::S32, {16, 16, 16}, 2, 2, 8, 72, false},
    // Sub-byte wmma is experimental in PTX and only takes .row.col.
    {W, EK::S4,   EK::S4,   EK::S32, {8, 8, 32},   1, 1, 2, 75, true},
    // mma.sync.aligned (PTX ISA "Matrix shape" table for mma).
    {M, EK::F16,  EK::F16,  EK::F32, {16, 8, 16},  4, 2, 4, 80, true},
    {M, EK::F16,  EK::F16,  EK::F16, {16, 8, 16},  4, 2, 2, 80, true},
    {M, EK::BF16, EK::BF16, EK::F32, {16, 8, 16},  4, 2, 4, 80, true},
    {M, EK::TF32, EK::TF32, EK::F32, {16, 8, 8},   4, 2, 4, 80, true},
    {M, EK::S8,   EK::S8,   EK::S32, {16, 8, 32},  4, 2, 4, 80, true},
    {M, EK::U8,   EK::U8,   EK::S32, {16, 8, 32},  4, 2, 4, 80, true},
    {M, EK::S4,   EK::S4,   EK::S32, {16, 8, 64},  4, 2, 4, 80, true},
    {M, EK::E4M3, EK::E4M3, EK::F32, {16, 8, 32},  4, 2, 4, 89, true},
    {M, EK::E5M2, EK::E5M2, EK::F32, {16, 8, 32},  4, 2, 4, 89, true},
    // Mixed fp8 (PTX ISA 8.4+, "mma" with .e4m3/.e5m2: .atype and .btype
    // are chosen independently).
    {M, EK::E4M3, EK::E5M2, EK::F32, {16, 8, 32},  4, 2, 4, 89, true},
    {M, EK::E5M2, EK::E4M3, EK::F32, {16, 8, 32},  4, 2, 4, 89, true},
    // wgmma.mma_async.sync.aligned.m64nNk16 (PTX ISA "Asynchronous
    // Warpgroup Level Matrix Multiply-Accumulate", sm_90a): a warpgroup of 4
    // warps computes 64 x N with A and B read from shared memory through
    // matrix descriptors, no operand registers. Per warp, the table holds
    // the 16 x 8 piece of the accumulator that the warp's registers carry
    // (rows 16w..16w+15 of the 64, the m16n8 layout of mma.sync) and k16.
    // The k of one wgmma is 32 bytes of every precision (k8 for tf32, k32
    // for 8-bit); f16 accumulators pack two to a register.
    {G, EK::F16,  EK::F16,  EK::F32, {16, 8, 16},  0, 0, 4, 90, true},
    {G, EK::F16,  EK::F16,  EK::F16, {16, 8, 16},  0, 0, 2, 90, true},
    {G, EK::BF16, EK::BF16, EK::F32, {16, 8, 16},  0, 0, 4, 90, true},
    {G, EK::TF32, EK::TF32, EK::F32, {16, 8, 8},   0, 0, 4, 90, true},
    {G, EK::S8,   EK::S8,   EK::S32, {16, 8, 32},  0, 0, 4, 90, true},
    {G, EK::U8,   EK::U8,   EK::S32, {16, 8, 32},  0, 0, 4, 90, true},
    {G, EK::E4M3, EK::E4M3, EK::F32, {16, 8, 32},  0, 0, 4, 90, true},
    {G, EK::E5M2, EK::E5M2, EK::F32, {16, 8, 32},  0, 0, 4, 90, true},
    {G, EK::E4M3, EK::E5M2, EK::F32, {16, 8, 32},  0, 0, 4, 90, true},
    {G, EK::E5M2, EK::E4M3, EK::F32, {16, 8, 32},  0, 0, 4, 90, true},
};

// CUDA C Programming Guide, "Technical Specifications per Compute
// Capability": maximum shared memory per block (opt-in). SMs: NVIDIA's
// A100, A10, L40S and H100/H200 SXM datasheets.
const ChipInfo kChips[] = {
    {"sm_80", 80, 163 * 1024, 1024, false, 108},
    {"sm_86", 86, 99 * 1024, 1024, false, 72},
    {"sm_89", 89, 99 * 1024, 1024, false, 142},
    {"sm_90", 90, 227 * 1024, 1024, false, 132},
    // sm_90 with the architecture-specific features (wgmma, setmaxnreg).
    {"sm_90a", 90, 227 * 1024, 1024, /*archSpecific=*/true, 132},
};
// clang-format on
} // namespace

llvm::ArrayRef<MmaFact> tgemm::getMmaFacts() { return kMmaFacts; }
llvm::ArrayRef<ChipInfo> tgemm::getChips() { return kChips; }

const MmaFact *tgemm::lookupMma(Family family, ElemKind a, ElemKind b,
                                ElemKind acc) {
  for (const MmaFact &f : kMmaFacts)
    if (f.family == family && f.a == a && f.b == b && f.acc == acc)
      return &f;
  return nullptr;
}

llvm::SmallVector<const MmaFact *, 2>
tgemm::lookupMmaAnyFamily(ElemKind a, ElemKind b, ElemKind acc) {
  llvm::SmallVector<const MmaFact *, 2> result;
  for (const MmaFact &f : kMmaFacts)
    if (f.a == a && f.b == b && f.acc == acc)
      result.push_back(&f);
  return result;
}

llvm::SmallVector<ElemKind, 2> tgemm::legalAccumulators(ElemKind a,
                                                        ElemKind b) {
  llvm::SmallVector<ElemKind, 2> result;
  for (const MmaFact &f : kMmaFacts)
    if (f.a == a && f.b == b && !llvm::is_contained(result, f.acc))
      result.push_back(f.acc);
  return result;
}

InstrShape tgemm::commonTile(llvm::ArrayRef<const MmaFact *> facts) {
  InstrShape tile{1, 1, 1};
  for (const MmaFact *f : facts) {
    tile.m = std::lcm(tile.m, f->shape.m);
    tile.n = std::lcm(tile.n, f->shape.n);
    tile.k = std::lcm(tile.k, f->shape.k);
  }
  return tile;
}

const ChipInfo *tgemm::lookupChip(llvm::StringRef name) {
  for (const ChipInfo &c : kChips)
    if (c.name == name)
      return &c;
  return nullptr;
}

std::optional<Family> tgemm::parseFamily(llvm::StringRef name) {
  if (name == "wmma")
    return Family::Wmma;
  if (name == "ptx" || name == "mma.sync")
    return Family::MmaSync;
  if (name == "wgmma")
    return Family::Wgmma;
  return std::nullopt;
}

llvm::StringRef tgemm::familyName(Family family) {
  switch (family) {
  case Family::Wmma:
    return "wmma";
  case Family::MmaSync:
    return "mma.sync";
  case Family::Wgmma:
    return "wgmma";
  }
  llvm_unreachable("unknown family");
}

llvm::StringRef tgemm::loweringName(Family family) {
  switch (family) {
  case Family::Wmma:
    return "wmma";
  case Family::MmaSync:
    return "ptx";
  case Family::Wgmma:
    return "wgmma";
  }
  llvm_unreachable("unknown family");
}

bool tgemm::needsArchSpecificChip(Family family) {
  return family == Family::Wgmma;
}

bool tgemm::isWgmmaN(const MmaFact &fact, int64_t n) {
  if (n < 8 || n > 256 || n % 8 != 0)
    return false;
  bool integer = fact.acc == ElemKind::S32;
  return !integer || n <= 24 || n % 16 == 0;
}

std::string tgemm::knownLoweringNames() { return "wmma, ptx or wgmma"; }

std::string tgemm::knownChipNames() {
  return llvm::join(llvm::map_range(kChips,
                                    [](const ChipInfo &c) { return c.name; }),
                    ", ");
}

//===----------------------------------------------------------------------===//
// Instruction atoms
//===----------------------------------------------------------------------===//

std::string tgemm::shapeName(const InstrShape &shape) {
  return "m" + std::to_string(shape.m) + "n" + std::to_string(shape.n) + "k" +
         std::to_string(shape.k);
}

static llvm::StringRef layoutName(bool rowMajor) {
  return rowMajor ? "row" : "col";
}

std::string tgemm::ptxMnemonic(const MmaFact &fact, bool rowA, bool rowB) {
  std::string d = ptxName(fact.acc).str(), c = d;
  std::string a = ptxName(fact.a).str(), b = ptxName(fact.b).str();
  if (fact.family == Family::MmaSync) {
    assert(rowA && !rowB && "mma.sync takes .row.col fragments only");
    return "mma.sync.aligned." + shapeName(fact.shape) + ".row.col." + d + "." +
           a + "." + b + "." + c;
  }
  assert((!fact.rowColOnly || (rowA && !rowB)) &&
         "this wmma takes .row.col fragments only");
  std::string types = fact.a == ElemKind::F16
                          ? d + "." + c
                          : d + "." + a + "." + b + "." + c;
  return "wmma.mma.sync.aligned." + layoutName(rowA).str() + "." +
         layoutName(rowB).str() + "." + shapeName(fact.shape) + "." + types;
}

std::string tgemm::ldmatrixMnemonic(int matrices, bool trans) {
  assert((matrices == 1 || matrices == 2 || matrices == 4) &&
         "ldmatrix loads 1, 2 or 4 matrices");
  return "ldmatrix.sync.aligned.m8n8.x" + std::to_string(matrices) +
         (trans ? ".trans" : "") + ".shared.b16";
}

static std::string wmmaIntrinsicPrefix(const MmaFact &fact) {
  assert(fact.family == Family::Wmma && "not a wmma fact");
  return "llvm.nvvm.wmma." + shapeName(fact.shape);
}

std::string tgemm::wmmaLoadIntrinsic(const MmaFact &fact, MmaOperand fragment,
                                     bool rowMajor) {
  llvm::StringRef name = fragment == MmaOperand::A   ? "a"
                         : fragment == MmaOperand::B ? "b"
                                                     : "c";
  ElemKind kind = fragment == MmaOperand::A   ? fact.a
                  : fragment == MmaOperand::B ? fact.b
                                              : fact.acc;
  return wmmaIntrinsicPrefix(fact) + ".load." + name.str() + "." +
         layoutName(rowMajor).str() + ".stride." + ptxName(kind).str();
}

std::string tgemm::wmmaMmaIntrinsic(const MmaFact &fact, bool rowA,
                                    bool rowB) {
  return wmmaIntrinsicPrefix(fact) + ".mma." + layoutName(rowA).str() + "." +
         layoutName(rowB).str() + "." + ptxName(fact.a).str();
}

std::string tgemm::wmmaStoreIntrinsic(const MmaFact &fact, bool rowMajor) {
  return wmmaIntrinsicPrefix(fact) + ".store.d." + layoutName(rowMajor).str() +
         ".stride." + ptxName(fact.acc).str();
}

int64_t FragmentLayout::numValues() const {
  int64_t n = 1;
  for (const LayoutMode &mode : valueModes)
    n *= mode.extent;
  return n;
}

static TileCoord evaluateModes(llvm::ArrayRef<LayoutMode> modes, int64_t x) {
  TileCoord at{0, 0};
  for (const LayoutMode &mode : modes) {
    int64_t index = x % mode.extent;
    x /= mode.extent;
    at.row += index * mode.rowStride;
    at.col += index * mode.colStride;
  }
  return at;
}

TileCoord FragmentLayout::laneCoord(int64_t lane) const {
  assert(lane >= 0 && lane < 32 && "not a lane");
  return evaluateModes(laneModes, lane);
}

TileCoord FragmentLayout::valueCoord(int64_t value) const {
  assert(value >= 0 && value < numValues() && "not a value of the fragment");
  return evaluateModes(valueModes, value);
}

namespace {
// PTX ISA, "Matrix Fragments for mma.m16n8k*", accumulators: lane =
// 4 * groupID + threadID_in_group; threadID_in_group steps 2 columns,
// groupID 1 row; value i % 2 steps 1 column, i / 2 steps 8 rows.
// {extent, row stride, column stride}
const LayoutMode kMmaSyncAccLanes[] = {{4, 0, 2}, {8, 1, 0}};
const LayoutMode kMmaSyncAccValues[] = {{2, 0, 1}, {2, 8, 0}};
const FragmentLayout kMmaSyncAccLayout{kMmaSyncAccLanes, kMmaSyncAccValues};

// The same sections, A and B, in 32-bit registers and bytes along k:
// threadID_in_group steps 4 bytes, groupID 1 row (of m for A, n for B).
// A's register i % 2 steps 8 rows and i / 2 16 bytes; B's register i steps
// 16 bytes.
const LayoutMode kMmaSyncOperandLanes[] = {{4, 0, 4}, {8, 1, 0}};
const LayoutMode kMmaSyncAValues[] = {{2, 8, 0}, {2, 0, 16}};
const LayoutMode kMmaSyncBValues[] = {{2, 0, 16}};
const FragmentLayout kMmaSyncALayout{kMmaSyncOperandLanes, kMmaSyncAValues};
const FragmentLayout kMmaSyncBLayout{kMmaSyncOperandLanes, kMmaSyncBValues};
} // namespace

const FragmentLayout &tgemm::accumulatorLayout(const MmaFact &fact) {
  assert(fact.family != Family::Wmma &&
         "wmma fragments are opaque: only wmma.store knows their layout");
  // Every mma.sync of the table is m16n8: the same accumulator layout. A
  // wgmma's accumulator is, per warp and 8 columns, the same (PTX ISA,
  // "Register Fragments and Shared Memory Matrix Layouts", wgmma D:
  // row 16 * warp + groupID (+ 8), columns 2 * threadID_in_group (+ 1)).
  assert(fact.shape.m == 16 && fact.shape.n == 8 && "no layout for this shape");
  return kMmaSyncAccLayout;
}

int64_t tgemm::accumulatorValuesPerRegister(const MmaFact &fact) {
  return 32 / bitWidth(fact.acc);
}

const FragmentLayout &tgemm::operandRegisterLayout(const MmaFact &fact,
                                                   MmaOperand operand) {
  assert(fact.family == Family::MmaSync &&
         "wmma fragments are opaque: only wmma.load knows their layout");
  assert(fact.shape.m == 16 && fact.shape.n == 8 &&
         fact.shape.k * bitWidth(fact.a) == 256 && "no layout for this shape");
  assert(operand != MmaOperand::Acc && "see accumulatorLayout");
  const FragmentLayout &layout =
      operand == MmaOperand::A ? kMmaSyncALayout : kMmaSyncBLayout;
  assert(layout.numValues() ==
             (operand == MmaOperand::A ? fact.regsA : fact.regsB) &&
         "a value per register");
  return layout;
}
