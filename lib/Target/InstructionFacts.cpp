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
};

// CUDA C Programming Guide, "Technical Specifications per Compute
// Capability": maximum shared memory per block (opt-in).
const ChipInfo kChips[] = {
    {"sm_80", 80, 163 * 1024, 1024},
    {"sm_86", 86, 99 * 1024, 1024},
    {"sm_89", 89, 99 * 1024, 1024},
    {"sm_90", 90, 227 * 1024, 1024},
    // sm_90 with the architecture-specific features (wgmma, setmaxnreg).
    {"sm_90a", 90, 227 * 1024, 1024},
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

bool tgemm::isLegalOutput(ElemKind acc, ElemKind c) {
  switch (acc) {
  case ElemKind::F32:
    return c == ElemKind::F32 || c == ElemKind::F16 || c == ElemKind::BF16;
  case ElemKind::F16:
    return c == ElemKind::F16 || c == ElemKind::F32;
  case ElemKind::S32:
    return c == ElemKind::S32;
  default:
    return false;
  }
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
  return std::nullopt;
}

int64_t tgemm::bitWidth(ElemKind kind) {
  switch (kind) {
  case ElemKind::F16:
  case ElemKind::BF16:
    return 16;
  case ElemKind::TF32:
  case ElemKind::F32:
  case ElemKind::S32:
    return 32;
  case ElemKind::S8:
  case ElemKind::U8:
  case ElemKind::E4M3:
  case ElemKind::E5M2:
    return 8;
  case ElemKind::S4:
    return 4;
  }
  llvm_unreachable("unknown element kind");
}

std::optional<ElemKind> tgemm::parseElemKind(llvm::StringRef name) {
  for (ElemKind kind :
       {ElemKind::F16, ElemKind::BF16, ElemKind::TF32, ElemKind::S8,
        ElemKind::U8, ElemKind::S4, ElemKind::E4M3, ElemKind::E5M2,
        ElemKind::F32, ElemKind::S32})
    if (ptxName(kind) == name)
      return kind;
  return std::nullopt;
}

llvm::StringRef tgemm::ptxName(ElemKind kind) {
  switch (kind) {
  case ElemKind::F16:
    return "f16";
  case ElemKind::BF16:
    return "bf16";
  case ElemKind::TF32:
    return "tf32";
  case ElemKind::S8:
    return "s8";
  case ElemKind::U8:
    return "u8";
  case ElemKind::S4:
    return "s4";
  case ElemKind::E4M3:
    return "e4m3";
  case ElemKind::E5M2:
    return "e5m2";
  case ElemKind::F32:
    return "f32";
  case ElemKind::S32:
    return "s32";
  }
  llvm_unreachable("unknown element kind");
}

llvm::StringRef tgemm::familyName(Family family) {
  return family == Family::Wmma ? "wmma" : "mma.sync";
}

llvm::StringRef tgemm::loweringName(Family family) {
  return family == Family::Wmma ? "wmma" : "ptx";
}

std::string tgemm::knownChipNames() {
  return llvm::join(llvm::map_range(kChips,
                                    [](const ChipInfo &c) { return c.name; }),
                    ", ");
}
