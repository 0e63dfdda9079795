//===- TensorMaps.h - TMA descriptors for a kernel's tensor_maps ----------===//
//
// A kernel with `tensor_maps` (docs/manifest.md) loads those operands with
// cp.async.bulk.tensor through a CUtensorMap that the runtime encodes for the
// operand's storage and passes by its device address, after the memref
// parameters. Storage that a tensor map cannot describe (a misaligned
// start or leading dimension) gets 0 instead, and the kernel copies that
// operand with cp.async: 0 is always a valid parameter, never an error.
//
// describeTensorMap decides, without a device, what cuTensorMapEncodeTiled
// is asked for (or why it cannot be); TensorMaps encodes the maps and
// uploads them.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_TENSORMAPS_H
#define TGEMM_RUNTIME_TENSORMAPS_H

#include "tgemm/runtime/Device.h"
#include "tgemm/runtime/KernelArgs.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"

#include <cuda.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tgemm::runtime {

/// The arguments of cuTensorMapEncodeTiled for one operand: always rank 3,
/// dimensions innermost first {cols, rows, batch}.
struct TensorMapEncoding {
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  cuuint32_t rank = 3;
  /// The first element of the stored matrix: base + offset * bytes.
  uint64_t globalAddress = 0;
  std::array<cuuint64_t, 3> globalDim = {0, 0, 0};
  /// Bytes between rows ({ld, batchStride} elements); rank - 1 of them.
  std::array<cuuint64_t, 2> globalStrides = {0, 0};
  /// {box[1], box[0], 1}: one matrix of the batch at a time.
  std::array<cuuint32_t, 3> boxDim = {0, 0, 0};
  std::array<cuuint32_t, 3> elementStrides = {1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  /// Elements outside the tensor read as zeros, which the kernel relies on
  /// for the partial tiles at the edges.
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// What describeTensorMap decided: an encoding, or why there is none.
struct TensorMapDescription {
  bool describable = false;
  TensorMapEncoding encoding; // when describable
  /// When not describable: "its start 0x7f0000001002 is not 16-byte
  /// aligned", without the operand's name.
  std::string reason;
};

/// The tensor map `map` asks for, over an operand of element `type` laid out
/// as `storage` in the allocation that starts at device address `base`; or
/// the reason cuTensorMapEncodeTiled would refuse it (the kernel then gets
/// 0). A box larger than the matrix is fine: TMA clips it. Needs no device;
/// never throws.
TensorMapDescription describeTensorMap(const TensorMapArg &map,
                                       ElementType type,
                                       const MatrixStorage &storage,
                                       uint64_t base) noexcept;

/// The encoded tensor maps of one kernel launch, in one device allocation,
/// and the parameter values that point at them. Keep it alive as long as the
/// KernelArgs that carry its values() are launched.
class TensorMaps {
public:
  /// No tensor maps: for a kernel that takes none (or is not launched).
  TensorMaps() = default;
  /// Encodes every entry of `kernel.tensorMaps` on the host for the operand
  /// as `storages` lays it out in the allocation at `addresses`, or for an
  /// operand the kernel reads from a transposed copy, for the copy in the
  /// workspace at `addresses.workspace` (kernelOperand). A kernel
  /// that takes its maps by address gets the describable ones uploaded to
  /// `device` (which must then be given); one that takes them by value
  /// needs no device memory, so the encoding allocates nothing on the
  /// device and may precede a launch that a CUDA graph captures. Throws
  /// Error(Unsupported) if the kernel has tensor maps and the driver lacks
  /// cuTensorMapEncodeTiled, and Error(Device), naming the operand and the
  /// CUDA result, if the driver refuses a map that describeTensorMap
  /// accepted.
  TensorMaps(const Device *device, const KernelManifest &kernel,
             const OperandStorages &storages,
             const OperandAddresses &addresses);
  TensorMaps(const Device &device, const KernelManifest &kernel,
             const OperandStorages &storages,
             const OperandAddresses &addresses)
      : TensorMaps(&device, kernel, storages, addresses) {}

  /// Sets the kernel's tensor-map parameters of `args`: the descriptors and
  /// whether every one was made (by value), or their device addresses and
  /// 0 for those not made (by address).
  void applyTo(KernelArgs &args) const;

  /// By address: one value per entry of the kernel's tensorMaps, in order:
  /// the device address of its descriptor (64-byte aligned), or 0.
  const std::vector<uint64_t> &values() const { return parameterValues; }
  /// By value: the encoded descriptors (zeros where not made).
  const std::vector<TensorMapValue> &encoded() const { return hostValues; }
  /// Whether every map was made.
  bool everyMapMade() const;
  /// Per entry: why it was not made, or empty when it was.
  const std::vector<std::string> &reasons() const { return fallbackReasons; }

private:
  MapPassing passing = MapPassing::Param;
  DeviceBuffer descriptors;
  std::vector<uint64_t> parameterValues;
  std::vector<TensorMapValue> hostValues;
  std::vector<std::string> fallbackReasons;
};

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_TENSORMAPS_H
