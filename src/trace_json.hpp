#pragma once
// The JSON writers: the trace's stable JSON and CSV forms (documented in docs/trace-json.md). The CLI and the
// wasm module both print exactly this, so their outputs compare byte for byte.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenario.hpp"
#include "trace.hpp"

namespace prefill_trace {

constexpr int kTraceSchemaVersion = 2;

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

/// The scenario as JSON, with presets expanded: what the trace echoes back as its inputs.
nlohmann::json scenario_to_json(const Scenario& scenario);
nlohmann::json trace_to_json(const Trace& trace);
/// One row per operator: the figures of one run plus `count`, units in the header.
std::string trace_to_csv(const Trace& trace);
nlohmann::json presets_to_json(const Presets& presets);
nlohmann::json sweep_to_json(SweepVariable variable, const std::vector<SweepPoint>& points);

}  // namespace prefill_trace
