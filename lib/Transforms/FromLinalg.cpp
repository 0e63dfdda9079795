//===- FromLinalg.cpp - linalg matmuls and contractions to tgemm.matmul ---===//

#include "ImportEpilogue.h"

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMFROMLINALG
#include "tgemm/Transforms/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;
using namespace mlir::tgemm;

namespace {

/// The loop dimensions of a (batch) matmul: d0..d2 of linalg.matmul are
/// (m, n, k); linalg.batch_matmul puts the batch first.
struct MatmulDims {
  std::optional<unsigned> batch;
  unsigned m, n, k;
  /// The batch is summed over (linalg.batch_reduce_matmul): C has no batch
  /// dimension, A and B do.
  bool reduceBatch = false;
};

/// The loop dimensions `map` indexes with, in order, or nothing when a
/// result is not a plain dimension (a broadcast, a constant, an expression).
std::optional<SmallVector<unsigned>> plainDims(AffineMap map) {
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  return dims;
}

/// The layout of an operand indexed by `map`: `row` when it is indexed
/// (rows, cols), `col` when (cols, rows), after the batch if any.
std::optional<Layout> layoutOf(AffineMap map, const MatmulDims &dims,
                               unsigned rows, unsigned cols) {
  std::optional<SmallVector<unsigned>> indices = plainDims(map);
  if (!indices)
    return std::nullopt;
  SmallVector<unsigned> prefix;
  if (dims.batch)
    prefix.push_back(*dims.batch);
  auto is = [&](unsigned first, unsigned second) {
    SmallVector<unsigned> want = prefix;
    want.append({first, second});
    return *indices == ArrayRef<unsigned>(want);
  };
  if (is(rows, cols))
    return Layout::Row;
  if (is(cols, rows))
    return Layout::Col;
  return std::nullopt;
}

/// The accumulator for C's element type: C's own where an instruction
/// accumulates in it, else f32 (a bf16 C).
Type accumulatorFor(Type c) {
  if (c.isF16() || c.isF32() || c.isSignlessInteger(32))
    return c;
  return Float32Type::get(c.getContext());
}

/// Whether `op` is a linalg.fill of zero into exactly `c`.
bool isZeroFillOf(Operation *op, Value c) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  if (!fill || fill.getDpsInits().size() != 1 || fill.getDpsInits()[0] != c)
    return false;
  Value value = fill.getDpsInputs()[0];
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

/// Whether `op` is imported as a matrix product: the named matmuls, and any
/// other linalg op whose body and maps make it a contraction
/// (linalg.generic, linalg.contract, linalg.matmul with indexing maps).
bool isCandidate(linalg::LinalgOp op) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return true;
  return op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1 &&
         linalg::isaContractionOpInterface(op);
}

/// The (batch) matmul dimensions of `op`: fixed for the named ops, else
/// inferred from the contraction's maps (one m, one n, one k and at most
/// one batch dimension); otherwise why not.
FailureOr<MatmulDims> matmulDims(linalg::LinalgOp op, std::string &why) {
  if (isa<linalg::BatchMatmulOp>(op))
    return MatmulDims{0u, 1u, 2u, 3u};
  if (isa<linalg::MatmulOp>(op))
    return MatmulDims{std::nullopt, 0u, 1u, 2u};
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  // Two reduction dimensions, one of them the outermost of A and of B:
  // a sum over a batch of matrix products (batch_reduce_matmul's form).
  if (succeeded(dims) && dims->m.size() == 1 && dims->n.size() == 1 &&
      dims->k.size() == 2 && dims->batch.empty()) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    auto outermost = [](AffineMap map) -> std::optional<unsigned> {
      if (map.getNumResults() != 3)
        return std::nullopt;
      auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
      return dim ? std::optional<unsigned>(dim.getPosition()) : std::nullopt;
    };
    std::optional<unsigned> batch = outermost(maps[0]);
    if (batch && batch == outermost(maps[1]) &&
        !maps[2].isFunctionOfDim(*batch)) {
      unsigned k = dims->k[0] == *batch ? dims->k[1] : dims->k[0];
      return MatmulDims{batch, dims->m[0], dims->n[0], k,
                        /*reduceBatch=*/true};
    }
  }
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1) {
    why = "it is a contraction over more than one m, n or k dimension (or "
          "more than one batch dimension); tgemm.matmul multiplies matrices";
    return failure();
  }
  MatmulDims out{std::nullopt, dims->m[0], dims->n[0], dims->k[0]};
  if (!dims->batch.empty())
    out.batch = dims->batch[0];
  return out;
}

struct FromLinalgPass
    : public mlir::tgemm::impl::TGemmFromLinalgBase<FromLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isCandidate(op))
        candidates.push_back(op);
    });
    bool failed = false;
    for (linalg::LinalgOp op : candidates) {
      std::string why = import(op);
      if (why.empty())
        continue;
      if (strict) {
        op.emitError() << "cannot be computed by tgemm.matmul: " << why;
        failed = true;
      } else {
        op.emitRemark() << "left as is, not a tgemm.matmul: " << why;
      }
    }
    if (!failed && requireKernel && !candidates.empty()) {
      bool anyKernel = false;
      getOperation()->walk([&](MatmulOp) { anyKernel = true; });
      if (!anyKernel) {
        candidates.front().emitError()
            << "no kernel: none of the module's " << candidates.size()
            << " contraction" << (candidates.size() == 1 ? "" : "s")
            << " could be imported (the remarks above say why); "
               "allow-no-kernel accepts that";
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }

  /// Replaces `op` with a tgemm.matmul; returns why not on failure (and
  /// leaves `op` unchanged).
  std::string import(linalg::LinalgOp op) {
    // Buffers or values (linalg's verifier rules out a mix): on tensors the
    // product is tgemm.matmul's tensor form, bufferized later.
    bool tensors = op.hasPureTensorSemantics();
    std::string why;
    FailureOr<MatmulDims> found = matmulDims(op, why);
    if (failed(found))
      return why;
    MatmulDims dims = *found;
    // Unsigned bytes: named ops say it with `cast` (absent when it is the
    // default, cast_signed), a generic op's body with arith.extui of its
    // inputs. Both inputs alike: no instruction mixes signedness here.
    bool unsignedA = false, unsignedB = false;
    if (auto cast = op->getAttrOfType<linalg::TypeFnAttr>("cast"))
      unsignedA = unsignedB = cast.getValue() == linalg::TypeFn::cast_unsigned;
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
      auto extendedUnsigned = [&](unsigned input) {
        return llvm::any_of(generic.getBody()->getArgument(input).getUsers(),
                            [](Operation *user) { return isa<arith::ExtUIOp>(user); });
      };
      unsignedA = extendedUnsigned(0);
      unsignedB = extendedUnsigned(1);
    }
    if (unsignedA != unsignedB)
      return "it extends one input as signed and the other as unsigned; "
             "tgemm multiplies two signed or two unsigned 8-bit operands";
    bool unsignedBytes = unsignedA;
    if (unsignedBytes)
      for (Value input : op.getDpsInputs())
        if (!getElementTypeOrSelf(input.getType()).isSignlessInteger(8))
          return "it extends its inputs as unsigned, which tgemm reads "
                 "only from signless i8 operands (unsigned bytes)";

    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    std::optional<Layout> layoutA = layoutOf(maps[0], dims, dims.m, dims.k);
    std::optional<Layout> layoutB = layoutOf(maps[1], dims, dims.k, dims.n);
    MatmulDims dimsC = dims;
    if (dims.reduceBatch)
      dimsC.batch = std::nullopt;
    std::optional<Layout> layoutC = layoutOf(maps[2], dimsC, dims.m, dims.n);
    if (!layoutA || !layoutB || layoutC != Layout::Row)
      return "its indexing maps are not a (batched) matrix product with "
             "A (m, k) or (k, m), B (k, n) or (n, k) and C (m, n)";

    Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1],
          c = op.getDpsInits()[0];
    Type elementA = getElementTypeOrSelf(a.getType());
    if (elementA.isF32() && !tf32)
      return "f32 operands would be computed as TF32 (10-bit mantissa); "
             "import them with tf32=true";
    Type acc = accumulatorFor(getElementTypeOrSelf(c.getType()));
    // A sum over a batch: C is read by every product (a zero fill stays).
    if (dims.reduceBatch)
      return importBatchReduce(op, a, b, c, *layoutA, *layoutB, acc,
                               unsignedBytes, tensors);

    // A zero fill of C makes beta 0. On memrefs the fill is the op just
    // before (nothing reads C between them); on tensors it is the init's
    // definition, and the product's init becomes the fill's own.
    Operation *fill = tensors ? c.getDefiningOp() : op->getPrevNode();
    bool zeroFill = false;
    if (!tensors) {
      zeroFill = isZeroFillOf(fill, c);
    } else if (auto fillOp = dyn_cast_or_null<linalg::FillOp>(fill)) {
      zeroFill = fillOp.hasPureTensorSemantics() &&
                 isZeroFillOf(fillOp, fillOp.getDpsInits()[0]);
      if (zeroFill)
        c = fillOp.getDpsInits()[0];
    }
    OpBuilder builder(op);
    MLIRContext *ctx = op.getContext();
    auto matmul = MatmulOp::create(
        builder, op.getLoc(), tensors ? c.getType() : Type(), a, b, c,
        LayoutAttr::get(ctx, *layoutA),
        LayoutAttr::get(ctx, *layoutB), TypeAttr::get(acc),
        /*alpha=*/nullptr, builder.getF64FloatAttr(zeroFill ? 0.0 : 1.0),
        /*config=*/nullptr, /*schedule=*/nullptr,
        /*epilogue_operands=*/ValueRange(), /*epilogue=*/nullptr,
        unsignedBytes ? builder.getUnitAttr() : UnitAttr());

    // The verifier knows which element types, accumulators and strides an
    // instruction takes; its first message is the reason not to import.
    if (std::string message = verifyMessage(matmul); !message.empty()) {
      matmul.erase();
      return message;
    }
    if (tensors) {
      op->replaceAllUsesWith(matmul->getResults());
      op.erase();
      if (zeroFill && fill->use_empty())
        fill->erase();
      return "";
    }
    if (zeroFill)
      fill->erase();
    op.erase();
    // Epilogues are fused on buffers (the pipeline bufferizes first).
    fuseElementwiseEpilogue(matmul);
    return "";
  }

  /// C += sum over b of A[b] B[b] as a loop over the batch of GEMMs that
  /// accumulate into C (beta 1), in order; on tensors C is the loop's
  /// iteration argument. A zero fill before stays: every launch reads C.
  std::string importBatchReduce(linalg::LinalgOp op, Value a, Value b, Value c,
                                Layout layoutA, Layout layoutB, Type acc,
                                bool unsignedBytes, bool tensors) {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    OpBuilder builder(op);
    // Matrix `i` of a rank-3 operand: a rank-2 view (memrefs) or slice.
    auto matrix = [&](OpBuilder &mb, Value operand, Value i) -> Value {
      SmallVector<OpFoldResult> offsets = {i, mb.getIndexAttr(0),
                                           mb.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {mb.getIndexAttr(1)};
      SmallVector<OpFoldResult> strides(3, mb.getIndexAttr(1));
      if (tensors) {
        auto type = cast<RankedTensorType>(operand.getType());
        for (int d = 1; d < 3; ++d)
          sizes.push_back(tensor::getMixedSize(mb, loc, operand, d));
        auto sliceType = RankedTensorType::get(type.getShape().drop_front(),
                                               type.getElementType());
        return tensor::ExtractSliceOp::create(mb, loc, sliceType, operand,
                                              offsets, sizes, strides);
      }
      auto type = cast<MemRefType>(operand.getType());
      for (int d = 1; d < 3; ++d)
        sizes.push_back(memref::getMixedSize(mb, loc, operand, d));
      auto viewType = memref::SubViewOp::inferRankReducedResultType(
          type.getShape().drop_front(), type, offsets, sizes, strides);
      return memref::SubViewOp::create(mb, loc, cast<MemRefType>(viewType),
                                       operand, offsets, sizes, strides);
    };
    auto makeMatmul = [&](OpBuilder &mb, Value ai, Value bi, Value ci) {
      return MatmulOp::create(
          mb, loc, tensors ? ci.getType() : Type(), ai, bi, ci,
          LayoutAttr::get(ctx, layoutA), LayoutAttr::get(ctx, layoutB),
          TypeAttr::get(acc), /*alpha=*/nullptr, mb.getF64FloatAttr(1.0),
          /*config=*/nullptr, /*schedule=*/nullptr,
          /*epilogue_operands=*/ValueRange(), /*epilogue=*/nullptr,
          unsignedBytes ? mb.getUnitAttr() : UnitAttr());
    };
    Value lower = arith::ConstantIndexOp::create(builder, loc, 0);
    Value step = arith::ConstantIndexOp::create(builder, loc, 1);
    Value upper = tensors
                      ? Value(tensor::DimOp::create(builder, loc, a, lower))
                      : Value(memref::DimOp::create(builder, loc, a, lower));
    MatmulOp matmul;
    auto loop = scf::ForOp::create(
        builder, loc, lower, upper, step,
        tensors ? ValueRange{c} : ValueRange{},
        [&](OpBuilder &lb, Location, Value i, ValueRange carried) {
          Value ai = matrix(lb, a, i);
          Value bi = matrix(lb, b, i);
          matmul = makeMatmul(lb, ai, bi, tensors ? carried[0] : c);
          scf::YieldOp::create(lb, loc, matmul->getResults());
        });
    // The verifier's first message is the reason not to import.
    if (std::string message = verifyMessage(matmul); !message.empty()) {
      loop.erase();
      for (Value v : {upper, step, lower})
        v.getDefiningOp()->erase();
      return message;
    }
    if (tensors)
      op->replaceAllUsesWith(loop->getResults());
    op.erase();
    return "";
  }
};

} // namespace
