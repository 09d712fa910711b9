#pragma once
// One serving call (simulate_serving, src/serving/serving.hpp) as an object that runs in slices:
// created from the checked request, advanced by a budget of work at a time, and finished into the
// report. simulate_serving is one advance with no budget limit, so both give the same bytes; a
// page without a background thread advances it between frames (docs/serving.md, "In slices").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "prefill_trace/result.hpp"
#include "serving/fleet.hpp"
#include "serving/runs.hpp"
#include "serving/serving.hpp"
#include "serving/work.hpp"
#include "serving/workload.hpp"

namespace prefill_trace::serving {

/// How far a call in slices is: runs finished, and the run under way's finished requests.
struct CallProgress {
  bool done = false;
  int64_t runs = 0;               // runs finished (the run, goodput probes, sweep rates)
  int64_t requests_finished = 0;  // of the run under way (0 when done)
  int64_t requests = 0;           // per run
};

class ServingCall {
 public:
  /// The call's parts, checked and prepared (src/serving/serve.cpp).
  ServingCall(ServingConfig config, Fleet fleet, std::vector<RequestSpec> specs, Plan plan,
              CallWork work, ServingReport report);
  ServingCall(const ServingCall&) = delete;
  ServingCall& operator=(const ServingCall&) = delete;

  /// Runs iterations until the call's work has grown by `budget` units (CallWork's: a row 1,
  /// an iteration 40, an operator-model evaluation 50) or the call is over; the last iteration
  /// may pass the budget by one iteration's work. True once the call is over.
  bool advance(double budget);
  bool done() const { return phase_ == Phase::done; }
  /// The call's work so far (CallWork's units): what a caller's own budget counts.
  double work() const { return work_.work(); }
  CallProgress progress() const;
  /// The report, or the refusal of a call that passed a limit; once done, once.
  Result<ServingReport> take();

 private:
  enum class Phase { run, goodput, sweep, done };
  void end_run();
  void start_next();

  ServingConfig config_;
  Fleet fleet_;
  std::vector<RequestSpec> specs_;
  Plan plan_;
  CallWork work_;
  ServingReport report_;
  Call call_;
  Phase phase_ = Phase::run;
  std::unique_ptr<RateRun> run_;
  std::optional<GoodputSearcher> search_;
  std::size_t sweep_index_ = 0;
  int64_t runs_ = 0;
};

/// Checks the config against the scenario and src/limits.hpp (errors name the JSON path under
/// /serving) and prepares the call: the errors simulate_serving gives before it runs.
Result<std::unique_ptr<ServingCall>> start_serving(const Scenario& scenario, ServingConfig config);

}  // namespace prefill_trace::serving
