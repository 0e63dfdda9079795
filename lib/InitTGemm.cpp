//===- InitTGemm.cpp - Register tgemm with an MLIR context ----------------===//

#include "tgemm/InitTGemm.h"

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

void mlir::tgemm::registerTGemmDialects(DialectRegistry &registry) {
  registry.insert<TGemmDialect>();
}
