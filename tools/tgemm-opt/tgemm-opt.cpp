//===- tgemm-opt.cpp - mlir-opt with tgemm registered ---------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "tgemm/InitTGemm.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tgemm::registerAllTGemmPasses();

  mlir::DialectRegistry registry;
  mlir::tgemm::registerAllTGemmDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tgemm optimizer driver\n", registry));
}
