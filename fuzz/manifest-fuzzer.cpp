//===- manifest-fuzzer.cpp - libFuzzer harness for the manifest reader ----===//
//
// Input bytes are a launch manifest (docs/manifest.md). The harness does
// with it what tgemm-run does before it touches a GPU: parse and validate
// it, select a kernel, reconcile the sizes and the batch with a command
// line, check the requirements, compute the launch dimensions, the stored
// matrix sizes, the operands' storage (leading dimensions, offsets) and the
// kernel parameters.
//
// The contract (runtime/include/tgemm/runtime/Error.h) is that bad input
// ends in a tgemm::runtime::Error naming the cause. Anything else is a
// finding: a crash, a sanitizer report, any other exception escaping
// (tgemm-run would print it without saying which field is wrong), or a
// manifest accepted although it breaks what docs/manifest.md promises.
//
//===----------------------------------------------------------------------===//

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/KernelArgs.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <optional>
#include <string_view>

using namespace tgemm::runtime;

namespace {

/// FNV-1a: picks the command-line sizes deterministically per input.
uint64_t hashBytes(const uint8_t *data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

/// Sizes a user may pass as --m/--n/--k: small, odd, tile multiples, and
/// values at the edges of 32- and 64-bit arithmetic.
constexpr int64_t kCommandLineSizes[] = {
    1,     7,         64,         128,           1000,      4096, 4097,
    65536, INT32_MAX, 4294967296, 1099511627776, INT64_MAX, 0,    -1};

/// What docs/manifest.md promises of a manifest the reader accepted; the
/// launch code relies on it without checking again.
void checkAccepted(const KernelManifest &kernel) {
  auto violated = [&](const char *what) {
    std::fprintf(stderr,
                 "manifest-fuzzer: the reader accepted kernel '%s' but %s\n",
                 kernel.name.c_str(), what);
    std::abort();
  };
  int64_t threads = 1;
  for (int64_t b : kernel.block) {
    if (b < 1 || b > 1024)
      violated("a block extent is outside 1..1024");
    threads *= b;
    if (threads > 1024)
      violated("its block has more than 1024 threads");
  }
  size_t matrices = 0;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const KernelArg &arg = kernel.args[i];
    if (!arg.epilogue) {
      ++matrices;
      if (arg.rank != (kernel.batched ? 3 : 2))
        violated("an argument is not of rank 2 (rank 3 when batched)");
      continue;
    }
    // An epilogue operand: read by exactly one step, of its rank.
    int readers = 0;
    for (const EpilogueStep &step : kernel.epilogue)
      if (step.arg == static_cast<int>(i)) {
        ++readers;
        int wanted = takesBroadcast(step.op) ? 1 : (kernel.batched ? 3 : 2);
        if (arg.rank != wanted)
          violated("an epilogue operand has the wrong rank for its step");
      }
    if (readers != 1)
      violated("an epilogue operand is not read by exactly one step");
    if (arg.strided || !isEpilogueOperandType(arg.type))
      violated("an epilogue operand is strided or not f32, f16 or bf16");
  }
  for (const EpilogueStep &step : kernel.epilogue)
    if (takesOperand(step.op) != (step.arg >= 0))
      violated("an epilogue step's operand does not match its op");
  if (!kernel.epilogue.empty() && kernel.gemm.c.type == ElementType::S32)
    violated("an s32 C has epilogue steps");
  if (kernel.batch && *kernel.batch < 1)
    violated("a static batch size is not positive");
  for (const GridExtent &extent : kernel.grid)
    if (extent.isTiled && extent.dim == Dim::Batch && !kernel.batched)
      violated("a grid extent tiles the batch of a kernel that is not "
               "batched");
  if (matrices != 3)
    violated("it does not have exactly the arguments a, b and c");
  for (const GridExtent &extent : kernel.grid)
    if (extent.isTiled ? extent.tile < 1 : extent.value < 1)
      violated("a grid extent is not positive");
  for (const Requirement &r : kernel.requirements)
    if (r.multipleOf < 1)
      violated("a requirement is not a positive multiple");
  for (const std::optional<int64_t> &size : kernel.problem)
    if (size && *size < 1)
      violated("a static problem size is not positive");
  if (kernel.dynamicSharedMemory < 0)
    violated("its dynamic shared memory is negative");
}

/// Everything tgemm-run derives from `kernel` and a command line before it
/// needs a device (runtime/tools/tgemm-run and GemmRunner::run).
void exercise(const Manifest &manifest, const KernelManifest &kernel,
              uint64_t &choice) {
  std::optional<int64_t> given[4];
  for (int i = 0; i < 4; ++i) {
    uint64_t pick = choice % 16;
    choice /= 16;
    // Mostly the sizes the kernel was compiled for, or none for a static
    // size; sometimes a conflicting one. given[3] is the batch.
    std::optional<int64_t> compiled = i < 3 ? kernel.problem[i] : kernel.batch;
    if (pick < std::size(kCommandLineSizes) && (!compiled || pick % 4 == 0))
      given[i] = kCommandLineSizes[pick];
  }
  // Leading dimensions and offsets: none, or sizes from the same list.
  StorageRequests requests;
  for (StorageRequest &request : requests) {
    uint64_t pick = choice % 64;
    choice /= 64;
    if (pick < std::size(kCommandLineSizes))
      request.ld = kCommandLineSizes[pick];
    else if (pick < 2 * std::size(kCommandLineSizes))
      request.offset = kCommandLineSizes[pick - std::size(kCommandLineSizes)];
  }
  try {
    selectKernel(manifest, kernel.name, "fuzz.json");
    GemmShape shape =
        resolveShape(kernel, given[0], given[1], given[2], given[3]);
    (void)shape.str();
    (void)shape.operations();
    checkRequirements(kernel, shape);
    computeLaunch(kernel, shape);
    for (Operand operand : {Operand::A, Operand::B, Operand::C}) {
      const OperandSpec &spec = operand == Operand::A   ? kernel.gemm.a
                                : operand == Operand::B ? kernel.gemm.b
                                                        : kernel.gemm.c;
      MatrixShape stored = storedShape(operand, spec.layout, shape);
      (void)storageBytes(spec.type, stored.elements());
    }
    OperandAddresses addresses;
    addresses.a = 0x1000;
    addresses.b = 0x2000;
    addresses.c = 0x3000;
    for (size_t index : epilogueArgIndices(kernel)) {
      (void)describeEpilogueOperand(kernel, index, shape);
      addresses.epilogue.push_back(0x4000 + 0x1000 * index);
    }
    (void)describeEpilogue(kernel);
    KernelArgs args(kernel, shape, addresses);
    (void)args.pointers();
    OperandStorages storages = resolveStorage(kernel, shape, requests);
    for (const MatrixStorage &storage : storages)
      if (storage.ld < storage.cols || storage.offset < 0 ||
          storage.allocationElements() > kMaxMatrixElements) {
        std::fprintf(stderr, "manifest-fuzzer: resolveStorage accepted a "
                             "storage it promises to refuse\n");
        std::abort();
      }
    KernelArgs strided(kernel, storages, addresses);
    (void)strided.pointers();
  } catch (const Error &) {
    // Refused with a message: the expected outcome for bad input.
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Manifests are a few KiB; larger inputs only slow the search down.
  if (size > 16 * 1024)
    return -1;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  uint64_t choice = hashBytes(data, size);
  try {
    Manifest manifest;
    try {
      manifest = parseManifest(text, "fuzz.json");
    } catch (const Error &) {
      return 0;
    }
    try {
      selectKernel(manifest, "", "fuzz.json");
    } catch (const Error &) {
    }
    for (const KernelManifest &kernel : manifest.kernels) {
      checkAccepted(kernel);
      exercise(manifest, kernel, choice);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr,
                 "manifest-fuzzer: an exception other than "
                 "tgemm::runtime::Error escaped: %s\n",
                 e.what());
    std::abort();
  }
  return 0;
}
