#include "serving/work.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace prefill_trace::serving {
namespace {

constexpr const char* kSmaller =
    "; ask for fewer requests, shorter outputs, fewer sweep rates or no goodput search";

Error over_run_iterations(int64_t limit) {
  return error_at(ErrorCode::too_large, "/serving",
                  "one run needs more than " + std::to_string(limit) +
                      " iterations (max_serving_run_iterations)" + kSmaller);
}

Error over_call_iterations(int64_t limit) {
  return error_at(ErrorCode::too_large, "/serving",
                  "the call's runs need more than " + std::to_string(limit) +
                      " iterations (max_serving_call_iterations)" + kSmaller);
}

Error over_work(double limit) {
  return error_at(ErrorCode::too_large, "/serving",
                  "the call needs more than " + std::to_string(static_cast<int64_t>(limit)) +
                      " units of work (max_serving_call_work: a row 1, an iteration 40, an "
                      "operator-model evaluation 50)" +
                      kSmaller);
}

}  // namespace

CallWork::CallWork(std::vector<const IterationCost*> costs, ServingCallLimits bounds)
    : costs_(std::move(costs)), limits_(bounds) {}

double CallWork::work() const {
  int64_t evaluations = 0;
  for (const IterationCost* cost : costs_) {
    if (cost != nullptr) evaluations += cost->evaluations();
  }
  return rows_ * kRowWork + static_cast<double>(iterations_) * kIterationWork +
         static_cast<double>(evaluations) * kEvaluationWork;
}

std::optional<Error> CallWork::check_before(const std::vector<RequestSpec>& specs,
                                            int64_t runs) const {
  int64_t longest = 0;  // output tokens: each its own iteration
  double rows = 0;      // a prompt's first chunk carries its first token, each further a row
  for (const RequestSpec& spec : specs) {
    longest = std::max(longest, spec.output);
    rows += static_cast<double>(spec.output);
  }
  if (longest > limits_.run_iterations) return over_run_iterations(limits_.run_iterations);
  const double iterations = static_cast<double>(runs) * static_cast<double>(longest);
  if (iterations > static_cast<double>(limits_.call_iterations))
    return over_call_iterations(limits_.call_iterations);
  // The longest request's decode contexts are distinct: each evaluated once in the call.
  const double work = static_cast<double>(runs) *
                          (rows * kRowWork + static_cast<double>(longest) * kIterationWork) +
                      static_cast<double>(std::max<int64_t>(0, longest - 1)) * kEvaluationWork;
  if (work > limits_.work) return over_work(limits_.work);
  return std::nullopt;
}

bool CallWork::add_iteration(int64_t rows, int64_t run_iterations) {
  ++iterations_;
  rows_ += static_cast<double>(rows);
  if (refusal_) return false;
  if (run_iterations > limits_.run_iterations) {
    refusal_ = over_run_iterations(limits_.run_iterations);
  } else if (iterations_ > limits_.call_iterations) {
    refusal_ = over_call_iterations(limits_.call_iterations);
  } else if (work() > limits_.work) {
    refusal_ = over_work(limits_.work);
  }
  return !refusal_;
}

}  // namespace prefill_trace::serving
