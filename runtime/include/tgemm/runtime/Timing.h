//===- Timing.h - Timing launches with CUDA events ------------------------===//
//
// The one timing method for kernels and libraries alike: `warmup` untimed
// launches, then `reps` launches each bracketed by its own pair of events,
// with the L2 cache flushed before each (by writing a buffer several times
// its size on the same stream, outside the events), so every repetition reads
// its operands from HBM as a GEMM in a real workload would. All repetitions
// are queued before the host waits, so launch overhead does not show in the
// times. The median is reported.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_TIMING_H
#define TGEMM_RUNTIME_TIMING_H

#include "tgemm/runtime/Device.h"

#include <functional>
#include <vector>

namespace tgemm::runtime {

struct TimingStats {
  int reps = 0;
  double medianMs = 0, minMs = 0, maxMs = 0, meanMs = 0;
};

/// Statistics of `samples` (milliseconds); all zero when empty.
TimingStats summarizeTimes(std::vector<double> samples);

/// Evicts the L2 cache by writing a buffer of max(256 MiB, 4 x L2).
class L2Flusher {
public:
  explicit L2Flusher(const Device &device);
  void flush(CUstream stream);
  size_t bytes() const { return buffer.size(); }

private:
  DeviceBuffer buffer;
  uint32_t counter = 0;
};

/// Times `launch` on `stream`. `flusher` may be null (no flushing). `what`
/// names the launch in error messages.
TimingStats timeLaunches(const Stream &stream, L2Flusher *flusher,
                         int warmup, int reps,
                         const std::function<void(CUstream)> &launch,
                         const std::string &what);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_TIMING_H
