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
// loop (src/serving/simulation.cpp) adds host_iteration_seconds to every iteration's device time
// and frontend_seconds to every request's arrival; the stack (`--stack`) picks the profile.

#include <cstdint>
#include <string_view>

namespace prefill_trace {

struct HostOverheadProfile {
  std::string_view name;
  double iteration_seconds = 0;    // fixed, per iteration
  double per_request_seconds = 0;  // per running request of the iteration
  double per_token_seconds = 0;    // per token the iteration schedules (prefill and decode rows)
  double frontend_seconds = 0;     // per request, before it reaches the scheduler (TTFT only)
  // An instance of tensor parallelism > 1 (workers driven over Ray): its own fixed and
  // per-request figures in place of the first two; < 0 = not stated, the TP 1 figures.
  double parallel_iteration_seconds = -1;
  double parallel_per_request_seconds = -1;
  std::string_view source;
};

// vllm-0.2: the synchronous vLLM of 2023 (the engine the vLLM, DistServe and Splitwise papers
// measured), as Microsoft Vidur profiled its successor fork (Sarathi-Serve, vLLM 0.2/0.3 code) on
// an A100: data/profiling/a100/cpu_overheads.csv at commit 0633efa, the medians of the five host
// stages Vidur's own simulator adds to every iteration (schedule, sampler_e2e,
// prepare_inputs_e2e, process_model_outputs, ray_comm_time), Llama-2-7B, 8 … 64 requests.
// TP 1 (rows 0–7): 2.13, 3.01, 3.76, 4.93, 5.48, 6.44, 7.15, 8.05 ms; least squares of
// a + b·requests: a = 1.330 ms, b = 0.1052 ms per request (residuals ≤ 0.23 ms).
// TP 2 (rows 8–15): 5.46, 6.37, 7.78, 8.52, 10.71, 12.48, 13.95, 15.14 ms; TP 4 (rows 16–23):
// 5.64, 7.22, 8.64, 10.45, 12.52, 15.12, 15.89, 17.49 ms — Ray's communication with the workers
// (3.0–8.3 ms of it) dominates; the two degrees pooled: a = 3.611 ms, b = 0.2007 ms per request
// (residuals ≤ 1.88 ms; apart: 3.52 + 0.181·n at TP 2, 3.70 + 0.220·n at TP 4). No TP 8 rows:
// TP 8 takes the pooled line. Decode batches only, so no per-token term can be told apart (0);
// no front-end figure of that engine was found (0: its API server shared the engine's process
// and GIL, a cost per iteration the fit's rows, from Vidur's offline runs, do not hold).
//
// vllm: vLLM from 0.6 on, whose host work overlaps the device's — the API server in its own
// process, asynchronous output processing, multi-step scheduling (the vLLM team's v0.6.0 post,
// blog.vllm.ai 2024-09-05, which benchmarks `--num-scheduler-steps 10`). What is left is the
// scheduler's own bubble, paid once per scheduler call: "about 4ms of GPU bubble" per call
// (vllm-project/vllm issue #6854, the multi-step RFC, Llama-3-8B on one GPU as in PR #7000's
// command), over 10 steps: 0.4 ms per iteration. V1 (0.8 on) aims at "near-zero CPU overhead"
// and publishes no per-step figure, so 0.4 ms is an upper figure for it. Not per request or
// token (no figure); no front-end delay (its own process); at TP > 1 the same.
inline constexpr HostOverheadProfile kHostOverheadProfiles[] = {
    {"kernels", 0, 0, 0, 0, -1, -1, "device time only: no host overhead (the reference)"},
    {"vllm-0.2", 1.330e-3, 0.1052e-3, 0, 0, 3.611e-3, 0.2007e-3,
     "Vidur data/profiling/a100/cpu_overheads.csv @0633efa, Llama-2-7B, TP 1 (rows 0-7) and "
     "TP 2, 4 (rows 8-23), 8-64 requests"},
    {"vllm", 0.4e-3, 0, 0, 0, -1, -1,
     "vLLM issue #6854: ~4 ms bubble per scheduler call, over v0.6.0's 10 scheduler steps"},
};

/// The profile named `name`, or nullptr when there is none (the caller names the field).
inline const HostOverheadProfile* host_overhead_profile(std::string_view name) {
  for (const HostOverheadProfile& profile : kHostOverheadProfiles)
    if (profile.name == name) return &profile;
  return nullptr;
}

/// The host profile the serving loop charges under the stack named `stack`: its own, or the
/// zero-overhead reference for a stack without a published per-iteration figure (tensorrt-llm,
/// sglang, llama.cpp, transformers: their runs keep device time and per-kernel gaps only).
inline const HostOverheadProfile& host_overhead_of_stack(std::string_view stack) {
  const HostOverheadProfile* own = host_overhead_profile(stack);
  return own != nullptr ? *own : kHostOverheadProfiles[0];
}

/// Whether `profile` charges any host time (the report shows `host_seconds` only then).
inline bool charges_host_time(const HostOverheadProfile& profile) {
  return profile.iteration_seconds > 0 || profile.per_request_seconds > 0 ||
         profile.per_token_seconds > 0 || profile.frontend_seconds > 0 ||
         profile.parallel_iteration_seconds > 0 || profile.parallel_per_request_seconds > 0;
}

/// Host seconds of one iteration with `running` requests that schedules `scheduled_tokens`, on
/// an instance of `tensor_parallel` devices.
inline double host_iteration_seconds(const HostOverheadProfile& profile, int64_t running,
                                     int64_t scheduled_tokens, int64_t tensor_parallel = 1) {
  const bool parallel = tensor_parallel > 1;
  const double fixed = parallel && profile.parallel_iteration_seconds >= 0
                           ? profile.parallel_iteration_seconds
                           : profile.iteration_seconds;
  const double per_request = parallel && profile.parallel_per_request_seconds >= 0
                                 ? profile.parallel_per_request_seconds
                                 : profile.per_request_seconds;
  return fixed + per_request * static_cast<double>(running) +
         profile.per_token_seconds * static_cast<double>(scheduled_tokens);
}

}  // namespace prefill_trace
