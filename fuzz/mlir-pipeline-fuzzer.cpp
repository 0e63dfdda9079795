//===- mlir-pipeline-fuzzer.cpp - libFuzzer harness for the pipeline ------===//
//
// Input bytes are MLIR source. The harness does what
//
//   tgemm-opt in.mlir --tgemm-pipeline="..." | tgemm-translate --emit=ptx
//
// does, in process: parse with every dialect tgemm-opt registers, verify,
// and when the module holds a tgemm.matmul, run tgemm::buildPipeline with
// options picked from a hash of the input, then read the PTX out of the
// gpu.binary ops. Diagnostics are the expected answer to bad input and are
// swallowed.
//
// Findings are crashes, assertion failures, sanitizer reports and hangs,
// plus these consistency checks (each aborts with a message):
//   - a pass that succeeded left IR that does not verify;
//   - the pipeline succeeded but a kernel it compiled has no PTX;
//   - the launch manifest of the compiled module (what
//     `tgemm-translate --emit=manifest` writes) is refused by the runtime's
//     manifest reader, or a static problem size breaks its requirements.
//
// Set TGEMM_FUZZ_VERBOSE=1 to print the options and diagnostics of each
// input, e.g. when replaying one: `mlir-pipeline-fuzzer crash-<sha>`.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/InitTGemm.h"
#include "tgemm/Pipelines/Pipelines.h"
#include "tgemm/Target/Artifacts.h"
#include "tgemm/Transforms/KernelManifest.h"
#include "tgemm/Transforms/Passes.h"

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <string>

using namespace mlir;
namespace rt = ::tgemm::runtime;

namespace {

/// Larger inputs only slow the search down: every example is under 1 KiB.
constexpr size_t kMaxInputBytes = 4096;
/// Diagnostics kept for a finding's report.
constexpr size_t kMaxDiagnosticBytes = 8192;

/// Huge tiles compile, but the NVPTX back end's time grows faster than the
/// unrolled code: a 512x96 warp tile takes 8 s (20 s with the sanitizers'
/// allocator), a 64x48x512 block with register-staged copies 15 s, and an
/// input that is merely slow would read as a hang. The bounds are twice to
/// three times what a large realistic tile needs (128x256x64 f16 over 2x2
/// warps: 256 accumulators and 24 copy chunks per thread); a module beyond
/// them is parsed and verified but not compiled.
constexpr int64_t kMaxAccumulatorsPerThread = 512;
constexpr int64_t kMaxCopyChunksPerThread = 64; // 16 bytes each, per k-tile
constexpr int64_t kMaxWarpMacsPerModule = int64_t(1) << 21;

DialectRegistry *registry;
bool verbose;

/// FNV-1a: picks the pipeline options deterministically per input.
uint64_t hashBytes(const uint8_t *data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

/// A choice among `n`, taken off `bits`.
unsigned pick(uint64_t &bits, unsigned n) {
  unsigned value = bits % n;
  bits /= n;
  return value;
}

/// Mostly the defaults and the values the benchmarks use; sometimes values
/// the options accept but a lowering may refuse, since the options are a
/// command line too.
void chooseOptions(uint64_t bits, mlir::tgemm::PipelineOptions &options) {
  static const char *lowerings[] = {"wmma", "ptx", "ptx", "wgmma"};
  options.lowering = lowerings[pick(bits, 4)];
  static const char *chips[] = {
      "sm_80", "sm_86", "sm_89", "sm_90", "sm_90", "sm_90", "sm_90a", "sm_90a",
      "sm_80", "sm_86", "sm_89", "sm_90", "sm_90", "sm_90", "sm_90a", "sm_75"};
  options.chip = chips[pick(bits, 16)];
  static const int64_t stages[] = {0, 0, 0, 0, 1, 2, 4, 9};
  options.stages = stages[pick(bits, 8)];
  options.asyncCopy = pick(bits, 4) != 0;
  // ldmatrix and the swizzle are ptx knobs (the wmma lowering rejects
  // them); mostly leave them to the selected schedule.
  bool ldmatrix = pick(bits, 4) != 0;
  static const char *swizzles[] = {"xor", "xor", "pad", "none"};
  const char *swizzle = swizzles[pick(bits, 4)];
  if (options.lowering.getValue() == "ptx" && pick(bits, 2)) {
    options.ldmatrix = ldmatrix;
    options.swizzle = swizzle;
  }
  static const int64_t paddings[] = {16, 16, 16, 16, 16, 16, 16, 16,
                                     16, 16, 16, 0,  32, 48, 8,  -16};
  options.padding = paddings[pick(bits, 16)];
  // The NVPTX back end dominates the run time; -O0 keeps it short and
  // takes other paths through it.
  options.optLevel = pick(bits, 4) ? 3 : 0;
  // The k-loop's shapes: the default, prefetched fragments for any block,
  // and interleaved copies.
  static const int64_t prefetchWarps[] = {8, 8, 1, 0};
  options.prefetchMinWarps = prefetchWarps[pick(bits, 4)];
  options.interleaveCopies = pick(bits, 4) == 0;
  // The grid: sometimes persistent; sometimes clusters (wgmma with TMA,
  // refused elsewhere; a cluster of 3 by the option's check).
  if (pick(bits, 4) == 0)
    options.persistent = true;
  static const int64_t clusters[] = {1, 1, 1, 1, 1, 2, 2, 3};
  if (int64_t cluster = clusters[pick(bits, 8)]; cluster != 1)
    options.cluster = cluster;
  // The TMA store: a wgmma knob with TMA (refused elsewhere, and where a
  // warp tile's row of C is not whole 128-byte lines).
  if (pick(bits, 4) == 0)
    options.tmaStore = true;
}

/// Collects diagnostics, bounded, for a finding's report.
struct Report {
  std::string options;
  std::string diagnostics;

  void add(Diagnostic &diag) {
    if (diagnostics.size() >= kMaxDiagnosticBytes)
      return;
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag << "\n";
    for (Diagnostic &note : diag.getNotes())
      os << "  note: " << note << "\n";
  }

  [[noreturn]] void fail(const llvm::Twine &what) const {
    llvm::errs() << "mlir-pipeline-fuzzer: " << what << "\n"
                 << "  pipeline options: " << options << "\n"
                 << "  diagnostics:\n"
                 << diagnostics;
    llvm::errs().flush();
    std::abort();
  }
};

/// Verifies the IR after every pass that succeeded. The pass manager's own
/// verifier is off: it would turn a pass that breaks the IR into one more
/// diagnostic, indistinguishable from a pass that refused its input.
class VerifyAfterEachPass : public PassInstrumentation {
public:
  explicit VerifyAfterEachPass(const Report &report) : report(report) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    if (failed(verify(op)))
      report.fail("pass '" + pass->getArgument() +
                  "' succeeded but left IR that does not verify");
  }

private:
  const Report &report;
};

/// What a runtime would get for this module, read the way tgemm-translate
/// and the Python package read it: every compiled kernel has PTX with its
/// entry, and a manifest that the runtime's reader accepts.
void checkCompiledModule(ModuleOp module, const Report &report) {
  FailureOr<SmallVector<mlir::tgemm::CompiledModule>> compiled =
      mlir::tgemm::collectCompiledModules(module);
  if (failed(compiled))
    report.fail("the pipeline succeeded but its PTX cannot be read");
  FailureOr<std::string> json =
      mlir::tgemm::buildManifestJson(module, *compiled);
  if (failed(json))
    report.fail("the pipeline succeeded but wrote no launch manifest");
  rt::Manifest manifest;
  try {
    manifest = rt::parseManifest(*json, "manifest.json");
  } catch (const rt::Error &e) {
    report.fail(llvm::Twine("the runtime refuses the manifest of the "
                            "compiled module: ") +
                e.what() + "\n  manifest: " + *json);
  }
  for (const rt::KernelManifest &kernel : manifest.kernels) {
    const mlir::tgemm::CompiledModule *ptx = nullptr;
    for (const mlir::tgemm::CompiledModule &m : *compiled)
      if (m.name == kernel.module)
        ptx = &m;
    if (!ptx)
      report.fail("kernel module '" + kernel.module + "' has no PTX");
    if (!ptx->ptx.contains(".entry " + kernel.name))
      report.fail("the PTX of '" + kernel.module + "' has no .entry " +
                  kernel.name);
    if (!kernel.problem[0] || !kernel.problem[1] || !kernel.problem[2])
      continue;
    rt::GemmShape shape;
    try {
      shape = rt::resolveShape(kernel, {}, {}, {});
    } catch (const rt::Error &) {
      continue; // Sizes no device holds: the runtime may refuse them.
    }
    try {
      rt::checkRequirements(kernel, shape);
    } catch (const rt::Error &e) {
      report.fail(llvm::Twine("the compiler accepted static sizes that break "
                              "the requirements it wrote: ") +
                  e.what());
    }
  }
}

/// Inputs that already name compiled kernels or manifests: the consistency
/// checks would judge what the input wrote, not what the pipeline made.
bool hasPrecompiledParts(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (isa<gpu::BinaryOp>(op) || op->hasAttr(mlir::tgemm::kManifestAttrName)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Whether compiling every matmul of `module` stays within the bounds above.
bool isCheapToCompile(ModuleOp module) {
  int64_t macs = 0;
  WalkResult walk = module.walk([&](mlir::tgemm::MatmulOp op) {
    mlir::tgemm::ConfigAttr config = op.getConfigAttr();
    if (!config) // tgemm-select-config failed on it: nothing will compile
      return WalkResult::interrupt();
    // The verifier bounds each tile size by 2^16 and the stage ring by the
    // shared memory of a chip: no product overflows.
    int64_t warpTile = config.getWarpTileM() * config.getWarpTileN();
    macs += warpTile * config.getBlockK();
    // One stage of the unpadded rings.
    ::tgemm::SharedMemoryPlan plan = ::tgemm::planSharedMemory(
        mlir::tgemm::getProblem(op), mlir::tgemm::getTileConfig(config),
        ::tgemm::Schedule{false, false, false, true, true,
                          ::tgemm::Swizzle::None, 0},
        ::tgemm::Family::MmaSync);
    int64_t stageBytes = plan.a.stagePitch + plan.b.stagePitch;
    int64_t chunks = stageBytes / 16 / config.getNumThreads();
    if (warpTile / 32 > kMaxAccumulatorsPerThread ||
        chunks > kMaxCopyChunksPerThread || macs > kMaxWarpMacsPerModule)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Replaces the `[begin, end)` bytes of `text` with `with`.
void splice(std::string &text, size_t begin, size_t end, StringRef with) {
  text.replace(begin, end - begin, with.data(), with.size());
}

/// One mutation at the level of MLIR tokens: a number becomes another size
/// (tile sizes, shapes, warps and stages are all numbers), an element type
/// another one, a layout the other one. Byte-level mutations almost always
/// break the syntax; these mostly keep it and move the input to the tile
/// configurations and type combinations that the lowerings handle.
bool mutateToken(std::string &text, std::minstd_rand &rng) {
  static const char *numbers[] = {"1",     "2",          "3",
                                  "4",     "7",          "8",
                                  "16",    "24",         "32",
                                  "48",    "64",         "96",
                                  "128",   "192",        "256",
                                  "512",   "0",          "-1",
                                  "17",    "100",        "1000",
                                  "4095",  "4096",       "65536",
                                  "65537", "2147483648", "9223372036854775807",
                                  "?"};
  static const char *types[] = {"f16",    "bf16", "f32", "i8",
                                "ui8",    "i4",   "i32", "f8E4M3FN",
                                "f8E5M2", "f64",  "i1",  "index"};
  std::uniform_int_distribution<int> coin(0, 9);
  int kind = coin(rng);
  if (kind < 6) {
    // A digit run not inside an identifier (so not `f16`'s 16).
    SmallVector<std::pair<size_t, size_t>> runs;
    for (size_t i = 0; i < text.size();) {
      if (!isdigit(static_cast<unsigned char>(text[i]))) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < text.size() && isdigit(static_cast<unsigned char>(text[j])))
        ++j;
      if (i == 0 || !isalpha(static_cast<unsigned char>(text[i - 1])))
        runs.push_back({i, j});
      i = j;
    }
    if (runs.empty())
      return false;
    auto [begin, end] = runs[rng() % runs.size()];
    splice(text, begin, end, numbers[rng() % std::size(numbers)]);
    return true;
  }
  if (kind < 9) {
    SmallVector<std::pair<size_t, size_t>> found;
    for (const char *type : types) {
      StringRef t(type);
      for (size_t at = text.find(type); at != std::string::npos;
           at = text.find(type, at + 1)) {
        size_t end = at + t.size();
        bool whole =
            (at == 0 || !isalnum(static_cast<unsigned char>(text[at - 1]))) &&
            (end == text.size() ||
             !isalnum(static_cast<unsigned char>(text[end])));
        if (whole)
          found.push_back({at, end});
      }
    }
    if (found.empty())
      return false;
    auto [begin, end] = found[rng() % found.size()];
    splice(text, begin, end, types[rng() % std::size(types)]);
    return true;
  }
  SmallVector<size_t> layouts;
  for (StringRef word : {"row", "col"})
    for (size_t at = text.find(word.str()); at != std::string::npos;
         at = text.find(word.str(), at + 1))
      layouts.push_back(at);
  if (layouts.empty())
    return false;
  size_t at = layouts[rng() % layouts.size()];
  splice(text, at, at + 3, text.compare(at, 3, "row") == 0 ? "col" : "row");
  return true;
}

} // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

/// Half of the mutations are libFuzzer's own, half are token mutations.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::minstd_rand rng(seed);
  if (rng() % 2 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  bool changed = false;
  for (unsigned n = 1 + rng() % 3; n > 0; --n)
    changed |= mutateToken(text, rng);
  if (!changed || text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlir::tgemm::registerAllTGemmPasses();
  registry = new DialectRegistry();
  mlir::tgemm::registerAllTGemmDialects(*registry);
  const char *env = std::getenv("TGEMM_FUZZ_VERBOSE");
  verbose = env && *env && *env != '0';
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1;
  // A fresh context per input: nothing an input uniques or loads can change
  // how the next one behaves, so every finding replays alone.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);

  Report report;
  mlir::tgemm::PipelineOptions options;
  chooseOptions(hashBytes(data, size), options);
  {
    llvm::raw_string_ostream os(report.options);
    options.print(os);
  }
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    report.add(diag);
    return success();
  });

  // tgemm-opt reads files into NUL-terminated buffers; so does this.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz.mlir"),
      llvm::SMLoc());
  // Parsing verifies.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);

  bool compiled = false;
  if (module) {
    // The pipeline's first steps, alone: linalg matmuls become tgemm.matmul
    // and ops without a config get the one the pipeline would choose, so
    // that the cost bound below sees the tiles that will be compiled.
    PassManager prepare(&context);
    mlir::tgemm::TGemmFromLinalgOptions import;
    import.tf32 = options.tf32;
    prepare.addPass(mlir::tgemm::createTGemmFromLinalg(import));
    mlir::tgemm::TGemmAttachTargetOptions target;
    target.chip = options.chip;
    target.family = options.lowering;
    prepare.addPass(mlir::tgemm::createTGemmAttachTarget(target));
    prepare.addPass(mlir::tgemm::createTGemmSelectConfig());
    if (failed(prepare.run(*module)))
      module = {};
  }
  if (module) {
    bool hasMatmul = false;
    module->walk([&](mlir::tgemm::MatmulOp) {
      hasMatmul = true;
      return WalkResult::interrupt();
    });
    if (hasMatmul && isCheapToCompile(*module)) {
      bool precompiled = hasPrecompiledParts(*module);
      PassManager pm(&context);
      pm.enableVerifier(false);
      pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>(report));
      mlir::tgemm::buildPipeline(pm, options);
      if (succeeded(pm.run(*module))) {
        compiled = true;
        if (!precompiled)
          checkCompiledModule(*module, report);
      }
    }
  }
  if (verbose)
    llvm::errs() << "options: " << report.options << "\n"
                 << "parsed: " << (module ? "yes" : "no")
                 << ", compiled: " << (compiled ? "yes" : "no") << "\n"
                 << report.diagnostics;
  return 0;
}
