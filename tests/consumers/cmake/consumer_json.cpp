// The consumer's own JSON code, nlohmann_json used the ordinary way (exceptions and implicit
// conversions on). The consumer's CMakeLists.txt builds it as a static library linked AFTER
// prefill_trace, so that where both hold a compiled nlohmann function under the same symbol, the
// linker keeps the library's body: if the library's nlohmann (built without exceptions) shared
// symbols with this one, the throws below would become aborts. If the library's
// JSON_USE_IMPLICIT_CONVERSIONS=0 leaked here, the implicit conversion would not compile.
#include "consumer_json.hpp"

#include <nlohmann/json.hpp>

bool parse_error_is_thrown() {
  try {
    const auto never = nlohmann::json::parse(std::string("{\"unterminated\": "));
    return never.is_discarded();  // not reached
  } catch (const nlohmann::json::parse_error&) {
    return true;
  }
}

bool type_error_is_thrown() {
  nlohmann::json number = 42;
  try {
    return number["key"].is_null();  // operator[] with a key on a number throws type_error 305
  } catch (const nlohmann::json::type_error&) {
    return true;
  }
}

TraceFigures read_trace(const std::string& json_text) {
  const auto trace = nlohmann::json::parse(json_text);
  TraceFigures figures;
  figures.parameters = trace["parameters"];  // implicit conversion, the library's default
  figures.kv_bytes = trace["totals"]["kv_cache"]["bytes"].get<double>();
  figures.engine_version = trace["engine_version"].get<std::string>();
  return figures;
}
