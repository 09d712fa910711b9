// Embind adapter: converts JS values to the engine facade's arguments and its reply structs to
// JS objects, and nothing else. No formulas live here (src/ has them); errors arrive as reply
// values, never as exceptions. Declared for JS in prefill-trace.d.ts, which
// tests/js/api-surface.test.mjs holds against this file's exports.

#include <emscripten/bind.h>
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

// {ok, error, figures: Float64Array}: one copy out of wasm memory, no JSON.
val trace_figures(const val& scenario_json) {
  api::FiguresReply reply;
  std::string scenario;
  if (take_text(scenario_json, "scenarioJson", scenario, reply))
    reply = api::trace_figures(scenario);
  val result = val::object();
  result.set("ok", reply.ok);
  result.set("error", reply.error);
  const auto view = val(emscripten::typed_memory_view(reply.figures.size(), reply.figures.data()));
  result.set("figures", val::global("Float64Array").new_(view));
  return result;
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

}  // namespace

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
  function("traceFigures", &trace_figures);
  function("listPresets", &api::list_presets);
  function("sweep", &sweep);
  function("generateChecks", &generate_checks);
  function("checkGenerated", &check_generated);
}
