#pragma once
// The runs of one call: one run at a rate, and the goodput search's runs (docs/serving.md,
// "Goodput").

#include <cstdint>
#include <vector>

#include "serving.hpp"
#include "serving/fleet.hpp"
#include "serving/simulation.hpp"
#include "serving/workload.hpp"

namespace prefill_trace::serving {

/// One run of the requests with arrivals at `rate` (0: explicit rows as given).
ServingRun run_at(double rate, const ServingConfig& config, const Plan& plan,
                  const std::vector<RequestSpec>& specs, const Fleet& fleet, bool keep_detail);

/// The largest rate whose SLO attainment reaches the target.
GoodputSearch search_goodput(const ServingConfig& config, const Plan& plan,
                             const std::vector<RequestSpec>& specs, const Fleet& fleet,
                             int64_t devices);

}  // namespace prefill_trace::serving
