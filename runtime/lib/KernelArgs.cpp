//===- KernelArgs.cpp - Kernel parameters as MLIR memref descriptors ------===//

#include "tgemm/runtime/KernelArgs.h"

#include "tgemm/runtime/Error.h"

#include <algorithm>

namespace tgemm::runtime {

namespace {
/// A matrix's memref descriptor: allocated, aligned, offset, sizes, strides
/// (row-major, innermost stride 1).
void pushMatrix(std::vector<uint64_t> &values, uint64_t address,
                const MatrixStorage &storage, int rank) {
  auto push = [&](int64_t value) {
    values.push_back(static_cast<uint64_t>(value));
  };
  values.push_back(address);
  values.push_back(address);
  push(storage.offset);
  if (rank == 3)
    push(storage.batch);
  push(storage.rows);
  push(storage.cols);
  if (rank == 3)
    push(storage.batchStride);
  push(storage.ld);
  push(1);
}

uint64_t callerAddress(const OperandAddresses &addresses, Operand operand) {
  return operand == Operand::A   ? addresses.a
         : operand == Operand::B ? addresses.b
                                 : addresses.c;
}
} // namespace

OperandSource kernelOperand(const KernelManifest &kernel,
                            const OperandStorages &storages,
                            const OperandAddresses &addresses,
                            Operand operand) {
  OperandSource source;
  if (!findTranspose(kernel, operand)) {
    source.storage = storages[static_cast<int>(operand)];
    source.address = callerAddress(addresses, operand);
    return source;
  }
  TransposedCopy copy =
      transposedCopy(kernel, operand, shapeOfStorages(kernel, storages));
  source.storage = copy.storage;
  source.address = addresses.workspace + static_cast<uint64_t>(copy.offset);
  return source;
}

TransposeArgs::TransposeArgs(const KernelManifest &kernel,
                             const OperandTranspose &transpose,
                             const OperandStorages &storages,
                             const OperandAddresses &addresses)
    : entry(transpose) {
  GemmShape shape = shapeOfStorages(kernel, storages);
  launchDims = computeTransposeLaunch(kernel, transpose, shape);
  int rank = operandArg(kernel, transpose.operand).rank;
  // The caller's operand, as the GEMM kernel would take it; then the copy.
  pushMatrix(paramValues, callerAddress(addresses, transpose.operand),
             storages[static_cast<int>(transpose.operand)], rank);
  OperandSource copy =
      kernelOperand(kernel, storages, addresses, transpose.operand);
  pushMatrix(paramValues, copy.address, copy.storage, rank);
}

void **TransposeArgs::pointers() {
  paramPointers.clear();
  for (uint64_t &value : paramValues)
    paramPointers.push_back(&value);
  return paramPointers.data();
}

KernelArgs::KernelArgs(const KernelManifest &kernel, const GemmShape &shape,
                       const OperandAddresses &addresses)
    : KernelArgs(kernel, packedStorage(kernel, shape), addresses) {}

KernelArgs::KernelArgs(const KernelManifest &kernel,
                       const OperandStorages &storages,
                       const OperandAddresses &addresses) {
  GemmShape shape = shapeOfStorages(kernel, storages);
  std::vector<size_t> epilogueArgs = epilogueArgIndices(kernel);
  if (addresses.epilogue.size() != epilogueArgs.size())
    fail(ErrorKind::Input, "kernel '" + kernel.name + "' reads " +
                               std::to_string(epilogueArgs.size()) +
                               " epilogue operands, but " +
                               std::to_string(addresses.epilogue.size()) +
                               " addresses were given");
  size_t nextEpilogue = 0;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const KernelArg &arg = kernel.args[i];
    if (arg.epilogue) {
      pushEpilogueOperand(epilogueOperandShape(kernel, i, shape),
                          addresses.epilogue[nextEpilogue++]);
      continue;
    }
    // The caller's operand, or the copy the kernel reads.
    OperandSource source =
        kernelOperand(kernel, storages, addresses, arg.operand);
    pushMatrix(paramValues, source.address, source.storage, arg.rank);
  }
  if (takesWorkspace(kernel))
    paramValues.insert(paramValues.end(),
                       {addresses.workspace, addresses.workspace, 0,
                        static_cast<uint64_t>(workspaceBytes(kernel, shape)),
                        1});
  for (const OperandTranspose &transpose : kernel.transposes)
    transposeArgs.emplace_back(kernel, transpose, storages, addresses);
  tensorMapStart = paramValues.size();
  tensorMapCount = kernel.tensorMaps.size();
  if (tensorMapCount > 0)
    passing = kernel.tensorMaps[0].passing;
  if (passing == MapPassing::Global)
    paramValues.resize(tensorMapStart + tensorMapCount, 0);
  else
    byValue.resize(tensorMapCount);
}

void KernelArgs::pushEpilogueOperand(const EpilogueOperandShape &operand,
                                     uint64_t address) {
  // allocated, aligned, offset 0, sizes, packed strides.
  paramValues.insert(paramValues.end(), {address, address, 0});
  std::array<int64_t, 3> strides = operand.strides();
  for (int i = 0; i < operand.rank; ++i)
    paramValues.push_back(static_cast<uint64_t>(operand.sizes[i]));
  for (int i = 0; i < operand.rank; ++i)
    paramValues.push_back(static_cast<uint64_t>(strides[i]));
}

void KernelArgs::setTensorMaps(const std::vector<uint64_t> &values) {
  if (tensorMapCount > 0 && passing != MapPassing::Global)
    fail(ErrorKind::Input, "the kernel takes its tensor maps by value, not "
                           "by address");
  if (values.size() != tensorMapCount)
    fail(ErrorKind::Input, "the kernel takes " +
                               std::to_string(tensorMapCount) +
                               " tensor-map parameters, not " +
                               std::to_string(values.size()));
  std::copy(values.begin(), values.end(),
            paramValues.begin() + static_cast<ptrdiff_t>(tensorMapStart));
}

void KernelArgs::setTensorMapValues(const std::vector<TensorMapValue> &maps,
                                    bool everyMapMade) {
  if (tensorMapCount > 0 && passing != MapPassing::Param)
    fail(ErrorKind::Input, "the kernel takes its tensor maps by address, not "
                           "by value");
  if (maps.size() != tensorMapCount)
    fail(ErrorKind::Input, "the kernel takes " +
                               std::to_string(tensorMapCount) +
                               " tensor maps, not " +
                               std::to_string(maps.size()));
  byValue = maps;
  mapsMade = everyMapMade && tensorMapCount > 0 ? 1 : 0;
}

void **KernelArgs::pointers() {
  paramPointers.clear();
  for (uint64_t &value : paramValues)
    paramPointers.push_back(&value);
  if (passing == MapPassing::Param && tensorMapCount > 0) {
    for (TensorMapValue &map : byValue)
      paramPointers.push_back(&map);
    paramPointers.push_back(&mapsMade);
  }
  return paramPointers.data();
}

} // namespace tgemm::runtime
