//===- Launcher.cpp - Launch a compiled GEMM on the caller's memory -------===//

#include "tgemm/runtime/Launcher.h"

#include "tgemm/runtime/Driver.h"
#include "tgemm/runtime/Error.h"

#include <cstdio>
#include <string>

namespace tgemm::runtime {

namespace {

std::string hexAddress(uint64_t address) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(address));
  return text;
}

/// The storage of one operand from the caller's view, checked.
MatrixStorage resolveOperand(const KernelManifest &kernel,
                             const GemmShape &shape, Operand operand,
                             const OperandView &view) {
  const OperandSpec &spec = operand == Operand::A   ? kernel.gemm.a
                            : operand == Operand::B ? kernel.gemm.b
                                                    : kernel.gemm.c;
  const KernelArg &arg = operandArg(kernel, operand);
  std::string name = std::string("argument '") + operandName(operand) + "'";
  MatrixShape stored = storedShape(operand, spec.layout, shape);
  std::string storedText =
      std::to_string(stored.rows) + " x " + std::to_string(stored.cols) +
      " " + elementTypeName(arg.type) + " (layout " + layoutName(spec.layout) +
      ")";
  int bits = elementBits(arg.type);
  if (view.data == 0)
    fail(ErrorKind::Usage, name + " is a null pointer");
  // Sub-byte elements start on bytes; the others on their own size.
  uint64_t alignment = static_cast<uint64_t>(bits < 8 ? 1 : bits / 8);
  if (view.data % alignment != 0)
    fail(ErrorKind::Usage, name + " at " + hexAddress(view.data) +
                               " is not aligned to its " +
                               elementTypeName(arg.type) + " elements (" +
                               std::to_string(alignment) + " bytes)");
  if (view.ld < 0 || view.batchStride < 0)
    fail(ErrorKind::Usage, name + " has a negative stride (ld " +
                               std::to_string(view.ld) + ", batch stride " +
                               std::to_string(view.batchStride) + ")");
  MatrixStorage storage;
  storage.batch = shape.batch;
  storage.rows = stored.rows;
  storage.cols = stored.cols;
  storage.ld = view.ld != 0 ? view.ld : stored.cols;
  storage.offset = 0;
  if (storage.ld < stored.cols)
    fail(ErrorKind::Usage, name + " is " + storedText +
                               ": its leading dimension " +
                               std::to_string(storage.ld) +
                               " is less than its row length " +
                               std::to_string(stored.cols));
  if (bits < 8 && storage.ld % (8 / bits) != 0)
    fail(ErrorKind::Usage, name + " is " + elementTypeName(arg.type) +
                               ": its leading dimension must be even, for "
                               "every row to start on a byte");
  if (storage.ld > kMaxMatrixElements / std::max<int64_t>(stored.rows, 1))
    fail(ErrorKind::Unsupported,
         name + " would span more than 2^48 elements");
  int64_t packedMatrix = stored.rows * storage.ld;
  if (!shape.batched && view.batchStride != 0)
    fail(ErrorKind::Usage, name + " has a batch stride, but kernel '" +
                               kernel.name + "' is not batched");
  storage.batchStride =
      view.batchStride != 0 ? view.batchStride : packedMatrix;
  // C's matrices must not overlap: every one is written.
  if (operand == Operand::C && shape.batch > 1 &&
      storage.batchStride < packedMatrix)
    fail(ErrorKind::Usage,
         name + " is " + storedText + " with leading dimension " +
             std::to_string(storage.ld) + ": a batch stride of " +
             std::to_string(storage.batchStride) +
             " would overlap its matrices (at least " +
             std::to_string(packedMatrix) + ")");
  if (shape.batch > 1 &&
      storage.batchStride > kMaxMatrixElements / (shape.batch - 1))
    fail(ErrorKind::Unsupported,
         name + " would span more than 2^48 elements");
  if (!arg.strided) {
    std::string compiled = " (compile it from a strided memref, e.g. "
                           "strided<[?, 1], offset: ?>, to take any)";
    if (storage.ld != stored.cols)
      fail(ErrorKind::Unsupported,
           name + " of kernel '" + kernel.name + "' is compiled for packed "
               "rows: " + storedText + " needs leading dimension " +
               std::to_string(stored.cols) + ", got " +
               std::to_string(storage.ld) + compiled);
    if (shape.batched && storage.batchStride != packedMatrix)
      fail(ErrorKind::Unsupported,
           name + " of kernel '" + kernel.name + "' is compiled for packed "
               "matrices: its batch stride must be " +
               std::to_string(packedMatrix) + ", got " +
               std::to_string(storage.batchStride) + compiled);
  }
  return storage;
}

/// "(epilogue0: bias(col) f32[4096], epilogue1: residual f16[256 x 4096])".
std::string describeEpilogueOperands(const KernelManifest &kernel,
                                     const GemmShape &shape) {
  std::string text;
  for (size_t i : epilogueArgIndices(kernel))
    text +=
        (text.empty() ? "" : ", ") + describeEpilogueOperand(kernel, i, shape);
  return "(" + text + ")";
}

/// The epilogue operands' addresses, checked: one per epilogue argument,
/// each non-null and aligned to its element.
std::vector<uint64_t> resolveEpilogue(const KernelManifest &kernel,
                                      const GemmShape &shape,
                                      const std::vector<uint64_t> &given) {
  std::vector<size_t> indices = epilogueArgIndices(kernel);
  if (given.size() != indices.size()) {
    std::string what = "kernel '" + kernel.name + "'";
    if (indices.empty())
      fail(ErrorKind::Usage, what + " has no epilogue operands; got " +
                                 std::to_string(given.size()));
    fail(ErrorKind::Usage, what + "'s epilogue reads " +
                               std::to_string(indices.size()) + " operand" +
                               (indices.size() == 1 ? " " : "s ") +
                               describeEpilogueOperands(kernel, shape) +
                               ", got " + std::to_string(given.size()));
  }
  for (size_t j = 0; j < indices.size(); ++j) {
    const KernelArg &arg = kernel.args[indices[j]];
    std::string name = "epilogue operand " +
                       describeEpilogueOperand(kernel, indices[j], shape);
    if (given[j] == 0)
      fail(ErrorKind::Usage, name + " is a null pointer");
    uint64_t alignment = static_cast<uint64_t>(elementBits(arg.type) / 8);
    if (given[j] % alignment != 0)
      fail(ErrorKind::Usage, name + " at " + hexAddress(given[j]) +
                                 " is not aligned to its " +
                                 elementTypeName(arg.type) + " elements (" +
                                 std::to_string(alignment) + " bytes)");
  }
  return given;
}

/// What the kernel uses its workspace for: "splits K into 4 parts", "reads
/// B from a transposed copy", "splits K into 4 parts, reads A and B from
/// transposed copies", "reads A from an aligned copy".
std::string describeWorkspaceUse(const KernelManifest &kernel) {
  std::string text;
  if (kernel.config.splitK > 1)
    text = "splits K into " + std::to_string(kernel.config.splitK) + " parts";
  for (bool transpose : {true, false}) {
    std::string operands;
    int count = 0;
    for (const OperandTranspose &t : kernel.transposes)
      if (t.transpose == transpose) {
        operands += std::string(operands.empty() ? "" : " and ") +
                    (t.operand == Operand::A ? "A" : "B");
        ++count;
      }
    if (!count)
      continue;
    const char *kind = transpose ? "transposed" : "aligned";
    text += std::string(text.empty() ? "" : ", ") + "reads " + operands +
            (count == 1 ? std::string(" from a") + (transpose ? " " : "n ") +
                              kind + " copy"
                        : std::string(" from ") + kind + " copies");
  }
  return text;
}

} // namespace

ResolvedLaunch resolveLaunch(const KernelManifest &kernel,
                             const LaunchRequest &request) {
  auto size = [](std::optional<int64_t> v, const char *what) {
    if (v && *v < 1)
      fail(ErrorKind::Usage, std::string(what) + " must be positive, got " +
                                 std::to_string(*v));
    return v;
  };
  ResolvedLaunch resolved;
  resolved.shape = resolveShape(kernel, size(request.m, "M"),
                                size(request.n, "N"), size(request.k, "K"),
                                size(request.batch, "the batch"));
  checkRequirements(kernel, resolved.shape);
  resolved.dims = computeLaunch(kernel, resolved.shape);
  for (int i = 0; i < 3; ++i)
    resolved.storages[i] =
        resolveOperand(kernel, resolved.shape, static_cast<Operand>(i),
                       request.operands[i]);
  resolved.addresses.a = request.operands[0].data;
  resolved.addresses.b = request.operands[1].data;
  resolved.addresses.c = request.operands[2].data;
  resolved.addresses.epilogue =
      resolveEpilogue(kernel, resolved.shape, request.epilogue);
  if (int64_t needed = workspaceBytes(kernel, resolved.shape); needed > 0) {
    std::string what =
        "kernel '" + kernel.name + "' " + describeWorkspaceUse(kernel) +
        " and needs a workspace of " + std::to_string(needed) +
        " bytes for shape " + resolved.shape.str() +
        (kernel.config.splitK > 1 ? " (zeroed before its first launch)" : "");
    if (request.workspace == 0)
      fail(ErrorKind::Usage, what + "; got none");
    if (request.workspaceBytes < needed)
      fail(ErrorKind::Usage,
           what + "; got " + std::to_string(request.workspaceBytes));
    if (request.workspace % 256 != 0)
      fail(ErrorKind::Usage, what + ", 256-byte aligned; got address " +
                                 std::to_string(request.workspace));
    resolved.addresses.workspace = request.workspace;
  }
  return resolved;
}

KernelLauncher::KernelLauncher(const Device &device,
                               const KernelManifest &kernel,
                               const KernelBinary &binary)
    : device(device),
      compiled(std::make_unique<CompiledKernel>(device, kernel, binary)) {}

PreparedLaunch KernelLauncher::prepare(const LaunchRequest &request) const {
  const KernelManifest &kernel = manifest();
  ResolvedLaunch resolved = resolveLaunch(kernel, request);
  device.makeCurrent();
  // Each address must be memory the driver knows (device, managed or
  // registered host memory), so that a host pointer is an error here and
  // not a fault in the kernel.
  const DriverApi &cu = driver();
  auto requireDeviceMemory = [&](uint64_t address, const std::string &name) {
    unsigned int memoryType = 0;
    CUresult result =
        cu.cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 static_cast<CUdeviceptr>(address));
    if (result != CUDA_SUCCESS)
      fail(ErrorKind::Usage, name + " at " + hexAddress(address) +
                                 " is not memory CUDA knows (a host "
                                 "pointer?)");
  };
  for (int i = 0; i < 3; ++i)
    requireDeviceMemory(request.operands[i].data,
                        std::string("argument '") +
                            operandName(static_cast<Operand>(i)) + "'");
  std::vector<size_t> epilogueArgs = epilogueArgIndices(kernel);
  for (size_t j = 0; j < epilogueArgs.size(); ++j)
    requireDeviceMemory(request.epilogue[j],
                        "epilogue operand '" +
                            kernel.args[epilogueArgs[j]].name + "'");
  TensorMaps maps;
  if (!kernel.tensorMaps.empty())
    maps = TensorMaps(&device, kernel, resolved.storages, resolved.addresses);
  KernelArgs args(kernel, resolved.storages, resolved.addresses);
  maps.applyTo(args);
  return PreparedLaunch{resolved, std::move(maps), std::move(args)};
}

void KernelLauncher::launch(PreparedLaunch &prepared, CUstream stream) const {
  device.makeCurrent();
  compiled->launch(prepared.resolved.dims, prepared.args, stream);
}

void KernelLauncher::launch(const LaunchRequest &request) const {
  PreparedLaunch prepared = prepare(request);
  launch(prepared, request.stream);
}

} // namespace tgemm::runtime
