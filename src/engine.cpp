#include "prefill_trace/engine.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "checks.hpp"
#include "json_path.hpp"
#include "json_write.hpp"
#include "lesson.hpp"
#include "limits.hpp"
#include "quiz.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_fields.hpp"
#include "serving/call.hpp"
#include "serving/plan.hpp"
#include "serving/serving_fields.hpp"
#include "serving/serving_json.hpp"
#include "serving/serving_plan_json.hpp"
#include "trace/trace.hpp"
#include "trace/trace_figures.hpp"
#include "trace/trace_json.hpp"
#include "trace/trace_leaves.hpp"

namespace prefill_trace {
namespace data {
std::string_view lesson();  // generated from lesson-data/ (cmake/EmbedData.cmake)
}  // namespace data

namespace api {

static_assert(kFiguresLayoutVersion == kFiguresLayout,
              "the facade states the layout trace_figures writes");

namespace {

const std::vector<std::string>& bundled_mechanism() {
  static const std::vector<std::string> mechanism = [] {
    auto lesson = parse_lesson(data::lesson());
    return lesson ? lesson->mechanism : std::vector<std::string>{};
  }();
  return mechanism;
}

// Every reply reports a refusal the same way: its code, path, message and detail (ok stays false).
template <typename Reply>
Reply& refuse(Reply& reply, const Error& error) {
  reply.error = error.message;
  reply.code = error.code;
  reply.path = error.path;
  reply.what = error.what;
  reply.detail = error.detail;
  return reply;
}

// Parses the scenario, then lets `body` fill the reply; a parse error becomes the reply's error.
template <typename Reply, typename Body>
Reply with_scenario(std::string_view scenario_json, Body body) {
  Reply reply;
  auto scenario = parse_scenario(scenario_json);
  if (!scenario) return refuse(reply, scenario.failure());
  body(scenario.value(), reply);
  return reply;
}

// Computes the scenario's trace (steps with the bundled lesson's mechanism), then lets `write`
// fill the reply from it; a parse error becomes the reply's error.
template <typename Reply, typename Write>
Reply with_trace(std::string_view scenario_json, Write write) {
  return with_scenario<Reply>(scenario_json, [&](const Scenario& scenario, Reply& reply) {
    write(prefill_trace::compute_trace(scenario, bundled_mechanism()), reply);
    reply.ok = true;
  });
}

}  // namespace

std::string figures_layout() {
  return figures_layout_json();
}

std::string scenario_fields() {
  return scenario_fields_json();
}

std::string serving_fields() {
  return serving_fields_json();
}

std::string_view version() {
  return PREFILL_TRACE_VERSION;
}

std::string_view bundled_lesson_text() {
  return data::lesson();
}
std::string_view bundled_lesson_name() {
  return "prefill-resource-trace-a76d037833bd69f7.json";
}

LessonReply load_lesson(std::string_view lesson_text) {
  LessonReply reply;
  auto lesson = parse_lesson(lesson_text);
  if (!lesson) return refuse(reply, lesson.failure());
  reply.ok = true;
  reply.lesson_json = dump_json(lesson->document);
  return reply;
}

QuizReply check_answer(std::string_view lesson_text, double check_index, double choice) {
  QuizReply reply;
  auto lesson = parse_lesson(lesson_text);
  if (!lesson) return refuse(reply, lesson.failure());
  auto outcome = prefill_trace::check_answer(lesson.value(), check_index, choice);
  if (!outcome) return refuse(reply, outcome.failure());
  reply.ok = true;
  reply.correct = outcome->correct;
  reply.correct_index = outcome->correct_index;
  reply.explanation = outcome->explanation;
  return reply;
}

JsonReply compute_trace(std::string_view scenario_json) {
  return with_trace<JsonReply>(scenario_json, [](const Trace& trace, JsonReply& reply) {
    reply.json = dump_json(trace_to_json(trace));
  });
}

JsonReply trace_leaves(std::string_view scenario_json) {
  return with_trace<JsonReply>(scenario_json, [](const Trace& trace, JsonReply& reply) {
    reply.json = trace_leaves_json(trace);
  });
}

FiguresReply trace_figures(std::string_view scenario_json) {
  return with_trace<FiguresReply>(scenario_json, [](const Trace& trace, FiguresReply& reply) {
    reply.figures = trace_figures_of(trace);
  });
}

CsvReply compute_trace_csv(std::string_view scenario_json) {
  return with_trace<CsvReply>(
      scenario_json, [](const Trace& trace, CsvReply& reply) { reply.csv = trace_to_csv(trace); });
}

JsonReply list_presets() {
  JsonReply reply;
  const Presets& presets = builtin_presets();
  if (presets.models.empty() || presets.accelerators.empty()) {
    return refuse(reply, error_at(ErrorCode::internal, "",
                                  "the built-in presets failed to load (a build defect)"));
  }
  reply.ok = true;
  reply.json = dump_json(presets_to_json(presets));
  return reply;
}

namespace {
// A name passed on its own is bounded here too, not only by the wasm boundary's JS: C++
// callers of this facade get the same limit and the same message shape. Empty: within it.
std::string identifier_too_long(const char* what, std::string_view name) {
  if (name.size() <= limits::max_identifier_bytes) return {};
  return std::string(what) + ": string of " + std::to_string(name.size()) +
         " bytes exceeds the limit of " + std::to_string(limits::max_identifier_bytes);
}

// The refusal of an over-long name: no JSON path (the boundary's JS says the same).
template <typename Reply>
Reply too_long(std::string message) {
  Reply reply;
  return refuse(reply, error_at(ErrorCode::too_large, "", std::move(message)));
}
}  // namespace

JsonReply sweep(std::string_view scenario_json, std::string_view variable,
                const std::vector<double>& values) {
  if (auto error = identifier_too_long("variable", variable); !error.empty()) {
    return too_long<JsonReply>(std::move(error));
  }
  return with_scenario<JsonReply>(scenario_json, [&](const Scenario& scenario, JsonReply& reply) {
    if (variable != "prompt_tokens" && variable != "arrival_rate") {
      refuse(reply, error_at(ErrorCode::unknown_name, "/variable",
                             "must be \"prompt_tokens\" or \"arrival_rate\""));
      return;
    }
    const SweepVariable which =
        variable == "prompt_tokens" ? SweepVariable::prompt_tokens : SweepVariable::arrival_rate;
    auto points = prefill_trace::sweep(scenario, which, values);
    if (!points) {
      refuse(reply, points.failure());
      return;
    }
    reply.ok = true;
    reply.json = dump_json(sweep_to_json(which, points.value()));
  });
}

JsonReply generate_checks(std::string_view scenario_json) {
  return with_scenario<JsonReply>(scenario_json, [](const Scenario& scenario, JsonReply& reply) {
    nlohmann::json checks = nlohmann::json::array();
    for (const GeneratedCheck& check : prefill_trace::generate_checks(scenario)) {
      nlohmann::json entry =
          json_object({{"id", check.id},
                       {"kind", check.kind == CheckKind::numeric ? "numeric" : "choice"},
                       {"question", check.question}});
      if (check.kind == CheckKind::numeric) {
        entry["unit"] = check.unit;
        entry["relative_tolerance"] = check.relative_tolerance;
      } else {
        entry["options"] = check.options;
      }
      checks.push_back(entry);
    }
    reply.ok = true;
    reply.json = dump_json(json_object({{"checks", checks}}));
  });
}

namespace {
// `trace_text`: a request trace beside the scenario, or none. `check` may refuse the parsed
// request before anything is simulated.
template <typename Reply, typename Write, typename Check>
Reply serve_with(std::string_view scenario_json, const std::string_view* trace_text, Write write,
                 Check check) {
  Reply reply;
  auto request = trace_text != nullptr ? parse_serving_request(scenario_json, *trace_text)
                                       : parse_serving_request(scenario_json);
  if (!request) return refuse(reply, request.failure());
  if (auto error = check(request->config)) return refuse(reply, *error);
  auto report = prefill_trace::simulate_serving(request->scenario, request->config);
  if (!report) return refuse(reply, report.failure());
  write(report.value(), reply);
  reply.ok = true;
  return reply;
}
}  // namespace

namespace {
void write_json(const ServingReport& report, JsonReply& reply) {
  reply.json = dump_json(serving_report_to_json(report));
}
void write_csv(const ServingReport& report, CsvReply& reply) {
  reply.csv = serving_report_to_csv(report);
}
std::optional<Error> no_check(const ServingConfig&) {
  return std::nullopt;
}
// A CSV is one row per request of one run: the sweep's runs keep no requests (ServingReport),
// so their rows would be missing without a word. Refused before anything runs.
std::optional<Error> one_rate(const ServingConfig& config) {
  if (config.sweep_rates.empty()) return std::nullopt;
  return error_at(ErrorCode::incompatible, "/serving/sweep_rates",
                  "a CSV holds the requests of one rate; ask for the JSON report for a sweep, "
                  "or one CSV per rate");
}
}  // namespace

JsonReply simulate_serving(std::string_view scenario_json) {
  return serve_with<JsonReply>(scenario_json, nullptr, write_json, no_check);
}
JsonReply simulate_serving(std::string_view scenario_json, std::string_view trace_text) {
  return serve_with<JsonReply>(scenario_json, &trace_text, write_json, no_check);
}
CsvReply simulate_serving_csv(std::string_view scenario_json) {
  return serve_with<CsvReply>(scenario_json, nullptr, write_csv, one_rate);
}
CsvReply simulate_serving_csv(std::string_view scenario_json, std::string_view trace_text) {
  return serve_with<CsvReply>(scenario_json, &trace_text, write_csv, one_rate);
}

// --- Calls in slices: the serving simulation and the placement search -----------------------

namespace {
// A call in slices (ServingSimulation, ServingPlan): its stage, the object while it runs, the
// refusal at start, and the reply once written. `Call` has advance(budget), progress() and
// take(); `noun` names it in the misuse messages.
template <typename Call>
struct Sliced {
  enum class Stage { fresh, running, refused, done };
  explicit Sliced(const char* what) : noun(what) {}
  const char* noun;
  Stage stage = Stage::fresh;
  std::unique_ptr<Call> call;
  Error refusal;    // start's, once refused
  JsonReply reply;  // result's, once done (written at the first result())
  bool written = false;
};

Error misuse(const std::string& what) {
  return error_at(ErrorCode::usage, "", what);
}

// `make()` checks and prepares the call (a Result of it); refused when started before.
template <typename Call, typename Make>
JsonReply start_sliced(Sliced<Call>& state, Make make) {
  JsonReply reply;
  if (state.stage != Sliced<Call>::Stage::fresh)
    return refuse(reply, misuse(std::string("start: this ") + state.noun +
                                " has started already; make a new one"));
  auto call = make();
  if (call) {
    state.call = std::move(call).value();
    state.stage = Sliced<Call>::Stage::running;
    reply.ok = true;
    return reply;
  }
  state.refusal = call.failure();
  state.stage = Sliced<Call>::Stage::refused;
  return refuse(reply, state.refusal);
}

// Advances the call by `budget`, or why it cannot: the reply's progress is the caller's to fill.
template <typename Reply, typename Call>
Reply advance_sliced(Sliced<Call>& state, double budget) {
  Reply reply;
  const std::string noun = state.noun;
  switch (state.stage) {
    case Sliced<Call>::Stage::fresh:
      return refuse(reply, misuse("advance: call start first"));
    case Sliced<Call>::Stage::refused:
      return refuse(reply, misuse("advance: the " + noun + " was refused when it started (" +
                                  state.refusal.message + ")"));
    case Sliced<Call>::Stage::done:
      return refuse(reply, misuse("advance: the " + noun + " is done; read result()"));
    case Sliced<Call>::Stage::running:
      break;
  }
  // NaN fails the test: a slice needs some work to make progress.
  if (!(budget > 0)) {
    return refuse(reply, error_at(ErrorCode::out_of_range, "/budget",
                                  "must be a number of work units above 0"));
  }
  if (state.call->advance(budget)) state.stage = Sliced<Call>::Stage::done;
  reply.ok = true;
  return reply;
}

// The call's reply once done, written by `write(report, reply)` at the first call.
template <typename Call, typename Write>
JsonReply sliced_result(Sliced<Call>& state, Write write) {
  if (state.stage != Sliced<Call>::Stage::done) {
    JsonReply reply;
    return refuse(reply, misuse(std::string("result: the ") + state.noun +
                                " is not done; advance it until done"));
  }
  if (!state.written) {
    auto report = state.call->take();
    state.call.reset();
    if (report) {
      write(report.value(), state.reply);
      state.reply.ok = true;
    } else {
      refuse(state.reply, report.failure());
    }
    state.written = true;
  }
  return state.reply;
}

Result<std::unique_ptr<serving::ServingCall>> serving_call(Result<ServingRequest> request) {
  if (!request) return request.failure();
  return serving::start_serving(request->scenario, request->config);
}
}  // namespace

struct ServingSimulation::State : Sliced<serving::ServingCall> {
  State() : Sliced("simulation") {}
};

ServingSimulation::ServingSimulation() : state_(std::make_unique<State>()) {}
ServingSimulation::~ServingSimulation() = default;

JsonReply ServingSimulation::start(std::string_view scenario_json) {
  return start_sliced(*state_, [&] { return serving_call(parse_serving_request(scenario_json)); });
}
JsonReply ServingSimulation::start(std::string_view scenario_json, std::string_view trace_text) {
  return start_sliced(
      *state_, [&] { return serving_call(parse_serving_request(scenario_json, trace_text)); });
}

ProgressReply ServingSimulation::advance(double budget) {
  ProgressReply reply = advance_sliced<ProgressReply>(*state_, budget);
  if (!reply.ok) return reply;
  const serving::CallProgress progress = state_->call->progress();
  reply.done = progress.done;
  reply.runs = static_cast<double>(progress.runs);
  reply.requests_finished = static_cast<double>(progress.requests_finished);
  reply.requests = static_cast<double>(progress.requests);
  return reply;
}

JsonReply ServingSimulation::result() {
  return sliced_result(*state_, write_json);
}

struct ServingPlan::State : Sliced<PlanSearch> {
  State() : Sliced("plan") {}
};

ServingPlan::ServingPlan() : state_(std::make_unique<State>()) {}
ServingPlan::~ServingPlan() = default;

JsonReply ServingPlan::start(std::string_view scenario_json, double devices) {
  return start_sliced(*state_, [&]() -> Result<std::unique_ptr<PlanSearch>> {
    // NaN fails the first test: the budget is a whole number of devices.
    if (!(devices == std::floor(devices)) || devices < 1 ||
        devices > static_cast<double>(limits::max_plan_devices)) {
      return error_at(ErrorCode::out_of_range, "/devices",
                      "must be an integer from 1 to " + std::to_string(limits::max_plan_devices));
    }
    auto request = parse_plan_request(scenario_json);
    if (!request) return request.failure();
    return start_plan(request->scenario, request->config, static_cast<int64_t>(devices));
  });
}

PlanProgressReply ServingPlan::advance(double budget) {
  PlanProgressReply reply = advance_sliced<PlanProgressReply>(*state_, budget);
  if (!reply.ok) return reply;
  const PlanProgress progress = state_->call->progress();
  reply.done = progress.done;
  reply.searches = static_cast<double>(progress.searches);
  reply.placements = static_cast<double>(progress.placements);
  reply.placements_total = static_cast<double>(progress.placements_total);
  return reply;
}

JsonReply ServingPlan::result() {
  return sliced_result(*state_, [](const PlanReport& report, JsonReply& reply) {
    reply.json = dump_json(plan_report_to_json(report));
  });
}

// One advance with no limit: the same object a caller in slices advances.
JsonReply plan_serving(std::string_view scenario_json, double devices) {
  ServingPlan plan;
  JsonReply started = plan.start(scenario_json, devices);
  if (!started.ok) return started;
  plan.advance(std::numeric_limits<double>::infinity());
  return plan.result();
}

GeneratedReply check_generated(std::string_view scenario_json, std::string_view id, double answer) {
  if (auto error = identifier_too_long("id", id); !error.empty()) {
    return too_long<GeneratedReply>(std::move(error));
  }
  return with_scenario<GeneratedReply>(
      scenario_json, [&](const Scenario& scenario, GeneratedReply& reply) {
        auto outcome = prefill_trace::check_generated(scenario, id, answer);
        if (!outcome) {
          refuse(reply, outcome.failure());
          return;
        }
        reply.ok = true;
        reply.correct = outcome->correct;
        reply.expected = outcome->expected;
        reply.explanation = outcome->explanation;
      });
}

JsonReply check_json(std::string_view text) {
  JsonReply reply;
  auto document = parse_strict_json(text);
  if (!document) return refuse(reply, document.failure());
  reply.ok = true;
  reply.json = dump_json(document.value());
  return reply;
}

StatusReply verify_published_name(std::string_view file_name, std::string_view sha256_hex) {
  StatusReply reply;
  auto verified = prefill_trace::verify_published_name(file_name, sha256_hex);
  if (!verified) return refuse(reply, verified.failure());
  reply.ok = true;
  return reply;
}

std::string excerpt(std::string_view text) {
  return prefill_trace::excerpt(text);
}
std::string excerpt(std::string_view text, std::size_t max_bytes) {
  return prefill_trace::excerpt(text, max_bytes);
}
std::string quoted_excerpt(std::string_view text) {
  return prefill_trace::quoted_excerpt(text);
}
std::string child_path(std::string_view parent, std::string_view key) {
  return prefill_trace::child_path(std::string(parent), key);
}

std::size_t max_document_bytes() {
  return limits::max_document_bytes;
}
std::size_t max_request_trace_bytes() {
  return limits::max_request_trace_bytes;
}
std::size_t max_sweep_points() {
  return limits::max_sweep_points;
}
std::size_t max_identifier_bytes() {
  return limits::max_identifier_bytes;
}

}  // namespace api
}  // namespace prefill_trace
