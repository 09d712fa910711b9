#pragma once
// Helpers shared by the GoogleTest files: the bundled lesson as text and as a JSON value that a
// test can break one field at a time.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace prefill_trace::test {

inline std::string read_text(const std::string& relative_path) {
  std::ifstream in(std::string(PREFILL_TRACE_SOURCE_DIR) + "/" + relative_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string lesson_text() {
  return read_text("lesson-data/prefill-resource-trace-a76d037833bd69f7.json");
}

inline nlohmann::json lesson_json() {
  return nlohmann::json::parse(lesson_text());
}

// Every number anywhere in a JSON value is finite and no byte count is negative. nlohmann keeps
// a non-finite double as a number (it prints it as null), so this walk sees an overflow that
// the printed JSON would hide. `path` names where a failure is (a JSON pointer).
inline void expect_finite(const nlohmann::json& value, const std::string& path) {
  if (value.is_number()) {
    EXPECT_TRUE(std::isfinite(value.get<double>())) << path;
    if (path.find("bytes") != std::string::npos) {
      EXPECT_GE(value.get<double>(), 0) << path;
    }
  } else if (value.is_object()) {
    for (const auto& item : value.items()) expect_finite(item.value(), path + "/" + item.key());
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      expect_finite(value[i], path + "/" + std::to_string(i));
  }
}

}  // namespace prefill_trace::test
