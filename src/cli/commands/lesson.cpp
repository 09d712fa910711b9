// `prefill-trace lesson` (the lesson's sections) and `prefill-trace quiz` (answer a check).

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "../cli.hpp"
#include "../report.hpp"
#include "../sha256.hpp"
#include "commands.hpp"
#include "prefill_trace/engine.hpp"

namespace prefill_trace::cli {
namespace {

using nlohmann::json;

// The lesson text and its name: PATH if given, else the bundled file.
std::pair<std::string, std::string> lesson_source(const Args& args) {
  if (args.positional.size() > 1)
    fail("expected at most one PATH, got " + std::to_string(args.positional.size()));
  std::pair<std::string, std::string> source =
      args.positional.empty() ? std::pair{std::string(api::bundled_lesson_text()),
                                          std::string(api::bundled_lesson_name())}
                              : std::pair{read_file(args.positional[0]), args.positional[0]};
  if (option(args, "--verify")) {
    const auto digest = sha256_hex(source.first);
    if (!digest) fail("SHA-256 failed");
    const auto verified = api::verify_published_name(source.second, *digest);
    if (!verified.ok) fail(file_name(source.second) + ": " + verified.error);
  }
  return source;
}

// The lesson as the engine validated and re-serialized it (api::load_lesson).
json load_lesson_or_fail(const std::pair<std::string, std::string>& source) {
  const auto reply = api::load_lesson(source.first);
  if (!reply.ok) fail(file_name(source.second) + ": " + reply.error);
  return json::parse(reply.lesson_json, nullptr, false);
}

// A 1-based number from a flag (as the CLI prints lists), checked against `count` items; the
// result is the engine's 0-based index.
std::size_t parse_ordinal(const std::string& flag, const std::string& text, std::size_t count,
                          const std::string& what, const std::string& note = "") {
  const double number = parse_number(flag, text);
  if (number != std::floor(number) || number < 1 || number > static_cast<double>(count)) {
    fail(flag + ": must be " + what + " from 1 to " + std::to_string(count) + note + ", not " +
         api::excerpt(text));
  }
  return static_cast<std::size_t>(number) - 1;
}

}  // namespace

int run_lesson(int argc, char** argv) {
  const Args args = parse_args(argc, argv, 2, {"--verify"});
  print_lesson(load_lesson_or_fail(lesson_source(args)));
  return kOk;
}

int run_quiz(int argc, char** argv) {
  const Args args = parse_args(argc, argv, 2, {"--answer", "--check", "--verify"});
  const auto answer = option(args, "--answer");
  if (!answer)
    fail("quiz: --answer N is required (N = 1, 2 or 3, as printed by `prefill-trace lesson`)");
  const auto source = lesson_source(args);
  const json lesson = load_lesson_or_fail(source);
  const std::size_t further = lesson.contains("checks") ? lesson.at("checks").size() : 0;
  // Both numbers are 1-based, as `prefill-trace lesson` prints them; the engine counts from 0.
  const std::size_t check =
      option(args, "--check")
          ? parse_ordinal("--check", *option(args, "--check"), 1 + further, "a check number",
                          " (1 is the lesson's check, 2 and up its further checks)")
          : 0;
  const json& options =
      (check == 0 ? lesson.at("check") : lesson.at("checks").at(check - 1)).at("options");
  const std::size_t choice = parse_ordinal("--answer", *answer, options.size(), "an option number");
  const auto outcome =
      api::check_answer(source.first, static_cast<double>(check), static_cast<double>(choice));
  if (!outcome.ok) fail(outcome.error);  // unreachable: both numbers were checked above
  std::cout << (outcome.correct ? "Correct." : "Not quite.") << " The answer is "
            << outcome.correct_index + 1 << ": "
            << options.at(static_cast<std::size_t>(outcome.correct_index)).get<std::string>()
            << "\n"
            << outcome.explanation << '\n';
  return outcome.correct ? kOk : kWrong;
}

}  // namespace prefill_trace::cli
