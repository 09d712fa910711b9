#pragma once
// The rates every operator of a scenario is timed against, worked out once per trace: the peak
// arithmetic of the activation format × the family's η_c, HBM bandwidth × η_m, the link's
// bandwidth, and the gap each launch adds. The trace's `roofline` (and its ridge point) is the
// GEMM roof of the same values.

#include <array>

#include "scenario/scenario.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {

struct Roofs {
  Timing timing = Timing::bound;
  double gemm_peak_flops = 0;         // FLOP/s × η_c of dense GEMMs
  double expert_peak_flops = 0;       // FLOP/s × η_c of expert (MoE) GEMMs
  double attention_peak_flops = 0;    // FLOP/s × η_c of attention kernels
  double bandwidth = 0;               // HBM bytes/s × η_m
  double link_bandwidth = 0;          // interconnect bytes/s one way × the link's η
  double gap_seconds = 0;             // launch gap per kernel: 0 under the bound timing
  double memory_latency_seconds = 0;  // fixed device time per launch (estimate's floor)
  double compute_units = 0;           // SMs/CUs the occupancy terms divide work among
  // A decode step's memory roof and floor (the profile's decode_* values, else the two above).
  double decode_bandwidth = 0;
  double decode_memory_latency_seconds = 0;
  // The estimate's p10–p90 factors per interval family (1, 1 under the bound timing).
  std::array<std::array<double, 2>, kIntervalFamilyCount> interval{};
  // The whole prefill's p10–p90 factors (1, 1 under the bound timing): see roofs_of.
  std::array<double, 2> whole_prefill_interval{1, 1};

  bool estimate() const { return timing == Timing::estimate; }
  /// The compute roof an operator of `family` runs against.
  double peak_flops(Family family) const;
  /// The GEMM roofline the trace reports: peak, bandwidth and their ratio, the ridge point.
  Roofline roofline() const;
  /// The roofs a decode step (one new row per request) runs against: the same but for the
  /// bandwidth and floor (docs/model.md, "Decode steps").
  Roofs decode() const;
};

/// The roofs of `scenario`'s accelerator, precision and timing (and the user's η overrides).
Roofs roofs_of(const Scenario& scenario);

/// Whether the estimate's whole-prefill range is the one for a stack the fit has not seen (the
/// profile states no gap of `work.stack`'s own, and states factors for that case), rather than
/// the grouped-CV range of the fitted stacks: the rule roofs_of applies, told to the assumptions.
bool whole_prefill_range_is_unseen_stack(const EstimateProfile& profile, const Workload& work);

}  // namespace prefill_trace
