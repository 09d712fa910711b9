#include "trace/step_facts.hpp"

#include <algorithm>
#include <cmath>

#include "trace/operator_costs.hpp"

namespace prefill_trace {
namespace {

const char* const kStepTitles[5] = {
    "Prepare embeddings and schedule layers", "Projections as matrix–matrix work",
    "Causal attention and the KV state", "Temporaries, workspaces and fit",
    "Queueing, execution and first-token delivery"};

// Kernel time summed per bound; the bound with the most time is the dominant one. Accumulated
// in place, so finding it allocates nothing.
class BoundTimes {
 public:
  void add(const Operator& op) {
    seconds_[static_cast<int>(op.bound)] += op.count * op.seconds;
    any_ = true;
  }
  std::optional<Bound> dominant() const {
    if (!any_) return std::nullopt;
    return static_cast<Bound>(std::max_element(seconds_, seconds_ + 4) - seconds_);
  }

 private:
  double seconds_[4] = {0, 0, 0, 0};
  bool any_ = false;
};

std::optional<double> rows_to_reach_ridge(double d_in, double d_out, double w, double a,
                                          double ridge) {
  // I(N) = 2·N·d_in·d_out / (d_in·d_out·w + N·(d_in + d_out)·a) = ridge, solved for N.
  const double denominator = 2 * d_in * d_out - ridge * (d_in + d_out) * a;
  if (denominator <= 0) return std::nullopt;
  return std::ceil(ridge * d_in * d_out * w / denominator);
}

MemoryLedger memory_ledger(const Scenario& s, double weight_bytes, double kv_bytes, double rows,
                           double largest_score_rows_x_keys) {
  const ModelShape& m = s.model;
  const ByteWidths widths = byte_widths(s.precision);
  const double a = widths.activations;
  const double d = static_cast<double>(m.d_model);
  const double dh = static_cast<double>(m.head_dim);
  MemoryLedger ledger;
  ledger.weight_bytes = weight_bytes;
  ledger.kv_bytes = kv_bytes;
  ledger.residual_bytes = 2 * rows * d * a;
  ledger.score_bytes = s.workload.attention == AttentionKind::materialized
                           ? static_cast<double>(s.workload.batch) *
                                 static_cast<double>(m.query_heads) * largest_score_rows_x_keys *
                                 widths.scores
                           : 0;
  ledger.attention_workspace_bytes =
      rows * static_cast<double>(2 * m.query_heads + 2 * m.kv_heads) * dh * a + ledger.score_bytes;
  ledger.mlp_workspace_bytes = rows * static_cast<double>(m.active_experts) *
                               static_cast<double>(m.d_ff) * a * (m.mlp == MlpKind::gated ? 2 : 1);
  ledger.logits_bytes =
      static_cast<double>(s.workload.batch) * static_cast<double>(m.vocab) * costs::logit_bytes;
  ledger.temporaries_bytes =
      ledger.residual_bytes +
      std::max({ledger.attention_workspace_bytes, ledger.mlp_workspace_bytes, ledger.logits_bytes});
  ledger.peak_bytes = ledger.weight_bytes + ledger.kv_bytes + ledger.temporaries_bytes;
  ledger.capacity_bytes = s.hardware.memory_capacity;
  ledger.fits = ledger.peak_bytes <= ledger.capacity_bytes;
  ledger.exceeds_by_bytes = ledger.fits ? 0 : ledger.peak_bytes - ledger.capacity_bytes;
  return ledger;
}

double kv_bytes_per_token(const TraceInputs& in) {
  const ModelShape& m = in.scenario.model;
  return 2 * static_cast<double>(m.layers) * static_cast<double>(m.kv_heads * m.head_dim) *
         in.widths.kv;
}

}  // namespace

namespace {

// One operator's share of a sum of operators (a step's or the trace's totals).
void add_to(Totals& totals, const Operator& op) {
  totals.flops += op.count * op.flops;
  totals.hbm_bytes += op.count * op.hbm.total();
  totals.seconds += op.count * op.seconds;
  totals.overhead_seconds += op.count * op.overhead_seconds;
  totals.seconds_low += op.count * op.seconds_low;
  totals.seconds_high += op.count * op.seconds_high;
}

}  // namespace

Totals totals_of(const std::vector<Operator>& ops) {
  Totals totals;
  for (const Operator& op : ops) add_to(totals, op);
  return totals;
}

std::optional<Bound> dominant_bound(const std::vector<Operator>& ops) {
  BoundTimes times;
  for (const Operator& op : ops) times.add(op);
  return times.dominant();
}

// Step 1: the embedding gather and the layer schedule.
// The launch overhead total is the host's per-launch cost × launches, whichever the timing: the
// bound reports it beside its total, the estimate counts its own gaps inside.
EmbeddingFacts embedding_facts(const std::vector<Operator>& ops, const Accelerator& hardware,
                               int64_t layers) {
  double launches = 0;
  double per_layer_kernels = 0;
  for (const Operator& op : ops) {
    launches += op.count * op.launches;
    if (op.per_layer) per_layer_kernels += 1;
  }
  return EmbeddingFacts{ops.front().hbm.total(), launches, per_layer_kernels,
                        launches * hardware.launch_overhead_seconds, layers};
}

// Step 2: the lesson's F per projection (from the shape each GEMM operator carries), and reuse
// against the ridge point.
ProjectionFacts projection_facts(const TraceInputs& in, const std::vector<Operator>& ops,
                                 const OperatorModel& model) {
  const ModelShape& m = in.scenario.model;
  const double tokens = static_cast<double>(in.scenario.workload.prompt_tokens);
  const double ridge = in.roofs.roofline().ridge_flops_per_byte;
  ProjectionFacts proj;
  proj.ridge_flops_per_byte = ridge;
  proj.weight_reuse_rows =
      static_cast<double>(in.scenario.workload.batch) * static_cast<double>(in.prefill.chunk);
  proj.projections.reserve(ops.size());
  for (const Operator& op : ops) {
    if (op.step != 2 || !op.gemm) continue;
    const GemmShape& shape = *op.gemm;
    ProjectionFact fact;
    fact.name = op.name;
    fact.d_in = shape.d_in;
    fact.d_out = shape.d_out;
    const double din = static_cast<double>(shape.d_in);
    const double dout = static_cast<double>(shape.d_out);
    fact.flops_per_request = 2 * tokens * din * dout * static_cast<double>(shape.experts_per_token);
    fact.intensity = op.intensity;
    fact.bound = op.bound;
    fact.rows_to_reach_ridge =
        rows_to_reach_ridge(din, dout, in.widths.weights, in.widths.activations, ridge);
    proj.flops_per_request += fact.flops_per_request * static_cast<double>(m.layers);
    proj.projections.push_back(fact);
  }
  proj.reuse_example.reserve(2);
  for (const int64_t rows : {int64_t{1}, int64_t{128}}) {
    const Operator example =
        model.timed(model.gemm_rows("reuse", 2, 1, GemmShape{m.d_model, m.query_heads * m.head_dim},
                                    static_cast<double>(rows), 1, 1));
    proj.reuse_example.push_back(ReuseExample{
        rows, example.intensity, example.hbm.weights / static_cast<double>(rows), example.bound});
  }
  return proj;
}

// Step 3: the attention schedule, the score matrix, and the KV state left behind.
AttentionFacts attention_facts(const TraceInputs& in) {
  const ModelShape& m = in.scenario.model;
  const Workload& work = in.scenario.workload;
  const double batch = static_cast<double>(work.batch);
  AttentionFacts att;
  att.block = in.block;
  att.useful_pairs = in.sums.useful_pairs;
  att.materialized = work.attention == AttentionKind::materialized;
  att.computed_pairs = att.materialized ? in.sums.dense_pairs : in.sums.fused_pairs;
  att.tiles = in.sums.fused_tiles;
  const double score_bytes = in.widths.scores;
  att.score_matrix_bytes =
      batch * static_cast<double>(m.query_heads) * in.sums.largest_score_rows_x_keys * score_bytes;
  // Score traffic of the materialized path: written by QKᵀ, read+written by softmax, read by ·V.
  const double score_traffic = 4 * batch * static_cast<double>(m.query_heads) *
                               in.sums.dense_pairs * score_bytes * static_cast<double>(m.layers);
  att.score_traffic_bytes = att.materialized ? score_traffic : 0;
  att.score_bytes_avoided = att.materialized ? 0 : score_traffic;
  att.kv_bytes_per_token = kv_bytes_per_token(in);
  att.kv_bytes_written = att.kv_bytes_per_token * batch * static_cast<double>(work.prompt_tokens);
  // A sliding window keeps only the last W positions for decode (Mistral's rolling buffer).
  att.kv_tokens_kept =
      m.sliding_window > 0 ? std::min(work.prompt_tokens, m.sliding_window) : work.prompt_tokens;
  att.kv_bytes_kept = att.kv_bytes_per_token * batch * static_cast<double>(att.kv_tokens_kept);
  return att;
}

// Step 4: the memory ledger at this chunk, and what chunking changes against one chunk.
void memory_and_chunking(const TraceInputs& in, const Trace& trace, MemoryLedger& memory,
                         ChunkingFacts& chunking) {
  const Workload& work = in.scenario.workload;
  const double batch = static_cast<double>(work.batch);
  const double weight_bytes = in.shard.weight_bytes(in.widths);
  const double kv_bytes = trace.attention.kv_bytes_kept;
  memory = memory_ledger(in.scenario, weight_bytes, kv_bytes,
                         batch * static_cast<double>(in.prefill.chunk),
                         in.sums.largest_score_rows_x_keys);
  const AttentionSums whole =
      in.prefill.chunk == work.prompt_tokens
          ? in.sums
          : attention_sums(Pass{work.prompt_tokens, work.prompt_tokens, 0},
                           static_cast<double>(in.block), window_of(in.scenario.model));
  const MemoryLedger unchunked = memory_ledger(in.scenario, weight_bytes, kv_bytes,
                                               batch * static_cast<double>(work.prompt_tokens),
                                               whole.largest_score_rows_x_keys);
  chunking.chunks = in.prefill.chunks();
  chunking.chunk_tokens = in.prefill.chunk;
  chunking.temporaries_unchunked_bytes = unchunked.temporaries_bytes;
  double weights_per_chunk = 0;
  for (const Operator& op : trace.operators) {
    if (op.per_layer) weights_per_chunk += op.count * op.hbm.weights / op.launches;
  }
  chunking.extra_weight_bytes = weights_per_chunk * static_cast<double>(chunking.chunks - 1);
  chunking.kv_reread_bytes = in.sums.prior_keys * batch * trace.attention.kv_bytes_per_token;
}

// Sized up front and moved in: allocation is the dearest thing the trace does, in wasm most of
// all (the allocator is compiled to wasm too).
std::vector<Step> mechanism_steps(const std::vector<Operator>& ops,
                                  const std::vector<std::string>& mechanism) {
  std::vector<Step> steps;
  steps.reserve(5);
  for (int number = 1; number <= 5; ++number) {
    Step step;
    step.number = number;
    step.title = kStepTitles[number - 1];
    step.text = static_cast<std::size_t>(number) <= mechanism.size() ? mechanism[number - 1] : "";
    const auto in_step = [number](const Operator& op) { return op.step == number; };
    step.operators.reserve(
        static_cast<std::size_t>(std::count_if(ops.begin(), ops.end(), in_step)));
    BoundTimes times;
    for (const Operator& op : ops) {
      if (!in_step(op)) continue;
      times.add(op);
      step.operators.push_back(op.name);
      add_to(step.totals, op);
    }
    step.bound = times.dominant();
    steps.push_back(std::move(step));
  }
  return steps;
}

DecodeComparison decode_comparison(const TraceInputs& in, const Trace& trace) {
  const Pass decode_pass{1, 1, in.scenario.workload.prompt_tokens};
  const Roofs decode_roofs = in.roofs.decode();
  const OperatorModel decode_model(in.scenario, decode_roofs, decode_pass);
  const auto decode_ops = decode_model.operators(
      attention_sums(decode_pass, static_cast<double>(in.block), window_of(in.scenario.model)));
  const Totals decode_totals = totals_of(decode_ops);
  DecodeComparison decode;
  decode.context_tokens = in.scenario.workload.prompt_tokens;
  decode.flops = decode_totals.flops;
  decode.hbm_bytes = decode_totals.hbm_bytes;
  decode.intensity = decode.flops / decode.hbm_bytes;
  decode.seconds = decode_totals.seconds;
  decode.bound = *dominant_bound(decode_ops);
  const auto qkv_intensity = [](const std::vector<Operator>& ops) {
    return std::find_if(ops.begin(), ops.end(),
                        [](const Operator& op) { return op.name == "qkv_projection"; })
        ->intensity;
  };
  decode.projection_intensity = qkv_intensity(decode_ops);
  decode.prefill_projection_intensity = qkv_intensity(trace.operators);
  decode.prefill_intensity = trace.totals.flops / trace.totals.hbm_bytes;
  decode.prefill_bound = *dominant_bound(trace.operators);
  return decode;
}

}  // namespace prefill_trace
