//===- KernelArgs.cpp - Kernel parameters as MLIR memref descriptors ------===//

#include "tgemm/runtime/KernelArgs.h"

namespace tgemm::runtime {

KernelArgs::KernelArgs(const KernelManifest &kernel, const GemmShape &shape,
                       const OperandAddresses &addresses) {
  for (const KernelArg &arg : kernel.args) {
    const OperandSpec &spec = arg.operand == Operand::A   ? kernel.gemm.a
                              : arg.operand == Operand::B ? kernel.gemm.b
                                                          : kernel.gemm.c;
    uint64_t address = arg.operand == Operand::A   ? addresses.a
                       : arg.operand == Operand::B ? addresses.b
                                                   : addresses.c;
    MatrixShape stored = storedShape(arg.operand, spec.layout, shape);
    // allocated, aligned, offset, sizes, strides (row-major, dense).
    paramValues.push_back(address);
    paramValues.push_back(address);
    paramValues.push_back(0);
    paramValues.push_back(static_cast<uint64_t>(stored.rows));
    paramValues.push_back(static_cast<uint64_t>(stored.cols));
    paramValues.push_back(static_cast<uint64_t>(stored.cols));
    paramValues.push_back(1);
  }
}

void **KernelArgs::pointers() {
  paramPointers.clear();
  for (uint64_t &value : paramValues)
    paramPointers.push_back(&value);
  return paramPointers.data();
}

} // namespace tgemm::runtime
