//===- Tile.cpp - tgemm.matmul to a kernel of tile operations -------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Target/DefaultConfigs.h"
#include "tgemm/Transforms/KernelManifest.h"
#include "tgemm/Transforms/Passes.h"
#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// The (tile row, tile column) of C's tile `pid` (numbered row-major over
/// `tilesM` x `tilesN`) under grouped rasterization: consecutive tiles walk
/// down groups of `group` tile-rows one column at a time, so that
/// consecutive blocks reuse the same B column panel and a few A row panels
/// from L2; without groups (1), row-major.
std::pair<Value, Value> tileOfIndex(OpBuilder &b, Location loc, Value pid,
                                    Value tilesM, Value tilesN,
                                    int64_t group) {
  IndexMath im{b, loc};
  if (group == 1)
    return {arith::DivUIOp::create(b, loc, pid, tilesN).getResult(),
            arith::RemUIOp::create(b, loc, pid, tilesN).getResult()};
  Value perGroup = im.mul(tilesN, group);
  Value firstRow = im.mul(arith::DivUIOp::create(b, loc, pid, perGroup), group);
  Value rows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, tilesM, firstRow), im.c(group));
  Value inGroup = arith::RemUIOp::create(b, loc, pid, perGroup);
  Value tileRow = im.add(firstRow, arith::RemUIOp::create(b, loc, inGroup, rows));
  Value tileCol = arith::DivUIOp::create(b, loc, inGroup, rows);
  return {tileRow, tileCol};
}

/// Grouped rasterization of a launch whose blocks are C's tiles: this
/// block's (tile row, tile column).
std::pair<Value, Value> rasterize(OpBuilder &b, Location loc, Value bx,
                                  Value by, int64_t group) {
  IndexMath im{b, loc};
  Value tilesN = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value tilesM = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
  return tileOfIndex(b, loc, im.add(im.mul(by, tilesN), bx), tilesM, tilesN,
                     group);
}

Value isZero(OpBuilder &b, Location loc, Value v) {
  IndexMath im{b, loc};
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, im.c(0))
      .getResult();
}

Value allOf(OpBuilder &b, Location loc, ArrayRef<Value> conds) {
  Value all = conds.front();
  for (Value cond : conds.drop_front())
    all = arith::AndIOp::create(b, loc, all, cond);
  return all;
}

/// Appends to `conds` whether every row of `operand` (a vector, or a
/// matrix's rows) starts on a multiple of `bytes`: its aligned base, its
/// offset and (a matrix's) row stride are. The same for all threads of the
/// kernel.
void appendRowsStartOn(OpBuilder &b, Location loc, Value operand, int64_t bytes,
                       SmallVectorImpl<Value> &conds) {
  IndexMath im{b, loc};
  auto type = cast<MemRefType>(operand.getType());
  int64_t bits = type.getElementTypeBitWidth();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, operand);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand);
  if (type.getRank() == 2)
    conds.push_back(
        isZero(b, loc, im.rem(im.mul(meta.getStrides()[0], bits), bytes * 8)));
  conds.push_back(
      isZero(b, loc, im.rem(im.mul(meta.getOffset(), bits), bytes * 8)));
  conds.push_back(isZero(b, loc, im.rem(base, bytes)));
}

/// Whether every tile of the problem is whole and every operand row starts
/// on a 16-byte boundary: M, N, K are multiples of the block tile and each
/// operand's base, offset and row stride (and each epilogue operand's) are
/// 16-byte aligned. The same for all threads of the kernel.
Value wholeTilesCondition(OpBuilder &b, Location loc, MatmulOp op, Value a,
                          Value bMat, Value c, Value k, ValueRange epilogue,
                          int64_t cluster) {
  IndexMath im{b, loc};
  ConfigAttr config = op.getConfigAttr();
  Value m = memref::DimOp::create(b, loc, c, 0);
  Value n = memref::DimOp::create(b, loc, c, 1);
  // A cluster's blocks take tiles one above the other: M fills whole
  // clusters, else a cluster's last block would take rows past C.
  SmallVector<Value> conds = {
      isZero(b, loc, im.rem(m, config.getBlockM() * cluster)),
      isZero(b, loc, im.rem(n, config.getBlockN())),
      isZero(b, loc, im.rem(k, config.getBlockK()))};
  // Split K's parts need no test of their own: with N a multiple of BN,
  // their rows and layers start on 16 bytes (docs/manifest.md's layout).
  // The epilogue's operands: vectors and residuals start on 16 bytes (a
  // residual's rows too), so that their vectors load whole.
  for (Value operand : {a, bMat, c})
    appendRowsStartOn(b, loc, operand, 16, conds);
  for (Value operand : epilogue)
    appendRowsStartOn(b, loc, operand, 16, conds);
  return allOf(b, loc, conds);
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

/// `type` with every stride but the innermost (1) and the offset taken
/// from the descriptor: the form a kernel parameter takes any view in.
MemRefType generalStridedType(MemRefType type) {
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  strides.back() = 1;
  return MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides),
      type.getMemorySpace());
}

/// The start of a kernel that copies an operand into the workspace (the
/// transposing and aligning kernels): `name`(source, copy), a block of
/// `shape.threads`, with `workgroup` attributions; `source` and `copy` are
/// matrix z (block z) of each, their elements read as integers of their
/// width (f32, fp8 and unsigned bytes alike; one descriptor for both,
/// reconciled in the lowering); the block's tile of the source (R x C:
/// `rows` x `cols`) starts at (`row0`, `col0`) = (y, x) tiles of `shape`.
struct CopyKernel {
  gpu::GPUFuncOp kernel;
  OpBuilder b;
  Value source, copy, rows, cols, row0, col0, tid;
};
CopyKernel beginCopyKernel(OpBuilder &kb, Location loc, StringRef name,
                           MemRefType sourceType, MemRefType copyType,
                           ::tgemm::CopyKernelShape shape,
                           TypeRange workgroup) {
  int64_t threads = shape.threads;
  MLIRContext *ctx = kb.getContext();
  auto kernel = gpu::GPUFuncOp::create(
      kb, loc, name, FunctionType::get(ctx, {sourceType, copyType}, {}),
      workgroup);
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      kb.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Type bitsType = b.getIntegerType(sourceType.getElementTypeBitWidth());
  auto asIntegers = [&](Value arg) -> Value {
    auto type = cast<MemRefType>(arg.getType());
    if (type.getElementType() == bitsType)
      return arg;
    auto reread = MemRefType::get(type.getShape(), bitsType, type.getLayout(),
                                  type.getMemorySpace());
    return UnrealizedConversionCastOp::create(b, loc, reread, arg).getResult(0);
  };
  Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value source = matrixOfBatch(b, loc, asIntegers(entry.getArgument(0)), bz);
  Value copy = matrixOfBatch(b, loc, asIntegers(entry.getArgument(1)), bz);
  IndexMath im{b, loc};
  Value rows = memref::DimOp::create(b, loc, source, 0);
  Value cols = memref::DimOp::create(b, loc, source, 1);
  Value row0 =
      im.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), shape.rows);
  Value col0 =
      im.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), shape.cols);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  return {kernel, b, source, copy, rows, cols, row0, col0, tid};
}

/// The transposing kernel of an operand that the GEMM reads from a copy
/// (`transpose_kernel`): block (x, y, z) copies the `shape.rows` x
/// `shape.cols` tile at (y, x) of matrix z of `source` (R x C, as stored)
/// into `copy` (C x R) transposed, through shared memory, where the tile
/// sits as 32-bit words, rows cols + 1 words apart.
///
/// A whole tile whose source rows start on 16 bytes and copy rows on 4
/// elements (every tile of an aligned operand but the edges) moves in
/// vectors: each thread loads all of its 16-byte vectors of source rows
/// first (rows / threads x cols / vector of them, so that a thread has
/// 32-64 bytes in flight), then writes their words to shared memory; after
/// the barrier it gathers 4 consecutive elements of a copy row (4 source
/// rows of one column) and stores them as one vector. Lanes take the
/// gathers 8 along a copy row and 4 rows down: with rows cols + 1 = 1
/// (mod 32) words apart, the 32 words a warp reads at once lie in 32 banks,
/// and its stores are 4 rows of 8 vectors (a 32-byte sector each for bytes,
/// 128 bytes for words).
///
/// Any other tile moves element by element: thread t takes elements t, t +
/// threads, ... of the tile row-major, each inside the operand, then of
/// the copy's tile.
gpu::GPUFuncOp buildTransposeKernel(OpBuilder &kb, Location loc, StringRef name,
                                    MemRefType sourceType, MemRefType copyType,
                                    ::tgemm::CopyKernelShape shape) {
  MLIRContext *ctx = kb.getContext();
  Type word = kb.getI32Type();
  auto tileType = MemRefType::get(
      {shape.rows, shape.cols + 1}, word, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  CopyKernel start = beginCopyKernel(kb, loc, name, sourceType, copyType, shape,
                                     TypeRange{tileType});
  gpu::GPUFuncOp kernel = start.kernel;
  OpBuilder &b = start.b;
  Value source = start.source, copy = start.copy;
  // Left alone, ptxas holds it to 32 registers (8 blocks per SM) and
  // spills its addresses (kTransposeKernelRegisters).
  kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  kb.getI32IntegerAttr(::tgemm::kTransposeKernelRegisters));
  IndexMath im{b, loc};
  int64_t bits = sourceType.getElementTypeBitWidth();
  int64_t bytes = bits / 8;
  Type bitsType = b.getIntegerType(bits);
  Value tile = kernel.getWorkgroupAttributions()[0];
  Value rows = start.rows, cols = start.cols, row0 = start.row0,
        col0 = start.col0, tid = start.tid;

  // The vector path's shape: source vectors of 16 bytes, copy vectors of
  // 4 elements, gathered by lanes 8 along a copy row (see above).
  const int64_t vector = ::tgemm::kTransposeKernelLoadBytes / bytes;
  const int64_t gather = ::tgemm::kTransposeKernelGather;
  const int64_t lanesAlong = 8;
  assert(shape.cols % vector == 0 && (shape.cols + 1) % 32 == 1 &&
         shape.rows % (gather * lanesAlong) == 0 &&
         (shape.rows * shape.cols) % (shape.threads * vector) == 0 &&
         (shape.rows * shape.cols) % (shape.threads * gather) == 0 &&
         "transposing kernel tile the vector path cannot take");
  auto le = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, x, y);
  };
  SmallVector<Value> vectorConds = {le(im.add(row0, shape.rows), rows),
                                    le(im.add(col0, shape.cols), cols)};
  appendRowsStartOn(b, loc, source, ::tgemm::kTransposeKernelLoadBytes,
                    vectorConds);
  appendRowsStartOn(b, loc, copy, gather * bytes, vectorConds);
  Value vectorPath = allOf(b, loc, vectorConds);
  auto toWord = [&](OpBuilder &ob, Value v) -> Value {
    return bits == 32 ? v : arith::ExtUIOp::create(ob, loc, word, v);
  };
  auto fromWord = [&](OpBuilder &ob, Value v) -> Value {
    return bits == 32 ? v : arith::TruncIOp::create(ob, loc, bitsType, v);
  };
  // Each branch of a test that is the same for the whole block.
  auto eitherOr = [&](Value condition, function_ref<void(OpBuilder &)> then,
                      function_ref<void(OpBuilder &)> otherwise) {
    scf::IfOp::create(
        b, loc, condition,
        [&](OpBuilder &tb, Location) {
          then(tb);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          otherwise(eb);
          scf::YieldOp::create(eb, loc);
        });
  };
  auto onlyIf = [&](OpBuilder &ob, Value condition,
                    function_ref<void(OpBuilder &)> body) {
    scf::IfOp::create(ob, loc, condition, [&](OpBuilder &tb, Location) {
      body(tb);
      scf::YieldOp::create(tb, loc);
    });
  };
  // For each of this thread's elements, (i, j) of a `width`-wide tile
  // walked row-major, inside the operand (the element path).
  int64_t steps = shape.rows * shape.cols / shape.threads;
  auto forEachElement =
      [&](OpBuilder &ob, int64_t width,
          function_ref<void(OpBuilder &, Value, Value)> body) {
        IndexMath om{ob, loc};
        scf::ForOp::create(
            ob, loc, om.c(0), om.c(steps), om.c(1), ValueRange(),
            [&](OpBuilder &lb, Location, Value step, ValueRange) {
              IndexMath m{lb, loc};
              Value index = m.add(m.mul(step, shape.threads), tid);
              body(lb, m.div(index, width), m.rem(index, width));
              scf::YieldOp::create(lb, loc);
            });
      };
  auto inside = [&](OpBuilder &ob, Value row, Value col) -> Value {
    IndexMath m{ob, loc};
    return arith::AndIOp::create(ob, loc, m.lt(row, rows), m.lt(col, cols));
  };

  // Into shared memory.
  eitherOr(
      vectorPath,
      [&](OpBuilder &tb) {
        IndexMath m{tb, loc};
        auto vectorType = VectorType::get({vector}, bitsType);
        int64_t perRow = shape.cols / vector;
        int64_t loads = shape.rows * perRow / shape.threads;
        SmallVector<std::tuple<Value, Value, Value>> loaded;
        for (int64_t s = 0; s < loads; ++s) {
          Value index = m.add(tid, s * shape.threads);
          Value i = m.div(index, perRow);
          Value j = m.mul(m.rem(index, perRow), vector);
          Value v = vector::LoadOp::create(
              tb, loc, vectorType, source,
              ValueRange{m.add(row0, i), m.add(col0, j)},
              /*nontemporal=*/false,
              llvm::Align(::tgemm::kTransposeKernelLoadBytes));
          loaded.emplace_back(i, j, v);
        }
        for (auto [i, j, v] : loaded)
          for (int64_t e = 0; e < vector; ++e)
            memref::StoreOp::create(
                tb, loc, toWord(tb, vector::ExtractOp::create(tb, loc, v, e)),
                tile, ValueRange{i, m.add(j, e)});
      },
      [&](OpBuilder &eb) {
        forEachElement(eb, shape.cols, [&](OpBuilder &lb, Value i, Value j) {
          IndexMath m{lb, loc};
          Value row = m.add(row0, i), col = m.add(col0, j);
          onlyIf(lb, inside(lb, row, col), [&](OpBuilder &tb) {
            Value v =
                memref::LoadOp::create(tb, loc, source, ValueRange{row, col});
            memref::StoreOp::create(tb, loc, toWord(tb, v), tile,
                                    ValueRange{i, j});
          });
        });
      });
  gpu::BarrierOp::create(b, loc);
  // Out of it: row j of the copy's tile is column j of the source's.
  eitherOr(
      vectorPath,
      [&](OpBuilder &tb) {
        IndexMath m{tb, loc};
        auto vectorType = VectorType::get({gather}, bitsType);
        int64_t stores = shape.rows * shape.cols / (gather * shape.threads);
        for (int64_t s = 0; s < stores; ++s) {
          Value index = m.add(tid, s * shape.threads);
          Value along = m.rem(index, lanesAlong);
          Value rest = m.div(index, lanesAlong);
          Value j = m.rem(rest, shape.cols);
          Value first = m.mul(
              m.add(m.mul(m.div(rest, shape.cols), lanesAlong), along), gather);
          SmallVector<Value> elements;
          for (int64_t e = 0; e < gather; ++e)
            elements.push_back(fromWord(
                tb, memref::LoadOp::create(tb, loc, tile,
                                           ValueRange{m.add(first, e), j})));
          Value v =
              vector::FromElementsOp::create(tb, loc, vectorType, elements);
          vector::StoreOp::create(
              tb, loc, v, copy, ValueRange{m.add(col0, j), m.add(row0, first)},
              /*nontemporal=*/false, llvm::Align(gather * bytes));
        }
      },
      [&](OpBuilder &eb) {
        forEachElement(eb, shape.rows, [&](OpBuilder &lb, Value j, Value i) {
          IndexMath m{lb, loc};
          Value row = m.add(row0, i), col = m.add(col0, j);
          onlyIf(lb, inside(lb, row, col), [&](OpBuilder &tb) {
            Value v = memref::LoadOp::create(tb, loc, tile, ValueRange{i, j});
            memref::StoreOp::create(tb, loc, fromWord(tb, v), copy,
                                    ValueRange{col, row});
          });
        });
      });
  gpu::ReturnOp::create(b, loc);
  return kernel;
}

/// The aligning kernel of an operand that the GEMM reads from an aligned
/// copy (`align_kernel`): block (x, y, z) copies the `shape.rows` x
/// `shape.cols` tile at (y, x) of matrix z of `source` (R x C, as stored)
/// into `copy` (R x C, its rows 16 bytes apart) element by element, since
/// the source's rows allow no wider access. Thread t takes elements t, t +
/// threads, ... of the tile row-major (lanes along a row, so a warp's loads
/// and stores are each one run of 32 elements); a whole tile issues all of
/// its loads before its first store, an edge tile tests each element.
gpu::GPUFuncOp buildAlignKernel(OpBuilder &kb, Location loc, StringRef name,
                                MemRefType sourceType, MemRefType copyType,
                                ::tgemm::CopyKernelShape shape) {
  CopyKernel start =
      beginCopyKernel(kb, loc, name, sourceType, copyType, shape, TypeRange{});
  gpu::GPUFuncOp kernel = start.kernel;
  OpBuilder &b = start.b;
  Value source = start.source, copy = start.copy;
  IndexMath im{b, loc};
  Value rows = start.rows, cols = start.cols, row0 = start.row0,
        col0 = start.col0, tid = start.tid;
  assert(shape.cols % shape.threads == 0 || shape.threads % shape.cols == 0);
  int64_t steps = shape.rows * shape.cols / shape.threads;
  // (row, col) in the operand of this thread's element `step`.
  auto element = [&](IndexMath &m, int64_t step) -> std::pair<Value, Value> {
    Value index = m.add(tid, step * shape.threads);
    return {m.add(row0, m.div(index, shape.cols)),
            m.add(col0, m.rem(index, shape.cols))};
  };
  Value whole = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                            im.add(row0, shape.rows), rows),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                            im.add(col0, shape.cols), cols));
  scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &tb, Location) {
        IndexMath m{tb, loc};
        SmallVector<std::tuple<Value, Value, Value>> loaded;
        for (int64_t step = 0; step < steps; ++step) {
          auto [row, col] = element(m, step);
          loaded.emplace_back(
              row, col,
              memref::LoadOp::create(tb, loc, source, ValueRange{row, col}));
        }
        for (auto [row, col, v] : loaded)
          memref::StoreOp::create(tb, loc, v, copy, ValueRange{row, col});
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        IndexMath m{eb, loc};
        for (int64_t step = 0; step < steps; ++step) {
          auto [row, col] = element(m, step);
          Value inside =
              arith::AndIOp::create(eb, loc, m.lt(row, rows), m.lt(col, cols));
          scf::IfOp::create(eb, loc, inside, [&](OpBuilder &ib, Location) {
            Value v =
                memref::LoadOp::create(ib, loc, source, ValueRange{row, col});
            memref::StoreOp::create(ib, loc, v, copy, ValueRange{row, col});
            scf::YieldOp::create(ib, loc);
          });
        }
        scf::YieldOp::create(eb, loc);
      });
  gpu::ReturnOp::create(b, loc);
  return kernel;
}

/// Writes a kernel body for a matmul: the block's view of its operands, the
/// rings, then the main loop and the epilogue twice (for whole tiles and for
/// any size), each with one of three k-loop shapes, a builder per shape:
/// one buffer (`buildSingleBufferLoop`), the multistage ring with its refill
/// order (`buildMultistageLoop`), and the ring with fragments carried across
/// the barrier (`buildPrefetchLoop`).
class KernelBodyWriter {
public:
  /// `transposed`: the operands the copies transpose
  /// (::tgemm::OperandPath::TransposedCopy), whose rings hold them K-major.
  KernelBodyWriter(MatmulOp op, gpu::GPUFuncOp kernel,
                   const ::tgemm::Schedule &schedule,
                   ::tgemm::TransposePlan transposed)
      : op(op), kernel(kernel), schedule(schedule), ctx(op.getContext()),
        config(op.getConfigAttr()), loc(op.getLoc()), layoutA(op.getLayoutA()),
        layoutB(op.getLayoutB()), transposeA(transposed.a),
        transposeB(transposed.b), staged(transposed.staged),
        ringLayoutA(transposed.a ? Layout::Row : layoutA),
        ringLayoutB(transposed.b ? Layout::Col : layoutB),
        stages(config.getStages()), bm(config.getBlockM()),
        bn(config.getBlockN()), bk(config.getBlockK()),
        splitK(config.getSplitK()),
        workspaceParameter(splitK > 1 || transposed.anyCopyKernel()) {}

  void build() {
    Block &entry = kernel.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    IndexMath im{b, loc};
    // A batch runs one matrix product per block z; with split K, S
    // consecutive blocks z share a matrix, one part of K each.
    Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
    Value matrixIndex = bz;
    if (splitK > 1) {
      matrixIndex = im.div(bz, splitK);
      split = im.rem(bz, splitK);
    }
    // Signless bytes read as unsigned (`unsigned`): the kernel's tile ops
    // see ui8 operands, the launch passes the i8 buffers as they are (one
    // descriptor for both; the cast is reconciled when the kernel is
    // lowered to LLVM).
    auto operandOf = [&](unsigned index, bool isA) -> Value {
      Value arg = entry.getArgument(index);
      Type element = op.getOperandElementType(isA);
      auto type = cast<MemRefType>(arg.getType());
      if (type.getElementType() == element)
        return arg;
      auto reread = MemRefType::get(type.getShape(), element, type.getLayout(),
                                    type.getMemorySpace());
      return UnrealizedConversionCastOp::create(b, loc, reread, arg)
          .getResult(0);
    };
    a = matrixOfBatch(b, loc, operandOf(0, /*isA=*/true), matrixIndex);
    bMat = matrixOfBatch(b, loc, operandOf(1, /*isA=*/false), matrixIndex);
    c = matrixOfBatch(b, loc, entry.getArgument(2), matrixIndex);
    // The epilogue's operands follow C: vectors as they are (shared by the
    // batch), a residual as block z's matrix, like C.
    unsigned numEpilogue = op.getEpilogueOperands().size();
    for (unsigned i = 0; i < numEpilogue; ++i) {
      Value operand = entry.getArgument(3 + i);
      if (cast<MemRefType>(operand.getType()).getRank() > 1)
        operand = matrixOfBatch(b, loc, operand, matrixIndex);
      epilogue.push_back(operand);
    }

    // The block's tile of C: x over N, y over M, or grouped rasterization;
    // a persistent block's tiles are set by its tile loops (forEachTile).
    // A cluster's blocks take tiles one above the other (clusterTile):
    // grid x is P blocks per tile column, y the bands of P tile-rows.
    Value bx, by;
    if (!schedule.persistent) {
      bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
      by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
      if (schedule.cluster > 1) {
        Value gridX = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
        Value bands = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
        Value linear = im.add(im.mul(by, gridX), bx);
        std::tie(by, bx) =
            clusterTile(b, linear, bands, im.div(gridX, schedule.cluster));
      } else if (int64_t group = config.getRaster(); group > 1) {
        std::tie(by, bx) = rasterize(b, loc, bx, by, group);
      }
    }
    // Warp: row-major over the warp grid.
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value warp = im.div(tid, 32);
    warpRow = im.mul(im.div(warp, config.getWarpsN()), config.getWarpTileM());
    warpCol = im.mul(im.rem(warp, config.getWarpsN()), config.getWarpTileN());
    if (!schedule.persistent)
      setTile(b, by, bx);
    if (splitK > 1) {
      workspace = entry.getArgument(3 + numEpilogue);
      matrixOfBlock = matrixIndex;
    }

    auto ringA = ringType(ctx, stages, bm, bk, ringLayoutA,
                          op.getOperandElementType(/*isA=*/true), /*isA=*/true);
    auto ringB = ringType(ctx, stages, bn, bk, ringLayoutB,
                          op.getOperandElementType(/*isA=*/false), /*isA=*/false);
    sa = AllocSmemOp::create(b, loc, ringA);
    sb = AllocSmemOp::create(b, loc, ringB);
    // Staging rings hold tiles as stored, after A's and B's rings (the
    // legality module's plan places them so).
    if (staged && transposeA)
      stagingA = AllocSmemOp::create(
          b, loc,
          ringType(ctx, ::tgemm::kStagingSlots, bm, bk, layoutA,
                   op.getOperandElementType(/*isA=*/true), /*isA=*/true));
    if (staged && transposeB)
      stagingB = AllocSmemOp::create(
          b, loc,
          ringType(ctx, ::tgemm::kStagingSlots, bn, bk, layoutB,
                   op.getOperandElementType(/*isA=*/false), /*isA=*/false));
    accType = AccumulatorType::get(ctx, config.getWarpTileM(),
                                   config.getWarpTileN(), op.getAcc());

    // K tiles: K is dimension 1 of a row-major A (M x K), 0 of a
    // column-major.
    Value k = memref::DimOp::create(b, loc, a, layoutA == Layout::Row ? 1 : 0);
    // The last k-tile may be partial: copies read zeros past K.
    kTiles = arith::CeilDivUIOp::create(b, loc, k, im.c(bk));
    ktBase = im.c(0);
    if (splitK > 1) {
      // Part s takes granules [s G / S, (s + 1) G / S) of the G of K (256
      // elements, or BK where that does not divide it): none is empty when
      // G >= S, and the bounds are the same for every BK that divides 256.
      int64_t granule = ::tgemm::splitKGranule(bk);
      Value granules = arith::CeilDivUIOp::create(b, loc, k, im.c(granule));
      int64_t tilesPerGranule = granule / bk;
      ktBase = im.mul(im.div(im.mul(split, granules), splitK), tilesPerGranule);
      Value end = im.mul(im.div(im.mul(im.add(split, 1), granules), splitK),
                         tilesPerGranule);
      end = arith::MinUIOp::create(b, loc, end, kTiles);
      kTiles = arith::SubIOp::create(b, loc, end, ktBase);
    }
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
                               kStep, op.getOperandElementType(/*isA=*/true));

    if (schedule.warpSpecialize) {
      auto barriers = BarriersType::get(ctx, stages);
      full = AllocBarriersOp::create(b, loc, barriers);
      empty = AllocBarriersOp::create(b, loc, barriers);
      auto slots = BarriersType::get(ctx, ::tgemm::kStagingSlots);
      if (stagingA) {
        stagedFullA = AllocBarriersOp::create(b, loc, slots);
        stagedEmptyA = AllocBarriersOp::create(b, loc, slots);
      }
      if (stagingB) {
        stagedFullB = AllocBarriersOp::create(b, loc, slots);
        stagedEmptyB = AllocBarriersOp::create(b, loc, slots);
      }
      matrix = matrixIndex;
      if (schedule.tma) {
        unsigned first = (workspaceParameter ? 4 : 3) + numEpilogue;
        mapA = entry.getArgument(first);
        mapB = entry.getArgument(first + 1);
        unsigned maps = schedule.tmaStore ? 3 : 2;
        if (schedule.tmaStore)
          mapC = entry.getArgument(first + 2);
        mapsMade = entry.getArgument(first + maps);
      }
    }

    // The main loop and the epilogue, once with every tile known to be
    // whole and aligned (`in_bounds`: no guard anywhere), once for any size.
    scf::IfOp::create(
        b, loc,
        wholeTilesCondition(b, loc, op, a, bMat, c, k, epilogue,
                            schedule.cluster),
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
    if (schedule.warpSpecialize)
      return emitWarpSpecialized(b);
    if (!schedule.persistent)
      return emitTile(b);
    // Each tile's copies refill the rings the previous tile's epilogue
    // staged C over: every warp is past that first.
    forEachTile(b, {}, [&](OpBuilder &tb, ValueRange) {
      gpu::BarrierOp::create(tb, loc);
      emitTile(tb);
      return SmallVector<Value>();
    });
  }

  /// Sets the tile of C the code written next works on.
  void setTile(OpBuilder &b, Value row, Value col) {
    IndexMath im{b, loc};
    m0 = im.mul(row, bm);
    n0 = im.mul(col, bn);
    tileRow = row;
    tileCol = col;
  }

  /// C's tiles per matrix, (rows, columns): the launch's grid, or for a
  /// persistent kernel, whose grid is the resident blocks, from C's sizes.
  std::pair<Value, Value> tileCounts(OpBuilder &b) {
    if (!schedule.persistent)
      return {gpu::GridDimOp::create(b, loc, gpu::Dimension::y),
              gpu::GridDimOp::create(b, loc, gpu::Dimension::x)};
    IndexMath im{b, loc};
    return {arith::CeilDivUIOp::create(
                b, loc, memref::DimOp::create(b, loc, c, 0), im.c(bm)),
            arith::CeilDivUIOp::create(
                b, loc, memref::DimOp::create(b, loc, c, 1), im.c(bn))};
  }

  /// A persistent block's loop over its tiles of C: block (x, y) takes tile
  /// y X + x (X, Y the grid's extents), then every X Y-th further, in the
  /// config's raster order (so any grid covers every tile once; the
  /// runtime launches the resident blocks). `body(builder, carried)` works
  /// on the tile setTile gives it and returns the values carried to the
  /// next; returns those after the last.
  ValueRange forEachTile(
      OpBuilder &b, ValueRange init,
      function_ref<SmallVector<Value>(OpBuilder &, ValueRange)> body) {
    IndexMath im{b, loc};
    Value tilesM, tilesN;
    std::tie(tilesM, tilesN) = tileCounts(b);
    // One op per statement: the IR's order does not hang on the order in
    // which C++ evaluates arguments.
    Value gridX = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    Value gridY = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
    Value blockX = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value blockY = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    Value first = im.add(im.mul(blockY, gridX), blockX);
    Value step = im.mul(gridX, gridY);
    Value tiles = im.mul(tilesM, tilesN);
    // A cluster of P blocks loops over bands of P tiles one above the
    // other, each block taking the tile of its rank (the runtime launches
    // whole clusters, so every block of one makes the same trips).
    int64_t p = schedule.cluster;
    Value rank, bands;
    if (p > 1) {
      rank = im.rem(first, p);
      first = im.div(first, p);
      step = im.div(step, p);
      bands = arith::CeilDivUIOp::create(b, loc, tilesM, im.c(p));
      tiles = im.mul(bands, tilesN);
    }
    auto loop = scf::ForOp::create(
        b, loc, first, tiles, step, init,
        [&](OpBuilder &lb, Location, Value t, ValueRange carried) {
          auto [row, col] =
              p > 1 ? clusterTile(lb, IndexMath{lb, loc}.add(
                                          IndexMath{lb, loc}.mul(t, p), rank),
                                  bands, tilesN)
                    : tileOfIndex(lb, loc, t, tilesM, tilesN,
                                  config.getRaster());
          setTile(lb, row, col);
          scf::YieldOp::create(lb, loc, body(lb, carried));
        });
    return loop.getResults();
  }

  /// The (tile row, tile column) of block `linear` of a clustered kernel:
  /// blocks P i to P i + P - 1 (a cluster of P, in rank order) take the P
  /// tiles one above the other of band tile i, band tiles numbered over
  /// `bands` bands of P tile-rows by `tilesN` columns as tileOfIndex
  /// numbers tiles (groups of raster / P bands: as many tile-rows as
  /// without clusters). Each B tile is so shared by the cluster.
  std::pair<Value, Value> clusterTile(OpBuilder &b, Value linear, Value bands,
                                      Value tilesN) {
    IndexMath im{b, loc};
    int64_t p = schedule.cluster;
    auto [band, col] =
        tileOfIndex(b, loc, im.div(linear, p), bands, tilesN,
                    std::max<int64_t>(1, config.getRaster() / p));
    return {im.add(im.mul(band, p), im.rem(linear, p)), col};
  }

  /// The main loop and the epilogue of one tile, every thread of the block
  /// copying and multiplying.
  void emitTile(OpBuilder &b) {
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
    emitEpilogue(b, result, DenseI64ArrayAttr());
  }

  /// The epilogue of the block's threads `threads` (all when null): the
  /// accumulator to C, or with split K to this part's place in the
  /// workspace, then the reduction of the tile's parts by its last block.
  void emitEpilogue(OpBuilder &b, Value acc, DenseI64ArrayAttr threads) {
    IndexMath im{b, loc};
    Value row = im.add(m0, warpRow), col = im.add(n0, warpCol);
    if (splitK == 1) {
      auto store = [&](OpBuilder &sb, Value map) {
        StoreTileOp::create(sb, loc, acc, c, row, col, op.getAlphaAttr(),
                            op.getBetaAttr(), inBounds, threads, epilogue,
                            op.getEpilogueAttr(), map,
                            map ? matrix : Value());
      };
      if (!mapC)
        return store(b, Value());
      // Through C's tensor map where the runtime made the maps, else as
      // without them.
      scf::IfOp::create(
          b, loc, useTma,
          [&](OpBuilder &tb, Location) {
            store(tb, mapC);
            scf::YieldOp::create(tb, loc);
          },
          [&](OpBuilder &eb, Location) {
            store(eb, Value());
            scf::YieldOp::create(eb, loc);
          });
      return;
    }
    // The workspace's views, made here so that nothing of them is live
    // across the k-loop.
    viewWorkspace(b, workspace, matrixOfBlock, tileCol, tileRow);
    StoreTileOp::create(b, loc, acc, part, row, col, FloatAttr(), FloatAttr(),
                        inBounds, threads, ValueRange(), ArrayAttr());
    ReduceSplitsOp::create(b, loc, parts, semaphores, tileIndex, c, m0, n0,
                           b.getDenseI64ArrayAttr({bm, bn}), op.getAlphaAttr(),
                           op.getBetaAttr(), inBounds, threads, epilogue,
                           op.getEpilogueAttr());
  }

  /// The split-K workspace (tgemm.workspace): the semaphores of every
  /// tile of every matrix (i32), then, 256-byte aligned, the parts
  /// (batch x S x M x N accumulators). This block's tile has semaphore
  /// `tileIndex`, its matrix's parts are `parts` and its own `part`.
  void viewWorkspace(OpBuilder &b, Value workspace, Value matrixIndex,
                     Value bx, Value by) {
    IndexMath im{b, loc};
    auto [tilesM, tilesN] = tileCounts(b);
    Value matrices = im.div(gpu::GridDimOp::create(b, loc, gpu::Dimension::z),
                            splitK);
    Value tiles = im.mul(tilesM, tilesN);
    tileIndex = im.add(im.mul(im.add(im.mul(matrixIndex, tilesM), by), tilesN),
                       bx);
    Value count = im.mul(matrices, tiles);
    semaphores = memref::ViewOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI32Type()),
        workspace, im.c(0), ValueRange{count});
    Value semaphoreBytes =
        im.mul(arith::CeilDivUIOp::create(b, loc, im.mul(count, 4), im.c(256)),
               256);
    // Static sizes stay static in the views: fewer registers for the
    // addresses of the epilogue, which runs beside the accumulators.
    auto cType = cast<MemRefType>(c.getType());
    int64_t staticM = cType.getDimSize(0), staticN = cType.getDimSize(1);
    Value m = memref::DimOp::create(b, loc, c, 0);
    Value n = memref::DimOp::create(b, loc, c, 1);
    Type accElement = op.getAcc();
    auto allType = MemRefType::get({ShapedType::kDynamic, staticM, staticN},
                                   accElement);
    SmallVector<Value> dynamicSizes = {im.mul(matrices, splitK)};
    if (ShapedType::isDynamic(staticM))
      dynamicSizes.push_back(m);
    if (ShapedType::isDynamic(staticN))
      dynamicSizes.push_back(n);
    Value all = memref::ViewOp::create(b, loc, allType, workspace,
                                       semaphoreBytes, dynamicSizes);
    SmallVector<OpFoldResult> offsets = {im.mul(matrixIndex, splitK),
                                         b.getIndexAttr(0), b.getIndexAttr(0)};
    auto size = [&](int64_t s, Value v) -> OpFoldResult {
      return ShapedType::isDynamic(s) ? OpFoldResult(v) : b.getIndexAttr(s);
    };
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(splitK),
                                       size(staticM, m), size(staticN, n)};
    SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
    parts = memref::SubViewOp::create(b, loc, all, offsets, sizes, strides);
    part = matrixOfBatch(b, loc, parts, split);
  }

  /// The warp-specialized kernel: the config's warps are C consumer
  /// warpgroups (threads [0, 128 C)), a producer warpgroup follows them.
  /// Stage s has two barriers: `full[s]` completes when its tiles have
  /// landed, `empty[s]` when every consumer thread is done with it. The
  /// producer fills k-tile kt into stage kt mod S once the consumers have
  /// released the tile S before it (phase parities alternate per lap of
  /// the ring; the first lap's waits on `empty` return at once); each
  /// consumer waits for `full`, multiplies and releases. With `tma`, one
  /// producer thread copies whole tiles with the copy engine (completing
  /// as bytes on `full`) where the runtime passed both tensor maps;
  /// otherwise the producer warpgroup copies with cp.async and arrives on
  /// `full` once its copies have landed.
  void emitWarpSpecialized(OpBuilder &b) {
    IndexMath im{b, loc};
    int64_t consumers = config.getWarpsM() * config.getWarpsN() / 4;
    int64_t consumerThreads = consumers * ::tgemm::kWarpgroupThreads;
    useTma = Value();
    if (schedule.tma) {
      Value none = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
      useTma = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                     mapsMade, none);
    }
    // One arrival (with the bytes) per phase with TMA, one per producer
    // thread with cp.async; a staged kernel's TMA path has both: the
    // leader's with the bytes, then every producer thread's once it has
    // transposed its part.
    Value copyArrivals = im.c(::tgemm::kWarpgroupThreads);
    if (useTma)
      copyArrivals = arith::SelectOp::create(
          b, loc, useTma,
          im.c(staged ? 1 + ::tgemm::kWarpgroupThreads : 1), copyArrivals);
    InitBarriersOp::create(b, loc, full, copyArrivals);
    // A clustered kernel's consumers release per warp, on every block of
    // the cluster (releaseStage).
    InitBarriersOp::create(b, loc, empty,
                           im.c(schedule.cluster > 1
                                    ? consumerThreads / 32 * schedule.cluster
                                    : consumerThreads));
    for (auto [stagedFull, stagedEmpty] :
         {std::pair(stagedFullA, stagedEmptyA),
          std::pair(stagedFullB, stagedEmptyB)}) {
      if (!stagedFull)
        continue;
      InitBarriersOp::create(b, loc, stagedFull, im.c(1));
      InitBarriersOp::create(b, loc, stagedEmpty,
                             im.c(::tgemm::kWarpgroupThreads));
    }
    // A cluster's blocks copy into each other's rings and arrive on each
    // other's barriers: none starts before all have initialized theirs.
    if (schedule.cluster > 1)
      SyncClusterOp::create(b, loc);
    // A staged producer keeps its registers for the transposition, so
    // nobody trades them.
    bool maxRegisters = schedule.setMaxRegisters && !staged;

    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value isProducer = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, tid, im.c(consumerThreads));
    scf::IfOp::create(
        b, loc, isProducer,
        [&](OpBuilder &pb, Location) {
          if (!useTma) {
            forEachRoleTile(pb, [&](OpBuilder &rb, RingPosition *at) {
              buildCopyProducer(rb, consumerThreads, at);
            });
          } else {
            scf::IfOp::create(
                pb, loc, useTma,
                [&](OpBuilder &tb, Location) {
                  if (staged) {
                    forEachRoleTile(tb, [&](OpBuilder &rb, RingPosition *at) {
                      buildStagedProducer(rb, consumerThreads, at);
                    });
                    scf::YieldOp::create(tb, loc);
                    return;
                  }
                  // The bulk-copy producer needs few registers; the
                  // cp.async one keeps the launch's for its addresses.
                  if (maxRegisters)
                    SetMaxRegistersOp::create(tb, loc,
                                              ::tgemm::kProducerRegisters);
                  // One thread issues every bulk copy.
                  IndexMath m{tb, loc};
                  scf::IfOp::create(tb, loc, m.eq(tid, m.c(consumerThreads)),
                                    [&](OpBuilder &ob, Location) {
                                      forEachRoleTile(
                                          ob, [&](OpBuilder &rb,
                                                  RingPosition *at) {
                                            buildBulkCopyProducer(rb, at);
                                          });
                                      scf::YieldOp::create(ob, loc);
                                    });
                  scf::YieldOp::create(tb, loc);
                },
                [&](OpBuilder &eb, Location) {
                  forEachRoleTile(eb, [&](OpBuilder &rb, RingPosition *at) {
                    buildCopyProducer(rb, consumerThreads, at);
                  });
                  scf::YieldOp::create(eb, loc);
                });
          }
          scf::YieldOp::create(pb, loc);
        },
        [&](OpBuilder &cb, Location) {
          // The consumers take what the producer gave back (only then do
          // they fit).
          if (maxRegisters && useTma)
            scf::IfOp::create(cb, loc, useTma, [&](OpBuilder &tb, Location) {
              SetMaxRegistersOp::create(tb, loc,
                                        ::tgemm::consumerRegisters(consumers));
              scf::YieldOp::create(tb, loc);
            });
          forEachRoleTile(cb, [&](OpBuilder &rb, RingPosition *at) {
            Value acc = buildConsumerLoop(rb, at);
            emitEpilogue(rb, acc,
                         rb.getDenseI64ArrayAttr({0, consumerThreads}));
          });
          scf::YieldOp::create(cb, loc);
        });
    // No block leaves while another may still arrive on its barriers.
    if (schedule.cluster > 1)
      SyncClusterOp::create(b, loc);
  }

  /// A consumer thread releases `stage`: it arrives on `empty`. In a
  /// cluster of P, lane r of each consumer warp arrives on block r's
  /// instead, r < P: a warp's threads finish their multiplies together, so
  /// each block's barrier completes once every consumer warp of the
  /// cluster is done with the stage, which the block's producer then
  /// refills in all of them.
  void releaseStage(OpBuilder &b, Value stage) {
    if (schedule.cluster == 1) {
      ArriveBarrierOp::create(b, loc, empty, stage, IntegerAttr());
      return;
    }
    IndexMath im{b, loc};
    Value lane =
        im.rem(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x), 32);
    scf::IfOp::create(b, loc, im.lt(lane, im.c(schedule.cluster)),
                      [&](OpBuilder &tb, Location) {
                        ArriveBarrierOp::create(tb, loc, empty, stage,
                                                IntegerAttr(), lane);
                        scf::YieldOp::create(tb, loc);
                      });
  }

  /// Where a role of a warp-specialized kernel is in the ring: the stage
  /// it uses next, the parity of that lap, and (a persistent block) how
  /// many k-tiles its earlier tiles took.
  struct RingPosition {
    Value stage, parity, done;
  };

  /// Runs `role`, one role's work on a tile, on the block's tile with the
  /// ring at its start (no position), or on each of a persistent block's
  /// tiles with the ring's position carried from one tile to the next.
  void forEachRoleTile(OpBuilder &b,
                       function_ref<void(OpBuilder &, RingPosition *)> role) {
    if (!schedule.persistent)
      return role(b, nullptr);
    IndexMath im{b, loc};
    forEachTile(b, {im.c(0), im.c(0), im.c(0)},
                [&](OpBuilder &tb, ValueRange carried) {
                  RingPosition at{carried[0], carried[1], carried[2]};
                  role(tb, &at);
                  return SmallVector<Value>{
                      at.stage, at.parity,
                      IndexMath{tb, loc}.add(carried[2], kTiles)};
                });
  }

  /// A loop over the k-tiles with the ring's stage and the parity of its
  /// lap carried, from `at` (else the ring's start), which it then moves
  /// past the loop: `body(builder, kt, stage, parity, carried)` returns the
  /// values carried besides them.
  ValueRange buildRingLoop(
      OpBuilder &b, ValueRange init,
      function_ref<SmallVector<Value>(OpBuilder &, Value, Value, Value,
                                      ValueRange)>
          body,
      RingPosition *at = nullptr) {
    IndexMath im{b, loc};
    SmallVector<Value> carried(init);
    if (at)
      carried.append({at->stage, at->parity});
    else
      carried.append({im.c(0), im.c(0)});
    auto loop = scf::ForOp::create(
        b, loc, im.c(0), kTiles, im.c(1), carried,
        [&](OpBuilder &lb, Location, Value kt, ValueRange iterArgs) {
          IndexMath m{lb, loc};
          size_t n = iterArgs.size();
          Value stage = iterArgs[n - 2], parity = iterArgs[n - 1];
          SmallVector<Value> next =
              body(lb, kt, stage, parity, iterArgs.drop_back(2));
          Value following = this->following(lb, stage);
          Value wraps = m.eq(following, m.c(0));
          Value flipped = arith::XOrIOp::create(lb, loc, parity, m.c(1));
          next.push_back(following);
          next.push_back(
              arith::SelectOp::create(lb, loc, wraps, flipped, parity));
          scf::YieldOp::create(lb, loc, next);
        });
    size_t n = loop.getNumResults();
    if (at) {
      at->stage = loop.getResult(n - 2);
      at->parity = loop.getResult(n - 1);
    }
    return loop.getResults().drop_back(2);
  }

  /// The producer's wait for a stage its consumers released: the parity
  /// of the previous lap.
  void waitForEmpty(OpBuilder &b, Value stage, Value parity) {
    Value previousLap = arith::XOrIOp::create(b, loc, parity,
                                              IndexMath{b, loc}.c(1));
    WaitBarrierOp::create(b, loc, empty, stage, previousLap);
  }

  void buildBulkCopyProducer(OpBuilder &b, RingPosition *at) {
    auto ringA = cast<SmemType>(sa.getType());
    auto ringB = cast<SmemType>(sb.getType());
    int64_t bytes = (ringA.getRows() * ringA.getCols() *
                         ringA.getElementType().getIntOrFloatBitWidth() +
                     ringB.getRows() * ringB.getCols() *
                         ringB.getElementType().getIntOrFloatBitWidth()) /
                    8;
    buildRingLoop(b, {},
                  [&](OpBuilder &lb, Value kt, Value stage, Value parity,
                      ValueRange) {
                    waitForEmpty(lb, stage, parity);
                    ArriveBarrierOp::create(lb, loc, full, stage,
                                            lb.getI64IntegerAttr(bytes));
                    auto [aRow, aCol] = tileOrigin(lb, kt, /*isA=*/true);
                    auto [bRow, bCol] = tileOrigin(lb, kt, /*isA=*/false);
                    BulkCopyTileOp::create(lb, loc, mapA, matrix, aRow, aCol,
                                           sa, stage, full);
                    // A cluster shares B's tile: each block copies its
                    // part to all.
                    BulkCopyTileOp::create(
                        lb, loc, mapB, matrix, bRow, bCol, sb, stage, full,
                        schedule.cluster > 1
                            ? lb.getI64IntegerAttr(schedule.cluster)
                            : IntegerAttr());
                    return SmallVector<Value>();
                  },
                  at);
  }

  /// The producer of a kernel with staged operands, every thread of its
  /// warpgroup. Its leader brings k-tile kt + 1 of each staged operand in
  /// as stored (slot (kt + 1) mod 2 of its staging ring, once the
  /// warpgroup has released that slot), and k-tile kt of the others
  /// straight into their rings, announcing their bytes on `full`; then
  /// every thread transposes its part of k-tile kt from the staging slot
  /// into the ring, releases the slot and arrives on `full`.
  void buildStagedProducer(OpBuilder &b, int64_t firstThread,
                           RingPosition *at) {
    IndexMath im{b, loc};
    // The staging slots go round over every k-tile of the block's tiles.
    Value done = at ? at->done : Value();
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value leader = im.eq(tid, im.c(firstThread));
    DenseI64ArrayAttr threads =
        b.getDenseI64ArrayAttr({firstThread, ::tgemm::kWarpgroupThreads});
    struct Staged {
      Value ring, staging, full, empty, map;
      bool isA;
      int64_t bytes;
    };
    SmallVector<Staged> stagedOperands;
    auto tileBytes = [](Value ring) {
      auto type = cast<SmemType>(ring.getType());
      return type.getRows() * type.getCols() *
             type.getElementType().getIntOrFloatBitWidth() / 8;
    };
    if (stagingA)
      stagedOperands.push_back(
          {sa, stagingA, stagedFullA, stagedEmptyA, mapA, true, tileBytes(sa)});
    if (stagingB)
      stagedOperands.push_back({sb, stagingB, stagedFullB, stagedEmptyB, mapB,
                                false, tileBytes(sb)});
    int64_t directBytes = (stagingA ? 0 : tileBytes(sa)) +
                          (stagingB ? 0 : tileBytes(sb));
    // Slot g mod 2 and the parity of its lap, g / 2 mod 2, for the g-th
    // k-tile of the block.
    auto slotOf = [&](OpBuilder &ob, Value kt) {
      IndexMath m{ob, loc};
      Value g = done ? m.add(done, kt) : kt;
      return std::pair(m.rem(g, ::tgemm::kStagingSlots),
                       m.rem(m.div(g, ::tgemm::kStagingSlots), 2));
    };
    auto stageIn = [&](OpBuilder &ob, Value kt) {
      auto [slot, lap] = slotOf(ob, kt);
      Value previousLap =
          arith::XOrIOp::create(ob, loc, lap, IndexMath{ob, loc}.c(1));
      for (const Staged &x : stagedOperands) {
        WaitBarrierOp::create(ob, loc, x.empty, slot, previousLap);
        ArriveBarrierOp::create(ob, loc, x.full, slot,
                                ob.getI64IntegerAttr(x.bytes));
        auto [row, col] = tileOrigin(ob, kt, x.isA);
        BulkCopyTileOp::create(ob, loc, x.map, matrix, row, col, x.staging,
                               slot, x.full);
      }
    };
    auto onLeader = [&](OpBuilder &ob, Value condition,
                        function_ref<void(OpBuilder &)> body) {
      scf::IfOp::create(ob, loc, condition, [&](OpBuilder &tb, Location) {
        body(tb);
        scf::YieldOp::create(tb, loc);
      });
    };
    onLeader(b, arith::AndIOp::create(b, loc, leader, im.lt(im.c(0), kTiles)),
             [&](OpBuilder &ob) { stageIn(ob, IndexMath{ob, loc}.c(0)); });
    buildRingLoop(
        b, {},
        [&](OpBuilder &lb, Value kt, Value stage, Value parity, ValueRange) {
          IndexMath m{lb, loc};
          Value next = m.add(kt, 1);
          onLeader(lb,
                   arith::AndIOp::create(lb, loc, leader, m.lt(next, kTiles)),
                   [&](OpBuilder &ob) { stageIn(ob, next); });
          waitForEmpty(lb, stage, parity);
          onLeader(lb, leader, [&](OpBuilder &ob) {
            ArriveBarrierOp::create(
                ob, loc, full, stage,
                directBytes ? ob.getI64IntegerAttr(directBytes)
                            : IntegerAttr());
            if (!stagingA) {
              auto [row, col] = tileOrigin(ob, kt, /*isA=*/true);
              BulkCopyTileOp::create(ob, loc, mapA, matrix, row, col, sa,
                                     stage, full);
            }
            if (!stagingB) {
              auto [row, col] = tileOrigin(ob, kt, /*isA=*/false);
              BulkCopyTileOp::create(ob, loc, mapB, matrix, row, col, sb,
                                     stage, full);
            }
          });
          auto [slot, lap] = slotOf(lb, kt);
          for (const Staged &x : stagedOperands) {
            WaitBarrierOp::create(lb, loc, x.full, slot, lap);
            TransposeTileOp::create(lb, loc, x.staging, slot, x.ring, stage,
                                    threads);
            ArriveBarrierOp::create(lb, loc, x.empty, slot, IntegerAttr());
          }
          ArriveBarrierOp::create(lb, loc, full, stage, IntegerAttr());
          return SmallVector<Value>();
        },
        at);
  }

  /// The producer warpgroup copies each k-tile with cp.async, waits for
  /// its copies and arrives on `full`.
  void buildCopyProducer(OpBuilder &b, int64_t firstThread, RingPosition *at) {
    DenseI64ArrayAttr threads =
        b.getDenseI64ArrayAttr({firstThread, ::tgemm::kWarpgroupThreads});
    buildRingLoop(
        b, {},
        [&](OpBuilder &lb, Value kt, Value stage, Value parity, ValueRange) {
          waitForEmpty(lb, stage, parity);
          auto [aRow, aCol] = tileOrigin(lb, kt, /*isA=*/true);
          auto [bRow, bCol] = tileOrigin(lb, kt, /*isA=*/false);
          CopyTileOp::create(lb, loc, a, aRow, aCol, sa, stage, transposeA,
                             async && !transposeA, inBounds, Value(), threads);
          CopyTileOp::create(lb, loc, bMat, bRow, bCol, sb, stage, transposeB,
                             async && !transposeB, inBounds, Value(), threads);
          CommitCopiesOp::create(lb, loc);
          WaitCopiesOp::create(lb, loc, 0);
          ArriveBarrierOp::create(lb, loc, full, stage, IntegerAttr());
          return SmallVector<Value>();
        },
        at);
  }

  /// Each consumer thread waits for the stage's tiles and its warpgroup
  /// starts multiplying them, one k-tile's multiply left in flight: once
  /// the multiply of k-tile kt is issued, that of kt - 1 has completed and
  /// the thread releases its stage. The last k-tile's stage is released
  /// once its multiply is done, where a persistent producer refills it for
  /// the next tile; else never (nothing refills it).
  Value buildConsumerLoop(OpBuilder &b, RingPosition *at) {
    Value acc0 = ZeroAccOp::create(b, loc, accType);
    ValueRange results = buildRingLoop(
        b, {acc0},
        [&](OpBuilder &lb, Value kt, Value stage, Value parity,
            ValueRange carried) {
          IndexMath m{lb, loc};
          WaitBarrierOp::create(lb, loc, full, stage, parity);
          Value acc = MmaTileOp::create(
              lb, loc, accType, sa, stage, sb, stage, carried[0], warpRow,
              warpCol, LayoutAttr::get(ctx, ringLayoutA),
              LayoutAttr::get(ctx, ringLayoutB), DenseI64ArrayAttr(),
              lb.getI64IntegerAttr(kMmasInFlight), Value());
          scf::IfOp::create(lb, loc, m.lt(m.c(0), kt),
                            [&](OpBuilder &tb, Location) {
                              releaseStage(tb, preceding(tb, stage));
                              scf::YieldOp::create(tb, loc);
                            });
          return SmallVector<Value>{acc};
        },
        at);
    Value acc = WaitMmaOp::create(b, loc, accType, results[0]);
    if (at) {
      IndexMath im{b, loc};
      scf::IfOp::create(b, loc, im.lt(im.c(0), kTiles),
                        [&](OpBuilder &tb, Location) {
                          releaseStage(tb, preceding(tb, at->stage));
                          scf::YieldOp::create(tb, loc);
                        });
    }
    return acc;
  }
  /// The consumers' multiplies left running while the next k-tile's
  /// wait and issue proceed.
  static constexpr int64_t kMmasInFlight = 1;

  /// The stored (row, col) of k-tile `kt`'s tile of A or B.
  std::pair<Value, Value> tileOrigin(OpBuilder &ob, Value kt, bool isA) {
    IndexMath m{ob, loc};
    Value k0 = m.mul(m.add(ktBase, kt), bk);
    if (isA)
      return layoutA == Layout::Row ? std::pair(m0, k0) : std::pair(k0, m0);
    return layoutB == Layout::Row ? std::pair(k0, n0) : std::pair(n0, k0);
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
    Value k0 = m.mul(m.add(ktBase, kt), bk);
    auto [aRow, aCol] =
        layoutA == Layout::Row ? std::pair(m0, k0) : std::pair(k0, m0);
    auto [bRow, bCol] =
        layoutB == Layout::Row ? std::pair(k0, n0) : std::pair(n0, k0);
    if (copyA)
      CopyTileOp::create(ob, loc, a, aRow, aCol, sa, stage, transposeA,
                         async && !transposeA, inBounds,
                         predicate, DenseI64ArrayAttr());
    if (copyB)
      CopyTileOp::create(ob, loc, bMat, bRow, bCol, sb, stage, transposeB,
                         async && !transposeB, inBounds,
                         predicate, DenseI64ArrayAttr());
  }
  void copyStage(OpBuilder &ob, Value kt, Value stage,
                 Value predicate = Value()) {
    copyTiles(ob, kt, stage, predicate, true, true);
  }

  Value multiply(OpBuilder &lb, Value stage, Value acc,
                 DenseI64ArrayAttr slice = {}, Value frags = Value()) {
    return MmaTileOp::create(lb, loc, accType, sa, stage, sb, stage, acc,
                             warpRow, warpCol, LayoutAttr::get(ctx, ringLayoutA),
                             LayoutAttr::get(ctx, ringLayoutB), slice,
                             IntegerAttr(), frags);
  }
  Value loadFrags(OpBuilder &lb, Value stage, int64_t offset) {
    return LoadFragsOp::create(lb, loc, fragsType, sa, stage, sb, stage,
                               warpRow, warpCol, LayoutAttr::get(ctx, ringLayoutA),
                               LayoutAttr::get(ctx, ringLayoutB),
                               lb.getDenseI64ArrayAttr({offset, kStep}));
  }
  /// The ring's stage before `stage`.
  Value preceding(OpBuilder &ob, Value stage) {
    IndexMath m{ob, loc};
    Value first = m.eq(stage, m.c(0));
    return arith::SelectOp::create(
        ob, loc, first, m.c(stages - 1),
        arith::SubIOp::create(ob, loc, stage, m.c(1)).getResult());
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
  /// As stored (the copies' sources), and as the rings hold them (the
  /// multiplies' layouts).
  Layout layoutA, layoutB;
  bool transposeA, transposeB;
  /// The transposed operands come in through staging rings (as stored, by
  /// the copy engine) that the producer transposes from.
  bool staged;
  Layout ringLayoutA, ringLayoutB;
  /// Per staged operand: its staging ring, whose slots' barriers complete
  /// when a tile has landed (`stagedFull`, one arrival with the bytes) and
  /// when the producer warpgroup is done reading it (`stagedEmpty`).
  Value stagingA, stagingB, stagedFullA, stagedFullB, stagedEmptyA,
      stagedEmptyB;
  int64_t stages, bm, bn, bk, splitK;
  /// The kernel takes a workspace after the epilogue's operands (split K,
  /// or operands read from transposed copies).
  bool workspaceParameter;
  // Set by build(). With split K, kTiles counts this part's k-tiles, the
  // first of which is k-tile ktBase of the matrix.
  Value a, bMat, c, sa, sb, warpRow, warpCol, m0, n0, kTiles, ktBase;
  /// The epilogue's operands as the block sees them (a residual as its
  /// matrix of the batch).
  SmallVector<Value> epilogue;
  // Split K: this block's part, the workspace's views (semaphores, the
  // matrix's parts, this block's part) and the tile's semaphore.
  Value split, workspace, matrixOfBlock, tileRow, tileCol;
  // Set by viewWorkspace, in each epilogue.
  Value semaphores, parts, part, tileIndex;
  // A warp-specialized kernel's barrier rings, the batch index, and the
  // tensor maps of A and B and whether the runtime made both (with tma).
  Value full, empty, matrix, mapA, mapB, mapC, mapsMade;
  /// Whether the runtime made every tensor map (an i1, set by
  /// emitWarpSpecialized where the schedule has tma).
  Value useTma;
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
  // Operands the family reads K-major only are transposed on their way
  // into shared memory: from staging rings the copy engine fills, or
  // (tf32, or without TMA) by copies through registers, the producer then
  // copying with cp.async (TransposePlan).
  ::tgemm::TransposePlan transposed;
  if (target) {
    transposed = ::tgemm::transposePlan(getProblem(op), target.getFamily(),
                                        schedule);
    if (transposed.any() && !transposed.staged)
      schedule.tma = false;
  }
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
  for (auto [index, operand] : llvm::enumerate(operands)) {
    auto type = cast<MemRefType>(operand.getType());
    if (type.getLayout().isIdentity())
      continue;
    // A fully dynamic view (strided<[?, ?], offset: ?>, what
    // one-shot-bufferize gives function arguments) is compiled for unit
    // stride within a row: the host checks it before the launch.
    SmallVector<int64_t> sourceStrides;
    int64_t sourceOffset;
    if (succeeded(type.getStridesAndOffset(sourceStrides, sourceOffset)) &&
        ShapedType::isDynamic(sourceStrides.back())) {
      auto meta =
          memref::ExtractStridedMetadataOp::create(castBuilder, loc, operand);
      Value one = arith::ConstantIndexOp::create(castBuilder, loc, 1);
      Value unit = arith::CmpIOp::create(castBuilder, loc,
                                         arith::CmpIPredicate::eq,
                                         meta.getStrides().back(), one);
      const char *name = index == 0 ? "A" : index == 1 ? "B" : "C";
      cf::AssertOp::create(
          castBuilder, loc, unit,
          (llvm::Twine("tgemm.matmul: ") + name +
           " must have unit stride within a row (its innermost stride); "
           "the kernel reads rows as contiguous elements")
              .str());
    }
    MemRefType general = generalStridedType(type);
    if (general != type)
      operand = memref::CastOp::create(castBuilder, loc, general, operand);
  }
  // Operands transposed by a kernel of their own (transpose_kernel), or
  // copied as stored with their rows on 16 bytes (align_kernel): a launch
  // of that kernel writes the copy into the workspace, and the GEMM is
  // this matmul on the copies. The manifest describes the caller's
  // operands (`source`), and its `transposes` and `aligned_copies` the
  // copies.
  MatmulOp source = op;
  SmallVector<::tgemm::runtime::OperandTranspose> transposes;
  for (unsigned index : {0u, 1u}) {
    bool transpose = index == 0 ? transposed.kernelA : transposed.kernelB;
    bool align = index == 0 ? transposed.alignA : transposed.alignB;
    if (!transpose && !align)
      continue;
    Value stored = operands[index];
    auto type = cast<MemRefType>(stored.getType());
    MemRefType general = generalStridedType(type);
    if (general != type)
      stored = memref::CastOp::create(castBuilder, loc, general, stored);
    SmallVector<int64_t> shape(type.getShape());
    if (transpose)
      std::swap(shape[shape.size() - 2], shape.back());
    MemRefType copyType = generalStridedType(
        MemRefType::get(shape, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace()));
    Value copy =
        transpose ? TransposedCopyOp::create(castBuilder, loc, copyType, stored)
                        .getResult()
                  : AlignedCopyOp::create(castBuilder, loc, copyType, stored)
                        .getResult();
    int64_t bits = type.getElementTypeBitWidth();
    ::tgemm::CopyKernelShape kernelShape =
        transpose ? ::tgemm::transposeKernelShape(bits)
                  : ::tgemm::kAlignKernelShape;
    std::string name = (baseName + (transpose ? "_transpose_" : "_align_") +
                        (index == 0 ? "a" : "b"))
                           .str();
    gpu::GPUFuncOp kernelOfCopy =
        transpose
            ? buildTransposeKernel(kb, loc, name, general, copyType,
                                   kernelShape)
            : buildAlignKernel(kb, loc, name, general, copyType, kernelShape);
    // Grid (ceil(C / cols), ceil(R / rows), batch) over the stored R x C.
    IndexMath hm{castBuilder, loc};
    unsigned first = type.getRank() - 2;
    auto blocks = [&](unsigned dim, int64_t tile) -> Value {
      if (!type.isDynamicDim(dim))
        return hm.c(llvm::divideCeil(type.getDimSize(dim), tile));
      return arith::CeilDivUIOp::create(
          castBuilder, loc,
          memref::DimOp::create(castBuilder, loc, stored, dim), hm.c(tile));
    };
    Value one = hm.c(1);
    Value batch = type.getRank() == 3 ? blocks(0, 1) : one;
    gpu::LaunchFuncOp::create(
        castBuilder, loc, kernelOfCopy,
        gpu::KernelDim3{blocks(first + 1, kernelShape.cols),
                        blocks(first, kernelShape.rows), batch},
        gpu::KernelDim3{hm.c(kernelShape.threads), one, one}, Value(),
        ValueRange{stored, copy});
    operands[index] = copy;
    ::tgemm::runtime::OperandTranspose entry;
    entry.operand = index == 0 ? ::tgemm::runtime::Operand::A
                               : ::tgemm::runtime::Operand::B;
    entry.kernel = name;
    entry.tile = {kernelShape.rows, kernelShape.cols};
    entry.threads = kernelShape.threads;
    entry.transpose = transpose;
    transposes.push_back(entry);
  }
  if (!transposes.empty()) {
    // The GEMM on the copies: a transposed one K-major, A row-major and B
    // column-major; an aligned one as stored.
    op = cast<MatmulOp>(castBuilder.clone(*source));
    if (transposed.kernelA || transposed.alignA)
      op.getAMutable().assign(operands[0]);
    if (transposed.kernelB || transposed.alignB)
      op.getBMutable().assign(operands[1]);
    if (transposed.kernelA)
      op.setLayoutA(Layout::Row);
    if (transposed.kernelB)
      op.setLayoutB(Layout::Col);
  }
  // The epilogue's operands follow C (packed: the verifier says so).
  llvm::append_range(operands, op.getEpilogueOperands());
  // With split K or transposed copies, the workspace follows (the runtime
  // allocates it).
  int64_t splitK = config.getSplitK();
  if (splitK > 1 || !transposes.empty())
    operands.push_back(WorkspaceOp::create(
        castBuilder, loc,
        MemRefType::get({ShapedType::kDynamic}, castBuilder.getI8Type()),
        op.getC(), castBuilder.getI64IntegerAttr(splitK)));
  // With TMA, the tensor maps of A and B follow, passed by value
  // (tgemm-tensor-maps-by-value): the runtime makes them from the
  // manifest's tensor_maps (the host's tgemm.tensor_map says so).
  ::tgemm::TileConfig tile = getTileConfig(config);
  bool tma = schedule.warpSpecialize && schedule.tma;
  SmallVector<::tgemm::runtime::TensorMapArg> tensorMaps;
  if (tma) {
    ::tgemm::RingShapes shapes = ::tgemm::ringShapes(getProblem(op), tile);
    for (auto [index, operand] :
         llvm::enumerate(ArrayRef<Value>(operands).take_front(2))) {
      ::tgemm::runtime::TensorMapArg map;
      map.operand = index == 0 ? ::tgemm::runtime::Operand::A
                               : ::tgemm::runtime::Operand::B;
      auto type = cast<MemRefType>(operand.getType());
      map.box = index == 0
                    ? ::tgemm::tensorMapBox(shapes.aRows, shapes.aCols,
                                            type.getElementTypeBitWidth())
                    : ::tgemm::multicastBox(shapes.bRows, shapes.bCols,
                                            type.getElementTypeBitWidth(),
                                            schedule.cluster);
      map.swizzle = 128;
      tensorMaps.push_back(map);
      operands.push_back(TensorMapOp::create(
          castBuilder, loc, LLVM::LLVMPointerType::get(ctx), operand,
          castBuilder.getDenseI64ArrayAttr(map.box),
          castBuilder.getI64IntegerAttr(map.swizzle)));
    }
    // With tma_store, C's map follows: boxes of 16 rows by one 128-byte
    // line, which the consumers' warps write and the copy engine stores.
    if (schedule.tmaStore) {
      ::tgemm::runtime::TensorMapArg map;
      map.operand = ::tgemm::runtime::Operand::C;
      Value cOperand = operands[2];
      auto type = cast<MemRefType>(cOperand.getType());
      map.box = ::tgemm::storeBox(type.getElementTypeBitWidth());
      map.swizzle = 128;
      tensorMaps.push_back(map);
      operands.push_back(TensorMapOp::create(
          castBuilder, loc, LLVM::LLVMPointerType::get(ctx), cOperand,
          castBuilder.getDenseI64ArrayAttr(map.box),
          castBuilder.getI64IntegerAttr(map.swizzle)));
    }
    // Then whether every map was made: 1 here; the runtime passes 0 where
    // it cannot describe an operand, and the kernel copies with cp.async.
    operands.push_back(
        arith::ConstantIntOp::create(castBuilder, loc, 1, 32).getResult());
  }
  auto kernelType =
      FunctionType::get(ctx, ValueRange(operands).getTypes(), {});
  auto kernel = gpu::GPUFuncOp::create(kb, loc, baseName.str() + "_kernel",
                                       kernelType);
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
  if (tma)
    kernel->setAttr(kTensorMapParamsAttrName,
                    kb.getI64IntegerAttr(static_cast<int64_t>(tensorMaps.size())));
  int32_t threads = ::tgemm::blockThreads(tile, schedule);
  kernel.setKnownBlockSizeAttr(kb.getDenseI32ArrayAttr({threads, 1, 1}));
  // A clustered kernel says its cluster (.reqnctapercluster): any launch
  // of it then runs in clusters of that shape, or fails.
  if (schedule.cluster > 1)
    kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    kb.getDenseI32ArrayAttr(
                        {static_cast<int32_t>(schedule.cluster), 1, 1}));
  // Without a target or a schedule of its own the op has the neutral
  // k-loop, and each lowering its family's default.
  if (target || op.getScheduleAttr())
    kernel->setAttr(ScheduleAttr::getAttrName(),
                    ScheduleAttr::get(ctx, schedule));
  KernelBodyWriter(op, kernel, schedule, transposed).build();

  // The launch: grid (ceil(N / BN), ceil(M / BM), batch); edge blocks are
  // partial.
  // After every host op above (all of them before `source`).
  OpBuilder b(source);
  IndexMath im{b, loc};
  auto size = [&](Value memref, unsigned dim, int64_t tile) -> Value {
    int64_t s = cast<MemRefType>(memref.getType()).getDimSize(dim);
    if (!ShapedType::isDynamic(s))
      return im.c(llvm::divideCeil(s, tile));
    return arith::CeilDivUIOp::create(
        b, loc, memref::DimOp::create(b, loc, memref, dim), im.c(tile));
  };
  unsigned firstMatrixDim = op.isBatched() ? 1 : 0;
  // A cluster of P: P blocks per tile column, bands of P tile-rows.
  int64_t cluster = schedule.cluster;
  Value gridX = im.mul(size(op.getC(), firstMatrixDim + 1, config.getBlockN()),
                       cluster);
  Value gridY = size(op.getC(), firstMatrixDim, config.getBlockM() * cluster);
  Value one = im.c(1);
  Value gridZ = op.isBatched() ? size(op.getC(), 0, 1) : one;
  if (splitK > 1)
    gridZ = im.mul(gridZ, splitK);
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
  ::tgemm::runtime::KernelManifest manifest =
      buildManifest(source, gpuModule.getName(), kernel.getName(), sharedBytes);
  manifest.transposes.assign(transposes.begin(), transposes.end());
  manifest.block = {threads, 1, 1};
  // The grid lists C's tiles; the runtime launches the resident blocks.
  manifest.persistent = schedule.persistent;
  manifest.cluster = cluster;
  manifest.grid[0].times = cluster;
  manifest.grid[1].tile *= cluster;
  manifest.tensorMaps.assign(tensorMaps.begin(), tensorMaps.end());
  setManifest(launch, manifest);
  op.erase();
  if (source != op)
    source.erase();
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
    // The kernel is written from buffers: the tensor form is bufferized
    // first (its bufferization interface gives the memref form).
    bool tensors = false;
    for (MatmulOp op : matmuls)
      if (op.hasTensorForm()) {
        (void)emitTensorForm(op);
        tensors = true;
      }
    if (tensors)
      return signalPassFailure();
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
