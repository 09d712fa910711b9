#pragma once
// The consumer's JSON helpers (consumer_json.cpp), declared without nlohmann.
#include <string>

bool parse_error_is_thrown();
bool type_error_is_thrown();

struct TraceFigures {
  double parameters = 0;
  double kv_bytes = 0;
  std::string engine_version;
};
TraceFigures read_trace(const std::string& json_text);
