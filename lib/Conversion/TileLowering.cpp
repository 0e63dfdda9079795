//===- TileLowering.cpp - What every tile-op lowering shares --------------===//

#include "tgemm/Conversion/TileLowering.h"

#include "tgemm/Conversion/PtxBuilder.h"

#include "tgemm/Transforms/KernelManifest.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tgemm;

static constexpr StringLiteral kDynamicSharedName = "__tgemm_dynamic_smem";

int64_t mlir::tgemm::getElementBits(Type type) {
  return type.getIntOrFloatBitWidth();
}

Value RingLayout::chunkOffset(OpBuilder &b, Location loc, Value row,
                              Value chunk) const {
  IndexMath im{b, loc};
  if (panelPitch > 0) {
    // The chunk's panel, then its place in the panel's row.
    int64_t perPanel = rowPitch / 16;
    Value inPanel = im.rem(chunk, perPanel);
    if (swizzle == RingSwizzle::Xor)
      inPanel = arith::XOrIOp::create(b, loc, inPanel, im.rem(row, 8));
    return im.add(im.mul(im.div(chunk, perPanel), panelPitch),
                  im.add(im.mul(row, rowPitch), im.mul(inPanel, 16)));
  }
  if (swizzle != RingSwizzle::Xor)
    return im.add(im.mul(row, rowPitch), im.mul(chunk, 16));
  auto xorLow3 = [&](Value x, Value key) {
    return arith::XOrIOp::create(b, loc, x, im.rem(key, 8)).getResult();
  };
  if (rowBytes >= 128) {
    Value key = row;
    if (pairedRowKey)
      key = arith::OrIOp::create(
          b, loc, im.rem(row, 2),
          arith::AndIOp::create(b, loc, im.div(row, 2), im.c(6)));
    return im.add(im.mul(row, rowPitch), im.mul(xorLow3(chunk, key), 16));
  }
  // Several rows share a 128-byte line: permute the line's 8 chunks.
  Value linear = im.add(im.mul(row, rowBytes / 16), chunk);
  Value line = im.div(linear, 8);
  return im.add(im.mul(line, 128), im.mul(xorLow3(im.rem(linear, 8), line), 16));
}

Value RingLayout::byteOffset(OpBuilder &b, Location loc, Value row,
                             Value byteCol) const {
  IndexMath im{b, loc};
  if (swizzle != RingSwizzle::Xor && panelPitch == 0)
    return im.add(im.mul(row, rowPitch), byteCol);
  return im.add(chunkOffset(b, loc, row, im.div(byteCol, 16)),
                im.rem(byteCol, 16));
}

Value RingLayout::stagePointer(OpBuilder &b, Location loc, Value base,
                               Value stage) const {
  IndexMath im{b, loc};
  return offsetSharedPointer(b, loc, base, im.mul(stage, stagePitch));
}

Value TileCopy::threadIndex(OpBuilder &b, Location loc) const {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (firstThread == 0)
    return tid;
  return arith::SubIOp::create(b, loc, tid, IndexMath{b, loc}.c(firstThread));
}

KernelMemoryPlan KernelMemoryPlan::build(gpu::GPUFuncOp kernel,
                                         const ::tgemm::MmaFact &fact,
                                         const ::tgemm::Schedule &schedule,
                                         int64_t warps, int64_t warpTileN) {
  KernelMemoryPlan plan;
  RingSwizzle swizzle = fact.family == ::tgemm::Family::Wmma
                            ? RingSwizzle::Pad
                            : schedule.swizzle;
  int64_t offset = 0;
  plan.alignment = ::tgemm::ringAlignment(fact.family);
  kernel.walk([&](AllocSmemOp alloc) {
    SmemType type = alloc.getType();
    ::tgemm::RingPlan planned = ::tgemm::planRing(
        offset, type.getStages(), type.getRows(), type.getCols(),
        getElementBits(type.getElementType()), swizzle, schedule.padding,
        plan.alignment, ::tgemm::ringPanelBytes(fact.family));
    RingLayout ring;
    ring.offset = planned.offset;
    ring.rowBytes = planned.rowBytes;
    ring.rowPitch = planned.rowPitch;
    ring.stagePitch = planned.stagePitch;
    ring.panelPitch = planned.panelPitch;
    ring.elementBits = planned.elementBits;
    ring.swizzle = planned.swizzle;
    offset = planned.offset + planned.sizeBytes();
    plan.rings[alloc] = ring;
  });
  // The rings a byte-permuted operand's ldmatrix reads.
  kernel.walk([&](MmaTileOp mma) {
    auto mark = [&](Value ring, ::tgemm::ElemKind type, bool kMajor) {
      auto alloc = ring.getDefiningOp<AllocSmemOp>();
      if (alloc && plan.rings.count(alloc) &&
          ::tgemm::operandPath(fact.family, type, kMajor,
                               schedule.ldmatrix) ==
              ::tgemm::OperandPath::BytePermute)
        plan.rings[alloc].pairedRowKey = true;
    };
    mark(mma.getA(), fact.a, mma.getLayoutA() == Layout::Row);
    mark(mma.getB(), fact.b, mma.getLayoutB() == Layout::Col);
  });
  // The barriers after the rings, as planSharedMemory places them.
  int64_t barriersAt = 0;
  kernel.walk([&](AllocBarriersOp alloc) {
    offset = llvm::alignTo(offset, ::tgemm::kBarrierBytes);
    if (!barriersAt)
      barriersAt = offset;
    plan.barriers[alloc] = offset;
    offset += alloc.getType().getCount() * ::tgemm::kBarrierBytes;
  });
  int64_t afterRings =
      llvm::alignTo(offset, ::tgemm::epilogueScratchAlignment(schedule));
  ::tgemm::EpilogueScratch scratch =
      ::tgemm::epilogueScratch(fact, schedule, warps, warpTileN, afterRings,
                               barriersAt);
  plan.slabColumns = scratch.slabColumns;
  plan.storeBuffers = scratch.storeBuffers;
  plan.scratchOffset = scratch.overRings ? 0 : afterRings;
  plan.totalBytes = std::max(offset, plan.scratchOffset + scratch.bytes);
  return plan;
}

void mlir::tgemm::forEachTileChunk(
    OpBuilder &b, Location loc, int64_t rows, int64_t chunksPerRow,
    int64_t threads, Value tid,
    function_ref<void(OpBuilder &, Value, Value, bool)> emit) {
  IndexMath im{b, loc};
  int64_t total = rows * chunksPerRow;
  for (int64_t first = 0; first < total; first += threads) {
    Value q = im.add(tid, first);
    auto emitChunk = [&](OpBuilder &cb, bool guarded) {
      IndexMath m{cb, loc};
      emit(cb, m.div(q, chunksPerRow), m.rem(q, chunksPerRow), guarded);
    };
    if (first + threads <= total) {
      emitChunk(b, /*guarded=*/false);
      continue;
    }
    scf::IfOp::create(b, loc, im.lt(q, im.c(total)),
                      [&](OpBuilder &cb, Location) {
                        emitChunk(cb, /*guarded=*/true);
                        scf::YieldOp::create(cb, loc);
                      });
  }
}

void mlir::tgemm::forEachTileChunkRolled(
    OpBuilder &b, Location loc, int64_t rows, int64_t chunksPerRow,
    int64_t threads, Value tid,
    function_ref<void(OpBuilder &, Value, Value, bool)> emit) {
  IndexMath im{b, loc};
  int64_t total = rows * chunksPerRow;
  int64_t rounds = (total + threads - 1) / threads;
  if (rounds <= 1)
    return forEachTileChunk(b, loc, rows, chunksPerRow, threads, tid, emit);
  bool partial = total % threads != 0;
  scf::ForOp::create(
      b, loc, im.c(0), im.c(total), im.c(threads), ValueRange{},
      [&](OpBuilder &lb, Location, Value first, ValueRange) {
        IndexMath m{lb, loc};
        Value q = m.add(tid, first);
        auto emitChunk = [&](OpBuilder &cb) {
          IndexMath cm{cb, loc};
          emit(cb, cm.div(q, chunksPerRow), cm.rem(q, chunksPerRow), partial);
        };
        if (!partial) {
          emitChunk(lb);
        } else {
          scf::IfOp::create(lb, loc, m.lt(q, m.c(total)),
                            [&](OpBuilder &cb, Location) {
                              emitChunk(cb);
                              scf::YieldOp::create(cb, loc);
                            });
        }
        scf::YieldOp::create(lb, loc);
      });
}

void mlir::tgemm::forEachEdgeChunk(
    OpBuilder &b, Location loc, const TileCopy &copy, Value tid,
    function_ref<void(OpBuilder &, Value, Value, bool)> emit) {
  auto each = copy.producer ? forEachTileChunkRolled : forEachTileChunk;
  each(b, loc, copy.rows, copy.ring.rowBytes / 16, copy.threads, tid, emit);
}

void mlir::tgemm::emitWhere(OpBuilder &b, Location loc, Value predicate,
                            function_ref<void(OpBuilder &)> emit) {
  if (!predicate) {
    emit(b);
    return;
  }
  scf::IfOp::create(b, loc, predicate, [&](OpBuilder &tb, Location) {
    emit(tb);
    scf::YieldOp::create(tb, loc);
  });
}

/// The copy of `op`'s tile: `whole` for a tile known (`in_bounds`) or found
/// at run time (`isWholeAlignedTile`) to lie inside its operand with
/// 16-byte aligned rows, else `edge`; only where `predicate` (op's, or
/// null) holds. A predicated `in_bounds` copy that is `async` goes to
/// `whole` with the predicate, which it applies to each copy itself (no
/// branch in the k-loop); any other predicate branches around the copy and
/// `whole` gets a null one.
static void emitTileCopy(OpBuilder &b, Location loc, CopyTileOp op,
                         const TileCopy &copy, Value predicate, bool async,
                         function_ref<void(OpBuilder &, Value)> whole,
                         function_ref<void(OpBuilder &)> edge) {
  if (op.getInBounds() && predicate && async) {
    whole(b, predicate);
    return;
  }
  emitWhere(b, loc, predicate, [&](OpBuilder &pb) {
    if (op.getInBounds()) {
      whole(pb, Value());
      return;
    }
    SmemType type = op.getDst().getType();
    Value inside = isWholeAlignedTile(pb, loc, copy.src, copy.row, copy.col,
                                      type.getRows(), type.getCols());
    // All tiles are whole when the sizes are tile multiples.
    scf::IfOp::create(
        pb, loc, inside,
        [&](OpBuilder &tb, Location) {
          whole(tb, Value());
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          edge(eb);
          scf::YieldOp::create(eb, loc);
        });
  });
}

void mlir::tgemm::emitSyncTileCopy(OpBuilder &b, Location loc,
                                   const TileCopy &copy) {
  const RingLayout &ring = copy.ring;
  auto chunkType = VectorType::get({4}, b.getI32Type());
  int64_t elementsPerChunk = 128 / ring.elementBits;
  Value tid = copy.threadIndex(b, loc);
  SmallVector<std::pair<Value, Value>> pending; // (value, destination)
  forEachTileChunk(
      b, loc, copy.rows, ring.rowBytes / 16, copy.threads, tid,
      [&](OpBuilder &cb, Value r, Value chunk, bool guarded) {
        IndexMath m{cb, loc};
        Value from = getGlobalElementPointer(
            cb, loc, copy.src, m.add(copy.row, r),
            m.add(copy.col, m.mul(chunk, elementsPerChunk)));
        Value value = LLVM::LoadOp::create(cb, loc, chunkType, from, 16);
        Value to = offsetSharedPointer(cb, loc, copy.stageBase,
                                       ring.chunkOffset(cb, loc, r, chunk));
        if (guarded)
          LLVM::StoreOp::create(cb, loc, value, to, 16);
        else
          pending.push_back({value, to});
      });
  for (auto [value, to] : pending)
    LLVM::StoreOp::create(b, loc, value, to, 16);
}

static Value insideMask(OpBuilder &b, Location loc, Value memref, Value row,
                        Value col, int64_t n);
static Value clampedPointer(OpBuilder &b, Location loc, Value memref,
                            Value row, Value col, Value inside);

/// The 4 x 4 byte transpose of the words `rows` (row r holds bytes
/// (r, 0..3)): word q of the result holds bytes (0..3, q).
static SmallVector<Value, 4> transposeBytes(OpBuilder &b, Location loc,
                                            ArrayRef<Value> rows) {
  auto prmt = [&](Value lo, Value hi, int32_t selector) -> Value {
    Value sel = arith::ConstantIntOp::create(b, loc, b.getI32Type(), selector);
    return NVVM::PermuteOp::create(b, loc, b.getI32Type(), lo, hi, sel,
                                   NVVM::PermuteMode::DEFAULT);
  };
  // Interleave rows 0/1 and 2/3 byte by byte, then their halves.
  Value t0 = prmt(rows[0], rows[1], 0x5140), t1 = prmt(rows[0], rows[1], 0x7362);
  Value t2 = prmt(rows[2], rows[3], 0x5140), t3 = prmt(rows[2], rows[3], 0x7362);
  return {prmt(t0, t2, 0x5410), prmt(t0, t2, 0x7632), prmt(t1, t3, 0x5410),
          prmt(t1, t3, 0x7632)};
}

void mlir::tgemm::emitTransposedTileCopy(OpBuilder &b, Location loc,
                                         const TileCopy &copy, bool whole) {
  const RingLayout &ring = copy.ring;
  int64_t bytes = ring.elementBits / 8;
  // Units of 4 source rows (ring columns) x 16 bytes (ring rows).
  int64_t groups = ring.rowBytes / bytes / 4;
  int64_t perUnit = 16 / bytes;
  int64_t blocks = copy.rows / perUnit;
  auto chunkType = VectorType::get({4}, b.getI32Type());
  auto laneType = VectorType::get({perUnit}, b.getIntegerType(ring.elementBits));
  Value src = copy.src;
  Value tid = copy.threadIndex(b, loc);
  SmallVector<std::pair<Value, Value>> pending; // (value, destination)
  auto each = !whole && copy.producer ? forEachTileChunkRolled
                                      : forEachTileChunk;
  each(b, loc, blocks, groups, copy.threads, tid,
       [&](OpBuilder &cb, Value block, Value group, bool guarded) {
         IndexMath m{cb, loc};
         Value k = m.mul(group, 4);
         Value first = m.mul(block, perUnit);
         Value srcCol = m.add(copy.col, first);
         SmallVector<Value, 4> loaded;
         for (int64_t r = 0; r < 4; ++r) {
           Value srcRow = m.add(copy.row, m.add(k, r));
           if (whole) {
             Value from = getGlobalElementPointer(cb, loc, src, srcRow, srcCol);
             loaded.push_back(LLVM::LoadOp::create(cb, loc, chunkType, from, 16));
             continue;
           }
           Value mask = insideMask(cb, loc, src, srcRow, srcCol, perUnit);
           Value inside = vector::ExtractOp::create(cb, loc, mask, 0);
           Value from = clampedPointer(cb, loc, src, srcRow, srcCol, inside);
           Value value = LLVM::MaskedLoadOp::create(
               cb, loc, laneType, from, mask,
               LLVM::ZeroOp::create(cb, loc, laneType), bytes);
           loaded.push_back(LLVM::BitcastOp::create(cb, loc, chunkType, value));
         }
         auto store = [&](Value value, Value ringRow, Value byteCol,
                          unsigned alignment) {
           Value to = offsetSharedPointer(
               cb, loc, copy.stageBase, ring.byteOffset(cb, loc, ringRow, byteCol));
           if (guarded || !whole)
             LLVM::StoreOp::create(cb, loc, value, to, alignment);
           else
             pending.push_back({value, to});
         };
         for (int64_t j = 0; j < 4; ++j) {
           SmallVector<Value, 4> words;
           for (Value v : loaded)
             words.push_back(vector::ExtractOp::create(cb, loc, v, j));
           if (bytes == 1) {
             // Word j of each row holds ring rows first + 4j .. + 3.
             for (auto [q, word] : llvm::enumerate(transposeBytes(cb, loc, words)))
               store(word, m.add(first, 4 * j + int64_t(q)), k, 4);
             continue;
           }
           // 32-bit: element j of each row is ring row first + j.
           Value out = vector::FromElementsOp::create(cb, loc, chunkType, words);
           store(out, m.add(first, j), m.mul(k, bytes), 16);
         }
       });
  for (auto [value, to] : pending)
    LLVM::StoreOp::create(b, loc, value, to, value.getType().isInteger(32) ? 4 : 16);
}

void mlir::tgemm::forEachWholeTileChunk(
    OpBuilder &b, Location loc, const TileCopy &copy,
    function_ref<void(OpBuilder &, Value, Value)> emit) {
  const RingLayout &ring = copy.ring;
  Value src = copy.src, row = copy.row, col = copy.col;
  int64_t tileRows = copy.rows, threads = copy.threads;
  int64_t elementsPerChunk = 128 / ring.elementBits;
  int64_t chunksPerRow = ring.rowBytes / 16;
  Value tid = copy.threadIndex(b, loc);
  IndexMath im{b, loc};
  Value firstSource, roundBytes;
  if (threads % chunksPerRow == 0 && (tileRows * chunksPerRow) % threads == 0) {
    Value row0 = im.div(tid, chunksPerRow);
    Value chunk0 = im.rem(tid, chunksPerRow);
    firstSource = getGlobalElementPointer(
        b, loc, src, im.add(row, row0),
        im.add(col, im.mul(chunk0, elementsPerChunk)));
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, src);
    Value roundElements = im.mul(meta.getStrides()[0], threads / chunksPerRow);
    roundBytes = getElementBytes(b, loc, roundElements, ring.elementBits);
  }
  int64_t round = 0;
  forEachTileChunk(
      b, loc, tileRows, chunksPerRow, threads, tid,
      [&](OpBuilder &cb, Value r, Value chunk, bool) {
        IndexMath m{cb, loc};
        Value from;
        if (firstSource) {
          from = LLVM::GEPOp::create(
              cb, loc, firstSource.getType(), cb.getI8Type(), firstSource,
              ValueRange{m.toI64(m.mul(roundBytes, round++))});
        } else {
          from = getGlobalElementPointer(
              cb, loc, src, m.add(row, r),
              m.add(col, m.mul(chunk, elementsPerChunk)));
        }
        Value to = offsetSharedPointer(cb, loc, copy.stageBase,
                                       ring.chunkOffset(cb, loc, r, chunk));
        emit(cb, from, to);
      });
}

Value mlir::tgemm::getDynamicSharedMemory(OpBuilder &b, Location loc,
                                          gpu::GPUModuleOp module,
                                          int64_t alignment) {
  MLIRContext *ctx = b.getContext();
  auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kDynamicSharedName);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/false,
                           LLVM::Linkage::External, kDynamicSharedName,
                           Attribute(), alignment, /*addrSpace=*/3);
  } else if (global.getAlignment().value_or(0) < uint64_t(alignment)) {
    global.setAlignment(alignment);
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3),
                                   kDynamicSharedName);
}

Value mlir::tgemm::offsetSharedPointer(OpBuilder &b, Location loc, Value base,
                                       Value byteOffset) {
  IndexMath im{b, loc};
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{im.toI32(byteOffset)});
}

Value mlir::tgemm::getElementBytes(OpBuilder &b, Location loc, Value elements,
                                   int64_t bits) {
  IndexMath im{b, loc};
  // Sub-byte elements are packed, so divide rather than scale.
  return bits >= 8 ? im.mul(elements, bits / 8) : im.div(elements, 8 / bits);
}

Value mlir::tgemm::getGlobalElementPointer(OpBuilder &b, Location loc,
                                           Value memref, Value row,
                                           Value col) {
  IndexMath im{b, loc};
  auto type = cast<MemRefType>(memref.getType());
  int64_t bits = getElementBits(type.getElementType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value element = im.add(im.add(meta.getOffset(),
                                im.mul(row, meta.getStrides()[0])),
                         col);
  Value bytes = getElementBytes(b, loc, element, bits);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = im.toI64(im.add(base, bytes));
  MLIRContext *ctx = b.getContext();
  Value generic = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx), address);
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1), generic);
}

int64_t mlir::tgemm::getThreadsPerBlock(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  if (!size)
    return 0;
  int64_t threads = 1;
  for (int32_t d : *size)
    threads *= d;
  return threads;
}

namespace {
/// A tile ring or a barrier ring is its place in the one shared-memory
/// plan: the rings first, the barriers after them (only the wgmma
/// lowering's kernels have those; selectInstruction refuses them
/// elsewhere).
template <typename Op>
struct PlacedAllocLowering : public OpConversionPattern<Op> {
  PlacedAllocLowering(const TypeConverter &converter, MLIRContext *ctx,
                      const KernelMemoryPlan &plan, gpu::GPUModuleOp module)
      : OpConversionPattern<Op>(converter, ctx), plan(plan), module(module) {}
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath im{rewriter, loc};
    Value base = getDynamicSharedMemory(rewriter, loc, module, plan.alignment);
    rewriter.replaceOp(
        op, offsetSharedPointer(rewriter, loc, base, im.c(offsetOf(op))));
    return success();
  }
  int64_t offsetOf(AllocSmemOp op) const { return plan.rings.at(op).offset; }
  int64_t offsetOf(AllocBarriersOp op) const { return plan.barriers.at(op); }
  const KernelMemoryPlan &plan;
  gpu::GPUModuleOp module;
};

struct ZeroAccLowering : public OpConversionPattern<ZeroAccOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ZeroAccOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ZeroOp>(
        op, getTypeConverter()->convertType(op.getType()));
    return success();
  }
};
} // namespace

FailureOr<KernelInstruction>
mlir::tgemm::selectInstruction(gpu::GPUFuncOp kernel, ::tgemm::Family family) {
  KernelInstruction result;
  kernel.walk([&](MmaTileOp op) { result.mma = op; });
  MmaTileOp mma = result.mma;
  if (!mma)
    return result;
  bool wmma = family == ::tgemm::Family::Wmma;
  StringRef title = wmma ? "WMMA" : ::tgemm::familyName(family);
  Type aType = mma.getA().getType().getElementType();
  Type accType = mma.getAcc().getType().getElementType();
  auto a = getOperandKind(aType);
  result.fact = ::tgemm::lookupMma(
      family, *a, *getOperandKind(mma.getB().getType().getElementType()),
      *getResultKind(accType));
  if (!result.fact) {
    bool fp8 = *a == ::tgemm::ElemKind::E4M3 || *a == ::tgemm::ElemKind::E5M2;
    return mma.emitOpError()
           << title << " has no instruction for " << aType << " x "
           << mma.getB().getType().getElementType() << " -> " << accType
           << (wmma && fp8 ? "; fp8 needs the ptx lowering (mma.sync, sm_89+)"
                           : "");
  }
  const ::tgemm::InstrShape &shape = result.fact->shape;
  AccumulatorType tile = mma.getAcc().getType();
  if (tile.getRows() % shape.m || tile.getCols() % shape.n ||
      mma.getDepth() % shape.k)
    return mma.emitOpError()
           << "a " << tile.getRows() << "x" << tile.getCols() << "x"
           << mma.getDepth() << " warp tile is not a whole number of " << title
           << " m" << shape.m << "n" << shape.n << "k" << shape.k << " tiles";
  // Slices of a stage's multiply, and fragments, must each be whole
  // instruction k-steps.
  auto wholeSteps = [&](Operation *op, int64_t begin, int64_t end) {
    if (begin % shape.k == 0 && end % shape.k == 0)
      return WalkResult::advance();
    op->emitOpError() << "k_slice [" << begin << ", " << end - begin
                      << "] is not a whole number of " << title
                      << " k-steps (k = " << shape.k << ")";
    return WalkResult::interrupt();
  };
  WalkResult sliced = kernel.walk([&](Operation *op) {
    if (auto mma = dyn_cast<MmaTileOp>(op)) {
      auto [begin, end] = mma.getKRange();
      return wholeSteps(op, begin, end);
    }
    if (auto load = dyn_cast<LoadFragsOp>(op))
      return wholeSteps(op, load.getKSlice()[0],
                        load.getKSlice()[0] + load.getKSlice()[1]);
    return WalkResult::advance();
  });
  if (sliced.wasInterrupted())
    return failure();
  result.threads = getThreadsPerBlock(kernel);
  if (result.threads <= 0 || result.threads % 32)
    return kernel.emitOpError()
           << "needs a known_block_size of whole warps to lower tile copies";

  // Barriers, bulk copies and register budgets are the wgmma family's.
  if (family != ::tgemm::Family::Wgmma) {
    Operation *hopperOnly = nullptr;
    kernel.walk([&](Operation *op) {
      if (isa<AllocBarriersOp, InitBarriersOp, WaitBarrierOp, ArriveBarrierOp,
              BulkCopyTileOp, SetMaxRegistersOp, SyncClusterOp>(op) &&
          !hopperOnly)
        hopperOnly = op;
    });
    if (hopperOnly)
      return hopperOnly->emitOpError()
             << "needs the wgmma lowering (mbarriers, TMA and setmaxnreg "
                "of sm_90a); the "
             << ::tgemm::loweringName(family) << " lowering has none";
  }

  // The legality module's rules that the kernel-level IR still shows: the
  // operand layouts on the chip, the schedule's knobs and rows, and the
  // shared-memory plan against the chip (the same rules tgemm-check-target
  // asked of the matmul; a kernel-level test without a target is checked
  // as for sm_90).
  TargetAttr targetAttr = lookupTarget(kernel);
  ::tgemm::Target target{
      targetAttr ? &targetAttr.getChipInfo()
                 : ::tgemm::lookupChip(::tgemm::needsArchSpecificChip(family)
                                           ? "sm_90a"
                                           : "sm_90"),
      family};
  ::tgemm::Problem problem;
  problem.a = result.fact->a;
  problem.b = result.fact->b;
  problem.acc = problem.c = result.fact->acc;
  problem.rowA = mma.getLayoutA() == Layout::Row;
  problem.rowB = mma.getLayoutB() == Layout::Row;
  if (::tgemm::Verdict v = ::tgemm::checkFamily(problem, target))
    return emitViolation(mma, *v);
  auto schedule = kernel->getAttrOfType<ScheduleAttr>(
      ScheduleAttr::getAttrName());
  result.schedule =
      schedule ? schedule.getValue()
               : ::tgemm::defaultSchedule(family, {{0, 0, 0}, {1, 1}, 1});
  // The tile config the kernel's rings, accumulator and block imply, for
  // the schedule's rules on it (ring rows, warpgroups).
  auto ringA = cast<SmemType>(mma.getA().getType());
  auto ringB = cast<SmemType>(mma.getB().getType());
  int64_t blockM = problem.rowA ? ringA.getRows() : ringA.getCols();
  int64_t blockK = problem.rowA ? ringA.getCols() : ringA.getRows();
  int64_t blockN = problem.rowB ? ringB.getCols() : ringB.getRows();
  ::tgemm::TileConfig config{{blockM, blockN, blockK},
                             {blockM / tile.getRows(), blockN / tile.getCols()},
                             ringA.getStages()};
  int64_t warps = config.warps[0] * config.warps[1];
  int64_t threads = ::tgemm::blockThreads(config, result.schedule);
  if (threads != result.threads)
    return mma.emitOpError()
           << "a " << tile.getRows() << "x" << tile.getCols()
           << " warp tile of a " << blockM << "x" << blockN << " block needs "
           << threads << " threads"
           << (result.schedule.warpSpecialize
                   ? " (with the producer warpgroup)"
                   : "")
           << ", but the block has " << result.threads;
  if (::tgemm::Verdict v = ::tgemm::checkSchedule(problem, config,
                                                  result.schedule, family))
    return emitViolation(mma, *v);
  result.plan = KernelMemoryPlan::build(kernel, *result.fact, result.schedule,
                                        warps, tile.getCols());
  int64_t stages = cast<SmemType>(mma.getA().getType()).getStages();
  if (::tgemm::Verdict v = ::tgemm::checkSharedMemory(result.plan.totalBytes,
                                                      *target.chip, stages))
    return emitViolation(mma, *v);
  return result;
}

bool mlir::tgemm::isLoweredBy(gpu::GPUFuncOp kernel, ::tgemm::Family family) {
  TargetAttr target = lookupTarget(kernel);
  return !target || target.getFamily() == family;
}

Type mlir::tgemm::getFragmentArrayType(FragsType type,
                                       const ::tgemm::MmaFact &fact) {
  int64_t perStep = (type.getRows() / fact.shape.m) * fact.regsA +
                    (type.getCols() / fact.shape.n) * fact.regsB;
  return LLVM::LLVMArrayType::get(IntegerType::get(type.getContext(), 32),
                                  type.getDepth() / fact.shape.k * perStep);
}

Type mlir::tgemm::getAccumulatorArrayType(AccumulatorType type,
                                          const ::tgemm::MmaFact &fact,
                                          Type reg) {
  int64_t frags =
      (type.getRows() / fact.shape.m) * (type.getCols() / fact.shape.n);
  return LLVM::LLVMArrayType::get(reg, frags * fact.regsAcc);
}

SmallVector<Value> mlir::tgemm::unpackAccumulator(OpBuilder &b, Location loc,
                                                  Value acc) {
  auto type = cast<LLVM::LLVMArrayType>(acc.getType());
  SmallVector<Value> regs;
  for (unsigned i = 0; i < type.getNumElements(); ++i)
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, acc, i));
  return regs;
}

Value mlir::tgemm::packAccumulator(OpBuilder &b, Location loc, Type type,
                                   ArrayRef<Value> regs) {
  Value acc = LLVM::PoisonOp::create(b, loc, type);
  for (auto [i, reg] : llvm::enumerate(regs))
    acc = LLVM::InsertValueOp::create(b, loc, acc, reg, i);
  return acc;
}

AccumulatorFragments::AccumulatorFragments(AccumulatorType type,
                                           const MmaFact &fact)
    : fragsM(type.getRows() / fact.shape.m),
      fragsN(type.getCols() / fact.shape.n), regs(fact.regsAcc) {}

MmaStepper::~MmaStepper() = default;

Value mlir::tgemm::accumulateSteps(OpBuilder &b, Location loc, MmaTileOp op,
                                   Value acc, const MmaFact &fact,
                                   MmaStepper &stepper) {
  const AccumulatorFragments &frags = stepper.frags;
  auto [kBegin, kEnd] = op.getKRange();
  int64_t first = kBegin / fact.shape.k, end = kEnd / fact.shape.k;
  SmallVector<Value> regs = unpackAccumulator(b, loc, acc);
  auto multiply = [&](const FragmentStep &step) {
    for (int64_t fm = 0; fm < frags.fragsM; ++fm) {
      for (int64_t j = 0; j < frags.fragsN; ++j) {
        int64_t fn = stepper.serpentine && fm % 2 ? frags.fragsN - 1 - j : j;
        MutableArrayRef<Value> c =
            frags.fragment(MutableArrayRef<Value>(regs), fm, fn);
        SmallVector<Value> d = stepper.mma(step.a[fm], step.b[fn], c);
        llvm::copy(d, c.begin());
      }
    }
  };
  if (!stepper.prefetch) {
    for (int64_t ks = first; ks < end; ++ks)
      multiply(stepper.load(ks));
  } else {
    FragmentStep current = stepper.load(first);
    for (int64_t ks = first; ks < end; ++ks) {
      std::optional<FragmentStep> next;
      if (ks + 1 < end)
        next = stepper.load(ks + 1);
      multiply(current);
      if (next)
        current = std::move(*next);
    }
  }
  return packAccumulator(b, loc, acc.getType(), regs);
}

EpilogueStaging::EpilogueStaging(Location loc, StoreTileOp op,
                                 StoreTileOp::Adaptor adaptor,
                                 const MmaFact &fact)
    : loc(loc), frags(op.getAcc().getType(), fact),
      accElement(op.getAcc().getType().getElementType()),
      tileRow(adaptor.getRow()), tileCol(adaptor.getCol()) {}

EpilogueStaging::~EpilogueStaging() = default;

KernelLowering::KernelLowering(gpu::GPUFuncOp kernel,
                               const KernelInstruction &selected)
    : fact(*selected.fact), plan(selected.plan), threads(selected.threads),
      module(kernel->getParentOfType<gpu::GPUModuleOp>()),
      asyncCopy(selected.schedule.asyncCopy) {}

KernelLowering::~KernelLowering() = default;

void KernelLowering::emitAsyncEdgeCopy(OpBuilder &b, Location loc,
                                       const TileCopy &copy) const {
  emitGuardedTileCopy(b, loc, copy);
}

LogicalResult KernelLowering::emitBulkStore(OpBuilder &, StoreTileOp op,
                                            StoreTileOp::Adaptor) const {
  return op.emitOpError()
         << "stores through a tensor map (via), which only the wgmma "
            "lowering has (tma_store)";
}

void KernelLowering::waitForCopies(OpBuilder &b, Location loc) const {
  if (asyncCopy)
    emitWaitGroup(b, loc, 0);
}

namespace {
/// A tile copy: synchronous, or through the family's asynchronous copies;
/// for a tile inside its operand or at its edge (emitTileCopy).
struct CopyTileLowering : public KernelPattern<CopyTileOp, KernelLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(CopyTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const RingLayout &ring = lowering.ring(op.getDst());
    Value stageBase =
        ring.stagePointer(rewriter, loc, adaptor.getDst(), adaptor.getStage());
    int64_t rows = op.getDst().getType().getRows();
    TileCopy copy{adaptor.getSrc(),
                  adaptor.getRow(),
                  adaptor.getCol(),
                  stageBase,
                  ring,
                  rows,
                  lowering.threads};
    if (std::optional<ArrayRef<int64_t>> threads = op.getThreads()) {
      copy.firstThread = (*threads)[0];
      copy.threads = (*threads)[1];
      copy.producer = true;
    }
    if (op.getTranspose()) {
      SmemType type = op.getDst().getType();
      emitWhere(rewriter, loc, adaptor.getPredicate(), [&](OpBuilder &pb) {
        if (op.getInBounds()) {
          emitTransposedTileCopy(pb, loc, copy, /*whole=*/true);
          return;
        }
        // The stored block is C x R.
        Value inside = isWholeAlignedTile(pb, loc, copy.src, copy.row,
                                          copy.col, type.getCols(),
                                          type.getRows());
        scf::IfOp::create(
            pb, loc, inside,
            [&](OpBuilder &tb, Location) {
              emitTransposedTileCopy(tb, loc, copy, /*whole=*/true);
              scf::YieldOp::create(tb, loc);
            },
            [&](OpBuilder &eb, Location) {
              emitTransposedTileCopy(eb, loc, copy, /*whole=*/false);
              scf::YieldOp::create(eb, loc);
            });
      });
      lowering.emitSharedStoresFence(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }
    bool async = lowering.isAsync(op);
    emitTileCopy(
        rewriter, loc, op, copy, adaptor.getPredicate(), async,
        [&](OpBuilder &b, Value predicate) {
          if (async)
            lowering.emitAsyncCopy(b, loc, copy, predicate);
          else
            emitSyncTileCopy(b, loc, copy);
        },
        [&](OpBuilder &b) {
          if (async)
            lowering.emitAsyncEdgeCopy(b, loc, copy);
          else
            emitGuardedTileCopy(b, loc, copy);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// A tile transposed from one ring into another (staging -> K-major).
/// Thread t takes blocks t, t + threads, ... of 4 source rows x 16 bytes,
/// consecutive blocks along a destination row: a warp's 32 stores of one
/// destination row are 128 bytes, conflict-free. Its 4 loads start at row
/// (i + s) mod 4 of the block, s = (block / 2) mod 4, so that the 8 threads
/// of a quarter-warp read 8 rows of distinct k mod 8, whose 128-byte
/// swizzle puts them in 8 different bank groups; the byte transpose then
/// holds row (p + s) mod 4 in byte p, and one more prmt rotates it back.
struct TransposeTileLowering
    : public KernelPattern<TransposeTileOp, KernelLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(TransposeTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const RingLayout &from = lowering.ring(op.getSrc());
    const RingLayout &to = lowering.ring(op.getDst());
    Value srcBase = from.stagePointer(rewriter, loc, adaptor.getSrc(),
                                      adaptor.getSrcStage());
    Value dstBase =
        to.stagePointer(rewriter, loc, adaptor.getDst(), adaptor.getStage());
    SmemType dst = op.getDst().getType();
    int64_t groups = dst.getCols() / 4, blocks = dst.getRows() / 16;
    ArrayRef<int64_t> threads = op.getThreads();
    IndexMath im{rewriter, loc};
    Value tid = arith::SubIOp::create(
        rewriter, loc, gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x),
        im.c(threads[0]));
    auto chunkType = VectorType::get({4}, rewriter.getI32Type());
    Type i32 = rewriter.getI32Type();
    SmallVector<std::pair<Value, Value>> pending;
    forEachTileChunk(
        rewriter, loc, blocks, groups, threads[1], tid,
        [&](OpBuilder &cb, Value block, Value group, bool guarded) {
          IndexMath m{cb, loc};
          Value k = m.mul(group, 4);
          Value first = m.mul(block, 16);
          Value s = m.rem(m.div(group, 2), 4);
          SmallVector<Value, 4> loaded;
          for (int64_t i = 0; i < 4; ++i) {
            Value row = m.add(k, m.rem(m.add(s, i), 4));
            Value ptr = offsetSharedPointer(cb, loc, srcBase,
                                            from.byteOffset(cb, loc, row, first));
            loaded.push_back(LLVM::LoadOp::create(cb, loc, chunkType, ptr, 16));
          }
          // Byte r of the result takes byte (r - s) mod 4:
          // (0x32103210 >> (16 - 4 s)) & 0xffff.
          Value s32 = arith::IndexCastOp::create(cb, loc, i32, s);
          Value shift = arith::SubIOp::create(
              cb, loc, arith::ConstantIntOp::create(cb, loc, i32, 16),
              arith::MulIOp::create(
                  cb, loc, s32, arith::ConstantIntOp::create(cb, loc, i32, 4)));
          Value rotate = arith::ShRUIOp::create(
              cb, loc, arith::ConstantIntOp::create(cb, loc, i32, 0x32103210),
              shift);
          for (int64_t j = 0; j < 4; ++j) {
            SmallVector<Value, 4> words;
            for (Value v : loaded)
              words.push_back(vector::ExtractOp::create(cb, loc, v, j));
            for (auto [q, word] :
                 llvm::enumerate(transposeBytes(cb, loc, words))) {
              Value back = NVVM::PermuteOp::create(
                  cb, loc, i32, word, word, rotate,
                  NVVM::PermuteMode::DEFAULT);
              Value to_ = offsetSharedPointer(
                  cb, loc, dstBase,
                  to.byteOffset(cb, loc, m.add(first, 4 * j + int64_t(q)), k));
              if (guarded)
                LLVM::StoreOp::create(cb, loc, back, to_, 4);
              else
                pending.push_back({back, to_});
            }
          }
        });
    for (auto [value, ptr] : pending)
      LLVM::StoreOp::create(rewriter, loc, value, ptr, 4);
    lowering.emitSharedStoresFence(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The family's groups of asynchronous copies and waits on them; without
/// async-copy every copy is synchronous, and they have nothing to do.
struct CommitCopiesLowering
    : public KernelPattern<CommitCopiesOp, KernelLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(CommitCopiesOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (lowering.asyncCopy)
      lowering.emitCommitGroup(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitCopiesLowering : public KernelPattern<WaitCopiesOp, KernelLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(WaitCopiesOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (lowering.asyncCopy)
      lowering.emitWaitGroup(rewriter, op.getLoc(), op.getPending());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The accumulator itself, once the family's multiplies in flight have
/// completed.
struct WaitMmaLowering : public KernelPattern<WaitMmaOp, KernelLowering> {
  using KernelPattern::KernelPattern;
  LogicalResult
  matchAndRewrite(WaitMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    lowering.emitMmaWait(rewriter, op.getLoc(), 0);
    rewriter.replaceOp(op, adaptor.getAcc());
    return success();
  }
};

} // namespace

void mlir::tgemm::emitStagedEpilogue(OpBuilder &b, Location loc, StoreTileOp op,
                                     StoreTileOp::Adaptor adaptor,
                                     EpilogueStaging &staging) {
  Value mask = arith::ConstantIntOp::create(b, loc, -1, 32);
  Value dst = adaptor.getDst();
  EpilogueSpec epilogue =
      EpilogueSpec::get(op.getAlphaValue(), op.getBetaValue(),
                        op.getEpilogueAttr(), adaptor.getEpilogueOperands());
  // Any size: a vector inside C whose rows (and the steps' operands) are
  // aligned is stored whole, the rest element by element, so that an edge
  // tile stores its inner vectors whole too (16-bit C at 1000^3: the edge
  // tiles' element stores set the kernel's time; bench/README.md, "Deep K
  // and the small cube"). A null `aligned` (in_bounds) stores every vector
  // unguarded.
  Value aligned;
  if (!op.getInBounds()) {
    aligned = hasAlignedRows(b, loc, dst, staging.getAlignment());
    if (!epilogue.steps.empty())
      aligned = arith::AndIOp::create(
          b, loc, aligned, epilogueOperandsAligned(b, loc, epilogue));
  }
  Value rows, cols;
  if (aligned) {
    rows = memref::DimOp::create(b, loc, dst, 0);
    cols = memref::DimOp::create(b, loc, dst, 1);
  }
  SmallVector<Value> acc = unpackAccumulator(b, loc, adaptor.getAcc());
  for (int64_t piece = 0; piece < staging.getNumPieces(); ++piece) {
    staging.write(b, piece, acc);
    NVVM::SyncWarpOp::create(b, loc, mask);
    staging.readBack(
        b, piece, [&](OpBuilder &vb, Value v, Value row, Value col) {
          Value whole;
          if (aligned) {
            IndexMath m{vb, loc};
            int64_t n = cast<VectorType>(v.getType()).getNumElements();
            whole = arith::AndIOp::create(
                vb, loc, aligned,
                arith::AndIOp::create(
                    vb, loc, m.lt(row, rows),
                    arith::CmpIOp::create(vb, loc, arith::CmpIPredicate::ule,
                                          m.add(col, n), cols)));
          }
          storeEpilogueVector(vb, loc, v, dst, row, col, epilogue,
                              staging.getAlignment(), whole);
        });
    // The next piece overwrites the scratch.
    NVVM::SyncWarpOp::create(b, loc, mask);
  }
}

LogicalResult mlir::tgemm::lowerTileOps(ModuleOp module, gpu::GPUFuncOp kernel,
                                        const KernelLowering &lowering,
                                        StringRef name) {
  MLIRContext *ctx = kernel.getContext();
  const MmaFact &fact = lowering.fact;
  Type reg = lowering.getAccumulatorRegister();
  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion(
      [&](SmemType) -> Type { return LLVM::LLVMPointerType::get(ctx, 3); });
  converter.addConversion(
      [&](BarriersType) -> Type { return LLVM::LLVMPointerType::get(ctx, 3); });
  converter.addConversion([&](AccumulatorType type) -> Type {
    return getAccumulatorArrayType(type, fact, reg);
  });
  converter.addConversion([&](FragsType type) -> Type {
    return getFragmentArrayType(type, fact);
  });
  ConversionTarget target(*ctx);
  target.addIllegalDialect<TGemmDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(ctx);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  populateRingPatterns(patterns, converter, lowering.plan, lowering.module);
  populateSplitKPatterns(patterns, converter);
  patterns.add<CopyTileLowering, TransposeTileLowering, CommitCopiesLowering,
               WaitCopiesLowering,
               WaitMmaLowering>(converter, ctx, lowering);
  lowering.populatePatterns(patterns, converter);
  if (failed(applyPartialConversion(kernel, target, std::move(patterns))))
    return failure();
  return finishKernelLaunches(module, kernel, name, lowering.plan.totalBytes);
}

LogicalResult mlir::tgemm::lowerKernels(ModuleOp module, ::tgemm::Family family,
                                        KernelLoweringFactory create) {
  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp f) {
    if (isLoweredBy(f, family))
      kernels.push_back(f);
  });
  auto lowerKernel = [&](gpu::GPUFuncOp kernel) -> LogicalResult {
    FailureOr<KernelInstruction> selected = selectInstruction(kernel, family);
    if (failed(selected))
      return failure();
    if (!selected->mma)
      return success();
    FailureOr<std::unique_ptr<KernelLowering>> lowering =
        create(kernel, *selected);
    if (failed(lowering))
      return failure();
    return lowerTileOps(module, kernel, **lowering,
                        ::tgemm::loweringName(family));
  };
  bool failedAny = false;
  for (gpu::GPUFuncOp kernel : kernels)
    if (failed(lowerKernel(kernel)))
      failedAny = true;
  return failure(failedAny);
}

void mlir::tgemm::populateRingPatterns(RewritePatternSet &patterns,
                                       const TypeConverter &converter,
                                       const KernelMemoryPlan &plan,
                                       gpu::GPUModuleOp module) {
  patterns.add<PlacedAllocLowering<AllocSmemOp>,
               PlacedAllocLowering<AllocBarriersOp>>(
      converter, patterns.getContext(), plan, module);
  patterns.add<ZeroAccLowering>(converter, patterns.getContext());
}

Type mlir::tgemm::accumulatorRegisterType(MLIRContext *ctx,
                                          const MmaFact &fact) {
  if (fact.acc == ::tgemm::ElemKind::F32)
    return Float32Type::get(ctx);
  return IntegerType::get(ctx, 32);
}

Value mlir::tgemm::getScratchPointer(OpBuilder &b, Location loc,
                                     const KernelMemoryPlan &plan,
                                     gpu::GPUModuleOp module, Value offset) {
  IndexMath im{b, loc};
  return offsetSharedPointer(
      b, loc, getDynamicSharedMemory(b, loc, module, plan.alignment),
      im.add(offset, plan.scratchOffset));
}

/// The mask of lanes i in [0, n) with `rowInside` and start + i < limit.
static Value laneMask(OpBuilder &b, Location loc, Value rowInside, Value start,
                      Value limit, int64_t n) {
  auto indexVec = VectorType::get({n}, b.getIndexType());
  SmallVector<int64_t> ids = llvm::to_vector(llvm::seq<int64_t>(0, n));
  Value laneIds = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(indexVec, ArrayRef<int64_t>(ids)));
  Value first = vector::BroadcastOp::create(b, loc, indexVec, start);
  Value bound = vector::BroadcastOp::create(b, loc, indexVec, limit);
  Value inside = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult,
      arith::AddIOp::create(b, loc, first, laneIds), bound);
  Value row = vector::BroadcastOp::create(
      b, loc, VectorType::get({n}, b.getI1Type()), rowInside);
  return arith::AndIOp::create(b, loc, inside, row);
}

/// The mask of the `n` elements (row, col + i) of `memref` that lie inside it.
static Value insideMask(OpBuilder &b, Location loc, Value memref, Value row,
                        Value col, int64_t n) {
  IndexMath im{b, loc};
  Value rows = memref::DimOp::create(b, loc, memref, 0);
  Value cols = memref::DimOp::create(b, loc, memref, 1);
  return laneMask(b, loc, im.lt(row, rows), col, cols, n);
}

/// `ptr` where `inside` holds, else the memref's base address: an address
/// that is always valid for a masked access to point at.
static Value clampedPointer(OpBuilder &b, Location loc, Value memref,
                            Value row, Value col, Value inside) {
  IndexMath im{b, loc};
  Value zero = im.c(0);
  Value safeRow = arith::SelectOp::create(b, loc, inside, row, zero);
  Value safeCol = arith::SelectOp::create(b, loc, inside, col, zero);
  return getGlobalElementPointer(b, loc, memref, safeRow, safeCol);
}

Value mlir::tgemm::hasAlignedRows(OpBuilder &b, Location loc, Value src,
                                  int64_t bytes) {
  IndexMath im{b, loc};
  int64_t bits = getElementBits(cast<MemRefType>(src.getType()).getElementType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, src);
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, im.c(0))
        .getResult();
  };
  // elements * bits / 8 % bytes == 0  <=>  elements * bits % (8 bytes) == 0
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, src);
  Value stride = isZero(im.rem(im.mul(meta.getStrides()[0], bits), 8 * bytes));
  Value offset = isZero(im.rem(im.mul(meta.getOffset(), bits), 8 * bytes));
  return arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, stride, offset),
      isZero(im.rem(base, bytes)));
}

Value mlir::tgemm::isWholeAlignedTile(OpBuilder &b, Location loc, Value src,
                                     Value row, Value col, int64_t rows,
                                     int64_t cols) {
  IndexMath im{b, loc};
  auto le = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, x, y)
        .getResult();
  };
  Value inside = arith::AndIOp::create(
      b, loc, le(im.add(row, rows), memref::DimOp::create(b, loc, src, 0)),
      le(im.add(col, cols), memref::DimOp::create(b, loc, src, 1)));
  return arith::AndIOp::create(b, loc, inside, hasAlignedRows(b, loc, src));
}

void mlir::tgemm::emitGuardedTileCopy(OpBuilder &b, Location loc,
                                      const TileCopy &copy) {
  const RingLayout &ring = copy.ring;
  Value src = copy.src, row = copy.row, col = copy.col;
  // Whole bytes for sub-byte types: a row of them starts on a byte.
  int64_t granule = std::max<int64_t>(8, ring.elementBits);
  int64_t lanes = 128 / granule;
  int64_t elementsPerLane = granule / ring.elementBits;
  auto laneType = VectorType::get({lanes}, b.getIntegerType(granule));
  auto chunkType = VectorType::get({4}, b.getI32Type());
  Value tid = copy.threadIndex(b, loc);
  Value aligned = hasAlignedRows(b, loc, src);
  int64_t elementsPerChunk = 128 / ring.elementBits;
  forEachEdgeChunk(
      b, loc, copy, tid,
      [&](OpBuilder &cb, Value r, Value chunk, bool) {
        IndexMath m{cb, loc};
        Value srcRow = m.add(row, r);
        Value srcCol = m.add(col, m.mul(chunk, 128 / ring.elementBits));
        // Lane i holds granule srcCol / e + i of the row, where a row has
        // cols / e granules (e elements each; exact for sub-byte rows).
        Value rows = memref::DimOp::create(cb, loc, src, 0);
        Value cols = memref::DimOp::create(cb, loc, src, 1);
        Value mask = laneMask(cb, loc, m.lt(srcRow, rows),
                              m.div(srcCol, elementsPerLane),
                              m.div(cols, elementsPerLane), lanes);
        // Chunks wholly inside an aligned operand (all but those at its
        // edges) still move as one 16-byte load.
        Value whole = arith::AndIOp::create(
            cb, loc,
            arith::AndIOp::create(
                cb, loc, m.lt(srcRow, rows),
                arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::ule,
                                      m.add(srcCol, elementsPerChunk), cols)),
            aligned);
        auto load = scf::IfOp::create(
            cb, loc, whole,
            [&](OpBuilder &wb, Location) {
              Value from = getGlobalElementPointer(wb, loc, src, srcRow, srcCol);
              scf::YieldOp::create(
                  wb, loc, ValueRange{LLVM::LoadOp::create(wb, loc, chunkType,
                                                           from, 16)});
            },
            [&](OpBuilder &pb, Location) {
              Value first = vector::ExtractOp::create(pb, loc, mask, 0);
              Value from = clampedPointer(pb, loc, src, srcRow, srcCol, first);
              Value value = LLVM::MaskedLoadOp::create(
                  pb, loc, laneType, from, mask,
                  LLVM::ZeroOp::create(pb, loc, laneType), granule / 8);
              scf::YieldOp::create(
                  pb, loc,
                  ValueRange{LLVM::BitcastOp::create(pb, loc, chunkType, value)});
            });
        Value to = offsetSharedPointer(cb, loc, copy.stageBase,
                                       ring.chunkOffset(cb, loc, r, chunk));
        LLVM::StoreOp::create(cb, loc, load.getResult(0), to, 16);
      });
}

EpilogueSpec EpilogueSpec::get(double alpha, double beta, ArrayAttr epilogue,
                               ValueRange operands) {
  EpilogueSpec spec;
  spec.alpha = alpha;
  spec.beta = beta;
  if (!epilogue)
    return spec;
  unsigned next = 0;
  for (Attribute attr : epilogue) {
    auto step = cast<EpilogueStepAttr>(attr);
    spec.steps.push_back({step.getOp(), step.getBroadcast(),
                          step.takesOperand() ? operands[next++] : Value()});
  }
  return spec;
}

/// Whether every operand of the epilogue's steps starts on a 16-byte
/// boundary (and a residual's rows): then its vectors load whole where C's
/// do. An i1, uniform; true without operands.
Value mlir::tgemm::epilogueOperandsAligned(OpBuilder &b, Location loc,
                                           const EpilogueSpec &epilogue) {
  IndexMath im{b, loc};
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, im.c(0))
        .getResult();
  };
  for (const FusedStep &step : epilogue.steps) {
    if (!step.operand)
      continue;
    auto type = cast<MemRefType>(step.operand.getType());
    if (type.getRank() == 2) {
      all = arith::AndIOp::create(b, loc, all,
                                  hasAlignedRows(b, loc, step.operand));
      continue;
    }
    int64_t bits = getElementBits(type.getElementType());
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, step.operand);
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, step.operand);
    all = arith::AndIOp::create(
        b, loc, all, isZero(im.rem(im.mul(meta.getOffset(), bits), 128)));
    all = arith::AndIOp::create(b, loc, all, isZero(im.rem(base, 16)));
  }
  return all;
}

/// Address of element `index` of the rank-1 memref `vector` (global).
static Value getVectorElementPointer(OpBuilder &b, Location loc, Value vector,
                                     Value index) {
  IndexMath im{b, loc};
  auto type = cast<MemRefType>(vector.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, vector);
  Value element = im.add(meta.getOffset(), im.mul(index, meta.getStrides()[0]));
  Value bytes =
      getElementBytes(b, loc, element, getElementBits(type.getElementType()));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, vector);
  MLIRContext *ctx = b.getContext();
  Value generic = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx), im.toI64(im.add(base, bytes)));
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1), generic);
}

/// One PTX instruction `opcode d, a;` on each element of an f32 vector.
static Value approxVector(OpBuilder &b, Location loc, Value x,
                          StringRef opcode) {
  auto type = cast<VectorType>(x.getType());
  Value out = x;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    Value e = vector::ExtractOp::create(b, loc, x, i);
    PtxBuilder ptx(b, loc);
    std::string d = ptx.output(b.getF32Type(), "=f");
    std::string a = ptx.input(e, "f");
    Value r = ptx.emit(opcode.str() + " " + d + ", " + a + ";",
                       /*sideEffects=*/false)[0];
    out = vector::InsertOp::create(b, loc, r, out, i);
  }
  return out;
}

/// 2^x (`ex2.approx.ftz.f32`: PTX ISA, "ex2", maximum relative error
/// 2^-22).
static Value exp2Vector(OpBuilder &b, Location loc, Value x) {
  return approxVector(b, loc, x, "ex2.approx.ftz.f32");
}

/// 1/x (`rcp.approx.ftz.f32`: PTX ISA, "rcp", maximum error 1 ulp; 1/inf
/// is 0). The activations take it for 1/(1 + e) >= 1, where the IEEE
/// division (div.rn.f32) leaves its fast path once e is past 2^126, as
/// e^-x is for half the inputs of a sigmoid.
static Value reciprocalVector(OpBuilder &b, Location loc, Value x) {
  return approxVector(b, loc, x, "rcp.approx.ftz.f32");
}

/// An activation of an f32 vector, with the definitions of
/// runtime/Epilogue.h computed from 2^x:
///   relu(v)      = v > 0 ? v : 0
///   silu(v)      = v / (1 + e^-v)     (v * rcp(1 + e^-v))
///   gelu_tanh(v) = 0.5 v (1 + tanh(u)) = v / (1 + e^-2u),
///                  u = sqrt(2/pi) (v + 0.044715 v^3)
///   gelu_erf(v)  = 0.5 v (1 + erf(v / sqrt 2)), with erfc(a) for a >= 0
///                  from Abramowitz and Stegun, Handbook of Mathematical
///                  Functions, 7.1.26 (absolute error at most 1.5e-7), so
///                  that 1 + erf(x) = erfc(-x) keeps its precision for x < 0.
static Value applyActivation(OpBuilder &b, Location loc,
                             ::tgemm::runtime::EpilogueOp op, Value v) {
  using ::tgemm::runtime::EpilogueOp;
  auto type = cast<VectorType>(v.getType());
  auto splat = [&](double c) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getFloatAttr(b.getF32Type(), c)));
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulFOp::create(b, loc, x, y);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, loc, x, y);
  };
  const double log2e = 1.4426950408889634;
  // v / (1 + e^-x)
  auto overOnePlusExp = [&](Value x) -> Value {
    Value e = exp2Vector(b, loc, mul(x, splat(-log2e)));
    return mul(v, reciprocalVector(b, loc, add(splat(1.0), e)));
  };
  switch (op) {
  case EpilogueOp::Relu: {
    Value positive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v, splat(0.0));
    return arith::SelectOp::create(b, loc, positive, v, splat(0.0));
  }
  case EpilogueOp::Silu:
    return overOnePlusExp(v);
  case EpilogueOp::GeluTanh: {
    Value cube = mul(mul(v, v), v);
    Value u = mul(add(v, mul(cube, splat(0.044715))),
                  splat(0.7978845608028654));
    return overOnePlusExp(mul(u, splat(2.0)));
  }
  case EpilogueOp::GeluErf: {
    Value x = mul(v, splat(0.7071067811865476));
    Value negative =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, splat(0.0));
    Value a = arith::SelectOp::create(b, loc, negative,
                                      arith::NegFOp::create(b, loc, x), x);
    Value t = reciprocalVector(b, loc,
                               add(splat(1.0), mul(a, splat(0.3275911))));
    Value poly = splat(1.061405429);
    for (double coefficient :
         {-1.453152027, 1.421413741, -0.284496736, 0.254829592})
      poly = add(mul(poly, t), splat(coefficient));
    poly = mul(poly, t);
    // erfc(a) = poly * e^(-a^2)
    Value erfc = mul(poly, exp2Vector(b, loc, mul(mul(a, a), splat(-log2e))));
    Value onePlusErf = arith::SelectOp::create(
        b, loc, negative, erfc,
        arith::SubFOp::create(b, loc, splat(2.0), erfc));
    return mul(mul(v, splat(0.5)), onePlusErf);
  }
  default:
    return v;
  }
}

/// The f32 vector a step reads for the `n` elements (row, col ...) of `dst`:
/// a broadcast vector's element(s) or a residual's row segment. `mask` is
/// null on the whole path (aligned vector loads), else the elements inside
/// `dst` (masked loads); `colMultiple` is what `col` is known to be a
/// multiple of.
static Value loadStepOperand(OpBuilder &b, Location loc, const FusedStep &step,
                             Value dst, Value row, Value col, int64_t n,
                             int64_t colMultiple, Value mask) {
  using ::tgemm::runtime::Broadcast;
  using ::tgemm::runtime::EpilogueOp;
  IndexMath im{b, loc};
  Type element = cast<MemRefType>(step.operand.getType()).getElementType();
  int64_t bits = getElementBits(element);
  auto vecType = VectorType::get({n}, element);
  auto f32Vec = VectorType::get({n}, b.getF32Type());
  auto widen = [&](Value v) -> Value {
    if (element.isF32())
      return v;
    return arith::ExtFOp::create(b, loc, f32Vec, v);
  };
  int64_t vectorAlign =
      std::max<int64_t>(bits / 8, std::min<int64_t>(16, colMultiple * bits / 8));
  if (step.op == EpilogueOp::Residual) {
    if (!mask)
      return widen(LLVM::LoadOp::create(
          b, loc, vecType,
          getGlobalElementPointer(b, loc, step.operand, row, col), vectorAlign));
    Value first = vector::ExtractOp::create(b, loc, mask, 0);
    Value ptr = clampedPointer(b, loc, step.operand, row, col, first);
    return widen(LLVM::MaskedLoadOp::create(b, loc, vecType, ptr, mask,
                                            LLVM::ZeroOp::create(b, loc, vecType),
                                            bits / 8));
  }
  if (step.broadcast == Broadcast::Col) {
    if (!mask)
      return widen(LLVM::LoadOp::create(
          b, loc, vecType, getVectorElementPointer(b, loc, step.operand, col),
          vectorAlign));
    // Lanes outside C are not read; the first lane's column may be.
    Value first = vector::ExtractOp::create(b, loc, mask, 0);
    Value safeCol = arith::SelectOp::create(b, loc, first, col, im.c(0));
    Value ptr = getVectorElementPointer(b, loc, step.operand, safeCol);
    return widen(LLVM::MaskedLoadOp::create(b, loc, vecType, ptr, mask,
                                            LLVM::ZeroOp::create(b, loc, vecType),
                                            bits / 8));
  }
  // One value for the whole vector: the row's, or the tensor's.
  Value index = im.c(0);
  if (step.broadcast == Broadcast::Row) {
    index = row;
    if (mask) {
      Value rows = memref::DimOp::create(b, loc, dst, 0);
      index = arith::SelectOp::create(b, loc, im.lt(row, rows), row, im.c(0));
    }
  }
  Value scalar = LLVM::LoadOp::create(
      b, loc, element, getVectorElementPointer(b, loc, step.operand, index),
      bits / 8);
  if (!element.isF32())
    scalar = arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
  return vector::BroadcastOp::create(b, loc, f32Vec, scalar);
}

/// `alpha * acc + beta * c` (c absent when beta is 0), then the epilogue's
/// steps, converted to `cElement`. `load` gives the f32 vector a step
/// reads.
static Value epilogueMath(OpBuilder &b, Location loc, Value acc, Value c,
                          const EpilogueSpec &epilogue, Type cElement,
                          function_ref<Value(const FusedStep &)> load) {
  auto accType = cast<VectorType>(acc.getType());
  int64_t n = accType.getNumElements();
  double alpha = epilogue.alpha, beta = epilogue.beta;
  // Integers stay integers only for an integer C (which takes no steps).
  bool isInt = isa<IntegerType>(cElement);
  Type compute = isInt ? cElement : b.getF32Type();
  auto vec = [&](Type element) { return VectorType::get({n}, element); };
  auto splat = [&](double v) -> Value {
    Attribute scalar = isInt ? Attribute(b.getIntegerAttr(compute, (int64_t)v))
                             : Attribute(b.getFloatAttr(compute, v));
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vec(compute), scalar));
  };
  auto widen = [&](Value v) -> Value {
    Type element = cast<VectorType>(v.getType()).getElementType();
    if (element == compute)
      return v;
    if (isa<IntegerType>(element))
      return arith::SIToFPOp::create(b, loc, vec(compute), v);
    return arith::ExtFOp::create(b, loc, vec(compute), v);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return isInt ? arith::MulIOp::create(b, loc, x, y).getResult()
                 : arith::MulFOp::create(b, loc, x, y).getResult();
  };
  auto add = [&](Value x, Value y) -> Value {
    return isInt ? arith::AddIOp::create(b, loc, x, y).getResult()
                 : arith::AddFOp::create(b, loc, x, y).getResult();
  };
  Value v = widen(acc);
  if (alpha != 1.0)
    v = mul(v, splat(alpha));
  if (c)
    v = add(v, mul(widen(c), splat(beta)));
  for (const FusedStep &step : epilogue.steps) {
    switch (step.op) {
    case ::tgemm::runtime::EpilogueOp::Bias:
    case ::tgemm::runtime::EpilogueOp::Residual:
      v = add(v, load(step));
      break;
    case ::tgemm::runtime::EpilogueOp::Scale:
      v = mul(v, load(step));
      break;
    default:
      v = applyActivation(b, loc, step.op, v);
      break;
    }
  }
  if (cElement != compute)
    v = arith::TruncFOp::create(b, loc, vec(cElement), v);
  return v;
}

void mlir::tgemm::storeEpilogueVector(OpBuilder &b, Location loc, Value acc,
                                      Value dst, Value row, Value col,
                                      const EpilogueSpec &epilogue,
                                      int64_t alignment, Value whole) {
  Type cElement = cast<MemRefType>(dst.getType()).getElementType();
  int64_t n = cast<VectorType>(acc.getType()).getNumElements();
  auto cVec = VectorType::get({n}, cElement);
  double beta = epilogue.beta;
  // Vectors start at columns that are multiples of this (C's alignment).
  int64_t colMultiple =
      std::max<int64_t>(1, alignment * 8 / getElementBits(cElement));
  auto emitWhole = [&](OpBuilder &wb) {
    Value ptr = getGlobalElementPointer(wb, loc, dst, row, col);
    Value c = beta != 0.0
                  ? LLVM::LoadOp::create(wb, loc, cVec, ptr, alignment).getResult()
                  : Value();
    Value v = epilogueMath(wb, loc, acc, c, epilogue, cElement,
                           [&](const FusedStep &step) {
                             return loadStepOperand(wb, loc, step, dst, row,
                                                    col, n, colMultiple,
                                                    Value());
                           });
    LLVM::StoreOp::create(wb, loc, v, ptr, alignment);
  };
  if (!whole) {
    emitWhole(b);
    return;
  }
  scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &wb, Location) {
        emitWhole(wb);
        scf::YieldOp::create(wb, loc);
      },
      [&](OpBuilder &pb, Location) {
        Value mask = insideMask(pb, loc, dst, row, col, n);
        Value first = vector::ExtractOp::create(pb, loc, mask, 0);
        Value ptr = clampedPointer(pb, loc, dst, row, col, first);
        int64_t elementAlign = getElementBits(cElement) / 8;
        Value c;
        if (beta != 0.0)
          c = LLVM::MaskedLoadOp::create(
              pb, loc, cVec, ptr, mask,
              LLVM::ZeroOp::create(pb, loc, cVec), elementAlign);
        Value v = epilogueMath(pb, loc, acc, c, epilogue, cElement,
                               [&](const FusedStep &step) {
                                 return loadStepOperand(pb, loc, step, dst, row,
                                                        col, n, colMultiple,
                                                        mask);
                               });
        LLVM::MaskedStoreOp::create(pb, loc, v, ptr, mask,
                                    pb.getI32IntegerAttr(elementAlign));
        scf::YieldOp::create(pb, loc);
      });
}

Value mlir::tgemm::computeEpilogueVector(OpBuilder &b, Location loc,
                                         Value acc, Value dst, Value row,
                                         Value col,
                                         const EpilogueSpec &epilogue,
                                         Value whole) {
  Type cElement = cast<MemRefType>(dst.getType()).getElementType();
  int64_t n = cast<VectorType>(acc.getType()).getNumElements();
  auto cVec = VectorType::get({n}, cElement);
  int64_t elementBytes = getElementBits(cElement) / 8;
  // The vector's columns start on a multiple of n.
  int64_t alignment = n * elementBytes;
  auto compute = [&](OpBuilder &vb, Value mask) {
    Value c;
    if (epilogue.beta != 0.0) {
      if (!mask) {
        c = LLVM::LoadOp::create(vb, loc, cVec,
                                 getGlobalElementPointer(vb, loc, dst, row, col),
                                 alignment);
      } else {
        Value first = vector::ExtractOp::create(vb, loc, mask, 0);
        c = LLVM::MaskedLoadOp::create(
            vb, loc, cVec, clampedPointer(vb, loc, dst, row, col, first), mask,
            LLVM::ZeroOp::create(vb, loc, cVec), elementBytes);
      }
    }
    return epilogueMath(vb, loc, acc, c, epilogue, cElement,
                        [&](const FusedStep &step) {
                          return loadStepOperand(vb, loc, step, dst, row, col,
                                                 n, n, mask);
                        });
  };
  // Nothing is read: no guard.
  if (!whole || (epilogue.beta == 0.0 && epilogue.steps.empty()))
    return compute(b, Value());
  auto branch = scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &wb, Location) {
        scf::YieldOp::create(wb, loc, compute(wb, Value()));
      },
      [&](OpBuilder &pb, Location) {
        scf::YieldOp::create(
            pb, loc, compute(pb, insideMask(pb, loc, dst, row, col, n)));
      });
  return branch.getResult(0);
}

namespace {
/// `tgemm.reduce_splits`, the same for every family: the block's threads
/// meet (every part stored), one thread arrives on the tile's semaphore
/// (an acquire-release add at GPU scope, which orders the block's part
/// before it and the other parts after it), a barrier with an OR reduction
/// tells every thread whether this block was the last, and the last block
/// resets the semaphore, sums the S parts of each vector of the tile in
/// part order and stores the sum through the epilogue.
struct ReduceSplitsLowering : public OpConversionPattern<ReduceSplitsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceSplitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    MLIRContext *ctx = b.getContext();
    IndexMath im{b, loc};
    auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
    int64_t blockThreads = getThreadsPerBlock(kernel);
    int64_t first = 0, count = blockThreads;
    if (std::optional<ArrayRef<int64_t>> threads = op.getThreads()) {
      first = (*threads)[0];
      count = (*threads)[1];
    }
    if (count <= 0)
      return op.emitOpError() << "needs the kernel's known block size";
    bool wholeBlock = first == 0 && count == blockThreads;
    auto i32 = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
    };
    // The participating threads meet; with `orOf`, every one of them gets
    // whether it held for any (bar.red.or).
    auto barrier = [&](Value orOf) -> Value {
      Value id = wholeBlock ? Value() : i32(kStoreBarrier);
      Value n = wholeBlock ? Value() : i32(count);
      if (!orOf) {
        NVVM::BarrierOp::create(b, loc, TypeRange{}, id, n, {}, Value());
        return Value();
      }
      if (wholeBlock)
        return NVVM::BarrierOp::create(
                   b, loc, TypeRange{b.getI32Type()}, Value(), Value(),
                   NVVM::BarrierReductionAttr::get(ctx,
                                                   NVVM::BarrierReduction::OR),
                   orOf)
            .getRes();
      // The NVVM op reduces on barrier 0 only; PTX's bar.red takes any.
      PtxBuilder ptx(b, loc);
      std::string result = ptx.output(b.getI32Type(), "=r");
      std::string value = ptx.input(orOf, "r");
      return ptx.emit("{\n.reg .pred p, q;\nsetp.ne.u32 p, " + value +
                      ", 0;\nbar.red.or.pred q, " + Twine(kStoreBarrier) +
                      ", " + Twine(count) + ", p;\nselp.u32 " + result +
                      ", 1, 0, q;\n}")[0];
    };

    Value parts = op.getParts(), dst = op.getDst();
    auto partsType = cast<MemRefType>(parts.getType());
    int64_t numParts = op.getNumParts();
    Type partElement = partsType.getElementType();
    Type cElement = cast<MemRefType>(dst.getType()).getElementType();
    bool isInt = isa<IntegerType>(partElement);
    Type compute = isInt ? partElement : b.getF32Type();
    int64_t partBits = getElementBits(partElement);
    int64_t cBits = getElementBits(cElement);

    // 1. Every thread's part is stored; 2. one thread arrives.
    barrier(Value());
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value local = arith::SubIOp::create(b, loc, tid, im.c(first));
    auto arrive = scf::IfOp::create(
        b, loc, im.eq(local, im.c(0)),
        [&](OpBuilder &tb, Location) {
          IndexMath m{tb, loc};
          auto semMeta = memref::ExtractStridedMetadataOp::create(
              tb, loc, op.getSemaphores());
          Value base = memref::ExtractAlignedPointerAsIndexOp::create(
              tb, loc, op.getSemaphores());
          Value element = m.add(semMeta.getOffset(), op.getTile());
          Value address = m.toI64(m.add(base, m.mul(element, 4)));
          Value ptr = LLVM::AddrSpaceCastOp::create(
              tb, loc, LLVM::LLVMPointerType::get(ctx, 1),
              LLVM::IntToPtrOp::create(tb, loc,
                                       LLVM::LLVMPointerType::get(ctx),
                                       address));
          // PTX ISA, "Memory Consistency Model": the release orders every
          // part the barrier above saw stored before the add, the acquire
          // the other blocks' parts before the loads below.
          PtxBuilder ptx(tb, loc);
          std::string old = ptx.output(tb.getI32Type(), "=r");
          std::string at = ptx.input(address, "l");
          Value previous = ptx.emit("atom.acq_rel.gpu.add.u32 " + old + ", [" +
                                    at + "], 1;")[0];
          Value last = LLVM::ICmpOp::create(
              tb, loc, LLVM::ICmpPredicate::eq, previous,
              LLVM::ConstantOp::create(tb, loc,
                                       tb.getI32IntegerAttr(numParts - 1)));
          // Every part has arrived: nothing touches the semaphore again
          // in this launch, so it is reset for the next one here.
          scf::IfOp::create(tb, loc, last, [&](OpBuilder &lb, Location) {
            LLVM::StoreOp::create(
                lb, loc,
                LLVM::ConstantOp::create(lb, loc, lb.getI32IntegerAttr(0)),
                ptr, 4);
            scf::YieldOp::create(lb, loc);
          });
          scf::YieldOp::create(
              tb, loc,
              ValueRange{LLVM::ZExtOp::create(tb, loc, tb.getI32Type(), last)
                             .getResult()});
        },
        [&](OpBuilder &eb, Location) {
          scf::YieldOp::create(
              eb, loc,
              ValueRange{LLVM::ConstantOp::create(eb, loc,
                                                  eb.getI32IntegerAttr(0))
                             .getResult()});
        });
    // 3. Whether this block is the tile's last, for every thread.
    Value isLast = barrier(arrive.getResult(0));
    Value reduce = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                        isLast, i32(0));

    // 4. The last block sums and stores, 16 bytes of parts per vector.
    ArrayRef<int64_t> shape = op.getShape();
    int64_t n = std::min<int64_t>(128 / partBits, shape[1]);
    while (shape[1] % n)
      n /= 2;
    int64_t vectorsPerRow = shape[1] / n;
    int64_t vectors = shape[0] * vectorsPerRow;
    EpilogueSpec epilogue =
        EpilogueSpec::get(op.getAlphaValue(), op.getBetaValue(),
                          op.getEpilogueAttr(), adaptor.getEpilogueOperands());
    bool inBounds = op.getInBounds();
    scf::IfOp::create(b, loc, reduce, [&](OpBuilder &rb, Location) {
      IndexMath m{rb, loc};
      auto meta = memref::ExtractStridedMetadataOp::create(rb, loc, parts);
      Value partsBase =
          memref::ExtractAlignedPointerAsIndexOp::create(rb, loc, parts);
      Value rows = memref::DimOp::create(rb, loc, dst, 0);
      Value cols = memref::DimOp::create(rb, loc, dst, 1);
      auto isZero = [&](OpBuilder &ob, Value v) {
        return arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq, v,
                                     IndexMath{ob, loc}.c(0))
            .getResult();
      };
      // Whether a vector may move whole: rows of the parts and of C aligned
      // to it (the rest of the test is per vector).
      Value aligned;
      if (!inBounds) {
        int64_t vectorBits = n * partBits;
        aligned = hasAlignedRows(rb, loc, dst, n * cBits / 8);
        for (Value v : {Value(meta.getOffset()), Value(meta.getStrides()[0]),
                        Value(meta.getStrides()[1])})
          aligned = arith::AndIOp::create(
              rb, loc, aligned,
              isZero(rb, m.rem(m.mul(v, partBits), vectorBits)));
        aligned = arith::AndIOp::create(
            rb, loc, aligned, isZero(rb, m.rem(partsBase, vectorBits / 8)));
        if (!epilogue.steps.empty())
          aligned = arith::AndIOp::create(
              rb, loc, aligned, epilogueOperandsAligned(rb, loc, epilogue));
      }
      auto partVec = VectorType::get({n}, partElement);
      auto computeVec = VectorType::get({n}, compute);
      // Each thread takes `unroll` vectors a round and loads all their
      // parts before it stores any: the stores may alias the parts for all
      // the compiler knows, so without this every round waits out one L2
      // round trip (16 rounds of 256 threads for a 128 x 128 f32 tile).
      // About 16 loads in flight per thread, where the rounds divide evenly,
      // and only where 256 threads or more reduce: measured on an H100
      // (bench/README.md, "Deep K and the small cube"), the registers it
      // takes halve the blocks per SM of one-warpgroup kernels (64 x 128
      // split 8 at 512 x 512 x 16384: 0.81x), while two-warpgroup ones
      // gain 2-9%.
      int64_t unroll = 1;
      if (vectors % count == 0 && count >= 256)
        for (int64_t u : {4, 2})
          if (u * numParts <= std::max<int64_t>(16, numParts) &&
              (vectors / count) % u == 0) {
            unroll = u;
            break;
          }
      scf::ForOp::create(
          rb, loc, local, m.c(vectors), m.c(count * unroll), ValueRange{},
          [&](OpBuilder &lb, Location, Value first, ValueRange) {
            IndexMath l{lb, loc};
            struct Slot {
              Value row, col, whole;
              SmallVector<Value> parts;
            };
            SmallVector<Slot> slots;
            for (int64_t u = 0; u < unroll; ++u) {
              Value v = l.add(first, l.c(u * count));
              Value row = l.add(op.getRow(), l.div(v, vectorsPerRow));
              Value col = l.add(op.getCol(), l.mul(l.rem(v, vectorsPerRow), n));
              Value whole;
              if (!inBounds) {
                whole = arith::AndIOp::create(
                    lb, loc, l.lt(row, rows),
                    arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ule,
                                          l.add(col, n), cols));
                whole = arith::AndIOp::create(lb, loc, whole, aligned);
              }
              auto pointer = [&](OpBuilder &pb, Value s, Value r, Value c) {
                IndexMath p{pb, loc};
                Value element = p.add(
                    p.add(meta.getOffset(), p.mul(s, meta.getStrides()[0])),
                    p.add(p.mul(r, meta.getStrides()[1]), c));
                Value address = p.toI64(p.add(
                    partsBase, getElementBytes(pb, loc, element, partBits)));
                return LLVM::AddrSpaceCastOp::create(
                           pb, loc, LLVM::LLVMPointerType::get(ctx, 1),
                           LLVM::IntToPtrOp::create(
                               pb, loc, LLVM::LLVMPointerType::get(ctx),
                               address))
                    .getResult();
              };
              // Part s's vector, in the compute type.
              auto load = [&](OpBuilder &pb, int64_t s) -> Value {
                IndexMath p{pb, loc};
                Value value;
                if (inBounds) {
                  value = LLVM::LoadOp::create(pb, loc, partVec,
                                               pointer(pb, p.c(s), row, col),
                                               n * partBits / 8);
                } else {
                  auto load = scf::IfOp::create(
                      pb, loc, whole,
                      [&](OpBuilder &wb, Location) {
                        scf::YieldOp::create(
                            wb, loc,
                            ValueRange{LLVM::LoadOp::create(
                                wb, loc, partVec,
                                pointer(wb, IndexMath{wb, loc}.c(s), row, col),
                                n * partBits / 8)});
                      },
                      [&](OpBuilder &eb, Location) {
                        Value mask = insideMask(eb, loc, dst, row, col, n);
                        Value firstIn =
                            vector::ExtractOp::create(eb, loc, mask, 0);
                        IndexMath e{eb, loc};
                        Value safeRow = arith::SelectOp::create(
                            eb, loc, firstIn, row, e.c(0));
                        Value safeCol = arith::SelectOp::create(
                            eb, loc, firstIn, col, e.c(0));
                        scf::YieldOp::create(
                            eb, loc,
                            ValueRange{LLVM::MaskedLoadOp::create(
                                eb, loc, partVec,
                                pointer(eb, e.c(s), safeRow, safeCol), mask,
                                LLVM::ZeroOp::create(eb, loc, partVec),
                                partBits / 8)});
                      });
                  value = load.getResult(0);
                }
                if (partElement != compute)
                  value = arith::ExtFOp::create(pb, loc, computeVec, value);
                return value;
              };
              Slot slot{row, col, whole, {}};
              for (int64_t s = 0; s < numParts; ++s)
                slot.parts.push_back(load(lb, s));
              slots.push_back(std::move(slot));
            }
            // Then the sums, in part order, and the stores.
            for (Slot &slot : slots) {
              Value sum = slot.parts[0];
              for (int64_t s = 1; s < numParts; ++s)
                sum = isInt ? arith::AddIOp::create(lb, loc, sum, slot.parts[s])
                                  .getResult()
                            : arith::AddFOp::create(lb, loc, sum, slot.parts[s])
                                  .getResult();
              storeEpilogueVector(lb, loc, sum, dst, slot.row, slot.col,
                                  epilogue, n * cBits / 8, slot.whole);
            }
            scf::YieldOp::create(lb, loc);
          });
      scf::YieldOp::create(rb, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tgemm::populateSplitKPatterns(RewritePatternSet &patterns,
                                         const TypeConverter &converter) {
  patterns.add<ReduceSplitsLowering>(converter, patterns.getContext());
}
