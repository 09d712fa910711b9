#include "trace_json.hpp"

#include <utility>

#include "json_path.hpp"
#include "prefill_trace/version.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

json model_to_json(const ModelShape& model) {
  return json_object({{"id", model.id},
                      {"name", model.name},
                      {"source_url", model.source_url},
                      {"layers", model.layers},
                      {"d_model", model.d_model},
                      {"query_heads", model.query_heads},
                      {"kv_heads", model.kv_heads},
                      {"head_dim", model.head_dim},
                      {"d_ff", model.d_ff},
                      {"mlp", model.mlp == MlpKind::gated ? "gated" : "plain"},
                      {"vocab", model.vocab},
                      {"experts", model.experts},
                      {"active_experts", model.active_experts},
                      {"tied_embeddings", model.tied_embeddings},
                      {"sliding_window", model.sliding_window},
                      {"parallel_attention", model.parallel_attention}});
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json stack_gaps_json(const EstimateProfile& profile) {
  json gaps = json::object();
  for (std::size_t i = 0; i < kStackCount; ++i) {
    const Stack stack = static_cast<Stack>(i);
    if (stack != Stack::kernels) gaps[stack_name(stack)] = profile.gap_seconds(stack);
  }
  return gaps;
}

json attention_kernels_json(const EstimateProfile& profile) {
  json kernels = json::object();
  for (std::size_t i = 1; i <= kAttentionKernelCount; ++i) {
    const AttentionKernel kernel = static_cast<AttentionKernel>(i);
    kernels[attention_kernel_name(kernel)] = profile.attention_efficiency_of(kernel);
  }
  return kernels;
}

json interval_json(const EstimateProfile& profile) {
  json families = json::object();
  for (std::size_t i = 0; i < kIntervalFamilyCount; ++i) {
    families[interval_family_name(static_cast<IntervalFamily>(i))] =
        json_object({{"low", profile.interval[i][0]}, {"high", profile.interval[i][1]}});
  }
  return families;
}

json estimate_profile_json(const EstimateProfile& profile) {
  if (!profile.stated()) return json(nullptr);
  return json_object({{"gemm_efficiency", profile.gemm_efficiency},
                      {"expert_gemm_efficiency", profile.expert_gemm_efficiency},
                      {"attention_efficiency", profile.attention_efficiency},
                      {"memory_efficiency", profile.memory_efficiency},
                      {"interconnect_efficiency", profile.interconnect_efficiency},
                      {"all_reduce_overhead_seconds", profile.all_reduce_overhead_seconds},
                      {"kernel_gap_seconds", profile.kernel_gap_seconds},
                      {"graph_launch_gap_seconds", profile.graph_launch_gap_seconds},
                      {"memory_latency_seconds", profile.memory_latency_seconds},
                      {"stack_gap_seconds", stack_gaps_json(profile)},
                      {"attention_kernel_efficiency", attention_kernels_json(profile)},
                      {"interval", interval_json(profile)}});
}

json accelerator_to_json(const Accelerator& accelerator) {
  json peaks = json::object();
  accelerator.peak_flops.for_each(
      [&](DType dtype, double flops) { peaks[dtype_name(dtype)] = flops; });
  return json_object(
      {{"id", accelerator.id},
       {"name", accelerator.name},
       {"source_url", accelerator.source_url},
       {"peak_flops", peaks},
       {"memory_bandwidth", accelerator.memory_bandwidth},
       {"memory_capacity", accelerator.memory_capacity},
       {"compute_units", accelerator.compute_units},
       {"sram_per_unit_bytes", accelerator.sram_per_unit_bytes},
       {"l2_bytes", accelerator.l2_bytes},
       {"launch_overhead_seconds", accelerator.launch_overhead_seconds},
       {"interconnect_name", accelerator.interconnect_name},
       {"interconnect_source_url", accelerator.interconnect_source_url},
       {"interconnect_bandwidth", accelerator.interconnect_bandwidth},
       {"interconnect_kind", accelerator.interconnect_kind == LinkKind::nvlink ? "nvlink" : "pcie"},
       {"interconnect_reduces_in_network", accelerator.interconnect_reduces_in_network},
       {"estimate", estimate_profile_json(accelerator.estimate)}});
}

json optional_bound(const std::optional<Bound>& bound) {
  return bound ? json(bound_name(*bound)) : json(nullptr);
}

json totals_json(const Totals& totals) {
  return json_object({{"flops", totals.flops},
                      {"hbm_bytes", totals.hbm_bytes},
                      {"seconds", totals.seconds},
                      {"seconds_low", totals.seconds_low},
                      {"seconds_high", totals.seconds_high},
                      {"overhead_seconds", totals.overhead_seconds}});
}

json operator_json(const Operator& op) {
  return json_object({{"name", std::string(op.name)},
                      {"step", op.step},
                      {"family", family_name(op.family)},
                      {"count", op.count},
                      {"per_layer", op.per_layer},
                      {"launches", op.launches},
                      {"flops", op.flops},
                      {"computed_flops", op.computed_flops},
                      {"hbm_bytes", json_object({{"weights", op.hbm.weights},
                                                 {"activations", op.hbm.activations},
                                                 {"kv", op.hbm.kv},
                                                 {"scores", op.hbm.scores},
                                                 {"total", op.hbm.total()}})},
                      {"intensity", op.intensity},
                      {"compute_seconds", op.compute_seconds},
                      {"memory_seconds", op.memory_seconds},
                      {"link_bytes", op.link_bytes},
                      {"interconnect_seconds", op.interconnect_seconds},
                      {"overhead_seconds", op.overhead_seconds},
                      {"seconds", op.seconds},
                      {"seconds_low", op.seconds_low},
                      {"seconds_high", op.seconds_high},
                      {"occupancy", op.occupancy},
                      {"bound", bound_name(op.bound)},
                      {"useful_fraction", op.useful_fraction}});
}

json step_facts(const Trace& trace, int number) {
  switch (number) {
    case 1:
      return json_object(
          {{"embedding_bytes", trace.embedding.embedding_bytes},
           {"kernel_launches", trace.embedding.kernel_launches},
           {"kernels_per_layer", trace.embedding.kernels_per_layer},
           {"layers", trace.embedding.layers},
           {"launch_overhead_total_seconds", trace.embedding.launch_overhead_total_seconds}});
    case 2: {
      json projections = json::array();
      for (const ProjectionFact& fact : trace.projection.projections) {
        projections.push_back(
            json_object({{"name", std::string(fact.name)},
                         {"d_in", fact.d_in},
                         {"d_out", fact.d_out},
                         {"flops_per_request", fact.flops_per_request},
                         {"intensity", fact.intensity},
                         {"bound", bound_name(fact.bound)},
                         {"rows_to_reach_ridge", optional_number(fact.rows_to_reach_ridge)}}));
      }
      json reuse = json::array();
      for (const ReuseExample& example : trace.projection.reuse_example) {
        reuse.push_back(json_object({{"rows", example.rows},
                                     {"intensity", example.intensity},
                                     {"weight_bytes_per_row", example.weight_bytes_per_row},
                                     {"bound", bound_name(example.bound)}}));
      }
      const ModelShape& whole = trace.scenario.model;
      const int64_t devices = trace.scenario.workload.tensor_parallel;
      return json_object({{"tensor_parallel", devices},
                          {"kv_heads_per_device", device_shard(whole, devices).kv_heads},
                          {"kv_heads_replicated", devices > whole.kv_heads},
                          {"projections", projections},
                          {"projection_flops_per_request", trace.projection.flops_per_request},
                          {"weight_reuse_rows", trace.projection.weight_reuse_rows},
                          {"ridge_flops_per_byte", trace.projection.ridge_flops_per_byte},
                          {"reuse_example", reuse}});
    }
    case 3: {
      const AttentionFacts& att = trace.attention;
      return json_object({{"attention", att.materialized ? "materialized" : "fused"},
                          {"block", att.block},
                          {"useful_pairs_per_head", att.useful_pairs},
                          {"computed_pairs_per_head", att.computed_pairs},
                          {"tiles_per_head", att.tiles},
                          {"score_matrix_bytes", att.score_matrix_bytes},
                          {"score_traffic_bytes", att.score_traffic_bytes},
                          {"score_bytes_avoided", att.score_bytes_avoided},
                          {"kv_bytes_written", att.kv_bytes_written},
                          {"kv_bytes_per_token", att.kv_bytes_per_token},
                          {"sliding_window", trace.scenario.model.sliding_window},
                          {"kv_tokens_kept", att.kv_tokens_kept},
                          {"kv_bytes_kept", att.kv_bytes_kept}});
    }
    case 4: {
      const MemoryLedger& mem = trace.memory;
      const ChunkingFacts& chunking = trace.chunking;
      return json_object(
          {{"memory", json_object({{"weight_bytes", mem.weight_bytes},
                                   {"kv_bytes", mem.kv_bytes},
                                   {"residual_bytes", mem.residual_bytes},
                                   {"attention_workspace_bytes", mem.attention_workspace_bytes},
                                   {"mlp_workspace_bytes", mem.mlp_workspace_bytes},
                                   {"score_bytes", mem.score_bytes},
                                   {"logits_bytes", mem.logits_bytes},
                                   {"temporaries_bytes", mem.temporaries_bytes},
                                   {"peak_bytes", mem.peak_bytes},
                                   {"capacity_bytes", mem.capacity_bytes},
                                   {"fits", mem.fits},
                                   {"exceeds_by_bytes", mem.exceeds_by_bytes}})},
           {"chunking",
            json_object({{"chunks", chunking.chunks},
                         {"chunk_tokens", chunking.chunk_tokens},
                         {"temporaries_unchunked_bytes", chunking.temporaries_unchunked_bytes},
                         {"extra_weight_bytes", chunking.extra_weight_bytes},
                         {"kv_reread_bytes", chunking.kv_reread_bytes}})}});
    }
    default: {
      const Ttft& ttft = trace.ttft;
      return json_object({{"queue_seconds", optional_number(ttft.queue_seconds)},
                          {"batch_formation_seconds", ttft.batch_formation_seconds},
                          {"execution_seconds", ttft.execution_seconds},
                          {"delivery_seconds", ttft.delivery_seconds},
                          {"total_seconds", optional_number(ttft.total_seconds)},
                          {"service_seconds", ttft.service_seconds},
                          {"saturation_arrival_rate", ttft.saturation_arrival_rate},
                          {"utilization", ttft.utilization},
                          {"overloaded", ttft.overloaded}});
    }
  }
}

}  // namespace

json scenario_to_json(const Scenario& scenario) {
  const Workload& work = scenario.workload;
  return json_object(
      {{"model", model_to_json(scenario.model)},
       {"hardware", accelerator_to_json(scenario.hardware)},
       {"precision", json_object({{"name", scenario.precision.name},
                                  {"weights", dtype_name(scenario.precision.weights)},
                                  {"activations", dtype_name(scenario.precision.activations)},
                                  {"kv", dtype_name(scenario.precision.kv)}})},
       {"prompt_tokens", work.prompt_tokens},
       {"batch", work.batch},
       {"chunk_tokens", work.chunk_tokens},
       {"attention", work.attention == AttentionKind::fused ? "fused" : "materialized"},
       {"gemm_m_tile", work.gemm_m_tile},
       {"attention_block", work.attention_block},
       {"arrival_rate", work.arrival_rate},
       {"delivery_seconds", work.delivery_seconds},
       {"timing", work.timing == Timing::bound ? "bound" : "estimate"},
       {"graphs", work.graphs ? "on" : "off"},
       {"stack", stack_name(work.stack)},
       {"attention_kernel", attention_kernel_name(work.attention_kernel)},
       {"compute_efficiency", optional_number(work.compute_efficiency)},
       {"memory_efficiency", optional_number(work.memory_efficiency)},
       {"tensor_parallel", work.tensor_parallel}});
}

json trace_to_json(const Trace& trace) {
  json operators = json::array();
  for (const Operator& op : trace.operators) operators.push_back(operator_json(op));
  json steps = json::array();
  for (const Step& step : trace.steps) {
    json names = json::array();
    for (const std::string_view name : step.operators) names.push_back(std::string(name));
    steps.push_back(json_object({{"step", step.number},
                                 {"title", std::string(step.title)},
                                 {"text", step.text},
                                 {"operators", names},
                                 {"totals", totals_json(step.totals)},
                                 {"bound", optional_bound(step.bound)},
                                 {"facts", step_facts(trace, step.number)}}));
  }
  json assumptions = json::array();
  for (const std::string_view assumption : trace.assumptions)
    assumptions.push_back(std::string(assumption));
  const Ttft& ttft = trace.ttft;
  const DecodeComparison& decode = trace.decode;
  json totals = totals_json(trace.totals);
  totals["kv_cache"] = json_object({{"bytes", trace.attention.kv_bytes_kept}});
  totals["memory"] = json_object({{"peak_bytes", trace.memory.peak_bytes},
                                  {"capacity_bytes", trace.memory.capacity_bytes},
                                  {"fits", trace.memory.fits},
                                  {"exceeds_by_bytes", trace.memory.exceeds_by_bytes}});
  totals["ttft"] = json_object({{"queue_seconds", optional_number(ttft.queue_seconds)},
                                {"execution_seconds", ttft.execution_seconds},
                                {"delivery_seconds", ttft.delivery_seconds},
                                {"total_seconds", optional_number(ttft.total_seconds)},
                                {"total_seconds_low", optional_number(ttft.total_seconds_low)},
                                {"total_seconds_high", optional_number(ttft.total_seconds_high)},
                                {"overloaded", ttft.overloaded}});
  return json_object(
      {{"schema_version", kTraceSchemaVersion},
       {"engine_version", PREFILL_TRACE_VERSION},
       {"scenario", scenario_to_json(trace.scenario)},
       {"parameters", trace.parameters},
       {"roofline",
        json_object({{"timing", trace.roofline.timing == Timing::bound ? "bound" : "estimate"},
                     {"peak_flops", trace.roofline.peak_flops},
                     {"bandwidth", trace.roofline.bandwidth},
                     {"ridge_flops_per_byte", trace.roofline.ridge_flops_per_byte}})},
       {"operators", operators},
       {"steps", steps},
       {"totals", totals},
       {"decode_comparison",
        json_object({{"context_tokens", decode.context_tokens},
                     {"flops", decode.flops},
                     {"hbm_bytes", decode.hbm_bytes},
                     {"intensity", decode.intensity},
                     {"seconds", decode.seconds},
                     {"bound", bound_name(decode.bound)},
                     {"projection_intensity", decode.projection_intensity},
                     {"prefill_projection_intensity", decode.prefill_projection_intensity},
                     {"prefill_intensity", decode.prefill_intensity},
                     {"prefill_bound", bound_name(decode.prefill_bound)}})},
       {"assumptions", assumptions}});
}

namespace {

/// A CSV cell as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break.
std::string csv_cell(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

/// A number with the same digits as the trace JSON (the shortest that reads back exactly).
std::string csv_number(double value) {
  return json(value).dump();
}

struct CsvColumn {
  const char* header;  // the operators[] field, and its unit in parentheses
  std::string (*cell)(const Operator& op);
};

// One row per operator (per kernel instance; `count` says how many the trace runs). The
// headers name the JSON field each column comes from and its unit.
const CsvColumn kCsvColumns[] = {
    {"name", [](const Operator& op) { return csv_cell(op.name); }},
    {"step", [](const Operator& op) { return std::to_string(op.step); }},
    {"count (instances)", [](const Operator& op) { return csv_number(op.count); }},
    {"per_layer (true/false)",
     [](const Operator& op) { return std::string(op.per_layer ? "true" : "false"); }},
    {"launches (per instance)", [](const Operator& op) { return csv_number(op.launches); }},
    {"flops (FLOP per instance)", [](const Operator& op) { return csv_number(op.flops); }},
    {"computed_flops (FLOP per instance)",
     [](const Operator& op) { return csv_number(op.computed_flops); }},
    {"hbm_weights (bytes per instance)",
     [](const Operator& op) { return csv_number(op.hbm.weights); }},
    {"hbm_activations (bytes per instance)",
     [](const Operator& op) { return csv_number(op.hbm.activations); }},
    {"hbm_kv (bytes per instance)", [](const Operator& op) { return csv_number(op.hbm.kv); }},
    {"hbm_scores (bytes per instance)",
     [](const Operator& op) { return csv_number(op.hbm.scores); }},
    {"hbm_total (bytes per instance)",
     [](const Operator& op) { return csv_number(op.hbm.total()); }},
    {"intensity (FLOP/byte)", [](const Operator& op) { return csv_number(op.intensity); }},
    {"compute_seconds (s per instance)",
     [](const Operator& op) { return csv_number(op.compute_seconds); }},
    {"memory_seconds (s per instance)",
     [](const Operator& op) { return csv_number(op.memory_seconds); }},
    {"overhead_seconds (s per instance)",
     [](const Operator& op) { return csv_number(op.overhead_seconds); }},
    {"seconds (s per instance)", [](const Operator& op) { return csv_number(op.seconds); }},
    {"seconds_low (s per instance)", [](const Operator& op) { return csv_number(op.seconds_low); }},
    {"seconds_high (s per instance)",
     [](const Operator& op) { return csv_number(op.seconds_high); }},
    {"occupancy (ratio)", [](const Operator& op) { return csv_number(op.occupancy); }},
    {"bound", [](const Operator& op) { return std::string(bound_name(op.bound)); }},
    {"useful_fraction (ratio)", [](const Operator& op) { return csv_number(op.useful_fraction); }},
};

}  // namespace

std::string trace_to_csv(const Trace& trace) {
  // RFC 4180: CRLF line ends, a header row.
  std::string out;
  const char* separator = "";
  for (const CsvColumn& column : kCsvColumns) {
    out += separator;
    out += csv_cell(column.header);
    separator = ",";
  }
  out += "\r\n";
  for (const Operator& op : trace.operators) {
    separator = "";
    for (const CsvColumn& column : kCsvColumns) {
      out += separator;
      out += column.cell(op);
      separator = ",";
    }
    out += "\r\n";
  }
  return out;
}

json presets_to_json(const Presets& presets) {
  json models = json::array();
  for (const ModelShape& model : presets.models) {
    json entry = model_to_json(model);
    entry["parameters"] = parameter_count(model);
    models.push_back(std::move(entry));
  }
  json accelerators = json::array();
  for (const Accelerator& accelerator : presets.accelerators) {
    accelerators.push_back(accelerator_to_json(accelerator));
  }
  return json_object({{"models", models},
                      {"accelerators", accelerators},
                      {"precisions", {"bf16", "fp16", "fp8", "int8", "int4"}}});
}

json sweep_to_json(SweepVariable variable, const std::vector<SweepPoint>& points) {
  json rows = json::array();
  for (const SweepPoint& point : points) {
    rows.push_back(json_object({{"value", point.value},
                                {"queue_seconds", optional_number(point.queue_seconds)},
                                {"execution_seconds", point.execution_seconds},
                                {"delivery_seconds", point.delivery_seconds},
                                {"total_seconds", optional_number(point.total_seconds)},
                                {"overloaded", point.overloaded}}));
  }
  return json_object(
      {{"variable", variable == SweepVariable::prompt_tokens ? "prompt_tokens" : "arrival_rate"},
       {"points", rows}});
}

}  // namespace prefill_trace
