#pragma once
// Host (CPU) time per serving iteration and per request, by engine version (issue 29, item 2):
// what an engine's Python or C++ loop spends between two device steps — scheduling, preparing
// the inputs, sampling, turning the outputs into Python objects — during which the device waits
// (a synchronous engine, as vLLM was until 0.6's asynchronous output processing). The form:
//   iteration = iteration_seconds + per_request_seconds · running requests
//               + per_token_seconds · scheduled tokens,
// and a front-end delay per request (HTTP, tokenization) added to its TTFT. `kernels` is the
// zero-overhead reference (device time only). Each profile says what it was fitted on; none is
// fitted on a figure docs/serving.md reports as validation. Pure data and arithmetic: the serving
// loop calls host_iteration_seconds for each iteration (wiring it in is the loop's business).

#include <cstdint>
#include <string_view>

namespace prefill_trace {

struct HostOverheadProfile {
  std::string_view name;
  double iteration_seconds = 0;    // fixed, per iteration
  double per_request_seconds = 0;  // per running request of the iteration
  double per_token_seconds = 0;    // per token the iteration schedules (prefill and decode rows)
  double frontend_seconds = 0;     // per request, before it reaches the scheduler (TTFT only)
  std::string_view source;
};

// vllm-0.2: the synchronous vLLM of 2023 (the engine the vLLM, DistServe and Splitwise papers
// measured), as Microsoft Vidur profiled its successor fork (Sarathi-Serve, vLLM 0.2/0.3 code) on
// an A100: data/profiling/a100/cpu_overheads.csv at commit 0633efa, rows 0–7 (Llama-2-7B, TP 1,
// 8 … 64 requests), the medians of the five host stages Vidur's own simulator adds to every
// iteration (schedule, sampler_e2e, prepare_inputs_e2e, process_model_outputs, ray_comm_time):
// 2.13, 3.01, 3.76, 4.93, 5.48, 6.44, 7.15, 8.05 ms. Least squares of a + b·requests over the
// eight: a = 1.330 ms, b = 0.1052 ms per request (residuals ≤ 0.23 ms). Decode batches only, so
// no per-token term can be told apart (0); no front-end figure of that engine was found (0).
// At TP > 1 the same file's rows add 3.0–8.3 ms of Ray communication per iteration (TP 2, 4):
// not in this TP 1 profile.
inline constexpr HostOverheadProfile kHostOverheadProfiles[] = {
    {"kernels", 0, 0, 0, 0, "device time only: no host overhead (the reference)"},
    {"vllm-0.2", 1.330e-3, 0.1052e-3, 0, 0,
     "Vidur data/profiling/a100/cpu_overheads.csv @0633efa, Llama-2-7B TP 1, 8-64 requests"},
};

/// The profile named `name`, or nullptr when there is none (the caller names the field).
inline const HostOverheadProfile* host_overhead_profile(std::string_view name) {
  for (const HostOverheadProfile& profile : kHostOverheadProfiles)
    if (profile.name == name) return &profile;
  return nullptr;
}

/// Host seconds of one iteration with `running` requests that schedules `scheduled_tokens`.
inline double host_iteration_seconds(const HostOverheadProfile& profile, int64_t running,
                                     int64_t scheduled_tokens) {
  return profile.iteration_seconds + profile.per_request_seconds * static_cast<double>(running) +
         profile.per_token_seconds * static_cast<double>(scheduled_tokens);
}

}  // namespace prefill_trace
