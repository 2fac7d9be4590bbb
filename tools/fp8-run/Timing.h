//===- Timing.h - Timing launches with CUDA events ---------------*- C++
//-*-===//
//
// Shared by fp8-run's per-kernel and whole-function modes: repeated launches
// on one stream with an event between consecutive ones, summarized as median
// and minimum, and the GB/s and TFLOP/s they imply.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_RUN_TIMING_H
#define FP8_TOOLS_FP8_RUN_TIMING_H

#include "Gpu.h"
#include "Json.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace fp8run {

struct Timing {
  double medianMs = 0;
  double minMs = 0;
  // The mean of launches enqueued with no event between them: an event
  // between two kernels keeps programmatic dependent launch from
  // overlapping them, so only this time shows what it gains.
  double backToBackMs = 0;
};

inline Timing summarize(std::vector<float> times) {
  Timing t;
  if (times.empty())
    return t;
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  t.medianMs = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
  t.minMs = times.front();
  return t;
}

inline double gbps(int64_t bytes, double ms) {
  return ms > 0 ? double(bytes) / (ms * 1e6) : 0;
}

inline double tflops(int64_t flops, double ms) {
  return ms > 0 ? double(flops) / (ms * 1e9) : 0;
}

// Times `iters` back-to-back repetitions of `launch` on the stream: one event
// between consecutive launches, so each interval is one launch's GPU time;
// then `iters` more between two events only, for their mean.
template <typename Launch>
bool timeLaunches(Gpu &gpu, int warmup, int iters, const std::string &what,
                  Launch launch, Timing &timing) {
  const CudaDriver &drv = gpu.drv;
  for (int n = 0; n < warmup; ++n)
    if (!gpu.check(launch(), what))
      return false;
  Events events(drv);
  if (!gpu.check(events.create(size_t(iters) + 1), "cuEventCreate"))
    return false;
  if (!gpu.check(drv.cuEventRecord(events.events[0], gpu.stream),
                 "cuEventRecord"))
    return false;
  for (int n = 0; n < iters; ++n) {
    if (!gpu.check(launch(), what) ||
        !gpu.check(drv.cuEventRecord(events.events[n + 1], gpu.stream),
                   "cuEventRecord"))
      return false;
  }
  if (!gpu.check(drv.cuEventSynchronize(events.events[iters]), what))
    return false;
  std::vector<float> times;
  for (int n = 0; n < iters; ++n) {
    float ms = 0;
    if (!gpu.check(
            drv.cuEventElapsedTime(&ms, events.events[n], events.events[n + 1]),
            "cuEventElapsedTime"))
      return false;
    times.push_back(ms);
  }
  timing = summarize(times);
  CUevent first = events.events[0], last = events.events[iters];
  if (!gpu.check(drv.cuEventRecord(first, gpu.stream), "cuEventRecord"))
    return false;
  for (int n = 0; n < iters; ++n)
    if (!gpu.check(launch(), what))
      return false;
  float ms = 0;
  if (!gpu.check(drv.cuEventRecord(last, gpu.stream), "cuEventRecord") ||
      !gpu.check(drv.cuEventSynchronize(last), what) ||
      !gpu.check(drv.cuEventElapsedTime(&ms, first, last),
                 "cuEventElapsedTime"))
    return false;
  timing.backToBackMs = iters ? ms / iters : 0;
  return true;
}

/// {"median_ms", "min_ms", "back_to_back_ms", "gbps_median", "gbps_best",
/// "gbps_back_to_back"[, "tflops_median", "tflops_best",
/// "tflops_back_to_back"]}.
JsonValue timingJson(const Timing &t, int64_t bytes, int64_t flops = 0);

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_TIMING_H
