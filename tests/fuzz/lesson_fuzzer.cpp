// Feeds arbitrary bytes to the lesson loader and the quiz: any crash, sanitizer report, or an
// accepted lesson that breaks the contract it was validated against is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lesson.hpp"
#include "prefill_trace/engine.hpp"
#include "quiz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto lesson = prefill_trace::parse_lesson(text);
  if (!lesson) {
    if (lesson.error().empty()) __builtin_trap();  // every refusal must say why
    return 0;
  }
  if (lesson->mechanism.size() < 3 || lesson->sources.empty()) __builtin_trap();
  for (double choice : {0.0, 1.0, 2.0, 3.0, -1.0, 0.5}) {
    const auto outcome = prefill_trace::check_answer(lesson.value(), 0, choice);
    if (outcome.ok() != (choice >= 0 && choice < 3 && choice == static_cast<int>(choice)))
      __builtin_trap();
  }
  // The facade re-serializes what it accepted; that text must load again.
  const auto reply = prefill_trace::api::load_lesson(text);
  if (!reply.ok || !prefill_trace::parse_lesson(reply.lesson_json)) __builtin_trap();
  return 0;
}
