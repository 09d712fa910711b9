#pragma once
// The work of one serving call, counted as it goes against the call's limits (src/limits.hpp:
// max_serving_run_iterations, max_serving_call_iterations, max_serving_call_work), so that no
// call within the input limits runs for minutes: checked before the call from a lower bound of
// its work, and at every iteration of every run. A call past a limit is refused with the limit's
// name (an Error, never an abort); the counts are deterministic, so native and wasm refuse alike.

#include <cstdint>
#include <optional>
#include <vector>

#include "limits.hpp"
#include "prefill_trace/result.hpp"
#include "serving/cost.hpp"
#include "serving/serving.hpp"
#include "serving/workload.hpp"

namespace prefill_trace::serving {

class CallWork {
 public:
  // Units of work, the ratios of measured CPU times natively (docs/robustness.md): a row (one
  // decode row or one prompt chunk) ~5 ns, an iteration's own overhead ~190 ns, an operator-model
  // evaluation (a cost-cache miss) ~250 ns.
  static constexpr double kRowWork = 1;
  static constexpr double kIterationWork = 40;
  static constexpr double kEvaluationWork = 50;

  /// `costs`: the fleet's cost models, whose evaluations count.
  explicit CallWork(std::vector<const IterationCost*> costs, ServingCallLimits bounds);

  /// Refuses a call that cannot stay within the limits: `runs` runs of `specs` need at least
  /// the longest request's output in iterations each, Σ output rows each, and the longest
  /// request's decode contexts evaluated once.
  std::optional<Error> check_before(const std::vector<RequestSpec>& specs, int64_t runs) const;
  /// Counts one iteration of `rows` rows, the `run_iterations`-th of its run; false once a limit
  /// is passed (the refusal is kept).
  bool add_iteration(int64_t rows, int64_t run_iterations);
  bool refused() const { return refusal_.has_value(); }
  const std::optional<Error>& refusal() const { return refusal_; }
  double work() const;
  int64_t iterations() const { return iterations_; }

 private:
  std::vector<const IterationCost*> costs_;
  ServingCallLimits limits_;
  int64_t iterations_ = 0;
  double rows_ = 0;
  std::optional<Error> refusal_;
};

}  // namespace prefill_trace::serving
