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
  EXPECT_EQ(lesson->interfaces[0].direction, "in");
  EXPECT_EQ(lesson->interfaces[1].direction, "out");
  EXPECT_EQ(lesson->sources.size(), 2u);
  EXPECT_EQ(lesson->check.answer, 0);
  EXPECT_EQ(lesson->check.options[0], "Many prompt positions are available together");
  ASSERT_EQ(lesson->science.size(), 1u);
  EXPECT_EQ(lesson->science[0].title, "Projection work");
  EXPECT_EQ(lesson->prerequisites, (std::vector<std::string>{"attention", "memory-wall-trends"}));
  EXPECT_EQ(lesson->related,
            (std::vector<std::string>{"attention", "kv-cache", "decode-bandwidth-trace"}));
  EXPECT_EQ(*lesson->lab_scope, *lesson->scope);
  EXPECT_TRUE(lesson->history.empty());  // the published record has no `history`
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

// The Atlas rules behind these tests are listed in docs/robustness.md ("The lesson contract"):
// reader = lesson-contract.ts, publish = generate-catalog.mjs, CI = validate-atlas.mjs.

TEST(Lesson, PublishRequiresNonBlankIdentityAndTeachingText) {
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

TEST(Lesson, BlankMeansWhatJavaScriptTrimRemoves) {
  // Every code point that String.prototype.trim() removes, listed by Node 20 with
  //   for (c = 0; c < 0x10000; c++) if (String.fromCharCode(c).trim() === "") print(c)
  // (no code point above U+FFFF is white space): TAB, LF, VT, FF, CR, SPACE, then these.
  for (const char* blank :
       {"\t\n\v\f\r ", "\u00a0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003",
        "\u2004",      "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200a",
        "\u2028",      "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"}) {
    EXPECT_EQ(error_after([&](json& l) { l["name"] = blank; }), "/name: must be a non-empty string")
        << blank;
  }
  // Not removed by trim(): ZERO WIDTH SPACE, NEXT LINE, MONGOLIAN VOWEL SEPARATOR (no longer a
  // space since Unicode 6.3), and U+2000's neighbours U+1FFF and U+200B.
  for (const char* kept : {"\u200b", "\xc2\x85", "\u180e", "\u1fff"}) {
    json lesson = lesson_json();
    lesson["name"] = kept;
    EXPECT_TRUE(parse_lesson(lesson.dump()).ok()) << kept;
  }
}

TEST(Lesson, ReaderStringsMustBeStringsButMayBeEmpty) {
  for (const char* key : {"level", "tradeoff", "whyAI", "scale", "kind", "misconception"}) {
    EXPECT_EQ(error_after([&](json& l) { l.erase(key); }),
              std::string("/") + key + ": is required");
    EXPECT_EQ(error_after([&](json& l) { l[key] = nullptr; }),
              std::string("/") + key + ": must be a string, not null");
    json lesson = lesson_json();
    lesson[key] = "";
    auto parsed = parse_lesson(lesson.dump());
    ASSERT_TRUE(parsed.ok()) << key << ": " << parsed.error();
  }
  json lesson = lesson_json();
  lesson["specs"][0]["context"] = "";
  lesson["check"]["options"][2] = "";
  lesson["mechanism"][0] = " ";
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->specs[0].context, "");
  EXPECT_EQ(parsed->check.options[2], "");
  EXPECT_EQ(parsed->mechanism[0], " ");
}

TEST(Lesson, ListFieldsMustBeArrays) {
  for (const char* key :
       {"specs", "interfaces", "related", "sources", "mechanism", "prerequisites", "science"}) {
    EXPECT_EQ(error_after([&](json& l) { l[key] = "x"; }),
              std::string("/") + key + ": must be an array, not string");
    EXPECT_EQ(error_after([&](json& l) { l.erase(key); }),
              std::string("/") + key + ": is required");
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
  EXPECT_EQ(error_after([](json& l) { l["mechanism"][4] = false; }),
            "/mechanism/4: must be a string, not boolean");
}

TEST(Lesson, ScienceNeedsOneEntryOfFourStrings) {
  EXPECT_EQ(error_after([](json& l) { l["science"] = json::array(); }),
            "/science: must hold at least one entry");
  EXPECT_EQ(error_after([](json& l) { l["science"][0]["assumptions"] = 1; }),
            "/science/0/assumptions: must be a string, not integer");
}

TEST(Lesson, OptionalMetadataMustBeStringsWhenPresent) {
  for (const char* key : {"branch", "subbranch", "workstream", "visualFamily", "labId", "deepLabId",
                          "investigationId", "labScope"}) {
    EXPECT_EQ(error_after([&](json& l) { l[key] = nullptr; }),
              std::string("/") + key + ": must be a string, not null");
  }
  json lesson = lesson_json();
  for (const char* key : {"branch", "subbranch", "workstream", "visualFamily", "labId", "deepLabId",
                          "investigationId", "scope", "labScope"}) {
    lesson.erase(key);
  }
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_FALSE(parsed->branch.has_value());
  EXPECT_FALSE(parsed->lab_scope.has_value());
}

TEST(Lesson, ScopeIsCheckedByNoGateAndReadOnlyAsAString) {
  json lesson = lesson_json();
  lesson["scope"] = json::array({1, 2});
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_FALSE(parsed->scope.has_value());
  EXPECT_EQ(parsed->document["scope"], json::array({1, 2}));
}

TEST(Lesson, SourcesNeedOneEntryAndUrlsThatStartWithHttps) {
  EXPECT_EQ(error_after([](json& l) { l["sources"] = json::array(); }),
            "/sources: must list at least one source");
  EXPECT_EQ(
      error_after([](json& l) { l["sources"][1]["url"] = "http://arxiv.org/abs/2401.09670"; }),
      "/sources/1/url: must start with \"https://\"");
  EXPECT_EQ(error_after([](json& l) { l["sources"][0]["url"] = "javascript:alert(1)"; }),
            "/sources/0/url: must start with \"https://\"");
  // startsWith is case-sensitive.
  EXPECT_EQ(error_after([](json& l) { l["sources"][0]["url"] = "Https://arxiv.org/"; }),
            "/sources/0/url: must start with \"https://\"");
  // The prefix is the whole rule: a space or nothing after it passes CI, and the page links
  // only what its URL parser accepts as https (web/src/dom.js).
  json lesson = lesson_json();
  lesson["sources"][0]["url"] = "https://arxiv.org/abs/2205.14135 v2";
  lesson["sources"][1]["url"] = "https://";
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->sources[1].url, "https://");
  EXPECT_EQ(error_after([](json& l) { l["sources"][0].erase("title"); }),
            "/sources/0/title: is required");
}

TEST(Lesson, MainCheckNeedsExactlyThreeOptionsAndAnIntegerAnswerInside) {
  EXPECT_EQ(error_after([](json& l) { l["check"]["options"].erase(2); }),
            "/check/options: must hold exactly 3 options, not 2");
  EXPECT_EQ(error_after([](json& l) { l["check"]["options"].push_back("four"); }),
            "/check/options: must hold exactly 3 options, not 4");
  const std::string answer_error =
      "/check/answer: must be an integer index into /check/options (3 items)";
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = -1; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = 3; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = 0.5; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = "0"; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = true; }), answer_error);
  EXPECT_EQ(error_after([](json& l) { l["check"]["answer"] = nullptr; }), answer_error);
  // A JSON number is a JavaScript number however it is spelled: 2.0 is the integer 2.
  json lesson = lesson_json();
  lesson["check"]["answer"] = 2.0;
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->check.answer, 2);
}

// json::array() below, not braces: `json x = {one_json}` is an array under g++ but a copy
// under clang (nlohmann's documented initializer-list ambiguity), and the wasm suite is clang.
TEST(Lesson, FurtherChecksNeedTwoOrMoreOptionsAndAnIntegerAnswerInside) {
  EXPECT_EQ(error_after([](json& l) {
              l["checks"] = json::array({l["check"], l["check"]});
              l["checks"][1]["answer"] = 5;
            }),
            "/checks/1/answer: must be an integer index into /checks/1/options (3 items)");
  EXPECT_EQ(error_after([](json& l) {
              l["checks"] = json::array({l["check"]});
              l["checks"][0]["options"] = json::array({"only"});
            }),
            "/checks/0/options: must hold at least 2 options, not 1");
  EXPECT_EQ(error_after([](json& l) { l["checks"] = json::array({false}); }),
            "/checks/0: must be an object, not boolean");
  json lesson = lesson_json();
  lesson["checks"] = json::array({lesson["check"], lesson["check"]});
  lesson["checks"][0]["options"] = json::array({"yes", "no"});
  lesson["checks"][0]["answer"] = 1;
  lesson["checks"][1]["options"] = json::array({"a", "b", "c", "d"});
  lesson["checks"][1]["answer"] = 3;
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->checks[0].options, (std::vector<std::string>{"yes", "no"}));
  EXPECT_EQ(parsed->checks[1].options.size(), 4u);
  EXPECT_EQ(parsed->checks[1].answer, 3);
}

TEST(Lesson, InterfaceDirectionIsAnyString) {
  EXPECT_EQ(error_after([](json& l) { l["interfaces"][1]["direction"] = nullptr; }),
            "/interfaces/1/direction: must be a string, not null");
  json lesson = lesson_json();
  lesson["interfaces"][1]["direction"] = "both";
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->interfaces[1].direction, "both");
}

TEST(Lesson, HistoryEntriesNeedYearTextAndASource) {
  const json event = json::parse(R"({"year": 1947, "title": "Point-contact transistor",
      "significance": "Solid-state gain", "source": {"title": "Nobel 1956", "url": "x"}})");
  EXPECT_EQ(error_after([&](json& l) {
              l["history"] = json::array({event});
              l["history"][0]["source"] = nullptr;
            }),
            "/history/0/source: must be an object, not null");
  EXPECT_EQ(error_after([&](json& l) {
              l["history"] = json::array({event});
              l["history"][0]["year"] = json::array();
            }),
            "/history/0/year: must be a string or a number, not array");
  EXPECT_EQ(error_after([&](json& l) {
              l["history"] = json::array({event});
              l["history"][0]["source"].erase("title");
            }),
            "/history/0/source/title: is required");
  json lesson = lesson_json();
  lesson["history"] = json::array({event, event});
  lesson["history"][1]["year"] = "c. 2022";
  auto parsed = parse_lesson(lesson.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  ASSERT_EQ(parsed->history.size(), 2u);
  EXPECT_EQ(parsed->history[0].year, "1947");
  EXPECT_EQ(parsed->history[1].year, "c. 2022");
  EXPECT_EQ(parsed->history[0].source.url, "x");  // no URL rule for history sources
}

// Every case of tests/data/good-lessons (cases.json says which relaxation each shows) loads.
TEST(Lesson, EveryLessonOfTheGoodCorpusLoads) {
  const json cases = json::parse(test::read_text("tests/data/good-lessons/cases.json"));
  ASSERT_GE(cases.size(), 15u);
  for (const auto& item : cases.items()) {
    const std::string text = test::read_text("tests/data/good-lessons/" + item.key());
    ASSERT_FALSE(text.empty()) << item.key();
    auto parsed = parse_lesson(text);
    EXPECT_TRUE(parsed.ok()) << item.key() << ": " << parsed.error();
  }
}

// Every case of tests/data/bad-lessons is refused with the line expected.json gives for it.
TEST(Lesson, EveryLessonOfTheBadCorpusGivesItsError) {
  const json expected = json::parse(test::read_text("tests/data/bad-lessons/expected.json"));
  ASSERT_GE(expected.size(), 80u);
  for (const auto& item : expected.items()) {
    auto parsed = parse_lesson(test::read_text("tests/data/bad-lessons/" + item.key()));
    ASSERT_FALSE(parsed.ok()) << item.key();
    if (item.value().is_null()) {
      EXPECT_EQ(parsed.error().rfind("byte ", 0), 0u) << item.key() << ": " << parsed.error();
    } else {
      EXPECT_EQ(parsed.error(), item.value().get<std::string>()) << item.key();
    }
  }
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
