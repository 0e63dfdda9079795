//===- Tile.cpp - tgemm.matmul to a kernel of tile operations -------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/KernelManifest.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMTILE
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {

/// Ring types of A and B for a layout: tiles are stored as the operand is.
SmemType ringType(MLIRContext *ctx, int64_t stages, int64_t outer,
                  int64_t depth, Layout layout, Type element, bool isA) {
  // A is outer(M) x depth(K) when row-major; B is depth(K) x outer(N).
  bool outerFirst = (layout == Layout::Row) == isA;
  return SmemType::get(ctx, stages, outerFirst ? outer : depth,
                       outerFirst ? depth : outer, element);
}

/// Grouped rasterization: the launch's blocks, numbered row-major, walk C's
/// tiles down groups of `group` tile-rows one column at a time, so that
/// consecutive blocks reuse the same B column panel and a few A row panels
/// from L2. Returns the (tile row, tile column) of this block.
std::pair<Value, Value> rasterize(OpBuilder &b, Location loc, Value bx,
                                  Value by, int64_t group) {
  IndexMath im{b, loc};
  Value tilesN = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value tilesM = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
  Value pid = im.add(im.mul(by, tilesN), bx);
  Value perGroup = im.mul(tilesN, group);
  Value firstRow = im.mul(arith::DivUIOp::create(b, loc, pid, perGroup), group);
  Value rows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, tilesM, firstRow), im.c(group));
  Value inGroup = arith::RemUIOp::create(b, loc, pid, perGroup);
  Value tileRow = im.add(firstRow, arith::RemUIOp::create(b, loc, inGroup, rows));
  Value tileCol = arith::DivUIOp::create(b, loc, inGroup, rows);
  return {tileRow, tileCol};
}

/// Whether every tile of the problem is whole and every operand row starts
/// on a 16-byte boundary: M, N, K are multiples of the block tile and each
/// operand's base, offset and row stride are 16-byte aligned. The same for
/// all threads of the kernel.
Value wholeTilesCondition(OpBuilder &b, Location loc, MatmulOp op, Value a,
                          Value bMat, Value c, Value k) {
  IndexMath im{b, loc};
  ConfigAttr config = op.getConfigAttr();
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, im.c(0))
        .getResult();
  };
  Value m = memref::DimOp::create(b, loc, c, 0);
  Value n = memref::DimOp::create(b, loc, c, 1);
  SmallVector<Value> conds = {isZero(im.rem(m, config.getBlockM())),
                              isZero(im.rem(n, config.getBlockN())),
                              isZero(im.rem(k, config.getBlockK()))};
  for (Value operand : {a, bMat, c}) {
    auto type = cast<MemRefType>(operand.getType());
    int64_t bits = type.getElementTypeBitWidth();
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, operand);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand);
    conds.push_back(isZero(im.rem(im.mul(meta.getStrides()[0], bits), 128)));
    conds.push_back(isZero(im.rem(im.mul(meta.getOffset(), bits), 128)));
    conds.push_back(isZero(im.rem(base, 16)));
  }
  Value all = conds.front();
  for (Value cond : ArrayRef<Value>(conds).drop_front())
    all = arith::AndIOp::create(b, loc, all, cond);
  return all;
}

/// Block z's matrix of a batched (rank-3) operand, as a rank-2 strided view;
/// a rank-2 operand is returned as is.
Value matrixOfBatch(OpBuilder &b, Location loc, Value operand, Value z) {
  auto type = cast<MemRefType>(operand.getType());
  if (type.getRank() == 2)
    return operand;
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, operand);
  sizes[0] = b.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets = {z, b.getIndexAttr(0), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto matrixType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().drop_front(), type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(matrixType),
                                   operand, offsets, sizes, strides);
}

/// Writes a kernel body for a matmul: the block's view of its operands, the
/// rings, then the main loop and the epilogue twice (for whole tiles and for
/// any size), each with one of three k-loop shapes, a builder per shape:
/// one buffer (`buildSingleBufferLoop`), the multistage ring with its refill
/// order (`buildMultistageLoop`), and the ring with fragments carried across
/// the barrier (`buildPrefetchLoop`).
class KernelBodyWriter {
public:
  KernelBodyWriter(MatmulOp op, gpu::GPUFuncOp kernel,
                   const ::tgemm::Schedule &schedule)
      : op(op), kernel(kernel), schedule(schedule), ctx(op.getContext()),
        config(op.getConfigAttr()), loc(op.getLoc()),
        layoutA(op.getLayoutA()), layoutB(op.getLayoutB()),
        stages(config.getStages()), bm(config.getBlockM()),
        bn(config.getBlockN()), bk(config.getBlockK()) {}

  void build() {
    Block &entry = kernel.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    IndexMath im{b, loc};
    // A batch runs one matrix product per block z.
    Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
    a = matrixOfBatch(b, loc, entry.getArgument(0), bz);
    bMat = matrixOfBatch(b, loc, entry.getArgument(1), bz);
    c = matrixOfBatch(b, loc, entry.getArgument(2), bz);

    // The block's tile of C: x over N, y over M, or grouped rasterization.
    Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    if (int64_t group = config.getRaster(); group > 1)
      std::tie(by, bx) = rasterize(b, loc, bx, by, group);
    // Warp: row-major over the warp grid.
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value warp = im.div(tid, 32);
    warpRow = im.mul(im.div(warp, config.getWarpsN()), config.getWarpTileM());
    warpCol = im.mul(im.rem(warp, config.getWarpsN()), config.getWarpTileN());
    m0 = im.mul(by, bm);
    n0 = im.mul(bx, bn);

    auto ringA = ringType(ctx, stages, bm, bk, layoutA,
                          op.getA().getType().getElementType(), /*isA=*/true);
    auto ringB = ringType(ctx, stages, bn, bk, layoutB,
                          op.getB().getType().getElementType(), /*isA=*/false);
    sa = AllocSmemOp::create(b, loc, ringA);
    sb = AllocSmemOp::create(b, loc, ringB);
    accType = AccumulatorType::get(ctx, config.getWarpTileM(),
                                   config.getWarpTileN(), op.getAcc());

    // K tiles: K is dimension 1 of a row-major A (M x K), 0 of a
    // column-major.
    Value k = memref::DimOp::create(b, loc, a, layoutA == Layout::Row ? 1 : 0);
    // The last k-tile may be partial: copies read zeros past K.
    kTiles = arith::CeilDivUIOp::create(b, loc, k, im.c(bk));
    async = stages > 1;
    // Halves of a stage's multiply must be whole k-steps of every
    // instruction a lowering may pick for these types.
    MatmulKinds kinds = getMatmulKinds(op);
    kStep = ::tgemm::commonTile(
                ::tgemm::lookupMmaAnyFamily(kinds.a, kinds.b, kinds.acc))
                .k;
    bool refillAfterMma = schedule.refillAfterMma;
    prefetch = schedule.prefetchFragments && !refillAfterMma && stages > 1 &&
               bk % kStep == 0;
    interleave = !prefetch && schedule.interleaveCopies && !refillAfterMma &&
                 stages > 1 && (bk / 2) % kStep == 0;
    fragsType = FragsType::get(ctx, accType.getRows(), accType.getCols(),
                               kStep, op.getA().getType().getElementType());

    // The main loop and the epilogue, once with every tile known to be
    // whole and aligned (`in_bounds`: no guard anywhere), once for any size.
    scf::IfOp::create(
        b, loc, wholeTilesCondition(b, loc, op, a, bMat, c, k),
        [&](OpBuilder &tb, Location) {
          emitMainLoop(tb, /*inBounds=*/true);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          emitMainLoop(eb, /*inBounds=*/false);
          scf::YieldOp::create(eb, loc);
        });
    gpu::ReturnOp::create(b, loc);
  }

private:
  void emitMainLoop(OpBuilder &b, bool whole) {
    inBounds = whole;
    IndexMath im{b, loc};
    Value acc0 = ZeroAccOp::create(b, loc, accType);
    // Prologue: the first S - 1 k-tiles in flight (S with prefetched
    // fragments, whose loop refills the stage it has just finished).
    for (int64_t s = 0; s + 1 < stages + (prefetch ? 1 : 0); ++s) {
      scf::IfOp::create(b, loc, im.lt(im.c(s), kTiles),
                        [&](OpBuilder &tb, Location) {
                          copyStage(tb, im.c(s), im.c(s));
                          scf::YieldOp::create(tb, loc);
                        });
      CommitCopiesOp::create(b, loc);
    }
    Value result = stages == 1 ? buildSingleBufferLoop(b, acc0)
                   : prefetch  ? buildPrefetchLoop(b, acc0)
                               : buildMultistageLoop(b, acc0);
    StoreTileOp::create(b, loc, result, c, im.add(m0, warpRow),
                        im.add(n0, warpCol), op.getAlphaAttr(),
                        op.getBetaAttr(), inBounds);
  }

  /// One buffer: refill it only after every warp is done with it.
  Value buildSingleBufferLoop(OpBuilder &b, Value acc0) {
    IndexMath im{b, loc};
    auto loop = scf::ForOp::create(
        b, loc, im.c(0), kTiles, im.c(1), ValueRange{acc0},
        [&](OpBuilder &lb, Location, Value kt, ValueRange iterArgs) {
          gpu::BarrierOp::create(lb, loc);
          Value stage = IndexMath{lb, loc}.c(0);
          copyStage(lb, kt, stage);
          gpu::BarrierOp::create(lb, loc);
          scf::YieldOp::create(lb, loc, multiply(lb, stage, iterArgs[0]));
        });
    return loop.getResult(0);
  }

  /// Each iteration multiplies tile kt from its first fragments (loaded by
  /// the previous iteration) up to its last k-step, loads the last k-step's
  /// fragments, waits for tile kt + 1 (at most S - 2 newer groups pending)
  /// and lets the barrier end every warp's reads of tile kt's stage; then it
  /// refills that stage with tile kt + S (predicated off past the last
  /// k-tile), loads tile kt + 1's first fragments, and multiplies its last
  /// k-step from registers, so that the barrier and the next stage's first
  /// fragment loads overlap tensor work.
  Value buildPrefetchLoop(OpBuilder &b, Value acc0) {
    IndexMath im{b, loc};
    // Tile 0 has landed once at most S - 1 of the S groups are pending.
    WaitCopiesOp::create(b, loc, stages - 1);
    gpu::BarrierOp::create(b, loc);
    Value frags0 = loadFrags(b, im.c(0), 0);
    int64_t last = bk - kStep;
    auto loop = scf::ForOp::create(
        b, loc, im.c(0), kTiles, im.c(1), ValueRange{acc0, frags0, im.c(0)},
        [&](OpBuilder &lb, Location, Value kt, ValueRange iterArgs) {
          IndexMath m{lb, loc};
          Value acc = iterArgs[0], frags = iterArgs[1], stage = iterArgs[2];
          Value lastFrags = frags;
          if (last > 0) {
            acc = multiply(lb, stage, acc, lb.getDenseI64ArrayAttr({0, last}),
                           frags);
            lastFrags = loadFrags(lb, stage, last);
          }
          WaitCopiesOp::create(lb, loc, stages - 2);
          gpu::BarrierOp::create(lb, loc);
          Value refill = m.add(kt, m.c(stages));
          copyStage(lb, refill, stage, m.lt(refill, kTiles));
          CommitCopiesOp::create(lb, loc);
          Value next = following(lb, stage);
          Value nextFrags = loadFrags(lb, next, 0);
          acc = multiply(lb, stage, acc,
                         lb.getDenseI64ArrayAttr({last, kStep}), lastFrags);
          scf::YieldOp::create(lb, loc, ValueRange{acc, nextFrags, next});
        });
    return loop.getResult(0);
  }

  /// Each iteration waits for tile kt (landed once at most S - 2 newer
  /// groups are pending), lets the barrier end every warp's use of the stage
  /// refilled next (that of kt - 1), refills it with tile kt + S - 1 (before
  /// this tile's multiply, or after it with `refill_after_mma`, or between
  /// its halves with `interleave_copies`), and multiplies. Refills past the
  /// last k-tile are predicated off rather than branched around, so the body
  /// is one straight-line block in which the copies can be scheduled among
  /// the multiplies; their empty groups keep the count regular.
  Value buildMultistageLoop(OpBuilder &b, Value acc0) {
    IndexMath im{b, loc};
    bool refillAfterMma = schedule.refillAfterMma;
    auto loop = scf::ForOp::create(
        b, loc, im.c(0), kTiles, im.c(1),
        ValueRange{acc0, im.c(0), im.c(stages - 1)},
        [&](OpBuilder &lb, Location, Value kt, ValueRange iterArgs) {
          IndexMath m{lb, loc};
          Value stage = iterArgs[1], refillStage = iterArgs[2];
          WaitCopiesOp::create(lb, loc, stages - 2);
          gpu::BarrierOp::create(lb, loc);
          Value next = m.add(kt, m.c(stages - 1));
          Value inRange = m.lt(next, kTiles);
          Value acc = iterArgs[0];
          if (interleave) {
            int64_t half = bk / 2;
            acc = multiply(lb, stage, acc, lb.getDenseI64ArrayAttr({0, half}));
            copyTiles(lb, next, refillStage, inRange, true, false);
            acc = multiply(lb, stage, acc,
                           lb.getDenseI64ArrayAttr({half, half}));
            copyTiles(lb, next, refillStage, inRange, false, true);
            CommitCopiesOp::create(lb, loc);
          } else {
            auto refill = [&] {
              copyStage(lb, next, refillStage, inRange);
              CommitCopiesOp::create(lb, loc);
            };
            if (!refillAfterMma)
              refill();
            acc = multiply(lb, stage, acc);
            if (refillAfterMma)
              refill();
          }
          scf::YieldOp::create(lb, loc,
                               ValueRange{acc, following(lb, stage),
                                          following(lb, refillStage)});
        });
    return loop.getResult(0);
  }

  /// Copies k-tile `kt` of A and/or B into stage `stage`; only where
  /// `predicate` holds, if there is one.
  void copyTiles(OpBuilder &ob, Value kt, Value stage, Value predicate,
                 bool copyA, bool copyB) {
    IndexMath m{ob, loc};
    Value k0 = m.mul(kt, bk);
    auto [aRow, aCol] =
        layoutA == Layout::Row ? std::pair(m0, k0) : std::pair(k0, m0);
    auto [bRow, bCol] =
        layoutB == Layout::Row ? std::pair(k0, n0) : std::pair(n0, k0);
    if (copyA)
      CopyTileOp::create(ob, loc, a, aRow, aCol, sa, stage, async, inBounds,
                         predicate);
    if (copyB)
      CopyTileOp::create(ob, loc, bMat, bRow, bCol, sb, stage, async, inBounds,
                         predicate);
  }
  void copyStage(OpBuilder &ob, Value kt, Value stage,
                 Value predicate = Value()) {
    copyTiles(ob, kt, stage, predicate, true, true);
  }

  Value multiply(OpBuilder &lb, Value stage, Value acc,
                 DenseI64ArrayAttr slice = {}, Value frags = Value()) {
    return MmaTileOp::create(lb, loc, accType, sa, stage, sb, stage, acc,
                             warpRow, warpCol, LayoutAttr::get(ctx, layoutA),
                             LayoutAttr::get(ctx, layoutB), slice, frags);
  }
  Value loadFrags(OpBuilder &lb, Value stage, int64_t offset) {
    return LoadFragsOp::create(lb, loc, fragsType, sa, stage, sb, stage,
                               warpRow, warpCol, LayoutAttr::get(ctx, layoutA),
                               LayoutAttr::get(ctx, layoutB),
                               lb.getDenseI64ArrayAttr({offset, kStep}));
  }
  /// The ring's stage after `stage`: stages travel as loop-carried indices,
  /// so no iteration divides by S.
  Value following(OpBuilder &ob, Value stage) {
    IndexMath m{ob, loc};
    Value next = m.add(stage, 1);
    Value wraps = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq,
                                        next, m.c(stages));
    return arith::SelectOp::create(ob, loc, wraps, m.c(0), next);
  }

  MatmulOp op;
  gpu::GPUFuncOp kernel;
  const ::tgemm::Schedule &schedule;
  MLIRContext *ctx;
  ConfigAttr config;
  Location loc;
  Layout layoutA, layoutB;
  int64_t stages, bm, bn, bk;
  // Set by build().
  Value a, bMat, c, sa, sb, warpRow, warpCol, m0, n0, kTiles;
  AccumulatorType accType;
  FragsType fragsType;
  int64_t kStep = 0;
  bool async = false, prefetch = false, interleave = false;
  // The main loop being written: whole tiles (in_bounds) or any size.
  bool inBounds = false;
};

/// Replaces `op` with a launch of a new kernel; `baseName` names both.
LogicalResult tileMatmul(MatmulOp op, ModuleOp module, StringRef baseName) {
  if (!op.getConfigAttr())
    return op.emitOpError()
           << "has no tile config: write config(<...>) or run "
              "--tgemm-select-config first (as --tgemm-pipeline does)";
  MLIRContext *ctx = op.getContext();
  ConfigAttr config = op.getConfigAttr();
  TargetAttr target = lookupTarget(op);
  // The schedule: the op's, else its family's default, else the neutral
  // one (kernel-level tests without a target).
  ::tgemm::Schedule schedule =
      op.getScheduleAttr() ? op.getScheduleAttr().getValue()
      : target ? ::tgemm::defaultSchedule(target.getFamily(),
                                          getTileConfig(config))
               : ::tgemm::Schedule();
  if (target && failed(verifyForTarget(op, target.getValue())))
    return failure();
  Location loc = op.getLoc();
  SymbolTable symbols(module);

  // The kernel, in a gpu.module of its own.
  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(mb, loc, baseName.str() + "_module");
  symbols.insert(gpuModule);
  // The kernel carries what its lowering reads: the target (on its module,
  // where the NVVM target goes too) and the schedule.
  if (target)
    gpuModule->setAttr(TargetAttr::getAttrName(), target);
  OpBuilder kb = OpBuilder::atBlockBegin(gpuModule.getBody());
  // Views take any stride and offset from their descriptors: a static
  // stride in the source must not become a constant the launch cannot
  // change (the manifest marks these arguments strided).
  SmallVector<Value> operands = {op.getA(), op.getB(), op.getC()};
  OpBuilder castBuilder(op);
  for (Value &operand : operands) {
    auto type = cast<MemRefType>(operand.getType());
    if (type.getLayout().isIdentity())
      continue;
    SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
    strides.back() = 1;
    auto general = MemRefType::get(
        type.getShape(), type.getElementType(),
        StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides),
        type.getMemorySpace());
    if (general != type)
      operand = memref::CastOp::create(castBuilder, loc, general, operand);
  }
  auto kernelType = FunctionType::get(
      ctx, {operands[0].getType(), operands[1].getType(),
            operands[2].getType()},
      {});
  auto kernel = gpu::GPUFuncOp::create(kb, loc, baseName.str() + "_kernel",
                                       kernelType);
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
  int32_t threads = config.getNumThreads();
  kernel.setKnownBlockSizeAttr(kb.getDenseI32ArrayAttr({threads, 1, 1}));
  // Without a target or a schedule of its own the op has the neutral
  // k-loop, and each lowering its family's default.
  if (target || op.getScheduleAttr())
    kernel->setAttr(ScheduleAttr::getAttrName(),
                    ScheduleAttr::get(ctx, schedule));
  KernelBodyWriter(op, kernel, schedule).build();

  // The launch: grid (ceil(N / BN), ceil(M / BM), batch); edge blocks are
  // partial.
  OpBuilder b(op);
  IndexMath im{b, loc};
  auto size = [&](Value memref, unsigned dim, int64_t tile) -> Value {
    int64_t s = cast<MemRefType>(memref.getType()).getDimSize(dim);
    if (!ShapedType::isDynamic(s))
      return im.c(llvm::divideCeil(s, tile));
    return arith::CeilDivUIOp::create(
        b, loc, memref::DimOp::create(b, loc, memref, dim), im.c(tile));
  };
  unsigned firstMatrixDim = op.isBatched() ? 1 : 0;
  Value gridX = size(op.getC(), firstMatrixDim + 1, config.getBlockN());
  Value gridY = size(op.getC(), firstMatrixDim, config.getBlockM());
  Value one = im.c(1);
  Value gridZ = op.isBatched() ? size(op.getC(), 0, 1) : one;
  // The plan the lowering lays out (it writes the same number again).
  int64_t sharedBytes =
      ::tgemm::planSharedMemory(getProblem(op), getTileConfig(config),
                                schedule,
                                target ? target.getFamily()
                                       : ::tgemm::Family::MmaSync)
          .totalBytes;

  Value shared = arith::ConstantIntOp::create(b, loc, sharedBytes, 32);
  auto launch = gpu::LaunchFuncOp::create(
      b, loc, kernel, gpu::KernelDim3{gridX, gridY, gridZ},
      gpu::KernelDim3{im.c(threads), one, one}, shared,
      ValueRange(operands));
  setManifest(launch, buildManifest(op, gpuModule.getName(),
                                    kernel.getName(), sharedBytes));
  op.erase();
  return success();
}

/// `name` as a PTX identifier (PTX ISA, "Identifiers": a letter, then
/// letters, digits, `_`; or `_` first): every other byte becomes `_XX`, its
/// hex value, and a leading digit gets a `_` before it. Any MLIR symbol
/// (`@"a b"`, `@a.b`, `@1abc`, UTF-8) so names a kernel ptxas accepts.
std::string mangleKernelName(StringRef name) {
  std::string out;
  if (name.empty() || llvm::isDigit(name.front()))
    out = name.empty() ? "gemm" : "_";
  for (unsigned char c : name) {
    if (llvm::isAlnum(c) || c == '_')
      out += c;
    else
      out += "_" + llvm::utohexstr(c, /*LowerCase=*/false, /*Width=*/2);
  }
  return out;
}

struct TilePass : public mlir::tgemm::impl::TGemmTileBase<TilePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<MatmulOp> matmuls;
    module.walk([&](MatmulOp op) { matmuls.push_back(op); });
    if (matmuls.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(module.getContext()));

    SymbolTable symbols(module);
    llvm::StringMap<unsigned> perFunction;
    for (MatmulOp op : matmuls) {
      // Kernels are named after their function: @f, @f_1, ..., as PTX
      // identifiers; the manifest records the entry's name.
      std::string func = "gemm";
      if (auto parent = op->getParentOfType<FunctionOpInterface>())
        func = mangleKernelName(parent.getName());
      std::string base;
      do {
        unsigned n = perFunction[func]++;
        base = n == 0 ? func : (func + "_" + Twine(n)).str();
      } while (symbols.lookup(base + "_module"));
      if (failed(tileMatmul(op, module, base)))
        return signalPassFailure();
    }
  }
};

} // namespace
