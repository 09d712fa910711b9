// The report of one run (src/serving/simulation.hpp): per-request outcomes, their summaries,
// busy fractions and the timeline.

#include <algorithm>
#include <cmath>

#include "serving/simulation.hpp"
#include "serving/sort.hpp"

namespace prefill_trace::serving {
namespace {

// Nearest-rank percentiles: the ⌈p·n⌉-th smallest value.
Summary summarize(std::vector<double> values) {
  Summary summary;
  summary.count = static_cast<int64_t>(values.size());
  if (values.empty()) return summary;
  sort_ascending(values);
  double sum = 0;
  for (const double v : values) sum += v;
  summary.mean = sum / static_cast<double>(values.size());
  const auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::max<std::size_t>(k, 1) - 1];
  };
  summary.p50 = rank(0.5);
  summary.p90 = rank(0.9);
  summary.p99 = rank(0.99);
  return summary;
}

}  // namespace

// The timeline folded as the run went, or its kept iterations folded now; none when they were
// too many to keep (runs.cpp draws it again).
Timeline Simulation::timeline() const {
  if (fold_) return TimelineFold(*fold_).finish();
  if (log_dropped_) return Timeline{};
  double devices = 0;
  for (const Instance& instance : instances_) devices += static_cast<double>(instance.devices);
  TimelineFold fold(plan_.timeline_points, last_time_, devices);
  for (const IterationLog& entry : log_) fold.add(entry);
  return fold.finish();
}

// Request `index` as the report shows it: its lengths, and for a finished one its latencies.
RequestOutcome Simulation::outcome(std::size_t index) const {
  const RequestSpec& spec = specs_[index];
  const RequestState& s = states_[index];
  RequestOutcome out;
  out.arrival_seconds = s.arrival;
  out.prompt_tokens = spec.prompt;
  out.cached_tokens = cached_tokens(index);
  out.output_tokens = spec.output;
  out.finished = s.finished_at >= 0;
  if (!out.finished) return out;
  out.ttft_seconds = s.first_token - s.arrival;
  out.tpot_seconds =
      spec.output > 1 ? (s.last_token - s.first_token) / static_cast<double>(spec.output - 1) : 0;
  out.tbt_max_seconds = s.tbt_max;
  out.e2e_seconds = s.finished_at - s.arrival;
  out.meets_slo = (!plan_.ttft_slo || out.ttft_seconds <= *plan_.ttft_slo) &&
                  (!plan_.tpot_slo || out.tpot_seconds <= *plan_.tpot_slo);
  return out;
}

// Device-seconds busy over device-seconds run: all devices, and each role's.
void Simulation::add_busy_fractions(ServingRun& run) const {
  double busy = 0, devices = 0, prefill_busy = 0, prefill_devices = 0, decode_busy = 0,
         decode_devices = 0;
  for (const Instance& instance : instances_) {
    const double d = static_cast<double>(instance.devices);
    busy += instance.busy_seconds * d;
    devices += d;
    (instance.role == Role::decode ? decode_busy : prefill_busy) += instance.busy_seconds * d;
    (instance.role == Role::decode ? decode_devices : prefill_devices) += d;
  }
  run.busy_fraction = busy / (devices * last_time_);
  run.prefill_busy_fraction =
      prefill_devices > 0 ? prefill_busy / (prefill_devices * last_time_) : 0;
  run.decode_busy_fraction =
      decode_devices > 0 ? decode_busy / (decode_devices * last_time_) : run.prefill_busy_fraction;
}

// The prefix cache over the run: each admitted request's first lookup (a readmission after a
// preemption looks again, but its hit is not a new request's), evictions on every instance.
PrefixCacheFigures Simulation::prefix_cache_figures() const {
  PrefixCacheFigures figures;
  figures.block_tokens = kHashBlockTokens;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (states_[i].admitted < 0) continue;
    figures.hit_tokens += states_[i].first_cached;
    figures.prompt_tokens += specs_[i].prompt;
  }
  if (figures.prompt_tokens > 0) {
    figures.hit_rate =
        static_cast<double>(figures.hit_tokens) / static_cast<double>(figures.prompt_tokens);
  }
  for (const Instance& instance : instances_)
    figures.evicted_blocks += instance.prefix_cache.evicted_ids();
  return figures;
}

ServingRun Simulation::report() const {
  ServingRun run;
  run.requests = static_cast<int64_t>(specs_.size());
  run.completed = finished_;
  run.overloaded = overloaded_;
  run.overload_reason = reason_;
  run.simulated_seconds = last_time_;
  run.queued_at_stop = overloaded_ ? queued_at(last_time_) : 0;
  run.iterations = iterations_;
  run.longest_iteration_seconds = longest_iteration_;
  run.preemptions = preemptions_;
  run.recomputed_tokens = recomputed_tokens_;
  run.host_seconds = host_seconds_;
  std::vector<double> ttft, tpot, tbt, e2e, queue;
  for (auto* column : {&ttft, &tpot, &tbt, &e2e, &queue})
    column->reserve(static_cast<std::size_t>(finished_));
  if (keep_detail_) run.outcomes.reserve(specs_.size());
  int64_t met = 0;
  double output_tokens = 0;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const RequestOutcome out = outcome(i);
    if (out.finished) {
      ttft.push_back(out.ttft_seconds);
      if (out.output_tokens > 1) {
        tpot.push_back(out.tpot_seconds);
        tbt.push_back(out.tbt_max_seconds);
      }
      e2e.push_back(out.e2e_seconds);
      queue.push_back(states_[i].admitted - states_[i].arrival);
      output_tokens += static_cast<double>(out.output_tokens);
      if (out.meets_slo) ++met;
    }
    if (keep_detail_) run.outcomes.push_back(out);
  }
  run.ttft = summarize(std::move(ttft));
  run.tpot = summarize(std::move(tpot));
  run.tbt_max = summarize(std::move(tbt));
  run.e2e = summarize(std::move(e2e));
  run.queue = summarize(std::move(queue));
  // Unfinished requests (an overloaded run) count as misses.
  if (plan_.ttft_slo || plan_.tpot_slo)
    run.slo_attainment = static_cast<double>(met) / static_cast<double>(specs_.size());
  if (last_time_ > 0) {
    run.throughput_requests_per_second = static_cast<double>(finished_) / last_time_;
    run.throughput_tokens_per_second = output_tokens / last_time_;
    run.running_requests_mean = running_seconds_ / last_time_;
    add_busy_fractions(run);
  }
  if (plan_.prefix_cache) run.prefix_cache = prefix_cache_figures();
  if (keep_detail_) {
    run.timeline = timeline();
    run.token_times = token_times();
  }
  return run;
}

}  // namespace prefill_trace::serving
