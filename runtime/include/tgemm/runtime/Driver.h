//===- Driver.h - The CUDA driver API, opened at run time -----------------===//
//
// libcuda.so.1 comes with the NVIDIA driver, not the toolkit, so a binary
// linked against it cannot start on a machine without one. The runtime opens
// it with dlopen on first use instead and reports its absence as "no CUDA
// device". The function table uses the versioned entry points that cuda.h
// maps each name to (cuMemAlloc -> cuMemAlloc_v2), so the prototypes always
// match the header the runtime was compiled with.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_DRIVER_H
#define TGEMM_RUNTIME_DRIVER_H

#include "tgemm/runtime/Error.h"

#include <cuda.h>

#include <string>

namespace tgemm::runtime {

// X(name): required entry points. OPT(name): newer ones, may be missing (a
// null member); their users check and report what needs them.
#define TGEMM_DRIVER_FUNCTIONS(X, OPT)                                         \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuOccupancyMaxActiveClusters)                                              \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD32)                                                               \
  X(cuMemsetD32Async)                                                          \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuPointerGetAttribute)                                                     \
  OPT(cuModuleGetFunctionCount)                                                \
  OPT(cuModuleEnumerateFunctions)                                              \
  OPT(cuFuncGetName)                                                           \
  OPT(cuTensorMapEncodeTiled)

/// Pointers to the driver's entry points; the members carry the versioned
/// names, so `driver().cuMemAlloc(...)` reads like the plain API.
struct DriverApi {
#define TGEMM_DECLARE_ENTRY(name) decltype(&::name) name = nullptr;
  TGEMM_DRIVER_FUNCTIONS(TGEMM_DECLARE_ENTRY, TGEMM_DECLARE_ENTRY)
#undef TGEMM_DECLARE_ENTRY
};

/// The driver, opened and cuInit-ed on first use. Throws Error(NoDevice) if
/// libcuda.so.1 is missing, too old, or cuInit fails.
const DriverApi &driver();

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string describeCudaResult(CUresult result);

/// Throws Error(kind) "<what>: <describeCudaResult>" unless `result` is
/// CUDA_SUCCESS. Out-of-memory results are reported as Error(OutOfMemory).
void checkCuda(CUresult result, const std::string &what,
               ErrorKind kind = ErrorKind::Device);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_DRIVER_H
