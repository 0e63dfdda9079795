//===- Artifacts.cpp - PTX, cubin and manifest of a compiled module -------===//

#include "tgemm/Target/Artifacts.h"

#include "tgemm/Transforms/KernelManifest.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tgemm;

FailureOr<SmallVector<CompiledModule>>
mlir::tgemm::collectCompiledModules(ModuleOp module) {
  SmallVector<CompiledModule> result;
  WalkResult walk = module.walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(a);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target)
        continue;
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        emitError(binary.getLoc())
            << "holds a " << stringifyCompilationTarget(object.getFormat())
            << " object; tgemm reads kernels as PTX "
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

FailureOr<std::string>
mlir::tgemm::buildManifestJson(ModuleOp module,
                               ArrayRef<CompiledModule> modules) {
  ::tgemm::runtime::Manifest manifest;
  WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
    if (!launch->hasAttr(kManifestAttrName))
      return WalkResult::advance();
    FailureOr<::tgemm::runtime::KernelManifest> kernel = readManifest(launch);
    if (failed(kernel))
      return WalkResult::interrupt();
    if (kernel->lowering.empty()) {
      mlir::emitError(launch.getLoc())
          << "kernel '" << kernel->name
          << "' is not lowered yet (its manifest has no lowering): run "
             "--tgemm-pipeline, or a lowering and gpu-module-to-binary, first";
      return WalkResult::interrupt();
    }
    StringRef kernelModule = launch.getKernelModuleName().getValue();
    const CompiledModule *compiled = llvm::find_if(
        modules, [&](const CompiledModule &m) { return m.name == kernelModule; });
    if (compiled == modules.end()) {
      mlir::emitError(launch.getLoc()) << "kernel module '" << kernelModule
                         << "' is not compiled (no gpu.binary with NVVM "
                            "PTX), so the manifest has no chip for it";
      return WalkResult::interrupt();
    }
    kernel->chip = compiled->chip;
    manifest.kernels.push_back(std::move(*kernel));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (manifest.kernels.empty()) {
    emitError(module.getLoc())
        << "no tgemm kernel launch (gpu.launch_func with " << kManifestAttrName
        << ") in the input";
    return failure();
  }
  // What the runtime reads back is the final check: a manifest that its
  // validator would refuse is never written.
  std::string text = ::tgemm::runtime::writeManifest(manifest), error;
  ::tgemm::runtime::Manifest reread;
  if (!::tgemm::runtime::tryParseManifest(text, "manifest", reread, error)) {
    emitError(module.getLoc())
        << "the launch manifest does not pass the runtime's validator: "
        << error;
    return failure();
  }
  return text;
}

std::string mlir::tgemm::findPtxas(StringRef explicitPath) {
  if (!explicitPath.empty())
    return explicitPath.str();
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

FailureOr<std::string>
mlir::tgemm::assembleCubin(Location loc, const CompiledModule &compiled,
                           StringRef ptxas) {
  // ptxas reads and writes files only.
  SmallString<128> ptxFile, cubinFile, logFile;
  if (llvm::sys::fs::createTemporaryFile("tgemm", "ptx", ptxFile) ||
      llvm::sys::fs::createTemporaryFile("tgemm", "cubin", cubinFile) ||
      llvm::sys::fs::createTemporaryFile("tgemm", "log", logFile)) {
    emitError(loc) << "cannot create temporary files for ptxas";
    return failure();
  }
  llvm::FileRemover removePtx(ptxFile), removeCubin(cubinFile),
      removeLog(logFile);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec) {
      emitError(loc) << "cannot write " << ptxFile << ": " << ec.message();
      return failure();
    }
    os << compiled.ptx;
  }
  std::string arch = "-arch=" + compiled.chip;
  SmallVector<StringRef> args{ptxas, arch, ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &error);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(logFile);
    std::string details = log ? (*log)->getBuffer().trim().str() : "";
    emitError(loc) << "ptxas failed on module '" << compiled.name << "' ("
                   << (error.empty() ? "exit " + std::to_string(rc) : error)
                   << ")" << (details.empty() ? "" : ":\n" + details);
    return failure();
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin) {
    emitError(loc) << "cannot read the cubin ptxas wrote for module '"
                   << compiled.name << "': " << cubin.getError().message();
    return failure();
  }
  return (*cubin)->getBuffer().str();
}
