//===- TileLowering.h - What every tile-op lowering shares -------*- C++ -*-===//
//
// Addressing of global operands and of shared-memory rings, the placement
// of a kernel's rings in its dynamic shared memory, and the patterns every
// instruction-level lowering shares. Each lowering chooses a ring layout
// (padding, swizzle) and emits its own instructions through the hooks of
// KernelLowering, MmaStepper and EpilogueStaging, but computes addresses
// and walks tiles, k-steps and epilogues through this library.
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

// The instruction facts every lowering is written against.
using ::tgemm::ElemKind;
using ::tgemm::MmaFact;

/// How a ring's rows are placed against bank conflicts (the schedule's
/// `swizzle`).
using RingSwizzle = ::tgemm::Swizzle;

/// Where one `!tgemm.smem` ring lives: rows are `rowPitch` bytes apart
/// (the row's data plus padding), stages `stagePitch` bytes apart. A
/// paneled ring (`panelPitch` > 0) holds rows wider than `rowPitch` as
/// panels of `rowPitch` bytes, each panel of every row of a stage in one
/// block, `panelPitch` bytes apart.
struct RingLayout {
  int64_t offset = 0;     // bytes from the start of dynamic shared memory
  int64_t rowBytes = 0;   // bytes of data per row
  int64_t rowPitch = 0;   // bytes from one row to the next
  int64_t stagePitch = 0; // bytes from one stage to the next
  int64_t panelPitch = 0; // bytes from one panel to the next (0: none)
  int64_t elementBits = 0;
  RingSwizzle swizzle = RingSwizzle::None;
  /// The XOR key of a row of 128 bytes or more is `row % 8`, except in the
  /// ring of a byte-permuted operand (::tgemm::OperandPath::BytePermute),
  /// whose ldmatrix reads k-rows {0, 1, 4, 5, 8, 9, 12, 13} (and those 2
  /// further) at once: there it is `(row & 1) | ((row >> 1) & 6)`, 8
  /// distinct keys for either set, so the 8 rows hit 8 different bank
  /// groups.
  bool pairedRowKey = false;

  int64_t sizeBytes(int64_t stages) const { return stages * stagePitch; }
  /// The row pitch in elements (the `ldm`/stride of matrix loads).
  int64_t pitchElements() const { return rowPitch * 8 / elementBits; }

  /// Byte offset, within a stage, of byte `byteCol` of row `row`.
  Value byteOffset(OpBuilder &b, Location loc, Value row, Value byteCol) const;
  /// Byte offset, within a stage, of the 16-byte chunk `chunk` of row `row`.
  Value chunkOffset(OpBuilder &b, Location loc, Value row, Value chunk) const;
  /// Pointer to stage `stage` of the ring whose first stage is at `base`.
  Value stagePointer(OpBuilder &b, Location loc, Value base, Value stage) const;
};

/// The rings of one kernel and the lowering's scratch, placed by the
/// legality module's plan (`::tgemm::planRing`,
/// `::tgemm::epilogueScratch`): what the target check compared with the
/// chip is what the lowering lays out.
struct KernelMemoryPlan {
  llvm::DenseMap<Operation *, RingLayout> rings; // keyed by tgemm.alloc_smem
  /// Byte offsets of the barrier rings, keyed by tgemm.alloc_barriers.
  llvm::DenseMap<Operation *, int64_t> barriers;
  int64_t scratchOffset = 0;
  int64_t totalBytes = 0;
  /// The columns of a warp's slab (::tgemm::EpilogueScratch).
  int64_t slabColumns = 0;
  /// Each warp's store boxes with tma_store (::tgemm::EpilogueScratch).
  int64_t storeBuffers = 0;
  /// Of the rings and of the dynamic shared memory itself.
  int64_t alignment = ::tgemm::kRingAlignment;

  /// Plans every `tgemm.alloc_smem` in `kernel`, in order, with the
  /// schedule's swizzle and padding, then its `tgemm.alloc_barriers`, then
  /// the epilogue scratch of `fact` for `warps` storing warps.
  static KernelMemoryPlan build(gpu::GPUFuncOp kernel,
                                const ::tgemm::MmaFact &fact,
                                const ::tgemm::Schedule &schedule,
                                int64_t warps, int64_t warpTileN);
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

/// forEachTileChunk as one loop over the rounds (an scf.for) instead of
/// one copy of `emit` per round: for a producer's copies at an operand's
/// edge, whose code per chunk is long. Each round's values then live for
/// that round only, where the unrolled rounds' loop-invariant parts would
/// all be hoisted out of the producer's k-loop and held across it (ptxas
/// allocates the whole kernel at the consumers' register budget).
void forEachTileChunkRolled(
    OpBuilder &b, Location loc, int64_t rows, int64_t chunksPerRow,
    int64_t threads, Value tid,
    function_ref<void(OpBuilder &, Value row, Value chunk, bool guarded)> emit);

/// Calls `emit` at the insertion point, or, given a `predicate` (an i1),
/// inside an `scf.if` on it.
void emitWhere(OpBuilder &b, Location loc, Value predicate,
               function_ref<void(OpBuilder &)> emit);

/// One tile copy of a thread block: `rows` rows from (row, col) of the
/// rank-2 memref `src` into the stage of `ring` at `stageBase`, spread over
/// the block's `threads` threads.
struct TileCopy {
  Value src, row, col;
  Value stageBase;
  const RingLayout &ring;
  int64_t rows;
  int64_t threads;
  /// The first of the `threads` consecutive threads that copy (the
  /// producer warpgroup of a warp-specialized kernel; else 0).
  int64_t firstThread = 0;
  /// Whether the copying threads do nothing else (a warp-specialized
  /// producer): then the long code of a copy at an operand's edge is one
  /// loop over the rounds of chunks (forEachTileChunkRolled), where in a
  /// block whose threads also multiply the rounds stay unrolled, to
  /// overlap with the multiplies around them.
  bool producer = false;

  /// The calling thread's index among those that copy.
  Value threadIndex(OpBuilder &b, Location loc) const;
};

/// The chunks of an edge copy: rolled for a producer, else unrolled.
void forEachEdgeChunk(
    OpBuilder &b, Location loc, const TileCopy &copy, Value tid,
    function_ref<void(OpBuilder &, Value row, Value chunk, bool guarded)> emit);

/// A synchronous global->shared tile copy: every thread loads its 16-byte
/// chunks (all loads of a round before its stores) and stores them where
/// the ring places them. The tile must lie inside its source with 16-byte
/// aligned rows (see `isWholeAlignedTile`).
void emitSyncTileCopy(OpBuilder &b, Location loc, const TileCopy &copy);

/// A synchronous copy of a tile stored transposed in its source
/// (`tgemm.copy_tile ... transpose`): each thread loads blocks of 4 source
/// rows x 16 bytes (4 ring columns of 16 / bytes ring rows), regroups them
/// in registers (prmt for 8-bit elements, moves for 32-bit ones) and
/// stores each ring row's 4 elements where the ring places them. A warp's
/// 32 threads take consecutive blocks along the ring's row, so their
/// stores fall in distinct banks. `whole`: the tile lies inside its source
/// with 16-byte aligned rows; else every element is guarded, those outside
/// reading as zeros.
void emitTransposedTileCopy(OpBuilder &b, Location loc, const TileCopy &copy,
                            bool whole);

/// Calls `emit` with the global source and shared destination pointers of
/// each 16-byte chunk a thread copies of a tile that lies inside its source
/// with 16-byte aligned rows (the asynchronous copies of both lowerings).
/// Where every round of chunks covers whole rows, a thread's chunks are one
/// column and rows `threads / chunksPerRow` apart: its sources are then one
/// pointer stepped by a fixed number of bytes, which keeps one 64-bit
/// address per copy out of a k-loop's registers.
void forEachWholeTileChunk(
    OpBuilder &b, Location loc, const TileCopy &copy,
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

/// The copy of a tile that may cross its source's edges or have unaligned
/// rows: a 16-byte chunk wholly inside an aligned source is loaded whole;
/// any other is loaded element by element under a mask, elements outside
/// the source reading as zero; the chunk is stored to shared memory whole.
/// Elements of sub-byte types are loaded in whole bytes (rows of such
/// operands must start on byte boundaries).
void emitGuardedTileCopy(OpBuilder &b, Location loc, const TileCopy &copy);

int64_t getElementBits(Type type);

/// The bytes of `elements` elements of `bits` bits each; sub-byte elements
/// are packed.
Value getElementBytes(OpBuilder &b, Location loc, Value elements, int64_t bits);

/// The kernel's dynamic shared memory as an `!llvm.ptr<3>`, declared
/// aligned to at least `alignment` bytes.
Value getDynamicSharedMemory(OpBuilder &b, Location loc,
                             gpu::GPUModuleOp module,
                             int64_t alignment = ::tgemm::kRingAlignment);

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

/// The named barrier (bar.sync id) the storing threads of a kernel meet
/// on when not all of the block stores; 0 is the block-wide one.
constexpr int64_t kStoreBarrier = 1;

/// A warp's accumulator as instruction tiles: `fragsM` x `fragsN` fragments
/// of `regs` registers each, in the order of getAccumulatorArrayType.
struct AccumulatorFragments {
  AccumulatorFragments(AccumulatorType type, const MmaFact &fact);

  /// The registers of fragment (fm, fn) among the accumulator's `regs`
  /// (an ArrayRef or a MutableArrayRef).
  template <typename Registers>
  Registers fragment(Registers acc, int64_t fm, int64_t fn) const {
    return acc.slice((fm * fragsN + fn) * regs, regs);
  }

  int64_t fragsM, fragsN, regs;
};

/// One instruction k-step's fragments of a warp: the registers of the A
/// fragment of each m-tile and of the B fragment of each n-tile.
struct FragmentStep {
  SmallVector<SmallVector<Value>> a, b;
};

/// How a family multiplies one mma_tile: the shared pattern asks it for
/// the fragments of each instruction k-step and for one instruction per
/// accumulator fragment.
class MmaStepper {
public:
  MmaStepper(OpBuilder &b, Location loc, MmaTileOp op, const MmaFact &fact,
             bool prefetch, bool serpentine)
      : b(b), loc(loc), frags(op.getAcc().getType(), fact), prefetch(prefetch),
        serpentine(serpentine) {}
  virtual ~MmaStepper();

  /// The fragments of instruction k-step `ks`.
  virtual FragmentStep load(int64_t ks) = 0;
  /// The registers of a * b + c, one instruction.
  virtual SmallVector<Value> mma(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                 ArrayRef<Value> c) = 0;

  OpBuilder &b;
  Location loc;
  AccumulatorFragments frags;
  /// Step ks + 1 is loaded before the mma of step ks, so that shared-memory
  /// latency hides behind tensor-core work.
  bool prefetch;
  /// Odd m-tiles go through n backwards, which keeps one B fragment live
  /// across rows.
  bool serpentine;
};

/// How a family's epilogue stages a warp's accumulator through the warp's
/// scratch in shared memory, so that C gets vector stores of row-contiguous
/// elements. The accumulator goes piece by piece; the warp syncs after each
/// write (lanes read what others wrote) and after each read-back (the next
/// piece overwrites the scratch).
class EpilogueStaging {
public:
  EpilogueStaging(Location loc, StoreTileOp op, StoreTileOp::Adaptor adaptor,
                  const MmaFact &fact);
  virtual ~EpilogueStaging();

  /// How many pieces the accumulator goes in.
  virtual int64_t getNumPieces() const = 0;
  /// The alignment, in bytes, of the vector stores to C where they are
  /// whole.
  virtual int64_t getAlignment() const = 0;
  /// Writes piece `piece` of the accumulator registers `acc` to the scratch.
  virtual void write(OpBuilder &b, int64_t piece,
                     ArrayRef<Value> acc) const = 0;
  /// Reads piece `piece` back and calls `store` with each vector of
  /// accumulator values and the position in C of its first element.
  virtual void
  readBack(OpBuilder &b, int64_t piece,
           function_ref<void(OpBuilder &, Value vector, Value row, Value col)>
               store) const = 0;

protected:
  Location loc;
  AccumulatorFragments frags;
  Type accElement;        // of the accumulator
  Value tileRow, tileCol; // where the warp's tile lies in C
};

class LaneCoords;
class KernelLowering;

/// The staged epilogue of the families whose warp accumulator has the
/// m16n8 layout of the facts table (mma.sync; wgmma, per warp), in
/// registers of type `accReg`: over the dead rings, each warp writes 16
/// rows of its accumulator at a time to its slab (rows padded by 16 bytes),
/// then its lanes read back 16-byte vectors of C's worth of elements.
/// Where the fragments of a warp's accumulator sit in its tile. In the
/// instruction's own order, fragment (fm, fn) covers rows 16 fm .. + 15 and
/// columns 8 fn .. + 7. A byte-permuted A (::tgemm::OperandPath) leaves row
/// r of each fragment at tile row 2 (r % 8) + r / 8 of its 16; a
/// byte-permuted B leaves column c of fragments 2p and 2p + 1 at tile
/// columns 16 p + 2 c and 16 p + 2 c + 1.
struct FragmentOrder {
  bool interleavedRows = false;
  bool interleavedCols = false;
};

class SlabStaging : public EpilogueStaging {
public:
  SlabStaging(OpBuilder &b, Location loc, const KernelLowering &lowering,
              StoreTileOp op, StoreTileOp::Adaptor adaptor, Type accReg,
              FragmentOrder order = {});
  ~SlabStaging() override;

  /// Piece (fm, g) is m-fragment fm's 16 rows, the g-th slab of columns.
  int64_t getNumPieces() const override { return frags.fragsM * slabGroups; }
  int64_t getAlignment() const override { return 16; }
  void write(OpBuilder &b, int64_t piece, ArrayRef<Value> acc) const override;
  void readBack(OpBuilder &b, int64_t piece,
                function_ref<void(OpBuilder &, Value, Value, Value)> store)
      const override;

private:
  const KernelLowering &lowering;
  Type accReg;
  FragmentOrder order;
  const ::tgemm::FragmentLayout &accLayout;
  int64_t accBytes, slabCols, slabGroups, slabPitch, perVector, vectorsPerRow;
  Value lane, slab;
  std::unique_ptr<LaneCoords> accLane; // the lane's part of accLayout
};

/// A step of a fused epilogue as the lowering applies it: what it does
/// and, for bias, scale and residual, the kernel's memref it reads (a
/// vector, or a matrix indexed like `dst`).
struct FusedStep {
  ::tgemm::runtime::EpilogueOp op;
  ::tgemm::runtime::Broadcast broadcast;
  Value operand;
};

/// What a store does to each element: alpha, beta, then the steps
/// (runtime/Epilogue.h defines them), then C's type.
struct EpilogueSpec {
  double alpha = 1.0, beta = 0.0;
  SmallVector<FusedStep> steps;

  /// The steps of `epilogue` (null: none) with the operands they read.
  static EpilogueSpec get(double alpha, double beta, ArrayAttr epilogue,
                          ValueRange operands);
};

/// The bulk store's side of the epilogue (`via`, tma_store) for the
/// families whose warp accumulator has the m16n8 layout: each warp writes
/// its tile box by box (16 rows by one 128-byte line of C's elements, with
/// the 128-byte swizzle the tensor map gives C's box: chunk c of row r at
/// chunk c ^ (r % 8)) to its buffers in the scratch, after the epilogue's
/// arithmetic; the family's lowering stores each box with its copy engine.
/// Construction waits for the copies and, where the buffers lie over the
/// rings, for every storing warp to be past its multiplies.
class BoxStaging {
public:
  BoxStaging(OpBuilder &b, Location loc, const KernelLowering &lowering,
             StoreTileOp op, StoreTileOp::Adaptor adaptor, Type accReg);
  ~BoxStaging();

  /// Box (fm, g) is m-fragment fm's 16 rows, the g-th line of columns.
  int64_t getNumBoxes() const { return frags.fragsM * boxesPerRow; }
  /// The warp's buffers (each box goes to buffer box % count).
  int64_t getNumBuffers() const { return buffers; }
  /// The thread's index (%tid.x), read where it is asked for, so that
  /// what is made from it is not kept live from one box to the next.
  Value readThread(OpBuilder &b) const;
  /// The shared memory box `box` is written to by thread `tid`'s warp.
  Value bufferOf(OpBuilder &b, int64_t box, Value tid) const;
  /// Where box `box` lies in C: its first row and column, the tensor map's
  /// coordinates.
  std::pair<Value, Value> originOf(OpBuilder &b, int64_t box) const;
  /// Thread `tid`'s elements of box `box`, through the epilogue, to its
  /// warp's buffer.
  void write(OpBuilder &b, int64_t box, Value tid, ArrayRef<Value> acc) const;

private:
  Location loc;
  const KernelLowering &lowering;
  Value dst, tileRow, tileCol; // C (lowered) and the warp tile's origin
  AccumulatorFragments frags;
  const ::tgemm::FragmentLayout &accLayout;
  Type accReg, accElement, cElement;
  int64_t cBytes, boxCols, boxesPerRow, buffers;
  Value whole;
  EpilogueSpec epilogue;
};

/// One kernel's instruction-level lowering: what its patterns share, and
/// the hooks through which the copy patterns every family shares emit the
/// family's own instructions.
class KernelLowering {
public:
  KernelLowering(gpu::GPUFuncOp kernel, const KernelInstruction &selected);
  virtual ~KernelLowering();

  /// The register type of the accumulator's fragments.
  virtual Type getAccumulatorRegister() const = 0;
  /// Adds the family's patterns: those of its multiply and epilogue
  /// (MmaTileLowering, StoreTileLowering) and of any op it alone lowers.
  virtual void populatePatterns(RewritePatternSet &patterns,
                                const TypeConverter &converter) const = 0;

  /// Copies a tile that lies inside its source with 16-byte aligned rows
  /// asynchronously; given a `predicate`, only where it holds, and without
  /// a branch (the k-loop stays free of them).
  virtual void emitAsyncCopy(OpBuilder &b, Location loc, const TileCopy &copy,
                             Value predicate) const = 0;
  /// Copies any other tile for an asynchronous copy_tile; by default
  /// synchronously (emitGuardedTileCopy).
  virtual void emitAsyncEdgeCopy(OpBuilder &b, Location loc,
                                 const TileCopy &copy) const;
  /// Closes the group of the asynchronous copies issued since the last.
  virtual void emitCommitGroup(OpBuilder &b, Location loc) const = 0;
  /// Waits until at most `pending` groups of copies are in flight.
  virtual void emitWaitGroup(OpBuilder &b, Location loc,
                             int64_t pending) const = 0;
  /// Waits until at most `pending` of the warp's multiplies are in flight
  /// (tgemm.mma_tile in_flight, tgemm.wait_mma); nothing for the families
  /// whose multiplies are synchronous.
  virtual void emitMmaWait(OpBuilder &b, Location loc, int64_t pending) const {}
  /// Orders this thread's st.shared writes of a tile before the reads of
  /// the family's multiply (wgmma reads shared memory through the async
  /// proxy); nothing for the others.
  virtual void emitSharedStoresFence(OpBuilder &b, Location loc) const {}
  /// Lowers a `tgemm.store_tile` through a tensor map (`via`, tma_store):
  /// the families with bulk tensor stores override it; by default the op
  /// gets a diagnostic.
  virtual LogicalResult emitBulkStore(OpBuilder &b, StoreTileOp op,
                                      StoreTileOp::Adaptor adaptor) const;

  const RingLayout &ring(Value smem) const {
    return plan.rings.at(smem.getDefiningOp());
  }
  /// Whether `op` lowers to asynchronous copies.
  bool isAsync(CopyTileOp op) const { return op.getAsync() && asyncCopy; }
  /// Waits for every asynchronous copy in flight.
  void waitForCopies(OpBuilder &b, Location loc) const;

  const MmaFact &fact;
  KernelMemoryPlan plan;
  int64_t threads;         // per block
  gpu::GPUModuleOp module; // the kernel's, which holds its shared memory
  bool asyncCopy;          // cp.async for copies marked `async`
};

/// The 32-bit register that holds a fact's accumulator elements in the
/// m16n8 layout (mma.sync; wgmma, per warp): f32, or i32 for s32 and for f16
/// packed two to a register (accumulatorValuesPerRegister).
Type accumulatorRegisterType(MLIRContext *ctx, const MmaFact &fact);

/// A shared-memory pointer as the 32-bit address of PTX's .shared operands.
Value sharedAddress32(OpBuilder &b, Location loc, Value ptr);

/// The lowerings whose asynchronous copies are cp.async (ptx, wgmma): one
/// 16-byte cp.async.cg per chunk of a whole tile (predicated without a
/// branch); at an operand's edge, or for rows aligned to less than 16
/// bytes, cp.async of 8 or 4 bytes whose source sizes count the bytes
/// inside the operand (the hardware fills zeros), else the masked
/// element-wise copy; cp.async.commit_group and cp.async.wait_group.
class CpAsyncLowering : public KernelLowering {
public:
  using KernelLowering::KernelLowering;
  void emitAsyncCopy(OpBuilder &b, Location loc, const TileCopy &copy,
                     Value predicate) const override;
  void emitAsyncEdgeCopy(OpBuilder &b, Location loc,
                         const TileCopy &copy) const override;
  void emitCommitGroup(OpBuilder &b, Location loc) const override;
  void emitWaitGroup(OpBuilder &b, Location loc,
                     int64_t pending) const override;
};

/// A pattern of one family's lowering.
template <typename Op, typename Lowering>
struct KernelPattern : public OpConversionPattern<Op> {
  KernelPattern(const TypeConverter &converter, MLIRContext *ctx,
                const Lowering &lowering)
      : OpConversionPattern<Op>(converter, ctx), lowering(lowering) {}
  const Lowering &lowering;
};

/// Multiplies instruction k-steps of `op`'s slice into `acc` (its lowered
/// accumulator) as `stepper` says, and returns the result.
Value accumulateSteps(OpBuilder &b, Location loc, MmaTileOp op, Value acc,
                      const MmaFact &fact, MmaStepper &stepper);

/// A warp's multiply, k-step by k-step through the family's `Stepper` (an
/// MmaStepper made from the builder, the location, the lowering, the op
/// and its adaptor, emitting what the k-steps need first).
template <typename Lowering, typename Stepper>
struct MmaTileLowering : public KernelPattern<MmaTileOp, Lowering> {
  using KernelPattern<MmaTileOp, Lowering>::KernelPattern;
  LogicalResult
  matchAndRewrite(MmaTileOp op, typename MmaTileOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Stepper stepper(rewriter, op.getLoc(), this->lowering, op, adaptor);
    rewriter.replaceOp(op, accumulateSteps(rewriter, op.getLoc(), op,
                                           adaptor.getAcc(),
                                           this->lowering.fact, stepper));
    return success();
  }
};

/// Stores a warp's accumulator to `op`'s destination through `staging`:
/// each vector read back gets alpha/beta, C's type and one store
/// (storeEpilogueVector).
void emitStagedEpilogue(OpBuilder &b, Location loc, StoreTileOp op,
                        StoreTileOp::Adaptor adaptor, EpilogueStaging &staging);

/// The epilogue, staged through the family's `Staging` (an EpilogueStaging
/// made from the builder, the location, the lowering, the op and its
/// adaptor, emitting what the stores need first: the warp's scratch,
/// waits).
template <typename Lowering, typename Staging>
struct StoreTileLowering : public KernelPattern<StoreTileOp, Lowering> {
  using KernelPattern<StoreTileOp, Lowering>::KernelPattern;
  LogicalResult
  matchAndRewrite(StoreTileOp op, typename StoreTileOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getMap()) {
      if (failed(this->lowering.emitBulkStore(rewriter, op, adaptor)))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }
    Staging staging(rewriter, op.getLoc(), this->lowering, op, adaptor);
    emitStagedEpilogue(rewriter, op.getLoc(), op, adaptor, staging);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Runs `lowering` over `kernel`: tile rings become shared-memory pointers,
/// accumulators register arrays, the k-loop carries them; copies and their
/// groups go through the shared patterns, the rest through the family's.
/// Then every launch of the kernel records `name` (the lowering's) and the
/// plan's shared memory.
LogicalResult lowerTileOps(ModuleOp module, gpu::GPUFuncOp kernel,
                           const KernelLowering &lowering, StringRef name);

/// Makes the lowering of `kernel` for the instruction selectInstruction
/// chose, or fails with a diagnostic.
using KernelLoweringFactory =
    function_ref<FailureOr<std::unique_ptr<KernelLowering>>(
        gpu::GPUFuncOp kernel, const KernelInstruction &selected)>;

/// Lowers each kernel of `module` that `family` owns (isLoweredBy) and
/// that multiplies, with the lowering `create` makes for it. Fails if any
/// kernel fails, after trying all.
LogicalResult lowerKernels(ModuleOp module, ::tgemm::Family family,
                           KernelLoweringFactory create);

/// An instruction-level lowering pass (`PassBase`, the generated base of
/// the final pass class), lowering the kernels of `Lowering::family` with
/// `Lowering::create`.
template <typename PassBase, typename Lowering>
struct KernelLoweringPass : public PassBase {
  using PassBase::PassBase;
  void runOnOperation() override {
    if (failed(lowerKernels(this->getOperation(), Lowering::family,
                            Lowering::create)))
      this->signalPassFailure();
  }
};

/// Patterns every lowering shares: `tgemm.alloc_smem` and
/// `tgemm.alloc_barriers` become pointers to their places in the plan,
/// `tgemm.zero_acc` a zero of the converted type.
void populateRingPatterns(RewritePatternSet &patterns,
                          const TypeConverter &converter,
                          const KernelMemoryPlan &plan,
                          gpu::GPUModuleOp module);

/// `tgemm.reduce_splits` (split K's sum of a tile's parts by its last
/// block), which every lowering shares.
void populateSplitKPatterns(RewritePatternSet &patterns,
                            const TypeConverter &converter);

/// Pointer to byte `offset` of the plan's scratch.
Value getScratchPointer(OpBuilder &b, Location loc,
                        const KernelMemoryPlan &plan, gpu::GPUModuleOp module,
                        Value offset);

/// The epilogue for one vector of accumulator values, the row-contiguous
/// elements (row, col ...) of the rank-2 memref `dst`: they get
/// `alpha * acc + beta * dst` in C's element type (`dst` is read only when
/// beta is not 0), then the epilogue's steps. Floating accumulators are
/// scaled in f32, integer ones in i32 for an i32 C, else in f32 (a
/// dequantizing store). Where `whole` (an i1) holds, one aligned vector
/// store (and aligned loads of the steps' operands); elsewhere element by
/// element, skipping elements outside `dst`.
void storeEpilogueVector(OpBuilder &b, Location loc, Value acc, Value dst,
                         Value row, Value col, const EpilogueSpec &epilogue,
                         int64_t alignment, Value whole);

/// Whether every operand the epilogue's steps read starts on 16 bytes (a
/// residual's rows too): an i1.
Value epilogueOperandsAligned(OpBuilder &b, Location loc,
                              const EpilogueSpec &epilogue);

/// The epilogue of the `n` accumulator values `acc` (a vector) at
/// (row, col ...) of `dst`, as storeEpilogueVector computes them, returned
/// in C's element type instead of stored: for a bulk store, whose copy
/// engine writes only what lies inside C. `col` is a multiple of n. What
/// it reads (C where beta is not 0, the steps' operands) it reads whole
/// where `whole` (an i1, or null: always) holds, else masked to `dst`.
Value computeEpilogueVector(OpBuilder &b, Location loc, Value acc, Value dst,
                            Value row, Value col, const EpilogueSpec &epilogue,
                            Value whole);

} // namespace mlir::tgemm

#endif // TGEMM_CONVERSION_TILELOWERING_H
