#include "quiz.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_support.hpp"

namespace prefill_trace {
namespace {

Lesson bundled() {
  return parse_lesson(test::lesson_text()).value();
}

TEST(Quiz, PublishedAnswerIsTheFirstOption) {
  // The record's check.answer is 0: "Many prompt positions are available together".
  auto outcome = check_answer(bundled(), 0, 0);
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_TRUE(outcome->correct);
  EXPECT_EQ(outcome->correct_index, 0);
  EXPECT_EQ(outcome->explanation,
            "Known token activations form a matrix, allowing one weight tile to contribute to "
            "multiple rows "
            "during the same phase.");
}

TEST(Quiz, OtherOptionsAreWrongButStillExplained) {
  for (double choice : {1.0, 2.0}) {
    auto outcome = check_answer(bundled(), 0, choice);
    ASSERT_TRUE(outcome.ok());
    EXPECT_FALSE(outcome->correct);
    EXPECT_EQ(outcome->correct_index, 0);
    EXPECT_FALSE(outcome->explanation.empty());
  }
}

TEST(Quiz, OutOfRangeOrNonIntegerChoiceIsAnErrorNotWrong) {
  const Lesson lesson = bundled();
  for (double choice :
       {-1.0, 3.0, 0.5, std::nan(""), std::numeric_limits<double>::infinity(), 1e300}) {
    auto outcome = check_answer(lesson, 0, choice);
    ASSERT_FALSE(outcome.ok()) << choice;
    EXPECT_EQ(outcome.error(), "answer must be an integer option index from 0 to 2");
  }
}

TEST(Quiz, CheckIndexSelectsChecksArray) {
  nlohmann::json lesson = test::lesson_json();
  lesson["checks"] = {
      {{"question", "Q2"}, {"options", {"a", "b", "c"}}, {"answer", 2}, {"explanation", "E2"}}};
  const Lesson parsed = parse_lesson(lesson.dump()).value();
  auto outcome = check_answer(parsed, 1, 2);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->correct);
  EXPECT_EQ(outcome->explanation, "E2");
  EXPECT_FALSE(check_answer(parsed, 2, 0).ok());
  EXPECT_EQ(check_answer(parsed, 2, 0).error(),
            "check index must be an integer from 0 to 1 (0 is /check)");
}

}  // namespace
}  // namespace prefill_trace
