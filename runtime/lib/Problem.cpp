//===- Problem.cpp - Problem sizes, requirements and launch dimensions ----===//

#include "tgemm/runtime/Problem.h"

#include "tgemm/runtime/Error.h"

namespace tgemm::runtime {

std::string GemmShape::str() const {
  return "M=" + std::to_string(m) + " N=" + std::to_string(n) +
         " K=" + std::to_string(k) +
         (batched ? " batch=" + std::to_string(batch) : "");
}

namespace {
const char *upperDimName(Dim dim) {
  switch (dim) {
  case Dim::M:
    return "M";
  case Dim::N:
    return "N";
  case Dim::K:
    return "K";
  case Dim::Batch:
    return "batch";
  }
  return "?";
}

/// Reconciles the batch size of the command line with the kernel's.
void resolveBatch(const KernelManifest &kernel, std::optional<int64_t> given,
                  GemmShape &shape) {
  if (given && *given < 1)
    fail(ErrorKind::Usage,
         "the batch size must be positive, got " + std::to_string(*given));
  if (!kernel.batched) {
    if (given)
      fail(ErrorKind::Unsupported,
           "kernel '" + kernel.name + "' is not batched (its manifest's "
           "problem has no \"batch\"); --batch " + std::to_string(*given) +
           " asks for a batch of GEMMs");
    return;
  }
  shape.batched = true;
  if (kernel.batch && given && *kernel.batch != *given)
    fail(ErrorKind::Unsupported,
         "kernel '" + kernel.name +
             "' was compiled for the static batch size " +
             std::to_string(*kernel.batch) + "; --batch " +
             std::to_string(*given) + " asks for another");
  if (!kernel.batch && !given)
    fail(ErrorKind::Usage, "kernel '" + kernel.name +
                               "' has a dynamic batch size; give it with "
                               "--batch");
  shape.batch = given ? *given : *kernel.batch;
}
} // namespace

GemmShape resolveShape(const KernelManifest &kernel,
                       std::optional<int64_t> m, std::optional<int64_t> n,
                       std::optional<int64_t> k,
                       std::optional<int64_t> batch) {
  std::optional<int64_t> given[3] = {m, n, k};
  int64_t sizes[3];
  for (int i = 0; i < 3; ++i) {
    Dim dim = static_cast<Dim>(i);
    const std::optional<int64_t> &compiled = kernel.problem[i];
    if (given[i] && *given[i] < 1)
      fail(ErrorKind::Usage, std::string(upperDimName(dim)) +
                                 " must be positive, got " +
                                 std::to_string(*given[i]));
    if (compiled && given[i] && *compiled != *given[i])
      fail(ErrorKind::Unsupported,
           "kernel '" + kernel.name + "' was compiled for the static size " +
               upperDimName(dim) + "=" + std::to_string(*compiled) + "; --" +
               dimName(dim) + " " + std::to_string(*given[i]) +
               " asks for another");
    if (!compiled && !given[i])
      fail(ErrorKind::Usage, "kernel '" + kernel.name + "' has a dynamic " +
                                 upperDimName(dim) + "; give it with --" +
                                 dimName(dim));
    sizes[i] = given[i] ? *given[i] : *compiled;
  }
  GemmShape shape{sizes[0], sizes[1], sizes[2]};
  resolveBatch(kernel, batch, shape);
  // Element counts and byte sizes of the matrices are products of two sizes
  // and the batch (times at most 32 bits); bounding them here keeps every
  // such product in int64, far above what any device holds.
  const struct {
    const char *matrix;
    Dim rows, cols;
  } matrices[] = {{"A", Dim::M, Dim::K}, {"B", Dim::K, Dim::N},
                  {"C", Dim::M, Dim::N}};
  for (const auto &m : matrices) {
    int64_t rows = shape.get(m.rows), cols = shape.get(m.cols);
    if (rows > kMaxMatrixElements / cols)
      fail(ErrorKind::Unsupported,
           "shape " + shape.str() + ": " + m.matrix + " would have " +
               upperDimName(m.rows) + "*" + upperDimName(m.cols) +
               " elements, more than 2^48");
    if (shape.batch > kMaxMatrixElements / (rows * cols))
      fail(ErrorKind::Unsupported,
           "shape " + shape.str() + ": " + m.matrix + " would have batch*" +
               upperDimName(m.rows) + "*" + upperDimName(m.cols) +
               " elements, more than 2^48");
  }
  return shape;
}

void checkRequirements(const KernelManifest &kernel, const GemmShape &shape) {
  for (const Requirement &r : kernel.requirements) {
    int64_t size = shape.get(r.dim);
    if (size % r.multipleOf == 0)
      continue;
    fail(ErrorKind::Unsupported,
         "shape " + shape.str() + " breaks a requirement of kernel '" +
             kernel.name + "': " + upperDimName(r.dim) + " must be a multiple of " +
             std::to_string(r.multipleOf) + " (" + std::to_string(size) +
             " = " + std::to_string(size / r.multipleOf) + "*" +
             std::to_string(r.multipleOf) + " + " +
             std::to_string(size % r.multipleOf) + ")");
  }
}

LaunchDims computeLaunch(const KernelManifest &kernel, const GemmShape &shape) {
  static const char *axes[3] = {"x", "y", "z"};
  // CUDA's limits on grid extents.
  static const int64_t maxGrid[3] = {2147483647, 65535, 65535};
  LaunchDims dims;
  for (int i = 0; i < 3; ++i) {
    const GridExtent &extent = kernel.grid[i];
    int64_t value = extent.value;
    // ceil(D / T): the kernel guards the partial tiles at the edges. (Not
    // as (D + T - 1) / T, which overflows for a manifest's tile near 2^63.)
    if (extent.isTiled) {
      int64_t size = shape.get(extent.dim);
      value = size / extent.tile + (size % extent.tile != 0);
    }
    // times <= kMaxSplitK (the reader's check): no overflow past maxGrid.
    if (value <= maxGrid[i])
      value *= extent.times;
    if (value > maxGrid[i])
      fail(ErrorKind::Unsupported,
           "grid." + std::string(axes[i]) + " = " + std::to_string(value) +
               " exceeds CUDA's limit of " + std::to_string(maxGrid[i]) +
               " for shape " + shape.str());
    dims.grid[i] = static_cast<uint32_t>(value);
    dims.block[i] = static_cast<uint32_t>(kernel.block[i]);
  }
  if (kernel.dynamicSharedMemory > UINT32_MAX)
    fail(ErrorKind::Unsupported, "dynamic_shared_memory " +
                                     std::to_string(kernel.dynamicSharedMemory) +
                                     " bytes is beyond any device");
  dims.dynamicSharedMemory =
      static_cast<uint32_t>(kernel.dynamicSharedMemory);
  for (const OperandTranspose &transpose : kernel.transposes)
    computeTransposeLaunch(kernel, transpose, shape);
  return dims;
}

namespace {
int64_t roundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// Split K's part of the workspace: its semaphores and parts; 0 without
/// split K.
int64_t splitKBytes(const KernelManifest &kernel, const GemmShape &shape) {
  int64_t parts = kernel.config.splitK;
  if (parts <= 1)
    return 0;
  auto tiles = [](int64_t size, int64_t tile) {
    return size / tile + (size % tile != 0);
  };
  // resolveShape bounds batch x M x N by 2^48 elements, so none of these
  // overflows.
  int64_t semaphores = shape.batch * tiles(shape.m, kernel.config.block[0]) *
                       tiles(shape.n, kernel.config.block[1]);
  int64_t semaphoreBytes = roundUp(semaphores * 4, 256);
  int64_t partBytes = shape.batch * parts * shape.m * shape.n *
                      (elementBits(kernel.gemm.acc) / 8);
  return semaphoreBytes + partBytes;
}

const OperandSpec &specOf(const KernelManifest &kernel, Operand operand) {
  return operand == Operand::A   ? kernel.gemm.a
         : operand == Operand::B ? kernel.gemm.b
                                 : kernel.gemm.c;
}

/// The copy of `operand` with its storage and size, not yet placed.
TransposedCopy unplacedCopy(const KernelManifest &kernel, Operand operand,
                            const GemmShape &shape) {
  const OperandSpec &spec = specOf(kernel, operand);
  MatrixShape stored = storedShape(operand, spec.layout, shape);
  // Rows start on 16 bytes, as a tensor map's rows must.
  int64_t perChunk = 128 / elementBits(spec.type);
  const OperandTranspose *entry = findTranspose(kernel, operand);
  bool transpose = !entry || entry->transpose;
  TransposedCopy copy;
  copy.storage.batch = shape.batch;
  copy.storage.rows = transpose ? stored.cols : stored.rows;
  copy.storage.cols = transpose ? stored.rows : stored.cols;
  copy.storage.ld = roundUp(copy.storage.cols, perChunk);
  copy.storage.batchStride = copy.storage.rows * copy.storage.ld;
  copy.storage.offset = 0;
  // resolveShape bounds batch x R x C by 2^48; the padding adds less than
  // 32 elements a row.
  copy.bytes =
      roundUp(storageBytes(spec.type, copy.storage.allocationElements()), 256);
  return copy;
}
} // namespace

int64_t workspaceBytes(const KernelManifest &kernel, const GemmShape &shape) {
  int64_t bytes = splitKBytes(kernel, shape);
  for (Operand operand : {Operand::A, Operand::B})
    if (findTranspose(kernel, operand))
      bytes = roundUp(bytes, 256) + unplacedCopy(kernel, operand, shape).bytes;
  return bytes;
}

bool takesWorkspace(const KernelManifest &kernel) {
  return kernel.config.splitK > 1 || !kernel.transposes.empty();
}

TransposedCopy transposedCopy(const KernelManifest &kernel, Operand operand,
                              const GemmShape &shape) {
  if (!findTranspose(kernel, operand))
    fail(ErrorKind::Input, "kernel '" + kernel.name + "' reads " +
                               operandName(operand) +
                               " where it is stored, not from a copy");
  // Split K's part first, then A's copy, then B's.
  int64_t offset = roundUp(splitKBytes(kernel, shape), 256);
  if (operand == Operand::B && findTranspose(kernel, Operand::A))
    offset += unplacedCopy(kernel, Operand::A, shape).bytes;
  TransposedCopy copy = unplacedCopy(kernel, operand, shape);
  copy.offset = offset;
  return copy;
}

LaunchDims computeTransposeLaunch(const KernelManifest &kernel,
                                  const OperandTranspose &transpose,
                                  const GemmShape &shape) {
  static const char *axes[3] = {"x", "y", "z"};
  static const int64_t maxGrid[3] = {2147483647, 65535, 65535};
  MatrixShape stored = storedShape(
      transpose.operand, specOf(kernel, transpose.operand).layout, shape);
  auto tiles = [](int64_t size, int64_t tile) {
    return size / tile + (size % tile != 0);
  };
  int64_t grid[3] = {tiles(stored.cols, transpose.tile[1]),
                     tiles(stored.rows, transpose.tile[0]), shape.batch};
  LaunchDims dims;
  for (int i = 0; i < 3; ++i) {
    if (grid[i] > maxGrid[i])
      fail(ErrorKind::Unsupported,
           std::string(transpose.transpose ? "the transposing"
                                           : "the aligning") +
               " kernel '" + transpose.kernel + "' of operand " +
               operandName(transpose.operand) + " needs grid." + axes[i] +
               " = " + std::to_string(grid[i]) + ", beyond CUDA's limit of " +
               std::to_string(maxGrid[i]) + " for shape " + shape.str());
    dims.grid[i] = static_cast<uint32_t>(grid[i]);
  }
  dims.block = {static_cast<uint32_t>(transpose.threads), 1, 1};
  dims.dynamicSharedMemory = 0;
  return dims;
}

MatrixShape storedShape(Operand operand, Layout layout,
                        const GemmShape &shape) {
  switch (operand) {
  case Operand::A:
    return layout == Layout::Row ? MatrixShape{shape.m, shape.k}
                                 : MatrixShape{shape.k, shape.m};
  case Operand::B:
    return layout == Layout::Row ? MatrixShape{shape.k, shape.n}
                                 : MatrixShape{shape.n, shape.k};
  case Operand::C:
    return MatrixShape{shape.m, shape.n};
  }
  return {};
}

} // namespace tgemm::runtime

namespace tgemm::runtime {

namespace {

const char *upperOperandName(Operand operand) {
  return operand == Operand::A ? "A" : operand == Operand::B ? "B" : "C";
}

/// "A (layout row) is stored as M x K = 256 x 128".
std::string describeStored(Operand operand, Layout layout,
                           const GemmShape &shape) {
  const char *dims = operand == Operand::C     ? "M x N"
                     : operand == Operand::A   ? (layout == Layout::Row
                                                      ? "M x K"
                                                      : "K x M")
                                               : (layout == Layout::Row
                                                      ? "K x N"
                                                      : "N x K");
  MatrixShape stored = storedShape(operand, layout, shape);
  return std::string(upperOperandName(operand)) + " (layout " +
         layoutName(layout) + ") is stored as " + dims + " = " +
         std::to_string(stored.rows) + " x " + std::to_string(stored.cols);
}

} // namespace

OperandStorages resolveStorage(const KernelManifest &kernel,
                               const GemmShape &shape,
                               const StorageRequests &requests) {
  static const char *ldOptions[3] = {"--lda", "--ldb", "--ldc"};
  static const char *offsetOptions[3] = {"--offset-a", "--offset-b",
                                         "--offset-c"};
  OperandStorages storages;
  for (int i = 0; i < 3; ++i) {
    Operand operand = static_cast<Operand>(i);
    const OperandSpec &spec = operand == Operand::A   ? kernel.gemm.a
                              : operand == Operand::B ? kernel.gemm.b
                                                      : kernel.gemm.c;
    const StorageRequest &request = requests[i];
    const KernelArg *arg = findOperandArg(kernel, operand);
    bool strided = arg && arg->strided;
    MatrixShape stored = storedShape(operand, spec.layout, shape);
    std::string ldText = request.ld ? std::string(ldOptions[i]) + " " +
                                          std::to_string(*request.ld)
                                    : std::string();
    std::string offsetText =
        request.offset ? std::string(offsetOptions[i]) + " " +
                             std::to_string(*request.offset)
                       : std::string();
    auto notStrided = [&](const std::string &option, const char *needs) {
      fail(ErrorKind::Unsupported,
           option + ": argument '" + operandName(operand) + "' of kernel '" +
               kernel.name + "' is not strided (its manifest entry has no "
               "\"strided\": true), so " + upperOperandName(operand) + " " +
               needs);
    };
    if (request.ld) {
      if (*request.ld < 1)
        fail(ErrorKind::Usage, ldText + ": a leading dimension must be "
                                        "positive");
      if (!strided)
        notStrided(ldText, "must have packed rows");
      if (*request.ld < stored.cols)
        fail(ErrorKind::Usage,
             ldText + " is less than the row length of " +
                 upperOperandName(operand) + ": " +
                 describeStored(operand, spec.layout, shape) +
                 " row-major, so " + ldOptions[i] + " must be at least " +
                 std::to_string(stored.cols));
    }
    if (request.offset) {
      if (*request.offset < 0)
        fail(ErrorKind::Usage, offsetText + ": an offset cannot be negative");
      if (!strided)
        notStrided(offsetText, "must start at offset 0");
    }
    MatrixStorage storage;
    storage.batch = shape.batch;
    storage.rows = stored.rows;
    storage.cols = stored.cols;
    storage.ld = request.ld.value_or(stored.cols);
    storage.offset = request.offset.value_or(0);
    if (spec.type == ElementType::S4) {
      std::string s4 = std::string(upperOperandName(operand)) +
                       " is s4 (two elements per byte), so its ";
      if (request.ld && storage.ld % 2 != 0)
        fail(ErrorKind::Usage, ldText + ": " + s4 +
                                   "leading dimension must be even, for "
                                   "every row to start on a byte");
      if (request.offset && storage.offset % 2 != 0)
        fail(ErrorKind::Usage, offsetText + ": " + s4 +
                                   "offset must be even, for it to start on "
                                   "a byte");
    }
    // offset + batch*rows*ld elements, each step checked against 2^48 (the
    // requests may be as large as int64 allows).
    std::string tooLarge = std::string(upperOperandName(operand)) + " at " +
                           shape.str() +
                           (request.ld ? " with " + ldText : std::string()) +
                           (request.offset ? " with " + offsetText
                                           : std::string()) +
                           " would span more than 2^48 elements";
    if (storage.ld > kMaxMatrixElements / storage.rows)
      fail(ErrorKind::Unsupported, tooLarge);
    storage.batchStride = storage.rows * storage.ld;
    if (storage.batch > kMaxMatrixElements / storage.batchStride)
      fail(ErrorKind::Unsupported, tooLarge);
    if (storage.offset >
        kMaxMatrixElements - storage.batch * storage.batchStride)
      fail(ErrorKind::Unsupported, tooLarge);
    storages[i] = storage;
  }
  return storages;
}

OperandStorages packedStorage(const KernelManifest &kernel,
                              const GemmShape &shape) {
  return resolveStorage(kernel, shape, StorageRequests());
}

GemmShape shapeOfStorages(const KernelManifest &kernel,
                          const OperandStorages &storages) {
  const MatrixStorage &a = storages[static_cast<int>(Operand::A)];
  const MatrixStorage &c = storages[static_cast<int>(Operand::C)];
  GemmShape shape;
  shape.m = c.rows;
  shape.n = c.cols;
  shape.k = kernel.gemm.a.layout == Layout::Row ? a.cols : a.rows;
  shape.batch = c.batch;
  shape.batched = kernel.batched;
  return shape;
}

std::array<int64_t, 3> EpilogueOperandShape::strides() const {
  std::array<int64_t, 3> out = {0, 0, 0};
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    out[i] = stride;
    stride *= sizes[i];
  }
  return out;
}

EpilogueOperandShape epilogueOperandShape(const KernelManifest &kernel,
                                          size_t argIndex,
                                          const GemmShape &shape) {
  if (argIndex >= kernel.args.size() || !kernel.args[argIndex].epilogue)
    fail(ErrorKind::Input, "kernel '" + kernel.name +
                               "' has no epilogue "
                               "argument at index " +
                               std::to_string(argIndex));
  EpilogueOperandShape out;
  bool found = false;
  for (size_t i = 0; i < kernel.epilogue.size() && !found; ++i)
    if (kernel.epilogue[i].arg == static_cast<int>(argIndex)) {
      out.step = kernel.epilogue[i];
      out.stepIndex = i;
      found = true;
    }
  if (!found)
    fail(ErrorKind::Input, "epilogue argument '" + kernel.args[argIndex].name +
                               "' of kernel '" + kernel.name +
                               "' is read by no step");
  if (takesBroadcast(out.step.op)) {
    out.rank = 1;
    out.sizes[0] = out.step.broadcast == Broadcast::Row   ? shape.m
                   : out.step.broadcast == Broadcast::Col ? shape.n
                                                          : 1;
  } else if (shape.batched) {
    out.rank = 3;
    out.sizes = {shape.batch, shape.m, shape.n};
  } else {
    out.rank = 2;
    out.sizes = {shape.m, shape.n, 0};
  }
  out.elements = 1;
  for (int i = 0; i < out.rank; ++i)
    out.elements *= out.sizes[i];
  return out;
}

std::vector<size_t> epilogueArgIndices(const KernelManifest &kernel) {
  std::vector<size_t> out;
  for (size_t i = 0; i < kernel.args.size(); ++i)
    if (kernel.args[i].epilogue)
      out.push_back(i);
  return out;
}

std::string describeEpilogueStep(const EpilogueStep &step) {
  std::string text = epilogueOpName(step.op);
  if (takesBroadcast(step.op))
    text += std::string("(") + broadcastName(step.broadcast) + ")";
  return text;
}

std::string describeEpilogue(const KernelManifest &kernel) {
  std::string text;
  for (const EpilogueStep &step : kernel.epilogue)
    text += (text.empty() ? "" : ",") + describeEpilogueStep(step);
  return text;
}

std::string describeEpilogueOperand(const KernelManifest &kernel,
                                    size_t argIndex, const GemmShape &shape) {
  EpilogueOperandShape operand = epilogueOperandShape(kernel, argIndex, shape);
  const KernelArg &arg = kernel.args[argIndex];
  std::string sizes;
  for (int i = 0; i < operand.rank; ++i)
    sizes += (i ? " x " : "") + std::to_string(operand.sizes[i]);
  return arg.name + ": " + describeEpilogueStep(operand.step) + " " +
         elementTypeName(arg.type) + "[" + sizes + "]";
}

} // namespace tgemm::runtime
