//===- Device.cpp - A CUDA device, its memory, streams, events, modules ---===//

#include "tgemm/runtime/Device.h"

#include "tgemm/runtime/Driver.h"

#include <cstdio>

namespace tgemm::runtime {

namespace {
std::string formatBytes(double bytes) {
  char buffer[32];
  if (bytes >= (1ull << 30))
    std::snprintf(buffer, sizeof(buffer), "%.1f GiB", bytes / (1ull << 30));
  else
    std::snprintf(buffer, sizeof(buffer), "%.1f MiB", bytes / (1ull << 20));
  return buffer;
}
} // namespace

std::string DeviceInfo::describe() const {
  return name + " (sm_" + std::to_string(computeCapability) + ", " +
         std::to_string(multiprocessors) + " SMs)";
}

int deviceCount() {
  const DriverApi &cu = driver();
  int count = 0;
  checkCuda(cu.cuDeviceGetCount(&count), "no CUDA device: cuDeviceGetCount",
            ErrorKind::NoDevice);
  if (count == 0)
    fail(ErrorKind::NoDevice, "no CUDA device: the driver reports none");
  return count;
}

Device::Device(int ordinal) {
  const DriverApi &cu = driver();
  int count = deviceCount();
  if (ordinal < 0 || ordinal >= count)
    fail(ErrorKind::NoDevice, "no CUDA device " + std::to_string(ordinal) +
                                  ": there are " + std::to_string(count));
  checkCuda(cu.cuDeviceGet(&device, ordinal), "cuDeviceGet",
            ErrorKind::NoDevice);
  deviceInfo.ordinal = ordinal;
  char name[256] = {0};
  cu.cuDeviceGetName(name, sizeof(name) - 1, device);
  deviceInfo.name = name;
  auto attribute = [&](CUdevice_attribute which) {
    int value = 0;
    checkCuda(cu.cuDeviceGetAttribute(&value, which, device),
              "cuDeviceGetAttribute");
    return value;
  };
  deviceInfo.computeCapability =
      10 * attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
      attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  deviceInfo.multiprocessors =
      attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  deviceInfo.l2CacheBytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  deviceInfo.maxSharedMemoryPerBlockOptin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  deviceInfo.maxThreadsPerBlock =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  size_t total = 0;
  checkCuda(cu.cuDeviceTotalMem(&total, device), "cuDeviceTotalMem");
  deviceInfo.globalMemoryBytes = static_cast<int64_t>(total);
  checkCuda(cu.cuDevicePrimaryCtxRetain(&context, device),
            "cannot create a context on " + deviceInfo.name,
            ErrorKind::NoDevice);
  makeCurrent();
}

Device::~Device() {
  if (context)
    driver().cuDevicePrimaryCtxRelease(device);
}

void Device::makeCurrent() const {
  checkCuda(driver().cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

std::string Device::memoryStatus() const {
  size_t free = 0, total = 0;
  if (driver().cuMemGetInfo(&free, &total) != CUDA_SUCCESS)
    return "free memory unknown";
  return formatBytes((double)free) + " free of " + formatBytes((double)total);
}

DeviceBuffer::DeviceBuffer(const Device &device, size_t size,
                           const std::string &name)
    : bytes(size), label(name) {
  CUresult result = driver().cuMemAlloc(&ptr, size ? size : 1);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    fail(ErrorKind::OutOfMemory, "out of device memory allocating " + label +
                                     " (" + formatBytes((double)size) +
                                     "): " + device.memoryStatus());
  checkCuda(result, "allocating " + label);
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr)
    driver().cuMemFree(ptr); // after a sticky error this fails; nothing to do
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : ptr(other.ptr), bytes(other.bytes), label(std::move(other.label)) {
  other.ptr = 0;
  other.bytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    if (ptr)
      driver().cuMemFree(ptr);
    ptr = other.ptr;
    bytes = other.bytes;
    label = std::move(other.label);
    other.ptr = 0;
    other.bytes = 0;
  }
  return *this;
}

void DeviceBuffer::upload(const void *host, size_t count) {
  checkCuda(driver().cuMemcpyHtoD(ptr, host, count), "copying " + label +
                                                         " to the device");
}

void DeviceBuffer::download(void *host, size_t count) const {
  checkCuda(driver().cuMemcpyDtoH(host, ptr, count),
            "copying " + label + " from the device");
}

void DeviceBuffer::copyFrom(const DeviceBuffer &other) {
  checkCuda(driver().cuMemcpyDtoD(ptr, other.ptr,
                                  bytes < other.bytes ? bytes : other.bytes),
            "copying " + other.label + " to " + label);
}

void DeviceBuffer::fillBytes(uint8_t value) {
  checkCuda(driver().cuMemsetD8(ptr, value, bytes), "filling " + label);
}

void DeviceBuffer::fillWords(uint32_t value) {
  checkCuda(driver().cuMemsetD32(ptr, value, bytes / 4), "filling " + label);
}

Stream::Stream() {
  checkCuda(driver().cuStreamCreate(&stream, CU_STREAM_DEFAULT),
            "creating a stream");
}

Stream::~Stream() {
  if (stream)
    driver().cuStreamDestroy(stream);
}

void Stream::synchronize(const std::string &what) const {
  checkCuda(driver().cuStreamSynchronize(stream), what, ErrorKind::Device);
}

Event::Event() {
  checkCuda(driver().cuEventCreate(&event, CU_EVENT_DEFAULT),
            "creating an event");
}

Event::~Event() {
  if (event)
    driver().cuEventDestroy(event);
}

Event::Event(Event &&other) noexcept : event(other.event) {
  other.event = nullptr;
}

void Event::record(CUstream stream) {
  checkCuda(driver().cuEventRecord(event, stream), "recording an event");
}

float elapsedMilliseconds(const Event &start, const Event &stop) {
  float ms = 0;
  checkCuda(driver().cuEventElapsedTime(&ms, start.get(), stop.get()),
            "reading an event timer");
  return ms;
}

LoadedModule::LoadedModule(const Device &device, const KernelBinary &binary)
    : path(binary.path), format(binaryFormatName(binary.format)) {
  (void)device; // loads into the current (the device's primary) context
  std::string image = binary.bytes;
  if (binary.format == BinaryFormat::Ptx)
    image.push_back('\0'); // the JIT reads PTX as a C string

  std::vector<char> errorLog(16384, 0), infoLog(16384, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(errorLog.size() - 1),
      infoLog.data(), reinterpret_cast<void *>(infoLog.size() - 1),
      reinterpret_cast<void *>(1)};
  CUresult result = driver().cuModuleLoadDataEx(
      &module, image.data(), sizeof(options) / sizeof(options[0]), options,
      values);
  jitInfoLog = infoLog.data();
  if (result == CUDA_SUCCESS)
    return;
  module = nullptr;
  std::string message = path + ": the driver cannot load this " + format +
                        ": " + describeCudaResult(result);
  if (result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
      result == CUDA_ERROR_INVALID_IMAGE)
    message += "; was it compiled for sm_" +
               std::to_string(device.info().computeCapability) + "?";
  if (errorLog[0])
    message += "\n" + std::string(errorLog.data());
  fail(ErrorKind::Input, message);
}

LoadedModule::~LoadedModule() {
  if (module)
    driver().cuModuleUnload(module);
}

std::vector<std::string> LoadedModule::functionNames() const {
  const DriverApi &cu = driver();
  std::vector<std::string> names;
  if (!cu.cuModuleGetFunctionCount || !cu.cuModuleEnumerateFunctions ||
      !cu.cuFuncGetName)
    return names;
  unsigned count = 0;
  if (cu.cuModuleGetFunctionCount(&count, module) != CUDA_SUCCESS)
    return names;
  std::vector<CUfunction> functions(count);
  if (count == 0 || cu.cuModuleEnumerateFunctions(functions.data(), count,
                                                  module) != CUDA_SUCCESS)
    return names;
  for (CUfunction f : functions) {
    const char *name = nullptr;
    if (cu.cuFuncGetName(&name, f) == CUDA_SUCCESS && name)
      names.push_back(name);
  }
  return names;
}

CUfunction LoadedModule::function(const std::string &name) const {
  CUfunction f = nullptr;
  CUresult result = driver().cuModuleGetFunction(&f, module, name.c_str());
  if (result == CUDA_SUCCESS)
    return f;
  if (result != CUDA_ERROR_NOT_FOUND)
    checkCuda(result, "looking up kernel '" + name + "' in " + path);
  std::string list;
  for (const std::string &n : functionNames())
    list += (list.empty() ? "" : ", ") + n;
  fail(ErrorKind::Input, path + ": " + format + " has no kernel '" + name +
                             "'" +
                             (list.empty() ? "" : "; it has: " + list));
}

} // namespace tgemm::runtime
