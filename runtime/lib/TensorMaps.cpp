//===- TensorMaps.cpp - TMA descriptors for a kernel's tensor_maps --------===//

#include "tgemm/runtime/TensorMaps.h"

#include "tgemm/runtime/Driver.h"
#include "tgemm/runtime/Error.h"

#include <cstdio>
#include <cstring>

namespace tgemm::runtime {

// The kernel reads descriptor i at base + i * 128, and TMA wants each one
// 64-byte aligned; cuMemAlloc aligns the base to at least 256 bytes.
static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) >= 64,
              "the kernel takes 128-byte, 64-byte aligned CUtensorMaps");

namespace {

// Limits of cuTensorMapEncodeTiled (CUDA driver API, "Tensor Map Object
// Management").
constexpr uint64_t kMaxGlobalDim = uint64_t(1) << 32;
constexpr uint64_t kMaxGlobalStride = uint64_t(1) << 40; // exclusive
constexpr uint64_t kGlobalAlignment = 16;
constexpr int64_t kMaxBoxDim = 256;

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

/// 8-bit types are moved as raw bytes: TMA converts nothing, and the zero
/// byte it fills out-of-bounds elements with is zero in s8, u8, e4m3 and
/// e5m2 alike.
bool dataTypeFor(ElementType type, CUtensorMapDataType &out) {
  switch (type) {
  case ElementType::F16:
    out = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    return true;
  case ElementType::BF16:
    out = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    return true;
  // tf32 is stored as f32; the kernel's MMA does the rounding.
  case ElementType::F32:
  case ElementType::TF32:
    out = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    return true;
  case ElementType::S8:
  case ElementType::U8:
  case ElementType::E4M3:
  case ElementType::E5M2:
    out = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    return true;
  case ElementType::S32:
    out = CU_TENSOR_MAP_DATA_TYPE_INT32;
    return true;
  case ElementType::S4:
    return false;
  }
  return false;
}

bool swizzleFor(int64_t bytes, CUtensorMapSwizzle &out) {
  switch (bytes) {
  case 0:
    out = CU_TENSOR_MAP_SWIZZLE_NONE;
    return true;
  case 32:
    out = CU_TENSOR_MAP_SWIZZLE_32B;
    return true;
  case 64:
    out = CU_TENSOR_MAP_SWIZZLE_64B;
    return true;
  case 128:
    out = CU_TENSOR_MAP_SWIZZLE_128B;
    return true;
  default:
    return false;
  }
}

TensorMapDescription refuse(std::string reason) {
  TensorMapDescription description;
  description.reason = std::move(reason);
  return description;
}

} // namespace

TensorMapDescription describeTensorMap(const TensorMapArg &map,
                                       ElementType type,
                                       const MatrixStorage &storage,
                                       uint64_t base) noexcept {
  try {
    TensorMapEncoding e;
    if (!dataTypeFor(type, e.dataType))
      return refuse(std::string("its element type ") + elementTypeName(type) +
                    " is not a whole number of bytes");
    if (!swizzleFor(map.swizzle, e.swizzle))
      return refuse("its swizzle " + std::to_string(map.swizzle) +
                    " is not 0, 32, 64 or 128 bytes");
    const int64_t bytes = elementBits(type) / 8;

    // The box belongs to the kernel, not to the storage; the manifest reader
    // enforces these already, but a map built in code may not have been
    // through it.
    for (int i = 0; i < 2; ++i)
      if (map.box[i] < 1 || map.box[i] > kMaxBoxDim)
        return refuse("its box extent " + std::to_string(map.box[i]) +
                      " is not in [1, 256]");
    int64_t boxRowBytes = map.box[1] * bytes;
    if (boxRowBytes % 16 != 0)
      return refuse("its box row of " + std::to_string(boxRowBytes) +
                    " bytes is not a multiple of 16");
    if (map.swizzle != 0 && boxRowBytes > map.swizzle)
      return refuse("its box row of " + std::to_string(boxRowBytes) +
                    " bytes does not fit the " + std::to_string(map.swizzle) +
                    "-byte swizzle span");

    const int64_t dims[3] = {storage.cols, storage.rows, storage.batch};
    const char *dimNames[3] = {"columns", "rows", "batch entries"};
    for (int i = 0; i < 3; ++i) {
      if (dims[i] < 1 || static_cast<uint64_t>(dims[i]) > kMaxGlobalDim)
        return refuse("its " + std::to_string(dims[i]) + " " + dimNames[i] +
                      " are not in [1, 2^32]");
      e.globalDim[i] = static_cast<cuuint64_t>(dims[i]);
    }

    // A matrix that is not batched has one layer, whose stride TMA never
    // steps over; rows * ld keeps it a valid multiple of the row stride.
    int64_t layerStride =
        storage.batch > 1 ? storage.batchStride : storage.rows * storage.ld;
    const int64_t strides[2] = {storage.ld, layerStride};
    const char *strideNames[2] = {"leading dimension", "batch stride"};
    for (int i = 0; i < 2; ++i) {
      if (strides[i] < 1)
        return refuse("its " + std::string(strideNames[i]) + " " +
                      std::to_string(strides[i]) + " is not positive");
      // At most 2^48 elements of at most 4 bytes: no overflow.
      uint64_t strideBytes = static_cast<uint64_t>(strides[i]) * bytes;
      std::string what = "its " + std::string(strideNames[i]) + " of " +
                         std::to_string(strides[i]) + " elements (" +
                         std::to_string(strideBytes) + " bytes)";
      if (strideBytes % kGlobalAlignment != 0)
        return refuse(what + " is not a multiple of 16 bytes");
      if (strideBytes >= kMaxGlobalStride)
        return refuse(what + " is not below 2^40 bytes");
      e.globalStrides[i] = strideBytes;
    }

    if (storage.offset < 0)
      return refuse("its offset " + std::to_string(storage.offset) +
                    " is negative");
    e.globalAddress = base + static_cast<uint64_t>(storage.offset) * bytes;
    if (e.globalAddress % kGlobalAlignment != 0)
      return refuse("its start " + hex(e.globalAddress) + " (offset " +
                    std::to_string(storage.offset) +
                    " elements into the allocation at " + hex(base) +
                    ") is not 16-byte aligned");

    // Rows first in the manifest, innermost first here; one matrix of the
    // batch per copy.
    e.boxDim = {static_cast<cuuint32_t>(map.box[1]),
                static_cast<cuuint32_t>(map.box[0]), 1};
    TensorMapDescription description;
    description.describable = true;
    description.encoding = e;
    return description;
  } catch (...) {
    // Only std::string can throw here (out of memory); the map is then
    // simply not used.
    return TensorMapDescription();
  }
}

TensorMaps::TensorMaps(const Device *device, const KernelManifest &kernel,
                       const OperandStorages &storages,
                       const OperandAddresses &addresses) {
  if (kernel.tensorMaps.empty())
    return;
  passing = kernel.tensorMaps[0].passing;
  const DriverApi &cu = driver();
  if (!cu.cuTensorMapEncodeTiled)
    fail(ErrorKind::Unsupported,
         "kernel '" + kernel.name + "' takes " +
             std::to_string(kernel.tensorMaps.size()) +
             " TMA tensor map(s), but the CUDA driver lacks "
             "cuTensorMapEncodeTiled (CUDA 12.0 or newer has it)");
  static_assert(sizeof(CUtensorMap) == sizeof(TensorMapValue),
                "a CUtensorMap is 128 bytes");

  constexpr size_t kNone = ~size_t(0);
  std::vector<CUtensorMap> encoded; // CUtensorMap is 128-byte aligned
  std::vector<size_t> slots;
  for (const TensorMapArg &map : kernel.tensorMaps) {
    // The storage the kernel reads: an operand of `transposes` or
    // `aligned_copies` is read from its copy in the workspace.
    OperandSource source =
        kernelOperand(kernel, storages, addresses, map.operand);
    // The memref's element type is what lies in memory (f32 for tf32).
    ElementType type = map.operand == Operand::A   ? kernel.gemm.a.type
                       : map.operand == Operand::B ? kernel.gemm.b.type
                                                   : kernel.gemm.c.type;
    if (const KernelArg *arg = findOperandArg(kernel, map.operand))
      type = arg->type;
    TensorMapDescription description =
        describeTensorMap(map, type, source.storage, source.address);
    if (!description.describable) {
      slots.push_back(kNone);
      fallbackReasons.push_back(description.reason.empty()
                                    ? "it could not be described"
                                    : description.reason);
      continue;
    }
    const TensorMapEncoding &e = description.encoding;
    CUtensorMap descriptor{};
    CUresult result = cu.cuTensorMapEncodeTiled(
        &descriptor, e.dataType, e.rank, reinterpret_cast<void *>(e.globalAddress),
        e.globalDim.data(), e.globalStrides.data(), e.boxDim.data(),
        e.elementStrides.data(), e.interleave, e.swizzle, e.l2Promotion,
        e.oobFill);
    checkCuda(result,
              "encoding the TMA tensor map of operand " +
                  std::string(operandName(map.operand)) + " of kernel '" +
                  kernel.name + "' (box " + std::to_string(map.box[0]) + "x" +
                  std::to_string(map.box[1]) + " " + elementTypeName(type) +
                  ", swizzle " + std::to_string(map.swizzle) + ", " +
                  std::to_string(e.globalDim[2]) + " x " +
                  std::to_string(e.globalDim[1]) + "x" +
                  std::to_string(e.globalDim[0]) + ", row stride " +
                  std::to_string(e.globalStrides[0]) + " bytes, at " +
                  hex(e.globalAddress) + ")");
    slots.push_back(encoded.size());
    encoded.push_back(descriptor);
    fallbackReasons.emplace_back();
  }

  if (passing == MapPassing::Param) {
    // The kernel either has every map or copies every operand with
    // cp.async: a partial set is sent as zeros.
    hostValues.resize(slots.size());
    if (everyMapMade())
      for (size_t i = 0; i < slots.size(); ++i)
        std::memcpy(static_cast<void *>(&hostValues[i]), &encoded[slots[i]],
                    sizeof(TensorMapValue));
    return;
  }
  if (!encoded.empty()) {
    if (!device)
      fail(ErrorKind::Input, "kernel '" + kernel.name +
                                    "' takes its tensor maps by address: "
                                    "they need device memory");
    size_t bytes = encoded.size() * sizeof(CUtensorMap);
    descriptors = DeviceBuffer(*device, bytes,
                               "the tensor maps of kernel '" + kernel.name +
                                   "'");
    descriptors.upload(encoded.data(), bytes);
  }
  for (size_t slot : slots)
    parameterValues.push_back(slot == kNone
                                  ? 0
                                  : descriptors.address() +
                                        slot * sizeof(CUtensorMap));
}

bool TensorMaps::everyMapMade() const {
  for (const std::string &reason : fallbackReasons)
    if (!reason.empty())
      return false;
  return true;
}

void TensorMaps::applyTo(KernelArgs &args) const {
  if (passing == MapPassing::Param)
    args.setTensorMapValues(hostValues, everyMapMade());
  else
    args.setTensorMaps(parameterValues);
}

} // namespace tgemm::runtime
