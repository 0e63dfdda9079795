//===- TensorMapsByValue.cpp - TMA descriptors as kernel parameters -------===//
//
// The tensor-map arguments of a lowered kernel become `__grid_constant__`
// parameters of 128 bytes (see the pass's description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tgemm/Conversion/Passes.h"
#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tgemm {
#define GEN_PASS_DEF_TGEMMTENSORMAPSBYVALUE
#include "tgemm/Conversion/Passes.h.inc"
} // namespace mlir::tgemm

using namespace mlir;

namespace {

/// Bytes and alignment of a CUtensorMap (CUDA driver API, cuda.h:
/// `CU_TENSOR_MAP_NUM_QWORDS` 16, aligned to 64 bytes).
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlignment = 64;

struct TensorMapsByValuePass
    : public mlir::tgemm::impl::TGemmTensorMapsByValueBase<
          TensorMapsByValuePass> {
  void runOnOperation() override {
    StringRef countName = mlir::tgemm::kTensorMapParamsAttrName;
    WalkResult result = getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto count = func->getAttrOfType<IntegerAttr>(countName);
      if (!count)
        return WalkResult::advance();
      func->removeAttr(countName);
      // The maps, then the i32 that says whether every map was made.
      int64_t maps = count.getInt();
      int64_t args = func.getNumArguments();
      if (maps < 1 || maps + 1 > args) {
        func.emitOpError() << "has " << args << " arguments, too few for "
                           << maps << " tensor maps and their flag";
        return WalkResult::interrupt();
      }
      MLIRContext *ctx = func.getContext();
      Builder b(ctx);
      Type byval = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                            kTensorMapBytes);
      for (int64_t i = args - 1 - maps; i < args - 1; ++i) {
        if (!isa<LLVM::LLVMPointerType>(func.getArgument(i).getType())) {
          func.emitOpError() << "argument " << i
                             << " should be a tensor map (!llvm.ptr), got "
                             << func.getArgument(i).getType();
          return WalkResult::interrupt();
        }
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(byval));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlignment));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
