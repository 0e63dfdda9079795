//===- KernelArgs.h - Kernel parameters as MLIR memref descriptors --------===//
//
// A compiled kernel takes each rank-R memref as 3 + 2R parameters: allocated
// pointer, aligned pointer, offset, sizes[R], strides[R] (64-bit each; sizes
// and strides in elements of the stored matrix). KernelArgs lays them out in
// manifest order and hands cuLaunchKernel the array of pointers to them:
//
//   rank 2:  base, base, offset, rows, cols, ld, 1
//   rank 3:  base, base, offset, batch, rows, cols, batchStride, ld, 1
//
// where base is the start of the allocation (see MatrixStorage). The
// epilogue's operands (args entries marked `epilogue`, after a, b and c)
// are packed and start at their address (epilogueOperandShape):
//
//   vector:    base, base, 0, len, 1        (len M, N or 1)
//   residual:  base, base, 0, M, N, N, 1    (batched: 0, B, M, N, M*N, N, 1)
//
// each where its args entry is (the compiler puts them after c). A kernel
// that splits K or reads an operand from a transposed copy (`transposes`)
// then takes its workspace as a rank-1 byte memref:
//
//   workspace: base, base, 0, bytes, 1
//
// An operand read from a transposed copy is passed as the copy's descriptor
// in its place (kernelOperand): base = workspace + the copy's offset,
// offset 0, the copy's sizes and strides (transposedCopy). Its transposing
// kernel, launched before the GEMM kernel (TransposeArgs), takes the
// caller's operand, then the copy:
//
//   rank 2:  base, base, offset, R, C, ld, 1,   w, w, 0, C, R, ld', 1
//   rank 3:  base, base, offset, batch, R, C, batchStride, ld, 1,
//            w, w, 0, batch, C, R, C * ld', ld', 1
//
// where the caller's operand is stored R x C and w, ld' are the copy's.
//
// After all of them come the kernel's `tensor_maps` (see TensorMaps.h): passed
// by value, one 128-byte CUtensorMap each, then a 32-bit 1 when every map was
// made (0: the kernel copies with cp.async); passed by address, one 64-bit
// device address each, 0 meaning "copy this operand with cp.async".
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_KERNELARGS_H
#define TGEMM_RUNTIME_KERNELARGS_H

#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"

#include <cstdint>
#include <vector>

namespace tgemm::runtime {

/// The bytes of one CUtensorMap (CUDA's cuda.h: 16 64-bit words, aligned to
/// 64 bytes), as a kernel parameter passed by value.
struct alignas(64) TensorMapValue {
  uint64_t words[16] = {};
};

/// Device addresses of the three matrices, and of the kernel's workspace
/// (workspaceBytes long, for a kernel that splits K or reads a transposed
/// copy; 0 for other kernels).
struct OperandAddresses {
  uint64_t a = 0, b = 0, c = 0;
  uint64_t workspace = 0;
  /// The epilogue's operands, one per epilogue argument in args order
  /// (epilogueArgIndices), each packed as epilogueOperandShape says.
  std::vector<uint64_t> epilogue;
};

/// Where the GEMM kernel reads an operand: its storage and the address of
/// the allocation it lies in.
struct OperandSource {
  MatrixStorage storage;
  uint64_t address = 0;
};

/// The operand (A, B or C) the GEMM kernel reads, given the caller's
/// `storages` and `addresses`: the caller's, or for an operand of
/// `kernel.transposes` its transposed copy, at addresses.workspace + the
/// copy's offset (transposedCopy).
OperandSource kernelOperand(const KernelManifest &kernel,
                            const OperandStorages &storages,
                            const OperandAddresses &addresses, Operand operand);

/// The launch of one transposing kernel (an entry of
/// KernelManifest::transposes): its dimensions (computeTransposeLaunch) and
/// parameters, the caller's operand then its copy in the workspace, each a
/// memref descriptor of the operand's rank in args.
class TransposeArgs {
public:
  /// Throws Error(Unsupported) as computeTransposeLaunch does.
  TransposeArgs(const KernelManifest &kernel, const OperandTranspose &transpose,
                const OperandStorages &storages,
                const OperandAddresses &addresses);

  const OperandTranspose &transpose() const { return entry; }
  const LaunchDims &dims() const { return launchDims; }
  /// The 64-bit parameter values, in order.
  const std::vector<uint64_t> &values() const { return paramValues; }
  /// The `kernelParams` array of cuLaunchKernel; valid while this object is.
  void **pointers();

private:
  OperandTranspose entry;
  LaunchDims launchDims;
  std::vector<uint64_t> paramValues;
  std::vector<void *> paramPointers;
};

class KernelArgs {
public:
  /// Every operand packed (offset 0, ld = cols).
  KernelArgs(const KernelManifest &kernel, const GemmShape &shape,
             const OperandAddresses &addresses);
  /// Each operand as `storages` (from resolveStorage) lays it out;
  /// `addresses` are the starts of the allocations; an operand the kernel
  /// reads from a transposed copy is passed as the copy (kernelOperand),
  /// and transposes() launch its transposing kernel on the caller's.
  /// Throws Error(Input) if `addresses.epilogue` does not have one address
  /// per epilogue argument.
  KernelArgs(const KernelManifest &kernel, const OperandStorages &storages,
             const OperandAddresses &addresses);

  /// Sets the parameters of the kernel's tensor maps, one per entry of its
  /// `tensorMaps` in order: a descriptor's device address or 0. Until then
  /// (and for callers that never set them) they are 0, which is always a
  /// valid launch. Throws Error(Input) if `values` has the wrong length.
  void setTensorMaps(const std::vector<uint64_t> &values);
  /// For a kernel that takes its maps by value: the descriptors, one per
  /// entry of `tensorMaps`, and whether every one was made. Until then they
  /// are zeros and the flag 0 (copy with cp.async), always a valid launch.
  /// Throws Error(Input) if `maps` has the wrong length.
  void setTensorMapValues(const std::vector<TensorMapValue> &maps,
                          bool everyMapMade);

  /// The 64-bit parameter values, in order (pointers and i64 alike as 64
  /// bits): the memref parameters, then maps passed by address.
  const std::vector<uint64_t> &values() const { return paramValues; }
  /// Maps passed by value, and their flag.
  const std::vector<TensorMapValue> &mapValues() const { return byValue; }
  uint32_t mapsMadeFlag() const { return mapsMade; }

  /// The `kernelParams` array of cuLaunchKernel; valid while this object is.
  void **pointers();

  /// The launches of the kernel's transposing kernels, one per entry of its
  /// `transposes` in order, which precede each launch of the GEMM kernel.
  std::vector<TransposeArgs> &transposes() { return transposeArgs; }
  const std::vector<TransposeArgs> &transposes() const { return transposeArgs; }

private:
  /// One epilogue operand's memref descriptor (packed, offset 0).
  void pushEpilogueOperand(const EpilogueOperandShape &operand,
                           uint64_t address);

  std::vector<uint64_t> paramValues;
  std::vector<void *> paramPointers;
  /// Where the tensor-map parameters start in paramValues, and how many.
  size_t tensorMapStart = 0;
  size_t tensorMapCount = 0;
  MapPassing passing = MapPassing::Param;
  std::vector<TensorMapValue> byValue;
  uint32_t mapsMade = 0;
  std::vector<TransposeArgs> transposeArgs;
};

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_KERNELARGS_H
