#pragma once
// The run's instances: their cost models, K/V room and roles (one colocated kind, or prefill and
// decode kinds under disaggregation, each at its own tensor parallelism), and the check that
// every request fits an instance alone.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "prefill_trace/result.hpp"
#include "serving/cost.hpp"
#include "serving/serving.hpp"
#include "serving/simulation.hpp"
#include "serving/workload.hpp"

namespace prefill_trace::serving {

struct Fleet {
  std::unique_ptr<IterationCost> prefill_cost;  // colocated: the one cost model
  std::unique_ptr<IterationCost> decode_cost;
  double prefill_kv_tokens = 0;  // paged: blocks × block size
  double decode_kv_tokens = 0;
  int64_t prefill_kv_blocks = 0;  // paged: the limit; reserve: the capacity's whole blocks
  int64_t decode_kv_blocks = 0;
};

/// The cost models and K/V room of the run's instances (`config` resolved).
Fleet build_fleet(const Scenario& scenario, const ServingConfig& config);
/// The run's instances, each starting idle at time 0.
std::vector<Instance> instances(const ServingConfig& config, const Fleet& fleet);
/// Sizes the decode cost caches for the longest request's context once, instead of growing
/// them (each growth copies the cache) as the run's contexts rise.
void reserve_decode_contexts(const Fleet& fleet, const std::vector<RequestSpec>& specs);
/// Every request must fit an instance alone, and the run's total work stays within the limits.
std::optional<Error> check_workload(const ServingConfig& config,
                                    const std::vector<RequestSpec>& specs, const Fleet& fleet,
                                    int64_t window);

}  // namespace prefill_trace::serving
