#include "serving/runs.hpp"

#include <algorithm>

#include "limits.hpp"

namespace prefill_trace::serving {
namespace {

constexpr int kMaxSearchRuns = 64;  // goodput: doubling, halving and bisection

}  // namespace

RateRun::RateRun(double rate, const Call& call, bool keep_detail) : rate_(rate), call_(call) {
  start(keep_detail);
}

void RateRun::start(bool keep_detail) {
  simulation_ = std::make_unique<Simulation>(call_.plan, call_.specs, rate_,
                                             instances(call_.config, call_.fleet), call_.work);
  simulation_->begin(keep_detail);
}

bool RateRun::advance(double work_until) {
  if (!simulation_->advance(work_until)) return false;
  if (first_ || !simulation_->timeline_dropped() || call_.work.refused()) return true;
  // The timeline was too long to keep: the same requests again, folded over the known span.
  first_ = simulation_->report();
  start(true);
  simulation_->fold_timeline(first_->simulated_seconds);
  return simulation_->advance(work_until);
}

ServingRun RateRun::take() {
  ServingRun run = first_ ? std::move(*first_) : simulation_->report();
  if (first_) run.timeline = simulation_->report().timeline;
  run.rate = rate_;
  return run;
}

int64_t certain_runs(const ServingConfig& config, const std::vector<RequestSpec>& specs) {
  int64_t longest = 0;
  for (const RequestSpec& spec : specs) longest = std::max(longest, spec.output);
  const bool second_pass =
      config.timeline_points > 0 && longest > static_cast<int64_t>(kLoggedIterations);
  return 1 + (second_pass ? 1 : 0) + static_cast<int64_t>(config.sweep_rates.size()) +
         (config.goodput ? 1 : 0);
}

// The largest rate whose attainment reaches the target: doubling (or halving) from the
// configured rate until the target is bracketed, then bisection until the bracket's width is
// within the tolerance of its upper end. Every run draws the same requests (common random
// numbers: arrival times scale as 1/rate), so attainment falls with rate without sampling noise
// between runs; where it is not monotonic the search returns a rate at a crossing. Each phase's
// loop condition is evaluated once per next(), and counts against kMaxSearchRuns as it did when
// the search was three loops.
GoodputSearcher::GoodputSearcher(const Call& call, int64_t devices)
    : call_(call), devices_(devices), rate_(call.config.rate) {
  search_.target = call.config.attainment_target;
  search_.tolerance = call.config.goodput_tolerance;
}

std::optional<double> GoodputSearcher::next() {
  const bool refused = call_.work.refused();
  switch (phase_) {
    case Phase::first:
      return rate_;
    case Phase::up: {
      // Arrivals at rate 1 divided by the rate: the last one's time is the run's arrival span.
      const double unit_span = call_.specs.empty() ? 0 : call_.specs.back().unit_arrival;
      if (runs_++ < kMaxSearchRuns / 2 && rate_ * 2 <= limits::max_arrival_rate && !refused) {
        // Every request arrived within the median TTFT and the target still holds: the run is
        // one burst, and a higher rate cannot load the device more. Too few requests to find a
        // rate that misses: the goodput is unbounded for this run, not the last rate tried.
        if (!(unit_span / rate_ < median_ttft_)) return rate_ *= 2;
        search_.bounded = false;
      }
      break;
    }
    case Phase::down: {
      // Halving stops where the arrivals would span more than limits::max_arrival_seconds.
      const double floor = static_cast<double>(call_.specs.size()) / limits::max_arrival_seconds;
      if (runs_++ < kMaxSearchRuns / 2 && rate_ / 2 >= floor && !refused) return rate_ /= 2;
      break;
    }
    case Phase::bisect:
      if (runs_++ < kMaxSearchRuns && high_ - low_ > call_.config.goodput_tolerance * high_ &&
          !refused)
        return rate_ = 0.5 * (low_ + high_);
      phase_ = Phase::done;
      return std::nullopt;
    case Phase::done:
      return std::nullopt;
  }
  bracketed();  // a bracketing phase ended without a probe
  return next();
}

// The bracket is complete (or cannot be): bisect it when both ends are known.
void GoodputSearcher::bracketed() {
  phase_ = low_ > 0 && high_ > 0 ? Phase::bisect : Phase::done;
}

void GoodputSearcher::record(const ServingRun& run) {
  const double attainment = run.slo_attainment.value_or(0);
  search_.probes.push_back(GoodputSearch::Probe{rate_, attainment, run.overloaded});
  median_ttft_ = run.ttft.p50;
  const bool meets = attainment >= call_.config.attainment_target;
  switch (phase_) {
    case Phase::first:  // from a rate that meets the target, doubling; else halving
      (meets ? low_ : high_) = rate_;
      phase_ = meets ? Phase::up : Phase::down;
      break;
    case Phase::up:
      (meets ? low_ : high_) = rate_;
      if (!meets) bracketed();
      break;
    case Phase::down:
      (meets ? low_ : high_) = rate_;
      if (meets) bracketed();
      break;
    case Phase::bisect:
      (meets ? low_ : high_) = rate_;
      break;
    case Phase::done:
      break;
  }
}

GoodputSearch GoodputSearcher::result() {
  search_.goodput_requests_per_second = low_;
  search_.goodput_per_device = low_ / static_cast<double>(devices_);
  std::sort(
      search_.probes.begin(), search_.probes.end(),
      [](const GoodputSearch::Probe& a, const GoodputSearch::Probe& b) { return a.rate < b.rate; });
  return search_;
}

}  // namespace prefill_trace::serving
