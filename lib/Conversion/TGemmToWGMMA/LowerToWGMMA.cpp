//===- LowerToWGMMA.cpp - Tile ops to Hopper's warpgroup MMA --------------===//
//
// The sm_90a kernel: cp.async copies into 128-byte swizzled rings, and each
// warpgroup (4 consecutive warps) multiplies its 64 rows of the block tile
// with wgmma.mma_async, reading A and B straight from the rings through
// shared-memory matrix descriptors. Per warp the accumulator is the m16n8
// layout of mma.sync (facts table), so the epilogue is the slab staging
// that the ptx lowering uses.
//
// PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate":
// - a K-major operand with the 128-byte swizzle is read as 8-row groups of
//   128-byte rows, 1024 bytes apart (the descriptor's stride byte offset);
//   within a row, chunk c of row r lies at chunk c ^ (r % 8), which is the
//   rings' XOR swizzle when a stage starts on 1024 bytes;
// - the descriptor holds the start address >> 4 (bits 0-13), the leading
//   byte offset >> 4 (16-29, unused for swizzled K-major operands), the
//   stride byte offset >> 4 (32-45) and the swizzle (62-63, 1 = 128 bytes);
//   the k16 steps of a 128-byte row start 32 bytes apart;
// - an MN-major operand (a column-major A, a row-major B; 16-bit types
//   only, through the instruction's transpose bits) with the 128-byte
//   swizzle is read as panels of 64 elements along M or N: 8 k-rows of
//   128 bytes form a 1024-byte group, groups follow each other along K
//   (the stride byte offset, 1024) and panels along M or N (the leading
//   byte offset, the ring's panel pitch); a k16 step is 16 rows;
// - wgmma.fence orders the accumulator registers before the first wgmma,
//   commit_group / wait_group bound the asynchronous multiplies;
// - shared memory that generic-proxy writes (cp.async, st.shared) filled is
//   read by wgmma through the async proxy: each writing thread fences
//   (fence.proxy.async.shared::cta) before the barrier that publishes it.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/Passes.h"
#include "tgemm/Conversion/TileLowering.h"
#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMLOWERTOWGMMA
#include "tgemm/Conversion/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {

/// Rows of the block tile one warpgroup multiplies (wgmma's M).
constexpr int64_t kWarpgroupRows = 64;
/// Bytes between 8-row groups of a 128-byte swizzled operand.
constexpr int64_t kSwizzleGroupBytes = 8 * 128;

NVVM::WGMMATypes wgmmaType(ElemKind kind) {
  switch (kind) {
  case ElemKind::F16:
    return NVVM::WGMMATypes::f16;
  case ElemKind::BF16:
    return NVVM::WGMMATypes::bf16;
  case ElemKind::TF32:
    return NVVM::WGMMATypes::tf32;
  case ElemKind::S8:
    return NVVM::WGMMATypes::s8;
  case ElemKind::U8:
    return NVVM::WGMMATypes::u8;
  case ElemKind::E4M3:
    return NVVM::WGMMATypes::e4m3;
  case ElemKind::E5M2:
    return NVVM::WGMMATypes::e5m2;
  case ElemKind::S32:
    return NVVM::WGMMATypes::s32;
  default:
    return NVVM::WGMMATypes::f32;
  }
}

/// The type of one field of the struct nvvm.wgmma.mma_async reads and
/// writes: the accumulator register, except packed f16, which it spells
/// vector<2xf16>.
Type accumulatorField(MLIRContext *ctx, const MmaFact &fact) {
  if (fact.acc == ElemKind::F16)
    return VectorType::get({2}, Float16Type::get(ctx));
  return accumulatorRegisterType(ctx, fact);
}

/// The wgmma lowering of one kernel.
class WgmmaLowering : public CpAsyncLowering {
public:
  static constexpr ::tgemm::Family family = ::tgemm::Family::Wgmma;

  WgmmaLowering(gpu::GPUFuncOp kernel, const KernelInstruction &selected,
                int64_t blockN)
      : CpAsyncLowering(kernel, selected), blockN(blockN),
        accReg(accumulatorRegisterType(kernel.getContext(), fact)) {}

  /// The kernel's shapes passed the legality module's warpgroup rules in
  /// selectInstruction (checkSchedule on the config its tile ops imply).
  static FailureOr<std::unique_ptr<KernelLowering>>
  create(gpu::GPUFuncOp kernel, const KernelInstruction &selected) {
    int64_t blockN = MmaTileOp(selected.mma).getAcc().getType().getCols();
    return std::unique_ptr<KernelLowering>(
        std::make_unique<WgmmaLowering>(kernel, selected, blockN));
  }

  Type getAccumulatorRegister() const override { return accReg; }
  void populatePatterns(RewritePatternSet &patterns,
                        const TypeConverter &converter) const override;

  /// cp.async.wait_group, then the proxy fence: what landed is read next
  /// by wgmma, through the async proxy.
  void emitWaitGroup(OpBuilder &b, Location loc,
                     int64_t pending) const override {
    CpAsyncLowering::emitWaitGroup(b, loc, pending);
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }

  /// The proxy fence after a transposing copy's st.shared writes.
  void emitSharedStoresFence(OpBuilder &b, Location loc) const override {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }

  /// wgmma.wait_group: the warpgroup's committed groups of multiplies.
  void emitMmaWait(OpBuilder &b, Location loc, int64_t pending) const override {
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
  }

  LogicalResult emitBulkStore(OpBuilder &b, StoreTileOp op,
                              StoreTileOp::Adaptor adaptor) const override;

  int64_t blockN;
  Type accReg;
};

/// The matrix descriptor of a 128-byte swizzled operand whose first row
/// starts at `ptr` (a shared-memory pointer), with 8-row groups 1024 bytes
/// apart and `leadingBytes` between the panels of an MN-major operand (16,
/// unused, for a K-major one).
Value makeDescriptor(OpBuilder &b, Location loc, Value ptr,
                     int64_t leadingBytes) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v).getResult();
  };
  Value address = arith::ExtUIOp::create(b, loc, i64,
                                         sharedAddress32(b, loc, ptr));
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, c(0x3FFFF)), c(4));
  int64_t fixed = (int64_t(leadingBytes >> 4) << 16) |        // leading
                  (int64_t(kSwizzleGroupBytes >> 4) << 32) | // stride
                  (int64_t(1) << 62);                        // 128 B swizzle
  return arith::OrIOp::create(b, loc, start, c(fixed));
}

/// How a warpgroup's wgmma reads one operand from its stage: where its
/// slice starts, how far one k-step moves, and the descriptor's leading
/// byte offset.
struct OperandWalk {
  int64_t stepBytes;    // between k-steps
  int64_t leadingBytes; // the descriptor's leading byte offset
  bool transposed;      // MN-major

  /// A K-major ring holds K along its 128-byte rows; an MN-major one (16-bit
  /// only) holds K down its rows.
  static OperandWalk get(const RingLayout &ring, bool kMajor, int64_t kStep) {
    if (kMajor)
      return {kStep * ring.elementBits / 8, 16, false};
    return {kStep * ring.rowPitch,
            ring.panelPitch > 0 ? ring.panelPitch : ring.rowPitch * 8, true};
  }
};

/// A warpgroup's multiply: every k16 step of the op's slice as one wgmma
/// of 64 x N (N the block tile's), A from the warpgroup's 64 rows of the A
/// stage, B from the whole B stage, into the accumulator registers the
/// warp holds; then the group is waited for (down to the op's `in_flight`
/// newest groups), so the stages of the older ones may be refilled.
struct WgmmaTileLowering : public KernelPattern<MmaTileOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(MmaTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    IndexMath im{rewriter, loc};
    const MmaFact &fact = lowering.fact;
    const RingLayout &ringA = lowering.ring(op.getA());
    const RingLayout &ringB = lowering.ring(op.getB());
    Value stageA =
        ringA.stagePointer(rewriter, loc, adaptor.getA(), adaptor.getAStage());
    Value stageB =
        ringB.stagePointer(rewriter, loc, adaptor.getB(), adaptor.getBStage());
    // The warpgroup's first row of A: the warp's, rounded down to 64. Its
    // slice starts at that row of a K-major A, at the panel holding that
    // column of an MN-major one (row 0, where the swizzle leaves chunks in
    // place).
    bool kMajorA = op.getLayoutA() == Layout::Row;
    bool kMajorB = op.getLayoutB() == Layout::Col;
    Value groupRow =
        im.mul(im.div(adaptor.getWarpRow(), kWarpgroupRows), kWarpgroupRows);
    Value sliceA =
        kMajorA ? im.mul(groupRow, ringA.rowPitch)
                : ringA.chunkOffset(
                      rewriter, loc, im.c(0),
                      im.div(im.mul(groupRow, ringA.elementBits), 8 * 16));
    Value baseA = offsetSharedPointer(rewriter, loc, stageA, sliceA);
    OperandWalk walkA = OperandWalk::get(ringA, kMajorA, fact.shape.k);
    OperandWalk walkB = OperandWalk::get(ringB, kMajorB, fact.shape.k);

    // The accumulator as the struct wgmma reads and writes.
    SmallVector<Value> regs = unpackAccumulator(rewriter, loc, adaptor.getAcc());
    Type field = accumulatorField(ctx, fact);
    Type reg = lowering.getAccumulatorRegister();
    SmallVector<Type> fields(regs.size(), field);
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    Value acc = LLVM::PoisonOp::create(rewriter, loc, structType);
    for (auto [i, r] : llvm::enumerate(regs)) {
      Value v = field == reg ? r : LLVM::BitcastOp::create(rewriter, loc, field, r);
      acc = LLVM::InsertValueOp::create(rewriter, loc, acc, v, i);
    }

    auto shape = NVVM::MMAShapeAttr::get(ctx, kWarpgroupRows, lowering.blockN,
                                         fact.shape.k);
    auto typeA = NVVM::WGMMATypesAttr::get(ctx, wgmmaType(fact.a));
    auto typeB = NVVM::WGMMATypesAttr::get(ctx, wgmmaType(fact.b));
    auto typeD = NVVM::WGMMATypesAttr::get(ctx, wgmmaType(fact.acc));
    auto one = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
    auto accumulate =
        NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one);
    // K-major A is row-major, K-major B column-major; the other layout of
    // each is its transpose.
    auto layout = [&](NVVM::MMALayout l) {
      return NVVM::MMALayoutAttr::get(ctx, l);
    };
    auto layoutA = layout(walkA.transposed ? NVVM::MMALayout::col
                                           : NVVM::MMALayout::row);
    auto layoutB = layout(walkB.transposed ? NVVM::MMALayout::row
                                           : NVVM::MMALayout::col);

    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    auto [kBegin, kEnd] = op.getKRange();
    for (int64_t k = kBegin; k < kEnd; k += fact.shape.k) {
      int64_t step = k / fact.shape.k;
      Value descA = makeDescriptor(
          rewriter, loc,
          offsetSharedPointer(rewriter, loc, baseA,
                              im.c(step * walkA.stepBytes)),
          walkA.leadingBytes);
      Value descB = makeDescriptor(
          rewriter, loc,
          offsetSharedPointer(rewriter, loc, stageB,
                              im.c(step * walkB.stepBytes)),
          walkB.leadingBytes);
      acc = NVVM::WgmmaMmaAsyncOp::create(rewriter, loc, structType, acc, descA,
                                          descB, shape, typeA, typeB, typeD,
                                          accumulate, one, one, layoutA,
                                          layoutB, /*satfinite=*/nullptr);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    lowering.emitMmaWait(rewriter, loc, op.getInFlight().value_or(0));

    SmallVector<Value> out;
    for (size_t i = 0; i < regs.size(); ++i) {
      Value v = LLVM::ExtractValueOp::create(rewriter, loc, acc, i);
      out.push_back(field == reg ? v
                                 : LLVM::BitcastOp::create(rewriter, loc, reg, v)
                                       .getResult());
    }
    rewriter.replaceOp(
        op, packAccumulator(rewriter, loc, adaptor.getAcc().getType(), out));
    return success();
  }
};

/// The address space of the cluster's shared window (shared::cluster).
constexpr unsigned kSharedClusterAddressSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster);

/// Blocks per cluster of the kernel around `op` (its nvvm.cluster_dim, as
/// tgemm-tile sets it; 1 without).
int64_t kernelClusterBlocks(Operation *op) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  auto dims = kernel ? kernel->getAttrOfType<DenseI32ArrayAttr>(
                           NVVM::NVVMDialect::getClusterDimAttrName())
                     : DenseI32ArrayAttr();
  int64_t blocks = 1;
  if (dims)
    for (int32_t d : dims.asArrayRef())
      blocks *= d;
  return blocks;
}

/// Pointer to barrier `stage` of a ring (8 bytes each).
Value barrierPointer(OpBuilder &b, Location loc, Value ring, Value stage) {
  IndexMath im{b, loc};
  return offsetSharedPointer(b, loc, ring,
                             im.mul(stage, ::tgemm::kBarrierBytes));
}

Value i32Value(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
}

/// Thread 0 initializes each mbarrier (mbarrier.init), fences the
/// initialization (fence.mbarrier_init) and the block meets, so that
/// every thread and the copy engine see initialized barriers.
struct InitBarriersLowering
    : public KernelPattern<InitBarriersOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(InitBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath im{rewriter, loc};
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value count = i32Value(rewriter, loc, adaptor.getArrivals());
    int64_t stages = op.getBarriers().getType().getCount();
    scf::IfOp::create(rewriter, loc, im.eq(tid, im.c(0)),
                      [&](OpBuilder &tb, Location) {
                        IndexMath m{tb, loc};
                        for (int64_t s = 0; s < stages; ++s)
                          NVVM::MBarrierInitOp::create(
                              tb, loc,
                              barrierPointer(tb, loc, adaptor.getBarriers(),
                                             m.c(s)),
                              count, Value());
                        NVVM::FenceMbarrierInitOp::create(tb, loc);
                        scf::YieldOp::create(tb, loc);
                      });
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// mbarrier.try_wait.parity in a loop until the phase has completed.
struct WaitBarrierLowering
    : public KernelPattern<WaitBarrierOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The suspend-time hint of each try (ns), as large as the hardware
    // allows a wait to sleep before it tries again.
    Value ticks = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI32IntegerAttr(kWaitTicks));
    NVVM::MBarrierTryWaitParityOp::create(
        rewriter, loc,
        barrierPointer(rewriter, loc, adaptor.getBarriers(),
                       adaptor.getStage()),
        i32Value(rewriter, loc, adaptor.getParity()), ticks);
    rewriter.eraseOp(op);
    return success();
  }
  static constexpr int32_t kWaitTicks = 10000000;
};

/// mbarrier.arrive, or mbarrier.arrive.expect_tx with the bytes; on
/// another block's barrier, mapa to its address in the cluster's shared
/// window, then mbarrier.arrive.shared::cluster (release at CTA scope, the
/// instruction's default: what it orders are the thread's reads of its
/// own block's shared memory, and the waiter refills them with the copy
/// engine; a cluster-scope release would fence each arrival).
struct ArriveBarrierLowering
    : public KernelPattern<ArriveBarrierOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(ArriveBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierPointer(rewriter, loc, adaptor.getBarriers(),
                                   adaptor.getStage());
    if (Value cta = adaptor.getCta()) {
      if (kernelClusterBlocks(op) < 2)
        return op.emitOpError()
               << "arrives on another block's barrier, but its kernel runs "
                  "in clusters of 1 (no nvvm.cluster_dim)";
      Value remote = NVVM::MapaOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(rewriter.getContext(),
                                     kSharedClusterAddressSpace),
          barrier, i32Value(rewriter, loc, cta));
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote, Value(),
                                     NVVM::MemScopeKind::CTA,
                                     /*relaxed=*/false);
    } else if (std::optional<int64_t> bytes = op.getExpectBytes()) {
      Value tx = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI32IntegerAttr(*bytes));
      NVVM::MBarrierArriveExpectTxOp::create(rewriter, loc, Type(), barrier,
                                             tx, NVVM::MemScopeKind::CTA,
                                             false, Value());
    } else {
      NVVM::MBarrierArriveOp::create(rewriter, loc, rewriter.getI64Type(),
                                     barrier, Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// cp.async.bulk.tensor.3d with the tensor map's coordinates (innermost
/// first: column, row, matrix), completing on the stage's barrier: one copy
/// per panel of a paneled ring (the tensor map's box is one panel wide).
/// The copy engine writes the stage as the 128-byte swizzle places rows,
/// which is the ring's XOR layout since stages and panels start on 1024
/// bytes. A multicast copy (`.multicast::cluster`, every block of the
/// cluster in its mask) covers the block's part of the tile, by its rank
/// (%cluster_ctarank): its panels, or its band of rows, which starts on a
/// 1024-byte swizzle atom too.
struct BulkCopyTileLowering
    : public KernelPattern<BulkCopyTileOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(BulkCopyTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const RingLayout &ring = lowering.ring(op.getDst());
    Value stage = ring.stagePointer(rewriter, loc, adaptor.getDst(),
                                    adaptor.getStage());
    Value barrier = barrierPointer(rewriter, loc, adaptor.getBarriers(),
                                   adaptor.getStage());
    IndexMath im{rewriter, loc};
    int64_t panels =
        ring.panelPitch > 0 ? llvm::divideCeil(ring.rowBytes, ring.rowPitch)
                            : 1;
    int64_t panelColumns = ring.rowPitch * 8 / ring.elementBits;
    // The part of a multicast copy this block issues: panels [first,
    // first + panels) and rows from `row` on.
    Value firstPanel, row = adaptor.getRow(), mask;
    if (std::optional<int64_t> parts = op.getMulticast()) {
      if (int64_t blocks = kernelClusterBlocks(op); blocks != *parts)
        return op.emitOpError()
               << "multicasts to " << *parts
               << " blocks, but its kernel runs in clusters of " << blocks
               << " (nvvm.cluster_dim)";
      SmemType type = op.getDst().getType();
      std::optional<::tgemm::MulticastSplit> split = ::tgemm::multicastSplit(
          type.getRows(), ring.rowBytes,
          ring.panelPitch > 0 ? ring.rowPitch : 0, *parts);
      if (!split)
        return op.emitOpError()
               << "cannot cut its tile into " << *parts << " parts";
      Value rank = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getIndexType(),
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type()));
      if (split->panels) {
        firstPanel = im.mul(rank, split->panels);
        panels = split->panels;
      } else {
        row = im.add(row, im.mul(rank, split->rows));
        stage = offsetSharedPointer(rewriter, loc, stage,
                                    im.mul(rank, split->rows * ring.rowPitch));
      }
      mask = LLVM::ConstantOp::create(
          rewriter, loc,
          rewriter.getI16IntegerAttr(static_cast<int16_t>((1 << *parts) - 1)));
    }
    for (int64_t p = 0; p < panels; ++p) {
      // Panel p of the tile, or of the block's part of it.
      Value panelIndex = firstPanel ? im.add(firstPanel, p) : Value();
      auto scaled = [&](int64_t factor) {
        return panelIndex ? im.mul(panelIndex, factor) : im.c(p * factor);
      };
      SmallVector<Value> coordinates = {
          i32Value(rewriter, loc, im.add(adaptor.getCol(), scaled(panelColumns))),
          i32Value(rewriter, loc, row),
          i32Value(rewriter, loc, adaptor.getMatrix())};
      Value panel =
          offsetSharedPointer(rewriter, loc, stage, scaled(ring.panelPitch));
      // The CTA's shared memory is its part of the cluster's (a cluster of
      // one without clusters).
      Value destination = LLVM::AddrSpaceCastOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(),
                                     kSharedClusterAddressSpace),
          panel);
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, destination, adaptor.getMap(), coordinates, barrier,
          ValueRange(), mask, Value(), NVVM::TMALoadMode::TILE,
          /*isCTAOnly=*/false, nullptr, Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier.cluster.arrive (release) then barrier.cluster.wait (acquire),
/// not .aligned: the roles' threads reach it from diverged code.
struct SyncClusterLowering
    : public KernelPattern<SyncClusterOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(SyncClusterOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::ClusterArriveOp::create(rewriter, op.getLoc(), UnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, op.getLoc(), UnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

/// setmaxnreg.inc or .dec, from the per-thread budget of the launch.
struct SetMaxRegistersLowering
    : public KernelPattern<SetMaxRegistersOp, WgmmaLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(SetMaxRegistersOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t launchBudget = ::tgemm::launchRegisterBudget(lowering.threads);
    auto action = static_cast<int64_t>(op.getCount()) > launchBudget
                      ? NVVM::SetMaxRegisterAction::increase
                      : NVVM::SetMaxRegisterAction::decrease;
    NVVM::SetMaxRegisterOp::create(rewriter, op.getLoc(),
                                   static_cast<uint32_t>(op.getCount()),
                                   action);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The m16n8 accumulator a warp holds of its warpgroup's wgmma, staged
/// through 16-row slabs.
struct WgmmaSlabStaging : public SlabStaging {
  WgmmaSlabStaging(OpBuilder &b, Location loc, const WgmmaLowering &lowering,
                   StoreTileOp op, StoreTileOp::Adaptor adaptor)
      : SlabStaging(b, loc, lowering, op, adaptor,
                    lowering.getAccumulatorRegister()) {}
};

/// The bulk store (PTX ISA, "cp.async.bulk.tensor"; "Proxies"): each warp
/// writes box after box of its tile to its buffers (BoxStaging); every
/// writing lane fences its st.shared for the async proxy
/// (fence.proxy.async.shared::cta), the warp syncs, and lane 0 stores the
/// box with cp.async.bulk.tensor.3d.global.shared::cta.bulk_group at C's
/// coordinates (column, row, matrix) and commits it as a bulk group.
/// Before a buffer is written again, lane 0 waits until the copy engine
/// has read the stores of all but the buffers' other groups
/// (cp.async.bulk.wait_group.read), and at the end until it has read every
/// one: the buffers are then free for the next tile, and shared memory
/// outlives nothing it still reads.
LogicalResult WgmmaLowering::emitBulkStore(OpBuilder &b, StoreTileOp op,
                                           StoreTileOp::Adaptor adaptor) const {
  Location loc = op.getLoc();
  BoxStaging staging(b, loc, *this, op, adaptor, accReg);
  IndexMath im{b, loc};
  Value mask = arith::ConstantIntOp::create(b, loc, -1, 32);
  int64_t buffers = staging.getNumBuffers();
  auto isLeader = [&](Value tid) { return im.eq(im.rem(tid, 32), im.c(0)); };
  auto waitRead = [&](int64_t pending, Value tid) {
    scf::IfOp::create(b, loc, isLeader(tid), [&](OpBuilder &lb, Location) {
      NVVM::CpAsyncBulkWaitGroupOp::create(
          lb, loc, lb.getI32IntegerAttr(static_cast<int32_t>(pending)),
          lb.getUnitAttr());
      scf::YieldOp::create(lb, loc);
    });
    NVVM::SyncWarpOp::create(b, loc, mask);
  };
  SmallVector<Value> acc = unpackAccumulator(b, loc, adaptor.getAcc());
  for (int64_t box = 0; box < staging.getNumBoxes(); ++box) {
    Value tid = staging.readThread(b);
    if (box >= buffers)
      waitRead(buffers - 1, tid);
    staging.write(b, box, tid, acc);
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    NVVM::SyncWarpOp::create(b, loc, mask);
    scf::IfOp::create(b, loc, isLeader(tid), [&](OpBuilder &lb, Location) {
      auto [row, col] = staging.originOf(lb, box);
      SmallVector<Value> coordinates = {i32Value(lb, loc, col),
                                        i32Value(lb, loc, row),
                                        i32Value(lb, loc, adaptor.getMatrix())};
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          lb, loc, adaptor.getMap(), staging.bufferOf(lb, box, tid),
          coordinates, Value(), NVVM::TMAStoreMode::TILE, Value());
      NVVM::CpAsyncBulkCommitGroupOp::create(lb, loc);
      scf::YieldOp::create(lb, loc);
    });
  }
  waitRead(0, staging.readThread(b));
  return success();
}

void WgmmaLowering::populatePatterns(RewritePatternSet &patterns,
                                     const TypeConverter &converter) const {
  patterns.add<WgmmaTileLowering,
               StoreTileLowering<WgmmaLowering, WgmmaSlabStaging>,
               InitBarriersLowering, WaitBarrierLowering,
               ArriveBarrierLowering, BulkCopyTileLowering,
               SyncClusterLowering, SetMaxRegistersLowering>(converter, patterns.getContext(),
                                        *this);
}

struct LowerToWGMMAPass
    : public KernelLoweringPass<
          mlir::tgemm::impl::TGemmLowerToWGMMABase<LowerToWGMMAPass>,
          WgmmaLowering> {
  using KernelLoweringPass::KernelLoweringPass;
};

} // namespace
