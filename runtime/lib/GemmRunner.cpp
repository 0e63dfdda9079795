//===- GemmRunner.cpp - Run, check and time one compiled GEMM -------------===//

#include "tgemm/runtime/GemmRunner.h"

#include "tgemm/runtime/Driver.h"
#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Inputs.h"

namespace tgemm::runtime {

void checkChip(const KernelManifest &kernel, const DeviceInfo &device) {
  int have = device.computeCapability;
  std::string where = device.describe();
  if (kernel.archSpecific && have != kernel.chipVersion)
    fail(ErrorKind::Unsupported, "kernel '" + kernel.name +
                                     "' was compiled for " + kernel.chip +
                                     ", which runs only on sm_" +
                                     std::to_string(kernel.chipVersion) +
                                     "; the device is " + where);
  if (have < kernel.chipVersion)
    fail(ErrorKind::Unsupported, "kernel '" + kernel.name +
                                     "' was compiled for " + kernel.chip +
                                     "; the device is " + where);
}

namespace {
/// `device`, once the kernel is known to run on it (checked before loading,
/// so a chip mismatch is not reported as a JIT error).
const Device &requireChip(const Device &device, const KernelManifest &kernel) {
  checkChip(kernel, device.info());
  return device;
}
} // namespace

CompiledKernel::CompiledKernel(const Device &device,
                               const KernelManifest &manifest,
                               const KernelBinary &binary)
    : kernel(manifest), module(requireChip(device, manifest), binary) {
  const DriverApi &cu = driver();
  function = module.function(kernel.name);
  auto attribute = [&](CUfunction_attribute which) {
    int value = 0;
    checkCuda(cu.cuFuncGetAttribute(&value, which, function),
              "querying kernel '" + kernel.name + "'");
    return value;
  };
  registers = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
  int maxThreads = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  int staticShared = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  int64_t threads = kernel.block[0] * kernel.block[1] * kernel.block[2];
  if (threads > maxThreads)
    fail(ErrorKind::Unsupported,
         "kernel '" + kernel.name + "' uses " + std::to_string(registers) +
             " registers per thread, so at most " +
             std::to_string(maxThreads) +
             " threads fit in a block; the manifest's block has " +
             std::to_string(threads));
  int64_t shared = staticShared + kernel.dynamicSharedMemory;
  int limit = device.info().maxSharedMemoryPerBlockOptin;
  if (shared > limit)
    fail(ErrorKind::Unsupported,
         "kernel '" + kernel.name + "' needs " +
             std::to_string(staticShared) + " bytes of static and " +
             std::to_string(kernel.dynamicSharedMemory) +
             " of dynamic shared memory; " + device.info().describe() +
             " allows " + std::to_string(limit) + " per block");
  // Above 48 KiB a kernel must opt in to dynamic shared memory.
  if (kernel.dynamicSharedMemory > 48 * 1024)
    checkCuda(cu.cuFuncSetAttribute(
                  function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  static_cast<int>(kernel.dynamicSharedMemory)),
              "allowing kernel '" + kernel.name + "' " +
                  std::to_string(kernel.dynamicSharedMemory) +
                  " bytes of dynamic shared memory");
}

void CompiledKernel::launch(const LaunchDims &dims, KernelArgs &args,
                            CUstream stream) {
  CUresult result = driver().cuLaunchKernel(
      function, dims.grid[0], dims.grid[1], dims.grid[2], dims.block[0],
      dims.block[1], dims.block[2], dims.dynamicSharedMemory, stream,
      args.pointers(), nullptr);
  if (result == CUDA_SUCCESS)
    return;
  checkCuda(result, "launching kernel '" + kernel.name + "' (grid " +
                        std::to_string(dims.grid[0]) + "x" +
                        std::to_string(dims.grid[1]) + "x" +
                        std::to_string(dims.grid[2]) + ", block " +
                        std::to_string(dims.block[0]) + "x" +
                        std::to_string(dims.block[1]) + "x" +
                        std::to_string(dims.block[2]) + ", " +
                        std::to_string(dims.dynamicSharedMemory) +
                        " bytes of dynamic shared memory)");
}

const char *RunReport::rateUnit() const {
  return gemm.isInteger() ? "TOP/s" : "TFLOP/s";
}

double RunReport::kernelRate() const {
  return kernelTimed && kernelTime.medianMs > 0
             ? shape.operations() / (kernelTime.medianMs * 1e9)
             : 0;
}

double RunReport::anchorRate() const {
  return anchorTimed && anchorTime.medianMs > 0
             ? shape.operations() / (anchorTime.medianMs * 1e9)
             : 0;
}

double RunReport::ratio() const {
  double anchor = anchorRate();
  return anchor > 0 ? kernelRate() / anchor : 0;
}

GemmRunner::GemmRunner(const Device &device, const KernelManifest &manifest,
                       CompiledKernel *kernel)
    : device(device), manifest(manifest), kernel(kernel), libraries(device) {}

GemmRunner::~GemmRunner() = default;

namespace {
std::string describeMatrix(const char *name, MatrixShape shape,
                           ElementType type) {
  return std::string(name) + " (" + std::to_string(shape.rows) + "x" +
         std::to_string(shape.cols) + " " + elementTypeName(type) + ")";
}
} // namespace

RunReport GemmRunner::run(const GemmShape &shape, const RunOptions &options) {
  device.makeCurrent();
  checkRequirements(manifest, shape);
  LaunchDims dims = computeLaunch(manifest, shape);
  const GemmSpec &spec = manifest.gemm;

  RunReport report;
  report.kernel = manifest.name;
  report.lowering = manifest.lowering;
  report.chip = manifest.chip;
  report.device = device.info().describe();
  report.gemm = spec;
  report.shape = shape;

  Stream stream;
  MatrixShape aShape = storedShape(Operand::A, spec.a.layout, shape);
  MatrixShape bShape = storedShape(Operand::B, spec.b.layout, shape);
  MatrixShape cShape = storedShape(Operand::C, spec.c.layout, shape);
  std::vector<uint8_t> aHost = makeRandomMatrix(
      spec.a.type, aShape.elements(), options.seed, DataStream::A);
  std::vector<uint8_t> bHost = makeRandomMatrix(
      spec.b.type, bShape.elements(), options.seed, DataStream::B);
  DeviceBuffer a(device, aHost.size(), describeMatrix("A", aShape, spec.a.type));
  DeviceBuffer b(device, bHost.size(), describeMatrix("B", bShape, spec.b.type));
  a.upload(aHost.data(), aHost.size());
  b.upload(bHost.data(), bHost.size());

  // C starts random when the epilogue reads it, and poisoned otherwise, so
  // an element the kernel never writes cannot pass the check.
  size_t cBytes = static_cast<size_t>(storageBytes(spec.c.type,
                                                   cShape.elements()));
  DeviceBuffer initialC(device, cBytes,
                        describeMatrix("the initial C", cShape, spec.c.type));
  if (spec.beta != 0) {
    std::vector<uint8_t> cHost = makeRandomMatrix(
        spec.c.type, cShape.elements(), options.seed, DataStream::C);
    initialC.upload(cHost.data(), cHost.size());
  } else if (spec.c.type == ElementType::S32) {
    initialC.fillWords(kIntPoison);
  } else {
    initialC.fillBytes(kFloatPoisonByte);
  }

  std::unique_ptr<Reference> reference;
  if (options.timeAnchor || (options.check && kernel))
    reference = std::make_unique<Reference>(device, libraries, spec, shape,
                                            a.address(), b.address(), stream);

  DeviceBuffer c(device, cBytes, describeMatrix("C", cShape, spec.c.type));
  KernelArgs args(manifest, shape, {a.address(), b.address(), c.address()});
  std::string kernelWhat = "kernel '" + manifest.name + "'";
  if (kernel) {
    c.copyFrom(initialC);
    kernel->launch(dims, args, stream.get());
    stream.synchronize(kernelWhat + " failed");
  }

  if (kernel && options.check) {
    std::vector<uint8_t> got(cBytes), expected(cBytes);
    c.download(got.data(), cBytes);
    const DeviceBuffer &ref = reference->compute(initialC, stream);
    ref.download(expected.data(), cBytes);
    report.checked = true;
    report.checkedAgainst = reference->checkName();
    report.comparison =
        compareMatrices(spec.c.type, got.data(), expected.data(), cShape.rows,
                        cShape.cols, toleranceFor(spec, shape.k));
  }

  std::unique_ptr<L2Flusher> flusher;
  if (options.flushL2 && options.reps > 0)
    flusher = std::make_unique<L2Flusher>(device);
  if (kernel && options.reps > 0) {
    report.kernelTime = timeLaunches(
        stream, flusher.get(), options.warmup, options.reps,
        [&](CUstream s) { kernel->launch(dims, args, s); }, kernelWhat);
    report.kernelTimed = true;
  }
  if (reference && !reference->plan().hasAnchor)
    report.anchorNote = reference->plan().anchorNote;
  if (reference && reference->plan().hasAnchor && options.timeAnchor &&
      options.reps > 0) {
    report.anchorName = reference->anchorName();
    report.anchorLayout = reference->anchorLayout();
    report.anchorNote = reference->plan().anchorNote;
    report.anchorTime = timeLaunches(
        stream, flusher.get(), options.warmup, options.reps,
        [&](CUstream s) { reference->runAnchor(s); },
        "the anchor (" + report.anchorName + ")");
    report.anchorTimed = true;
  }
  return report;
}

} // namespace tgemm::runtime
