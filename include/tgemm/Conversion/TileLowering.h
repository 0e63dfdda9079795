//===- TileLowering.h - What every tile-op lowering shares -------*- C++ -*-===//
//
// Addressing of global operands and of shared-memory rings, and the
// placement of a kernel's rings in its dynamic shared memory. Each
// instruction-level lowering chooses a ring layout (padding, swizzle) and
// emits its own instructions, but computes addresses through these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_CONVERSION_TILELOWERING_H
#define TGEMM_CONVERSION_TILELOWERING_H

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tgemm {

/// How a ring's rows are placed against bank conflicts (the schedule's
/// `swizzle`).
using RingSwizzle = ::tgemm::Swizzle;

/// Where one `!tgemm.smem` ring lives: rows are `rowPitch` bytes apart
/// (the row's data plus padding), stages `stagePitch` bytes apart.
struct RingLayout {
  int64_t offset = 0;     // bytes from the start of dynamic shared memory
  int64_t rowBytes = 0;   // bytes of data per row
  int64_t rowPitch = 0;   // bytes from one row to the next
  int64_t stagePitch = 0; // bytes from one stage to the next
  int64_t elementBits = 0;
  RingSwizzle swizzle = RingSwizzle::None;

  int64_t sizeBytes(int64_t stages) const { return stages * stagePitch; }
  /// The row pitch in elements (the `ldm`/stride of matrix loads).
  int64_t pitchElements() const { return rowPitch * 8 / elementBits; }

  /// Byte offset, within a stage, of byte `byteCol` of row `row`.
  Value byteOffset(OpBuilder &b, Location loc, Value row, Value byteCol) const;
  /// Byte offset, within a stage, of the 16-byte chunk `chunk` of row `row`.
  Value chunkOffset(OpBuilder &b, Location loc, Value row, Value chunk) const;
};

/// The rings of one kernel and the lowering's scratch, placed by the
/// legality module's plan (`::tgemm::planRing`,
/// `::tgemm::epilogueScratchBytes`): what the target check compared with the
/// chip is what the lowering lays out.
struct KernelMemoryPlan {
  llvm::DenseMap<Operation *, RingLayout> rings; // keyed by tgemm.alloc_smem
  int64_t scratchOffset = 0;
  int64_t totalBytes = 0;

  /// Plans every `tgemm.alloc_smem` in `kernel`, in order, with the
  /// schedule's swizzle and padding, then the epilogue scratch of `fact`.
  static KernelMemoryPlan build(gpu::GPUFuncOp kernel,
                                const ::tgemm::MmaFact &fact,
                                const ::tgemm::Schedule &schedule,
                                int64_t warpTileN);
};

/// Spreads the 16-byte chunks of a `rows` x `chunksPerRow` tile over the
/// block's `threads` threads (thread `tid` takes chunks tid, tid + T, ...)
/// and calls `emit` for each with its row and chunk index. Where the last
/// round covers fewer chunks than there are threads, `emit` runs under a
/// guard and is told so.
void forEachTileChunk(
    OpBuilder &b, Location loc, int64_t rows, int64_t chunksPerRow,
    int64_t threads, Value tid,
    function_ref<void(OpBuilder &, Value row, Value chunk, bool guarded)> emit);

/// Calls `emit` at the insertion point, or, given a `predicate` (an i1),
/// inside an `scf.if` on it.
void emitWhere(OpBuilder &b, Location loc, Value predicate,
               function_ref<void(OpBuilder &)> emit);

/// The copy of `op`'s tile: `whole` for a tile known (`in_bounds`) or found
/// at run time (`isWholeAlignedTile`) to lie inside its operand with
/// 16-byte aligned rows, else `edge`; only where `predicate` (op's, or
/// null) holds. A predicated `in_bounds` copy that is `async` goes to
/// `whole` with the predicate, which it applies to each copy itself (no
/// branch in the k-loop); any other predicate branches around the copy and
/// `whole` gets a null one.
void emitTileCopy(OpBuilder &b, Location loc, CopyTileOp op, Value src,
                  Value row, Value col, Value predicate, bool async,
                  function_ref<void(OpBuilder &, Value predicate)> whole,
                  function_ref<void(OpBuilder &)> edge);

/// A synchronous global->shared tile copy: every thread loads its 16-byte
/// chunks (all loads of a round before its stores) and stores them where
/// `ring` places them in the stage at `stageBase`. The tile must lie inside
/// `src` with 16-byte aligned rows (see `isWholeAlignedTile`).
void emitSyncTileCopy(OpBuilder &b, Location loc, Value src, Value row,
                      Value col, Value stageBase, const RingLayout &ring,
                      int64_t tileRows, int64_t threads);

/// Calls `emit` with the global source and shared destination pointers of
/// each 16-byte chunk a thread copies of a tile that lies inside `src` with
/// 16-byte aligned rows (the asynchronous copies of both lowerings). Where
/// every round of chunks covers whole rows, a thread's chunks are one column
/// and rows `threads / chunksPerRow` apart: its sources are then one pointer
/// stepped by a fixed number of bytes, which keeps one 64-bit address per
/// copy out of a k-loop's registers.
void forEachWholeTileChunk(
    OpBuilder &b, Location loc, Value src, Value row, Value col,
    Value stageBase, const RingLayout &ring, int64_t tileRows,
    int64_t threads,
    function_ref<void(OpBuilder &, Value from, Value to)> emit);

/// Whether every row of the rank-2 memref `src` starts on a `bytes`-byte
/// boundary (aligned base, offset and row stride). An i1, uniform.
Value hasAlignedRows(OpBuilder &b, Location loc, Value src,
                     int64_t bytes = 16);

/// Whether the `rows` x `cols` tile at (row, col) of the rank-2 memref `src`
/// lies wholly inside it and every row of it starts on a 16-byte boundary:
/// then 16-byte vector accesses need no guard. An i1, the same for every
/// thread of the block.
Value isWholeAlignedTile(OpBuilder &b, Location loc, Value src, Value row,
                         Value col, int64_t rows, int64_t cols);

/// The copy of a tile that may cross `src`'s edges or have unaligned rows:
/// a 16-byte chunk wholly inside an aligned `src` is loaded whole; any other
/// is loaded element by element under a mask, elements outside `src`
/// reading as zero; the chunk is stored to shared memory whole. Elements of sub-byte types are loaded in whole bytes (rows of
/// such operands must start on byte boundaries).
void emitGuardedTileCopy(OpBuilder &b, Location loc, Value src, Value row,
                         Value col, Value stageBase, const RingLayout &ring,
                         int64_t tileRows, int64_t threads);

int64_t getElementBits(Type type);

/// The kernel's dynamic shared memory as an `!llvm.ptr<3>`.
Value getDynamicSharedMemory(OpBuilder &b, Location loc,
                             gpu::GPUModuleOp module);

/// `base + byteOffset` for a shared-memory pointer; `byteOffset` is index.
Value offsetSharedPointer(OpBuilder &b, Location loc, Value base,
                          Value byteOffset);

/// Address of element (row, col) of a rank-2 memref in global memory, as an
/// `!llvm.ptr<1>`. Works for sub-byte element types: `col` must then be a
/// whole number of bytes into the row.
Value getGlobalElementPointer(OpBuilder &b, Location loc, Value memref,
                              Value row, Value col);

/// The threads per block of the kernel (its `known_block_size`).
int64_t getThreadsPerBlock(gpu::GPUFuncOp kernel);

/// Fragments of a lowered kernel: for each instruction k-step of the
/// type's depth, the A registers of every m-tile, then the B registers of
/// every n-tile, as an `!llvm.array` of i32.
Type getFragmentArrayType(FragsType type, const ::tgemm::MmaFact &fact);

/// The accumulator of a lowered kernel: an `!llvm.array` of the fragment
/// registers of every (m x n) instruction tile of the warp's tile, in
/// row-major fragment order.
Type getAccumulatorArrayType(AccumulatorType type, const ::tgemm::MmaFact &fact,
                             Type reg);
SmallVector<Value> unpackAccumulator(OpBuilder &b, Location loc, Value acc);
Value packAccumulator(OpBuilder &b, Location loc, Type type,
                      ArrayRef<Value> regs);

/// The warp-level multiply of a kernel and the instruction that computes it.
struct KernelInstruction {
  MmaTileOp mma;                            // null: nothing to lower
  const ::tgemm::MmaFact *fact = nullptr;
  int64_t threads = 0;                      // threads per block
  ::tgemm::Schedule schedule;               // the kernel's tgemm.schedule
  KernelMemoryPlan plan;
};

/// Whether `family`'s lowering owns `kernel`: its `tgemm.target` names the
/// family, or it has none (a kernel-level test).
bool isLoweredBy(gpu::GPUFuncOp kernel, ::tgemm::Family family);

/// Finds `kernel`'s `tgemm.mma_tile` and asks the legality module, with a
/// diagnostic at the op, whether `family` can lower it: an instruction for
/// its types and layouts on the target chip, a warp tile of whole
/// instructions, a block of whole warps, a schedule (the kernel's
/// `tgemm.schedule`, else the family's default) the family has, and a
/// shared-memory plan that fits the chip.
FailureOr<KernelInstruction> selectInstruction(gpu::GPUFuncOp kernel,
                                               ::tgemm::Family family);

/// Runs one instruction-level lowering over `kernel`: tile rings become
/// shared-memory pointers, accumulators register arrays (`reg` registers of
/// `fact`), the k-loop carries them, and `addPatterns` supplies the
/// lowering's own patterns. Then every launch of the kernel records
/// `lowering` and the plan's shared memory.
LogicalResult
lowerTileOps(ModuleOp module, gpu::GPUFuncOp kernel,
             const KernelMemoryPlan &plan, const ::tgemm::MmaFact &fact,
             Type reg, StringRef lowering,
             function_ref<void(RewritePatternSet &, const TypeConverter &)>
                 addPatterns);

/// Patterns every lowering shares: `tgemm.alloc_smem` becomes a pointer to
/// its ring in the plan, `tgemm.zero_acc` a zero of the converted type.
void populateRingPatterns(RewritePatternSet &patterns,
                          const TypeConverter &converter,
                          const KernelMemoryPlan &plan,
                          gpu::GPUModuleOp module);

/// Pointer to byte `offset` of the plan's scratch.
Value getScratchPointer(OpBuilder &b, Location loc,
                        const KernelMemoryPlan &plan, gpu::GPUModuleOp module,
                        Value offset);

/// The epilogue for one vector of accumulator values, the row-contiguous
/// elements (row, col ...) of the rank-2 memref `dst`: they get
/// `alpha * acc + beta * dst` in C's element type (`dst` is read only when
/// beta is not 0). Floating accumulators are scaled in f32, integer ones in
/// i32. Where `whole` (an i1) holds, one aligned vector store; elsewhere
/// element by element, skipping elements outside `dst`.
void storeEpilogueVector(OpBuilder &b, Location loc, Value acc, Value dst,
                         Value row, Value col, double alpha, double beta,
                         int64_t alignment, Value whole);

} // namespace mlir::tgemm

#endif // TGEMM_CONVERSION_TILELOWERING_H
