// The placement search (src/serving/plan.hpp): every placement within the device budget, each
// one goodput search of the serving simulation, ranked by goodput per device.

#include "serving/plan.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

#include "limits.hpp"
#include "serving/schedulers/scheduler.hpp"

namespace prefill_trace {
namespace {

using serving::policy_traits;

// One goodput search's answer.
struct Search {
  double goodput = 0;  // requests/s
  bool bounded = true;
};

// Runs the goodput searches of one plan, holding them to limits::max_plan_work together.
class Searches {
 public:
  Searches(const Scenario& scenario, int64_t devices, double work)
      : scenario_(scenario), devices_(devices), budget_(work), left_(work) {}

  // The goodput of the placement `config` describes, as `serve --goodput` would give it; an
  // error when the simulation refuses it or the plan's work is spent.
  Result<Search> run(ServingConfig config) {
    const bool capped = left_ < config.call_limits.work;
    config.call_limits.work = std::min(config.call_limits.work, left_);
    auto report = simulate_serving(scenario_, std::move(config));
    ++count_;
    if (!report) {
      if (capped && report.failure().code == ErrorCode::too_large) return over_budget();
      return report.failure();
    }
    left_ -= report.value().work;
    const GoodputSearch& search = *report.value().goodput;
    return Search{search.goodput_requests_per_second, search.bounded};
  }
  int64_t count() const { return count_; }

 private:
  Error over_budget() const {
    return error_at(ErrorCode::too_large, "/devices",
                    "the placement search of " + std::to_string(devices_) +
                        " devices needs more than " +
                        std::to_string(static_cast<int64_t>(budget_)) +
                        " units of work (max_plan_work) in its " + std::to_string(count_) +
                        " goodput searches; ask for fewer devices, fewer requests or shorter "
                        "outputs");
  }
  const Scenario& scenario_;
  int64_t devices_;
  double budget_;
  double left_;
  int64_t count_ = 0;
};

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

class Planner {
 public:
  Planner(const Scenario& scenario, const ServingConfig& base, PlanReport& report, double work)
      : base_(base), report_(report), searches_(scenario, report.devices, work) {}

  // Colocated instances share nothing, so k of them serve k times one instance's goodput when
  // requests are routed at random (DistServe's replication, §4.1): one search per TP degree (per
  // k under gamma arrivals, whose burstiness splitting reduces).
  std::optional<Error> colocated(SchedulerPolicy policy) {
    for (const int64_t tp : report_.tensor_parallel_options) {
      ServingConfig config = base_;
      config.policy = policy;
      config.prefill_tensor_parallel = tp;
      std::optional<Search> poisson;
      for (int64_t k = 1; k * tp <= report_.devices; ++k) {
        if (config.arrival == ArrivalKind::gamma) config.arrival_cv = split_cv(base_.arrival_cv, k);
        if (!poisson || config.arrival == ArrivalKind::gamma) {
          auto search = searches_.run(config);
          if (!search) {
            if (!placement_refusal(search.failure())) return search.failure();
            report_.skipped.push_back({policy, tp, 0, search.failure().message});
            break;
          }
          poisson = search.value();
        }
        add({policy, k, 0, tp, 0, k * tp, poisson->goodput * static_cast<double>(k), 0,
             poisson->bounded});
      }
    }
    return std::nullopt;
  }

  // Disaggregated placements run as one fleet: the prefill and decode instances interact
  // (K/V transfers, the decode queue), so every pair of instance counts is its own search.
  std::optional<Error> disaggregated() {
    for (const int64_t p : report_.tensor_parallel_options) {
      for (const int64_t d : report_.tensor_parallel_options) {
        if (auto error = disaggregated_pair(p, d)) return error;
      }
    }
    return std::nullopt;
  }

 private:
  std::optional<Error> disaggregated_pair(int64_t p, int64_t d) {
    ServingConfig config = base_;
    config.policy = SchedulerPolicy::disaggregated;
    config.prefill_tensor_parallel = p;
    config.decode_tensor_parallel = d;
    for (int64_t a = 1; a * p + d <= report_.devices; ++a) {
      for (int64_t b = 1; a * p + b * d <= report_.devices; ++b) {
        config.prefill_devices = a;
        config.decode_devices = b;
        auto search = searches_.run(config);
        if (!search) {
          if (!placement_refusal(search.failure())) return search.failure();
          // The refusal is the instances' (their memory), the same for every count.
          report_.skipped.push_back({config.policy, p, d, search.failure().message});
          return std::nullopt;
        }
        add({config.policy, a, b, p, d, a * p + b * d, search.value().goodput, 0,
             search.value().bounded});
      }
    }
    return std::nullopt;
  }

  void add(PlanCandidate candidate) {
    candidate.goodput_per_device =
        candidate.goodput_requests_per_second / static_cast<double>(candidate.devices);
    report_.candidates.push_back(candidate);
    report_.searches = searches_.count();
  }

  const ServingConfig& base_;
  PlanReport& report_;
  Searches searches_;
};

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

}  // namespace

Result<PlanReport> plan_serving(const Scenario& scenario, const ServingConfig& base,
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
  Planner planner(scenario, config, report, bounds.work);
  for (std::size_t i = 0; i < kSchedulerPolicyCount; ++i) {
    const auto policy = static_cast<SchedulerPolicy>(i);
    auto error =
        policy_traits(policy).disaggregated ? planner.disaggregated() : planner.colocated(policy);
    if (error) return *error;
  }
  if (report.candidates.empty()) {
    return error_at(ErrorCode::incompatible, "/devices",
                    "no placement of " + report.model + " within " + std::to_string(devices) +
                        " devices can serve the workload: " +
                        (report.skipped.empty() ? std::string("no tensor-parallel degree fits")
                                                : report.skipped.front().reason));
  }
  rank(report.candidates);
  return report;
}

}  // namespace prefill_trace
