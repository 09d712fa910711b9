#include "trace/operator_model.hpp"

#include <algorithm>
#include <cmath>

#include "trace/collective.hpp"
#include "trace/occupancy.hpp"
#include "trace/operator_costs.hpp"

namespace prefill_trace {

namespace {

// The interval family an operator's seconds_low/high come from (docs/validation.md).
IntervalFamily interval_family(Family family) {
  switch (family) {
    case Family::gemm:
    case Family::expert_gemm:
      return IntervalFamily::gemm;
    case Family::attention:
      return IntervalFamily::attention;
    case Family::interconnect:
      return IntervalFamily::all_reduce;
    case Family::memory:
      break;
  }
  return IntervalFamily::elementwise;
}

}  // namespace

namespace {

Operator with_family(Family family, Operator op) {
  op.family = family;
  return op;
}

Operator per_layer(Operator op) {
  op.per_layer = true;
  return op;
}

}  // namespace

OperatorModel::OperatorModel(const Scenario& device, const Roofs& roofs, const Pass& pass)
    : s_(device),
      m_(device.model),
      roofs_(roofs),
      pass_(pass),
      widths_(byte_widths(device.precision)),
      block_(static_cast<double>(flash_block(device))),
      devices_(static_cast<double>(device.workload.tensor_parallel)),
      batch_(static_cast<double>(device.workload.batch)),
      layers_(static_cast<double>(device.model.layers)),
      chunks_(static_cast<double>(pass.chunks())),
      tokens_(static_cast<double>(pass.query_tokens)),
      rows_(batch_ * tokens_) {}

std::vector<Operator> OperatorModel::operators(const AttentionSums& sums) const {
  const double d = static_cast<double>(m_.d_model);
  const double vocab = static_cast<double>(m_.vocab);
  std::vector<Operator> ops;
  ops.reserve(16);  // a trace has 13 to 16 kernels: one allocation

  // Step 1: gather one embedding row per token.
  ops.push_back(
      timed(Operator{"embedding", 1, 1, chunks_, 0, 0,
                     HbmBytes{rows_ * d * widths_.tables, rows_ * d * widths_.activations, 0, 0}}));
  // Step 2 (per layer): fused residual-add + RMSNorm, then the Q, K, V projections.
  ops.push_back(per_layer(norm("attn_norm", layers_, rows_)));
  ops.push_back(per_layer(gemm(
      "qkv_projection", GemmShape{m_.d_model, (m_.query_heads + 2 * m_.kv_heads) * m_.head_dim})));
  // Step 3 (per layer): write the new keys/values, then causal attention.
  for (Operator& op : attention(sums)) ops.push_back(per_layer(std::move(op)));
  // Step 2 again: output projection and the MLP.
  ops.push_back(
      per_layer(gemm("o_projection", GemmShape{m_.query_heads * m_.head_dim, m_.d_model})));
  // Tensor parallelism sums each row-parallel output across devices; a parallel block adds
  // the attention and MLP partials into one residual and sums them once (TensorRT-LLM's Falcon
  // layer, docs/model.md).
  const bool parallel_block = m_.parallel_attention;
  if (devices_ > 1 && !parallel_block) {
    ops.push_back(per_layer(all_reduce("attention_all_reduce")));
  }
  ops.push_back(per_layer(norm("mlp_norm", layers_, rows_)));
  for (Operator& op : mlp()) ops.push_back(per_layer(std::move(op)));
  if (devices_ > 1) {
    ops.push_back(per_layer(all_reduce(parallel_block ? "block_all_reduce" : "mlp_all_reduce")));
  }
  ops.push_back(norm("final_norm", 1, rows_));

  // Step 5: first-token delivery reads logits for the last prompt position only.
  Operator head = gemm_rows("lm_head", 5, 1, GemmShape{m_.d_model, m_.vocab}, batch_, 1, 1);
  head.hbm.weights = d * vocab * widths_.tables;
  head.hbm.activations = batch_ * d * widths_.activations + batch_ * vocab * costs::logit_bytes;
  ops.push_back(timed(head));
  const double sampling_flops = batch_ * vocab * costs::sampling_flops_per_logit;
  ops.push_back(timed(Operator{"sampling", 5, 1, 1, sampling_flops, sampling_flops,
                               HbmBytes{0, batch_ * vocab * costs::logit_bytes, 0, 0}}));
  return ops;
}

std::vector<Operator> OperatorModel::attention(const AttentionSums& sums) const {
  const double hq = static_cast<double>(m_.query_heads);
  const double hkv = static_cast<double>(m_.kv_heads);
  const double dh = static_cast<double>(m_.head_dim);
  const double a = widths_.activations;
  const double c = widths_.kv;
  std::vector<Operator> ops;
  ops.reserve(4);  // kv_cache_write and one or three attention kernels: one allocation
  const double kv_elems = 2 * rows_ * hkv * dh;
  ops.push_back(timed(Operator{"kv_cache_write", 3, layers_, chunks_, 0, 0,
                               HbmBytes{0, kv_elems * a, kv_elems * c, 0}}));
  const double qo_bytes = batch_ * hq * tokens_ * dh * a;
  if (s_.workload.attention == AttentionKind::fused) {
    const double per_pair = 4 * dh + costs::softmax_flops_per_score;
    Operator op{"attention",
                3,
                layers_,
                chunks_,
                batch_ * hq * sums.useful_pairs * per_pair,
                batch_ * hq * sums.fused_pairs * per_pair,
                {}};
    // Q read and O written once. K and V are shared by the query heads of a GQA group
    // (FlashAttention-2/3 style packing); the bound charges them once per chunk (compulsory),
    // the estimate once per query block unless the group's K/V fits its share of L2.
    op.family = Family::attention;
    op.hbm.activations = 2 * qo_bytes;
    const double kv_per_key = batch_ * hkv * 2 * dh * c;
    op.hbm.kv = kv_per_key * (roofs_.estimate() && !group_kv_fits_l2(sums) ? sums.fused_keys_loaded
                                                                           : sums.visible_keys);
    // The estimate: one thread block per request, query head and query block of the chunk.
    if (roofs_.estimate()) {
      op.occupancy = attention_occupancy(
          batch_ * hq * ceil_div(static_cast<double>(pass_.chunk), block_), roofs_.compute_units);
    }
    ops.push_back(timed(op));
    return ops;
  }
  const double score_bytes = batch_ * hq * sums.dense_pairs * widths_.scores;
  const double key_bytes = batch_ * hkv * dh * c * sums.visible_keys;
  const double useful_dot = batch_ * hq * sums.useful_pairs * 2 * dh;
  const double dense_dot = batch_ * hq * sums.dense_pairs * 2 * dh;
  ops.push_back(timed(with_family(
      Family::attention, Operator{"attention_scores", 3, layers_, chunks_, useful_dot, dense_dot,
                                  HbmBytes{0, qo_bytes, key_bytes, score_bytes}})));
  ops.push_back(timed(Operator{"softmax", 3, layers_, chunks_,
                               batch_ * hq * sums.useful_pairs * costs::softmax_flops_per_score,
                               batch_ * hq * sums.dense_pairs * costs::softmax_flops_per_score,
                               HbmBytes{0, 0, 0, 2 * score_bytes}}));
  ops.push_back(timed(with_family(
      Family::attention, Operator{"attention_values", 3, layers_, chunks_, useful_dot, dense_dot,
                                  HbmBytes{0, qo_bytes, key_bytes, score_bytes}})));
  return ops;
}

std::vector<Operator> OperatorModel::mlp() const {
  const bool gated = m_.mlp == MlpKind::gated;
  std::vector<Operator> ops;
  if (m_.experts > 1) ops.push_back(gemm("router", GemmShape{m_.d_model, m_.experts}));
  ops.push_back(
      gemm(gated ? "gate_up_projection" : "up_projection",
           GemmShape{m_.d_model, (gated ? 2 : 1) * m_.d_ff, m_.experts, m_.active_experts}));
  const double act_out =
      rows_ * static_cast<double>(m_.active_experts) * static_cast<double>(m_.d_ff);
  const double act_flops =
      gated ? costs::gated_act_flops_per_element : costs::plain_act_flops_per_element;
  ops.push_back(timed(Operator{
      gated ? "silu_and_mul" : "relu", 2, layers_, chunks_, act_out * act_flops,
      act_out * act_flops, HbmBytes{0, act_out * widths_.activations * (gated ? 3 : 2), 0, 0}}));
  ops.push_back(
      gemm("down_projection", GemmShape{m_.d_ff, m_.d_model, m_.experts, m_.active_experts}));
  return ops;
}

// An expert GEMM (k > 1 of E experts per token) loads only the experts a chunk touches: under
// uniform routing a chunk of R rows touches E·(1 − (1 − k/E)^R) distinct experts, each loaded
// once with R·k/E_t rows.
Operator OperatorModel::gemm(const char* name, const GemmShape& shape) const {
  Operator total{name, 2, layers_, chunks_, 0, 0, {}};
  total.family = shape.expert() ? Family::expert_gemm : Family::gemm;
  total.gemm = shape;
  for_each_chunk_rows([&](double chunk_rows, double times) {
    double rows = chunk_rows;
    double groups = 1;
    if (shape.expert()) {
      const double e = static_cast<double>(shape.experts);
      const double k = static_cast<double>(shape.experts_per_token);
      groups = e * (1 - std::pow(1 - k / e, chunk_rows));
      rows = chunk_rows * k / groups;
    }
    const Operator part = gemm_rows(name, 2, layers_, shape, rows, groups, 1);
    total.flops += part.flops * times;
    total.computed_flops += part.computed_flops * times;
    total.hbm.weights += part.hbm.weights * times;
    total.hbm.activations += part.hbm.activations * times;
  });
  return timed(total);
}

// Minimum traffic with ideal reuse: weights once, inputs and outputs once.
Operator OperatorModel::gemm_rows(const char* name, int step, double count, const GemmShape& shape,
                                  double rows, double groups, double launches) const {
  const double din = static_cast<double>(shape.d_in);
  const double dout = static_cast<double>(shape.d_out);
  // Tile quantization: ⌈rows/m⌉·m rows are computed. A GEMM with fewer rows than m is
  // assumed to run a smaller tile, rounded up to the tensor-core MMA height of 16 rows
  // (libraries select skinny kernels for small M), so one decode row is not charged for 128.
  const double tile = static_cast<double>(s_.workload.gemm_m_tile);
  const double padded_rows =
      rows >= tile ? ceil_div(rows, tile) * tile
                   : std::min(tile, ceil_div(rows, costs::mma_rows) * costs::mma_rows);
  Operator op{name,
              step,
              count,
              launches,
              groups * 2 * rows * din * dout,
              groups * 2 * padded_rows * din * dout,
              {}};
  op.hbm.weights = groups * din * dout * widths_.weights;
  op.hbm.activations = groups * rows * (din + dout) * widths_.activations;
  op.family = Family::gemm;
  op.gemm = shape;
  // No wave-quantization term: it was tried (tiles of the padded rows × 128 columns over the
  // compute units) and grouped cross-validation rejected it (docs/validation.md).
  return op;
}

OperatorModel::KernelTimes OperatorModel::kernel_times(const Operator& op) const {
  KernelTimes times;
  times.compute = op.computed_flops / roofs_.peak_flops(op.family) / op.occupancy;
  // The estimate's latency floor: a fixed device time per launch before the bytes stream.
  times.memory = op.hbm.total() / roofs_.bandwidth + op.launches * roofs_.memory_latency_seconds;
  // The bound charges half the ring's bytes, (N−1)/N of the output each way: what any
  // all-reduce must move when the switch reduces in-network (NVLink SHARP), and the least
  // measured on DGX H100; no latency. The estimate times each call as NCCL's tuning model
  // would (src/trace/collective.hpp).
  times.interconnect = op.link_bytes == 0  ? 0
                       : roofs_.estimate() ? estimated_all_reduce_seconds()
                                           : op.link_bytes / 2 / roofs_.link_bandwidth;
  times.overhead = op.launches * roofs_.gap_seconds;
  times.roofline = std::max({times.compute, times.memory, times.interconnect});
  return times;
}

double OperatorModel::seconds(const Operator& op) const {
  const KernelTimes times = kernel_times(op);
  return times.roofline + times.overhead;
}

Operator OperatorModel::timed(Operator op) const {
  op.intensity = op.hbm.total() > 0 ? op.flops / op.hbm.total() : 0;
  op.useful_fraction = op.computed_flops > 0 ? op.flops / op.computed_flops : 1;
  const KernelTimes times = kernel_times(op);
  op.compute_seconds = times.compute;
  op.memory_seconds = times.memory;
  op.interconnect_seconds = times.interconnect;
  op.overhead_seconds = times.overhead;
  const double roofline = times.roofline;
  op.seconds = roofline + op.overhead_seconds;
  const bool estimate = roofs_.estimate();
  const auto& range = roofs_.interval[static_cast<std::size_t>(interval_family(op.family))];
  op.seconds_low = op.seconds * range[0];
  op.seconds_high = op.seconds * range[1];
  op.bound = estimate && op.overhead_seconds > roofline            ? Bound::overhead
             : op.interconnect_seconds == roofline && roofline > 0 ? Bound::interconnect
             : op.compute_seconds >= op.memory_seconds             ? Bound::compute
                                                                   : Bound::memory;
  return op;
}

// Tensor parallelism leaves each device a partial sum of the layer output (N·d values per
// row); a ring all-reduce sends and receives 2(N−1)/N of it per device and adds (N−1)/N of it.
// HBM: the partial sum is read and the result written once. The partial sum is the
// row-parallel GEMM's output, in the residual stream's width: at least 16 bits even when the
// GEMM inputs are fp8/int8 (summing 8-bit partials would lose the precision the residual
// keeps, and the NCCL of the measured stacks had no 8-bit float type; docs/validation.md).
double OperatorModel::partial_sum_width() const {
  return std::max(widths_.activations, 2.0);
}

Operator OperatorModel::all_reduce(const char* name) const {
  const double d = static_cast<double>(m_.d_model);
  const double share = (devices_ - 1) / devices_;
  const double sum_width = partial_sum_width();
  Operator op{name,
              2,
              layers_,
              chunks_,
              rows_ * d * share,
              rows_ * d * share,
              HbmBytes{0, 2 * rows_ * d * sum_width, 0, 0}};
  op.link_bytes = 2 * share * rows_ * d * sum_width;
  op.family = Family::interconnect;
  return timed(op);
}

// The estimate's link time of a layer's all-reduce: one call per chunk, each summing that
// chunk's partial layer output (rows·d values in at least 16 bits), timed as NCCL's fastest
// algorithm/protocol for its size plus the profile's fitted per-call overhead.
double OperatorModel::estimated_all_reduce_seconds() const {
  const double row_bytes = static_cast<double>(m_.d_model) * partial_sum_width();
  const Accelerator& hw = s_.hardware;
  double total = 0;
  for_each_chunk_rows([&](double chunk_rows, double times) {
    total +=
        times * (hw.estimate.all_reduce_overhead_seconds +
                 all_reduce_call_seconds(chunk_rows * row_bytes, devices_, roofs_.link_bandwidth,
                                         hw.interconnect_kind, hw.interconnect_reduces_in_network));
  });
  return total;
}

// Whether one GQA group's K/V for the longest chunk fits the L2 share of the groups in flight:
// one thread block per SM, each group running (h_q/h_kv)·⌈C/b⌉ blocks.
bool OperatorModel::group_kv_fits_l2(const AttentionSums& sums) const {
  const double group_bytes =
      sums.largest_visible_keys * 2 * static_cast<double>(m_.head_dim) * widths_.kv;
  const double blocks_per_group = static_cast<double>(m_.query_heads / m_.kv_heads) *
                                  ceil_div(static_cast<double>(pass_.chunk), block_);
  const double groups_in_flight =
      std::clamp(ceil_div(static_cast<double>(std::max<int64_t>(1, s_.hardware.compute_units)),
                          blocks_per_group),
                 1.0, batch_ * static_cast<double>(m_.kv_heads));
  return group_bytes <= s_.hardware.l2_bytes / groups_in_flight;
}

Operator OperatorModel::norm(const char* name, double count, double rows) const {
  const double d = static_cast<double>(m_.d_model);
  const double flops = rows * d * costs::norm_flops_per_element;
  // Reads the hidden state and the residual, writes both; the gain vector is read per chunk.
  return timed(
      Operator{name, 2, count, chunks_, flops, flops,
               HbmBytes{chunks_ * d * widths_.weights, 4 * rows * d * widths_.activations, 0, 0}});
}

}  // namespace prefill_trace
