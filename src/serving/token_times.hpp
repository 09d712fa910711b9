#pragma once
// Token times for pictures (docs/serving.md, "Token times"): which requests a report returns
// every token time of, and the check that bounds what they hold (src/limits.hpp).

#include <optional>
#include <vector>

#include "prefill_trace/result.hpp"
#include "serving/workload.hpp"

namespace prefill_trace::serving {

/// The requests `count` asks for, in arrival order: the first request with the longest prompt
/// and the ⌊n/2⌋ requests arriving just before it and the rest just after it (n = min(count,
/// requests)), the window shifted to stay within the run. Neighbours in arrival order are the
/// requests decoding while the long prompt prefills (those before it) and queued behind it
/// (those after): what a chart of its decode stalls needs.
std::vector<int> token_time_requests(const std::vector<RequestSpec>& specs, int64_t count);

/// Refuses (too_large at /serving/token_times) when the chosen requests' output tokens sum past
/// limits::max_token_times_tokens.
std::optional<Error> check_token_times(const std::vector<RequestSpec>& specs,
                                       const std::vector<int>& chosen);

}  // namespace prefill_trace::serving
