//===- tgemm-opt.cpp - mlir-opt with tgemm registered ---------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "tgemm/InitTGemm.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tgemm::registerAllTGemmPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates through LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::tgemm::registerTGemmDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tgemm optimizer driver\n", registry));
}
