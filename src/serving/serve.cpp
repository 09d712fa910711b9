// The serving simulation's entry point (src/serving/serving.hpp): resolves the configuration,
// builds the fleet and the workload into a call (src/serving/call.hpp), then runs it.

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "limits.hpp"
#include "serving/call.hpp"
#include "serving/fleet.hpp"
#include "serving/kv/kv.hpp"
#include "serving/runs.hpp"
#include "serving/schedulers/scheduler.hpp"
#include "serving/serving.hpp"
#include "serving/simulation.hpp"
#include "serving/token_times.hpp"
#include "serving/workload.hpp"

namespace prefill_trace {
namespace {

using serving::policy_traits;

constexpr int64_t kDefaultMaxBatch = 256;  // vLLM's max_num_seqs

Error serving_error(ErrorCode code, const std::string& path, const std::string& what) {
  return error_at(code, path, what);
}

// Fills the defaults and checks what needs the scenario or several fields at once.
std::optional<Error> resolve(const Scenario& scenario, ServingConfig& config) {
  const bool disaggregated = policy_traits(config.policy).disaggregated;
  if (!disaggregated) {
    if (config.prefill_devices != 0)
      return serving_error(ErrorCode::incompatible, "/serving/prefill_devices",
                           "only the disaggregated policy has prefill and decode instances");
    if (config.decode_devices != 0)
      return serving_error(ErrorCode::incompatible, "/serving/decode_devices",
                           "only the disaggregated policy has prefill and decode instances");
    if (config.decode_tensor_parallel != 0)
      return serving_error(ErrorCode::incompatible, "/serving/decode_tensor_parallel",
                           "only the disaggregated policy has decode instances");
  }
  if (config.prefill_devices == 0) config.prefill_devices = 1;
  if (config.decode_devices == 0) config.decode_devices = disaggregated ? 1 : 0;
  if (config.prefill_tensor_parallel == 0)
    config.prefill_tensor_parallel = scenario.workload.tensor_parallel;
  if (config.decode_tensor_parallel == 0)
    config.decode_tensor_parallel = disaggregated ? scenario.workload.tensor_parallel : 0;
  if (config.max_batch == 0) config.max_batch = kDefaultMaxBatch;
  if (config.token_budget == 0)
    config.token_budget = policy_traits(config.policy).default_token_budget;
  if (config.max_queue == 0) config.max_queue = limits::default_serving_max_queue;
  if (config.gpu_memory_utilization == 0)
    config.gpu_memory_utilization = serving::kv_mode_traits(config.kv).default_memory_utilization;
  if (policy_traits(config.policy).decodes_share_budget &&
      config.token_budget <= config.max_batch) {
    return serving_error(ErrorCode::incompatible, "/serving/token_budget",
                         "must exceed max_batch (" + std::to_string(config.max_batch) +
                             ") under the chunked policy, so every iteration has room for a "
                             "prefill chunk beside its decodes");
  }
  if (disaggregated && scenario.hardware.interconnect_bandwidth <= 0) {
    return serving_error(ErrorCode::incompatible, "/serving/policy",
                         "disaggregated moves K/V over the interconnect, and " +
                             scenario.hardware.id + " states no interconnect_bandwidth");
  }
  if (config.rows.empty()) {
    if (!(config.rate > 0))
      return serving_error(ErrorCode::missing_field, "/serving/rate",
                           "is required (requests/s > 0)");
    if (config.requests < 1)
      return serving_error(ErrorCode::missing_field, "/serving/requests",
                           "is required (at least 1)");
  } else {
    const std::string given = config.trace_format.empty() ? "explicit rows" : "a request trace";
    if (config.goodput)
      return serving_error(ErrorCode::incompatible, "/serving/goodput",
                           "needs generated arrivals (rate), not " + given);
    if (!config.sweep_rates.empty())
      return serving_error(ErrorCode::incompatible, "/serving/sweep_rates",
                           "needs generated arrivals (rate), not " + given);
    config.requests = static_cast<int64_t>(config.rows.size());
  }
  if (config.goodput && !config.ttft_slo_seconds && !config.tpot_slo_seconds)
    return serving_error(ErrorCode::incompatible, "/serving/goodput",
                         "needs an SLO: ttft_slo and/or tpot_slo");
  return std::nullopt;
}

bool has_hash_ids(const ServingConfig& config) {
  return std::any_of(config.rows.begin(), config.rows.end(),
                     [](const RequestRow& row) { return !row.hash_ids.empty(); });
}

// A trace's hash ids decide prefix-cache hits in paged blocks (src/serving/kv/prefix_cache.hpp):
// what that needs, each refusal naming the field that conflicts.
std::optional<Error> check_prefix_cache(const Scenario& scenario, const ServingConfig& config) {
  if (!has_hash_ids(config)) return std::nullopt;
  const std::string why = "the trace's hash_ids decide prefix-cache hits";
  if (config.prefix_hit > 0) {
    return serving_error(ErrorCode::incompatible, "/serving/prefix_hit",
                         why +
                             " (an LRU block cache): a fixed cached share cannot join them; "
                             "leave prefix_hit out, or strip hash_ids from the trace");
  }
  if (config.kv != KvMode::paged) {
    return serving_error(ErrorCode::incompatible, "/serving/kv",
                         why + " in paged K/V blocks (vLLM's prefix caching): kv must be paged");
  }
  if (kHashBlockTokens % config.block_size != 0) {
    return serving_error(ErrorCode::incompatible, "/serving/block_size",
                         why +
                             ", each naming a block of 512 tokens: block_size must divide "
                             "512 (1, 2, 4, … 512), not " +
                             std::to_string(config.block_size));
  }
  if (scenario.model.sliding_window > 0) {
    return serving_error(ErrorCode::incompatible, "/trace",
                         why + ", which is not modelled for a sliding-window model (" +
                             scenario.model.id + " keeps " +
                             std::to_string(scenario.model.sliding_window) +
                             " tokens): strip hash_ids from the trace");
  }
  return std::nullopt;
}

// The report's description of the run: what ran on what, and its devices.
ServingReport report_header(const Scenario& scenario, const ServingConfig& config) {
  const bool disaggregated = policy_traits(config.policy).disaggregated;
  ServingReport report;
  report.model = scenario.model.id;
  report.hardware = scenario.hardware.id;
  report.precision = scenario.precision.name;
  report.timing = scenario.workload.timing == Timing::bound ? "bound" : "estimate";
  report.devices = config.prefill_devices * config.prefill_tensor_parallel +
                   (disaggregated ? config.decode_devices * config.decode_tensor_parallel : 0);
  report.prefill_instance_devices = config.prefill_tensor_parallel;
  report.decode_instance_devices = disaggregated ? config.decode_tensor_parallel : 0;
  return report;
}

}  // namespace

namespace {

// The plan of every run: the resolved configuration and the K/V transfer's time per token.
serving::Plan make_plan(const Scenario& scenario, const ServingConfig& config,
                        ServingReport& report) {
  serving::Plan plan{config.policy,
                     config.token_budget,
                     config.max_batch,
                     config.max_queue,
                     scenario.model.sliding_window,
                     0,
                     config.ttft_slo_seconds,
                     config.tpot_slo_seconds,
                     config.timeline_points,
                     config.kv,
                     config.block_size,
                     {}};  // token_time_requests: chosen from the requests (simulate_serving)
  // Host time per iteration is the estimate's (as the stack's per-kernel gaps are): a bound
  // charges none, so it stays a lower bound.
  if (scenario.workload.timing == Timing::estimate)
    plan.host = host_overhead_of_stack(stack_name(scenario.workload.stack));
  report.charges_host = charges_host_time(plan.host);
  if (policy_traits(config.policy).disaggregated) {
    // Every prefill device sends its shard of the K/V at once, each over its own link: the
    // transfer takes the whole K/V over the links of the smaller instance.
    report.kv_transfer_bytes_per_token =
        report.kv_bytes_per_token * static_cast<double>(config.prefill_tensor_parallel);
    const double links = static_cast<double>(
        std::min(config.prefill_tensor_parallel, config.decode_tensor_parallel));
    plan.transfer_seconds_per_token =
        report.kv_transfer_bytes_per_token / (links * scenario.hardware.interconnect_bandwidth);
  }
  return plan;
}

}  // namespace

namespace serving {

Result<std::unique_ptr<ServingCall>> start_serving(const Scenario& scenario, ServingConfig config) {
  if (auto error = resolve(scenario, config)) return *error;
  if (auto error = check_prefix_cache(scenario, config)) return *error;
  ServingReport report = report_header(scenario, config);
  const bool disaggregated = policy_traits(config.policy).disaggregated;
  Fleet fleet = build_fleet(scenario, config);
  const double instance_kv = disaggregated ? fleet.decode_kv_tokens : fleet.prefill_kv_tokens;
  if (instance_kv < 1 || fleet.prefill_kv_tokens < 1) {
    return serving_error(ErrorCode::incompatible, "/serving",
                         "the model's weights and one iteration's temporaries leave "
                         "no memory for K/V on an instance of " +
                             scenario.hardware.id);
  }
  std::vector<RequestSpec> specs = workload(config);
  if (auto error = check_workload(config, specs, fleet, scenario.model.sliding_window))
    return *error;
  CallWork work({fleet.prefill_cost.get(), fleet.decode_cost.get()}, config.call_limits);
  if (auto error = work.check_before(specs, certain_runs(config, specs))) return *error;
  reserve_decode_contexts(fleet, specs);

  report.kv_bytes_per_token = fleet.prefill_cost->kv_bytes_per_token();
  report.kv_capacity_tokens = instance_kv;
  report.kv_capacity_blocks = disaggregated ? fleet.decode_kv_blocks : fleet.prefill_kv_blocks;
  Plan plan = make_plan(scenario, config, report);
  plan.prefix_cache = has_hash_ids(config);
  plan.token_time_requests = token_time_requests(specs, config.token_times);
  if (auto error = check_token_times(specs, plan.token_time_requests)) return *error;
  return std::make_unique<ServingCall>(std::move(config), std::move(fleet), std::move(specs),
                                       std::move(plan), std::move(work), std::move(report));
}

}  // namespace serving

// One advance with no limit on its work: the same object a caller in slices advances.
Result<ServingReport> simulate_serving(const Scenario& scenario, ServingConfig config) {
  auto call = serving::start_serving(scenario, std::move(config));
  if (!call) return call.failure();
  call.value()->advance(std::numeric_limits<double>::infinity());
  return call.value()->take();
}

}  // namespace prefill_trace
