//===- GemmRunner.cpp - Run, check and time one compiled GEMM -------------===//

#include "tgemm/runtime/GemmRunner.h"

#include "tgemm/runtime/Driver.h"
#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Inputs.h"
#include "tgemm/runtime/TensorMaps.h"

#include <algorithm>
#include <cstring>

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
  // The transposing kernels: functions of the same module, launched with
  // blocks of their own threads and no dynamic shared memory.
  for (const OperandTranspose &transpose : kernel.transposes) {
    CUfunction transposeFunction = module.function(transpose.kernel);
    std::string what =
        std::string(transpose.transpose ? "the transposing" : "the aligning") +
        " kernel '" + transpose.kernel + "' of operand " +
        operandName(transpose.operand) + " of kernel '" + kernel.name + "'";
    int transposeRegisters = 0, transposeMaxThreads = 0;
    checkCuda(cu.cuFuncGetAttribute(&transposeRegisters,
                                    CU_FUNC_ATTRIBUTE_NUM_REGS,
                                    transposeFunction),
              "querying " + what);
    checkCuda(cu.cuFuncGetAttribute(&transposeMaxThreads,
                                    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                    transposeFunction),
              "querying " + what);
    if (transpose.threads > transposeMaxThreads)
      fail(ErrorKind::Unsupported,
           what + " uses " + std::to_string(transposeRegisters) +
               " registers per thread, so at most " +
               std::to_string(transposeMaxThreads) +
               " threads fit in a block; the manifest's block has " +
               std::to_string(transpose.threads));
    transposeFunctions.push_back(transposeFunction);
  }
  // A persistent kernel is launched with as many blocks as fit at once
  // (launchGrid), so it needs to know how many that is.
  if (kernel.persistent && kernel.cluster > 1) {
    // Clusters are placed on a GPC's multiprocessors together, so the
    // blocks that fit at once are whole clusters, fewer than blocks per
    // multiprocessor x multiprocessors may suggest.
    CUlaunchAttribute attribute{};
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = static_cast<unsigned>(kernel.cluster);
    attribute.value.clusterDim.y = 1;
    attribute.value.clusterDim.z = 1;
    CUlaunchConfig config{};
    config.gridDimX = static_cast<unsigned>(kernel.cluster);
    config.gridDimY = 1;
    config.gridDimZ = 1;
    config.blockDimX = static_cast<unsigned>(threads);
    config.blockDimY = 1;
    config.blockDimZ = 1;
    config.sharedMemBytes = static_cast<unsigned>(kernel.dynamicSharedMemory);
    config.attrs = &attribute;
    config.numAttrs = 1;
    int clusters = 0;
    checkCuda(cu.cuOccupancyMaxActiveClusters(&clusters, function, &config),
              "querying how many clusters of kernel '" + kernel.name +
                  "' fit at once");
    if (clusters <= 0)
      fail(ErrorKind::Unsupported,
           "kernel '" + kernel.name + "' is persistent but no cluster of " +
               std::to_string(kernel.cluster) + " of its blocks (" +
               std::to_string(threads) + " threads, " +
               std::to_string(registers) + " registers per thread and " +
               std::to_string(shared) +
               " bytes of shared memory each) fits on " +
               device.info().describe());
    resident = static_cast<int64_t>(clusters) * kernel.cluster;
  } else if (kernel.persistent) {
    int perMultiprocessor = 0;
    checkCuda(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                  &perMultiprocessor, function, static_cast<int>(threads),
                  static_cast<size_t>(kernel.dynamicSharedMemory)),
              "querying the occupancy of kernel '" + kernel.name + "'");
    if (perMultiprocessor <= 0)
      fail(ErrorKind::Unsupported,
           "kernel '" + kernel.name +
               "' is persistent but no block of it can be resident on " +
               device.info().describe() + ": a block of " +
               std::to_string(threads) + " threads, " +
               std::to_string(registers) + " registers per thread and " +
               std::to_string(shared) +
               " bytes of shared memory does not fit on a multiprocessor");
    resident = static_cast<int64_t>(perMultiprocessor) *
               device.info().multiprocessors;
  }
}

std::array<uint32_t, 3> persistentLaunchGrid(const LaunchDims &dims,
                                             int64_t residentBlocks,
                                             int64_t cluster) {
  cluster = std::max<int64_t>(1, cluster);
  // In 64 bits: grid x * grid y may not fit in 32 (up to 2^31 x 65535).
  int64_t tiles = static_cast<int64_t>(dims.grid[0]) * dims.grid[1];
  int64_t z = std::max<int64_t>(1, dims.grid[2]);
  int64_t blocks = std::min(tiles, std::max<int64_t>(1, residentBlocks / z));
  // At most CUDA's limit on grid x, which no device's resident blocks
  // reach; clamped anyway.
  blocks = std::min<int64_t>(blocks, 2147483647);
  blocks = std::max(cluster, blocks / cluster * cluster);
  return {static_cast<uint32_t>(blocks), 1u, dims.grid[2]};
}

std::array<uint32_t, 3> CompiledKernel::launchGrid(
    const LaunchDims &dims) const {
  if (!kernel.persistent)
    return dims.grid;
  std::array<uint32_t, 3> grid =
      persistentLaunchGrid(dims, resident, kernel.cluster);
  if (blockLimit > 0) {
    int64_t limit =
        std::max(kernel.cluster, blockLimit / kernel.cluster * kernel.cluster);
    grid[0] = static_cast<uint32_t>(std::min<int64_t>(grid[0], limit));
  }
  return grid;
}

void CompiledKernel::launch(const LaunchDims &dims, KernelArgs &args,
                            CUstream stream) {
  std::vector<TransposeArgs> &transposes = args.transposes();
  if (transposes.size() != transposeFunctions.size())
    fail(ErrorKind::Input,
         "kernel '" + kernel.name + "' reads " +
             std::to_string(transposeFunctions.size()) +
             " operands from copies, but its arguments have " +
             std::to_string(transposes.size()) + " copying launches");
  // Each copy, on the same stream, before the kernel that reads it.
  for (size_t i = 0; i < transposes.size(); ++i) {
    TransposeArgs &transpose = transposes[i];
    const LaunchDims &t = transpose.dims();
    CUresult result = driver().cuLaunchKernel(
        transposeFunctions[i], t.grid[0], t.grid[1], t.grid[2], t.block[0],
        t.block[1], t.block[2], t.dynamicSharedMemory, stream,
        transpose.pointers(), nullptr);
    checkCuda(result,
              "launching the transposing kernel '" +
                  transpose.transpose().kernel + "' of operand " +
                  operandName(transpose.transpose().operand) + " of kernel '" +
                  kernel.name + "' (grid " + std::to_string(t.grid[0]) + "x" +
                  std::to_string(t.grid[1]) + "x" + std::to_string(t.grid[2]) +
                  ", block " + std::to_string(t.block[0]) + "x" +
                  std::to_string(t.block[1]) + "x" +
                  std::to_string(t.block[2]) + ")");
  }
  std::array<uint32_t, 3> grid = launchGrid(dims);
  CUresult result = driver().cuLaunchKernel(
      function, grid[0], grid[1], grid[2], dims.block[0], dims.block[1],
      dims.block[2], dims.dynamicSharedMemory, stream, args.pointers(),
      nullptr);
  if (result == CUDA_SUCCESS)
    return;
  std::string persistent;
  if (kernel.persistent)
    persistent = ", persistent over the listed grid " +
                 std::to_string(dims.grid[0]) + "x" +
                 std::to_string(dims.grid[1]);
  if (kernel.cluster > 1)
    persistent += ", in clusters of " + std::to_string(kernel.cluster);
  checkCuda(result, "launching kernel '" + kernel.name + "' (grid " +
                        std::to_string(grid[0]) + "x" +
                        std::to_string(grid[1]) + "x" +
                        std::to_string(grid[2]) + persistent + ", block " +
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

double RunReport::kernelBandwidth() const {
  return kernelTimed && kernelTime.medianMs > 0
             ? static_cast<double>(bytes) / (kernelTime.medianMs * 1e6)
             : 0;
}

double RunReport::copyBandwidth() const {
  return copyTimed && copyTime.medianMs > 0
             ? static_cast<double>(bytes) / (copyTime.medianMs * 1e6)
             : 0;
}

GemmRunner::GemmRunner(const Device &device, const KernelManifest &manifest,
                       CompiledKernel *kernel)
    : device(device), manifest(manifest), kernel(kernel), libraries(device) {}

GemmRunner::~GemmRunner() = default;

namespace {

/// "A (256x128 f16)", "the kernel's A (8 x 256x128 f16, ld 136, offset 3)".
std::string describeMatrix(const std::string &name,
                           const MatrixStorage &storage, ElementType type,
                           bool withLayout) {
  std::string text = name + " (";
  if (storage.batch > 1)
    text += std::to_string(storage.batch) + " x ";
  text += std::to_string(storage.rows) + "x" + std::to_string(storage.cols) +
          " " + elementTypeName(type);
  if (withLayout)
    text += ", ld " + std::to_string(storage.ld) + ", offset " +
            std::to_string(storage.offset);
  return text + ")";
}

/// C's initial contents, packed: random when the epilogue reads it, and
/// poisoned otherwise (NaN in floats, INT32_MIN in s32), so that an element
/// the kernel never writes cannot pass the check.
std::vector<uint8_t> initialC(const GemmSpec &spec, int64_t elements,
                              uint64_t seed) {
  if (spec.beta != 0)
    return makeRandomMatrix(spec.c.type, elements, seed, DataStream::C);
  size_t bytes = static_cast<size_t>(storageBytes(spec.c.type, elements));
  if (spec.c.type != ElementType::S32)
    return std::vector<uint8_t>(bytes, kFloatPoisonByte);
  std::vector<uint8_t> words(bytes);
  for (size_t i = 0; i + 4 <= bytes; i += 4)
    std::memcpy(words.data() + i, &kIntPoison, 4);
  return words;
}

/// The epilogue's operands on the device, one per epilogue argument in args
/// order (into `buffers`), random from the seed; and the kernel's steps as
/// the reference epilogue takes them, reading those buffers.
std::vector<ReferenceEpilogueStep>
makeEpilogueOperands(const Device &device, const KernelManifest &kernel,
                     const GemmShape &shape, uint64_t seed,
                     std::vector<DeviceBuffer> &buffers) {
  std::vector<CUdeviceptr> byArg(kernel.args.size(), 0);
  std::vector<size_t> indices = epilogueArgIndices(kernel);
  for (size_t j = 0; j < indices.size(); ++j) {
    size_t index = indices[j];
    EpilogueOperandShape operand = epilogueOperandShape(kernel, index, shape);
    ElementType type = kernel.args[index].type;
    std::vector<uint8_t> host =
        makeEpilogueOperand(operand.step.op, type, operand.elements, seed, j);
    buffers.emplace_back(device, host.size(),
                         "epilogue operand " +
                             describeEpilogueOperand(kernel, index, shape));
    buffers.back().upload(host.data(), host.size());
    byArg[index] = buffers.back().address();
  }
  std::vector<ReferenceEpilogueStep> steps;
  for (const EpilogueStep &step : kernel.epilogue) {
    ReferenceEpilogueStep out;
    out.op = step.op;
    out.broadcast = step.broadcast;
    if (takesOperand(step.op)) {
      out.operand = byArg[static_cast<size_t>(step.arg)];
      out.type = kernel.args[static_cast<size_t>(step.arg)].type;
    }
    steps.push_back(out);
  }
  return steps;
}

} // namespace

RunReport GemmRunner::run(const GemmShape &shape, const RunOptions &options) {
  device.makeCurrent();
  checkRequirements(manifest, shape);
  LaunchDims dims = computeLaunch(manifest, shape);
  OperandStorages storage = resolveStorage(manifest, shape, options.storage);
  const GemmSpec &spec = manifest.gemm;

  RunReport report;
  report.kernel = manifest.name;
  report.lowering = manifest.lowering;
  report.chip = manifest.chip;
  report.device = device.info().describe();
  report.gemm = spec;
  report.shape = shape;
  report.storage = storage;
  report.epilogue = describeEpilogue(manifest);
  report.bytes = shape.batch * (storageBytes(spec.a.type, shape.m * shape.k) +
                                storageBytes(spec.b.type, shape.n * shape.k) +
                                storageBytes(spec.c.type, shape.m * shape.n));
  for (size_t index : epilogueArgIndices(manifest))
    report.bytes +=
        storageBytes(manifest.args[index].type,
                     epilogueOperandShape(manifest, index, shape).elements);

  Stream stream;
  // A and B: the packed matrices, which the reference reads, and where the
  // kernel's storage is not packed, the kernel's allocation: random bytes
  // with the same matrices written over them.
  auto makeOperand = [&](const char *name, ElementType type,
                         const MatrixStorage &layout, DataStream data,
                         DataStream padding, DeviceBuffer &packed,
                         DeviceBuffer &forKernel) {
    std::vector<uint8_t> host = makeRandomMatrix(
        type, layout.packedElements(), options.seed, data);
    packed = DeviceBuffer(device, host.size(),
                          describeMatrix(name, layout, type, false));
    packed.upload(host.data(), host.size());
    if (!kernel || layout.isPacked())
      return;
    size_t bytes =
        static_cast<size_t>(storageBytes(type, layout.allocationElements()));
    std::vector<uint8_t> allocation = scatterToStorage(
        type, layout, host.data(),
        makeRandomBytes(bytes, options.seed, padding));
    forKernel =
        DeviceBuffer(device, allocation.size(),
                     describeMatrix(std::string("the kernel's ") + name,
                                    layout, type, true));
    forKernel.upload(allocation.data(), allocation.size());
  };
  DeviceBuffer a, b, aKernel, bKernel;
  makeOperand("A", spec.a.type, storage[0], DataStream::A,
              DataStream::PaddingA, a, aKernel);
  makeOperand("B", spec.b.type, storage[1], DataStream::B,
              DataStream::PaddingB, b, bKernel);

  // C: the initial C, packed, for the reference; and for the kernel the
  // same in its storage, with random bytes in the padding that must come
  // back unchanged.
  const MatrixStorage &cStorage = storage[2];
  size_t cBytes = static_cast<size_t>(
      storageBytes(spec.c.type, cStorage.packedElements()));
  DeviceBuffer initialPackedC(
      device, cBytes,
      describeMatrix("the initial C", cStorage, spec.c.type, false));
  std::vector<uint8_t> cAllocation; // the kernel's C before it ran
  DeviceBuffer initialKernelC;
  {
    std::vector<uint8_t> cHost =
        initialC(spec, cStorage.packedElements(), options.seed);
    initialPackedC.upload(cHost.data(), cHost.size());
    if (kernel && !cStorage.isPacked()) {
      size_t bytes = static_cast<size_t>(
          storageBytes(spec.c.type, cStorage.allocationElements()));
      cAllocation = scatterToStorage(
          spec.c.type, cStorage, cHost.data(),
          makeRandomBytes(bytes, options.seed, DataStream::PaddingC));
      initialKernelC = DeviceBuffer(
          device, cAllocation.size(),
          describeMatrix("the kernel's initial C", cStorage, spec.c.type,
                         true));
      initialKernelC.upload(cAllocation.data(), cAllocation.size());
      if (!options.check)
        std::vector<uint8_t>().swap(cAllocation); // only the check needs it
    }
  }
  const DeviceBuffer &kernelInitialC =
      initialKernelC.address() ? initialKernelC : initialPackedC;

  // The epilogue's operands, packed, which the kernel and the reference
  // both read.
  std::vector<DeviceBuffer> epilogueOperands;
  std::vector<ReferenceEpilogueStep> referenceSteps = makeEpilogueOperands(
      device, manifest, shape, options.seed, epilogueOperands);

  std::unique_ptr<Reference> reference;
  if (options.timeAnchor || (options.check && kernel))
    reference =
        std::make_unique<Reference>(device, libraries, spec, shape, a.address(),
                                    b.address(), stream, referenceSteps);

  DeviceBuffer c(device, kernelInitialC.size(),
                 describeMatrix("C", cStorage, spec.c.type,
                                !cStorage.isPacked()));
  auto kernelAddress = [](const DeviceBuffer &packed,
                          const DeviceBuffer &forKernel) {
    return forKernel.address() ? forKernel.address() : packed.address();
  };
  OperandAddresses addresses;
  addresses.a = kernelAddress(a, aKernel);
  addresses.b = kernelAddress(b, bKernel);
  addresses.c = c.address();
  for (const DeviceBuffer &operand : epilogueOperands)
    addresses.epilogue.push_back(operand.address());
  // The workspace (split K's semaphores and parts, the transposed copies),
  // zeroed once: each launch leaves its semaphores at zero for the next,
  // and writes its copies before the kernel reads them.
  DeviceBuffer workspace;
  if (int64_t bytes = workspaceBytes(manifest, shape); bytes > 0 && kernel) {
    workspace = DeviceBuffer(device, static_cast<size_t>(bytes),
                             "the workspace of kernel '" + manifest.name + "'");
    workspace.fillBytes(0);
    addresses.workspace = workspace.address();
  }
  // Declared before `args`, which carries the addresses of its descriptors.
  // Encoded only for a kernel that is launched (not with --cublas-only).
  TensorMaps tensorMaps;
  if (kernel)
    tensorMaps = TensorMaps(device, manifest, storage, addresses);
  KernelArgs args(manifest, storage, addresses);
  if (kernel)
    tensorMaps.applyTo(args);
  std::string kernelWhat = "kernel '" + manifest.name + "'";
  if (kernel) {
    c.copyFrom(kernelInitialC);
    kernel->launch(dims, args, stream.get());
    stream.synchronize(kernelWhat + " failed");
  }

  if (kernel && options.check) {
    std::vector<uint8_t> got(c.size()), expected(cBytes);
    c.download(got.data(), got.size());
    PaddingChange padding;
    if (!cStorage.isPacked()) {
      padding = comparePadding(spec.c.type, cStorage, cAllocation.data(),
                               got.data());
      got = gatherFromStorage(spec.c.type, cStorage, got.data());
    }
    const DeviceBuffer &ref = reference->compute(initialPackedC, stream);
    ref.download(expected.data(), cBytes);
    report.checked = true;
    report.checkedAgainst = reference->checkName();
    report.comparison =
        compareBatch(spec.c.type, got.data(), expected.data(), shape.batch,
                     shape.batched, shape.m, shape.n,
                     toleranceFor(spec, shape.k, !manifest.epilogue.empty()));
    if (padding.changed > 0) {
      report.comparison.passed = false;
      report.comparison.paddingChanged = padding.changed;
      report.comparison.paddingWhere =
          describeStorageIndex(cStorage, padding.first);
    }
  }

  // The bandwidth copy's buffers, allocated before anything is timed (so
  // that running out of memory for them fails early): half the bytes each
  // way, so that the copy moves what the GEMM moves; non-zero contents,
  // though a copy's speed does not depend on them.
  bool timeCopy = options.timeCopy && options.reps > 0;
  size_t half = static_cast<size_t>((report.bytes + 1) / 2);
  DeviceBuffer from, to;
  if (timeCopy) {
    from = DeviceBuffer(device, half, "the copy's source");
    to = DeviceBuffer(device, half, "the copy's destination");
    from.fillBytes(0x5a);
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
    if (!manifest.epilogue.empty())
      report.anchorNote +=
          std::string(report.anchorNote.empty() ? "" : "; ") +
          "the anchor is the plain library GEMM, without the kernel's "
          "epilogue (" +
          report.epilogue + ")";
    std::string batchNote = reference->anchorBatchNote();
    if (!batchNote.empty())
      report.anchorNote +=
          (report.anchorNote.empty() ? "" : "; ") + batchNote;
    bool padded = false;
    for (const MatrixStorage &operand : storage)
      padded = padded || !operand.isPacked();
    if (padded)
      report.anchorNote += std::string(report.anchorNote.empty() ? "" : "; ") +
                           "the anchor reads packed copies of the operands";
    report.anchorTime = timeLaunches(
        stream, flusher.get(), options.warmup, options.reps,
        [&](CUstream s) { reference->runAnchor(s); },
        "the anchor (" + report.anchorName + ")");
    report.anchorTimed = true;
  }
  if (timeCopy) {
    report.copyTime = timeLaunches(
        stream, flusher.get(), options.warmup, options.reps,
        [&](CUstream s) {
          checkCuda(driver().cuMemcpyDtoDAsync(to.address(), from.address(),
                                               half, s),
                    "the bandwidth copy");
        },
        "the bandwidth copy");
    report.copyTimed = true;
  }
  return report;
}

} // namespace tgemm::runtime
