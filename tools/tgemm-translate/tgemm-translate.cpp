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

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "tgemm/InitTGemm.h"
#include "tgemm/Transforms/KernelManifest.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { Ptx, Cubin, Manifest };

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input file>"),
                                   cl::init("-"));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("filename"),
                                    cl::init("-"));
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::Required,
    cl::values(clEnumValN(Emit::Ptx, "ptx", "the PTX of one kernel module"),
               clEnumValN(Emit::Cubin, "cubin",
                          "a cubin assembled by ptxas (needs -o)"),
               clEnumValN(Emit::Manifest, "manifest",
                          "the launch manifest of every kernel, as JSON")));
cl::opt<std::string> moduleName(
    "module", cl::desc("The gpu.module to emit, when there are several"),
    cl::init(""));
cl::opt<std::string> ptxasPath(
    "ptxas", cl::desc("ptxas to assemble cubins with (default: CUDA_HOME, "
                      "/usr/local/cuda, then PATH)"),
    cl::init(""));

/// The PTX of one compiled kernel module and the chip it targets.
struct CompiledModule {
  std::string name;
  std::string chip;
  StringRef ptx;
};

llvm::json::Value toJson(Attribute attr) {
  if (auto s = dyn_cast<StringAttr>(attr))
    return s.getValue().str();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array out;
    for (Attribute e : a)
      out.push_back(toJson(e));
    return out;
  }
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object out;
    for (NamedAttribute e : d)
      out[e.getName().getValue()] = toJson(e.getValue());
    return out;
  }
  return nullptr; // UnitAttr: an unknown (dynamic) size
}

FailureOr<SmallVector<CompiledModule>> collectBinaries(ModuleOp module) {
  SmallVector<CompiledModule> result;
  WalkResult walk = module.walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(a);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target)
        continue;
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        emitError(binary.getLoc()) << "holds a "
                           << stringifyCompilationTarget(object.getFormat())
                           << " object; tgemm-translate reads PTX "
                              "(gpu-module-to-binary format=isa)";
        return WalkResult::interrupt();
      }
      result.push_back({binary.getName().str(), target.getChip().str(),
                        object.getObject().getValue()});
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return result;
}

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

std::string findPtxas() {
  if (!ptxasPath.empty())
    return ptxasPath;
  SmallVector<std::string> candidates;
  if (const char *home = std::getenv("CUDA_HOME"))
    candidates.push_back((Twine(home) + "/bin/ptxas").str());
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &c : candidates)
    if (llvm::sys::fs::can_execute(c))
      return c;
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

LogicalResult emitCubin(ModuleOp module, const CompiledModule &compiled) {
  if (outputFilename == "-") {
    emitError(module.getLoc()) << "--emit=cubin writes a binary file: give it with -o";
    return failure();
  }
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    emitError(module.getLoc()) << "ptxas not found (looked in CUDA_HOME, "
                          "/usr/local/cuda/bin and PATH); pass --ptxas";
    return failure();
  }
  SmallString<128> ptxFile, logFile;
  if (llvm::sys::fs::createTemporaryFile("tgemm", "ptx", ptxFile) ||
      llvm::sys::fs::createTemporaryFile("tgemm", "log", logFile)) {
    emitError(module.getLoc()) << "cannot create temporary files for ptxas";
    return failure();
  }
  llvm::FileRemover removePtx(ptxFile), removeLog(logFile);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec) {
      emitError(module.getLoc()) << "cannot write " << ptxFile << ": " << ec.message();
      return failure();
    }
    os << compiled.ptx;
  }
  std::string arch = "-arch=" + compiled.chip;
  SmallVector<StringRef> args{ptxas, arch, ptxFile, "-o", outputFilename};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0,
                                     0, &error);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(logFile);
    std::string details = log ? (*log)->getBuffer().trim().str() : "";
    emitError(module.getLoc())
        << "ptxas failed on module '" << compiled.name << "' ("
        << (error.empty() ? "exit " + std::to_string(rc) : error) << ")"
        << (details.empty() ? "" : ":\n" + details);
    return failure();
  }
  return success();
}

LogicalResult emitManifest(ModuleOp module, ArrayRef<CompiledModule> binaries,
                           raw_ostream &os) {
  llvm::json::Array kernels;
  module.walk([&](gpu::LaunchFuncOp launch) {
    auto manifest =
        launch->getAttrOfType<DictionaryAttr>(tgemm::kManifestAttrName);
    if (!manifest)
      return;
    llvm::json::Object kernel = std::move(*toJson(manifest).getAsObject());
    kernel["chip"] = nullptr;
    for (const CompiledModule &m : binaries)
      if (m.name == launch.getKernelModuleName().getValue())
        kernel["chip"] = m.chip;
    kernels.push_back(std::move(kernel));
  });
  if (kernels.empty()) {
    emitError(module.getLoc()) << "no tgemm kernel launch (gpu.launch_func with "
                       << tgemm::kManifestAttrName << ") in the input";
    return failure();
  }
  llvm::json::Object root{{"version", 1}, {"kernels", std::move(kernels)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return success();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "tgemm-translate: PTX, cubin and launch "
                              "manifest from a compiled tgemm module\n");
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  tgemm::registerTGemmDialects(registry);
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

  auto binaries = collectBinaries(*module);
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
  } else if (failed(emitManifest(*module, *binaries, output->os()))) {
    return 1;
  }
  output->keep();
  return 0;
}
