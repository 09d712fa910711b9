#pragma once
// The runs of one call, each resumable: one run at a rate, and the goodput search's runs
// (docs/serving.md, "Goodput"). A call (src/serving/call.hpp) advances them in slices of work.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "serving/fleet.hpp"
#include "serving/serving.hpp"
#include "serving/simulation.hpp"
#include "serving/work.hpp"
#include "serving/workload.hpp"

namespace prefill_trace::serving {

/// What every run of one call shares.
struct Call {
  const ServingConfig& config;
  const Plan& plan;
  const std::vector<RequestSpec>& specs;
  const Fleet& fleet;
  CallWork& work;  // counts every run's iterations; refuses the call past a limit
};

/// One run of the requests with arrivals at `rate` (0: explicit rows as given). A detailed run
/// longer than kLoggedIterations runs twice: the second time with its span known, its timeline
/// folded as it goes.
class RateRun {
 public:
  RateRun(double rate, const Call& call, bool keep_detail);
  /// Advances while the call's work is below `work_until`; true once the run is over.
  bool advance(double work_until);
  /// Requests finished in the pass under way.
  int64_t finished() const { return simulation_->finished(); }
  /// The run's report; once advance() returned true.
  ServingRun take();

 private:
  void start(bool keep_detail);

  double rate_;
  const Call& call_;
  std::unique_ptr<Simulation> simulation_;
  std::optional<ServingRun> first_;  // the first pass's report, while the second draws its timeline
};

/// The largest rate whose SLO attainment reaches the target, one probe run at a time: next()
/// names the rate to run, record() takes its report; next() is empty once the search is over.
class GoodputSearcher {
 public:
  GoodputSearcher(const Call& call, int64_t devices);
  std::optional<double> next();
  void record(const ServingRun& run);
  /// The search's result; once next() is empty.
  GoodputSearch result();

 private:
  enum class Phase { first, up, down, bisect, done };
  void bracketed();

  const Call& call_;
  int64_t devices_;
  GoodputSearch search_;
  Phase phase_ = Phase::first;
  double rate_;             // the probe under way (or the last)
  double low_ = 0;          // the highest rate known to meet the target
  double high_ = 0;         // the lowest rate known to miss it (0: none yet)
  double median_ttft_ = 0;  // of the last run
  int runs_ = 0;            // the loop conditions' count, as kMaxSearchRuns bounds it
};

/// Runs the call certainly makes, for CallWork::check_before: the run, the sweep's, the goodput
/// search's first, and the timeline's second pass when the longest request alone needs more
/// iterations than a run keeps.
int64_t certain_runs(const ServingConfig& config, const std::vector<RequestSpec>& specs);

}  // namespace prefill_trace::serving
