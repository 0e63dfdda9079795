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

namespace {

//===----------------------------------------------------------------------===//
// The WMMA instruction of one precision
//===----------------------------------------------------------------------===//

using ::tgemm::MmaOperand;

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
  SmallVector<Value> load(OpBuilder &b, Location loc, MmaOperand frag, Value ptr,
                          Value stride, Layout layout) const {
    int regs = frag == MmaOperand::A ? fact.regsA : fact.regsB;
    Type result = structOf(b.getContext(), regA, regs);
    Value value;
    if (nvvmOps) {
      value = NVVM::WMMALoadOp::create(
          b, loc, result, ptr, stride, m(), n(), k(), toMmaLayout(layout),
          toMmaType(fact.a),
          frag == MmaOperand::A ? NVVM::MMAFrag::a : NVVM::MMAFrag::b);
    } else {
      std::string name =
          ::tgemm::wmmaLoadIntrinsic(fact, frag, layout == Layout::Row);
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
      std::string name = ::tgemm::wmmaMmaIntrinsic(
          fact, layoutA == Layout::Row, layoutB == Layout::Row);
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
    std::string name = ::tgemm::wmmaStoreIntrinsic(fact, /*rowMajor=*/true);
    SmallVector<Value> args{ptr};
    llvm::append_range(args, d);
    args.push_back(stride);
    callIntrinsic(b, loc, name, Type(), args);
  }

private:
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
// The lowering of one kernel
//===----------------------------------------------------------------------===//

/// The wmma lowering of one kernel: `nvvm.cp.async` copies of 16 bytes,
/// what `__pipeline_memcpy_async` gives a CUDA programmer, and
/// wmma.load / wmma.mma / wmma.store; tiles at an operand's edge are copied
/// through registers, as pre-Ampere WMMA kernels do.
class WmmaLowering : public KernelLowering {
public:
  static constexpr ::tgemm::Family family = ::tgemm::Family::Wmma;

  WmmaLowering(gpu::GPUFuncOp kernel, const KernelInstruction &selected)
      : KernelLowering(kernel, selected),
        atom(*selected.fact, kernel.getContext()),
        scratchPerWarp(fact.shape.m * fact.shape.n *
                       ::tgemm::bitWidth(fact.acc) / 8) {}
  static FailureOr<std::unique_ptr<KernelLowering>>
  create(gpu::GPUFuncOp kernel, const KernelInstruction &selected);

  Type getAccumulatorRegister() const override { return atom.accRegType(); }
  void emitAsyncCopy(OpBuilder &b, Location loc, const TileCopy &copy,
                     Value predicate) const override;
  void emitCommitGroup(OpBuilder &b, Location loc) const override {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  void emitWaitGroup(OpBuilder &b, Location loc,
                     int64_t pending) const override {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
  }
  void populatePatterns(RewritePatternSet &patterns,
                        const TypeConverter &converter) const override;

  WmmaAtom atom;
  int64_t scratchPerWarp; // bytes: the epilogue stages one fragment there
};

/// Every copy reads 16 bytes where the predicate holds and none (a zero
/// fill) where not: no branch in the k-loop.
void WmmaLowering::emitAsyncCopy(OpBuilder &b, Location loc,
                                 const TileCopy &copy, Value predicate) const {
  Value sourceBytes;
  if (predicate) {
    Type i32 = b.getI32Type();
    sourceBytes = arith::SelectOp::create(
        b, loc, predicate, arith::ConstantIntOp::create(b, loc, i32, 16),
        arith::ConstantIntOp::create(b, loc, i32, 0));
  }
  forEachWholeTileChunk(b, loc, copy, [&](OpBuilder &cb, Value from, Value to) {
    NVVM::CpAsyncOp::create(cb, loc, to, from, /*size=*/16,
                            NVVM::LoadCacheModifierKind::CG, sourceBytes);
  });
}

//===----------------------------------------------------------------------===//
// Fragments and wmma.mma
//===----------------------------------------------------------------------===//

/// For each k-step: load the warp's A fragments and B fragments, then one
/// wmma.mma per accumulator fragment.
class WmmaStepper : public MmaStepper {
public:
  WmmaStepper(OpBuilder &b, Location loc, const WmmaLowering &lowering,
              MmaTileOp op, MmaTileOp::Adaptor adaptor)
      : MmaStepper(b, loc, op, lowering.fact, /*prefetch=*/false,
                   /*serpentine=*/false),
        atom(lowering.atom), ringA(lowering.ring(op.getA())),
        ringB(lowering.ring(op.getB())), layoutA(op.getLayoutA()),
        layoutB(op.getLayoutB()), warpRow(adaptor.getWarpRow()),
        warpCol(adaptor.getWarpCol()) {
    baseA = ringA.stagePointer(b, loc, adaptor.getA(), adaptor.getAStage());
    baseB = ringB.stagePointer(b, loc, adaptor.getB(), adaptor.getBStage());
    strideA = arith::ConstantIntOp::create(b, loc, ringA.pitchElements(), 32);
    strideB = arith::ConstantIntOp::create(b, loc, ringB.pitchElements(), 32);
  }

  FragmentStep load(int64_t ks) override {
    IndexMath im{b, loc};
    FragmentStep step;
    for (int64_t fm = 0; fm < frags.fragsM; ++fm) {
      Value m = im.add(warpRow, fm * atom.m());
      Value ptr = offsetSharedPointer(
          b, loc, baseA,
          offset(ringA, layoutA == Layout::Row, m, ks * atom.k()));
      step.a.push_back(atom.load(b, loc, MmaOperand::A, ptr, strideA, layoutA));
    }
    for (int64_t fn = 0; fn < frags.fragsN; ++fn) {
      Value n = im.add(warpCol, fn * atom.n());
      Value ptr = offsetSharedPointer(
          b, loc, baseB,
          offset(ringB, layoutB == Layout::Col, n, ks * atom.k()));
      step.b.push_back(atom.load(b, loc, MmaOperand::B, ptr, strideB, layoutB));
    }
    return step;
  }

  SmallVector<Value> mma(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                         ArrayRef<Value> c) override {
    return atom.mma(b, loc, a, bRegs, c, layoutA, layoutB);
  }

private:
  /// Byte offset of logical element (outer, depth) in a ring whose tiles
  /// are stored outer-major when `outerMajor`.
  Value offset(const RingLayout &ring, bool outerMajor, Value outer,
               int64_t depth) {
    IndexMath im{b, loc};
    Value d = im.c(depth);
    Value row = outerMajor ? outer : d, col = outerMajor ? d : outer;
    return ring.byteOffset(b, loc, row,
                           getElementBytes(b, loc, col, ring.elementBits));
  }

  const WmmaAtom &atom;
  const RingLayout &ringA, &ringB;
  Layout layoutA, layoutB;
  Value warpRow, warpCol;
  Value baseA, baseB, strideA, strideB;
};

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

/// Each accumulator fragment is a piece: wmma.store puts it in the warp's
/// scratch tile, then every lane reads m*n/32 consecutive elements of one
/// row back, for one vector store.
class FragmentStaging : public EpilogueStaging {
public:
  FragmentStaging(OpBuilder &b, Location loc, const WmmaLowering &lowering,
                  StoreTileOp op, StoreTileOp::Adaptor adaptor)
      : EpilogueStaging(loc, op, adaptor, lowering.fact), atom(lowering.atom) {
    IndexMath im{b, loc};
    perLane = atom.m() * atom.n() / 32;
    int64_t accBytes = getElementBits(accElement) / 8;
    int64_t cBytes = getElementBits(op.getDst().getType().getElementType()) / 8;
    accAlign = std::min<int64_t>(16, perLane * accBytes);
    cAlign = std::min<int64_t>(16, perLane * cBytes);
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value warp = im.div(tid, 32), lane = im.rem(tid, 32);
    scratch = getScratchPointer(b, loc, lowering.plan, lowering.module,
                                im.mul(warp, lowering.scratchPerWarp));
    stride = arith::ConstantIntOp::create(b, loc, atom.n(), 32);
    Value first = im.mul(lane, perLane);
    rowInFrag = im.div(first, atom.n());
    colInFrag = im.rem(first, atom.n());
    laneScratch = offsetSharedPointer(b, loc, scratch, im.mul(first, accBytes));
    // Zero-filling refills past the last k-tile may still be in flight;
    // none outlives the kernel's math.
    lowering.waitForCopies(b, loc);
  }

  int64_t getNumPieces() const override { return frags.fragsM * frags.fragsN; }
  int64_t getAlignment() const override { return cAlign; }

  void write(OpBuilder &b, int64_t piece, ArrayRef<Value> acc) const override {
    atom.store(b, loc, scratch,
               frags.fragment(acc, piece / frags.fragsN, piece % frags.fragsN),
               stride);
  }

  void readBack(OpBuilder &b, int64_t piece,
                function_ref<void(OpBuilder &, Value, Value, Value)> store)
      const override {
    IndexMath im{b, loc};
    int64_t fm = piece / frags.fragsN, fn = piece % frags.fragsN;
    Value v = LLVM::LoadOp::create(
        b, loc, VectorType::get({perLane}, accElement), laneScratch, accAlign);
    store(b, v, im.add(tileRow, im.add(rowInFrag, fm * atom.m())),
          im.add(tileCol, im.add(colInFrag, fn * atom.n())));
  }

private:
  const WmmaAtom &atom;
  int64_t perLane, accAlign, cAlign;
  Value scratch, stride, rowInFrag, colInFrag, laneScratch;
};

void WmmaLowering::populatePatterns(RewritePatternSet &patterns,
                                    const TypeConverter &converter) const {
  patterns.add<MmaTileLowering<WmmaLowering, WmmaStepper>,
               StoreTileLowering<WmmaLowering, FragmentStaging>>(
      converter, patterns.getContext(), *this);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<KernelLowering>>
WmmaLowering::create(gpu::GPUFuncOp kernel, const KernelInstruction &selected) {
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
  return std::unique_ptr<KernelLowering>(
      std::make_unique<WmmaLowering>(kernel, selected));
}

struct LowerToWMMAPass
    : public KernelLoweringPass<
          mlir::tgemm::impl::TGemmLowerToWMMABase<LowerToWMMAPass>,
          WmmaLowering> {
  using KernelLoweringPass::KernelLoweringPass;
};

} // namespace
