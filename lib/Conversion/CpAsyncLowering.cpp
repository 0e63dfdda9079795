//===- CpAsyncLowering.cpp - cp.async tile copies as inline PTX -----------===//
//
// The asynchronous copies of the lowerings that move tiles with cp.async
// (ptx, wgmma): 16-byte cp.async.cg per chunk of a whole tile, smaller
// zero-filling cp.async at an operand's edge, and the group commit and wait.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/PtxBuilder.h"
#include "tgemm/Conversion/TileLowering.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

using namespace mlir;
using namespace mlir::tgemm;

Value mlir::tgemm::sharedAddress32(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
}

void CpAsyncLowering::emitCommitGroup(OpBuilder &b, Location loc) const {
  PtxBuilder(b, loc).emit("cp.async.commit_group;");
}

void CpAsyncLowering::emitWaitGroup(OpBuilder &b, Location loc,
                                    int64_t pending) const {
  PtxBuilder(b, loc).emit("cp.async.wait_group " + Twine(pending) + ";");
}

/// One cp.async.cg of 16 bytes per chunk; with a `predicate`, each is
/// predicated on it.
void CpAsyncLowering::emitAsyncCopy(OpBuilder &builder, Location loc,
                                const TileCopy &copy, Value predicate) const {
  forEachWholeTileChunk(
      builder, loc, copy, [&](OpBuilder &b, Value src, Value dst) {
        PtxBuilder ptx(b, loc);
        std::string to = ptx.input(sharedAddress32(b, loc, dst), "r");
        std::string from = ptx.input(
            LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), src), "l");
        std::string cpAsync =
            "cp.async.cg.shared.global [" + to + "], [" + from + "], 16;";
        if (!predicate) {
          ptx.emit(cpAsync);
          return;
        }
        std::string p = ptx.input(
            arith::ExtUIOp::create(b, loc, b.getI32Type(), predicate), "r");
        ptx.emit("{ .reg .pred p; setp.ne.b32 p, " + p + ", 0; @p " + cpAsync +
                 " }");
      });
}

/// A tile at an edge of its operand, or one whose rows are not 16-byte
/// aligned. With rows aligned to G = 16, 8 or 4 bytes (the largest that
/// holds), each 16-byte chunk moves as 16 / G cp.async of G bytes whose
/// source sizes count the bytes inside the operand (0 to G); the hardware
/// fills the rest with zeros, and the copies stay asynchronous. Rows
/// aligned to less than 4 bytes (cp.async's smallest size): the masked
/// element-wise copy.
void CpAsyncLowering::emitAsyncEdgeCopy(OpBuilder &builder, Location loc,
                                    const TileCopy &copy) const {
  const RingLayout &ring = copy.ring;
  Value src = copy.src;
  // One cp.async per granule of each chunk.
  auto asyncChunks = [&](OpBuilder &b, int64_t granule) {
    int64_t elementsPerChunk = 128 / ring.elementBits;
    Value tid = copy.threadIndex(b, loc);
    forEachEdgeChunk(
        b, loc, copy, tid,
        [&](OpBuilder &cb, Value r, Value chunk, bool) {
          IndexMath m{cb, loc};
          Value row = m.add(copy.row, r);
          Value col = m.add(copy.col, m.mul(chunk, elementsPerChunk));
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
          Value to = offsetSharedPointer(cb, loc, copy.stageBase,
                                         ring.chunkOffset(cb, loc, r, chunk));
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
            Value any = arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::ne,
                                              size, m.c(0));
            Value safeRow = arith::SelectOp::create(cb, loc, any, row, m.c(0));
            Value safeCol = arith::SelectOp::create(
                cb, loc, any, m.add(col, g * elementsPerGranule), m.c(0));
            Value from =
                getGlobalElementPointer(cb, loc, src, safeRow, safeCol);
            Value dst = LLVM::GEPOp::create(
                cb, loc, to.getType(), cb.getI8Type(), to,
                ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(g * granule)});
            PtxBuilder ptx(cb, loc);
            std::string dstAddr = ptx.input(sharedAddress32(cb, loc, dst), "r");
            std::string srcAddr = ptx.input(
                LLVM::PtrToIntOp::create(cb, loc, cb.getI64Type(), from), "l");
            std::string sizeArg = ptx.input(m.toI32(size), "r");
            // .cg (L2 only) takes 16 bytes alone; .ca the smaller sizes.
            ptx.emit(
                std::string(granule == 16 ? "cp.async.cg" : "cp.async.ca") +
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
          emitGuardedTileCopy(b, loc, copy);
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
  pick(builder, {16, 8, 4});
}
