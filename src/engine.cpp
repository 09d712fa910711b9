#include "prefill_trace/engine.hpp"

#include <cstring>
#include <limits>

#include "checks.hpp"
#include "lesson.hpp"
#include "quiz.hpp"
#include "scenario.hpp"
#include "serving_json.hpp"
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

// Every reply reports a refusal the same way: its code, path and message (ok stays false).
template <typename Reply>
Reply& refuse(Reply& reply, const Error& error) {
  reply.error = error.message;
  reply.code = error.code;
  reply.path = error.path;
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

Result<Trace> trace_for(std::string_view scenario_json) {
  auto scenario = parse_scenario(scenario_json);
  if (!scenario) return scenario.failure();
  return compute_trace(scenario.value(), bundled_mechanism());
}

/// Appends the figures layout's extension (docs/trace-json.md, "Figures", version 2): every
/// number of the trace document in a fixed order, and a signature of everything the numbers do
/// not carry (the strings, the preset shapes, how many rows each list has). A page that kept one
/// trace document with the same signature can refill it from the numbers alone.
class FiguresWriter {
 public:
  explicit FiguresWriter(std::vector<double>& out) : out_(out) {}
  void number(double value) { out_.push_back(value); }
  void flag(bool value) { out_.push_back(value ? 1.0 : 0.0); }
  void maybe(const std::optional<double>& value) {
    out_.push_back(value ? *value : std::numeric_limits<double>::quiet_NaN());
  }
  void bound(Bound value) { out_.push_back(static_cast<double>(value)); }
  void maybe_bound(const std::optional<Bound>& value) {
    out_.push_back(value ? static_cast<double>(*value) : std::numeric_limits<double>::quiet_NaN());
  }
  // FNV-1a (32 bits, exact in a double) over the shape's strings and numbers.
  void shape(std::string_view text) {
    for (const char c : text) mix(static_cast<unsigned char>(c));
    mix(0);
  }
  void shape(double value) {
    unsigned char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    for (const unsigned char b : bytes) mix(b);
  }
  double signature() const { return static_cast<double>(hash_); }

 private:
  void mix(unsigned char byte) { hash_ = (hash_ ^ byte) * 16777619u; }
  std::vector<double>& out_;
  uint32_t hash_ = 2166136261u;
};

void write_shape(const Trace& t, FiguresWriter& w) {
  const ModelShape& m = t.scenario.model;
  for (std::string_view text :
       {std::string_view(m.id), std::string_view(m.name), std::string_view(m.source_url)})
    w.shape(text);
  for (double value :
       {double(m.layers), double(m.d_model), double(m.query_heads), double(m.kv_heads),
        double(m.head_dim), double(m.d_ff), double(m.mlp == MlpKind::gated), double(m.vocab),
        double(m.experts), double(m.active_experts), double(m.tied_embeddings),
        double(m.sliding_window), double(m.parallel_attention)})
    w.shape(value);
  const Accelerator& a = t.scenario.hardware;
  for (std::string_view text :
       {std::string_view(a.id), std::string_view(a.name), std::string_view(a.source_url),
        std::string_view(a.interconnect_name), std::string_view(a.interconnect_source_url)})
    w.shape(text);
  a.peak_flops.for_each([&](DType dtype, double flops) {
    w.shape(dtype_name(dtype));
    w.shape(flops);
  });
  const EstimateProfile& e = a.estimate;
  for (double value :
       {a.memory_bandwidth, a.memory_capacity, double(a.compute_units), a.sram_per_unit_bytes,
        a.l2_bytes, a.launch_overhead_seconds, a.interconnect_bandwidth,
        double(a.interconnect_kind), double(a.interconnect_reduces_in_network), double(e.stated()),
        e.gemm_efficiency, e.expert_gemm_efficiency, e.attention_efficiency, e.memory_efficiency,
        e.interconnect_efficiency, e.all_reduce_overhead_seconds, e.kernel_gap_seconds,
        e.graph_launch_gap_seconds, e.memory_latency_seconds})
    w.shape(value);
  for (double gap : e.stack_gap_seconds) w.shape(gap);
  for (double efficiency : e.attention_kernel_efficiency) w.shape(efficiency);
  for (const auto& range : e.interval)
    for (double bound : range) w.shape(bound);
  const Precision& p = t.scenario.precision;
  w.shape(p.name);
  for (DType dtype : {p.weights, p.activations, p.kv}) w.shape(dtype_name(dtype));
  const Workload& work = t.scenario.workload;
  w.shape(work.attention == AttentionKind::fused ? "fused" : "materialized");
  w.shape(work.timing == Timing::bound ? "bound" : "estimate");
  w.shape(work.graphs ? "on" : "off");
  w.shape(stack_name(work.stack));
  w.shape(attention_kernel_name(work.attention_kernel));
  w.shape(double(work.compute_efficiency.has_value()));
  w.shape(double(work.memory_efficiency.has_value()));
  w.shape(t.roofline.timing == Timing::bound ? "bound" : "estimate");
  w.shape(double(t.operators.size()));
  for (const Operator& op : t.operators) {
    w.shape(op.name);
    w.shape(family_name(op.family));
  }
  w.shape(double(t.steps.size()));
  for (const Step& step : t.steps) {
    w.shape(step.title);
    w.shape(step.text);
    w.shape(double(step.operators.size()));
    for (std::string_view name : step.operators) w.shape(name);
  }
  w.shape(double(t.projection.projections.size()));
  for (const ProjectionFact& fact : t.projection.projections) w.shape(fact.name);
  w.shape(double(t.projection.reuse_example.size()));
  w.shape(t.attention.materialized ? "materialized" : "fused");
  w.shape(double(t.assumptions.size()));
  for (std::string_view text : t.assumptions) w.shape(text);
}

// The order is the trace document's, field by field (web/src/explorer/trace-from-figures.js
// reads it back in the same order).
void write_numbers(const Trace& t, FiguresWriter& w) {
  const Workload& work = t.scenario.workload;
  for (double value : {double(work.prompt_tokens), double(work.batch), double(work.chunk_tokens),
                       double(work.gemm_m_tile), double(work.attention_block), work.arrival_rate,
                       work.delivery_seconds, double(work.tensor_parallel)})
    w.number(value);
  w.maybe(work.compute_efficiency);
  w.maybe(work.memory_efficiency);
  w.number(t.parameters);
  for (double value :
       {t.roofline.peak_flops, t.roofline.bandwidth, t.roofline.ridge_flops_per_byte})
    w.number(value);
  for (const Operator& op : t.operators) {
    for (double value : {double(op.step),
                         op.count,
                         double(op.per_layer),
                         op.launches,
                         op.flops,
                         op.computed_flops,
                         op.hbm.weights,
                         op.hbm.activations,
                         op.hbm.kv,
                         op.hbm.scores,
                         op.hbm.total(),
                         op.intensity,
                         op.compute_seconds,
                         op.memory_seconds,
                         op.link_bytes,
                         op.interconnect_seconds,
                         op.overhead_seconds,
                         op.seconds,
                         op.seconds_low,
                         op.seconds_high,
                         op.occupancy,
                         op.useful_fraction})
      w.number(value);
    w.bound(op.bound);
  }
  for (const Step& step : t.steps) {
    for (double value :
         {double(step.number), step.totals.flops, step.totals.hbm_bytes, step.totals.seconds,
          step.totals.seconds_low, step.totals.seconds_high, step.totals.overhead_seconds})
      w.number(value);
    w.maybe_bound(step.bound);
  }
  const EmbeddingFacts& emb = t.embedding;
  for (double value :
       {double(emb.embedding_bytes), double(emb.kernel_launches), double(emb.kernels_per_layer),
        double(emb.layers), emb.launch_overhead_total_seconds})
    w.number(value);
  const ModelShape& whole = t.scenario.model;
  const int64_t devices = work.tensor_parallel;
  w.number(double(devices));
  w.number(double(device_shard(whole, devices).kv_heads));
  w.flag(devices > whole.kv_heads);
  for (const ProjectionFact& fact : t.projection.projections) {
    for (double value :
         {double(fact.d_in), double(fact.d_out), fact.flops_per_request, fact.intensity})
      w.number(value);
    w.bound(fact.bound);
    w.maybe(fact.rows_to_reach_ridge);
  }
  w.number(t.projection.flops_per_request);
  w.number(t.projection.weight_reuse_rows);
  w.number(t.projection.ridge_flops_per_byte);
  for (const ReuseExample& example : t.projection.reuse_example) {
    w.number(double(example.rows));
    w.number(example.intensity);
    w.number(example.weight_bytes_per_row);
    w.bound(example.bound);
  }
  const AttentionFacts& att = t.attention;
  for (double value :
       {double(att.block), double(att.useful_pairs), double(att.computed_pairs), double(att.tiles),
        double(att.score_matrix_bytes), double(att.score_traffic_bytes),
        double(att.score_bytes_avoided), double(att.kv_bytes_written),
        double(att.kv_bytes_per_token), double(whole.sliding_window), double(att.kv_tokens_kept),
        double(att.kv_bytes_kept)})
    w.number(value);
  const MemoryLedger& mem = t.memory;
  for (double value : {mem.weight_bytes, mem.kv_bytes, mem.residual_bytes,
                       mem.attention_workspace_bytes, mem.mlp_workspace_bytes, mem.score_bytes,
                       mem.logits_bytes, mem.temporaries_bytes, mem.peak_bytes, mem.capacity_bytes})
    w.number(value);
  w.flag(mem.fits);
  w.number(mem.exceeds_by_bytes);
  const ChunkingFacts& chunking = t.chunking;
  for (double value : {double(chunking.chunks), double(chunking.chunk_tokens),
                       double(chunking.temporaries_unchunked_bytes),
                       double(chunking.extra_weight_bytes), double(chunking.kv_reread_bytes)})
    w.number(value);
  const Ttft& ttft = t.ttft;
  w.maybe(ttft.queue_seconds);
  w.number(ttft.batch_formation_seconds);
  w.number(ttft.execution_seconds);
  w.number(ttft.delivery_seconds);
  w.maybe(ttft.total_seconds);
  w.number(ttft.service_seconds);
  w.number(ttft.saturation_arrival_rate);
  w.number(ttft.utilization);
  w.flag(ttft.overloaded);
  w.number(t.totals.flops);
  w.number(t.totals.hbm_bytes);
  w.number(t.totals.seconds);
  w.number(t.totals.seconds_low);
  w.number(t.totals.seconds_high);
  w.number(t.totals.overhead_seconds);
  w.maybe(ttft.total_seconds_low);
  w.maybe(ttft.total_seconds_high);
  const DecodeComparison& d = t.decode;
  for (double value : {double(d.context_tokens), d.flops, d.hbm_bytes, d.intensity, d.seconds})
    w.number(value);
  w.bound(d.bound);
  for (double value : {d.projection_intensity, d.prefill_projection_intensity, d.prefill_intensity})
    w.number(value);
  w.bound(d.prefill_bound);
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
  JsonReply reply;
  auto trace = trace_for(scenario_json);
  if (!trace) return refuse(reply, trace.failure());
  reply.ok = true;
  reply.json = dump_json(trace_to_json(trace.value()));
  return reply;
}

FiguresReply trace_figures(std::string_view scenario_json) {
  FiguresReply reply;
  auto trace = trace_for(scenario_json);
  if (!trace) return refuse(reply, trace.failure());
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
  // Version 2's extension: the signature at a fixed index, then every number of the document.
  FiguresWriter writer(out);
  write_shape(t, writer);
  out.push_back(writer.signature());
  write_numbers(t, writer);
  reply.ok = true;
  return reply;
}

CsvReply compute_trace_csv(std::string_view scenario_json) {
  CsvReply reply;
  auto trace = trace_for(scenario_json);
  if (!trace) return refuse(reply, trace.failure());
  reply.csv = trace_to_csv(trace.value());
  reply.ok = true;
  return reply;
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
template <typename Reply, typename Write>
Reply serve_with(std::string_view scenario_json, Write write) {
  Reply reply;
  auto request = parse_serving_request(scenario_json);
  if (!request) return refuse(reply, request.failure());
  auto report = prefill_trace::simulate_serving(request->scenario, request->config);
  if (!report) return refuse(reply, report.failure());
  write(report.value(), reply);
  reply.ok = true;
  return reply;
}
}  // namespace

JsonReply simulate_serving(std::string_view scenario_json) {
  return serve_with<JsonReply>(scenario_json, [](const ServingReport& report, JsonReply& reply) {
    reply.json = dump_json(serving_report_to_json(report));
  });
}

CsvReply simulate_serving_csv(std::string_view scenario_json) {
  return serve_with<CsvReply>(scenario_json, [](const ServingReport& report, CsvReply& reply) {
    reply.csv = serving_report_to_csv(report);
  });
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

}  // namespace api
}  // namespace prefill_trace
