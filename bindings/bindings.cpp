// Embind adapter: converts JS values to the engine facade's arguments and its reply structs to
// JS objects, and nothing else. No formulas live here (src/ has them); errors arrive as reply
// values, never as exceptions. The one exception to Embind is traceFigures, a plain export
// wrapped by figures-post.js (below says why). Declared for JS in prefill-trace.d.ts, which
// tests/js/api-surface.test.mjs holds against the module's exports.

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "engine.hpp"
#include "json_path.hpp"

namespace {

using emscripten::val;
using namespace prefill_trace;

// Text arguments are checked while still in JS: Embind copies a string into wasm memory before
// C++ sees it, and a string larger than the memory cap would make that copy fail outside any
// C++ error handling. A JS string of more UTF-16 units than the byte limit is certainly over it
// (UTF-8 never takes fewer bytes than UTF-16 units), so it is refused without being copied.
template <typename Reply>
bool take_text(const val& value, const char* what, std::string& out, Reply& reply) {
  if (!value.isString()) {
    reply.error = std::string(what) + " must be a string";
    return false;
  }
  const std::size_t limit = JsonLimits{}.max_bytes;
  if (value["length"].as<double>() > static_cast<double>(limit)) {
    reply.error = std::string(what) + ": byte 0: document of more than " + std::to_string(limit) +
                  " bytes exceeds the limit of " + std::to_string(limit);
    return false;
  }
  out = value.as<std::string>();
  return true;
}

api::LessonReply load_lesson(const val& text) {
  api::LessonReply reply;
  std::string lesson;
  return take_text(text, "lessonText", lesson, reply) ? api::load_lesson(lesson) : reply;
}

api::QuizReply check_answer(const val& text, double check_index, double choice) {
  api::QuizReply reply;
  std::string lesson;
  return take_text(text, "lessonText", lesson, reply)
             ? api::check_answer(lesson, check_index, choice)
             : reply;
}

api::JsonReply compute_trace(const val& scenario_json) {
  api::JsonReply reply;
  std::string scenario;
  return take_text(scenario_json, "scenarioJson", scenario, reply) ? api::compute_trace(scenario)
                                                                   : reply;
}

api::CsvReply trace_csv(const val& scenario_json) {
  api::CsvReply reply;
  std::string scenario;
  return take_text(scenario_json, "scenarioJson", scenario, reply) ? api::compute_trace_csv(scenario)
                                                                   : reply;
}

api::JsonReply sweep(const val& scenario_json, const std::string& variable, const val& values) {
  api::JsonReply reply;
  std::string scenario;
  if (!take_text(scenario_json, "scenarioJson", scenario, reply)) return reply;
  // One typed-array copy for the whole sweep: a single boundary crossing for all points.
  const bool sized = !values.isNull() && !values.isUndefined() && !values.isString() &&
                     values["length"].isNumber();
  const double length = sized ? values["length"].as<double>() : -1;
  if (length < 1 || length > 4096) {
    reply.error = "sweep: values must be an array of between 1 and 4096 numbers";
    return reply;
  }
  return api::sweep(scenario, variable, emscripten::convertJSArrayToNumberVector<double>(values));
}

api::JsonReply generate_checks(const val& scenario_json) {
  api::JsonReply reply;
  std::string scenario;
  return take_text(scenario_json, "scenarioJson", scenario, reply) ? api::generate_checks(scenario)
                                                                   : reply;
}

api::GeneratedReply check_generated(const val& scenario_json, const std::string& id,
                                    double answer) {
  api::GeneratedReply reply;
  std::string scenario;
  return take_text(scenario_json, "scenarioJson", scenario, reply)
             ? api::check_generated(scenario, id, answer)
             : reply;
}

std::string version() {
  return PREFILL_TRACE_VERSION;
}

// The reply of the last traceFigures call, read by figures-post.js before the next call.
api::FiguresReply last_figures;

}  // namespace

// traceFigures is the per-frame call, so it skips Embind: figures-post.js writes the scenario's
// UTF-8 into wasm memory, makes one plain call, and copies the figures out of this buffer. With
// Embind the same call took ~25 crossings of the JS/wasm boundary (emval handles for the
// argument checks and for every property of the result), a third of its cost.
extern "C" {

EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_max_text_bytes() {
  return JsonLimits{}.max_bytes;
}

/// Computes the figures of the scenario in `text[0, length)`; returns how many there are, or -1
/// when the scenario is refused (the error is then in the error buffer).
EMSCRIPTEN_KEEPALIVE int prefill_trace_figures(const char* text, std::size_t length) {
  last_figures = api::trace_figures(std::string_view(text, length));
  return last_figures.ok ? static_cast<int>(last_figures.figures.size()) : -1;
}

EMSCRIPTEN_KEEPALIVE const double* prefill_trace_figures_data() {
  return last_figures.figures.data();
}

EMSCRIPTEN_KEEPALIVE const char* prefill_trace_figures_error() {
  return last_figures.error.data();
}

EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_figures_error_bytes() {
  return last_figures.error.size();
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(prefill_trace) {
  using emscripten::function;
  using emscripten::value_object;

  value_object<api::LessonReply>("LessonResult")
      .field("ok", &api::LessonReply::ok)
      .field("error", &api::LessonReply::error)
      .field("lessonJson", &api::LessonReply::lesson_json);
  value_object<api::QuizReply>("QuizResult")
      .field("ok", &api::QuizReply::ok)
      .field("error", &api::QuizReply::error)
      .field("correct", &api::QuizReply::correct)
      .field("correctIndex", &api::QuizReply::correct_index)
      .field("explanation", &api::QuizReply::explanation);
  value_object<api::JsonReply>("JsonResult")
      .field("ok", &api::JsonReply::ok)
      .field("error", &api::JsonReply::error)
      .field("json", &api::JsonReply::json);
  value_object<api::CsvReply>("CsvResult")
      .field("ok", &api::CsvReply::ok)
      .field("error", &api::CsvReply::error)
      .field("csv", &api::CsvReply::csv);
  value_object<api::GeneratedReply>("GeneratedCheckResult")
      .field("ok", &api::GeneratedReply::ok)
      .field("error", &api::GeneratedReply::error)
      .field("correct", &api::GeneratedReply::correct)
      .field("expected", &api::GeneratedReply::expected)
      .field("explanation", &api::GeneratedReply::explanation);

  function("version", &version);
  function("loadLesson", &load_lesson);
  function("checkAnswer", &check_answer);
  function("computeTrace", &compute_trace);
  function("traceCsv", &trace_csv);
  function("listPresets", &api::list_presets);
  function("sweep", &sweep);
  function("generateChecks", &generate_checks);
  function("checkGenerated", &check_generated);
}
