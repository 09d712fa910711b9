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

Roofs Roofs::decode() const {
  Roofs step = *this;
  step.bandwidth = decode_bandwidth;
  step.memory_latency_seconds = decode_memory_latency_seconds;
  return step;
}

namespace {

// The whole prefill's interval: its end-to-end family by device count. A stack the profile
// has no gap fitted for (vLLM, SGLang in the presets: no gap of their own adopted) takes
// the family's unseen-stack factors, from leave-one-source-out residuals (docs/validation.md);
// grouped CV's factors say how well a stack in the fit is predicted, not one outside it. A
// profile that states no unseen-stack factors (1, 1) keeps the fitted stacks' ones.
const std::array<double, 2>& unseen_stack_range(const EstimateProfile& profile,
                                                const Workload& work) {
  return profile.interval[static_cast<std::size_t>(
      work.tensor_parallel > 1 ? IntervalFamily::end_to_end_parallel_unseen_stack
                               : IntervalFamily::end_to_end_single_unseen_stack)];
}

std::array<double, 2> whole_prefill_range(const EstimateProfile& profile, const Workload& work) {
  if (whole_prefill_range_is_unseen_stack(profile, work)) return unseen_stack_range(profile, work);
  return profile.interval[static_cast<std::size_t>(work.tensor_parallel > 1
                                                       ? IntervalFamily::end_to_end_parallel
                                                       : IntervalFamily::end_to_end_single)];
}

}  // namespace

// A profile that states no factors for an unseen stack (each 1, as a custom one may) keeps the
// fitted stacks' range rather than none.
bool whole_prefill_range_is_unseen_stack(const EstimateProfile& profile, const Workload& work) {
  return !profile.stack_fitted(work.stack) &&
         unseen_stack_range(profile, work) != std::array<double, 2>{1, 1};
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
  roofs.gap_seconds = !estimate                                    ? 0
                      : kernel_stack(work.stack) == Stack::kernels ? 0
                      : work.graphs ? profile.graph_launch_gap_seconds
                                    : profile.gap_seconds(work.stack);
  roofs.memory_latency_seconds = estimate ? profile.memory_latency_seconds : 0;
  // A decode step streams the weights and K/V with few rows per GEMM (GEMV-like kernels that
  // run nearer peak bandwidth than prefill's kernels): its own fitted η_m and floor when the
  // profile states them. The user's memory_efficiency overrides both phases; the bound has none.
  const bool decode_stated = estimate && profile.decode_memory_efficiency > 0;
  roofs.decode_bandwidth =
      decode_stated && !work.memory_efficiency
          ? scenario.hardware.memory_bandwidth * profile.decode_memory_efficiency
          : roofs.bandwidth;
  roofs.decode_memory_latency_seconds =
      decode_stated ? profile.decode_memory_latency_seconds : roofs.memory_latency_seconds;
  roofs.compute_units = static_cast<double>(scenario.hardware.compute_units);
  for (auto& range : roofs.interval) range = {1, 1};
  if (estimate) {
    roofs.interval = profile.interval;
    roofs.whole_prefill_interval = whole_prefill_range(profile, work);
  }
  return roofs;
}

}  // namespace prefill_trace
