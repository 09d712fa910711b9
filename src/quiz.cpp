#include "quiz.hpp"

#include <cmath>

namespace prefill_trace {
namespace {

bool is_index(double value, double size) {
  return std::isfinite(value) && value == std::floor(value) && value >= 0 && value < size;
}

}  // namespace

Result<QuizOutcome> check_answer(const Lesson& lesson, double check_index, double choice) {
  const double checks = 1.0 + static_cast<double>(lesson.checks.size());
  if (!is_index(check_index, checks)) {
    return error_at(ErrorCode::out_of_range, "",
                    "check index must be an integer from 0 to " +
                        std::to_string(lesson.checks.size()) + " (0 is /check)");
  }
  const auto index = static_cast<std::size_t>(check_index);
  const QuizCheck& check = index == 0 ? lesson.check : lesson.checks[index - 1];
  if (!is_index(choice, static_cast<double>(check.options.size()))) {
    return error_at(ErrorCode::out_of_range, "",
                    "answer must be an integer option index from 0 to " +
                        std::to_string(check.options.size() - 1));
  }
  return QuizOutcome{static_cast<int>(choice) == check.answer, check.answer, check.explanation};
}

}  // namespace prefill_trace
