#include "serving/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "limits.hpp"
#include "serving/kv/kv.hpp"
#include "serving/schedulers/scheduler.hpp"
#include "trace/trace.hpp"

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
// K/V room of one instance: the `utilization` share of its memory less the weights and the
// temporaries of its largest iteration (the memory ledger of a trace of `budget` rows — vLLM's
// profiling run at max_num_batched_tokens), over the K/V bytes of one token (per device) or of
// one block. CUDA graphs' memory is not taken from it: vLLM v0 captures them after sizing the
// cache, outside the utilization share.
void kv_room(const Scenario& instance, int64_t budget, const ServingConfig& config, double& tokens,
             int64_t& blocks) {
  Scenario probe = instance;
  probe.workload.prompt_tokens = std::max<int64_t>(1, budget);
  const Trace trace = compute_trace(probe, {}, TraceOptions{false});
  const double free_bytes = trace.memory.capacity_bytes * config.gpu_memory_utilization -
                            trace.memory.weight_bytes - trace.memory.temporaries_bytes;
  const double per_token = trace.attention.kv_bytes_per_token;
  if (config.kv == KvMode::reserve) {
    // Reserve admits by tokens; its capacity in blocks (the unit of the timeline's kv_blocks)
    // is the whole blocks those tokens fill: the same count paged K/V gets from the same bytes.
    tokens = free_bytes <= 0 ? 0 : std::floor(free_bytes / per_token);
    blocks = static_cast<int64_t>(tokens) / config.block_size;
    return;
  }
  const double block = per_token * static_cast<double>(config.block_size);
  blocks = free_bytes <= 0 ? 0 : static_cast<int64_t>(std::floor(free_bytes / block));
  tokens = static_cast<double>(blocks * config.block_size);
}

Instance instance_of(Role role, IterationCost* cost, int64_t devices, double tokens,
                     int64_t blocks) {
  Instance in;
  in.role = role;
  in.cost = cost;
  in.devices = devices;
  in.kv_capacity_tokens = tokens;
  in.kv_capacity_blocks = blocks;
  in.watermark_blocks =
      static_cast<int64_t>(kPagedWatermark * static_cast<double>(blocks));  // int() in vLLM
  return in;
}

// Paged K/V: a prompt is admitted only with the watermark's blocks still free after its own
// (kv/paged.cpp); one that cannot be, even alone, would wait forever.
std::optional<Error> check_paged_prompt(const ServingConfig& config, const RequestSpec& spec,
                                        const Fleet& fleet, int64_t window,
                                        const std::string& where, std::size_t i) {
  const int64_t kept = window > 0 ? std::min(spec.prompt, window) : spec.prompt;
  const int64_t need = (kept + config.block_size - 1) / config.block_size;
  const bool disaggregated = policy_traits(config.policy).disaggregated;
  for (const int64_t blocks : {fleet.prefill_kv_blocks,
                               disaggregated ? fleet.decode_kv_blocks : fleet.prefill_kv_blocks}) {
    const auto watermark = static_cast<int64_t>(kPagedWatermark * static_cast<double>(blocks));
    if (need + watermark > blocks) {
      return error_at(ErrorCode::incompatible, where,
                      "request " + std::to_string(i) + " needs " + std::to_string(need) +
                          " K/V blocks for its prompt and " + std::to_string(watermark) +
                          " free beside them (the 1 % watermark), more than the " +
                          std::to_string(blocks) + " an instance holds beside its weights");
    }
  }
  return std::nullopt;
}

}  // namespace

// The cost models and K/V room of the run's instances: one colocated kind, or a prefill and a
// decode kind (disaggregated), each at its own tensor parallelism.
Fleet build_fleet(const Scenario& scenario, const ServingConfig& config) {
  const Scenario prefill_scenario = with_tensor_parallel(scenario, config.prefill_tensor_parallel);
  Fleet fleet;
  fleet.prefill_cost = std::make_unique<IterationCost>(prefill_scenario);
  kv_room(prefill_scenario, config.token_budget, config, fleet.prefill_kv_tokens,
          fleet.prefill_kv_blocks);
  if (policy_traits(config.policy).disaggregated) {
    const Scenario decode_scenario = with_tensor_parallel(scenario, config.decode_tensor_parallel);
    fleet.decode_cost = std::make_unique<IterationCost>(decode_scenario);
    // A decode iteration carries at most max_batch rows.
    kv_room(decode_scenario, config.max_batch, config, fleet.decode_kv_tokens,
            fleet.decode_kv_blocks);
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
    list.push_back(instance_of(Role::colocated, fleet.prefill_cost.get(),
                               config.prefill_tensor_parallel, fleet.prefill_kv_tokens,
                               fleet.prefill_kv_blocks));
    return list;
  }
  for (int64_t i = 0; i < config.prefill_devices; ++i) {
    list.push_back(instance_of(Role::prefill, fleet.prefill_cost.get(),
                               config.prefill_tensor_parallel, fleet.prefill_kv_tokens,
                               fleet.prefill_kv_blocks));
  }
  for (int64_t i = 0; i < config.decode_devices; ++i) {
    list.push_back(instance_of(Role::decode, fleet.decode_cost.get(), config.decode_tensor_parallel,
                               fleet.decode_kv_tokens, fleet.decode_kv_blocks));
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
    if (config.kv == KvMode::paged) {
      if (auto error = check_paged_prompt(config, spec, fleet, window, where, i)) return error;
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
