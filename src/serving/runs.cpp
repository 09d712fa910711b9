#include "serving/runs.hpp"

#include <algorithm>

#include "limits.hpp"

namespace prefill_trace::serving {
namespace {

constexpr int kMaxSearchRuns = 64;  // goodput: doubling, halving and bisection

}  // namespace

ServingRun run_at(double rate, const Call& call, bool keep_detail) {
  Simulation simulation(call.plan, call.specs, rate, instances(call.config, call.fleet), call.work);
  ServingRun run = simulation.run(keep_detail);
  if (simulation.timeline_dropped() && !call.work.refused()) {
    Simulation again(call.plan, call.specs, rate, instances(call.config, call.fleet), call.work);
    again.fold_timeline(run.simulated_seconds);
    run.timeline = again.run(true).timeline;
  }
  run.rate = rate;
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

namespace {

// The goodput search's runs: each probe runs the requests at one rate and records it.
class GoodputProbes {
 public:
  GoodputProbes(const Call& call, GoodputSearch& search)
      : call_(call), config_(call.config), specs_(call.specs), search_(search) {}

  // Whether the run at `rate` meets the attainment target.
  bool meets(double rate) {
    const ServingRun run = run_at(rate, call_, false);
    const double attainment = run.slo_attainment.value_or(0);
    search_.probes.push_back(GoodputSearch::Probe{rate, attainment, run.overloaded});
    median_ttft_ = run.ttft.p50;
    return attainment >= config_.attainment_target;
  }

  // From a rate that meets the target, doubling until one misses: [low, high] with high = 0
  // when none did.
  void bracket_up(double rate, double& low, double& high) {
    // Arrivals at rate 1 divided by the rate: the last one's time is the run's arrival span.
    const double unit_span = specs_.empty() ? 0 : specs_.back().unit_arrival;
    low = rate;
    while (runs_++ < kMaxSearchRuns / 2 && rate * 2 <= limits::max_arrival_rate &&
           !call_.work.refused()) {
      // Every request arrived within the median TTFT and the target still holds: the run is
      // one burst, and a higher rate cannot load the device more. Too few requests to find a
      // rate that misses: the goodput is unbounded for this run, not the last rate tried.
      if (unit_span / rate < median_ttft_) {
        search_.bounded = false;
        break;
      }
      rate *= 2;
      if (!meets(rate)) {
        high = rate;
        break;
      }
      low = rate;
    }
  }

  // From a rate that misses, halving until one meets the target: low = 0 when none did.
  void bracket_down(double rate, double& low, double& high) {
    high = rate;
    // Halving stops where the arrivals would span more than limits::max_arrival_seconds.
    const double floor = static_cast<double>(specs_.size()) / limits::max_arrival_seconds;
    while (runs_++ < kMaxSearchRuns / 2 && rate / 2 >= floor && !call_.work.refused()) {
      rate /= 2;
      if (meets(rate)) {
        low = rate;
        break;
      }
      high = rate;
    }
  }

  // Bisection of [low, high] until its width is within the tolerance of its upper end.
  void bisect(double& low, double& high) {
    while (runs_++ < kMaxSearchRuns && high - low > config_.goodput_tolerance * high &&
           !call_.work.refused()) {
      const double mid = 0.5 * (low + high);
      (meets(mid) ? low : high) = mid;
    }
  }

 private:
  const Call& call_;
  const ServingConfig& config_;
  const std::vector<RequestSpec>& specs_;
  GoodputSearch& search_;
  double median_ttft_ = 0;  // of the last run
  int runs_ = 0;
};

}  // namespace

// The largest rate whose attainment reaches the target: doubling (or halving) from the
// configured rate until the target is bracketed, then bisection until the bracket's width is
// within the tolerance of its upper end. Every run draws the same requests (common random
// numbers: arrival times scale as 1/rate), so attainment falls with rate without sampling noise
// between runs; where it is not monotonic the search returns a rate at a crossing.
GoodputSearch search_goodput(const Call& call, int64_t devices) {
  const ServingConfig& config = call.config;
  GoodputSearch search;
  search.target = config.attainment_target;
  search.tolerance = config.goodput_tolerance;
  GoodputProbes probes(call, search);
  double low = 0;
  double high = 0;
  if (probes.meets(config.rate)) {
    probes.bracket_up(config.rate, low, high);
  } else {
    probes.bracket_down(config.rate, low, high);
  }
  if (low > 0 && high > 0) probes.bisect(low, high);
  search.goodput_requests_per_second = low;
  search.goodput_per_device = low / static_cast<double>(devices);
  std::sort(
      search.probes.begin(), search.probes.end(),
      [](const GoodputSearch::Probe& a, const GoodputSearch::Probe& b) { return a.rate < b.rate; });
  return search;
}

}  // namespace prefill_trace::serving
