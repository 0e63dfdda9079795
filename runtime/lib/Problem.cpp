//===- Problem.cpp - Problem sizes, requirements and launch dimensions ----===//

#include "tgemm/runtime/Problem.h"

#include "tgemm/runtime/Error.h"

namespace tgemm::runtime {

std::string GemmShape::str() const {
  return "M=" + std::to_string(m) + " N=" + std::to_string(n) +
         " K=" + std::to_string(k);
}

namespace {
const char *upperDimName(Dim dim) {
  return dim == Dim::M ? "M" : dim == Dim::N ? "N" : "K";
}
} // namespace

GemmShape resolveShape(const KernelManifest &kernel,
                       std::optional<int64_t> m, std::optional<int64_t> n,
                       std::optional<int64_t> k) {
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
  // Element counts and byte sizes of the matrices are products of two sizes
  // (times at most 32 bits); bounding them here keeps every such product in
  // int64, far above what any device holds.
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
