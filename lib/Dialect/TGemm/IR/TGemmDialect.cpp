//===- TGemmDialect.cpp - tgemm dialect -----------------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgemm;

#include "tgemm/Dialect/TGemm/IR/TGemmDialect.cpp.inc"
#include "tgemm/Dialect/TGemm/IR/TGemmEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmTypes.cpp.inc"

void TGemmDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tgemm/Dialect/TGemm/IR/TGemmAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tgemm/Dialect/TGemm/IR/TGemmTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tgemm/Dialect/TGemm/IR/TGemmOps.cpp.inc"
      >();
}
