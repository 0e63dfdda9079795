//===- LowerToPTX.cpp - Tile ops to inline PTX ----------------------------===//
//
// The hand-written multistage kernel: cp.async copies into XOR-swizzled
// rings, ldmatrix into mma.sync fragments, an epilogue staged through
// shared memory for 16-byte stores. Every feature can be switched off.
//
// Fragment layouts are those of the PTX ISA, section "Matrix Fragments for
// mma.m16n8k*", as the facts table holds them (operandRegisterLayout,
// accumulatorLayout): with g = lane / 4 and t = lane % 4, register i of A
// holds row g + 8 * (i % 2) and bytes [4t, 4t + 4) + 16 * (i / 2) of a
// 16-row, 32-byte-deep slice; register j of B holds column g and bytes
// [4t, 4t + 4) + 16 * j of the 32-byte depth; accumulator elements 2r and
// 2r + 1 are row g + 8r, columns 2t and 2t + 1. For every precision the
// k-step of one mma.sync is 32 bytes deep, so an A fragment is four 8x8
// b16 matrices and a B fragment two: exactly what ldmatrix loads (its lane
// addressing below is the ldmatrix section's, not the table's).
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/LaneCoords.h"
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

namespace {

/// Bytes of depth one mma.sync consumes, for every precision (k x bits).
constexpr int64_t kStepBytes = 32;
/// The transposed fragment loads move 16-bit elements.
constexpr int64_t kHalfBytes = 2;

/// One mma.sync instruction of the facts table, and the PTX that issues it.
struct MmaSyncAtom {
  const MmaFact &fact;
  Type accReg;            // f32, or i32 for s32 and packed f16x2
  StringRef accConstraint; // "f" or "r"

  MmaSyncAtom(const MmaFact &fact, MLIRContext *ctx) : fact(fact) {
    bool f32 = fact.acc == ElemKind::F32;
    accReg = accumulatorRegisterType(ctx, fact);
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
    return ptx.emit(::tgemm::ptxMnemonic(fact) + " " + d + ", " + aList +
                    ", " + bList + ", " + cList + ";");
  }
};

/// The ptx lowering of one kernel: cp.async, ldmatrix and mma.sync as
/// inline PTX, and an epilogue staged through 16-row slabs.
class PtxLowering : public CpAsyncLowering {
public:
  static constexpr ::tgemm::Family family = ::tgemm::Family::MmaSync;

  PtxLowering(gpu::GPUFuncOp kernel, const KernelInstruction &selected);
  static FailureOr<std::unique_ptr<KernelLowering>>
  create(gpu::GPUFuncOp kernel, const KernelInstruction &selected) {
    return std::unique_ptr<KernelLowering>(
        std::make_unique<PtxLowering>(kernel, selected));
  }

  Type getAccumulatorRegister() const override { return atom.accReg; }
  void populatePatterns(RewritePatternSet &patterns,
                        const TypeConverter &converter) const override;

  MmaSyncAtom atom;
  bool ldmatrix;     // else fragments load with ld.shared
  /// The accumulator's rows (A) or columns (B) as a byte-permuted operand
  /// leaves them (::tgemm::OperandPath::BytePermute).
  FragmentOrder order;
};

PtxLowering::PtxLowering(gpu::GPUFuncOp kernel,
                         const KernelInstruction &selected)
    : CpAsyncLowering(kernel, selected),
      atom(*selected.fact, kernel.getContext()),
      ldmatrix(selected.schedule.ldmatrix) {
  if (MmaTileOp mma = selected.mma) {
    auto permuted = [&](::tgemm::ElemKind type, bool kMajor) {
      return ::tgemm::operandPath(family, type, kMajor, ldmatrix) ==
             ::tgemm::OperandPath::BytePermute;
    };
    order.interleavedRows = permuted(fact.a, mma.getLayoutA() == Layout::Row);
    order.interleavedCols = permuted(fact.b, mma.getLayoutB() == Layout::Col);
  }
  // One mma.sync consumes 32 bytes of depth for every precision (the
  // facts table's shapes); the fragment loads are written for that.
  assert(fact.shape.k * ::tgemm::bitWidth(fact.a) / 8 == kStepBytes);
}

//===----------------------------------------------------------------------===//
// Fragments and mma.sync
//===----------------------------------------------------------------------===//

/// Loads the fragments of one warp from one stage of the A and B rings.
class FragmentLoader {
public:
  FragmentLoader(OpBuilder &b, Location loc, const MmaFact &fact,
                 bool ldmatrix, const RingLayout &ringA, Value stageA,
                 Layout layoutA, const RingLayout &ringB, Value stageB,
                 Layout layoutB, Value warpRow, Value warpCol)
      : b(b), loc(loc), im{b, loc}, fact(fact), useLdmatrix(ldmatrix),
        ringA(ringA), stageA(stageA), layoutA(layoutA), ringB(ringB),
        stageB(stageB), layoutB(layoutB), warpRow(warpRow), warpCol(warpCol),
        regsA(::tgemm::operandRegisterLayout(fact, ::tgemm::MmaOperand::A)),
        regsB(::tgemm::operandRegisterLayout(fact, ::tgemm::MmaOperand::B)),
        pathA(*::tgemm::operandPath(fact.family, fact.a,
                                    layoutA == Layout::Row, ldmatrix)),
        pathB(*::tgemm::operandPath(fact.family, fact.b,
                                    layoutB == Layout::Col, ldmatrix)) {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    lane = im.rem(tid, 32);
    // A and B share their lane modes (groupID, threadID_in_group).
    laneRegs = LaneCoords(im, regsA.laneModes, lane);
    assert(laneRegs.isLaneOf(regsB) && "A and B lanes differ");
  }

  /// The 4 registers of the A fragment for m-fragment `fm`, k-step `ks`.
  SmallVector<Value> loadA(int64_t fm, int64_t ks) {
    Value m0 = im.add(warpRow, fm * 16);
    if (pathA == ::tgemm::OperandPath::BytePermute) {
      // Rows g and g + 8 of the fragment are m = 2g and 2g + 1 of the 16.
      auto [even, odd] = loadBytePermuted(ringA, stageA, m0, ks);
      return {even[0], odd[0], even[1], odd[1]};
    }
    if (useLdmatrix && pathA == ::tgemm::OperandPath::Native) {
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
    // ld.shared of each register where the layout puts it: a word along k
    // (A stored M x K), or two 16-bit elements of consecutive k (K x M).
    SmallVector<Value> regs;
    for (int64_t i = 0; i < regsA.numValues(); ++i) {
      ::tgemm::TileCoord at = regsA.valueCoord(i);
      Value m = laneRegs.row(im, at.row, m0);
      int64_t byte = ks * kStepBytes + at.col;
      if (layoutA == Layout::Row) {
        regs.push_back(
            loadWord(ringA, stageA, m, laneRegs.col(im, byte)));
      } else if (elementBytes != kHalfBytes) {
        regs.push_back(loadAlongK(ringA, stageA, byte, m));
      } else {
        Value k = laneRegs.col(im, byte / kHalfBytes, Value(), kHalfBytes);
        regs.push_back(loadHalfPair(ringA, stageA, k, im.mul(m, kHalfBytes)));
      }
    }
    return regs;
  }

  /// The B registers of n-fragments `fn` .. `fn + count - 1` (count 1 or
  /// 2), two per fragment.
  SmallVector<Value> loadB(int64_t fn, int64_t count, int64_t ks) {
    Value n0 = im.add(warpCol, fn * 8);
    if (pathB == ::tgemm::OperandPath::BytePermute) {
      // Fragment fn holds columns n0 + 2g, fragment fn + 1 n0 + 2g + 1.
      assert(count == 2 && "a byte-permuted B fills n-fragments in pairs");
      auto [even, odd] = loadBytePermuted(ringB, stageB, n0, ks);
      return {even[0], even[1], odd[0], odd[1]};
    }
    if (useLdmatrix && pathB == ::tgemm::OperandPath::Native) {
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
    // As for A: a word along k (B stored N x K), or two 16-bit elements of
    // consecutive k (K x N). Every B register of a lane is one column n.
    SmallVector<Value> regs;
    for (int64_t f = 0; f < count; ++f) {
      Value n = laneRegs.row(im, 0, im.add(n0, f * fact.shape.n));
      for (int64_t j = 0; j < regsB.numValues(); ++j) {
        ::tgemm::TileCoord at = regsB.valueCoord(j);
        assert(at.row == 0 && "a B register off its lane's column");
        int64_t byte = ks * kStepBytes + at.col;
        if (layoutB == Layout::Col) {
          regs.push_back(loadWord(ringB, stageB, n, laneRegs.col(im, byte)));
        } else if (elementBytes != kHalfBytes) {
          regs.push_back(loadAlongK(ringB, stageB, byte, n));
        } else {
          Value k = laneRegs.col(im, byte / kHalfBytes, Value(), kHalfBytes);
          regs.push_back(
              loadHalfPair(ringB, stageB, k, im.mul(n, kHalfBytes)));
        }
      }
    }
    return regs;
  }

private:
  /// The two register pairs of an 8-bit MN-major operand (rows are k) at
  /// the 16 m or n from `first` (a multiple of 16), k-step `ks`: `even`
  /// holds m or n = first + 2g, `odd` first + 2g + 1, each as the k 4t..4t+3
  /// (register 0) and 16 + 4t.. (register 1) of the lane's group g and
  /// thread t in it. ldmatrix.trans gives lane (g, t) of each 8 x 8 matrix
  /// of 16-bit pieces the pieces at rows 2t and 2t + 1, column g: a byte
  /// pair of 2g, 2g + 1 from each of two rows. Matrix j's row i is k-row
  /// 4 (i / 2) + i % 2 + {0, 2, 16, 18}[j], so that the lane's two rows of
  /// matrices 0 and 1 are k 4t..4t+3 (16 more in matrices 2 and 3); prmt
  /// then takes the lane's even bytes (0x6420) and its odd ones (0x7531).
  std::pair<std::array<Value, 2>, std::array<Value, 2>>
  loadBytePermuted(const RingLayout &ring, Value stage, Value first,
                   int64_t ks) {
    Value i = im.rem(lane, 8), j = im.div(lane, 8);
    Value row = im.add(im.add(im.mul(im.div(i, 2), 4), im.rem(i, 2)),
                       im.add(im.mul(im.rem(j, 2), 2),
                              im.mul(im.div(j, 2), 16)));
    row = im.add(row, ks * kStepBytes);
    SmallVector<Value> r = ldmatrix(ring, stage, row, im.div(first, 16), 4,
                                    /*trans=*/true);
    auto permute = [&](Value lo, Value hi, StringRef selector) {
      PtxBuilder ptx(b, loc);
      std::string d = ptx.output(b.getI32Type(), "=r");
      std::string x = ptx.input(lo, "r"), y = ptx.input(hi, "r");
      return ptx.emit(("prmt.b32 " + d + ", " + x + ", " + y + ", " +
                       selector + ";")
                          .str(),
                      /*sideEffects=*/false)
          .front();
    };
    return {{permute(r[0], r[1], "0x6420"), permute(r[2], r[3], "0x6420")},
            {permute(r[0], r[1], "0x7531"), permute(r[2], r[3], "0x7531")}};
  }

  /// One register of an MN-major operand of 8 or 32-bit elements (rows are
  /// k): the lane's k at byte `byte` of the k-step's depth, at column
  /// `mn`. 8-bit: four bytes of k .. k + 3, low to high; tf32: one word.
  Value loadAlongK(const RingLayout &ring, Value stage, int64_t byte,
                   Value mn) {
    Value k = laneRegs.col(im, byte / elementBytes, Value(), elementBytes);
    if (elementBytes == 4)
      return loadWord(ring, stage, k, im.mul(mn, 4));
    assert(elementBytes == 1 && "8 or 32-bit elements");
    Value word;
    for (int64_t i = 0; i < 4; ++i) {
      Value ptr = offsetSharedPointer(
          b, loc, stage, ring.byteOffset(b, loc, im.add(k, i), mn));
      Value v = LLVM::ZExtOp::create(
          b, loc, b.getI32Type(),
          LLVM::LoadOp::create(b, loc, b.getI8Type(), ptr, 1));
      if (i)
        v = LLVM::ShlOp::create(
            b, loc, v,
            LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(8 * i)));
      word = i ? LLVM::OrOp::create(b, loc, word, v).getResult() : v;
    }
    return word;
  }

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
    return ptx.emit(::tgemm::ldmatrixMnemonic(matrices, trans) + " " + regs +
                    ", [" + address + "];");
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
  const MmaFact &fact;
  bool useLdmatrix;
  const RingLayout &ringA;
  Value stageA;
  Layout layoutA;
  const RingLayout &ringB;
  Value stageB;
  Layout layoutB;
  Value warpRow, warpCol;
  const ::tgemm::FragmentLayout &regsA, &regsB; // in registers and bytes
  ::tgemm::OperandPath pathA, pathB;
  int64_t elementBytes = ::tgemm::bitWidth(fact.a) / 8;
  Value lane;
  LaneCoords laneRegs; // the lane's part of both
};

/// Loads k-step `ks` of the warp's fragments.
FragmentStep loadStep(FragmentLoader &loader, int64_t fragsM, int64_t fragsN,
                      int64_t ks) {
  FragmentStep step;
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
FragmentLoader makeLoader(OpBuilder &b, Location loc,
                          const PtxLowering &lowering, Op op, Adaptor adaptor) {
  const RingLayout &ringA = lowering.ring(op.getA());
  const RingLayout &ringB = lowering.ring(op.getB());
  Value stageA =
      ringA.stagePointer(b, loc, adaptor.getA(), adaptor.getAStage());
  Value stageB =
      ringB.stagePointer(b, loc, adaptor.getB(), adaptor.getBStage());
  return FragmentLoader(b, loc, lowering.fact, lowering.ldmatrix, ringA,
                        stageA,
                        op.getLayoutA(), ringB, stageB, op.getLayoutB(),
                        adaptor.getWarpRow(), adaptor.getWarpCol());
}

/// Steps in the order of getFragmentArrayType: per step, A then B.
Value packSteps(OpBuilder &b, Location loc, Type arrayType,
                ArrayRef<FragmentStep> steps) {
  Value array = LLVM::PoisonOp::create(b, loc, arrayType);
  int64_t i = 0;
  for (const FragmentStep &step : steps)
    for (const auto *part : {&step.a, &step.b})
      for (const SmallVector<Value> &regs : *part)
        for (Value reg : regs)
          array = LLVM::InsertValueOp::create(b, loc, array, reg, i++);
  return array;
}

SmallVector<FragmentStep> unpackSteps(OpBuilder &b, Location loc, Value array,
                                      int64_t steps, int64_t fragsM,
                                      int64_t fragsN, const MmaSyncAtom &atom) {
  SmallVector<FragmentStep> result(steps);
  int64_t i = 0;
  auto take = [&](int regs) {
    SmallVector<Value> values;
    for (int r = 0; r < regs; ++r)
      values.push_back(LLVM::ExtractValueOp::create(b, loc, array, i++));
    return values;
  };
  for (FragmentStep &step : result) {
    for (int64_t fm = 0; fm < fragsM; ++fm)
      step.a.push_back(take(atom.fact.regsA));
    for (int64_t fn = 0; fn < fragsN; ++fn)
      step.b.push_back(take(atom.fact.regsB));
  }
  return result;
}

/// A warp's fragments for a slice of a stage, into registers.
struct LoadFragsLowering : public KernelPattern<LoadFragsOp, PtxLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(LoadFragsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const MmaSyncAtom &atom = lowering.atom;
    FragsType type = op.getResult().getType();
    FragmentLoader loader = makeLoader(rewriter, loc, lowering, op, adaptor);
    int64_t first = op.getKSlice()[0] / atom.k();
    SmallVector<FragmentStep> steps;
    for (int64_t ks = first; ks < first + type.getDepth() / atom.k(); ++ks)
      steps.push_back(loadStep(loader, type.getRows() / atom.m(),
                               type.getCols() / atom.n(), ks));
    rewriter.replaceOp(
        op, packSteps(rewriter, loc,
                      getTypeConverter()->convertType(type), steps));
    return success();
  }
};

/// The warp's k-steps, each step's fragments loaded during the mma of the
/// one before; with `using`, the first steps come from registers.
class MmaSyncStepper : public MmaStepper {
public:
  MmaSyncStepper(OpBuilder &b, Location loc, const PtxLowering &lowering,
                 MmaTileOp op, MmaTileOp::Adaptor adaptor)
      : MmaStepper(b, loc, op, lowering.fact, /*prefetch=*/true,
                   /*serpentine=*/true),
        atom(lowering.atom), loader(makeLoader(b, loc, lowering, op, adaptor)),
        first(op.getKRange().first / atom.k()) {
    if (Value regs = adaptor.getFrags())
      given = unpackSteps(b, loc, regs,
                          cast<FragsType>(op.getFrags().getType()).getDepth() /
                              atom.k(),
                          frags.fragsM, frags.fragsN, atom);
  }

  FragmentStep load(int64_t ks) override {
    if (ks - first < static_cast<int64_t>(given.size()))
      return given[ks - first];
    return loadStep(loader, frags.fragsM, frags.fragsN, ks);
  }

  SmallVector<Value> mma(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                         ArrayRef<Value> c) override {
    return atom.mma(b, loc, a, bRegs, c);
  }

private:
  const MmaSyncAtom &atom;
  FragmentLoader loader;
  int64_t first;                   // the first k-step
  SmallVector<FragmentStep> given; // the steps `using` brings
};

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

/// The m16n8 accumulator of mma.sync, staged through 16-row slabs.
struct PtxSlabStaging : public SlabStaging {
  PtxSlabStaging(OpBuilder &b, Location loc, const PtxLowering &lowering,
                 StoreTileOp op, StoreTileOp::Adaptor adaptor)
      : SlabStaging(b, loc, lowering, op, adaptor, lowering.atom.accReg,
                    lowering.order) {}
};

void PtxLowering::populatePatterns(RewritePatternSet &patterns,
                                   const TypeConverter &converter) const {
  patterns.add<LoadFragsLowering, MmaTileLowering<PtxLowering, MmaSyncStepper>,
               StoreTileLowering<PtxLowering, PtxSlabStaging>>(
      converter, patterns.getContext(), *this);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowerToPTXPass
    : public KernelLoweringPass<
          mlir::tgemm::impl::TGemmLowerToPTXBase<LowerToPTXPass>, PtxLowering> {
  using KernelLoweringPass::KernelLoweringPass;
};

} // namespace
