//===- Driver.cpp - The CUDA driver API, opened at run time ---------------===//

#include "tgemm/runtime/Driver.h"

#include <dlfcn.h>

#include <mutex>

namespace tgemm::runtime {

#define TGEMM_STRINGIFY_EXPANDED(x) TGEMM_STRINGIFY(x)
#define TGEMM_STRINGIFY(x) #x

namespace {

struct LoadedDriver {
  DriverApi api;
  std::string error; // empty when usable
};

LoadedDriver loadDriver() {
  LoadedDriver loaded;
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    loaded.error = std::string("no CUDA device: the NVIDIA driver library "
                               "libcuda.so.1 cannot be loaded (") +
                   (why ? why : "not found") + ")";
    return loaded;
  }
  DriverApi &api = loaded.api;
  std::string missing;
#define TGEMM_LOAD_REQUIRED(name)                                              \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(handle, TGEMM_STRINGIFY_EXPANDED(name)));                          \
  if (!api.name)                                                               \
    missing += std::string(missing.empty() ? "" : ", ") +                      \
               TGEMM_STRINGIFY_EXPANDED(name);
#define TGEMM_LOAD_OPTIONAL(name)                                              \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(handle, TGEMM_STRINGIFY_EXPANDED(name)));
  TGEMM_DRIVER_FUNCTIONS(TGEMM_LOAD_REQUIRED, TGEMM_LOAD_OPTIONAL)
#undef TGEMM_LOAD_REQUIRED
#undef TGEMM_LOAD_OPTIONAL
  if (!missing.empty()) {
    loaded.error = "unusable CUDA driver: it is too old for this runtime "
                   "(built with CUDA " +
                   std::to_string(CUDA_VERSION / 1000) + "." +
                   std::to_string(CUDA_VERSION % 1000 / 10) +
                   "); libcuda.so.1 lacks " + missing;
    return loaded;
  }
  CUresult init = api.cuInit(0);
  if (init != CUDA_SUCCESS) {
    const char *name = nullptr, *text = nullptr;
    api.cuGetErrorName(init, &name);
    api.cuGetErrorString(init, &text);
    loaded.error = std::string("no CUDA device: cuInit failed with ") +
                   (name ? name : "an unknown error") + " (" +
                   (text ? text : "?") + ")";
    return loaded;
  }
  int version = 0;
  api.cuDriverGetVersion(&version);
  if (version < CUDA_VERSION)
    loaded.error = "unusable CUDA driver: it supports CUDA " +
                   std::to_string(version / 1000) + "." +
                   std::to_string(version % 1000 / 10) +
                   ", older than the CUDA " +
                   std::to_string(CUDA_VERSION / 1000) + "." +
                   std::to_string(CUDA_VERSION % 1000 / 10) +
                   " this runtime was built with";
  return loaded;
}

} // namespace

const DriverApi &driver() {
  static std::once_flag once;
  static LoadedDriver loaded;
  std::call_once(once, [] { loaded = loadDriver(); });
  if (!loaded.error.empty())
    fail(ErrorKind::NoDevice, loaded.error);
  return loaded.api;
}

std::string describeCudaResult(CUresult result) {
  const char *name = nullptr, *text = nullptr;
  // Only after the driver loaded; before, there is nothing to describe.
  try {
    const DriverApi &api = driver();
    api.cuGetErrorName(result, &name);
    api.cuGetErrorString(result, &text);
  } catch (const Error &) {
  }
  std::string s = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

void checkCuda(CUresult result, const std::string &what, ErrorKind kind) {
  if (result == CUDA_SUCCESS)
    return;
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    kind = ErrorKind::OutOfMemory;
  fail(kind, what + ": " + describeCudaResult(result));
}

} // namespace tgemm::runtime
