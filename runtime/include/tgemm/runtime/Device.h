//===- Device.h - A CUDA device, its memory, streams, events and modules --===//
//
// Thin owners of driver-API objects. The runtime works in the device's
// primary context, the one cuBLAS and the CUDA runtime (used by the
// reference kernels) pick up as well, so all of them share memory and
// streams.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_DEVICE_H
#define TGEMM_RUNTIME_DEVICE_H

#include "tgemm/runtime/KernelBinary.h"

#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tgemm::runtime {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeCapability = 0; // 90 for sm_90
  int multiprocessors = 0;
  int64_t globalMemoryBytes = 0;
  int64_t l2CacheBytes = 0;
  int maxSharedMemoryPerBlockOptin = 0;
  int maxThreadsPerBlock = 0;
  /// "NVIDIA H200 (sm_90, 132 SMs)".
  std::string describe() const;
};

/// The number of CUDA devices. Throws Error(NoDevice) if there is no driver
/// or no device.
int deviceCount();

/// A device with its primary context made current on this thread.
class Device {
public:
  /// Throws Error(NoDevice) if the driver, or device `ordinal`, is missing.
  explicit Device(int ordinal = 0);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const DeviceInfo &info() const { return deviceInfo; }
  /// Makes this device's context current on the calling thread.
  void makeCurrent() const;
  /// Free and total device memory, for out-of-memory messages.
  std::string memoryStatus() const;

private:
  CUdevice device = 0;
  CUcontext context = nullptr;
  DeviceInfo deviceInfo;
};

/// Device memory. `label` names the buffer in error messages.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const Device &device, size_t bytes, const std::string &label);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr address() const { return ptr; }
  size_t size() const { return bytes; }
  void upload(const void *host, size_t count);
  void download(void *host, size_t count) const;
  void copyFrom(const DeviceBuffer &other);
  void fillBytes(uint8_t value);
  void fillWords(uint32_t value);

private:
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  std::string label;
};

class Stream {
public:
  Stream();
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  CUstream get() const { return stream; }
  /// Waits for all work; `what` names it if it failed (e.g. a kernel).
  void synchronize(const std::string &what) const;

private:
  CUstream stream = nullptr;
};

class Event {
public:
  Event();
  ~Event();
  Event(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  void record(CUstream stream);
  CUevent get() const { return event; }

private:
  CUevent event = nullptr;
};

/// Milliseconds between two recorded, completed events.
float elapsedMilliseconds(const Event &start, const Event &stop);

/// A loaded PTX/cubin/fatbin module.
class LoadedModule {
public:
  /// Loads `binary` (PTX is JIT-compiled by the driver; its error log is part
  /// of the message if that fails). Throws Error(Input).
  LoadedModule(const Device &device, const KernelBinary &binary);
  ~LoadedModule();
  LoadedModule(const LoadedModule &) = delete;
  LoadedModule &operator=(const LoadedModule &) = delete;

  /// The kernel `name`; throws Error(Input) listing the module's kernels if
  /// it has no such kernel.
  CUfunction function(const std::string &name) const;
  /// The module's kernel names (empty if the driver cannot enumerate them).
  std::vector<std::string> functionNames() const;
  /// The JIT's informational log (register and spill counts), if any.
  const std::string &infoLog() const { return jitInfoLog; }

private:
  CUmodule module = nullptr;
  std::string path;
  std::string format;
  std::string jitInfoLog;
};

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_DEVICE_H
