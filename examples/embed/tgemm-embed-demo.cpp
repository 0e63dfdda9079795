//===- tgemm-embed-demo.cpp - tgemm used as a library ---------------------===//
//
// An out-of-tree tool built against an installed tgemm (find_package(TGemm)):
// reads an MLIR file (linalg.matmul or tgemm.matmul on memrefs), runs the
// tgemm pipeline built through the C++ API, and writes the PTX of every
// kernel module and the launch manifest:
//
//   tgemm-embed-demo matmul.mlir -o out/ [--lowering=wmma] [--chip=sm_80]
//     -> out/<gpu.module name>.ptx ..., out/manifest.json
//
//===----------------------------------------------------------------------===//

#include "tgemm/InitTGemm.h"
#include "tgemm/Pipelines/Pipelines.h"
#include "tgemm/Target/Artifacts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace cl = llvm::cl;

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<input .mlir>"));
static cl::opt<std::string> outputDir("o", cl::Required,
                                      cl::desc("Directory to write into"),
                                      cl::value_desc("dir"));
static cl::opt<std::string, false, mlir::tgemm::FamilyOptionParser>
    lowering("lowering", cl::desc("Instruction family: wmma or ptx"),
             cl::init("ptx"));
static cl::opt<std::string, false, mlir::tgemm::ChipOptionParser>
    chip("chip", cl::desc("sm_80, sm_86, sm_89, sm_90, sm_90a"),
         cl::init("sm_90"));

/// Writes `text` to `dir`/`name`; reports a failure on stderr.
static bool writeFile(llvm::StringRef name, llvm::StringRef text) {
  llvm::SmallString<128> path(outputDir);
  llvm::sys::path::append(path, name);
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = mlir::openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "tgemm-embed-demo: " << error << "\n";
    return false;
  }
  file->os() << text;
  file->keep();
  llvm::outs() << path << "\n";
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "tgemm embedded: MLIR to PTX\n");

  mlir::DialectRegistry registry;
  mlir::tgemm::registerAllTGemmDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "tgemm-embed-demo: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  // Every diagnostic from here on is printed with its file, line and column.
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  mlir::tgemm::PipelineOptions options;
  options.fromLinalg = true; // linalg.matmul -> tgemm.matmul first
  options.lowering = lowering;
  options.chip = chip;
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  mlir::tgemm::buildPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;

  auto compiled = mlir::tgemm::collectCompiledModules(*module);
  if (mlir::failed(compiled))
    return 1;
  mlir::FailureOr<std::string> manifest =
      mlir::tgemm::buildManifestJson(*module, *compiled);
  if (mlir::failed(manifest))
    return 1;

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "tgemm-embed-demo: cannot create " << outputDir << ": "
                 << ec.message() << "\n";
    return 1;
  }
  for (const mlir::tgemm::CompiledModule &kernel : *compiled)
    if (!writeFile(kernel.name + ".ptx", kernel.ptx))
      return 1;
  return writeFile("manifest.json", *manifest) ? 0 : 1;
}
