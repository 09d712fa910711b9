#include "json_path.hpp"

#include <gtest/gtest.h>

#include <string>

namespace prefill_trace {
namespace {

TEST(StrictJson, DuplicateKeysAreRefusedWithTheirPath) {
  auto parsed = parse_strict_json(R"({"a": {"b": 1, "b": 2}})");
  ASSERT_FALSE(parsed.ok());
  // The path names the repeated member itself.
  EXPECT_EQ(parsed.error(), "/a/b: duplicate key (the object already has this member)");
  auto in_array = parse_strict_json(R"({"list": [0, {"x": 1, "x": 1}]})");
  ASSERT_FALSE(in_array.ok());
  EXPECT_EQ(in_array.error(), "/list/1/x: duplicate key (the object already has this member)");
}

TEST(StrictJson, DepthIsLimitedBeforeRecursionCanHurt) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto parsed = parse_strict_json(deep);
  ASSERT_FALSE(parsed.ok());
  // 32 arrays are allowed; the 33rd opens at path /0/0/.../0 (32 zeros).
  std::string path;
  for (int i = 0; i < 32; ++i) path += "/0";
  EXPECT_EQ(parsed.error(), path + ": nesting deeper than 32 levels");
}

TEST(StrictJson, LimitsOnDocumentAndStringSize) {
  JsonLimits limits;
  limits.max_bytes = 10;
  EXPECT_EQ(parse_strict_json("[1,2,3,4,5,6]", limits).error(),
            "byte 0: document of 13 bytes exceeds the limit of 10");
  limits = JsonLimits{};
  limits.max_string_bytes = 3;
  EXPECT_EQ(parse_strict_json(R"({"k": ["abcd"]})", limits).error(),
            "/k/0: string of 4 bytes exceeds the limit of 3");
}

TEST(StrictJson, ByteOrderMarkInvalidUtf8AndTrailingGarbage) {
  EXPECT_EQ(parse_strict_json("\xEF\xBB\xBF{}").error(),
            "byte 0: a UTF-8 byte-order mark is not allowed before the JSON text");
  EXPECT_EQ(parse_strict_json("{\"a\": \"\xC3\x28\"}").error().rfind("byte 9: invalid JSON", 0), 0u)
      << parse_strict_json("{\"a\": \"\xC3\x28\"}").error();
  EXPECT_EQ(parse_strict_json("{} x").error().rfind("byte 4: invalid JSON", 0), 0u)
      << parse_strict_json("{} x").error();
}

TEST(StrictJson, NumberBeyondDoubleRangeIsASyntaxErrorNotACrash) {
  // "1e999" starts at the 7th byte of {"a": 1e999} (1-based, as nlohmann counts).
  EXPECT_EQ(parse_strict_json(R"({"a": 1e999})").error(),
            "byte 7: invalid JSON (number overflow parsing '1e999')");
}

TEST(StrictJson, PointerEscapesSlashAndTilde) {
  EXPECT_EQ(child_path("", "a/b~c"), "/a~1b~0c");
  EXPECT_EQ(child_path("/x", std::size_t{3}), "/x/3");
}

// What an error message quotes of its input (issue 24, E5): whole up to the limit, then cut at a
// whole UTF-8 sequence with the input's byte count; control characters and bytes that are not
// UTF-8 escaped, so one line of printable text comes out whatever went in.
TEST(Excerpt, EscapesControlsAndBoundsLength) {
  EXPECT_EQ(excerpt("plain"), "plain");
  EXPECT_EQ(excerpt("a\nb\tc\rd"), R"(a\nb\tc\rd)");
  EXPECT_EQ(excerpt(std::string("\x1b[2J\a\0\x7f", 7)), R"(\u001b[2J\u0007\u0000\u007f)");
  // U+009B (CSI, C2 9B) and U+202E (right-to-left override, E2 80 AE) are valid UTF-8 that a
  // terminal acts on; "é" (C3 A9) is shown as it is.
  EXPECT_EQ(excerpt("\xC2\x9B"
                    "31m \xE2\x80\xAE"
                    "abc \xC3\xA9"),
            R"(\u009b31m \u202eabc )"
            "\xC3\xA9");
  // A lone continuation byte and a truncated sequence are not UTF-8.
  EXPECT_EQ(excerpt("\x80x\xE2\x80"), R"(\x80x\xe2\x80)");
  // 10 bytes at a limit of 4: "abcd", then the input's size.
  EXPECT_EQ(excerpt("abcdefghij", 4), "abcd… (10 bytes)");
  EXPECT_EQ(quoted_excerpt("abcdefghij", 4), "\"abcd…\" (10 bytes)");
  EXPECT_EQ(quoted_excerpt("abcd", 4), "\"abcd\"");
  // "é" is 2 bytes: at a limit of 3 after "a", the second "é" (bytes 4–5) does not fit whole.
  EXPECT_EQ(excerpt("a\xC3\xA9\xC3\xA9", 3), "a\xC3\xA9… (5 bytes)");
  // A key in a path is its excerpt, then RFC 6901's escapes.
  EXPECT_EQ(
      child_path("", std::string(100, '/')), "/" + [] {
        std::string escaped;
        for (int i = 0; i < 80; ++i) escaped += "~1";
        return escaped;
      }() + "… (100 bytes)");
}

}  // namespace
}  // namespace prefill_trace
