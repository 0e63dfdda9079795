//===- KernelArgs.cpp - Kernel parameters as MLIR memref descriptors ------===//

#include "tgemm/runtime/KernelArgs.h"

#include "tgemm/runtime/Error.h"

#include <algorithm>

namespace tgemm::runtime {

KernelArgs::KernelArgs(const KernelManifest &kernel, const GemmShape &shape,
                       const OperandAddresses &addresses)
    : KernelArgs(kernel, packedStorage(kernel, shape), addresses) {}

KernelArgs::KernelArgs(const KernelManifest &kernel,
                       const OperandStorages &storages,
                       const OperandAddresses &addresses) {
  for (const KernelArg &arg : kernel.args) {
    const MatrixStorage &storage = storages[static_cast<int>(arg.operand)];
    uint64_t address = arg.operand == Operand::A   ? addresses.a
                       : arg.operand == Operand::B ? addresses.b
                                                   : addresses.c;
    auto push = [&](int64_t value) {
      paramValues.push_back(static_cast<uint64_t>(value));
    };
    // allocated, aligned, offset, sizes, strides (row-major, innermost
    // stride 1).
    paramValues.push_back(address);
    paramValues.push_back(address);
    push(storage.offset);
    if (arg.rank == 3)
      push(storage.batch);
    push(storage.rows);
    push(storage.cols);
    if (arg.rank == 3)
      push(storage.batchStride);
    push(storage.ld);
    push(1);
  }
  tensorMapStart = paramValues.size();
  tensorMapCount = kernel.tensorMaps.size();
  paramValues.resize(tensorMapStart + tensorMapCount, 0);
}

void KernelArgs::setTensorMaps(const std::vector<uint64_t> &values) {
  if (values.size() != tensorMapCount)
    fail(ErrorKind::Input, "the kernel takes " +
                               std::to_string(tensorMapCount) +
                               " tensor-map parameters, not " +
                               std::to_string(values.size()));
  std::copy(values.begin(), values.end(),
            paramValues.begin() + static_cast<ptrdiff_t>(tensorMapStart));
}

void **KernelArgs::pointers() {
  paramPointers.clear();
  for (uint64_t &value : paramValues)
    paramPointers.push_back(&value);
  return paramPointers.data();
}

} // namespace tgemm::runtime
