#pragma once
// Writing JSON: the object builder and the serializer every writer (the trace, presets, the
// lesson record's echo) shares. Reading lives in json_path.hpp.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace prefill_trace {

/// One member of an object under construction by json_object().
struct JsonMember {
  const char* key;
  nlohmann::json value;
};

/// Builds an object member by member. nlohmann's `json{{"key", value}, ...}` form first builds
/// every member as a two-element array and converts the list at run time; in the wasm module
/// that cost ~40 % of the trace document's build time and much of its code. Same document.
nlohmann::json json_object(std::initializer_list<JsonMember> members);

/// Serializes `value` (indent < 0: one line). Invalid UTF-8 in a string is replaced with U+FFFD
/// instead of aborting: the core is built without exceptions (JSON_NOEXCEPTION), and although
/// every string it prints was validated on the way in, printing must not be able to crash.
std::string dump_json(const nlohmann::json& value, int indent = -1);

}  // namespace prefill_trace
