#include "trace/queueing.hpp"

#include <cmath>

#include "numeric/md1.hpp"

namespace prefill_trace {

std::optional<double> md1_wait_seconds(double arrival_rate, double service_seconds) {
  const double rho = arrival_rate * service_seconds;
  if (rho >= 1) return std::nullopt;
  return arrival_rate * service_seconds * service_seconds / (2 * (1 - rho));
}

Ttft time_to_first_token(double execution_seconds, double delivery_compute_seconds,
                         const Workload& work) {
  Ttft ttft;
  const double batch = static_cast<double>(work.batch);
  ttft.execution_seconds = execution_seconds;
  ttft.delivery_seconds = delivery_compute_seconds + work.delivery_seconds;
  ttft.service_seconds = execution_seconds + delivery_compute_seconds;
  ttft.saturation_arrival_rate = batch / ttft.service_seconds;
  if (work.arrival_rate > 0) {
    // Batches of B form at λ/B; each is one deterministic service of the device.
    const double batch_rate = work.arrival_rate / batch;
    ttft.utilization = batch_rate * ttft.service_seconds;
    ttft.batch_formation_seconds = (batch - 1) / (2 * work.arrival_rate);
    const auto wait = md1_wait_seconds(batch_rate, ttft.service_seconds);
    // A queue that does not settle to a finite wait is overloaded, whatever the cause: ρ ≥ 1,
    // or a wait beyond double range (the limits keep it finite; this keeps the promise if not).
    if (wait && std::isfinite(*wait + ttft.batch_formation_seconds))
      ttft.queue_seconds = *wait + ttft.batch_formation_seconds;
    ttft.overloaded = !ttft.queue_seconds.has_value();
  } else {
    ttft.queue_seconds = 0.0;
  }
  if (ttft.queue_seconds)
    ttft.total_seconds = *ttft.queue_seconds + ttft.execution_seconds + ttft.delivery_seconds;
  return ttft;
}

void add_queue_quantiles(Ttft& ttft, const Workload& work) {
  if (!ttft.queue_seconds) return;
  const double batch_rate = work.arrival_rate / static_cast<double>(work.batch);
  const auto wait = md1_wait_quantiles(batch_rate, ttft.service_seconds);
  if (!wait) return;
  const double formation = ttft.batch_formation_seconds;
  ttft.queue_p50_seconds = wait->p50_seconds + formation;
  ttft.queue_p90_seconds = wait->p90_seconds + formation;
  ttft.queue_p99_seconds = wait->p99_seconds + formation;
}

Ttft time_to_first_token(const std::vector<Operator>& ops, const Workload& work) {
  double execution = 0;
  double delivery_compute = 0;
  for (const Operator& op : ops) {
    (op.step == 5 ? delivery_compute : execution) += op.count * op.seconds;
  }
  return time_to_first_token(execution, delivery_compute, work);
}

}  // namespace prefill_trace
