#pragma once
// The placement search (`prefill-trace plan`, docs/serving.md, "Placement search"): DistServe's
// placement problem (Zhong et al., OSDI 2024, §4) solved by enumeration over this simulator.
// For a device budget N it tries every scheduler policy × instance count × tensor-parallel
// degree per phase that fits — colocated: instances × TP ≤ N; disaggregated: prefill instances ×
// prefill TP + decode instances × decode TP ≤ N — runs the serving simulation's goodput search
// (src/serving/runs.hpp) for each, and ranks them by goodput per device.

#include <cstdint>
#include <string>
#include <vector>

#include "prefill_trace/result.hpp"
#include "serving/serving.hpp"

namespace prefill_trace {

struct PlanCandidate {
  SchedulerPolicy policy = SchedulerPolicy::chunked;
  int64_t prefill_instances = 0;  // colocated: the instances (each prefills and decodes)
  int64_t decode_instances = 0;   // colocated: 0
  int64_t prefill_tensor_parallel = 0;
  int64_t decode_tensor_parallel = 0;  // colocated: 0
  int64_t devices = 0;                 // the devices the placement uses (≤ the budget)
  double goodput_requests_per_second = 0;
  double goodput_per_device = 0;
  bool bounded = true;  // false: too few requests to find a rate that misses (a lower bound)
};

/// A policy and tensor-parallel pair that no instance count can run, and why (the serving
/// simulation's own refusal: the weights leave no room for K/V, a request does not fit, ...).
struct PlanSkip {
  SchedulerPolicy policy = SchedulerPolicy::chunked;
  int64_t prefill_tensor_parallel = 0;
  int64_t decode_tensor_parallel = 0;
  std::string reason;
};

struct PlanReport {
  std::string model, hardware, precision, timing;  // the scenario's ids
  int64_t devices = 0;                             // the budget
  std::vector<int64_t> tensor_parallel_options;    // degrees the model splits into, ≤ devices
  int64_t searches = 0;                            // goodput searches run
  std::vector<PlanCandidate> candidates;           // best first (PlanReport::sorted's order)
  std::vector<PlanSkip> skipped;
};

/// Checks the budget (1 … limits::max_plan_devices, path /devices), then searches every
/// placement; `base` is the user's serving object (rate: where each goodput search starts; its
/// SLOs and workload), its placement fields unset. The whole search is held to
/// limits::max_plan_work.
Result<PlanReport> plan_serving(const Scenario& scenario, const ServingConfig& base,
                                int64_t devices);

}  // namespace prefill_trace
