#pragma once
// The runs of one call: one run at a rate, and the goodput search's runs (docs/serving.md,
// "Goodput").

#include <cstdint>
#include <vector>

#include "serving/serving.hpp"
#include "serving/fleet.hpp"
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
ServingRun run_at(double rate, const Call& call, bool keep_detail);

/// The largest rate whose SLO attainment reaches the target.
GoodputSearch search_goodput(const Call& call, int64_t devices);

/// Runs the call certainly makes, for CallWork::check_before: the run, the sweep's, the goodput
/// search's first, and the timeline's second pass when the longest request alone needs more
/// iterations than a run keeps.
int64_t certain_runs(const ServingConfig& config, const std::vector<RequestSpec>& specs);

}  // namespace prefill_trace::serving
