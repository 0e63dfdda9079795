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

#include "tgemm/runtime/ElementType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tgemm {

/// Element kinds as the tensor cores see them: the runtime's vocabulary
/// (runtime/include/tgemm/runtime/ElementTypes.def), one table for the
/// compiler, the runtime and Python. An `f32` A/B operand is computed as
/// TF32; a signless `i8`/`i4` operand is signed.
using ElemKind = ::tgemm::runtime::ElementType;

/// The instruction families tgemm lowers to.
enum class Family { Wmma, MmaSync, Wgmma };

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
  /// The "a" target: the chip's architecture-specific instructions (wgmma,
  /// setmaxnreg), in PTX that runs on that chip only.
  bool archSpecific = false;
  /// SMs of the chip's data-center part (A100 108, A10 72, L40S 142,
  /// H100/H200 SXM 132): how many blocks a grid needs to fill it, for the
  /// choice of split K (`tgemm-select-config`).
  int64_t sms = 0;
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

/// Whether the store converts an `acc` accumulator into a `c` output: the
/// runtime's rule (tgemm/runtime/ElementType.h), which the manifest reader
/// applies too.
using ::tgemm::runtime::isLegalOutput;

const ChipInfo *lookupChip(llvm::StringRef name);
std::optional<Family> parseFamily(llvm::StringRef name);

inline int64_t bitWidth(ElemKind kind) {
  return ::tgemm::runtime::elementBits(kind);
}
/// The name PTX uses for the kind (`f16`, `tf32`, `s8`, `e4m3`, ...), which
/// is also the manifest's.
inline llvm::StringRef ptxName(ElemKind kind) {
  return ::tgemm::runtime::elementTypeName(kind);
}
/// How MLIR spells the kind (`f32` for TF32, `i8` for S8, ...), so that
/// messages speak the IR's language.
inline llvm::StringRef irSpelling(ElemKind kind) {
  return ::tgemm::runtime::mlirTypeName(kind);
}
/// The element kind `ptxName` spells `name` (`f16`, `tf32`, `s8`, ...), as
/// manifests and tuning databases write it.
inline std::optional<ElemKind> parseElemKind(llvm::StringRef name) {
  return ::tgemm::runtime::parseElementType(std::string_view(name));
}
/// Whether wgmma has the shape m64nNk for the fact's precision (PTX ISA,
/// "Asynchronous Warpgroup Level Matrix Shape"): N a multiple of 8 up to
/// 256, except for the integer forms (.s8, .u8), whose N past 24 steps by
/// 16 (8, 16, 24, 32, 48, ..., 256).
bool isWgmmaN(const MmaFact &fact, int64_t n);

/// The user-facing name of a family (`wmma`, `mma.sync`).
llvm::StringRef familyName(Family family);
/// The lowering that uses a family (`wmma`, `ptx`).
llvm::StringRef loweringName(Family family);
/// Whether the family's instructions exist only on an arch-specific target
/// (wgmma: sm_90a, PTX ISA "Target ISA notes").
bool needsArchSpecificChip(Family family);
/// "wmma, ptx or wgmma", for messages.
std::string knownLoweringNames();
/// "sm_80, sm_86, ..." for diagnostics.
std::string knownChipNames();

//===----------------------------------------------------------------------===//
// Instruction atoms: how each instruction is spelled and which lane holds
// which element of its fragments. The lowerings emit these strings and
// index the fragments by these layouts; they do not restate them.
//===----------------------------------------------------------------------===//

/// The shape qualifier without its dot: `m16n8k16`.
std::string shapeName(const InstrShape &shape);

/// The PTX mnemonic of the fact's multiply-accumulate with every
/// qualifier, as the PTX ISA spells it:
///  - mma.sync (section "Matrix multiply-accumulate operation using mma
///    instruction", "mma"): `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`
///    (shape, .row.col, then d, a, b and c types); the layouts are always
///    .row.col and `rowA`/`rowB` must say so.
///  - wmma (section "wmma.mma"): `wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32`
///    for f16 (d and c types), `...m16n16k16.f32.bf16.bf16.f32` for the
///    others (d, a, b, c types).
std::string ptxMnemonic(const MmaFact &fact, bool rowA = true,
                        bool rowB = false);

/// `ldmatrix.sync.aligned.m8n8.x<matrices>[.trans].shared.b16` (PTX ISA
/// section "ldmatrix"): `matrices` (1, 2 or 4) 8x8 matrices of 16-bit
/// elements, one 32-bit register of each per lane.
std::string ldmatrixMnemonic(int matrices, bool trans);

/// The operands of a multiply-accumulate, as fragments.
enum class MmaOperand { A, B, Acc };

/// The LLVM NVVM intrinsics of a wmma fact, for the precisions the NVVM
/// dialect has no op for (the PTX ISA's wmma.load / wmma.mma / wmma.store
/// with an explicit stride):
///   `llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16`,
///   `llvm.nvvm.wmma.m16n16k16.mma.row.col.bf16`,
///   `llvm.nvvm.wmma.m8n8k32.store.d.row.stride.s32`.
/// Loads and stores are suffixed with the fragment's element type (A/B's or
/// the accumulator's; an accumulator loads as `c`), the mma with A's.
std::string wmmaLoadIntrinsic(const MmaFact &fact, MmaOperand fragment,
                              bool rowMajor);
std::string wmmaMmaIntrinsic(const MmaFact &fact, bool rowA, bool rowB);
std::string wmmaStoreIntrinsic(const MmaFact &fact, bool rowMajor);

/// A position in an instruction tile (m x n for the accumulator).
struct TileCoord {
  int64_t row, col;
  bool operator==(const TileCoord &o) const {
    return row == o.row && col == o.col;
  }
};

/// One mode of a thread-value layout (CuTe's (shape, stride) pairs): the
/// mode's index is (x / product of the extents of the modes before it) %
/// extent, for x the lane or the value index; it moves `rowStride` rows and
/// `colStride` columns.
struct LayoutMode {
  int64_t extent, rowStride, colStride;
};

/// Which lane holds which element of a fragment: element (row, col) of the
/// instruction tile that value `v` of lane `lane` holds is
/// laneCoord(lane) + valueCoord(v), each the sum of its modes. Values are
/// elements, in register order: a register of `32 / bits` elements holds
/// consecutive values, low half first.
struct FragmentLayout {
  llvm::ArrayRef<LayoutMode> laneModes;  // fastest first; extents make 32
  llvm::ArrayRef<LayoutMode> valueModes; // fastest first

  int64_t numValues() const;
  TileCoord laneCoord(int64_t lane) const;
  TileCoord valueCoord(int64_t value) const;
  TileCoord operator()(int64_t lane, int64_t value) const {
    TileCoord l = laneCoord(lane), v = valueCoord(value);
    return {l.row + v.row, l.col + v.col};
  }
};

/// The accumulator (C and D) layout of a mma.sync fact, PTX ISA sections
/// "Matrix Fragments for mma.m16n8k8" (.tf32), "... mma.m16n8k16 with
/// floating point type" (.f16, .bf16) and "... mma.m16n8k32" / "...
/// mma.m16n8k64" (.s8, .u8, .e4m3, .e5m2, .s4): with groupID = lane / 4 and
/// threadID_in_group = lane % 4, element i of the four is
///   row = groupID + 8 * (i / 2), col = 2 * threadID_in_group + i % 2
/// for every accumulator type (f32, s32, and f16 packed two to a register).
const FragmentLayout &accumulatorLayout(const MmaFact &fact);

/// Accumulator elements per 32-bit register: 2 for packed f16, else 1.
int64_t accumulatorValuesPerRegister(const MmaFact &fact);

/// The A or B fragment layout of a mma.sync fact in 32-bit registers, the
/// same for every precision since each k-step is 32 bytes deep: value i is
/// register i, rows are A's m (B's n) within the instruction tile, columns
/// the byte along k of the register's first element (its others follow
/// along k). From the same PTX ISA sections as accumulatorLayout, with
/// groupID = lane / 4 and threadID_in_group = lane % 4:
///   A: row = groupID + 8 * (i % 2), byte = 4 * threadID_in_group + 16 * (i / 2)
///   B: row = groupID,               byte = 4 * threadID_in_group + 16 * i
/// A and B have the same lane modes. (The accumulator's, in elements, is
/// accumulatorLayout.)
const FragmentLayout &operandRegisterLayout(const MmaFact &fact,
                                            MmaOperand operand);

} // namespace tgemm

#endif // TGEMM_TARGET_INSTRUCTIONFACTS_H
