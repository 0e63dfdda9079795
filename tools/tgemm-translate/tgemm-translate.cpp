//===- tgemm-translate.cpp - Compiled module to PTX, cubin, manifest ------===//
//
// Reads a module that went through a tgemm pipeline (its kernels are
// `gpu.binary` ops holding PTX, its launches carry `tgemm.manifest`) and
// writes what a runtime needs:
//
//   tgemm-translate --emit=ptx      [--module NAME] in.mlir   PTX text
//   tgemm-translate --emit=cubin    [--module NAME] in.mlir -o k.cubin
//   tgemm-translate --emit=manifest in.mlir                   JSON
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "tgemm/InitTGemm.h"
#include "tgemm/Target/Artifacts.h"
#include "tgemm/Version.h"

#include "llvm/Config/llvm-config.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using mlir::tgemm::CompiledModule;
namespace cl = llvm::cl;

namespace {
enum class Emit { Ptx, Cubin, Manifest };

// The tool's own options. libLLVM registers hundreds more (every target's
// code generator's, none of which this tool reads); main hides them from
// --help and --help-hidden. --help sorts categories by name, so this one
// comes before "Generic Options".
cl::OptionCategory toolCategory("Emit options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input file>"),
                                   cl::init("-"), cl::cat(toolCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("filename"),
                                    cl::init("-"), cl::cat(toolCategory));
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::Required, cl::cat(toolCategory),
    cl::values(clEnumValN(Emit::Ptx, "ptx", "the PTX of one kernel module"),
               clEnumValN(Emit::Cubin, "cubin",
                          "a cubin assembled by ptxas (needs -o)"),
               clEnumValN(Emit::Manifest, "manifest",
                          "the launch manifest of every kernel, as JSON")));
cl::opt<std::string> moduleName(
    "module", cl::desc("The gpu.module to emit, when there are several"),
    cl::init(""), cl::cat(toolCategory));
cl::opt<std::string> ptxasPath(
    "ptxas", cl::desc("ptxas to assemble cubins with (default: CUDA_HOME, "
                      "/usr/local/cuda, then PATH)"),
    cl::init(""), cl::cat(toolCategory));

FailureOr<CompiledModule> selectModule(ModuleOp module,
                                       ArrayRef<CompiledModule> modules) {
  if (modules.empty()) {
    emitError(module.getLoc()) << "no compiled kernel (gpu.binary with PTX) in the "
                          "input; run a tgemm pipeline first, e.g. "
                          "--tgemm-pipeline=\"lowering=wmma chip=sm_90\"";
    return failure();
  }
  std::string names;
  for (const CompiledModule &m : modules)
    names += (names.empty() ? "" : ", ") + m.name;
  if (moduleName.empty()) {
    if (modules.size() == 1)
      return modules.front();
    emitError(module.getLoc()) << "the input has " << modules.size()
                       << " kernel modules (" << names
                       << "); choose one with --module";
    return failure();
  }
  for (const CompiledModule &m : modules)
    if (m.name == moduleName)
      return m;
  emitError(module.getLoc()) << "no kernel module '" << moduleName
                     << "'; the input has: " << names;
  return failure();
}

LogicalResult emitCubin(ModuleOp module, const CompiledModule &compiled) {
  if (outputFilename == "-") {
    emitError(module.getLoc())
        << "--emit=cubin writes a binary file: give it with -o";
    return failure();
  }
  std::string ptxas = mlir::tgemm::findPtxas(ptxasPath);
  if (ptxas.empty()) {
    emitError(module.getLoc()) << "ptxas not found (looked in CUDA_HOME, "
                                  "/usr/local/cuda/bin and PATH); pass --ptxas";
    return failure();
  }
  FailureOr<std::string> cubin =
      mlir::tgemm::assembleCubin(module.getLoc(), compiled, ptxas);
  if (failed(cubin))
    return failure();
  std::string errorMessage;
  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    emitError(module.getLoc()) << errorMessage;
    return failure();
  }
  output->os() << *cubin;
  output->keep();
  return success();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tgemm-translate (tgemm) " TGEMM_VERSION_STRING "\n"
       << "  built with LLVM/MLIR " LLVM_VERSION_STRING "\n";
  });
  cl::ParseCommandLineOptions(argc, argv,
                              "tgemm-translate: PTX, cubin and launch "
                              "manifest from a compiled tgemm module\n");
  DialectRegistry registry;
  mlir::tgemm::registerAllTGemmDialects(registry);
  MLIRContext context(registry);

  std::string errorMessage;
  auto input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "tgemm-translate: " << errorMessage << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  auto binaries = mlir::tgemm::collectCompiledModules(*module);
  if (failed(binaries))
    return 1;
  if (emit == Emit::Cubin) {
    auto compiled = selectModule(*module, *binaries);
    return failed(compiled) || failed(emitCubin(*module, *compiled)) ? 1 : 0;
  }

  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "tgemm-translate: " << errorMessage << "\n";
    return 1;
  }
  if (emit == Emit::Ptx) {
    auto compiled = selectModule(*module, *binaries);
    if (failed(compiled))
      return 1;
    output->os() << compiled->ptx;
  } else {
    FailureOr<std::string> manifest =
        mlir::tgemm::buildManifestJson(*module, *binaries);
    if (failed(manifest))
      return 1;
    output->os() << *manifest;
  }
  output->keep();
  return 0;
}
