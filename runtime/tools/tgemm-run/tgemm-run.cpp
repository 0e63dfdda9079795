//===- tgemm-run.cpp - Launch, check and time a compiled tgemm kernel -----===//
//
// tgemm-run KERNEL.ptx|KERNEL.cubin --manifest KERNEL.json --m M --n N --k K
//           [--check] [--csv|--json] ...
//
// Exit codes: 0 success, 1 bad input/unsupported/device error, 2 usage,
// 3 wrong result, 4 no CUDA device. See docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#include "tgemm/runtime/Device.h"
#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/GemmRunner.h"
#include "tgemm/runtime/KernelBinary.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"
#include "tgemm/runtime/Report.h"
#include "tgemm/runtime/SelfTest.h"
#include "tgemm/Version.h"

#include <charconv>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>

using namespace tgemm::runtime;

namespace {

const char *kUsage =
    R"(usage: tgemm-run KERNEL.ptx|KERNEL.cubin --manifest KERNEL.json [options]
       tgemm-run --cublas-only --manifest KERNEL.json [options]
       tgemm-run --self-test | --list-devices | --csv-header | --help | --version

Launches a compiled tgemm kernel on deterministic random inputs, checks its
result against a reference library (--check) and times it next to that
library's GEMM. A kernel with a fused epilogue (the manifest's "epilogue":
bias, scale, residual, activations) gets its operands made from the seed
too; the check applies the same steps, and the timed library GEMM (the
anchor) stays the plain GEMM without them. Reports name the steps
(CSV/JSON column "epilogue").

  --manifest FILE   the kernel's launch manifest (docs/manifest.md)
  --kernel NAME     which kernel of the manifest (needed if it has several)
  --m M --n N --k K the problem size (sizes compiled in statically may be
                    omitted)
  --batch B         the number of GEMMs of a batched kernel (may be omitted
                    when compiled in statically)
  --lda N --ldb N --ldc N
                    leading dimension (row stride, in elements) of the stored
                    A, B, C; only for arguments the manifest marks strided
                    (default: packed rows)
  --offset-a N --offset-b N --offset-c N
                    where the matrix starts in its allocation, in elements
                    (strided arguments only; default 0)
  --reps N          timed repetitions, median reported (default 50; 0: none;
                    at most 100000)
  --warmup N        untimed launches before timing (default 5; at most
                    100000)
  --check           compare C with the reference (exact for an s32 C)
  --csv             print one CSV line instead of a table
  --csv-header      print the CSV header line first (alone: only the header)
  --json            print one JSON object instead of a table
  --cublas-only     time the reference library alone; no kernel file needed
  --no-flush        do not flush the L2 cache between repetitions
  --copy            also time a device-to-device copy that moves as many
                    bytes as A, B and C hold (the shape's memory roofline):
                    adds bytes, kernel_gbs, copy_ms and copy_gbs (GB/s)
  --no-anchor       do not time the reference library (e.g. under
                    compute-sanitizer, to check the kernel alone)
  --persistent-blocks N
                    launch a persistent kernel with at most N blocks per
                    grid layer (default: as many as fit at once), so that
                    each block loops over several tiles
  --seed S          seed of the random inputs (default 1)
  --device D        CUDA device ordinal (default 0)
  --self-test       check the references against a CPU GEMM on this GPU
  --list-devices    list the CUDA devices

exit status: 0 ok, 1 bad input or device error, 2 usage, 3 wrong result,
4 no CUDA device
)";

struct Options {
  std::string kernelFile, manifest, kernelName;
  std::optional<int64_t> m, n, k, batch;
  StorageRequests storage;
  int reps = 50, warmup = 5, device = 0;
  int64_t persistentBlocks = 0;
  uint64_t seed = 1;
  bool check = false, csv = false, csvHeader = false, json = false;
  bool cublasOnly = false, noFlush = false, noAnchor = false, copy = false;
  bool help = false, version = false, selfTest = false, listDevices = false;
};

/// The most --reps and --warmup take.
constexpr int kMaxRepetitions = 100000;

/// `text` as a decimal integer of type T from `min` to `max`: digits alone,
/// with a leading '-' for a signed T (no spaces, no '+', no base prefix).
/// Anything else, or a value outside [min, max] or T, is a usage error that
/// names the option and the range.
template <typename T>
T parseInteger(const std::string &option, const std::string &text, T min,
               T max = std::numeric_limits<T>::max()) {
  T value{};
  const char *first = text.data(), *last = text.data() + text.size();
  std::from_chars_result parsed = std::from_chars(first, last, value, 10);
  if (text.empty() || parsed.ec != std::errc() || parsed.ptr != last ||
      value < min || value > max)
    fail(ErrorKind::Usage, option + " expects an integer from " +
                               std::to_string(min) + " to " +
                               std::to_string(max) + ", got '" + text + "'");
  return value;
}

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasInlineValue = false;
    if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
      hasInlineValue = true;
    }
    auto next = [&]() -> std::string {
      if (hasInlineValue)
        return value;
      if (i + 1 >= argc)
        fail(ErrorKind::Usage, arg + " expects a value");
      return argv[++i];
    };
    auto flag = [&]() {
      if (hasInlineValue)
        fail(ErrorKind::Usage, arg + " takes no value");
      return true;
    };
    if (arg == "--manifest")
      o.manifest = next();
    else if (arg == "--kernel")
      o.kernelName = next();
    else if (arg == "--m")
      o.m = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--n")
      o.n = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--k")
      o.k = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--batch")
      o.batch = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--lda")
      o.storage[0].ld = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--ldb")
      o.storage[1].ld = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--ldc")
      o.storage[2].ld = parseInteger<int64_t>(arg, next(), 1);
    else if (arg == "--offset-a")
      o.storage[0].offset = parseInteger<int64_t>(arg, next(), 0);
    else if (arg == "--offset-b")
      o.storage[1].offset = parseInteger<int64_t>(arg, next(), 0);
    else if (arg == "--offset-c")
      o.storage[2].offset = parseInteger<int64_t>(arg, next(), 0);
    else if (arg == "--reps")
      o.reps = parseInteger<int>(arg, next(), 0, kMaxRepetitions);
    else if (arg == "--warmup")
      o.warmup = parseInteger<int>(arg, next(), 0, kMaxRepetitions);
    else if (arg == "--seed")
      o.seed = parseInteger<uint64_t>(arg, next(), 0);
    else if (arg == "--device")
      o.device = parseInteger<int>(arg, next(), 0);
    else if (arg == "--check")
      o.check = flag();
    else if (arg == "--csv")
      o.csv = flag();
    else if (arg == "--csv-header")
      o.csvHeader = flag();
    else if (arg == "--json")
      o.json = flag();
    else if (arg == "--cublas-only")
      o.cublasOnly = flag();
    else if (arg == "--no-flush")
      o.noFlush = flag();
    else if (arg == "--no-anchor")
      o.noAnchor = flag();
    else if (arg == "--persistent-blocks")
      o.persistentBlocks = parseInteger<int64_t>(arg, next(), 1, 2147483647);
    else if (arg == "--copy")
      o.copy = flag();
    else if (arg == "--self-test")
      o.selfTest = flag();
    else if (arg == "--list-devices")
      o.listDevices = flag();
    else if (arg == "--help" || arg == "-h")
      o.help = flag();
    else if (arg == "--version")
      o.version = flag();
    else if (arg.rfind("-", 0) == 0 && arg != "-")
      fail(ErrorKind::Usage, "unknown option '" + arg + "' (see --help)");
    else if (o.kernelFile.empty())
      o.kernelFile = arg;
    else
      fail(ErrorKind::Usage, "more than one kernel file: '" + o.kernelFile +
                                 "' and '" + arg + "'");
  }
  return o;
}

/// Checks the combinations that only make sense for a run.
void validateRunOptions(const Options &o) {
  if (o.csv && o.json)
    fail(ErrorKind::Usage, "--csv and --json exclude each other");
  if (o.manifest.empty())
    fail(ErrorKind::Usage, "missing --manifest FILE (see --help)");
  if (o.cublasOnly && o.check)
    fail(ErrorKind::Usage, "--check needs a kernel; --cublas-only has none");
  if (o.persistentBlocks > 0 && o.cublasOnly)
    fail(ErrorKind::Usage,
         "--persistent-blocks needs a kernel; --cublas-only has none");
  if (!o.cublasOnly && o.kernelFile.empty())
    fail(ErrorKind::Usage, "missing the kernel file (PTX or cubin); or use "
                           "--cublas-only");
}

int listDevices() {
  int count = deviceCount();
  for (int i = 0; i < count; ++i) {
    Device device(i);
    std::cout << i << ": " << device.info().describe() << "\n";
  }
  return 0;
}

int run(const Options &o) {
  validateRunOptions(o);
  // Everything that needs no GPU is checked first.
  Manifest manifest = readManifestFile(o.manifest);
  const KernelManifest &kernel =
      selectKernel(manifest, o.kernelName, o.manifest);
  if (o.persistentBlocks > 0 && !kernel.persistent)
    fail(ErrorKind::Usage, "--persistent-blocks: kernel '" + kernel.name +
                               "' is not persistent (its manifest entry has "
                               "no \"persistent\": true)");
  GemmShape shape = resolveShape(kernel, o.m, o.n, o.k, o.batch);
  checkRequirements(kernel, shape);
  computeLaunch(kernel, shape);
  resolveStorage(kernel, shape, o.storage);
  std::optional<KernelBinary> binary;
  if (!o.cublasOnly) {
    binary = readKernelBinary(o.kernelFile);
    requireKernels(*binary, kernel);
  }

  Device device(o.device);
  std::unique_ptr<CompiledKernel> compiled;
  if (binary) {
    compiled = std::make_unique<CompiledKernel>(device, kernel, *binary);
    compiled->setPersistentBlockLimit(o.persistentBlocks);
  }
  GemmRunner runner(device, kernel, compiled.get());
  RunOptions options;
  options.reps = o.reps;
  options.warmup = o.warmup;
  options.check = o.check;
  options.flushL2 = !o.noFlush;
  options.timeAnchor = !o.noAnchor;
  options.timeCopy = o.copy;
  options.seed = o.seed;
  options.storage = o.storage;
  RunReport report = runner.run(shape, options);

  if (o.json) {
    std::cout << formatJson(report) << "\n";
  } else if (o.csv) {
    if (o.csvHeader)
      std::cout << csvHeader() << "\n";
    std::cout << formatCsv(report) << "\n";
  } else {
    std::cout << formatTable(report) << "\n";
    if (!report.anchorNote.empty())
      std::cout << "note: " << report.anchorNote << "\n";
  }
  std::cout.flush();
  if (report.checked && !report.comparison.passed)
    fail(ErrorKind::Mismatch,
         "wrong result: kernel '" + kernel.name + "' differs from " +
             report.checkedAgainst + " at " + shape.str() + ": " +
             report.comparison.describeFailure());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    Options o = parseOptions(argc, argv);
    if (o.help) {
      std::cout << kUsage;
      return 0;
    }
    if (o.version) {
      std::cout << "tgemm-run (tgemm) " TGEMM_VERSION_STRING "\n";
      return 0;
    }
    if (o.listDevices)
      return listDevices();
    if (o.selfTest) {
      Device device(o.device);
      return runSelfTest(device, std::cout) == 0
                 ? 0
                 : exitCodeFor(ErrorKind::Mismatch);
    }
    if (o.csvHeader && o.manifest.empty() && o.kernelFile.empty()) {
      std::cout << csvHeader() << "\n";
      return 0;
    }
    return run(o);
  } catch (const Error &e) {
    std::cout.flush();
    std::cerr << "tgemm-run: error: " << e.what() << "\n";
    return exitCodeFor(e.kind());
  } catch (const std::bad_alloc &) {
    std::cerr << "tgemm-run: error: out of host memory\n";
    return 1;
  } catch (const std::exception &e) {
    std::cerr << "tgemm-run: error: " << e.what() << "\n";
    return 1;
  }
}
