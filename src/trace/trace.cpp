#include "trace/trace.hpp"

#include <algorithm>
#include <cmath>

#include "trace/assumptions.hpp"
#include "trace/attention_schedule.hpp"
#include "trace/device_shard.hpp"
#include "trace/operator_model.hpp"
#include "trace/queueing.hpp"
#include "trace/roofs.hpp"
#include "trace/step_facts.hpp"

// The trace in the order of its steps. Each room of src/trace/ does one job: the attention
// schedule, the device shard, the roofs, the operator model, the step facts, the queueing and
// the assumptions; this file only runs them in order (and the sweep over many traces).

namespace prefill_trace {

const char* family_name(Family family) {
  switch (family) {
    case Family::gemm:
      return "gemm";
    case Family::expert_gemm:
      return "expert_gemm";
    case Family::attention:
      return "attention";
    case Family::memory:
      return "memory";
    case Family::interconnect:
      return "interconnect";
  }
  return "?";
}

const char* bound_name(Bound bound) {
  switch (bound) {
    case Bound::compute:
      return "compute";
    case Bound::memory:
      return "memory";
    case Bound::overhead:
      return "overhead";
    case Bound::interconnect:
      return "interconnect";
  }
  return "?";
}

const Operator* find_operator(const Trace& trace, std::string_view name) {
  for (const Operator& op : trace.operators) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

namespace {

// The whole prefill's p10–p90 range, fitted on whole-prefill measurements (docs/validation.md)
// rather than summed from the kernels' ranges (their errors are not independent): the totals'
// seconds and the device's service time in TTFT scaled by it; queue and transport as estimated.
// The range is the end-to-end family of the device count and the stack (roofs_of).
void whole_prefill_interval(const Roofs& roofs, Trace& trace) {
  const auto& range = roofs.whole_prefill_interval;
  trace.totals.seconds_low = trace.totals.seconds * range[0];
  trace.totals.seconds_high = trace.totals.seconds * range[1];
  if (trace.ttft.total_seconds) {
    const double service = trace.ttft.service_seconds;
    trace.ttft.total_seconds_low = *trace.ttft.total_seconds - service * (1 - range[0]);
    trace.ttft.total_seconds_high = *trace.ttft.total_seconds + service * (range[1] - 1);
  }
}

}  // namespace

Trace compute_trace(const Scenario& scenario, const std::vector<std::string>& mechanism,
                    const TraceOptions& options) {
  const Workload& work = scenario.workload;
  Trace trace;
  trace.scenario = scenario;
  trace.parameters = parameter_count(scenario.model);
  // Every kernel, byte and ledger entry below is one device's: the model's shard on it.
  const DeviceShard shard(scenario.model, work.tensor_parallel);
  Scenario device_scenario = scenario;
  device_scenario.model = shard.shard;
  const Scenario& device = device_scenario;

  const int64_t chunk =
      work.chunk_tokens == 0 ? work.prompt_tokens : std::min(work.chunk_tokens, work.prompt_tokens);
  const Pass prefill{work.prompt_tokens, chunk, 0};
  const int64_t block = flash_block(device);
  const TraceInputs in{device,
                       shard,
                       roofs_of(scenario),
                       prefill,
                       block,
                       attention_sums(prefill, static_cast<double>(block), window_of(device.model)),
                       byte_widths(scenario.precision)};
  const OperatorModel model(device, in.roofs, prefill);
  trace.operators = model.operators(in.sums);
  trace.totals = totals_of(trace.operators);
  // The GEMM roofs of this timing: what the projections' bounds and the ridge point use.
  trace.roofline = in.roofs.roofline();

  trace.embedding = embedding_facts(trace.operators, scenario.hardware, scenario.model.layers);
  trace.projection = projection_facts(in, trace.operators, model);
  trace.attention = attention_facts(in);
  memory_and_chunking(in, trace, trace.memory, trace.chunking);
  trace.ttft = time_to_first_token(trace.operators, work);
  if (options.queue_quantiles) add_queue_quantiles(trace.ttft, work);
  whole_prefill_interval(in.roofs, trace);
  trace.steps = mechanism_steps(trace.operators, mechanism);
  if (options.decode_comparison) trace.decode = decode_comparison(in, trace);
  trace.assumptions = assumptions(scenario);
  return trace;
}

Result<std::vector<SweepPoint>> sweep(const Scenario& scenario, SweepVariable variable,
                                      const std::vector<double>& values) {
  if (values.empty() || values.size() > max_sweep_points) {
    return error_at(values.empty() ? ErrorCode::out_of_range : ErrorCode::too_large, "/values",
                    "between 1 and " + std::to_string(max_sweep_points) + " points, not " +
                        std::to_string(values.size()));
  }
  // Every value is checked, and the call's work counted, before any trace runs: a prompt_tokens
  // point costs its ⌈T/C⌉ chunk passes; an arrival_rate sweep one trace of the scenario.
  const int64_t chunk = scenario.workload.chunk_tokens;
  const auto chunks_of = [chunk](int64_t tokens) {
    return chunk > 0 ? (tokens + chunk - 1) / chunk : int64_t{1};
  };
  double work = variable == SweepVariable::arrival_rate
                    ? static_cast<double>(chunks_of(scenario.workload.prompt_tokens))
                    : 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double value = values[i];
    // The values argument read as a JSON array: "/values/3" is its fourth value.
    const std::string where = "/values/" + std::to_string(i);
    if (!std::isfinite(value))
      return error_at(ErrorCode::out_of_range, where, "must be a finite number");
    if (variable == SweepVariable::prompt_tokens) {
      if (value < 1 || value > static_cast<double>(limits::max_prompt_tokens) ||
          value != std::floor(value)) {
        return error_at(ErrorCode::out_of_range, where,
                        "prompt_tokens must be an integer from 1 to " +
                            std::to_string(limits::max_prompt_tokens));
      }
      const int64_t chunks = chunks_of(static_cast<int64_t>(value));
      if (chunks > limits::max_chunks) {
        return error_at(ErrorCode::too_large, where,
                        "too many chunks for chunk_tokens " + std::to_string(chunk));
      }
      work += static_cast<double>(chunks);
    } else if (value != 0 &&
               (value < limits::min_arrival_rate || value > limits::max_arrival_rate)) {
      return error_at(ErrorCode::out_of_range, where,
                      "arrival_rate must be 0 or from 1e-30 to 1e9 requests/s");
    }
  }
  if (work > limits::max_sweep_work) {
    return error_at(ErrorCode::too_large, "/values",
                    std::to_string(static_cast<int64_t>(work)) +
                        " chunk passes (the points' ⌈T/C⌉ summed) exceed the limit of " +
                        std::to_string(static_cast<int64_t>(limits::max_sweep_work)) +
                        "; use fewer points or a larger chunk");
  }

  const auto point = [](double value, const Ttft& ttft) {
    return SweepPoint{value,
                      ttft.queue_seconds,
                      ttft.execution_seconds,
                      ttft.delivery_seconds,
                      ttft.total_seconds,
                      ttft.overloaded};
  };
  std::vector<SweepPoint> points;
  points.reserve(values.size());
  Scenario point_scenario = scenario;
  // The arrival rate changes only the queue: trace once, then re-evaluate M/D/1 per point.
  std::optional<Trace> fixed;
  if (variable == SweepVariable::arrival_rate)
    fixed = compute_trace(scenario, {}, TraceOptions{false, false});
  for (const double value : values) {
    if (variable == SweepVariable::prompt_tokens) {
      point_scenario.workload.prompt_tokens = static_cast<int64_t>(value);
      points.push_back(
          point(value, compute_trace(point_scenario, {}, TraceOptions{false, false}).ttft));
    } else {
      point_scenario.workload.arrival_rate = value;
      const Ttft& base = fixed->ttft;
      points.push_back(point(
          value,
          time_to_first_token(base.execution_seconds, base.service_seconds - base.execution_seconds,
                              point_scenario.workload)));
    }
  }
  return points;
}

}  // namespace prefill_trace
