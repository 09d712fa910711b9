#include "trace/roofs.hpp"

#include "trace/attention_schedule.hpp"

namespace prefill_trace {

double Roofs::peak_flops(Family family) const {
  return family == Family::attention     ? attention_peak_flops
         : family == Family::expert_gemm ? expert_peak_flops
                                         : gemm_peak_flops;
}

Roofline Roofs::roofline() const {
  return Roofline{timing, gemm_peak_flops, bandwidth, gemm_peak_flops / bandwidth};
}

Roofs roofs_of(const Scenario& scenario) {
  const Workload& work = scenario.workload;
  const EstimateProfile& profile = scenario.hardware.estimate;
  Roofs roofs;
  roofs.timing = work.timing;
  const bool estimate = roofs.estimate();
  // η_c for a family: the user's override, else 1 (bound) or the profile's value (estimate).
  const auto compute_efficiency = [&](double profile_value) {
    return work.compute_efficiency.value_or(estimate ? profile_value : 1);
  };
  const double raw_peak = scenario.hardware.peak_flops.at(scenario.precision.activations);
  roofs.gemm_peak_flops = raw_peak * compute_efficiency(profile.gemm_efficiency);
  roofs.attention_peak_flops =
      scenario.hardware.peak_flops.at(attention_arithmetic(scenario)) *
      compute_efficiency(profile.attention_efficiency_of(work.attention_kernel));
  roofs.expert_peak_flops = raw_peak * compute_efficiency(profile.expert_gemm_efficiency > 0
                                                              ? profile.expert_gemm_efficiency
                                                              : profile.gemm_efficiency);
  roofs.bandwidth = scenario.hardware.memory_bandwidth *
                    work.memory_efficiency.value_or(estimate ? profile.memory_efficiency : 1);
  roofs.link_bandwidth =
      scenario.hardware.interconnect_bandwidth * (estimate ? profile.interconnect_efficiency : 1);
  // Gaps between kernels, fitted: with each kernel launched on its own (the stack's gap), or
  // replayed from a captured graph; none for device time alone (stack `kernels`).
  roofs.gap_seconds = !estimate                      ? 0
                      : work.stack == Stack::kernels ? 0
                      : work.graphs                  ? profile.graph_launch_gap_seconds
                                                     : profile.gap_seconds(work.stack);
  roofs.memory_latency_seconds = estimate ? profile.memory_latency_seconds : 0;
  roofs.compute_units = static_cast<double>(scenario.hardware.compute_units);
  for (auto& range : roofs.interval) range = {1, 1};
  if (estimate) roofs.interval = profile.interval;
  return roofs;
}

}  // namespace prefill_trace
