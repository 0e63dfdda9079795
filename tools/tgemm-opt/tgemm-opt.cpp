//===- tgemm-opt.cpp - mlir-opt with tgemm registered ---------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "tgemm/InitTGemm.h"
#include "tgemm/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tgemm-opt (tgemm) " TGEMM_VERSION_STRING "\n"
       << "  built with LLVM/MLIR " LLVM_VERSION_STRING "\n";
  });
  mlir::registerAllPasses();
  mlir::tgemm::registerAllTGemmPasses();

  mlir::DialectRegistry registry;
  mlir::tgemm::registerAllTGemmDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tgemm optimizer driver\n", registry));
}
