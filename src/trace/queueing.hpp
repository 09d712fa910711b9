#pragma once
// Step 5 of the trace: time to first token as queueing + execution + delivery. The queue is
// M/D/1 per batch (DistServe's prefill model): Poisson arrivals, the device's deterministic
// service time per batch of B requests.

#include <optional>
#include <vector>

#include "scenario/scenario.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {

/// The M/D/1 mean wait (DistServe's prefill model): λ·D² / (2·(1 − λ·D)); none when λ·D ≥ 1.
std::optional<double> md1_wait_seconds(double arrival_rate, double service_seconds);

/// Step 5 for a given execution time and on-device delivery time (LM head, sampling): the
/// M/D/1 queue per batch, batch formation, and the user's transport latency.
Ttft time_to_first_token(double execution_seconds, double delivery_compute_seconds,
                         const Workload& work);

/// The quantiles of step 5's queue wait (p50, p90, p99): the exact M/D/1 waiting time of a batch
/// (src/numeric/md1.hpp) plus the mean batch formation, as `queue_seconds` is the mean wait plus
/// it. Left empty when the queue is overloaded, like the mean; 0 when nothing arrives.
void add_queue_quantiles(Ttft& ttft, const Workload& work);

/// Step 5 of a trace's kernels: execution is every kernel before delivery; delivery is the LM
/// head and sampling (step 5).
Ttft time_to_first_token(const std::vector<Operator>& ops, const Workload& work);

}  // namespace prefill_trace
