#include "prefill_trace/engine.hpp"

#include "checks.hpp"
#include "lesson.hpp"
#include "quiz.hpp"
#include "scenario.hpp"
#include "trace.hpp"
#include "trace_json.hpp"

namespace prefill_trace {
namespace data {
std::string_view lesson();  // generated from lesson-data/ (cmake/EmbedData.cmake)
}  // namespace data

namespace api {
namespace {

const std::vector<std::string>& bundled_mechanism() {
  static const std::vector<std::string> mechanism = [] {
    auto lesson = parse_lesson(data::lesson());
    return lesson ? lesson->mechanism : std::vector<std::string>{};
  }();
  return mechanism;
}

// Parses the scenario, then lets `body` fill the reply; a parse error becomes the reply's error.
template <typename Reply, typename Body>
Reply with_scenario(std::string_view scenario_json, Body body) {
  Reply reply;
  auto scenario = parse_scenario(scenario_json);
  if (!scenario) {
    reply.error = scenario.error();
    return reply;
  }
  body(scenario.value(), reply);
  return reply;
}

Result<Trace> trace_for(std::string_view scenario_json) {
  auto scenario = parse_scenario(scenario_json);
  if (!scenario) return Error{scenario.error()};
  return compute_trace(scenario.value(), bundled_mechanism());
}

}  // namespace

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
  if (!lesson) {
    reply.error = lesson.error();
    return reply;
  }
  reply.ok = true;
  reply.lesson_json = dump_json(lesson->document);
  return reply;
}

QuizReply check_answer(std::string_view lesson_text, double check_index, double choice) {
  QuizReply reply;
  auto lesson = parse_lesson(lesson_text);
  if (!lesson) {
    reply.error = lesson.error();
    return reply;
  }
  auto outcome = prefill_trace::check_answer(lesson.value(), check_index, choice);
  if (!outcome) {
    reply.error = outcome.error();
    return reply;
  }
  reply.ok = true;
  reply.correct = outcome->correct;
  reply.correct_index = outcome->correct_index;
  reply.explanation = outcome->explanation;
  return reply;
}

JsonReply compute_trace(std::string_view scenario_json) {
  JsonReply reply;
  auto trace = trace_for(scenario_json);
  if (!trace) {
    reply.error = trace.error();
    return reply;
  }
  reply.ok = true;
  reply.json = dump_json(trace_to_json(trace.value()));
  return reply;
}

FiguresReply trace_figures(std::string_view scenario_json) {
  FiguresReply reply;
  auto trace = trace_for(scenario_json);
  if (!trace) {
    reply.error = trace.error();
    return reply;
  }
  const Trace& t = trace.value();
  const Ttft& ttft = t.ttft;
  std::vector<double>& out = reply.figures;
  out.reserve(2 + kFiguresSummaryCount + kFiguresPerOperator * t.operators.size());
  out = {static_cast<double>(kFiguresLayoutVersion), static_cast<double>(t.operators.size()),
         // Summary. An overloaded queue has no finite wait: its slots hold 0 and the
         // `overloaded` flag says so (a Float64Array has no null).
         t.totals.flops, t.totals.hbm_bytes, t.totals.seconds, t.attention.kv_bytes_kept,
         t.memory.peak_bytes, t.memory.capacity_bytes, t.memory.fits ? 1.0 : 0.0,
         t.memory.exceeds_by_bytes, ttft.overloaded ? 1.0 : 0.0, ttft.queue_seconds.value_or(0),
         ttft.execution_seconds, ttft.delivery_seconds, ttft.total_seconds.value_or(0),
         t.decode.seconds, t.decode.intensity, t.projection.ridge_flops_per_byte};
  for (const Operator& op : t.operators) {
    out.insert(out.end(),
               {static_cast<double>(op.step), op.count, op.launches, op.flops, op.computed_flops,
                op.hbm.total(), op.intensity, op.compute_seconds, op.memory_seconds,
                op.overhead_seconds, op.seconds, static_cast<double>(op.bound)});
  }
  reply.ok = true;
  return reply;
}

CsvReply compute_trace_csv(std::string_view scenario_json) {
  CsvReply reply;
  auto trace = trace_for(scenario_json);
  if (!trace) {
    reply.error = trace.error();
    return reply;
  }
  reply.csv = trace_to_csv(trace.value());
  reply.ok = true;
  return reply;
}

JsonReply list_presets() {
  JsonReply reply;
  const Presets& presets = builtin_presets();
  if (presets.models.empty() || presets.accelerators.empty()) {
    reply.error = "the built-in presets failed to load (a build defect)";
    return reply;
  }
  reply.ok = true;
  reply.json = dump_json(presets_to_json(presets));
  return reply;
}

JsonReply sweep(std::string_view scenario_json, std::string_view variable,
                const std::vector<double>& values) {
  return with_scenario<JsonReply>(scenario_json, [&](const Scenario& scenario, JsonReply& reply) {
    if (variable != "prompt_tokens" && variable != "arrival_rate") {
      reply.error = "sweep variable must be \"prompt_tokens\" or \"arrival_rate\"";
      return;
    }
    const SweepVariable which =
        variable == "prompt_tokens" ? SweepVariable::prompt_tokens : SweepVariable::arrival_rate;
    auto points = prefill_trace::sweep(scenario, which, values);
    if (!points) {
      reply.error = points.error();
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

GeneratedReply check_generated(std::string_view scenario_json, std::string_view id, double answer) {
  return with_scenario<GeneratedReply>(
      scenario_json, [&](const Scenario& scenario, GeneratedReply& reply) {
        auto outcome = prefill_trace::check_generated(scenario, id, answer);
        if (!outcome) {
          reply.error = outcome.error();
          return;
        }
        reply.ok = true;
        reply.correct = outcome->correct;
        reply.expected = outcome->expected;
        reply.explanation = outcome->explanation;
      });
}

}  // namespace api
}  // namespace prefill_trace
