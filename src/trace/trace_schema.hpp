#pragma once
// The trace document described once (docs/trace-json.md). Every output of a trace is generated
// from these functions: the JSON text (trace_json.cpp, JsonBuilder), the figures array
// (trace_figures.cpp: its numbers and its shape signature), the CSV's cells (trace_json.cpp) and,
// through the figures, the page's refilled trace (web/src/explorer/trace-from-figures.js walks a
// parsed document in the same order). Adding a field here adds it everywhere; the tests check the
// TypeScript types and the docs name every field (tests/js/schema-docs.test.mjs).
//
// ORDER: each object's members are visited in the order the document prints them, which is
// alphabetical (nlohmann::json keeps objects sorted by key, byte by byte: "seconds" <
// "seconds_high" < "seconds_low", "compute_seconds" < "computed_flops"). The figures follow
// this order, so a parsed document can be walked with for…in; tests/cpp/trace_schema_test.cpp
// fails when a member is out of order.
//
// A visitor V provides:
//   v.number(key, x)        an arithmetic value (integers print as integers, as nlohmann does)
//   v.maybe(key, opt)       a number, or null
//   v.flag(key, b)          true / false
//   v.text(key, s)          a string that belongs to the shape (names, titles, ids): no figure
//   v.bound(key, opt)       a Bound: its name in the JSON, its code in the figures; null if none.
//                           The keys it may use are kBoundKeys (the page's layout descriptor).
//   v.object(key, f)        an object whose members f() visits
//   v.maybe_object(key, present, f)   the same, or null when !present
//   v.array(key, n, f)      an array of n items: f(i) visits item i with an empty key
// Inside an array the key is empty ("").

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "prefill_trace/version.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {

/// The trace document's schema_version (docs/trace-json.md, "Versions").
constexpr int kTraceSchemaVersion = 6;

/// The keys whose string value is a Bound's name (a figure: the Bound's code). No other member
/// of the document may use them (tests/cpp/trace_schema_test.cpp).
inline constexpr std::string_view kBoundKeys[] = {"bound", "prefill_bound"};

namespace schema_detail {

// Members whose keys are data (the accelerator's number formats, the stacks, …): visited in key
// order like every other member.
template <std::size_t N>
struct NamedNumbers {
  std::array<std::pair<std::string_view, double>, N> items{};
  std::size_t size = 0;
  void add(std::string_view name, double value) { items[size++] = {name, value}; }
  template <typename V>
  void visit(V& v) {
    // Insertion sort: at most six names (std::sort trips GCC 12's -Warray-bounds here).
    for (std::size_t i = 1; i < size; ++i)
      for (std::size_t j = i; j > 0 && items[j].first < items[j - 1].first; --j)
        std::swap(items[j], items[j - 1]);
    for (std::size_t i = 0; i < size; ++i) v.number(items[i].first, items[i].second);
  }
};

inline const char* attention_name(AttentionKind kind) {
  return kind == AttentionKind::fused ? "fused" : "materialized";
}
inline const char* timing_name(Timing timing) {
  return timing == Timing::bound ? "bound" : "estimate";
}

}  // namespace schema_detail

template <typename V>
void visit_model(const ModelShape& m, V& v) {
  v.number("active_experts", m.active_experts);
  v.number("d_ff", m.d_ff);
  v.number("d_model", m.d_model);
  v.number("experts", m.experts);
  v.number("head_dim", m.head_dim);
  v.text("id", m.id);
  v.number("kv_heads", m.kv_heads);
  v.number("layers", m.layers);
  v.text("mlp", m.mlp == MlpKind::gated ? "gated" : "plain");
  v.text("name", m.name);
  v.flag("parallel_attention", m.parallel_attention);
  v.number("query_heads", m.query_heads);
  v.number("sliding_window", m.sliding_window);
  v.text("source_url", m.source_url);
  v.flag("tied_embeddings", m.tied_embeddings);
  v.number("vocab", m.vocab);
}

template <typename V>
void visit_estimate_profile(const EstimateProfile& e, V& v) {
  v.number("all_reduce_overhead_seconds", e.all_reduce_overhead_seconds);
  v.number("attention_efficiency", e.attention_efficiency);
  v.object("attention_kernel_efficiency", [&] {
    schema_detail::NamedNumbers<kAttentionKernelCount> kernels;
    for (std::size_t i = 1; i <= kAttentionKernelCount; ++i) {
      const auto kernel = static_cast<AttentionKernel>(i);
      kernels.add(attention_kernel_name(kernel), e.attention_efficiency_of(kernel));
    }
    kernels.visit(v);
  });
  v.number("decode_memory_efficiency", e.decode_memory_efficiency);
  v.number("decode_memory_latency_seconds", e.decode_memory_latency_seconds);
  v.number("expert_gemm_efficiency", e.expert_gemm_efficiency);
  v.number("gemm_efficiency", e.gemm_efficiency);
  v.number("graph_launch_gap_seconds", e.graph_launch_gap_seconds);
  v.number("interconnect_efficiency", e.interconnect_efficiency);
  v.object("interval", [&] {
    std::array<std::size_t, kIntervalFamilyCount> order{};
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    const auto name = [](std::size_t i) {
      return std::string_view(interval_family_name(static_cast<IntervalFamily>(i)));
    };
    for (std::size_t i = 1; i < order.size(); ++i)  // insertion sort, as NamedNumbers
      for (std::size_t j = i; j > 0 && name(order[j]) < name(order[j - 1]); --j)
        std::swap(order[j], order[j - 1]);
    for (const std::size_t i : order) {
      v.object(name(i), [&] {
        v.number("high", e.interval[i][1]);
        v.number("low", e.interval[i][0]);
      });
    }
  });
  v.number("kernel_gap_seconds", e.kernel_gap_seconds);
  v.number("memory_efficiency", e.memory_efficiency);
  v.number("memory_latency_seconds", e.memory_latency_seconds);
  // Only the stacks the profile states a gap for (the fitted ones): a stack it does not state is
  // charged kernel_gap_seconds and takes the unseen-stack range, so echoing a value for it would
  // make the echo, read back as a custom profile, a different profile.
  v.object("stack_gap_seconds", [&] {
    schema_detail::NamedNumbers<kKernelStackCount> gaps;
    for (std::size_t i = 0; i < kKernelStackCount; ++i) {
      const auto stack = static_cast<Stack>(i);
      if (stack != Stack::kernels && e.stack_fitted(stack))
        gaps.add(stack_name(stack), e.gap_seconds(stack));
    }
    gaps.visit(v);
  });
}

template <typename V>
void visit_accelerator(const Accelerator& a, V& v) {
  v.text("architecture", a.architecture);
  v.number("compute_units", a.compute_units);
  v.maybe_object("estimate", a.estimate.stated(), [&] { visit_estimate_profile(a.estimate, v); });
  v.text("id", a.id);
  v.number("interconnect_bandwidth", a.interconnect_bandwidth);
  v.text("interconnect_kind", a.interconnect_kind == LinkKind::nvlink ? "nvlink" : "pcie");
  v.text("interconnect_name", a.interconnect_name);
  v.flag("interconnect_reduces_in_network", a.interconnect_reduces_in_network);
  v.text("interconnect_source_url", a.interconnect_source_url);
  v.number("l2_bytes", a.l2_bytes);
  v.number("launch_overhead_seconds", a.launch_overhead_seconds);
  v.number("memory_bandwidth", a.memory_bandwidth);
  v.number("memory_capacity", a.memory_capacity);
  v.text("name", a.name);
  v.object("peak_flops", [&] {
    schema_detail::NamedNumbers<6> peaks;
    a.peak_flops.for_each([&](DType dtype, double flops) { peaks.add(dtype_name(dtype), flops); });
    peaks.visit(v);
  });
  v.text("source_url", a.source_url);
  v.number("sram_per_unit_bytes", a.sram_per_unit_bytes);
}

template <typename V>
void visit_scenario(const Scenario& s, V& v) {
  const Workload& work = s.workload;
  v.number("arrival_rate", work.arrival_rate);
  v.text("attention", schema_detail::attention_name(work.attention));
  v.number("attention_block", work.attention_block);
  v.text("attention_kernel", attention_kernel_name(work.attention_kernel));
  v.number("batch", work.batch);
  v.number("chunk_tokens", work.chunk_tokens);
  v.maybe("compute_efficiency", work.compute_efficiency);
  v.number("delivery_seconds", work.delivery_seconds);
  v.number("gemm_m_tile", work.gemm_m_tile);
  v.text("graphs", work.graphs ? "on" : "off");
  v.object("hardware", [&] { visit_accelerator(s.hardware, v); });
  v.maybe("memory_efficiency", work.memory_efficiency);
  v.object("model", [&] { visit_model(s.model, v); });
  v.object("precision", [&] {
    v.text("activations", dtype_name(s.precision.activations));
    v.text("kv", dtype_name(s.precision.kv));
    v.text("name", s.precision.name);
    v.text("weights", dtype_name(s.precision.weights));
  });
  v.number("prompt_tokens", work.prompt_tokens);
  v.text("stack", stack_name(work.stack));
  v.number("tensor_parallel", work.tensor_parallel);
  v.text("timing", schema_detail::timing_name(work.timing));
}

template <typename V>
void visit_operator(const Operator& op, V& v) {
  v.bound("bound", op.bound);
  v.number("compute_seconds", op.compute_seconds);
  v.number("computed_flops", op.computed_flops);
  v.number("count", op.count);
  v.text("family", family_name(op.family));
  v.number("flops", op.flops);
  v.object("hbm_bytes", [&] {
    v.number("activations", op.hbm.activations);
    v.number("kv", op.hbm.kv);
    v.number("scores", op.hbm.scores);
    v.number("total", op.hbm.total());
    v.number("weights", op.hbm.weights);
  });
  v.number("intensity", op.intensity);
  v.number("interconnect_seconds", op.interconnect_seconds);
  v.number("launches", op.launches);
  v.number("link_bytes", op.link_bytes);
  v.number("memory_seconds", op.memory_seconds);
  v.text("name", op.name);
  v.number("occupancy", op.occupancy);
  v.number("overhead_seconds", op.overhead_seconds);
  v.flag("per_layer", op.per_layer);
  v.number("seconds", op.seconds);
  v.number("seconds_high", op.seconds_high);
  v.number("seconds_low", op.seconds_low);
  v.number("step", op.step);
  v.number("useful_fraction", op.useful_fraction);
}

// The members every totals object shares (a step's, the trace's); `more` adds the trace's own,
// each at its alphabetical place: after "hbm_bytes" (kv_cache, memory) and last (ttft).
template <typename V, typename Middle, typename Last>
void visit_totals(const Totals& totals, V& v, Middle middle, Last last) {
  v.number("flops", totals.flops);
  v.number("hbm_bytes", totals.hbm_bytes);
  middle();
  v.number("overhead_seconds", totals.overhead_seconds);
  v.number("seconds", totals.seconds);
  v.number("seconds_high", totals.seconds_high);
  v.number("seconds_low", totals.seconds_low);
  last();
}

// Step 1: embedding and launches.
template <typename V>
void visit_embedding_facts(const Trace& t, V& v) {
  const EmbeddingFacts& e = t.embedding;
  v.number("embedding_bytes", e.embedding_bytes);
  v.number("kernel_launches", e.kernel_launches);
  v.number("kernels_per_layer", e.kernels_per_layer);
  v.number("launch_overhead_total_seconds", e.launch_overhead_total_seconds);
  v.number("layers", e.layers);
}

// Step 2: the projections, their intensity and the weight reuse.
template <typename V>
void visit_projection_facts(const Trace& t, V& v) {
  const ProjectionFacts& p = t.projection;
  const ModelShape& whole = t.scenario.model;
  const int64_t devices = t.scenario.workload.tensor_parallel;
  v.number("kv_heads_per_device", device_shard(whole, devices).kv_heads);
  v.flag("kv_heads_replicated", devices > whole.kv_heads);
  v.number("projection_flops_per_request", p.flops_per_request);
  v.array("projections", p.projections.size(), [&](std::size_t i) {
    const ProjectionFact& fact = p.projections[i];
    v.object("", [&] {
      v.bound("bound", fact.bound);
      v.number("d_in", fact.d_in);
      v.number("d_out", fact.d_out);
      v.number("flops_per_request", fact.flops_per_request);
      v.number("intensity", fact.intensity);
      v.text("name", fact.name);
      v.maybe("rows_to_reach_ridge", fact.rows_to_reach_ridge);
    });
  });
  v.array("reuse_example", p.reuse_example.size(), [&](std::size_t i) {
    const ReuseExample& example = p.reuse_example[i];
    v.object("", [&] {
      v.bound("bound", example.bound);
      v.number("intensity", example.intensity);
      v.number("rows", example.rows);
      v.number("weight_bytes_per_row", example.weight_bytes_per_row);
    });
  });
  v.number("ridge_flops_per_byte", p.ridge_flops_per_byte);
  v.number("tensor_parallel", devices);
  v.number("weight_reuse_rows", p.weight_reuse_rows);
}

// Step 3: the attention schedule and the K/V state.
template <typename V>
void visit_attention_facts(const Trace& t, V& v) {
  const AttentionFacts& a = t.attention;
  v.text("attention", a.materialized ? "materialized" : "fused");
  v.number("block", a.block);
  v.number("computed_pairs_per_head", a.computed_pairs);
  v.number("kv_bytes_kept", a.kv_bytes_kept);
  v.number("kv_bytes_per_token", a.kv_bytes_per_token);
  v.number("kv_bytes_written", a.kv_bytes_written);
  v.number("kv_tokens_kept", a.kv_tokens_kept);
  v.number("score_bytes_avoided", a.score_bytes_avoided);
  v.number("score_matrix_bytes", a.score_matrix_bytes);
  v.number("score_traffic_bytes", a.score_traffic_bytes);
  v.number("sliding_window", t.scenario.model.sliding_window);
  v.number("tiles_per_head", a.tiles);
  v.number("useful_pairs_per_head", a.useful_pairs);
}

// Step 4: the memory ledger and chunking.
template <typename V>
void visit_memory_facts(const Trace& t, V& v) {
  const ChunkingFacts& c = t.chunking;
  v.object("chunking", [&] {
    v.number("chunk_tokens", c.chunk_tokens);
    v.number("chunks", c.chunks);
    v.number("extra_weight_bytes", c.extra_weight_bytes);
    v.number("kv_reread_bytes", c.kv_reread_bytes);
    v.number("temporaries_unchunked_bytes", c.temporaries_unchunked_bytes);
  });
  const MemoryLedger& m = t.memory;
  v.object("memory", [&] {
    v.number("attention_workspace_bytes", m.attention_workspace_bytes);
    v.number("capacity_bytes", m.capacity_bytes);
    v.number("exceeds_by_bytes", m.exceeds_by_bytes);
    v.flag("fits", m.fits);
    v.number("kv_bytes", m.kv_bytes);
    v.number("logits_bytes", m.logits_bytes);
    v.number("mlp_workspace_bytes", m.mlp_workspace_bytes);
    v.number("peak_bytes", m.peak_bytes);
    v.number("residual_bytes", m.residual_bytes);
    v.number("score_bytes", m.score_bytes);
    v.number("temporaries_bytes", m.temporaries_bytes);
    v.number("weight_bytes", m.weight_bytes);
  });
}

// The TTFT's parts that step 5's facts and the trace's totals.ttft both carry, in their
// (alphabetical) order: from "delivery_seconds" to "queue_seconds".
template <typename V>
void visit_ttft_parts(const Ttft& q, V& v) {
  v.number("delivery_seconds", q.delivery_seconds);
  v.number("execution_seconds", q.execution_seconds);
  v.flag("overloaded", q.overloaded);
  v.maybe("queue_p50_seconds", q.queue_p50_seconds);
  v.maybe("queue_p90_seconds", q.queue_p90_seconds);
  v.maybe("queue_p99_seconds", q.queue_p99_seconds);
  v.maybe("queue_seconds", q.queue_seconds);
}

// Step 5: queueing, execution and delivery.
template <typename V>
void visit_queue_facts(const Trace& t, V& v) {
  const Ttft& q = t.ttft;
  v.number("batch_formation_seconds", q.batch_formation_seconds);
  visit_ttft_parts(q, v);
  v.number("saturation_arrival_rate", q.saturation_arrival_rate);
  v.number("service_seconds", q.service_seconds);
  v.maybe("total_seconds", q.total_seconds);
  v.number("utilization", q.utilization);
}

template <typename V>
void visit_step_facts(const Trace& t, int number, V& v) {
  switch (number) {
    case 1:
      return visit_embedding_facts(t, v);
    case 2:
      return visit_projection_facts(t, v);
    case 3:
      return visit_attention_facts(t, v);
    case 4:
      return visit_memory_facts(t, v);
    default:
      return visit_queue_facts(t, v);
  }
}

template <typename V>
void visit_step(const Trace& t, const Step& step, V& v) {
  v.bound("bound", step.bound);
  v.object("facts", [&] { visit_step_facts(t, step.number, v); });
  v.array("operators", step.operators.size(),
          [&](std::size_t i) { v.text("", step.operators[i]); });
  v.number("step", step.number);
  v.text("text", step.text);
  v.text("title", step.title);
  v.object("totals", [&] {
    visit_totals(
        step.totals, v, [] {}, [] {});
  });
}

template <typename V>
void visit_trace_totals(const Trace& t, V& v) {
  const Ttft& q = t.ttft;
  const MemoryLedger& m = t.memory;
  visit_totals(
      t.totals, v,
      [&] {
        v.object("kv_cache", [&] { v.number("bytes", t.attention.kv_bytes_kept); });
        v.object("memory", [&] {
          v.number("capacity_bytes", m.capacity_bytes);
          v.number("exceeds_by_bytes", m.exceeds_by_bytes);
          v.flag("fits", m.fits);
          v.number("peak_bytes", m.peak_bytes);
        });
      },
      [&] {
        v.object("ttft", [&] {
          visit_ttft_parts(q, v);
          v.maybe("total_seconds", q.total_seconds);
          v.maybe("total_seconds_high", q.total_seconds_high);
          v.maybe("total_seconds_low", q.total_seconds_low);
        });
      });
}

/// The whole trace document (docs/trace-json.md), root members in order.
template <typename V>
void visit_trace(const Trace& t, V& v) {
  v.array("assumptions", t.assumptions.size(),
          [&](std::size_t i) { v.text("", t.assumptions[i]); });
  const DecodeComparison& d = t.decode;
  v.object("decode_comparison", [&] {
    v.bound("bound", d.bound);
    v.number("context_tokens", d.context_tokens);
    v.number("flops", d.flops);
    v.number("hbm_bytes", d.hbm_bytes);
    v.number("intensity", d.intensity);
    v.bound("prefill_bound", d.prefill_bound);
    v.number("prefill_intensity", d.prefill_intensity);
    v.number("prefill_projection_intensity", d.prefill_projection_intensity);
    v.number("projection_intensity", d.projection_intensity);
    v.number("seconds", d.seconds);
  });
  v.text("engine_version", PREFILL_TRACE_VERSION);
  v.array("operators", t.operators.size(),
          [&](std::size_t i) { v.object("", [&] { visit_operator(t.operators[i], v); }); });
  v.number("parameters", t.parameters);
  v.object("roofline", [&] {
    v.number("bandwidth", t.roofline.bandwidth);
    v.number("peak_flops", t.roofline.peak_flops);
    v.number("ridge_flops_per_byte", t.roofline.ridge_flops_per_byte);
    v.text("timing", schema_detail::timing_name(t.roofline.timing));
  });
  v.object("scenario", [&] { visit_scenario(t.scenario, v); });
  v.number("schema_version", kTraceSchemaVersion);
  v.array("steps", t.steps.size(),
          [&](std::size_t i) { v.object("", [&] { visit_step(t, t.steps[i], v); }); });
  v.object("totals", [&] { visit_trace_totals(t, v); });
}

}  // namespace prefill_trace
