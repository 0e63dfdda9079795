//===- LowerToWMMA.cpp - Tile ops to WMMA instructions --------------------===//
//
// The code a CUDA programmer gets from nvcuda::wmma: synchronous 16-byte
// global->shared copies, wmma.load / wmma.mma from padded shared-memory
// tiles, wmma.store of the accumulators.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/Passes.h"
#include "tgemm/Conversion/TileLowering.h"
#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/KernelManifest.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMLOWERTOWMMA
#include "tgemm/Conversion/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;
using ::tgemm::ElemKind;
using ::tgemm::MmaFact;

namespace {

//===----------------------------------------------------------------------===//
// The WMMA instruction of one precision
//===----------------------------------------------------------------------===//

enum class Frag { A, B };

NVVM::MMATypes toMmaType(ElemKind kind) {
  switch (kind) {
  case ElemKind::F16:
    return NVVM::MMATypes::f16;
  case ElemKind::BF16:
    return NVVM::MMATypes::bf16;
  case ElemKind::TF32:
    return NVVM::MMATypes::tf32;
  case ElemKind::S8:
    return NVVM::MMATypes::s8;
  case ElemKind::U8:
    return NVVM::MMATypes::u8;
  case ElemKind::S4:
    return NVVM::MMATypes::s4;
  case ElemKind::F32:
    return NVVM::MMATypes::f32;
  case ElemKind::S32:
    return NVVM::MMATypes::s32;
  case ElemKind::E4M3:
  case ElemKind::E5M2:
    break;
  }
  llvm_unreachable("no WMMA type for this kind");
}

NVVM::MMALayout toMmaLayout(Layout layout) {
  return layout == Layout::Row ? NVVM::MMALayout::row : NVVM::MMALayout::col;
}

/// Fragment register types and the ops that load, multiply and store the
/// fragments of one WMMA instruction (an entry of the instruction facts).
class WmmaAtom {
public:
  WmmaAtom(const MmaFact &fact, MLIRContext *ctx) : fact(fact) {
    Type i32 = IntegerType::get(ctx, 32);
    Type f16x2 = VectorType::get({2}, Float16Type::get(ctx));
    regA = fact.a == ElemKind::F16 ? f16x2 : i32;
    switch (fact.acc) {
    case ElemKind::F32:
      regAcc = Float32Type::get(ctx);
      break;
    case ElemKind::F16:
      regAcc = f16x2;
      break;
    default:
      regAcc = i32;
    }
    // The NVVM dialect has ops for these precisions; the rest go through the
    // LLVM intrinsics of the same instructions.
    nvvmOps = fact.a == ElemKind::F16 || fact.a == ElemKind::TF32 ||
              fact.a == ElemKind::S8 || fact.a == ElemKind::U8;
    nvvmStore = fact.shape.m == 16 && fact.shape.n == 16;
  }

  int64_t m() const { return fact.shape.m; }
  int64_t n() const { return fact.shape.n; }
  int64_t k() const { return fact.shape.k; }
  int regsAcc() const { return fact.regsAcc; }
  Type accRegType() const { return regAcc; }

  /// Loads an A or B fragment from shared memory at `ptr`, rows `stride`
  /// elements apart.
  SmallVector<Value> load(OpBuilder &b, Location loc, Frag frag, Value ptr,
                          Value stride, Layout layout) const {
    int regs = frag == Frag::A ? fact.regsA : fact.regsB;
    Type result = structOf(b.getContext(), regA, regs);
    Value value;
    if (nvvmOps) {
      value = NVVM::WMMALoadOp::create(
          b, loc, result, ptr, stride, m(), n(), k(), toMmaLayout(layout),
          toMmaType(fact.a),
          frag == Frag::A ? NVVM::MMAFrag::a : NVVM::MMAFrag::b);
    } else {
      std::string name = (Twine("llvm.nvvm.wmma.") + geometry() + ".load." +
                          (frag == Frag::A ? "a" : "b") + "." +
                          stringifyLayout(layout) + ".stride." +
                          ::tgemm::ptxName(fact.a))
                             .str();
      value = callIntrinsic(b, loc, name, result, {ptr, stride});
    }
    return unpack(b, loc, value, regs);
  }

  /// d = a * b + c on fragments.
  SmallVector<Value> mma(OpBuilder &b, Location loc, ArrayRef<Value> a,
                         ArrayRef<Value> bRegs, ArrayRef<Value> c,
                         Layout layoutA, Layout layoutB) const {
    SmallVector<Value> args(a);
    llvm::append_range(args, bRegs);
    llvm::append_range(args, c);
    Type result = structOf(b.getContext(), regAcc, fact.regsAcc);
    Value d;
    if (nvvmOps) {
      d = NVVM::WMMAMmaOp::create(b, loc, result, m(), n(), k(),
                                  toMmaLayout(layoutA), toMmaLayout(layoutB),
                                  toMmaType(fact.a), toMmaType(fact.acc), args);
    } else {
      std::string name = (Twine("llvm.nvvm.wmma.") + geometry() + ".mma." +
                          stringifyLayout(layoutA) + "." +
                          stringifyLayout(layoutB) + "." +
                          ::tgemm::ptxName(fact.a))
                             .str();
      d = callIntrinsic(b, loc, name, result, args);
    }
    return unpack(b, loc, d, fact.regsAcc);
  }

  /// Stores an accumulator fragment row-major at `ptr`, rows `stride`
  /// elements apart.
  void store(OpBuilder &b, Location loc, Value ptr, ArrayRef<Value> d,
             Value stride) const {
    if (nvvmStore) {
      NVVM::WMMAStoreOp::create(b, loc, ptr, m(), n(), k(),
                                NVVM::MMALayout::row, toMmaType(fact.acc), d,
                                stride);
      return;
    }
    std::string name = (Twine("llvm.nvvm.wmma.") + geometry() +
                        ".store.d.row.stride." + ::tgemm::ptxName(fact.acc))
                           .str();
    SmallVector<Value> args{ptr};
    llvm::append_range(args, d);
    args.push_back(stride);
    callIntrinsic(b, loc, name, Type(), args);
  }

private:
  std::string geometry() const {
    return (Twine("m") + Twine(m()) + "n" + Twine(n()) + "k" + Twine(k()))
        .str();
  }

  static Type structOf(MLIRContext *ctx, Type reg, int regs) {
    if (regs == 1)
      return reg;
    return LLVM::LLVMStructType::getLiteral(ctx,
                                            SmallVector<Type>(regs, reg));
  }

  static SmallVector<Value> unpack(OpBuilder &b, Location loc, Value value,
                                   int regs) {
    if (regs == 1)
      return {value};
    SmallVector<Value> out;
    for (int i = 0; i < regs; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, loc, value, i));
    return out;
  }

  static Value callIntrinsic(OpBuilder &b, Location loc, StringRef name,
                             Type result, ValueRange args) {
    StringAttr intrinsic = b.getStringAttr(name);
    if (!result) {
      LLVM::CallIntrinsicOp::create(b, loc, intrinsic, args);
      return Value();
    }
    return LLVM::CallIntrinsicOp::create(b, loc, result, intrinsic, args)
        .getResult(0);
  }

  const MmaFact &fact;
  Type regA, regAcc;
  bool nvvmOps, nvvmStore;
};

//===----------------------------------------------------------------------===//
// Per-kernel state shared by the patterns
//===----------------------------------------------------------------------===//

struct KernelInfo {
  WmmaAtom atom;
  KernelMemoryPlan plan;
  int64_t threads;
  int64_t scratchPerWarp;
  gpu::GPUModuleOp module;
  bool asyncCopy; // cp.async for copies marked `async`

  /// Bytes of per-warp scratch the epilogue stages one fragment through.
  static int64_t scratchBytesPerWarp(const MmaFact &fact) {
    return fact.shape.m * fact.shape.n * ::tgemm::bitWidth(fact.acc) / 8;
  }
  const RingLayout &ring(Value smem) const {
    return plan.rings.at(smem.getDefiningOp());
  }
};

/// Byte offset of `elements` elements of `bits` bits each.
Value elementBytes(IndexMath &im, Value elements, int64_t bits) {
  return bits >= 8 ? im.mul(elements, bits / 8) : im.div(elements, 8 / bits);
}

template <typename Op>
struct KernelPattern : public OpConversionPattern<Op> {
  KernelPattern(const TypeConverter &converter, MLIRContext *ctx,
                const KernelInfo &info)
      : OpConversionPattern<Op>(converter, ctx), info(info) {}
  const KernelInfo &info;
};

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// With `async` (and the pass's async-copy): every thread issues
/// `nvvm.cp.async` copies of 16 bytes, what `__pipeline_memcpy_async` gives
/// a CUDA programmer; copies past the last k-tile (`if %p` false) copy no
/// bytes (source size 0). Else, and for tiles at an operand's edge, every
/// thread copies its 16-byte chunks through registers, as pre-Ampere WMMA
/// kernels do.
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
    int64_t rows = op.getDst().getType().getRows();
    // Predicated by the source size: no branch in the k-loop.
    emitTileCopy(
        rewriter, loc, op, adaptor.getSrc(), adaptor.getRow(),
        adaptor.getCol(), adaptor.getPredicate(), isAsync(op),
        [&](OpBuilder &b, Value predicate) {
          emitWholeCopy(b, loc, op, adaptor, stageBase, ring, predicate);
        },
        [&](OpBuilder &b) {
          emitGuardedTileCopy(b, loc, adaptor.getSrc(), adaptor.getRow(),
                              adaptor.getCol(), stageBase, ring, rows,
                              info.threads);
        });
    rewriter.eraseOp(op);
    return success();
  }

  bool isAsync(CopyTileOp op) const {
    return op.getAsync() && info.asyncCopy;
  }

  /// The copy of a tile inside its operand with 16-byte aligned rows:
  /// cp.async where `isAsync`, and given a `predicate` each copy reads 16
  /// bytes where it holds and none (a zero fill) where not; else through
  /// registers.
  void emitWholeCopy(OpBuilder &rewriter, Location loc, CopyTileOp op,
                     OpAdaptor adaptor, Value stageBase, const RingLayout &ring,
                     Value predicate) const {
    int64_t rows = op.getDst().getType().getRows();
    if (!isAsync(op)) {
      emitSyncTileCopy(rewriter, loc, adaptor.getSrc(), adaptor.getRow(),
                       adaptor.getCol(), stageBase, ring, rows, info.threads);
      return;
    }
    Value sourceBytes;
    if (predicate) {
      Type i32 = rewriter.getI32Type();
      sourceBytes = arith::SelectOp::create(
          rewriter, loc, predicate,
          arith::ConstantIntOp::create(rewriter, loc, i32, 16),
          arith::ConstantIntOp::create(rewriter, loc, i32, 0));
    }
    forEachWholeTileChunk(
        rewriter, loc, adaptor.getSrc(), adaptor.getRow(), adaptor.getCol(),
        stageBase, ring, rows, info.threads,
        [&](OpBuilder &b, Value from, Value to) {
          NVVM::CpAsyncOp::create(b, loc, to, from, /*size=*/16,
                                  NVVM::LoadCacheModifierKind::CG,
                                  sourceBytes);
        });
  }
};

/// Copies without `async` are synchronous: their groups and waits have
/// nothing to do.
struct CommitCopiesLowering : public KernelPattern<CommitCopiesOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(CommitCopiesOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (info.asyncCopy)
      NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitCopiesLowering : public KernelPattern<WaitCopiesOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(WaitCopiesOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (info.asyncCopy)
      NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(),
                                       op.getPending());
    rewriter.eraseOp(op);
    return success();
  }
};

/// For each k-step: load the warp's A fragments and B fragments, then one
/// wmma.mma per accumulator fragment.
struct MmaTileLowering : public KernelPattern<MmaTileOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(MmaTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath im{rewriter, loc};
    const WmmaAtom &atom = info.atom;
    const RingLayout &ringA = info.ring(op.getA());
    const RingLayout &ringB = info.ring(op.getB());
    AccumulatorType accType = op.getAcc().getType();
    int64_t fragsM = accType.getRows() / atom.m();
    int64_t fragsN = accType.getCols() / atom.n();
    auto [kBegin, kEnd] = op.getKRange();
    Layout layoutA = op.getLayoutA(), layoutB = op.getLayoutB();

    Value baseA = offsetSharedPointer(rewriter, loc, adaptor.getA(),
                                      im.mul(adaptor.getAStage(), ringA.stagePitch));
    Value baseB = offsetSharedPointer(rewriter, loc, adaptor.getB(),
                                      im.mul(adaptor.getBStage(), ringB.stagePitch));
    Value strideA = arith::ConstantIntOp::create(rewriter, loc,
                                                 ringA.pitchElements(), 32);
    Value strideB = arith::ConstantIntOp::create(rewriter, loc,
                                                 ringB.pitchElements(), 32);
    // Byte offset of logical element (outer, depth) in a ring whose tiles
    // are stored outer-major when `outerMajor`.
    auto offset = [&](const RingLayout &ring, bool outerMajor, Value outer,
                      int64_t depth) {
      Value d = im.c(depth);
      Value row = outerMajor ? outer : d, col = outerMajor ? d : outer;
      return ring.byteOffset(rewriter, loc, row,
                             elementBytes(im, col, ring.elementBits));
    };

    SmallVector<Value> acc = unpackAccumulator(rewriter, loc, adaptor.getAcc());
    int regs = atom.regsAcc();
    for (int64_t ks = kBegin / atom.k(); ks < kEnd / atom.k(); ++ks) {
      SmallVector<SmallVector<Value>> a, b;
      for (int64_t fm = 0; fm < fragsM; ++fm) {
        Value m = im.add(adaptor.getWarpRow(), fm * atom.m());
        Value ptr = offsetSharedPointer(
            rewriter, loc, baseA,
            offset(ringA, layoutA == Layout::Row, m, ks * atom.k()));
        a.push_back(atom.load(rewriter, loc, Frag::A, ptr, strideA, layoutA));
      }
      for (int64_t fn = 0; fn < fragsN; ++fn) {
        Value n = im.add(adaptor.getWarpCol(), fn * atom.n());
        Value ptr = offsetSharedPointer(
            rewriter, loc, baseB,
            offset(ringB, layoutB == Layout::Col, n, ks * atom.k()));
        b.push_back(atom.load(rewriter, loc, Frag::B, ptr, strideB, layoutB));
      }
      for (int64_t fm = 0; fm < fragsM; ++fm) {
        for (int64_t fn = 0; fn < fragsN; ++fn) {
          auto c = MutableArrayRef<Value>(acc).slice((fm * fragsN + fn) * regs,
                                                    regs);
          SmallVector<Value> d =
              atom.mma(rewriter, loc, a[fm], b[fn], c, layoutA, layoutB);
          llvm::copy(d, c.begin());
        }
      }
    }
    rewriter.replaceOp(op, packAccumulator(rewriter, loc,
                                           adaptor.getAcc().getType(), acc));
    return success();
  }
};

/// Each accumulator fragment goes through the warp's scratch tile: wmma.store
/// there, then every lane takes m*n/32 consecutive elements of one row,
/// applies alpha/beta, converts to C's type and writes them with one vector
/// store.
struct StoreTileLowering : public KernelPattern<StoreTileOp> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(StoreTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath im{rewriter, loc};
    const WmmaAtom &atom = info.atom;
    AccumulatorType accType = op.getAcc().getType();
    int64_t fragsM = accType.getRows() / atom.m();
    int64_t fragsN = accType.getCols() / atom.n();
    int64_t perLane = atom.m() * atom.n() / 32;
    Type accElement = accType.getElementType();
    Type cElement = op.getDst().getType().getElementType();
    int64_t accBytes = getElementBits(accElement) / 8;
    int64_t cBytes = getElementBits(cElement) / 8;
    auto vec = [&](Type element) { return VectorType::get({perLane}, element); };
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value warp = im.div(tid, 32), lane = im.rem(tid, 32);
    Value scratch = getScratchPointer(rewriter, loc, info.plan, info.module,
                                      im.mul(warp, info.scratchPerWarp));
    Value stride = arith::ConstantIntOp::create(rewriter, loc, atom.n(), 32);
    Value first = im.mul(lane, perLane);
    Value rowInFrag = im.div(first, atom.n());
    Value colInFrag = im.rem(first, atom.n());
    Value laneScratch =
        offsetSharedPointer(rewriter, loc, scratch, im.mul(first, accBytes));
    Value mask = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
    int64_t accAlign = std::min<int64_t>(16, perLane * accBytes);
    int64_t cAlign = std::min<int64_t>(16, perLane * cBytes);
    // Zero-filling refills past the last k-tile may still be in flight;
    // none outlives the kernel's math.
    if (info.asyncCopy)
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);

    // A null `whole` stores every vector unguarded.
    Value whole = op.getInBounds()
                      ? Value()
                      : isWholeAlignedTile(rewriter, loc, adaptor.getDst(),
                                           adaptor.getRow(), adaptor.getCol(),
                                           accType.getRows(), accType.getCols());
    SmallVector<Value> acc = unpackAccumulator(rewriter, loc, adaptor.getAcc());
    int regs = atom.regsAcc();
    for (int64_t fm = 0; fm < fragsM; ++fm) {
      for (int64_t fn = 0; fn < fragsN; ++fn) {
        auto d = ArrayRef<Value>(acc).slice((fm * fragsN + fn) * regs, regs);
        atom.store(rewriter, loc, scratch, d, stride);
        NVVM::SyncWarpOp::create(rewriter, loc, mask);
        Value v = LLVM::LoadOp::create(rewriter, loc, vec(accElement),
                                       laneScratch, accAlign);
        storeEpilogueVector(
            rewriter, loc, v, adaptor.getDst(),
            im.add(adaptor.getRow(), im.add(rowInFrag, fm * atom.m())),
            im.add(adaptor.getCol(), im.add(colInFrag, fn * atom.n())),
            op.getAlphaValue(), op.getBetaValue(), cAlign, whole);
        // The next fragment overwrites the scratch tile.
        NVVM::SyncWarpOp::create(rewriter, loc, mask);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowerToWMMAPass
    : public mlir::tgemm::impl::TGemmLowerToWMMABase<LowerToWMMAPass> {
  using Base::Base;

  LogicalResult lowerKernel(gpu::GPUFuncOp kernel) {
    FailureOr<KernelInstruction> selected =
        selectInstruction(kernel, ::tgemm::Family::Wmma);
    if (failed(selected))
      return failure();
    MmaTileOp mma = selected->mma;
    const MmaFact *fact = selected->fact;
    int64_t threads = selected->threads;
    if (!mma)
      return success();
    // wmma.load fragments are opaque to the program: they are loaded and
    // consumed in one place, never carried across a barrier.
    WalkResult carried = kernel.walk([](Operation *op) {
      auto mma = dyn_cast<MmaTileOp>(op);
      if (!isa<LoadFragsOp>(op) && !(mma && mma.getFrags()))
        return WalkResult::advance();
      op->emitOpError()
          << "is not supported by the wmma lowering with fragments; tile "
             "with prefetch-fragments-min-warps=0 (as --tgemm-pipeline does "
             "for wmma)";
      return WalkResult::interrupt();
    });
    if (carried.wasInterrupted())
      return failure();
    MLIRContext *ctx = kernel.getContext();
    int64_t scratchPerWarp = KernelInfo::scratchBytesPerWarp(*fact);
    KernelInfo info{WmmaAtom(*fact, ctx), selected->plan, threads,
                    scratchPerWarp,
                    kernel->getParentOfType<gpu::GPUModuleOp>(),
                    selected->schedule.asyncCopy};

    return lowerTileOps(getOperation(), kernel, info.plan, *fact,
                        info.atom.accRegType(), "wmma",
                        [&](RewritePatternSet &patterns,
                            const TypeConverter &converter) {
                          patterns.add<CopyTileLowering,
                                       CommitCopiesLowering,
                                       WaitCopiesLowering,
                                       MmaTileLowering, StoreTileLowering>(
                              converter, ctx, info);
                        });
  }

  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    getOperation().walk([&](gpu::GPUFuncOp f) {
      if (isLoweredBy(f, ::tgemm::Family::Wmma))
        kernels.push_back(f);
    });
    for (gpu::GPUFuncOp kernel : kernels)
      if (failed(lowerKernel(kernel)))
        signalPassFailure();
  }
};

} // namespace
