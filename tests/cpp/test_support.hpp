#pragma once
// Helpers shared by the GoogleTest files: the bundled lesson as text and as a JSON value that a
// test can break one field at a time.

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

}  // namespace prefill_trace::test
