//===- SlabStaging.cpp - The epilogue of m16n8 accumulators ---------------===//
//
// The staged epilogue of the families whose warp accumulator has the m16n8
// layout of the facts table (mma.sync; wgmma, per warp): once every copy
// has landed and every warp is past its last multiply, the rings are dead
// and each warp's slab may lie over them (a persistent warp-specialized
// kernel's lies after them, as wide as the shared memory allows: the
// producer is filling them for the next tile). A warp writes 16 rows of
// its accumulator by a slab's columns at a time (a piece per m-fragment
// and slab) to its slab, then its lanes read 16-byte pieces of C's worth
// of elements back, for one vector store each.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/LaneCoords.h"
#include "tgemm/Conversion/PtxBuilder.h"
#include "tgemm/Conversion/TileLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tgemm;

SlabStaging::SlabStaging(OpBuilder &b, Location loc,
                         const KernelLowering &lowering, StoreTileOp op,
                         StoreTileOp::Adaptor adaptor, Type accReg,
                         FragmentOrder order)
    : EpilogueStaging(loc, op, adaptor, lowering.fact), lowering(lowering),
      accReg(accReg), order(order),
      accLayout(::tgemm::accumulatorLayout(lowering.fact)) {
  lowering.waitForCopies(b, loc);
  // Only the storing threads meet (the consumers of a warp-specialized
  // kernel, on a barrier of their own: the producer never stores).
  std::optional<ArrayRef<int64_t>> storing = op.getThreads();
  if (storing && (*storing)[1] != lowering.threads) {
    auto i32 = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(v))
          .getResult();
    };
    NVVM::BarrierOp::create(b, loc, TypeRange{}, i32(kStoreBarrier),
                            i32((*storing)[1]), {}, Value());
  } else {
    gpu::BarrierOp::create(b, loc);
  }
  IndexMath im{b, loc};
  AccumulatorType accType = op.getAcc().getType();
  accBytes = getElementBits(accElement) / 8;
  // A slab of the plan's columns (all the warp tile's, or fewer where the
  // scratch cannot lie over the rings), rows padded by 16 bytes: the
  // plan's epilogueScratch.
  slabCols = lowering.plan.slabColumns > 0
                 ? std::min(lowering.plan.slabColumns, accType.getCols())
                 : accType.getCols();
  assert(accType.getCols() % slabCols == 0 &&
         slabCols % lowering.fact.shape.n == 0 && "slabs of whole fragments");
  slabGroups = accType.getCols() / slabCols;
  slabPitch = slabCols * accBytes + 16;
  perVector = 16 / (getElementBits(op.getDst().getType().getElementType()) / 8);
  vectorsPerRow = slabCols / perVector;
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = im.div(tid, 32);
  lane = im.rem(tid, 32);
  accLane = std::make_unique<LaneCoords>(im, accLayout.laneModes, lane);
  slab = getScratchPointer(b, loc, lowering.plan, lowering.module,
                           im.mul(warp, 16 * slabPitch));
}

SlabStaging::~SlabStaging() = default;

void SlabStaging::write(OpBuilder &b, int64_t piece,
                        ArrayRef<Value> acc) const {
  IndexMath im{b, loc};
  // Piece (fm, g): 16 rows of m-fragment fm, the g-th slab of columns.
  int64_t fm = piece / slabGroups;
  int64_t n = lowering.fact.shape.n;
  int64_t fnPerSlab = slabCols / n;
  int64_t fnBegin = piece % slabGroups * fnPerSlab;
  int64_t fnEnd = fnBegin + fnPerSlab;
  // Values 2p and 2p + 1 of the accumulator layout are adjacent columns
  // of one row: one store of two elements each, from one packed f16x2
  // register or two.
  int64_t perReg = ::tgemm::accumulatorValuesPerRegister(lowering.fact);
  int64_t regsPerPair = 2 / perReg;
  Type pairType = VectorType::get({regsPerPair}, accReg);
  auto rowOf = [&](::tgemm::TileCoord at) {
    if (!order.interleavedRows)
      return accLane->row(im, at.row);
    assert((at.row == 0 || at.row == 8) && "m16 fragments");
    return im.add(im.mul(accLane->row(im, 0), 2), at.row / 8);
  };
  if (order.interleavedCols) {
    // Fragments 2p and 2p + 1 interleave their columns: a lane's pair of
    // each is 4 adjacent columns, stored as one vector.
    assert(perReg == 1 && fnPerSlab % 2 == 0 &&
           "interleaved fragments of 32-bit accumulators, in pairs");
    Type quadType = VectorType::get({4}, accReg);
    for (int64_t fn = fnBegin; fn < fnEnd; fn += 2) {
      ArrayRef<Value> even = frags.fragment(acc, fm, fn);
      ArrayRef<Value> odd = frags.fragment(acc, fm, fn + 1);
      for (int64_t v = 0; v < accLayout.numValues(); v += 2) {
        ::tgemm::TileCoord at = accLayout.valueCoord(v);
        Value col =
            im.add(im.mul(accLane->col(im, at.col), 2), (fn - fnBegin) * n);
        Value ptr = offsetSharedPointer(
            b, loc, slab,
            im.add(im.mul(rowOf(at), slabPitch), im.mul(col, accBytes)));
        Value quad = LLVM::PoisonOp::create(b, loc, quadType);
        Value parts[] = {even[v], odd[v], even[v + 1], odd[v + 1]};
        for (int64_t i = 0; i < 4; ++i)
          quad = LLVM::InsertElementOp::create(
              b, loc, quad, parts[i],
              LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(i)));
        LLVM::StoreOp::create(b, loc, quad, ptr, 4 * accBytes);
      }
    }
    return;
  }
  for (int64_t fn = fnBegin; fn < fnEnd; ++fn) {
    ArrayRef<Value> c = frags.fragment(acc, fm, fn);
    for (int64_t v = 0; v < accLayout.numValues(); v += 2) {
      ::tgemm::TileCoord at = accLayout.valueCoord(v);
      assert((accLayout.valueCoord(v + 1) ==
              ::tgemm::TileCoord{at.row, at.col + 1}) &&
             "an accumulator pair is two adjacent columns");
      Value row = rowOf(at);
      Value col = accLane->col(im, at.col + (fn - fnBegin) * n);
      Value ptr = offsetSharedPointer(
          b, loc, slab, im.add(im.mul(row, slabPitch), im.mul(col, accBytes)));
      ArrayRef<Value> regs = c.slice(v / perReg, regsPerPair);
      Value value;
      if (regsPerPair == 1) {
        value = regs.front();
      } else {
        value = LLVM::PoisonOp::create(b, loc, pairType);
        for (int64_t i = 0; i < regsPerPair; ++i)
          value = LLVM::InsertElementOp::create(
              b, loc, value, regs[i],
              LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(i)));
      }
      LLVM::StoreOp::create(b, loc, value, ptr, 2 * accBytes);
    }
  }
}

void SlabStaging::readBack(
    OpBuilder &b, int64_t piece,
    function_ref<void(OpBuilder &, Value, Value, Value)> store) const {
  int64_t fm = piece / slabGroups;
  int64_t firstCol = piece % slabGroups * slabCols;
  // Where a slab holds only part of the warp tile, the rest of the
  // accumulator is still live while a piece is read back: a loop over its
  // rounds of vectors keeps one round's loads in registers (unrolled, the
  // loads of every round are in flight at once, C's too where the
  // epilogue reads it).
  auto each = slabGroups > 1 ? forEachTileChunkRolled : forEachTileChunk;
  each(
      b, loc, 16, vectorsPerRow, 32, lane,
      [&](OpBuilder &cb, Value r, Value piece, bool) {
        IndexMath m{cb, loc};
        Value c = m.mul(piece, perVector);
        Value from = offsetSharedPointer(
            cb, loc, slab, m.add(m.mul(r, slabPitch), m.mul(c, accBytes)));
        Value v = LLVM::LoadOp::create(
            cb, loc, VectorType::get({perVector}, accElement), from,
            std::min<int64_t>(16, perVector * accBytes));
        store(cb, v, m.add(tileRow, m.add(r, fm * lowering.fact.shape.m)),
              m.add(tileCol, m.add(c, firstCol)));
      });
}

BoxStaging::BoxStaging(OpBuilder &b, Location loc,
                       const KernelLowering &lowering, StoreTileOp op,
                       StoreTileOp::Adaptor adaptor, Type accReg)
    : loc(loc), lowering(lowering), dst(adaptor.getDst()),
      tileRow(adaptor.getRow()), tileCol(adaptor.getCol()),
      frags(op.getAcc().getType(), lowering.fact),
      accLayout(::tgemm::accumulatorLayout(lowering.fact)), accReg(accReg),
      accElement(op.getAcc().getType().getElementType()),
      cElement(op.getDst().getType().getElementType()) {
  lowering.waitForCopies(b, loc);
  // Over the rings, every storing warp must be past its last multiply
  // first (the storing threads meet, as for the slabs); after them, each
  // warp's buffers are its own.
  if (lowering.plan.scratchOffset == 0) {
    std::optional<ArrayRef<int64_t>> storing = op.getThreads();
    if (storing && (*storing)[1] != lowering.threads) {
      auto i32 = [&](int64_t v) {
        return LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(v))
            .getResult();
      };
      NVVM::BarrierOp::create(b, loc, TypeRange{}, i32(kStoreBarrier),
                              i32((*storing)[1]), {}, Value());
    } else {
      gpu::BarrierOp::create(b, loc);
    }
  }
  AccumulatorType accType = op.getAcc().getType();
  cBytes = getElementBits(cElement) / 8;
  boxCols = ::tgemm::kStoreBoxBytes / cBytes;
  assert(accType.getCols() % boxCols == 0 &&
         boxCols % lowering.fact.shape.n == 0 && "boxes of whole fragments");
  boxesPerRow = accType.getCols() / boxCols;
  buffers = std::max<int64_t>(1, lowering.plan.storeBuffers);
  epilogue = EpilogueSpec::get(op.getAlphaValue(), op.getBetaValue(),
                               op.getEpilogueAttr(),
                               adaptor.getEpilogueOperands());
  // What the epilogue reads, it reads whole where the warp's tile lies
  // inside C with aligned rows (and aligned operands).
  if (!op.getInBounds() && (epilogue.beta != 0.0 || !epilogue.steps.empty())) {
    whole = isWholeAlignedTile(b, loc, adaptor.getDst(), adaptor.getRow(),
                               adaptor.getCol(), accType.getRows(),
                               accType.getCols());
    if (!epilogue.steps.empty())
      whole = arith::AndIOp::create(b, loc, whole,
                                    epilogueOperandsAligned(b, loc, epilogue));
  }
}

BoxStaging::~BoxStaging() = default;

// The thread's index, read again for each box (%tid.x, as an instruction
// the compiler keeps where it is): the addresses of a box are then made
// where it is written. From one read they would be the same values for
// every box sharing a buffer, and for every tile of a persistent kernel,
// so the compiler would compute them once and keep one per store live
// through the whole epilogue, and through the k-loop beside the
// accumulator, where they spill.
Value BoxStaging::readThread(OpBuilder &b) const {
  PtxBuilder ptx(b, loc);
  std::string out = ptx.output(b.getI32Type(), "=r");
  Value tid =
      ptx.emit("mov.u32 " + out + ", %tid.x;", /*sideEffects=*/true).front();
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), tid);
}

Value BoxStaging::bufferOf(OpBuilder &b, int64_t box, Value tid) const {
  IndexMath im{b, loc};
  int64_t boxBytes = ::tgemm::kStoreBoxRows * ::tgemm::kStoreBoxBytes;
  return getScratchPointer(
      b, loc, lowering.plan, lowering.module,
      im.add(im.mul(im.div(tid, 32), buffers * boxBytes),
             box % buffers * boxBytes));
}

std::pair<Value, Value> BoxStaging::originOf(OpBuilder &b, int64_t box) const {
  IndexMath im{b, loc};
  int64_t fm = box / boxesPerRow, g = box % boxesPerRow;
  return {im.add(tileRow, fm * lowering.fact.shape.m),
          im.add(tileCol, g * boxCols)};
}

void BoxStaging::write(OpBuilder &b, int64_t box, Value tid,
                       ArrayRef<Value> acc) const {
  IndexMath im{b, loc};
  int64_t fm = box / boxesPerRow;
  int64_t n = lowering.fact.shape.n;
  int64_t fnBegin = box % boxesPerRow * (boxCols / n);
  int64_t fnEnd = fnBegin + boxCols / n;
  auto [boxRow, boxCol] = originOf(b, box);
  Value buffer = bufferOf(b, box, tid);
  LaneCoords lanes(im, accLayout.laneModes, im.rem(tid, 32));
  int64_t perReg = ::tgemm::accumulatorValuesPerRegister(lowering.fact);
  auto pairType = VectorType::get({2}, accElement);
  for (int64_t fn = fnBegin; fn < fnEnd; ++fn) {
    ArrayRef<Value> c = frags.fragment(acc, fm, fn);
    for (int64_t v = 0; v < accLayout.numValues(); v += 2) {
      ::tgemm::TileCoord at = accLayout.valueCoord(v);
      assert((accLayout.valueCoord(v + 1) ==
              ::tgemm::TileCoord{at.row, at.col + 1}) &&
             "an accumulator pair is two adjacent columns");
      Value row = lanes.row(im, at.row);
      Value col = lanes.col(im, at.col + (fn - fnBegin) * n);
      // The pair as a vector of the accumulator's elements: two registers,
      // or one that packs both.
      Value pair;
      if (perReg == 2) {
        pair = LLVM::BitcastOp::create(b, loc, pairType, c[v / 2]);
      } else {
        pair = LLVM::PoisonOp::create(b, loc, pairType);
        for (int64_t i = 0; i < 2; ++i)
          pair = LLVM::InsertElementOp::create(
              b, loc, pair, c[v + i],
              LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(i)));
      }
      Value value = computeEpilogueVector(
          b, loc, pair, dst, im.add(boxRow, row),
          im.add(boxCol, col), epilogue, whole);
      // Chunk q of row r of the box lies at chunk q ^ (r % 8).
      Value byte = im.mul(col, cBytes);
      Value chunk = arith::XOrIOp::create(b, loc, im.div(byte, 16),
                                          im.rem(row, 8));
      Value offset =
          im.add(im.mul(row, ::tgemm::kStoreBoxBytes),
                 im.add(im.mul(chunk, 16), im.rem(byte, 16)));
      LLVM::StoreOp::create(b, loc, value,
                            offsetSharedPointer(b, loc, buffer, offset),
                            2 * cBytes);
    }
  }
}
