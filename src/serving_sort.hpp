#pragma once
// Sorting the serving report's per-request figures (percentiles, quantile curves, and the mean
// summed in ascending order): a 10,000-request run sorts five or seven such columns, which
// comparison sorting made ~15 % of the run's instructions (docs/performance.md).

#include <vector>

namespace prefill_trace {

/// Sorts `values` ascending — the sequence std::sort gives for values without NaN (−0 goes
/// before +0, which std::sort may leave in either order) — by least-significant-digit radix
/// sort of their bit patterns: linear in the count, no data-dependent branches. Short columns
/// go to std::sort.
void sort_ascending(std::vector<double>& values);

}  // namespace prefill_trace
