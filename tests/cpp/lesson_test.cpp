#include "lesson.hpp"

#include <gtest/gtest.h>

#include "prefill_trace/engine.hpp"
#include "test_support.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;
using test::lesson_json;
using test::lesson_text;

// The error for a lesson with one field changed by `mutate`.
template <typename Mutate>
std::string error_after(Mutate mutate) {
  json lesson = lesson_json();
  mutate(lesson);
  auto parsed = parse_lesson(lesson.dump());
  EXPECT_FALSE(parsed.ok()) << "the mutated lesson was accepted";
  return parsed.ok() ? std::string() : parsed.error();
}

TEST(Lesson, PublishedFileLoadsWithEveryField) {
  auto lesson = parse_lesson(lesson_text());
  ASSERT_TRUE(lesson.ok()) << lesson.error();
  EXPECT_EQ(lesson->id, "prefill-resource-trace");
  EXPECT_EQ(lesson->name, "Prefill and prompt processing");
  EXPECT_EQ(lesson->mechanism.size(), 5u);
  EXPECT_EQ(lesson->specs.size(), 2u);
  ASSERT_EQ(lesson->interfaces.size(), 2u);
  EXPECT_EQ(lesson->interfaces[0].direction, Direction::in);
  EXPECT_EQ(lesson->interfaces[1].direction, Direction::out);
  EXPECT_EQ(lesson->sources.size(), 2u);
  EXPECT_EQ(lesson->check.answer, 0);
  EXPECT_EQ(lesson->check.options[0], "Many prompt positions are available together");
  ASSERT_EQ(lesson->science.size(), 1u);
  EXPECT_EQ(lesson->science[0].title, "Projection work");
  EXPECT_EQ(lesson->prerequisites, (std::vector<std::string>{"attention", "memory-wall-trends"}));
  EXPECT_EQ(lesson->related,
            (std::vector<std::string>{"attention", "kv-cache", "decode-bandwidth-trace"}));
  EXPECT_EQ(*lesson->lab_scope, *lesson->scope);
}

TEST(Lesson, BundledCopyIsTheSameFileAsTheOneOnDisk) {
  EXPECT_EQ(std::string(api::bundled_lesson_text()), lesson_text());
}

TEST(Lesson, UnknownFieldsAreKeptAndIgnored) {
  json lesson = lesson_json();
  lesson["addedInAtlas2"] = {{"anything", 1}};
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->document["addedInAtlas2"]["anything"], 1);
}

TEST(Lesson, RequiredStringsMustBePresentAndNonEmpty) {
  for (const char* key : {"id", "name", "shortName", "role", "description", "learningObjective",
                          "engineeringExample", "evidenceNotes"}) {
    EXPECT_EQ(error_after([&](json& l) { l.erase(key); }),
              std::string("/") + key + ": is required");
    EXPECT_EQ(error_after([&](json& l) { l[key] = "  "; }),
              std::string("/") + key + ": must be a non-empty string");
    EXPECT_EQ(error_after([&](json& l) { l[key] = 7; }),
              std::string("/") + key + ": must be a string, not integer");
  }
}

TEST(Lesson, ListFieldsMustBeArrays) {
  for (const char* key : {"specs", "interfaces", "related", "sources", "mechanism"}) {
    EXPECT_EQ(error_after([&](json& l) { l[key] = "x"; }),
              std::string("/") + key + ": must be an array, not string");
  }
  EXPECT_EQ(error_after([](json& l) { l["prerequisites"] = json::object(); }),
            "/prerequisites: must be an array, not object");
  EXPECT_EQ(error_after([](json& l) { l["history"] = 3; }),
            "/history: must be an array, not integer");
}

TEST(Lesson, MechanismNeedsThreeSteps) {
  EXPECT_EQ(error_after([](json& l) {
              l["mechanism"] = {"one", "two"};
            }),
            "/mechanism: must hold at least 3 steps, not 2");
  EXPECT_EQ(error_after([](json& l) { l["mechanism"][4] = ""; }),
            "/mechanism/4: must be a non-empty string");
}

TEST(Lesson, SourcesNeedOneHttpsUrl) {
  EXPECT_EQ(error_after([](json& l) { l["sources"] = json::array(); }),
            "/sources: must list at least one source");
  EXPECT_EQ(
      error_after([](json& l) { l["sources"][1]["url"] = "http://arxiv.org/abs/2401.09670"; }),
      "/sources/1/url: must be an https:// URL");
  EXPECT_EQ(error_after([](json& l) { l["sources"][0]["url"] = "javascript:alert(1)"; }),
            "/sources/0/url: must be an https:// URL");
  EXPECT_EQ(error_after([](json& l) { l["sources"][0].erase("title"); }),
            "/sources/0/title: is required");
}

TEST(Lesson, QuizNeedsExactlyThreeOptionsAndAnIntegerAnswerInside) {
  EXPECT_EQ(error_after([](json& l) { l["check"]["options"].erase(2); }),
            "/check/options: must hold exactly 3 options, not 2");
  EXPECT_EQ(error_after([](json& l) { l["check"]["options"].push_back("four"); }),
            "/check/options: must hold exactly 3 options, not 4");
  const std::string answer_error =
      "/check/answer: must be an integer index into /check/options (3 items)";
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = -1; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = 3; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = 0.5; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = 0.0; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = "0"; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = true; }), answer_error);
  EXPECT_EQ(error_after([](json& l) {
              l["checks"] = {l["check"], l["check"]};
              l["checks"][1]["answer"] = 5;
            }),
            "/checks/1/answer: must be an integer index into /checks/1/options (3 items)");
}

TEST(Lesson, InterfaceDirectionIsInOrOut) {
  EXPECT_EQ(error_after([](json& l) { l["interfaces"][1]["direction"] = "both"; }),
            "/interfaces/1/direction: must be \"in\" or \"out\"");
}

TEST(Lesson, OptionalStringsMustBeStringsWhenPresent) {
  EXPECT_EQ(error_after([](json& l) { l["labScope"] = nullptr; }),
            "/labScope: must be a string, not null");
}

TEST(Lesson, SyntaxErrorsNameTheByteOffset) {
  const std::string text = lesson_text().substr(0, 100);
  auto parsed = parse_lesson(text);
  ASSERT_FALSE(parsed.ok());
  // The cut falls inside a string; nlohmann reports the byte it stopped at, 101 (1-based).
  EXPECT_EQ(parsed.error().rfind("byte 101: invalid JSON", 0), 0u) << parsed.error();
}

TEST(Lesson, NotAnObject) {
  auto parsed = parse_lesson("[1, 2]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error(), "/: the lesson must be a JSON object, not array");
}

TEST(Lesson, PublishedNameVerification) {
  // sha256sum lesson-data/prefill-resource-trace-a76d037833bd69f7.json
  const std::string digest = "a76d037833bd69f79ef3300aee8bb79164875f8152bded6bff5f24d89f933be4";
  EXPECT_TRUE(
      verify_published_name("lesson-data/prefill-resource-trace-a76d037833bd69f7.json", digest)
          .ok());
  auto wrong = verify_published_name("prefill-resource-trace-0000000000000000.json", digest);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error(),
            "integrity: SHA-256 of the file begins a76d037833bd69f7, but its published name says "
            "0000000000000000");
  EXPECT_FALSE(verify_published_name("lesson.json", digest).ok());
}

}  // namespace
}  // namespace prefill_trace
