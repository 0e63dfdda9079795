//===- InstructionFacts.h - Tensor-core instruction facts -------*- C++ -*-===//
//
// The one table of facts about the tensor-core instructions tgemm can emit:
// per instruction family, the shape for each precision, the operand types,
// the per-thread fragment register counts and the first chip that has it.
// The dialect verifier, the target checks and every lowering read this table;
// nothing else in the project restates these numbers.
//
// Sources: PTX ISA 8.x, sections "Warp-level Matrix Multiply-Accumulate
// Instructions" (wmma) and "Matrix multiply-accumulate operation using mma
// instruction" (mma.sync); CUDA C Programming Guide, "Compute Capabilities"
// (shared memory per block).
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TARGET_INSTRUCTIONFACTS_H
#define TGEMM_TARGET_INSTRUCTIONFACTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tgemm {

/// Element kinds as the tensor cores see them. An `f32` A/B operand is
/// computed as TF32; a signless `i8`/`i4` operand is signed.
enum class ElemKind { F16, BF16, TF32, S8, U8, S4, E4M3, E5M2, F32, S32 };

/// The instruction families tgemm lowers to.
enum class Family { Wmma, MmaSync };

struct InstrShape {
  int64_t m, n, k;
};

/// One warp-level matrix instruction for one precision.
struct MmaFact {
  Family family;
  ElemKind a, b, acc;
  InstrShape shape;
  /// 32-bit registers per thread holding the A, B and accumulator fragments.
  int regsA, regsB, regsAcc;
  /// First SM version (e.g. 80 for sm_80) that has the instruction.
  int minSm;
  /// The instruction only takes A row-major and B column-major fragments
  /// (wmma's sub-byte shapes; every mma.sync).
  bool rowColOnly;
};

/// A GPU that tgemm compiles for.
struct ChipInfo {
  llvm::StringRef name; // "sm_90"
  int sm;               // 90
  /// Largest dynamic shared memory one block may opt into, in bytes.
  int64_t maxSharedBytesPerBlock;
  int64_t maxThreadsPerBlock;
};

llvm::ArrayRef<MmaFact> getMmaFacts();
llvm::ArrayRef<ChipInfo> getChips();

/// The fact for `family` computing `a` x `b` into `acc`, or null.
const MmaFact *lookupMma(Family family, ElemKind a, ElemKind b, ElemKind acc);
/// Every fact (any family) computing `a` x `b` into `acc`.
llvm::SmallVector<const MmaFact *, 2> lookupMmaAnyFamily(ElemKind a, ElemKind b,
                                                          ElemKind acc);
/// The accumulator kinds some instruction offers for `a` x `b`.
llvm::SmallVector<ElemKind, 2> legalAccumulators(ElemKind a, ElemKind b);

/// The tile every listed instruction can cover: the per-dimension least
/// common multiple of their shapes.
InstrShape commonTile(llvm::ArrayRef<const MmaFact *> facts);

/// Whether the epilogue converts an `acc` accumulator into a `c` output.
bool isLegalOutput(ElemKind acc, ElemKind c);

const ChipInfo *lookupChip(llvm::StringRef name);
std::optional<Family> parseFamily(llvm::StringRef name);

int64_t bitWidth(ElemKind kind);
/// The name PTX uses for the kind (`f16`, `tf32`, `s8`, `e4m3`, ...).
llvm::StringRef ptxName(ElemKind kind);
/// The element kind `ptxName` spells `name` (`f16`, `tf32`, `s8`, ...), as
/// manifests and tuning databases write it.
std::optional<ElemKind> parseElemKind(llvm::StringRef name);
/// The user-facing name of a family (`wmma`, `mma.sync`).
llvm::StringRef familyName(Family family);
/// The lowering that uses a family (`wmma`, `ptx`).
llvm::StringRef loweringName(Family family);
/// "sm_80, sm_86, ..." for diagnostics.
std::string knownChipNames();

} // namespace tgemm

#endif // TGEMM_TARGET_INSTRUCTIONFACTS_H
