#include "serving/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "limits.hpp"
#include "serving/schedulers/scheduler.hpp"
#include "trace.hpp"

namespace prefill_trace::serving {
namespace {

Scenario with_tensor_parallel(const Scenario& scenario, int64_t devices) {
  Scenario copy = scenario;
  copy.workload.tensor_parallel = devices;
  copy.workload.batch = 1;
  copy.workload.chunk_tokens = 0;
  copy.workload.arrival_rate = 0;
  return copy;
}

// K/V tokens one instance holds: its memory less the weights and the temporaries of its largest
// iteration (the memory ledger of a trace of `budget` rows), over the K/V bytes of one token.
double kv_capacity_tokens(const Scenario& instance, int64_t budget) {
  Scenario probe = instance;
  probe.workload.prompt_tokens = std::max<int64_t>(1, budget);
  const Trace trace = compute_trace(probe, {}, TraceOptions{false});
  const double free_bytes =
      trace.memory.capacity_bytes - trace.memory.weight_bytes - trace.memory.temporaries_bytes;
  return free_bytes <= 0 ? 0 : std::floor(free_bytes / trace.attention.kv_bytes_per_token);
}

}  // namespace

// The cost models and K/V room of the run's instances: one colocated kind, or a prefill and a
// decode kind (disaggregated), each at its own tensor parallelism.
Fleet build_fleet(const Scenario& scenario, const ServingConfig& config) {
  const Scenario prefill_scenario = with_tensor_parallel(scenario, config.prefill_tensor_parallel);
  Fleet fleet;
  fleet.prefill_cost = std::make_unique<IterationCost>(prefill_scenario);
  fleet.prefill_kv_tokens = kv_capacity_tokens(prefill_scenario, config.token_budget);
  if (policy_traits(config.policy).disaggregated) {
    const Scenario decode_scenario = with_tensor_parallel(scenario, config.decode_tensor_parallel);
    fleet.decode_cost = std::make_unique<IterationCost>(decode_scenario);
    // A decode iteration carries at most max_batch rows.
    fleet.decode_kv_tokens = kv_capacity_tokens(decode_scenario, config.max_batch);
  }
  return fleet;
}

// Sizes the decode cost caches for the longest request's context once, instead of growing
// them (each growth copies the cache) as the run's contexts rise.
void reserve_decode_contexts(const Fleet& fleet, const std::vector<RequestSpec>& specs) {
  int64_t longest = 0;
  for (const RequestSpec& spec : specs) longest = std::max(longest, spec.prompt + spec.output);
  fleet.prefill_cost->reserve_decode_contexts(longest);
  if (fleet.decode_cost) fleet.decode_cost->reserve_decode_contexts(longest);
}

std::vector<Instance> instances(const ServingConfig& config, const Fleet& fleet) {
  std::vector<Instance> list;
  if (!policy_traits(config.policy).disaggregated) {
    Instance one;
    one.cost = fleet.prefill_cost.get();
    one.devices = config.prefill_tensor_parallel;
    one.kv_capacity_tokens = fleet.prefill_kv_tokens;
    list.push_back(std::move(one));
    return list;
  }
  for (int64_t i = 0; i < config.prefill_devices; ++i) {
    Instance in;
    in.role = Role::prefill;
    in.cost = fleet.prefill_cost.get();
    in.devices = config.prefill_tensor_parallel;
    in.kv_capacity_tokens = fleet.prefill_kv_tokens;
    list.push_back(std::move(in));
  }
  for (int64_t i = 0; i < config.decode_devices; ++i) {
    Instance in;
    in.role = Role::decode;
    in.cost = fleet.decode_cost.get();
    in.devices = config.decode_tensor_parallel;
    in.kv_capacity_tokens = fleet.decode_kv_tokens;
    list.push_back(std::move(in));
  }
  return list;
}

// Every request must fit an instance alone, and the run's total work stays within the limits.
std::optional<Error> check_workload(const ServingConfig& config,
                                    const std::vector<RequestSpec>& specs, const Fleet& fleet,
                                    int64_t window) {
  double prompt_total = 0;
  double output_total = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const RequestSpec& spec = specs[i];
    prompt_total += static_cast<double>(spec.prompt);
    output_total += static_cast<double>(spec.output);
    const std::string where =
        config.rows.empty() ? "/serving/prompt" : "/serving/rows/" + std::to_string(i);
    if (spec.prompt + spec.output > limits::max_context_tokens) {
      return error_at(ErrorCode::out_of_range, where,
                      "request " + std::to_string(i) + " has a context of " +
                          std::to_string(spec.prompt + spec.output) +
                          " tokens, over the limit of " +
                          std::to_string(limits::max_context_tokens));
    }
    const auto kept = [&](int64_t tokens) {
      return static_cast<double>(window > 0 ? std::min(tokens, window) : tokens);
    };
    const bool disaggregated = policy_traits(config.policy).disaggregated;
    const double prefill_need = kept(spec.prompt + (disaggregated ? 0 : spec.output));
    const double decode_need = kept(spec.prompt + spec.output);
    if (prefill_need > fleet.prefill_kv_tokens ||
        (disaggregated && decode_need > fleet.decode_kv_tokens)) {
      const double capacity =
          prefill_need > fleet.prefill_kv_tokens ? fleet.prefill_kv_tokens : fleet.decode_kv_tokens;
      return error_at(ErrorCode::incompatible, where,
                      "request " + std::to_string(i) + " needs K/V for " +
                          std::to_string(static_cast<int64_t>(decode_need)) +
                          " tokens, more than the " +
                          std::to_string(static_cast<int64_t>(capacity)) +
                          " an instance holds beside its weights");
    }
  }
  if (output_total > limits::max_serving_output_tokens)
    return error_at(ErrorCode::too_large, "/serving/output",
                    "the requests' output tokens sum to more than 1e8");
  if (prompt_total > limits::max_serving_prompt_tokens)
    return error_at(ErrorCode::too_large, "/serving/prompt",
                    "the requests' prompt tokens sum to more than 1e9");
  return std::nullopt;
}

}  // namespace prefill_trace::serving
