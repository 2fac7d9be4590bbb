//===- Timing.cpp - Timing launches with CUDA events ----------------------===//
//
// The JSON form of a timing, as --results writes it.
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

using namespace fp8run;

JsonValue fp8run::timingJson(const Timing &t, int64_t bytes, int64_t flops) {
  JsonValue v = JsonValue::object();
  v.set("median_ms", JsonValue::number(t.medianMs));
  v.set("min_ms", JsonValue::number(t.minMs));
  v.set("back_to_back_ms", JsonValue::number(t.backToBackMs));
  v.set("gbps_median", JsonValue::number(gbps(bytes, t.medianMs)));
  v.set("gbps_best", JsonValue::number(gbps(bytes, t.minMs)));
  v.set("gbps_back_to_back", JsonValue::number(gbps(bytes, t.backToBackMs)));
  if (flops) {
    v.set("tflops_median", JsonValue::number(tflops(flops, t.medianMs)));
    v.set("tflops_best", JsonValue::number(tflops(flops, t.minMs)));
    v.set("tflops_back_to_back",
          JsonValue::number(tflops(flops, t.backToBackMs)));
  }
  return v;
}
