#pragma once
// The serving simulation: many requests sharing devices under one of three schedulers, each
// iteration timed by the trace's own operator model (src/serving/cost.hpp). Deterministic for a
// seed and the same bits native and in wasm (src/serving/random.hpp). The simulation's rooms are
// in src/serving/ (docs/architecture.md); docs/serving.md states the semantics of each
// scheduler, the workload generators, the limits and the output.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "limits.hpp"
#include "prefill_trace/result.hpp"
#include "scenario/scenario.hpp"

namespace prefill_trace {

/// Token counts drawn per request: fixed, uniform on whole numbers [low, high], or lognormal with
/// the given mean and σ of ln (rounded to a whole number, at least 1).
struct LengthDistribution {
  enum class Kind { fixed, uniform, lognormal };
  Kind kind = Kind::fixed;
  double a = 0;         // fixed: the count; uniform: low; lognormal: the mean
  double b = 0;         // uniform: high; lognormal: σ
  double mean() const;  // the distribution's mean before rounding (docs/serving.md)
};

enum class ArrivalKind { poisson, gamma };
/// One scheduler per value, each in its own file under src/serving/schedulers/ with its row in
/// the registry there (whose static_assert holds the table to this count).
enum class SchedulerPolicy { prefill_first, chunked, disaggregated };
constexpr std::size_t kSchedulerPolicyCount =
    static_cast<std::size_t>(SchedulerPolicy::disaggregated) + 1;  // the last value + 1
const char* policy_name(SchedulerPolicy policy);

/// One explicit request (a trace row).
struct RequestRow {
  double arrival_seconds = 0;
  int64_t prompt_tokens = 0;
  int64_t output_tokens = 0;
  std::vector<int64_t> hash_ids{};  // a Mooncake trace's prompt block identities; else empty
};

/// The bounds one call is held to (src/serving/work.hpp): src/limits.hpp's; a test sets smaller
/// ones to reach them cheaply. The JSON reader never sets them.
struct ServingCallLimits {
  int64_t run_iterations = limits::max_serving_run_iterations;
  int64_t call_iterations = limits::max_serving_call_iterations;
  double work = limits::max_serving_call_work;
};

/// How an instance grants K/V memory; one file per mode under src/serving/kv/ with its row in
/// the table there (docs/serving.md, "K/V memory").
enum class KvMode { paged, reserve };
constexpr std::size_t kKvModeCount = static_cast<std::size_t>(KvMode::reserve) + 1;
const char* kv_mode_name(KvMode mode);

struct ServingConfig {
  SchedulerPolicy policy = SchedulerPolicy::chunked;
  double rate = 0;  // requests/s (generated arrivals)
  int64_t requests = 0;
  uint64_t seed = 1;
  LengthDistribution prompt;
  LengthDistribution output;
  ArrivalKind arrival = ArrivalKind::poisson;
  double arrival_cv = 1;         // gamma: coefficient of variation of inter-arrival times
  std::vector<RequestRow> rows;  // explicit requests: when non-empty, the generators are unused
  double prefix_hit = 0;         // fraction of each prompt already cached
  int64_t token_budget = 0;      // tokens per iteration; 0 = the policy's default
  int64_t max_batch = 0;         // running requests per instance; 0 = the default
  int64_t prefill_devices = 0;   // disaggregated: prefill instances (0 = unset: 1)
  int64_t decode_devices = 0;    // disaggregated: decode instances (0 = unset: 1)
  int64_t prefill_tensor_parallel = 0;  // 0 = the scenario's tensor_parallel
  int64_t decode_tensor_parallel = 0;
  std::optional<double> ttft_slo_seconds;
  std::optional<double> tpot_slo_seconds;
  double attainment_target = 0.9;
  bool goodput = false;
  double goodput_tolerance = 0.01;  // relative width of the final bracket
  std::vector<double> sweep_rates;  // extra runs at these rates (attainment vs rate)
  int64_t timeline_points = 200;
  int64_t max_queue = 0;  // waiting requests that stop a run as overloaded; 0 = the default
  KvMode kv = KvMode::paged;
  int64_t block_size = 16;  // tokens per K/V block (vLLM's default); reserve: the unit it counts in
  // Share of device memory for weights, activations and K/V (vLLM's gpu_memory_utilization);
  // 0 = the mode's default: 0.9 paged (vLLM's), 1 reserve (the whole memory, as before).
  double gpu_memory_utilization = 0;
  // Requests whose token times the report returns (docs/serving.md, "Token times"); 0: none.
  int64_t token_times = 0;
  // A request trace (docs/serving.md, "Real traces"): its format ("" without one; its requests
  // are `rows`), and how it was read: arrivals divided by the rate scale, the first `limit`.
  std::string trace_format;
  double trace_rate_scale = 1;
  int64_t trace_limit = 0;
  ServingCallLimits call_limits;
};

/// Mean and nearest-rank percentiles of one per-request figure (none when no request has it).
struct Summary {
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  int64_t count = 0;
};

struct RequestOutcome {
  double arrival_seconds = 0;
  int64_t prompt_tokens = 0;
  int64_t cached_tokens = 0;
  int64_t output_tokens = 0;
  bool finished = false;
  double ttft_seconds = 0;
  double tpot_seconds = 0;  // mean gap after the first token (0 when output is 1 token)
  double tbt_max_seconds = 0;
  double e2e_seconds = 0;
  bool meets_slo = false;
};

/// Columns sampled at equal simulated-time steps: what a chart draws, no second computation.
struct Timeline {
  double step_seconds = 0;
  std::vector<double> time_seconds;    // end of each step
  std::vector<double> queued;          // waiting requests at the step's end
  std::vector<double> running;         // admitted, unfinished requests at the step's end
  std::vector<double> prefill_tokens;  // prompt tokens computed during the step
  std::vector<double> decode_tokens;   // output tokens decoded during the step
  std::vector<double> busy_fraction;   // device-time busy / device-time available in the step
  std::vector<double> kv_blocks;       // K/V blocks in use, all instances, at step's end
  std::vector<double> preemptions;     // preemptions in the step (paged; 0 under reserve)
};

/// One pass of a request's prompt through an iteration (a chunk under chunked prefill; the
/// whole prompt, or prompt + generated tokens after a preemption, otherwise).
struct PrefillPass {
  double start_seconds = 0;
  double end_seconds = 0;
  int64_t tokens = 0;
};

/// One request's times, for a chart of decode stalls (docs/serving.md, "Token times").
struct RequestTokenTimes {
  int64_t request = 0;  // index in arrival order, the CSV's `request`
  double arrival_seconds = 0;
  std::optional<double> admitted_seconds;  // first admission; none when never admitted
  int64_t prompt_tokens = 0;
  int64_t cached_tokens = 0;
  int64_t output_tokens = 0;
  std::vector<double> token_seconds;  // each output token's time, the first from the prefill
  std::vector<PrefillPass> prefill_passes;
  std::vector<double> preemption_seconds;
  // Passes or preemptions past limits::max_token_times_events were not kept.
  bool truncated = false;
};

/// The prefix cache decided by a trace's hash ids (docs/serving.md, "Prefix cache from
/// hash_ids"), over the requests admitted: tokens found cached at their first admission.
struct PrefixCacheFigures {
  int64_t block_tokens = 0;  // tokens one hash id names (Mooncake's block: 512)
  int64_t hit_tokens = 0;
  int64_t prompt_tokens = 0;   // of the admitted requests: what was looked up
  double hit_rate = 0;         // hit_tokens / prompt_tokens (0 when none was admitted)
  int64_t evicted_blocks = 0;  // hash blocks evicted, every instance
};

struct ServingRun {
  double rate = 0;
  int64_t requests = 0;
  int64_t completed = 0;
  bool overloaded = false;
  std::string overload_reason;  // empty unless overloaded
  double simulated_seconds = 0;
  int64_t queued_at_stop = 0;
  int64_t iterations = 0;
  // The longest single iteration (one pass of an instance): the longest any running decode can
  // wait for its next token within one pass; chunked prefill bounds it by the token budget.
  double longest_iteration_seconds = 0;
  int64_t preemptions = 0;           // paged: running requests preempted by recomputation
  int64_t recomputed_tokens = 0;     // paged: K/V tokens computed, dropped and computed again
  double running_requests_mean = 0;  // running requests over the run's time, all instances
  double host_seconds = 0;           // host time of the stack's iterations, summed over instances
  std::optional<PrefixCacheFigures> prefix_cache;  // with a trace's hash ids only
  Summary ttft, tpot, tbt_max, e2e, queue;
  std::optional<double> slo_attainment;  // none without an SLO
  double throughput_requests_per_second = 0;
  double throughput_tokens_per_second = 0;  // output tokens
  double busy_fraction = 0;
  double prefill_busy_fraction = 0;  // disaggregated: the prefill instances; else = busy
  double decode_busy_fraction = 0;
  Timeline timeline;
  std::vector<RequestOutcome> outcomes;
  std::vector<RequestTokenTimes> token_times;  // the detailed run only
};

struct GoodputSearch {
  double target = 0;
  double tolerance = 0;
  double goodput_requests_per_second = 0;  // 0 when even the lowest rate tried misses
  double goodput_per_device = 0;
  // False when the run's requests meet the target even as one burst (every arrival within the
  // median TTFT): then no rate bounds the goodput for this many requests, and it has no value.
  bool bounded = true;
  struct Probe {
    double rate;
    double attainment;
    bool overloaded;
  };
  std::vector<Probe> probes;  // every run of the search, in rate order
};

struct ServingReport {
  std::string model, hardware, precision, timing;  // the scenario's ids
  ServingConfig config;                            // resolved defaults
  int64_t devices = 0;
  int64_t prefill_instance_devices = 0;  // tensor-parallel degree of one instance
  int64_t decode_instance_devices = 0;
  double kv_capacity_tokens = 0;           // per (decode) instance
  int64_t kv_capacity_blocks = 0;          // per (decode) instance
  double kv_bytes_per_token = 0;           // per device
  double kv_transfer_bytes_per_token = 0;  // disaggregated: all devices' K/V of one token
  bool charges_host = false;  // the stack charges host time per iteration (estimate only)
  ServingRun run;
  std::optional<GoodputSearch> goodput;
  std::vector<ServingRun> sweep;  // one per sweep rate (outcomes and timeline dropped)
  // The call's work in src/serving/work.hpp's units (not written out): what a caller that makes
  // many calls (the placement search, src/serving/plan.hpp) holds to a budget of its own.
  double work = 0;
};

/// Checks the config against the scenario and src/limits.hpp; errors name the JSON path under
/// /serving. Then simulates the run, the goodput search and the sweep.
Result<ServingReport> simulate_serving(const Scenario& scenario, ServingConfig config);

}  // namespace prefill_trace
