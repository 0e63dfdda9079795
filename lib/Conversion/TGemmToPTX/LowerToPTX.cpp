//===- LowerToPTX.cpp - Tile ops to inline PTX ----------------------------===//
//
// The hand-written multistage kernel: cp.async copies into XOR-swizzled
// rings, ldmatrix into mma.sync fragments, an epilogue staged through
// shared memory for 16-byte stores. Every feature can be switched off.
//
// Fragment layouts are those of the PTX ISA, section "Matrix Fragments for
// mma.m16n8k*": with g = lane / 4 and t = lane % 4, register i of A holds
// row g + 8 * (i % 2) and bytes [4t, 4t + 4) + 16 * (i / 2) of a 16-row,
// 32-byte-deep slice; register j of B holds column g and bytes
// [4t, 4t + 4) + 16 * j of the 32-byte depth; accumulator registers 2r and
// 2r + 1 hold row g + 8r, columns 2t and 2t + 1. For every precision the
// k-step of one mma.sync is 32 bytes deep, so an A fragment is four 8x8
// b16 matrices and a B fragment two: exactly what ldmatrix loads.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/Passes.h"
#include "tgemm/Conversion/PtxBuilder.h"
#include "tgemm/Conversion/TileLowering.h"
#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/KernelManifest.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMLOWERTOPTX
#include "tgemm/Conversion/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;
using ::tgemm::ElemKind;
using ::tgemm::MmaFact;

namespace {

/// Bytes of depth one mma.sync consumes, for every precision (k x bits).
constexpr int64_t kStepBytes = 32;

struct Options {
  bool asyncCopy, ldmatrix;
};

/// One mma.sync instruction of the facts table, and the PTX that issues it.
struct MmaSyncAtom {
  const MmaFact &fact;
  Type accReg;            // f32, or i32 for s32 and packed f16x2
  StringRef accConstraint; // "f" or "r"

  MmaSyncAtom(const MmaFact &fact, MLIRContext *ctx) : fact(fact) {
    bool f32 = fact.acc == ElemKind::F32;
    accReg = f32 ? Type(Float32Type::get(ctx)) : IntegerType::get(ctx, 32);
    accConstraint = f32 ? "f" : "r";
  }
  int64_t m() const { return fact.shape.m; }
  int64_t n() const { return fact.shape.n; }
  int64_t k() const { return fact.shape.k; }

  /// d = a * b + c.
  SmallVector<Value> mma(OpBuilder &b, Location loc, ValueRange a,
                         ValueRange bRegs, ValueRange c) const {
    PtxBuilder ptx(b, loc);
    std::string d = ptx.outputs(accReg, ("=" + accConstraint).str(),
                                fact.regsAcc);
    std::string aList = ptx.inputs(a, "r");
    std::string bList = ptx.inputs(bRegs, "r");
    std::string cList = ptx.inputs(c, accConstraint);
    std::string acc = ::tgemm::ptxName(fact.acc).str();
    std::string in = ::tgemm::ptxName(fact.a).str();
    return ptx.emit(Twine("mma.sync.aligned.m") + Twine(m()) + "n" +
                    Twine(n()) + "k" + Twine(k()) + ".row.col." + acc + "." +
                    in + "." + in + "." + acc + " " + d + ", " + aList +
                    ", " + bList + ", " + cList + ";");
  }
};

Value sharedAddress32(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
}

/// Per-kernel facts the patterns share.
struct KernelInfo {
  MmaSyncAtom atom;
  KernelMemoryPlan plan;
  int64_t threads;
  int64_t slabPitch; // bytes per row of a warp's epilogue slab
  gpu::GPUModuleOp module;
  Options options;

  const RingLayout &ring(Value smem) const {
    return plan.rings.at(smem.getDefiningOp());
  }
};

template <typename Op>
struct KernelPattern : public OpConversionPattern<Op> {
  KernelPattern(const TypeConverter &converter, MLIRContext *ctx,
                const KernelInfo &info)
      : OpConversionPattern<Op>(converter, ctx), info(info) {}
  const KernelInfo &info;
};

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

struct CopyTileLowering : public KernelPattern<CopyTileOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(CopyTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath im{rewriter, loc};
    const RingLayout &ring = info.ring(op.getDst());
    Value stageBase = offsetSharedPointer(
        rewriter, loc, adaptor.getDst(),
        im.mul(adaptor.getStage(), ring.stagePitch));
    // Predicated cp.async keep the k-loop free of branches.
    emitTileCopy(
        rewriter, loc, op, adaptor.getSrc(), adaptor.getRow(),
        adaptor.getCol(), adaptor.getPredicate(), isAsync(op),
        [&](OpBuilder &b, Value predicate) {
          emitWholeCopy(b, loc, op, adaptor, stageBase, ring, predicate);
        },
        [&](OpBuilder &b) {
          emitEdgeCopy(b, loc, op, adaptor, stageBase, ring);
        });
    rewriter.eraseOp(op);
    return success();
  }

  bool isAsync(CopyTileOp op) const {
    return op.getAsync() && info.options.asyncCopy;
  }

  /// A tile at an edge of its operand, or one whose rows are not 16-byte
  /// aligned. With cp.async and rows aligned to G = 16, 8 or 4 bytes (the
  /// largest that holds), each 16-byte chunk moves as 16 / G cp.async of G
  /// bytes whose source sizes count the bytes inside the operand (0 to G);
  /// the hardware fills the rest with zeros, and the copies stay
  /// asynchronous. Rows aligned to less than 4 bytes (cp.async's smallest
  /// size), or no cp.async: the masked element-wise copy.
  void emitEdgeCopy(OpBuilder &rewriter, Location loc, CopyTileOp op,
                    OpAdaptor adaptor, Value stageBase,
                    const RingLayout &ring) const {
    int64_t rows = op.getDst().getType().getRows();
    auto guarded = [&](OpBuilder &b) {
      emitGuardedTileCopy(b, loc, adaptor.getSrc(), adaptor.getRow(),
                          adaptor.getCol(), stageBase, ring, rows,
                          info.threads);
    };
    if (!isAsync(op)) {
      guarded(rewriter);
      return;
    }
    Value src = adaptor.getSrc();
    // One cp.async per granule of each chunk.
    auto asyncChunks = [&](OpBuilder &b, int64_t granule) {
      int64_t elementsPerChunk = 128 / ring.elementBits;
      Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
      forEachTileChunk(
          b, loc, rows, ring.rowBytes / 16, info.threads, tid,
          [&](OpBuilder &cb, Value r, Value chunk, bool) {
            IndexMath m{cb, loc};
            Value row = m.add(adaptor.getRow(), r);
            Value col = m.add(adaptor.getCol(), m.mul(chunk, elementsPerChunk));
            Value rowsIn = memref::DimOp::create(cb, loc, src, 0);
            Value colsIn = memref::DimOp::create(cb, loc, src, 1);
            // Bytes of the chunk inside the operand: 0 past its last row or
            // column, up to 16.
            Value left = arith::SubIOp::create(
                cb, loc, arith::MaxUIOp::create(cb, loc, colsIn, col), col);
            Value bytes = arith::MinUIOp::create(
                cb, loc, m.div(m.mul(left, ring.elementBits), 8), m.c(16));
            Value inside = m.lt(row, rowsIn);
            bytes = arith::SelectOp::create(cb, loc, inside, bytes, m.c(0));
            Value to = offsetSharedPointer(
                cb, loc, stageBase, ring.chunkOffset(cb, loc, r, chunk));
            int64_t elementsPerGranule = granule * 8 / ring.elementBits;
            for (int64_t g = 0; g < 16 / granule; ++g) {
              // This granule's bytes: what is left of the chunk past
              // g * granule, at most a granule.
              Value past = arith::SubIOp::create(
                  cb, loc,
                  arith::MaxUIOp::create(cb, loc, bytes, m.c(g * granule)),
                  m.c(g * granule));
              Value size = arith::MinUIOp::create(cb, loc, past, m.c(granule));
              // A source address that is valid even when nothing is read.
              Value any = arith::CmpIOp::create(
                  cb, loc, arith::CmpIPredicate::ne, size, m.c(0));
              Value safeRow = arith::SelectOp::create(cb, loc, any, row, m.c(0));
              Value safeCol = arith::SelectOp::create(
                  cb, loc, any, m.add(col, g * elementsPerGranule), m.c(0));
              Value from =
                  getGlobalElementPointer(cb, loc, src, safeRow, safeCol);
              Value dst = LLVM::GEPOp::create(
                  cb, loc, to.getType(), cb.getI8Type(), to,
                  ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(g * granule)});
              PtxBuilder ptx(cb, loc);
              std::string dstAddr =
                  ptx.input(sharedAddress32(cb, loc, dst), "r");
              std::string srcAddr = ptx.input(
                  LLVM::PtrToIntOp::create(cb, loc, cb.getI64Type(), from),
                  "l");
              std::string sizeArg = ptx.input(m.toI32(size), "r");
              // .cg (L2 only) takes 16 bytes alone; .ca the smaller sizes.
              ptx.emit(std::string(granule == 16 ? "cp.async.cg" : "cp.async.ca") +
                       ".shared.global [" + dstAddr + "], [" + srcAddr + "], " +
                       std::to_string(granule) + ", " + sizeArg + ";");
            }
          });
    };
    // The widest granule the rows allow; the element-wise copy below 4
    // bytes (and for elements wider than the granule, which cannot happen
    // for tgemm's types).
    std::function<void(OpBuilder &, ArrayRef<int64_t>)> pick =
        [&](OpBuilder &b, ArrayRef<int64_t> granules) {
          if (granules.empty() || granules.front() * 8 < ring.elementBits) {
            guarded(b);
            return;
          }
          scf::IfOp::create(
              b, loc, hasAlignedRows(b, loc, src, granules.front()),
              [&](OpBuilder &tb, Location) {
                asyncChunks(tb, granules.front());
                scf::YieldOp::create(tb, loc);
              },
              [&](OpBuilder &eb, Location) {
                pick(eb, granules.drop_front());
                scf::YieldOp::create(eb, loc);
              });
        };
    pick(rewriter, {16, 8, 4});
  }

  /// The copy of a tile inside the operand with 16-byte aligned rows; with
  /// a `predicate`, each cp.async is predicated on it.
  void emitWholeCopy(OpBuilder &rewriter, Location loc, CopyTileOp op,
                     OpAdaptor adaptor, Value stageBase,
                     const RingLayout &ring,
                     Value predicate) const {
    int64_t rows = op.getDst().getType().getRows();
    if (!isAsync(op)) {
      emitSyncTileCopy(rewriter, loc, adaptor.getSrc(), adaptor.getRow(),
                       adaptor.getCol(), stageBase, ring, rows, info.threads);
      return;
    }
    forEachWholeTileChunk(
        rewriter, loc, adaptor.getSrc(), adaptor.getRow(), adaptor.getCol(),
        stageBase, ring, rows, info.threads,
        [&](OpBuilder &b, Value src, Value dst) {
          PtxBuilder ptx(b, loc);
          std::string to = ptx.input(sharedAddress32(b, loc, dst), "r");
          std::string from = ptx.input(
              LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), src), "l");
          std::string copy = "cp.async.cg.shared.global [" + to + "], [" +
                             from + "], 16;";
          if (!predicate) {
            ptx.emit(copy);
            return;
          }
          std::string p = ptx.input(
              arith::ExtUIOp::create(b, loc, b.getI32Type(), predicate), "r");
          ptx.emit("{ .reg .pred p; setp.ne.b32 p, " + p + ", 0; @p " + copy +
                   " }");
        });
  }
};

struct CommitCopiesLowering : public KernelPattern<CommitCopiesOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(CommitCopiesOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (info.options.asyncCopy)
      PtxBuilder(rewriter, op.getLoc()).emit("cp.async.commit_group;");
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitCopiesLowering : public KernelPattern<WaitCopiesOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(WaitCopiesOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (info.options.asyncCopy)
      PtxBuilder(rewriter, op.getLoc())
          .emit("cp.async.wait_group " + Twine(op.getPending()) + ";");
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Fragments and mma.sync
//===----------------------------------------------------------------------===//

/// Loads the fragments of one warp from one stage of the A and B rings.
class FragmentLoader {
public:
  FragmentLoader(OpBuilder &b, Location loc, const KernelInfo &info,
                 const RingLayout &ringA, Value stageA, Layout layoutA,
                 const RingLayout &ringB, Value stageB, Layout layoutB,
                 Value warpRow, Value warpCol)
      : b(b), loc(loc), im{b, loc}, info(info), ringA(ringA), stageA(stageA),
        layoutA(layoutA), ringB(ringB), stageB(stageB), layoutB(layoutB),
        warpRow(warpRow), warpCol(warpCol) {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    lane = im.rem(tid, 32);
    group = im.div(lane, 4);
    inGroup = im.rem(lane, 4);
  }

  /// The 4 registers of the A fragment for m-fragment `fm`, k-step `ks`.
  SmallVector<Value> loadA(int64_t fm, int64_t ks) {
    Value m0 = im.add(warpRow, fm * 16);
    if (info.options.ldmatrix) {
      if (layoutA == Layout::Row) {
        // Lanes 0-15 address rows 0-15 of the first 16 bytes of the k-step,
        // lanes 16-31 the same rows 16 bytes further.
        Value row = im.add(m0, im.rem(lane, 16));
        return ldmatrixAtStep(ringA, stageA, row, im.div(lane, 16), ks, 4);
      }
      // Stored K x M: rows are k; lanes 8-15 and 24-31 address m + 8.
      Value row = im.add(im.add(im.mul(im.div(lane, 16), 8), im.rem(lane, 8)),
                         ks * 16);
      Value m = im.add(m0, im.mul(im.rem(im.div(lane, 8), 2), 8));
      return ldmatrix(ringA, stageA, row, im.div(im.mul(m, 2), 16), 4,
                      /*trans=*/true);
    }
    SmallVector<Value> regs;
    for (int64_t i = 0; i < 4; ++i) {
      Value m = im.add(im.add(m0, group), (i % 2) * 8);
      if (layoutA == Layout::Row) {
        Value byte = im.add(im.mul(inGroup, 4), ks * kStepBytes + (i / 2) * 16);
        regs.push_back(loadWord(ringA, stageA, m, byte));
      } else {
        Value k = im.add(im.mul(inGroup, 2), ks * 16 + (i / 2) * 8);
        regs.push_back(loadHalfPair(ringA, stageA, k, im.mul(m, 2)));
      }
    }
    return regs;
  }

  /// The B registers of n-fragments `fn` .. `fn + count - 1` (count 1 or
  /// 2), two per fragment.
  SmallVector<Value> loadB(int64_t fn, int64_t count, int64_t ks) {
    Value n0 = im.add(warpCol, fn * 8);
    if (info.options.ldmatrix) {
      if (layoutB == Layout::Col) {
        // Stored N x K: lanes 8-15 address the second 16 bytes of the
        // k-step, lanes 16-31 the next 8 columns.
        Value row = im.add(n0, im.rem(lane, 8));
        if (count == 2)
          row = im.add(row, im.mul(im.div(lane, 16), 8));
        return ldmatrixAtStep(ringB, stageB, row, im.rem(im.div(lane, 8), 2),
                              ks, 2 * count);
      }
      // Stored K x N: rows are k.
      Value row = im.add(
          im.add(im.mul(im.rem(im.div(lane, 8), 2), 8), im.rem(lane, 8)),
          ks * 16);
      Value n = n0;
      if (count == 2)
        n = im.add(n, im.mul(im.div(lane, 16), 8));
      return ldmatrix(ringB, stageB, row, im.div(im.mul(n, 2), 16),
                      2 * count, /*trans=*/true);
    }
    SmallVector<Value> regs;
    for (int64_t f = 0; f < count; ++f) {
      Value n = im.add(im.add(n0, f * 8), group);
      for (int64_t j = 0; j < 2; ++j) {
        if (layoutB == Layout::Col) {
          Value byte = im.add(im.mul(inGroup, 4), ks * kStepBytes + j * 16);
          regs.push_back(loadWord(ringB, stageB, n, byte));
        } else {
          Value k = im.add(im.mul(inGroup, 2), ks * 16 + j * 8);
          regs.push_back(loadHalfPair(ringB, stageB, k, im.mul(n, 2)));
        }
      }
    }
    return regs;
  }

private:
  /// ldmatrix of chunk `chunk` (0 or 1) of k-step `ks` of `row`, stored
  /// along K. With the XOR swizzle and rows of 64 bytes or more, the
  /// k-step's chunks are those of step 0 XOR 2 * ks (the key permutes the
  /// low three chunk bits, c + 2 * ks sets bits c does not, and lines are
  /// 128-byte aligned), so the address is step 0's XOR 32 * ks: one
  /// loop-invariant offset per row instead of one per row and k-step.
  SmallVector<Value> ldmatrixAtStep(const RingLayout &ring, Value stage,
                                    Value row, Value chunk, int64_t ks,
                                    int64_t matrices) {
    bool xorSteps = ring.swizzle == RingSwizzle::Xor && ring.rowBytes >= 64 &&
                    ks * kStepBytes < ring.rowBytes;
    if (!xorSteps || ks == 0)
      return ldmatrix(ring, stage, row, im.add(chunk, ks * 2), matrices,
                      /*trans=*/false);
    return ldmatrix(ring, stage, row, chunk, matrices, /*trans=*/false,
                    ks * kStepBytes);
  }

  /// With `xorBytes`, the 32-bit shared address is XORed with it (the
  /// kernel's shared memory is 128-byte aligned).
  SmallVector<Value> ldmatrix(const RingLayout &ring, Value stage, Value row,
                              Value chunk, int64_t matrices, bool trans,
                              int64_t xorBytes = 0) {
    Value ptr = offsetSharedPointer(b, loc, stage,
                                    ring.chunkOffset(b, loc, row, chunk));
    PtxBuilder ptx(b, loc);
    std::string regs = ptx.outputs(b.getI32Type(), "=r", matrices);
    Value address32 = sharedAddress32(b, loc, ptr);
    if (xorBytes)
      address32 = LLVM::XOrOp::create(
          b, loc, address32,
          LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(xorBytes)));
    std::string address = ptx.input(address32, "r");
    return ptx.emit(Twine("ldmatrix.sync.aligned.m8n8.x") + Twine(matrices) +
                    (trans ? ".trans" : "") + ".shared.b16 " + regs + ", [" +
                    address + "];");
  }

  Value loadWord(const RingLayout &ring, Value stage, Value row, Value byte) {
    Value ptr = offsetSharedPointer(b, loc, stage,
                                    ring.byteOffset(b, loc, row, byte));
    return LLVM::LoadOp::create(b, loc, b.getI32Type(), ptr, 4);
  }

  /// Two 16-bit elements of column byte `byte`, rows `k` and `k + 1`,
  /// packed low to high into one register.
  Value loadHalfPair(const RingLayout &ring, Value stage, Value k,
                     Value byte) {
    auto half = [&](Value row) -> Value {
      Value ptr = offsetSharedPointer(b, loc, stage,
                                      ring.byteOffset(b, loc, row, byte));
      Value h = LLVM::LoadOp::create(b, loc, b.getI16Type(), ptr, 2);
      return LLVM::ZExtOp::create(b, loc, b.getI32Type(), h);
    };
    Value lo = half(k), hi = half(im.add(k, 1));
    Value shift = LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(16));
    return LLVM::OrOp::create(b, loc, lo,
                              LLVM::ShlOp::create(b, loc, hi, shift));
  }

  OpBuilder &b;
  Location loc;
  IndexMath im;
  const KernelInfo &info;
  const RingLayout &ringA;
  Value stageA;
  Layout layoutA;
  const RingLayout &ringB;
  Value stageB;
  Layout layoutB;
  Value warpRow, warpCol;
  Value lane, group, inGroup;
};

/// One k-step's fragments: the A registers of each m-tile and the B
/// registers of each n-tile.
struct Step {
  SmallVector<SmallVector<Value>> a, b;
};

/// Loads k-step `ks` of the warp's fragments.
Step loadStep(FragmentLoader &loader, int64_t fragsM, int64_t fragsN,
              int64_t ks) {
  Step step;
  for (int64_t fm = 0; fm < fragsM; ++fm)
    step.a.push_back(loader.loadA(fm, ks));
  for (int64_t fn = 0; fn < fragsN; fn += 2) {
    int64_t count = std::min<int64_t>(2, fragsN - fn);
    SmallVector<Value> r = loader.loadB(fn, count, ks);
    for (int64_t f = 0; f < count; ++f)
      step.b.push_back({r[2 * f], r[2 * f + 1]});
  }
  return step;
}

/// The stage pointers of `a` and `b` and a fragment loader over them.
template <typename Op, typename Adaptor>
FragmentLoader makeLoader(OpBuilder &b, Location loc, const KernelInfo &info,
                          Op op, Adaptor adaptor) {
  IndexMath im{b, loc};
  const RingLayout &ringA = info.ring(op.getA());
  const RingLayout &ringB = info.ring(op.getB());
  Value stageA = offsetSharedPointer(b, loc, adaptor.getA(),
                                     im.mul(adaptor.getAStage(), ringA.stagePitch));
  Value stageB = offsetSharedPointer(b, loc, adaptor.getB(),
                                     im.mul(adaptor.getBStage(), ringB.stagePitch));
  return FragmentLoader(b, loc, info, ringA, stageA, op.getLayoutA(), ringB,
                        stageB, op.getLayoutB(), adaptor.getWarpRow(),
                        adaptor.getWarpCol());
}

/// Steps in the order of getFragmentArrayType: per step, A then B.
Value packSteps(OpBuilder &b, Location loc, Type arrayType,
                ArrayRef<Step> steps) {
  Value array = LLVM::PoisonOp::create(b, loc, arrayType);
  int64_t i = 0;
  for (const Step &step : steps)
    for (const auto *part : {&step.a, &step.b})
      for (const SmallVector<Value> &regs : *part)
        for (Value reg : regs)
          array = LLVM::InsertValueOp::create(b, loc, array, reg, i++);
  return array;
}

SmallVector<Step> unpackSteps(OpBuilder &b, Location loc, Value array,
                              int64_t steps, int64_t fragsM, int64_t fragsN,
                              const MmaSyncAtom &atom) {
  SmallVector<Step> result(steps);
  int64_t i = 0;
  auto take = [&](int regs) {
    SmallVector<Value> values;
    for (int r = 0; r < regs; ++r)
      values.push_back(LLVM::ExtractValueOp::create(b, loc, array, i++));
    return values;
  };
  for (Step &step : result) {
    for (int64_t fm = 0; fm < fragsM; ++fm)
      step.a.push_back(take(atom.fact.regsA));
    for (int64_t fn = 0; fn < fragsN; ++fn)
      step.b.push_back(take(atom.fact.regsB));
  }
  return result;
}

/// A warp's fragments for a slice of a stage, into registers.
struct LoadFragsLowering : public KernelPattern<LoadFragsOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(LoadFragsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const MmaSyncAtom &atom = info.atom;
    FragsType type = op.getResult().getType();
    FragmentLoader loader = makeLoader(rewriter, loc, info, op, adaptor);
    int64_t first = op.getKSlice()[0] / atom.k();
    SmallVector<Step> steps;
    for (int64_t ks = first; ks < first + type.getDepth() / atom.k(); ++ks)
      steps.push_back(loadStep(loader, type.getRows() / atom.m(),
                               type.getCols() / atom.n(), ks));
    rewriter.replaceOp(
        op, packSteps(rewriter, loc,
                      getTypeConverter()->convertType(type), steps));
    return success();
  }
};

/// The warp's k-steps: fragments of step s + 1 are loaded before the mma of
/// step s, so shared-memory latency hides behind tensor-core work. With
/// `using`, the first steps come from registers.
struct MmaTileLowering : public KernelPattern<MmaTileOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(MmaTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const MmaSyncAtom &atom = info.atom;
    AccumulatorType accType = op.getAcc().getType();
    int64_t fragsM = accType.getRows() / atom.m();
    int64_t fragsN = accType.getCols() / atom.n();
    auto [kBegin, kEnd] = op.getKRange();
    int64_t firstStep = kBegin / atom.k(), endStep = kEnd / atom.k();
    int regs = atom.fact.regsAcc;

    FragmentLoader loader = makeLoader(rewriter, loc, info, op, adaptor);
    SmallVector<Step> given;
    if (Value frags = adaptor.getFrags())
      given = unpackSteps(rewriter, loc, frags,
                          cast<FragsType>(op.getFrags().getType()).getDepth() /
                              atom.k(),
                          fragsM, fragsN, atom);
    auto load = [&](int64_t ks) {
      if (ks - firstStep < static_cast<int64_t>(given.size()))
        return given[ks - firstStep];
      return loadStep(loader, fragsM, fragsN, ks);
    };

    SmallVector<Value> acc = unpackAccumulator(rewriter, loc, adaptor.getAcc());
    Step current = load(firstStep);
    for (int64_t ks = firstStep; ks < endStep; ++ks) {
      std::optional<Step> next;
      if (ks + 1 < endStep)
        next = load(ks + 1);
      for (int64_t fm = 0; fm < fragsM; ++fm) {
        for (int64_t j = 0; j < fragsN; ++j) {
          // Serpentine order keeps one B fragment live across rows.
          int64_t fn = fm % 2 ? fragsN - 1 - j : j;
          auto c = MutableArrayRef<Value>(acc).slice((fm * fragsN + fn) * regs,
                                                    regs);
          SmallVector<Value> d = atom.mma(rewriter, loc, current.a[fm],
                                          current.b[fn], c);
          llvm::copy(d, c.begin());
        }
      }
      if (next)
        current = std::move(*next);
    }
    rewriter.replaceOp(
        op, packAccumulator(rewriter, loc, adaptor.getAcc().getType(), acc));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

/// Once every copy has landed and every warp is past its last mma, the
/// rings are dead: each warp writes 16 rows of its accumulator at a time to
/// its slab there, then its lanes read 16-byte pieces of C's worth of
/// elements and write them with one vector store each.
struct StoreTileLowering : public KernelPattern<StoreTileOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(StoreTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath im{rewriter, loc};
    const MmaSyncAtom &atom = info.atom;
    AccumulatorType accType = op.getAcc().getType();
    int64_t fragsM = accType.getRows() / atom.m();
    int64_t fragsN = accType.getCols() / atom.n();
    int regs = atom.fact.regsAcc;
    Type accElement = accType.getElementType();
    Type cElement = op.getDst().getType().getElementType();
    int64_t accBytes = getElementBits(accElement) / 8;
    int64_t perVector = 16 / (getElementBits(cElement) / 8);

    if (info.options.asyncCopy)
      PtxBuilder(rewriter, loc).emit("cp.async.wait_group 0;");
    gpu::BarrierOp::create(rewriter, loc);

    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value warp = im.div(tid, 32), lane = im.rem(tid, 32);
    Value group = im.div(lane, 4), inGroup = im.rem(lane, 4);
    Value slab = getScratchPointer(rewriter, loc, info.plan, info.module,
                                   im.mul(warp, 16 * info.slabPitch));
    Value mask = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
    // A null `whole` stores every vector unguarded.
    Value whole = op.getInBounds()
                      ? Value()
                      : isWholeAlignedTile(rewriter, loc, adaptor.getDst(),
                                           adaptor.getRow(), adaptor.getCol(),
                                           accType.getRows(), accType.getCols());
    // Accumulator registers 2r, 2r + 1 are row g + 8r, columns 2t, 2t + 1;
    // packed f16x2 registers hold both columns in one.
    int64_t pairsPerReg = accElement.isF16() ? 2 : 1;
    Type pairType = VectorType::get({2 / pairsPerReg},
                                    atom.accReg);

    SmallVector<Value> acc =
        unpackAccumulator(rewriter, loc, adaptor.getAcc());
    for (int64_t fm = 0; fm < fragsM; ++fm) {
      for (int64_t fn = 0; fn < fragsN; ++fn) {
        auto c = ArrayRef<Value>(acc).slice((fm * fragsN + fn) * regs, regs);
        int64_t perRow = regs / 2;
        for (int64_t r = 0; r < 2; ++r) {
          Value row = im.add(group, r * 8);
          Value col = im.add(im.mul(inGroup, 2), fn * 8);
          Value ptr = offsetSharedPointer(
              rewriter, loc, slab,
              im.add(im.mul(row, info.slabPitch), im.mul(col, accBytes)));
          Value value;
          if (perRow == 1) {
            value = c[r];
          } else {
            value = LLVM::PoisonOp::create(rewriter, loc, pairType);
            for (int64_t i = 0; i < perRow; ++i)
              value = LLVM::InsertElementOp::create(
                  rewriter, loc, value, c[r * perRow + i],
                  LLVM::ConstantOp::create(rewriter, loc,
                                           rewriter.getI32IntegerAttr(i)));
          }
          LLVM::StoreOp::create(rewriter, loc, value, ptr, 2 * accBytes);
        }
      }
      NVVM::SyncWarpOp::create(rewriter, loc, mask);
      forEachTileChunk(
          rewriter, loc, 16, accType.getCols() / perVector, 32, lane,
          [&](OpBuilder &b, Value row, Value piece, bool) {
            IndexMath m{b, loc};
            Value col = m.mul(piece, perVector);
            Value from = offsetSharedPointer(
                b, loc, slab,
                m.add(m.mul(row, info.slabPitch), m.mul(col, accBytes)));
            Value v = LLVM::LoadOp::create(
                b, loc, VectorType::get({perVector}, accElement), from,
                std::min<int64_t>(16, perVector * accBytes));
            storeEpilogueVector(
                b, loc, v, adaptor.getDst(),
                m.add(adaptor.getRow(), m.add(row, fm * atom.m())),
                m.add(adaptor.getCol(), col), op.getAlphaValue(),
                op.getBetaValue(), 16, whole);
          });
      // The next 16 rows overwrite the slab.
      NVVM::SyncWarpOp::create(rewriter, loc, mask);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowerToPTXPass
    : public mlir::tgemm::impl::TGemmLowerToPTXBase<LowerToPTXPass> {
  using Base::Base;

  LogicalResult lowerKernel(gpu::GPUFuncOp kernel) {
    FailureOr<KernelInstruction> selected =
        selectInstruction(kernel, ::tgemm::Family::MmaSync);
    if (failed(selected))
      return failure();
    MmaTileOp mma = selected->mma;
    const MmaFact *fact = selected->fact;
    if (!mma)
      return success();
    MLIRContext *ctx = kernel.getContext();
    // One mma.sync consumes 32 bytes of depth for every precision (the
    // facts table's shapes); the fragment loads are written for that.
    assert(fact->shape.k * ::tgemm::bitWidth(fact->a) / 8 == kStepBytes);
    AccumulatorType accType = mma.getAcc().getType();
    int64_t accBytes =
        getElementBits(mma.getAcc().getType().getElementType()) / 8;
    int64_t slabPitch = accType.getCols() * accBytes + 16;
    const ::tgemm::Schedule &schedule = selected->schedule;
    KernelInfo info{MmaSyncAtom(*fact, ctx),
                    selected->plan,
                    selected->threads,
                    slabPitch,
                    kernel->getParentOfType<gpu::GPUModuleOp>(),
                    Options{schedule.asyncCopy, schedule.ldmatrix}};

    return lowerTileOps(getOperation(), kernel, info.plan, *fact,
                        info.atom.accReg, "ptx",
                        [&](RewritePatternSet &patterns,
                            const TypeConverter &converter) {
                          patterns.add<CopyTileLowering, CommitCopiesLowering,
                                       WaitCopiesLowering, LoadFragsLowering,
                                       MmaTileLowering, StoreTileLowering>(
                              converter, ctx, info);
                        });
  }

  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    getOperation().walk([&](gpu::GPUFuncOp f) {
      if (isLoweredBy(f, ::tgemm::Family::MmaSync))
        kernels.push_back(f);
    });
    for (gpu::GPUFuncOp kernel : kernels)
      if (failed(lowerKernel(kernel)))
        signalPassFailure();
  }
};

} // namespace
