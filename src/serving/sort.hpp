#pragma once
// Sorting the serving report's per-request figures (percentiles, quantile curves, and the mean
// summed in ascending order): a 10,000-request run sorts five or seven such columns, where
// comparison sorting spent ~9 % of the run's time in mispredicted branches
// (docs/performance.md, "Serving simulation").

#include <vector>

namespace prefill_trace {

/// Sorts `values` ascending — the sequence std::sort gives for values without NaN (−0 goes
/// before +0, which std::sort may leave in either order) — by least-significant-digit radix
/// sort of their bit patterns: linear in the count, no data-dependent branches. Short columns
/// go to std::sort.
void sort_ascending(std::vector<double>& values);

}  // namespace prefill_trace
