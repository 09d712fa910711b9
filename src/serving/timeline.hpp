#pragma once
// The run's timeline (docs/serving.md, "Output"): iterations folded into equal steps of
// simulated time as they end, so a run's memory does not grow with its iterations. The steps
// divide the run's whole span, known only at its end: a run keeps the first kLoggedIterations
// iterations and folds them at its end, and a longer run is run again with its span known and
// folded as it goes (src/serving/runs.cpp) — the same additions in the same order either way.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "serving/serving.hpp"

namespace prefill_trace::serving {

/// What one iteration adds to the timeline.
struct IterationLog {
  double start, end;
  double prefill_tokens, decode_tokens;
  double queued, running;
  double devices;
  double kv_blocks;    // in use on every instance at the end
  double preemptions;  // while it was scheduled, at its start
};

/// Iterations a run keeps to fold at its end: 2^18 × 72 bytes = 18.9 MB. The 10,000-request
/// runs of docs/performance.md (~190,000 iterations) stay within it and run once; at 2^16 they
/// ran twice (0.05 → 0.09 s of CPU).
constexpr std::size_t kLoggedIterations = std::size_t{1} << 18;

class TimelineFold {
 public:
  /// `points` steps over [0, `end_seconds`]; `devices` of every instance together.
  TimelineFold(int64_t points, double end_seconds, double devices);
  void add(const IterationLog& entry);
  /// The columns, busy device-time as a fraction, and steps without an iteration ending in them
  /// carrying the state of the step before.
  Timeline finish();

 private:
  std::size_t bucket_of(double t) const {
    const auto k = static_cast<std::size_t>(t / line_.step_seconds);
    return k < points_ - 1 ? k : points_ - 1;
  }
  std::size_t points_;
  double devices_;
  Timeline line_;
  // Snapshots: the state after the last iteration to end within the step (iterations end in any
  // order across instances, so the latest end wins).
  std::vector<double> snapshot_end_;
};

}  // namespace prefill_trace::serving
