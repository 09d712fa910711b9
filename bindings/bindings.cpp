// Embind adapter: converts the engine facade's reply structs to JS objects and nothing else.
// No formulas live here (src/ has them); errors arrive as reply values, never as exceptions.
// Declared for JS in prefill-trace.d.ts; tests/js/api-surface.test.mjs holds the two together.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "engine.hpp"

namespace {

using namespace prefill_trace;

// Embind has no std::string_view; these wrappers only adapt parameter types.
api::LessonReply load_lesson(const std::string& text) { return api::load_lesson(text); }

api::QuizReply check_answer(const std::string& text, double check_index, double choice) {
  return api::check_answer(text, check_index, choice);
}

api::JsonReply compute_trace(const std::string& scenario_json) { return api::compute_trace(scenario_json); }

api::JsonReply sweep(const std::string& scenario_json, const std::string& variable, const emscripten::val& values) {
  // One typed-array copy for the whole sweep: a single boundary crossing for all points.
  const auto length = values["length"].as<unsigned>();
  if (length > 4096) {
    api::JsonReply reply;
    reply.error = "sweep: between 1 and 4096 points, not " + std::to_string(length);
    return reply;
  }
  return api::sweep(scenario_json, variable, emscripten::convertJSArrayToNumberVector<double>(values));
}

api::JsonReply generate_checks(const std::string& scenario_json) { return api::generate_checks(scenario_json); }

api::GeneratedReply check_generated(const std::string& scenario_json, const std::string& id, double answer) {
  return api::check_generated(scenario_json, id, answer);
}

// {ok, error, figures: Float64Array}: one copy out of wasm memory, no JSON.
emscripten::val trace_figures(const std::string& scenario_json) {
  const api::FiguresReply reply = api::trace_figures(scenario_json);
  emscripten::val result = emscripten::val::object();
  result.set("ok", reply.ok);
  result.set("error", reply.error);
  const auto view = emscripten::val(emscripten::typed_memory_view(reply.figures.size(), reply.figures.data()));
  result.set("figures", emscripten::val::global("Float64Array").new_(view));
  return result;
}

std::string version() { return PREFILL_TRACE_VERSION; }

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
