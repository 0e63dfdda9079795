//===- InitTGemm.cpp - Register tgemm with an MLIR context ----------------===//

#include "tgemm/InitTGemm.h"

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/Dialect/TGemm/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::tgemm::registerTGemmDialects(DialectRegistry &registry) {
  registry.insert<TGemmDialect>();
  // tgemm.matmul on tensors bufferizes through one-shot-bufferize.
  registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::tgemm::registerAllTGemmDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates through LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  registerTGemmDialects(registry);
}
