//===- tgemm-plugin.cpp - tgemm as a plugin for the stock mlir-opt --------===//
//
//   mlir-opt --load-dialect-plugin=build/lib/TGemmPlugin.so \
//            --load-pass-plugin=build/lib/TGemmPlugin.so ...
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

#include "tgemm/InitTGemm.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TGemm", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::tgemm::registerTGemmDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TGemm", LLVM_VERSION_STRING,
          []() { mlir::tgemm::registerAllTGemmPasses(); }};
}
