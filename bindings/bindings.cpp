// Embind adapter: converts JS values to the engine facade's arguments and its reply structs to
// JS objects, and nothing else. No formulas live here (src/ has them); errors arrive as reply
// values, never as exceptions. The one exception to Embind is traceFigures, a plain export
// wrapped by figures-post.js (below says why). boundary-post.js then wraps every export so that
// nothing JS passes can make Embind throw. Declared for JS in prefill-trace.d.ts, which
// tests/js/api-surface.test.mjs holds against the module's exports.

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "prefill_trace/engine.hpp"

namespace {

using emscripten::val;
using namespace prefill_trace;

// Every argument arrives checked by boundary-post.js, which wraps each function registered here:
// the right count, strings within their byte limits (src/limits.hpp), numbers as numbers, and
// sweep values copied into a fresh Float64Array. So these functions only convert, and no Embind
// conversion can throw.

api::QuizReply check_answer(const std::string& lesson_text, double check_index, double choice) {
  return api::check_answer(lesson_text, check_index, choice);
}

api::JsonReply sweep(const std::string& scenario_json, const std::string& variable,
                     const val& values) {
  // One typed-array copy for the whole sweep: a single boundary crossing for all points.
  return api::sweep(scenario_json, variable,
                    emscripten::convertJSArrayToNumberVector<double>(values));
}

api::GeneratedReply check_generated(const std::string& scenario_json, const std::string& id,
                                    double answer) {
  return api::check_generated(scenario_json, id, answer);
}

std::string version() {
  return PREFILL_TRACE_VERSION;
}

// The members every reply shares, in the order JS sees them (ok, error, code, path, what,
// detail); the caller adds the reply's own. The registration completes when the temporary `object`
// is destroyed, at the end of the caller's statement.
template <typename Reply>
emscripten::value_object<Reply>& reply_fields(emscripten::value_object<Reply>&& object) {
  return object.field("ok", &Reply::ok)
      .field("error", &Reply::error)
      .field("code", &Reply::code)
      .field("path", &Reply::path)
      .field("what", &Reply::what)
      .field("detail", &Reply::detail);
}

// The serving simulation in slices: its methods, each only converting (the facade checks use).
api::JsonReply serving_start(api::ServingSimulation& self, const std::string& text) {
  return self.start(text);
}
api::JsonReply serving_start_trace(api::ServingSimulation& self, const std::string& text,
                                   const std::string& trace) {
  return self.start(text, trace);
}
api::ProgressReply serving_advance(api::ServingSimulation& self, double budget) {
  return self.advance(budget);
}
api::JsonReply serving_result(api::ServingSimulation& self) {
  return self.result();
}

// The placement search in slices: the same, for api::ServingPlan.
api::JsonReply plan_start(api::ServingPlan& self, const std::string& text, double devices) {
  return self.start(text, devices);
}
api::PlanProgressReply plan_advance(api::ServingPlan& self, double budget) {
  return self.advance(budget);
}
api::JsonReply plan_result(api::ServingPlan& self) {
  return self.result();
}

// The reply of the last traceFigures call, read by figures-post.js before the next call.
api::FiguresReply last_figures;

// The refusal's `what` and detail texts by number, in figures-post.js's order: 0 what,
// 1 expected, 2 found, 3 value.
const std::string& figures_error_text(int member) {
  const ErrorDetail& detail = last_figures.detail;
  static const std::string none;
  switch (member) {
    case 0:
      return last_figures.what;
    case 1:
      return detail.expected;
    case 2:
      return detail.found;
    case 3:
      return detail.value;
    default:
      return none;
  }
}

}  // namespace

// traceFigures is the per-frame call, so it skips Embind: figures-post.js writes the scenario's
// UTF-8 into wasm memory, makes one plain call, and copies the figures out of this buffer. With
// Embind the same call took ~25 crossings of the JS/wasm boundary (emval handles for the
// argument checks and for every property of the result), a third of its cost.
extern "C" {

// The limits boundary-post.js checks arguments against, from the one place they are set.
EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_max_text_bytes() {
  return api::max_document_bytes();
}
EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_max_identifier_bytes() {
  return api::max_identifier_bytes();
}
EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_max_sweep_points() {
  return api::max_sweep_points();
}
EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_max_request_trace_bytes() {
  return api::max_request_trace_bytes();
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

EMSCRIPTEN_KEEPALIVE int prefill_trace_figures_error_code() {
  return static_cast<int>(last_figures.code);
}

EMSCRIPTEN_KEEPALIVE const char* prefill_trace_figures_error_path() {
  return last_figures.path.data();
}

EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_figures_error_path_bytes() {
  return last_figures.path.size();
}

EMSCRIPTEN_KEEPALIVE const char* prefill_trace_figures_error_text(int member) {
  return figures_error_text(member).data();
}

EMSCRIPTEN_KEEPALIVE std::size_t prefill_trace_figures_error_text_bytes(int member) {
  return figures_error_text(member).size();
}

// The detail's numbers by number: 0 minimum, 1 maximum, 2 minimum_excluded, 3 zero_allowed.
EMSCRIPTEN_KEEPALIVE double prefill_trace_figures_error_number(int member) {
  const ErrorDetail& detail = last_figures.detail;
  const double numbers[] = {detail.minimum, detail.maximum, detail.minimum_excluded ? 1.0 : 0.0,
                            detail.zero_allowed ? 1.0 : 0.0};
  return member >= 0 && member < 4 ? numbers[member] : 0;
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(prefill_trace) {
  using emscripten::enum_;
  using emscripten::function;
  using emscripten::value_object;

  // Every reply's `code`: JS compares it with ErrorCode.unknown_field etc. (its `value` is the
  // stable number of include/prefill_trace/result.hpp), registered from the one list of names.
  enum_<ErrorCode> codes("ErrorCode");
  for (const ErrorCodeEntry& entry : kErrorCodeNames) codes.value(entry.name, entry.code);
  // Every reply's `detail` (include/prefill_trace/result.hpp says what each member holds).
  value_object<ErrorDetail>("ErrorDetail")
      .field("expected", &ErrorDetail::expected)
      .field("found", &ErrorDetail::found)
      .field("value", &ErrorDetail::value)
      .field("minimum", &ErrorDetail::minimum)
      .field("maximum", &ErrorDetail::maximum)
      .field("minimumExcluded", &ErrorDetail::minimum_excluded)
      .field("zeroAllowed", &ErrorDetail::zero_allowed);

  reply_fields(value_object<api::LessonReply>("LessonResult"))
      .field("lessonJson", &api::LessonReply::lesson_json);
  reply_fields(value_object<api::QuizReply>("QuizResult"))
      .field("correct", &api::QuizReply::correct)
      .field("correctIndex", &api::QuizReply::correct_index)
      .field("explanation", &api::QuizReply::explanation);
  reply_fields(value_object<api::JsonReply>("JsonResult")).field("json", &api::JsonReply::json);
  reply_fields(value_object<api::CsvReply>("CsvResult")).field("csv", &api::CsvReply::csv);
  reply_fields(value_object<api::GeneratedReply>("GeneratedCheckResult"))
      .field("correct", &api::GeneratedReply::correct)
      .field("expected", &api::GeneratedReply::expected)
      .field("explanation", &api::GeneratedReply::explanation);

  reply_fields(value_object<api::ProgressReply>("ServingProgress"))
      .field("done", &api::ProgressReply::done)
      .field("runs", &api::ProgressReply::runs)
      .field("requestsFinished", &api::ProgressReply::requests_finished)
      .field("requests", &api::ProgressReply::requests);
  // A class: JS must call .delete() on each (Embind frees no C++ object by itself).
  emscripten::class_<api::ServingSimulation>("ServingSimulation")
      .constructor<>()
      .function("start", &serving_start)
      .function("startTrace", &serving_start_trace)
      .function("advance", &serving_advance)
      .function("result", &serving_result);
  reply_fields(value_object<api::PlanProgressReply>("PlanProgress"))
      .field("done", &api::PlanProgressReply::done)
      .field("searches", &api::PlanProgressReply::searches)
      .field("placements", &api::PlanProgressReply::placements)
      .field("placementsTotal", &api::PlanProgressReply::placements_total);
  emscripten::class_<api::ServingPlan>("ServingPlan")
      .constructor<>()
      .function("start", &plan_start)
      .function("advance", &plan_advance)
      .function("result", &plan_result);

  function("version", &version);
  function(
      "figuresLayout", +[] { return api::figures_layout(); });
  function(
      "scenarioFields", +[] { return api::scenario_fields(); });
  function(
      "servingFields", +[] { return api::serving_fields(); });
  function(
      "bundledLessonText", +[] { return std::string(api::bundled_lesson_text()); });
  function(
      "loadLesson", +[](const std::string& text) { return api::load_lesson(text); });
  function("checkAnswer", &check_answer);
  function(
      "computeTrace", +[](const std::string& text) { return api::compute_trace(text); });
  function(
      "traceLeaves", +[](const std::string& text) { return api::trace_leaves(text); });
  function(
      "traceCsv", +[](const std::string& text) { return api::compute_trace_csv(text); });
  function("listPresets", &api::list_presets);
  function("sweep", &sweep);
  function(
      "generateChecks", +[](const std::string& text) { return api::generate_checks(text); });
  function("checkGenerated", &check_generated);
  function(
      "simulateServing", +[](const std::string& text) { return api::simulate_serving(text); });
  function(
      "planServing",
      +[](const std::string& text, double devices) { return api::plan_serving(text, devices); });
  emscripten::function(
      "simulateServingTrace", +[](const std::string& text, const std::string& trace) {
        return api::simulate_serving(text, trace);
      });
}
