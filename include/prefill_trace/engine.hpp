#pragma once
// The engine's text-in, text-out facade: what the CLI, the wasm bindings and C++ consumers of
// the installed library call. Every entry point returns a reply value and never throws;
// `ok == false` carries the error: `code` (what kind, stable: prefill_trace/result.hpp), `path`
// (the JSON Pointer of the value concerned, or empty) and `error` (one line for people, which
// callers show but never parse) and `what` (the same problem without the path, for a caller that
// composes its own line: the CLI names the flag instead of the path), and `detail` (its parts:
// the expected kind, the bounds, the refused value, for a caller that words it: the page). The
// bindings only convert these structs to JS objects. Inputs and outputs are JSON text, so this
// header (the library's public interface, with prefill_trace/version.hpp and
// prefill_trace/number_text.hpp) needs no JSON library. The project's CLI (src/cli/) is a client of
// these headers only.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "prefill_trace/result.hpp"
#include "prefill_trace/version.hpp"

namespace prefill_trace::api {

/// The engine's version, PREFILL_TRACE_VERSION ("major.minor.patch"), as compiled into the
/// library (which may differ from the header a consumer compiles against if the two are mixed).
std::string_view version();

struct LessonReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;         // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;       // the problem's parts (bounds, expected kind, the value), when known
  std::string lesson_json;  // the validated lesson, re-serialized (unknown fields kept)
};

struct QuizReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
  bool correct = false;
  int correct_index = -1;
  std::string explanation;
};

struct JsonReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
  std::string json;
};

/// The trace's headline figures as one flat array of doubles, for callers that redraw on every
/// slider movement and should not pay for JSON (layout: docs/trace-json.md, "Figures").
struct FiguresReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
  std::vector<double> figures;
};
/// [3, signature, every number of the trace document in its printed order]: layout 3.
constexpr int kFiguresLayoutVersion = 3;
FiguresReply trace_figures(std::string_view scenario_json);
/// What a reader needs besides a parsed trace document to refill it from figures (JSON):
/// {"bound_keys": ["bound", "prefill_bound"], "bound_names": ["compute", ...], "version": 3}.
std::string figures_layout();

/// The scenario's input fields as JSON (docs/trace-json.md, "Scenario (input)"): {"scenario":
/// [field…], "model": [field…], "hardware": [field…], "estimate": [field…]} (the scenario's own
/// members, a model shape's, an accelerator's and its estimate profile's), each {name, kind,
/// default, min, max, nullable, required, choices: [{value, label}], unit, symbol, label, hint,
/// docs}: what the page's controls are built from.
std::string scenario_fields();
/// The serving object's input fields as JSON (docs/serving.md, "Input"): {"serving": [field…],
/// "aliases": [{flag, key, kind}]}, each field as scenario_fields() writes one plus `flag` (the
/// CLI flag that sets it, "" when only a scenario file can) and `min_exclusive` (min itself is
/// refused); aliases are older CLI spellings kept (kind "number" or "text": how the value is
/// read). What the CLI's serve flags and the page's Under-load controls are built from.
std::string serving_fields();

/// The lesson file compiled into the engine, byte for byte, and its published name.
std::string_view bundled_lesson_text();
std::string_view bundled_lesson_name();

LessonReply load_lesson(std::string_view lesson_text);
/// check_index 0 = /check, i >= 1 = /checks/(i-1); choice = 0-based option index.
QuizReply check_answer(std::string_view lesson_text, double check_index, double choice);
/// The trace for a scenario (docs/trace-json.md); steps carry the bundled lesson's mechanism.
JsonReply compute_trace(std::string_view scenario_json);
/// The leaves of the scenario's trace described for readers (docs/trace-json.md, "Units and
/// labels"): `{"leaves": [{path, kind, unit, label}], "units": [...]}`, one row per leaf path with
/// array items as "*". The page labels and formats the trace's facts from it.
JsonReply trace_leaves(std::string_view scenario_json);
/// The trace's operators as CSV (docs/trace-json.md, "CSV"): what the CLI's --csv prints and
/// the page downloads, one schema.
struct CsvReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
  std::string csv;
};
CsvReply compute_trace_csv(std::string_view scenario_json);
JsonReply list_presets();
/// variable: "prompt_tokens" or "arrival_rate"; at most max_sweep_points values.
JsonReply sweep(std::string_view scenario_json, std::string_view variable,
                const std::vector<double>& values);

/// The serving simulation (docs/serving.md): a scenario with a `serving` object in, the report
/// JSON out (docs/serving.md, "Output"). Deterministic for a seed; the same bytes native and in
/// wasm.
JsonReply simulate_serving(std::string_view scenario_json);
/// The same run's requests as CSV, one row each (docs/serving.md, "CSV"); a request with
/// `sweep_rates` is refused (ErrorCode::incompatible at /serving/sweep_rates): the sweep's runs
/// keep no rows, and a CSV of the base rate alone would drop them unseen.
CsvReply simulate_serving_csv(std::string_view scenario_json);
/// The placement search (docs/serving.md, "Placement search"): a scenario with its `serving`
/// object (SLOs, workload, the rate each goodput search starts at; no policy, instance counts or
/// tensor parallelism — the search chooses them) and a device budget `devices` (an integer from
/// 1 to 16, path "/devices"); {candidates: [{policy, prefill_instances, decode_instances,
/// prefill_tensor_parallel, decode_tensor_parallel, devices, goodput_requests_per_second,
/// goodput_per_device, bounded}], best, ...} out, best first. Deterministic; the same bytes
/// native and in wasm.
JsonReply plan_serving(std::string_view scenario_json, double devices);
/// Both with a request trace beside the scenario (docs/serving.md, "Real traces"): Azure's CSV
/// or Mooncake-style JSON Lines, at most max_request_trace_bytes — bigger than a scenario may
/// be, hence its own argument. Its requests replace rate, requests, prompt, output, arrival and
/// rows (each refused beside it: "is set by the trace"); `trace_rate_scale` and `trace_limit`
/// in the serving object say how it is read. An error in the trace has the path "/trace" and
/// names its line ("/trace: line 3: ...").
JsonReply simulate_serving(std::string_view scenario_json, std::string_view trace_text);
CsvReply simulate_serving_csv(std::string_view scenario_json, std::string_view trace_text);

/// How far a serving simulation in slices is (ServingSimulation::advance).
struct ProgressReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
  bool done = false;   // result() is ready
  double runs = 0;     // runs finished: the run, then the goodput search's probes, then the sweep's
  double requests_finished = 0;  // of the run under way (0 when done)
  double requests = 0;           // requests per run
};

/// simulate_serving in slices (docs/serving.md, "In slices"), for a caller that must not wait
/// for the whole call: a page without a background thread. start() takes what simulate_serving
/// takes and refuses what it refuses, with the same reply; each advance(budget) runs iterations
/// until the call's work has grown by `budget` units (src/serving/work.hpp: a row 1, an
/// iteration 40, an operator-model evaluation 50; at most one iteration more) and says how far
/// it is; once done, result() is simulate_serving's reply, the same bytes. simulate_serving is
/// the same object advanced without a limit. Misuse (start twice, advance before start, after a
/// refusal or once done, result before done, a budget not above 0) is refused with
/// ErrorCode::usage (out_of_range for the budget), never undefined.
class ServingSimulation {
 public:
  ServingSimulation();
  ~ServingSimulation();
  ServingSimulation(const ServingSimulation&) = delete;
  ServingSimulation& operator=(const ServingSimulation&) = delete;

  JsonReply start(std::string_view scenario_json);
  JsonReply start(std::string_view scenario_json, std::string_view trace_text);
  ProgressReply advance(double budget);
  JsonReply result();

  struct State;  // src/engine.cpp

 private:
  std::unique_ptr<State> state_;
};

/// How far a placement search in slices is (ServingPlan::advance).
struct PlanProgressReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;       // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;     // the problem's parts (bounds, expected kind, the value), when known
  bool done = false;      // result() is ready
  double searches = 0;    // goodput searches finished
  double placements = 0;  // placements passed (ranked, or skipped with their reason)
  double placements_total = 0;  // every placement within the devices, known at start
};

/// plan_serving in slices (docs/serving.md, "Placement search"), as ServingSimulation is
/// simulate_serving's: start(scenario_json, devices) takes what plan_serving takes and refuses
/// what it refuses, with the same reply; each advance(budget) runs the goodput searches until
/// their work has grown by `budget` units (the serving call's units; at most one iteration more)
/// and says how far the plan is; once done, result() is plan_serving's reply, the same bytes.
/// plan_serving is the same object advanced without a limit. Misuse is refused as
/// ServingSimulation's is (ErrorCode::usage; out_of_range for the budget).
class ServingPlan {
 public:
  ServingPlan();
  ~ServingPlan();
  ServingPlan(const ServingPlan&) = delete;
  ServingPlan& operator=(const ServingPlan&) = delete;

  JsonReply start(std::string_view scenario_json, double devices);
  PlanProgressReply advance(double budget);
  JsonReply result();

  struct State;  // src/engine.cpp

 private:
  std::unique_ptr<State> state_;
};

struct GeneratedReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
  bool correct = false;
  double expected = 0;  // the numeric answer, or the correct option's index
  std::string explanation;
};

/// Checks generated from the scenario: {"checks": [{id, kind, question, options, unit,
/// relative_tolerance}]} — without their answers, which check_generated reveals.
JsonReply generate_checks(std::string_view scenario_json);
GeneratedReply check_generated(std::string_view scenario_json, std::string_view id, double answer);

// --- For clients that compose their own documents and messages (the CLI is one) -------------

/// A JSON document read as every entry point above reads its input (strict: UTF-8, no
/// byte-order mark, no duplicate key, the size, depth and string limits of docs/robustness.md)
/// and written back on one line, or the error those entry points would give for the same text.
/// What a client parses before it edits a document: the CLI merges a scenario file with its
/// flags.
JsonReply check_json(std::string_view text);

/// An ok reply, or why not.
struct StatusReply {
  bool ok = false;
  std::string error;
  ErrorCode code = ErrorCode::none;
  std::string path;
  std::string what;    // the problem without the path: error is "path: what" (or what alone)
  ErrorDetail detail;  // the problem's parts (bounds, expected kind, the value), when known
};
/// Whether bytes are the published file `file_name` names ("NAME-<16 hex digits>.json", any
/// directory before it): `sha256_hex`, the caller's digest of the bytes (the engine does no
/// hashing or I/O), must be 64 lowercase hex digits beginning with the name's 16. An
/// `integrity` error otherwise.
StatusReply verify_published_name(std::string_view file_name, std::string_view sha256_hex);

/// Input text as the engine's own messages quote it: at most `max_bytes` bytes (whole UTF-8
/// sequences; by default the engine's bound, 80), then "… (N bytes)" when cut; control,
/// line and direction-changing characters escaped and bytes that are not UTF-8 shown as \xNN,
/// so the result is one printable line whatever the input held.
std::string excerpt(std::string_view text);
std::string excerpt(std::string_view text, std::size_t max_bytes);
/// The excerpt in double quotes, the byte count outside them when cut: "abc…" (100000 bytes).
std::string quoted_excerpt(std::string_view text);
/// The JSON Pointer of member `key` under `parent` ("" for the root) as the engine's error
/// paths spell it: '~' and '/' escaped (RFC 6901), the key shown as its excerpt.
std::string child_path(std::string_view parent, std::string_view key);

/// Bounds a client may apply before it calls (src/limits.hpp, docs/robustness.md): the largest
/// document an entry point reads, in bytes, and the most values one sweep takes.
std::size_t max_document_bytes();
std::size_t max_sweep_points();
/// The longest preset id (model, accelerator) a reader looks up, in bytes.
std::size_t max_identifier_bytes();
/// The largest request trace simulate_serving reads, in bytes.
std::size_t max_request_trace_bytes();

}  // namespace prefill_trace::api
