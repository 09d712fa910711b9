#pragma once
// The CLI's text reports, each printed from the JSON document the engine's public facade
// returned (prefill_trace/engine.hpp): the CLI reads the same documents any client reads and
// none of the engine's private structs.

#include <nlohmann/json.hpp>

namespace prefill_trace::cli {

/// The lesson's sections (`lesson`): from load_lesson's lesson_json.
void print_lesson(const nlohmann::json& lesson);
/// The trace as a table (`trace --table`): from compute_trace's document (docs/trace-json.md).
void print_trace_table(const nlohmann::json& trace);
/// The serving run (`serve --table`): from simulate_serving's report (docs/serving.md).
void print_serving_table(const nlohmann::json& report);
/// The placement search (`plan --table`): from plan_serving's document (docs/serving.md).
void print_plan_table(const nlohmann::json& plan);
/// Models and accelerators (`presets`): from list_presets's document.
void print_presets_table(const nlohmann::json& presets);

}  // namespace prefill_trace::cli
