// The placement search (src/serving/plan.hpp): every placement within the device budget, each
// one goodput search of the serving simulation (a ServingCall, resumable), ranked by goodput per
// device; in slices of work or in one advance.

#include "serving/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "limits.hpp"
#include "serving/schedulers/scheduler.hpp"

namespace prefill_trace {
namespace {

using serving::policy_traits;

// Whether a refusal belongs to the placement (an instance of this size cannot hold the model
// and a request's K/V, or disaggregation has no interconnect): that placement is skipped, while
// any other refusal is the input's and ends the plan.
bool placement_refusal(const Error& error) {
  if (error.code != ErrorCode::incompatible) return false;
  return error.path == "/serving" || error.path == "/serving/prompt" ||
         error.path == "/serving/policy" || error.path.rfind("/serving/rows/", 0) == 0;
}

// A gamma renewal process split at random over k instances: each instance's arrivals are again
// a renewal process (an interval is a geometric number of the original's), with CV² = 1 +
// (CV² − 1)/k — the first two moments exactly; the simulation draws it as gamma. Poisson (CV 1)
// stays Poisson: an instance of k sees the same process at rate/k.
double split_cv(double cv, int64_t k) {
  return std::sqrt(1 + (cv * cv - 1) / static_cast<double>(k));
}

// Best first: the most goodput per device; among equals the fewest devices, then the policy's
// order, the degrees and the counts (a total order, so the ranking is the same everywhere).
void rank(std::vector<PlanCandidate>& candidates) {
  const auto key = [](const PlanCandidate& c) {
    return std::make_tuple(-c.goodput_per_device, c.devices, static_cast<int>(c.policy),
                           c.prefill_tensor_parallel, c.decode_tensor_parallel, c.prefill_instances,
                           c.decode_instances);
  };
  std::sort(candidates.begin(), candidates.end(),
            [&](const PlanCandidate& a, const PlanCandidate& b) { return key(a) < key(b); });
}

std::optional<Error> check_input(const ServingConfig& base, int64_t devices) {
  if (devices < 1 || devices > limits::max_plan_devices)
    return error_at(ErrorCode::out_of_range, "/devices",
                    "must be an integer from 1 to " + std::to_string(limits::max_plan_devices));
  if (!base.rows.empty())
    return error_at(ErrorCode::incompatible, "/serving/rows",
                    "the placement search needs generated arrivals (rate and requests): each "
                    "candidate's goodput is searched over the rate");
  if (!base.ttft_slo_seconds && !base.tpot_slo_seconds)
    return error_at(ErrorCode::missing_field, "/serving/ttft_slo",
                    "the placement search ranks goodput, which needs an SLO: ttft_slo and/or "
                    "tpot_slo");
  return std::nullopt;
}

// Every placement within the budget in the order the search runs them: the policies in the
// enum's order; colocated, each TP degree with k = 1, 2, … instances; disaggregated, each pair of
// degrees with every prefill and decode instance count. Colocated instances share nothing, so k
// of them serve k times one instance's goodput when requests are routed at random (DistServe's
// replication, §4.1): one search per degree, and per k under gamma arrivals, whose burstiness
// splitting reduces. Disaggregated placements run as one fleet (K/V transfers, the decode
// queue): every pair of instance counts is its own search.
std::vector<PlanStep> enumerate(const PlanReport& report, const ServingConfig& base) {
  std::vector<PlanStep> steps;
  const std::vector<int64_t>& degrees = report.tensor_parallel_options;
  const int64_t n = report.devices;
  const bool gamma = base.arrival == ArrivalKind::gamma;
  int64_t group = 0;
  for (std::size_t i = 0; i < kSchedulerPolicyCount; ++i) {
    const auto policy = static_cast<SchedulerPolicy>(i);
    if (!policy_traits(policy).disaggregated) {
      for (const int64_t tp : degrees) {
        ++group;
        for (int64_t k = 1; k * tp <= n; ++k) {
          steps.push_back({policy, k, 0, tp, 0, k == 1 || gamma,
                           gamma ? split_cv(base.arrival_cv, k) : base.arrival_cv, group});
        }
      }
      continue;
    }
    for (const int64_t p : degrees) {
      for (const int64_t d : degrees) {
        ++group;
        for (int64_t a = 1; a * p + d <= n; ++a) {
          for (int64_t b = 1; a * p + b * d <= n; ++b)
            steps.push_back({policy, a, b, p, d, true, base.arrival_cv, group});
        }
      }
    }
  }
  return steps;
}

// The serving call of one placement: `serve --goodput` on it alone.
ServingConfig placement_config(ServingConfig config, const PlanStep& step) {
  config.policy = step.policy;
  config.prefill_tensor_parallel = step.prefill_tensor_parallel;
  config.arrival_cv = step.arrival_cv;
  if (policy_traits(step.policy).disaggregated) {
    config.decode_tensor_parallel = step.decode_tensor_parallel;
    config.prefill_devices = step.prefill_instances;
    config.decode_devices = step.decode_instances;
  }
  return config;
}

}  // namespace

PlanSearch::PlanSearch(Scenario scenario, ServingConfig base, PlanReport report,
                       std::vector<PlanStep> steps, double work)
    : scenario_(std::move(scenario)),
      base_(std::move(base)),
      report_(std::move(report)),
      steps_(std::move(steps)),
      budget_(work),
      left_(work) {}

bool PlanSearch::advance(double budget) {
  // The budget is the searches' work, in the serving call's units, as ServingCall's is.
  const bool unlimited = budget == std::numeric_limits<double>::infinity();
  double spent = 0;
  while (!finished_ && (unlimited || spent < budget)) {
    if (!call_) {
      next_step();
      continue;
    }
    const double before = call_->work();
    call_->advance(unlimited ? budget : budget - spent);
    spent += call_->work() - before;
    if (call_->done()) end_search();
  }
  return finished_;
}

// No search under way: the next placement reuses the group's search, starts one, or the plan ends.
void PlanSearch::next_step() {
  if (next_ == steps_.size()) {
    finish(std::nullopt);
    return;
  }
  const PlanStep& step = steps_[next_];
  if (!step.search) {
    add(step);
    ++next_;
    return;
  }
  start_search();
}

// A search's call is held to what is left of the plan's work: past it, the call's own refusal
// (too_large) is the plan's.
void PlanSearch::start_search() {
  ServingConfig config = placement_config(base_, steps_[next_]);
  capped_ = left_ < config.call_limits.work;
  config.call_limits.work = std::min(config.call_limits.work, left_);
  auto call = serving::start_serving(scenario_, std::move(config));
  if (!call) {
    ++count_;
    searched(refused(call.failure()));
    return;
  }
  call_ = std::move(call).value();
}

void PlanSearch::end_search() {
  auto report = call_->take();
  call_.reset();
  ++count_;
  if (!report) {
    searched(refused(report.failure()));
    return;
  }
  left_ -= report.value().work;
  const GoodputSearch& search = *report.value().goodput;
  searched(Search{search.goodput_requests_per_second, search.bounded});
}

Error PlanSearch::refused(const Error& error) const {
  if (!capped_ || error.code != ErrorCode::too_large) return error;
  return error_at(ErrorCode::too_large, "/devices",
                  "the placement search of " + std::to_string(report_.devices) +
                      " devices needs more than " + std::to_string(static_cast<int64_t>(budget_)) +
                      " units of work (max_plan_work) in its " + std::to_string(count_) +
                      " goodput searches; ask for fewer devices, fewer requests or shorter "
                      "outputs");
}

// A search ended: its placement is a candidate, or (a refusal of the placement's size) its
// group is skipped with the simulation's reason — every instance count shares it; any other
// refusal is the input's and ends the plan.
void PlanSearch::searched(const Result<Search>& search) {
  const PlanStep& step = steps_[next_];
  if (search) {
    last_ = search.value();
    add(step);
    ++next_;
    return;
  }
  if (!placement_refusal(search.failure())) {
    finish(search.failure());
    return;
  }
  report_.skipped.push_back({step.policy, step.prefill_tensor_parallel, step.decode_tensor_parallel,
                             search.failure().message});
  const int64_t group = step.group;
  while (next_ < steps_.size() && steps_[next_].group == group) ++next_;
}

void PlanSearch::add(const PlanStep& step) {
  PlanCandidate candidate{step.policy,
                          step.prefill_instances,
                          step.decode_instances,
                          step.prefill_tensor_parallel,
                          step.decode_tensor_parallel,
                          step.prefill_instances * step.prefill_tensor_parallel +
                              step.decode_instances * step.decode_tensor_parallel,
                          last_.goodput,
                          0,
                          last_.bounded};
  // k colocated instances serve k times one instance's goodput (enumerate, above).
  if (!policy_traits(step.policy).disaggregated)
    candidate.goodput_requests_per_second *= static_cast<double>(step.prefill_instances);
  candidate.goodput_per_device =
      candidate.goodput_requests_per_second / static_cast<double>(candidate.devices);
  report_.candidates.push_back(candidate);
  report_.searches = count_;
}

void PlanSearch::finish(std::optional<Error> refusal) {
  finished_ = true;
  call_.reset();
  if (!refusal && report_.candidates.empty()) {
    refusal = error_at(ErrorCode::incompatible, "/devices",
                       "no placement of " + report_.model + " within " +
                           std::to_string(report_.devices) + " devices can serve the workload: " +
                           (report_.skipped.empty() ? std::string("no tensor-parallel degree fits")
                                                    : report_.skipped.front().reason));
  }
  refusal_ = std::move(refusal);
  if (!refusal_) rank(report_.candidates);
}

PlanProgress PlanSearch::progress() const {
  return PlanProgress{finished_, count_, static_cast<int64_t>(next_),
                      static_cast<int64_t>(steps_.size())};
}

Result<PlanReport> PlanSearch::take() {
  if (refusal_) return *refusal_;
  return std::move(report_);
}

Result<std::unique_ptr<PlanSearch>> start_plan(const Scenario& scenario, const ServingConfig& base,
                                               int64_t devices, PlanLimits bounds) {
  if (auto error = check_input(base, devices)) return *error;
  PlanReport report;
  report.model = scenario.model.id;
  report.hardware = scenario.hardware.id;
  report.precision = scenario.precision.name;
  report.timing = scenario.workload.timing == Timing::bound ? "bound" : "estimate";
  report.devices = devices;
  for (int64_t tp = 1; tp <= devices; ++tp) {
    if (!tensor_parallel_problem(scenario, tp)) report.tensor_parallel_options.push_back(tp);
  }
  ServingConfig config = base;
  config.goodput = true;
  config.timeline_points = 0;  // the goodput's runs keep no timeline; the first run need not
  std::vector<PlanStep> steps = enumerate(report, config);
  return std::make_unique<PlanSearch>(scenario, std::move(config), std::move(report),
                                      std::move(steps), bounds.work);
}

// One advance with no limit on its work: the same object a caller in slices advances.
Result<PlanReport> plan_serving(const Scenario& scenario, const ServingConfig& base,
                                int64_t devices, PlanLimits bounds) {
  auto plan = start_plan(scenario, base, devices, bounds);
  if (!plan) return plan.failure();
  plan.value()->advance(std::numeric_limits<double>::infinity());
  return plan.value()->take();
}

}  // namespace prefill_trace
