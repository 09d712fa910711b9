#include "serving/timeline.hpp"

#include <algorithm>

namespace prefill_trace::serving {

TimelineFold::TimelineFold(int64_t points, double end_seconds, double devices)
    : points_(static_cast<std::size_t>(points)), devices_(devices) {
  if (points_ == 0 || end_seconds <= 0) {
    points_ = 0;
    return;
  }
  line_.step_seconds = end_seconds / static_cast<double>(points_);
  line_.time_seconds.resize(points_);
  line_.queued.assign(points_, 0);
  line_.running.assign(points_, 0);
  line_.prefill_tokens.assign(points_, 0);
  line_.decode_tokens.assign(points_, 0);
  line_.busy_fraction.assign(points_, 0);
  line_.kv_blocks.assign(points_, 0);
  line_.preemptions.assign(points_, 0);
  for (std::size_t k = 0; k < points_; ++k)
    line_.time_seconds[k] = line_.step_seconds * static_cast<double>(k + 1);
  snapshot_end_.assign(points_, -1);
}

void TimelineFold::add(const IterationLog& entry) {
  if (points_ == 0) return;
  const std::size_t k = bucket_of(entry.end);
  line_.prefill_tokens[k] += entry.prefill_tokens;
  line_.decode_tokens[k] += entry.decode_tokens;
  line_.preemptions[bucket_of(entry.start)] += entry.preemptions;
  if (entry.end >= snapshot_end_[k]) {
    snapshot_end_[k] = entry.end;
    line_.queued[k] = entry.queued;
    line_.running[k] = entry.running;
    line_.kv_blocks[k] = entry.kv_blocks;
  }
  // Busy device-time, split over the steps the iteration spans.
  for (std::size_t b = bucket_of(entry.start); b <= k; ++b) {
    const double lo = std::max(entry.start, line_.step_seconds * static_cast<double>(b));
    const double hi = std::min(entry.end, line_.step_seconds * static_cast<double>(b + 1));
    if (hi > lo) line_.busy_fraction[b] += (hi - lo) * entry.devices;
  }
}

Timeline TimelineFold::finish() {
  for (std::size_t k = 0; k < points_; ++k) {
    line_.busy_fraction[k] =
        std::min(1.0, line_.busy_fraction[k] / (devices_ * line_.step_seconds));
    // A step without an iteration ending in it keeps the state of the step before.
    if (snapshot_end_[k] < 0 && k > 0) {
      line_.queued[k] = line_.queued[k - 1];
      line_.running[k] = line_.running[k - 1];
      line_.kv_blocks[k] = line_.kv_blocks[k - 1];
    }
  }
  return std::move(line_);
}

}  // namespace prefill_trace::serving
