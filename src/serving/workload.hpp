#pragma once
// The run's requests (docs/serving.md, "Workload"): explicit rows, or generated arrivals and
// lengths drawn from the seed (src/serving/random.hpp), the same bits natively and in wasm.

#include <cstdint>
#include <vector>

#include "serving/serving.hpp"

namespace prefill_trace::serving {

// A request's lengths and its arrival at rate 1 (seconds × 1/rate at the run's rate).
struct RequestSpec {
  double unit_arrival = 0;
  int64_t prompt = 0;
  int64_t cached = 0;
  int64_t output = 0;
};

/// The requests: explicit rows, or arrivals at rate 1 (scaled by each run's rate: every run of
/// a goodput search or sweep draws the same requests) and lengths.
std::vector<RequestSpec> workload(const ServingConfig& config);

}  // namespace prefill_trace::serving
