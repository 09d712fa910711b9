// One serving call in slices (src/serving/call.hpp): the run, then the goodput search's probes,
// then the sweep's rates, in the order simulate_serving always ran them.

#include "serving/call.hpp"

#include <limits>
#include <utility>

namespace prefill_trace::serving {

ServingCall::ServingCall(ServingConfig config, Fleet fleet, std::vector<RequestSpec> specs,
                         Plan plan, CallWork work, ServingReport report)
    : config_(std::move(config)),
      fleet_(std::move(fleet)),
      specs_(std::move(specs)),
      plan_(std::move(plan)),
      work_(std::move(work)),
      report_(std::move(report)),
      call_{config_, plan_, specs_, fleet_, work_} {
  // Explicit rows run as given (rate 0).
  run_ = std::make_unique<RateRun>(config_.rows.empty() ? config_.rate : 0, call_, true);
}

bool ServingCall::advance(double budget) {
  // The budget is the work's growth: a limit in the same units the call's limits use, so that
  // a slice's time is roughly constant whatever the run's batch size (docs/serving.md).
  const double until =
      budget == std::numeric_limits<double>::infinity() ? budget : work_.work() + budget;
  while (phase_ != Phase::done && work_.work() < until) {
    if (!run_->advance(until)) break;
    end_run();
  }
  return done();
}

// The run under way is over: its report goes where the phase puts it, and the next run starts.
void ServingCall::end_run() {
  ServingRun run = run_->take();
  run_.reset();
  ++runs_;
  switch (phase_) {
    case Phase::run:
      report_.run = std::move(run);
      if (config_.goodput && !work_.refused()) {
        search_.emplace(call_, report_.devices);
        phase_ = Phase::goodput;
      } else {
        phase_ = Phase::sweep;
      }
      break;
    case Phase::goodput:
      search_->record(run);
      break;
    case Phase::sweep:
      report_.sweep.push_back(std::move(run));
      ++sweep_index_;
      break;
    case Phase::done:
      break;
  }
  start_next();
}

void ServingCall::start_next() {
  if (phase_ == Phase::goodput) {
    if (const std::optional<double> rate = search_->next()) {
      run_ = std::make_unique<RateRun>(*rate, call_, false);
      return;
    }
    report_.goodput = search_->result();
    phase_ = Phase::sweep;
  }
  if (phase_ == Phase::sweep) {
    // A refused call stops at once: the rest of the sweep does not run.
    if (sweep_index_ < config_.sweep_rates.size() && !work_.refused()) {
      run_ = std::make_unique<RateRun>(config_.sweep_rates[sweep_index_], call_, false);
      return;
    }
    phase_ = Phase::done;
  }
}

CallProgress ServingCall::progress() const {
  return CallProgress{done(), runs_, run_ ? run_->finished() : 0,
                      static_cast<int64_t>(specs_.size())};
}

Result<ServingReport> ServingCall::take() {
  if (const std::optional<Error>& refusal = work_.refusal()) return *refusal;
  report_.work = work_.work();
  report_.config = std::move(config_);
  return std::move(report_);
}

}  // namespace prefill_trace::serving
