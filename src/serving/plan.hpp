#pragma once
// The placement search (`prefill-trace plan`, docs/serving.md, "Placement search"): DistServe's
// placement problem (Zhong et al., OSDI 2024, §4) solved by enumeration over this simulator.
// For a device budget N it tries every scheduler policy × instance count × tensor-parallel
// degree per phase that fits — colocated: instances × TP ≤ N; disaggregated: prefill instances ×
// prefill TP + decode instances × decode TP ≤ N — runs the serving simulation's goodput search
// (src/serving/runs.hpp) for each, and ranks them by goodput per device.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "limits.hpp"
#include "prefill_trace/result.hpp"
#include "scenario/scenario.hpp"
#include "serving/call.hpp"
#include "serving/serving.hpp"

namespace prefill_trace {

struct PlanCandidate {
  SchedulerPolicy policy = SchedulerPolicy::chunked;
  int64_t prefill_instances = 0;  // colocated: the instances (each prefills and decodes)
  int64_t decode_instances = 0;   // colocated: 0
  int64_t prefill_tensor_parallel = 0;
  int64_t decode_tensor_parallel = 0;  // colocated: 0
  int64_t devices = 0;                 // the devices the placement uses (≤ the budget)
  double goodput_requests_per_second = 0;
  double goodput_per_device = 0;
  bool bounded = true;  // false: too few requests to find a rate that misses (a lower bound)
};

/// A policy and tensor-parallel pair that no instance count can run, and why (the serving
/// simulation's own refusal: the weights leave no room for K/V, a request does not fit, ...).
struct PlanSkip {
  SchedulerPolicy policy = SchedulerPolicy::chunked;
  int64_t prefill_tensor_parallel = 0;
  int64_t decode_tensor_parallel = 0;
  std::string reason;
};

struct PlanReport {
  std::string model, hardware, precision, timing;  // the scenario's ids
  int64_t devices = 0;                             // the budget
  std::vector<int64_t> tensor_parallel_options;    // degrees the model splits into, ≤ devices
  int64_t searches = 0;                            // goodput searches run
  std::vector<PlanCandidate> candidates;           // best first (PlanReport::sorted's order)
  std::vector<PlanSkip> skipped;
};

/// The bound one plan is held to: src/limits.hpp's. A test sets a smaller one to reach it
/// cheaply (the limit itself takes ~230 goodput searches, ~7 s). It cannot be checked before the
/// searches: a goodput search's work depends on how many runs its bracketing takes and on how
/// many iterations each run's batching needs, and the lower bound known beforehand (one run of
/// every request's output rows per search, CallWork::check_before's) is ~100× below what a
/// search does — a refusal from it would come only for inputs no search could finish anyway.
struct PlanLimits {
  double work = limits::max_plan_work;
};

/// How far a placement search in slices is (PlanSearch::progress).
struct PlanProgress {
  bool done = false;
  int64_t searches = 0;    // goodput searches finished (PlanReport::searches counts the same)
  int64_t placements = 0;  // placements passed: ranked, or skipped with their policy and degrees
  int64_t placements_total = 0;  // every placement within the budget (known at the start)
};

/// One placement in the search's order (the enumeration of docs/serving.md): a colocated
/// placement is k instances of TP `prefill_tensor_parallel` (decode fields 0), a disaggregated
/// one a prefill and b decode instances of their degrees.
struct PlanStep {
  SchedulerPolicy policy = SchedulerPolicy::chunked;
  int64_t prefill_instances = 0, decode_instances = 0;
  int64_t prefill_tensor_parallel = 0, decode_tensor_parallel = 0;
  bool search = true;     // runs a goodput search; false: k × the group's last search (Poisson)
  double arrival_cv = 1;  // each instance's (gamma arrivals split over k instances)
  int64_t group = 0;      // policy and degrees: a placement refusal skips the group's rest
};

/// The placement search as an object that runs in slices (docs/serving.md, "Placement search"),
/// as serving::ServingCall runs one serving call: plan_serving is one advance with no limit, so
/// both give the same report. Each goodput search is a ServingCall, advanced by the slice's
/// budget; the plan moves to the next placement when it ends.
class PlanSearch {
 public:
  PlanSearch(Scenario scenario, ServingConfig base, PlanReport report, std::vector<PlanStep> steps,
             double work);
  PlanSearch(const PlanSearch&) = delete;
  PlanSearch& operator=(const PlanSearch&) = delete;

  /// Runs goodput searches until their work has grown by `budget` units (the serving call's:
  /// a row 1, an iteration 40, an operator-model evaluation 50) or the plan is over; the last
  /// iteration may pass the budget by one iteration's work. True once the plan is over.
  bool advance(double budget);
  bool done() const { return finished_; }
  PlanProgress progress() const;
  /// The report, or the plan's refusal; once done, once.
  Result<PlanReport> take();

 private:
  struct Search {
    double goodput = 0;  // requests/s
    bool bounded = true;
  };
  void next_step();
  void start_search();
  void end_search();
  void searched(const Result<Search>& search);
  Error refused(const Error& error) const;
  void add(const PlanStep& step);
  void finish(std::optional<Error> refusal);

  Scenario scenario_;
  ServingConfig base_;
  PlanReport report_;
  std::vector<PlanStep> steps_;
  std::size_t next_ = 0;  // the step under way, or the next
  double budget_;         // the plan's work limit
  double left_;           // of it, after the searches finished
  int64_t count_ = 0;     // searches run (ended or refused)
  bool capped_ = false;   // the search under way is held to what is left of the plan's work
  std::unique_ptr<serving::ServingCall> call_;
  Search last_;  // the group's last search (its colocated k instances are k × it)
  bool finished_ = false;
  std::optional<Error> refusal_;
};

/// Checks the budget (1 … limits::max_plan_devices, path /devices) and the input, and prepares
/// the plan: every placement within the budget, none run yet. `base` is the user's serving
/// object (rate: where each goodput search starts; its SLOs and workload), its placement fields
/// unset. The whole search is held to `bounds.work` (refused `too_large` at /devices once the
/// searches pass it).
Result<std::unique_ptr<PlanSearch>> start_plan(const Scenario& scenario, const ServingConfig& base,
                                               int64_t devices, PlanLimits bounds = {});

/// start_plan advanced with no limit: every placement searched and ranked.
Result<PlanReport> plan_serving(const Scenario& scenario, const ServingConfig& base,
                                int64_t devices, PlanLimits bounds = {});

}  // namespace prefill_trace
