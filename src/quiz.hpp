#pragma once
// Checking a learner's answer to one of the lesson's multiple-choice checks.

#include <string>

#include "lesson.hpp"
#include "prefill_trace/result.hpp"

namespace prefill_trace {

struct QuizOutcome {
  bool correct;
  int correct_index;
  std::string explanation;
};

/// `check_index` 0 is the lesson's `check`, i >= 1 is `checks[i-1]`. `choice` is a double so
/// that a non-integer choice arriving from JavaScript or the command line is an error (never
/// silently truncated and never "wrong").
Result<QuizOutcome> check_answer(const Lesson& lesson, double check_index, double choice);

}  // namespace prefill_trace
