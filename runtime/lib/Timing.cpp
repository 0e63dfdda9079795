//===- Timing.cpp - Timing launches with CUDA events ----------------------===//

#include "tgemm/runtime/Timing.h"

#include "tgemm/runtime/Driver.h"

#include <algorithm>
#include <numeric>

namespace tgemm::runtime {

TimingStats summarizeTimes(std::vector<double> samples) {
  TimingStats stats;
  if (samples.empty())
    return stats;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  stats.reps = static_cast<int>(n);
  stats.minMs = samples.front();
  stats.maxMs = samples.back();
  stats.medianMs = n % 2 ? samples[n / 2]
                         : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  stats.meanMs = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  return stats;
}

L2Flusher::L2Flusher(const Device &device)
    : buffer(device,
             std::max<size_t>(256u << 20,
                              4 * static_cast<size_t>(
                                      device.info().l2CacheBytes)),
             "the L2 flush buffer") {}

void L2Flusher::flush(CUstream stream) {
  // A different value each time, so no write can be elided.
  checkCuda(driver().cuMemsetD32Async(buffer.address(), ++counter,
                                      buffer.size() / 4, stream),
            "flushing the L2 cache");
}

TimingStats timeLaunches(const Stream &stream, L2Flusher *flusher,
                         int warmup, int reps,
                         const std::function<void(CUstream)> &launch,
                         const std::string &what) {
  CUstream s = stream.get();
  for (int i = 0; i < warmup; ++i)
    launch(s);
  stream.synchronize(what + " failed during warm-up");

  std::vector<Event> starts, stops;
  starts.reserve(reps);
  stops.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    starts.emplace_back();
    stops.emplace_back();
  }
  for (int i = 0; i < reps; ++i) {
    if (flusher)
      flusher->flush(s);
    starts[i].record(s);
    launch(s);
    stops[i].record(s);
  }
  stream.synchronize(what + " failed while being timed");
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i)
    samples.push_back(elapsedMilliseconds(starts[i], stops[i]));
  return summarizeTimes(std::move(samples));
}

} // namespace tgemm::runtime
