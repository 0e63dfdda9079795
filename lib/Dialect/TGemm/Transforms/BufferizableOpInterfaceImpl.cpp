//===- BufferizableOpInterfaceImpl.cpp - tgemm.matmul on tensors ----------===//
//
// tgemm.matmul on tensors is in destination style: C is the init, tied to
// the result. Bufferization reads A, B and the epilogue operands, reads C
// only when beta is not 0, writes C's buffer in place, and rebuilds the op
// on the buffers with every attribute kept (epilogue operands that are
// views are copied into packed buffers, the form the epilogue reads).
//
//===----------------------------------------------------------------------===//

#include "tgemm/Dialect/TGemm/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "tgemm/Dialect/TGemm/IR/TGemm.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::tgemm;

namespace {

struct MatmulOpInterface
    : public DstBufferizableOpInterfaceExternalModel<MatmulOpInterface,
                                                     MatmulOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    auto matmul = cast<MatmulOp>(op);
    // With beta 0 the kernel never loads C: an empty init needs no copy.
    if (&operand == &matmul.getCMutable())
      return matmul.getBetaValue() != 0.0;
    return true;
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto matmul = cast<MatmulOp>(op);
    if (!matmul.hasTensorForm())
      return success();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    // Every operand is a tensor (the verifier says so): its buffer, in
    // operand order, so the attributes (segment sizes included) carry over.
    SmallVector<Value> buffers;
    // Operands: A, B, C, then the epilogue's (ODS operand group 3).
    unsigned firstEpilogue = matmul.getODSOperandIndexAndLength(3).first;
    for (OpOperand &operand : op->getOpOperands()) {
      FailureOr<Value> buffer =
          getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      // A, B and C may be views (the kernel takes any row stride); an
      // epilogue operand is read packed, so a view of one (a function
      // argument under the default boundary layouts) is copied into a
      // packed buffer first.
      auto type = cast<MemRefType>(buffer->getType());
      if (operand.getOperandNumber() >= firstEpilogue &&
          !type.getLayout().isIdentity()) {
        Location loc = op->getLoc();
        auto packed = MemRefType::get(type.getShape(), type.getElementType(),
                                      MemRefLayoutAttrInterface(),
                                      type.getMemorySpace());
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            sizes.push_back(memref::DimOp::create(rewriter, loc, *buffer, d));
        FailureOr<Value> copy =
            options.createAlloc(rewriter, loc, packed, sizes);
        if (failed(copy) ||
            failed(options.createMemCpy(rewriter, loc, *buffer, *copy)))
          return failure();
        buffer = copy;
      }
      buffers.push_back(*buffer);
    }
    Value c = buffers[matmul.getCMutable().getOperandNumber()];
    OperationState bufferized(op->getLoc(), op->getName(), buffers,
                              /*types=*/TypeRange{}, op->getAttrs());
    rewriter.create(bufferized);
    replaceOpWithBufferizedValues(rewriter, op, c);
    return success();
  }
};

} // namespace

void mlir::tgemm::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TGemmDialect *) {
    MatmulOp::attachInterface<MatmulOpInterface>(*ctx);
  });
}
