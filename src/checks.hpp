#pragma once
// "Check your understanding" questions generated from the current scenario, each answered by
// the engine's own trace with a stated tolerance and a worked explanation.

#include <string>
#include <string_view>
#include <vector>

#include "prefill_trace/result.hpp"
#include "scenario/scenario.hpp"

namespace prefill_trace {

enum class CheckKind { numeric, choice };

struct GeneratedCheck {
  std::string id;  // stable: "projection-flops", "step2-bound-at-t1", "kv-bytes", "ttft-largest"
  CheckKind kind = CheckKind::numeric;
  std::string question;
  std::vector<std::string> options;  // choice checks only
  std::string unit;                  // numeric checks only
  double relative_tolerance = 0;     // numeric: |answer − expected| ≤ tol·|expected|
  double expected = 0;               // numeric value, or the correct option's index
  std::string explanation;           // the worked answer
};

struct GeneratedOutcome {
  bool correct = false;
  double expected = 0;
  std::string explanation;
};

std::vector<GeneratedCheck> generate_checks(const Scenario& scenario);

/// `answer` is a number for numeric checks and a 0-based option index for choice checks.
Result<GeneratedOutcome> check_generated(const Scenario& scenario, std::string_view id,
                                         double answer);

}  // namespace prefill_trace
