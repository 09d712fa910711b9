#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "collective.hpp"
#include "occupancy.hpp"

namespace prefill_trace {
namespace {

// FLOPs charged per element by the non-GEMM kernels (stated in the trace's assumptions).
constexpr double kNormFlopsPerElement = 5;      // residual add, square, sum, rsqrt scale, gain
constexpr double kSoftmaxFlopsPerScore = 5;     // max, subtract, exponentiate, sum, divide
constexpr double kGatedActFlopsPerElement = 5;  // SiLU (4) and the gate multiply (1)
constexpr double kPlainActFlopsPerElement = 1;  // ReLU (OPT)
constexpr double kSamplingFlopsPerLogit = 5;    // softmax over the vocabulary
constexpr double kLogitBytes = 4;               // logits are produced in fp32
constexpr double kMmaRows = 16;                 // smallest tensor-core MMA tile height

double ceil_div(double a, double b) {
  return std::ceil(a / b);
}

double window_of(const ModelShape& model) {
  return static_cast<double>(model.sliding_window);
}

// Bytes per element of each stored tensor kind, worked out once per trace.
struct ByteWidths {
  double weights;      // w
  double activations;  // a: the tensors between kernels (16 bits under fp8, see byte_widths)
  double kv;           // c
  double scores;       // s: scores are kept in at least 16 bits
  double tables;       // embedding table and LM head: never below 16 bits
};

// Weight-quantised checkpoints (AWQ and GPTQ int4, TensorRT-LLM/ModelOpt and vLLM fp8/int8)
// quantise the layers' linear weights but keep the embedding table and the LM head in 16 bits.
ByteWidths byte_widths(const Precision& precision) {
  const double w = bytes_per_element(precision.weights);
  // FP8 GEMMs take a 16-bit input, quantise it to fp8 for the tensor cores and return a 16-bit
  // output (TensorRT-LLM's FP8Linear / FP8RowLinear: input and output in the model's dtype), so
  // the residual stream and every tensor between kernels stay 16-bit; fp8 is the arithmetic's.
  // int8 (SmoothQuant W8A8) writes its GEMM inputs as int8 (quantize_per_token): 1 byte.
  const double a =
      precision.activations == DType::fp8 ? 2.0 : bytes_per_element(precision.activations);
  return ByteWidths{w, a, bytes_per_element(precision.kv), std::max(a, 2.0), std::max(w, 2.0)};
}

// How the query tokens of each request are processed: ⌈Q/C⌉ chunks of C tokens (the last may
// be shorter), chunk c attending to `prior + c·C` earlier keys. Prefill: prior = 0, Q = T.
// One decode step: Q = 1 token after prior = T.
struct Pass {
  int64_t query_tokens;
  int64_t chunk;
  int64_t prior;
  int64_t full_chunks() const { return query_tokens / chunk; }
  int64_t remainder() const { return query_tokens % chunk; }
  int64_t chunks() const { return full_chunks() + (remainder() > 0 ? 1 : 0); }
};

// Per request and per query head, summed over the chunks of a pass.
struct AttentionSums {
  double useful_pairs = 0;
  double fused_tiles = 0;
  double fused_pairs = 0;
  double fused_keys_loaded = 0;  // Σ over query blocks of the keys streamed for that block
  double visible_keys = 0;       // Σ over chunks of the keys any row of the chunk may attend to
  double largest_visible_keys = 0;
  double dense_pairs = 0;  // materialized: every (query, visible key) of the rectangle
  double largest_score_rows_x_keys = 0;
  double prior_keys = 0;  // Σ over chunks of keys written by earlier chunks that the chunk reads
};

// Σ_{p<n} min(p + 1, W): causal pairs of the first n positions under a window of W keys
// (W = 0: no window, n(n+1)/2).
double windowed_pairs(double n, double window) {
  if (window <= 0 || n <= window) return n * (n + 1) / 2;
  return window * (window + 1) / 2 + (n - window) * window;
}

// The blocked schedule of one chunk of `rows` queries after `prior` keys, when a sliding window
// of W keys (each query sees itself and the W − 1 keys before it) cuts the early keys off. Query
// block j starts at s = prior + j·b: blocks with s ≤ W − 1 still see every earlier key (as
// without a window); later blocks stream rows_j + W − 1 keys in ⌈(rows_j + W − 1)/b⌉ tiles.
void add_windowed_chunk(AttentionSums& sums, double rows, double prior, double b, double window) {
  const double q = std::floor(rows / b);
  const double r = rows - q * b;
  const double unwindowed_blocks = std::max(0.0, std::floor((window - 1 - prior) / b) + 1);
  const double jf = std::min(unwindowed_blocks, q);  // full blocks that see every earlier key
  const double prior_blocks = ceil_div(prior, b);
  double full_tiles = jf * prior_blocks + jf * (jf + 1) / 2;
  double keys = jf * prior + b * jf * (jf + 1) / 2;
  full_tiles += (q - jf) * ceil_div(b + window - 1, b);
  keys += (q - jf) * (b + window - 1);
  double last_tiles = 0;
  if (r > 0) {
    const bool sees_all = q < unwindowed_blocks;
    last_tiles = sees_all ? q + ceil_div(prior + r, b) : ceil_div(r + window - 1, b);
    keys += sees_all ? prior + rows : r + window - 1;
  }
  sums.fused_tiles += full_tiles + last_tiles;
  sums.fused_pairs += b * (b * full_tiles + r * last_tiles);
  sums.fused_keys_loaded += keys;
}

AttentionSums attention_sums(const Pass& pass, double b, double window) {
  AttentionSums sums;
  const int64_t chunks = pass.chunks();
  for (int64_t c = 0; c < chunks; ++c) {
    const double rows = static_cast<double>(c < pass.full_chunks() ? pass.chunk : pass.remainder());
    const double prior =
        static_cast<double>(pass.prior) + static_cast<double>(c) * static_cast<double>(pass.chunk);
    // Keys the chunk may attend to: all of them, or the window before its first row onward.
    const bool windowed = window > 0 && prior + rows > window;
    const double visible = windowed ? std::min(prior + rows, rows + window - 1) : prior + rows;
    sums.useful_pairs += windowed
                             ? windowed_pairs(prior + rows, window) - windowed_pairs(prior, window)
                             : rows * prior + rows * (rows + 1) / 2;
    if (windowed) {
      add_windowed_chunk(sums, rows, prior, b, window);
    } else {
      // Blocked causal schedule: query block j (b rows, the last r = rows mod b) streams key
      // blocks up to the one holding its last key; key blocks are aligned to multiples of b.
      const double q = std::floor(rows / b);
      const double r = rows - q * b;
      const double prior_blocks = ceil_div(prior, b);
      const double full_block_tiles = q * prior_blocks + q * (q + 1) / 2;
      const double last_block_tiles = r > 0 ? q + ceil_div(prior + r, b) : 0;
      sums.fused_tiles += full_block_tiles + last_block_tiles;
      sums.fused_pairs += b * (b * full_block_tiles + r * last_block_tiles);
      sums.fused_keys_loaded +=
          (q + (r > 0 ? 1 : 0)) * prior + b * q * (q + 1) / 2 + (r > 0 ? rows : 0);
    }
    sums.visible_keys += visible;
    sums.largest_visible_keys = std::max(sums.largest_visible_keys, visible);
    sums.dense_pairs += rows * visible;
    sums.largest_score_rows_x_keys = std::max(sums.largest_score_rows_x_keys, rows * visible);
    sums.prior_keys += visible - rows;
  }
  return sums;
}

// FlashAttention (arXiv 2205.14135, Algorithm 1): B_c = ⌈M/(4d)⌉, B_r = min(B_c, d), with M
// the on-chip memory in elements. We use B_r as the square tile edge b.
int64_t flash_block(const Scenario& scenario) {
  if (scenario.workload.attention_block > 0) return scenario.workload.attention_block;
  const double elements =
      scenario.hardware.sram_per_unit_bytes / bytes_per_element(scenario.precision.activations);
  const auto b_c =
      static_cast<int64_t>(ceil_div(elements, 4.0 * static_cast<double>(scenario.model.head_dim)));
  return std::max<int64_t>(1, std::min(b_c, scenario.model.head_dim));
}

class OperatorBuilder {
 public:
  OperatorBuilder(const Scenario& scenario, const Pass& pass)
      : s_(scenario), m_(scenario.model), pass_(pass) {
    block_ = static_cast<double>(flash_block(s_));
    const ByteWidths widths = byte_widths(s_.precision);
    w_ = widths.weights;
    table_ = widths.tables;
    a_ = widths.activations;
    c_ = widths.kv;
    score_ = widths.scores;
    batch_ = static_cast<double>(s_.workload.batch);
    layers_ = static_cast<double>(m_.layers);
    chunks_ = static_cast<double>(pass_.chunks());
    tokens_ = static_cast<double>(pass_.query_tokens);
    rows_ = batch_ * tokens_;
    devices_ = static_cast<double>(s_.workload.tensor_parallel);
    const Workload& work = s_.workload;
    const EstimateProfile& profile = s_.hardware.estimate;
    estimate_ = work.timing == Timing::estimate;
    const double raw_peak = s_.hardware.peak_flops.at(s_.precision.activations);
    gemm_peak_ = raw_peak * compute_efficiency(work, profile.gemm_efficiency);
    attention_peak_ =
        raw_peak * compute_efficiency(work, profile.attention_efficiency_of(work.attention_kernel));
    expert_peak_ = raw_peak * compute_efficiency(work, profile.expert_gemm_efficiency > 0
                                                           ? profile.expert_gemm_efficiency
                                                           : profile.gemm_efficiency);
    bandwidth_ = s_.hardware.memory_bandwidth *
                 work.memory_efficiency.value_or(estimate_ ? profile.memory_efficiency : 1);
    link_bandwidth_ =
        s_.hardware.interconnect_bandwidth * (estimate_ ? profile.interconnect_efficiency : 1);
    // Gaps between kernels, fitted: with each kernel launched on its own, or replayed from a
    // captured graph.
    // Gaps between kernels, fitted: with each kernel launched on its own (the stack's gap), or
    // replayed from a captured graph; none for device time alone (`kernels`).
    gap_seconds_ = !estimate_                         ? 0
                   : work.stack == Stack::kernels     ? 0
                   : work.graphs                      ? profile.graph_launch_gap_seconds
                                                      : profile.gap_seconds(work.stack);
    memory_latency_ = estimate_ ? profile.memory_latency_seconds : 0;
    units_ = static_cast<double>(s_.hardware.compute_units);
    multi_device_ = s_.workload.tensor_parallel > 1;
  }

  std::vector<Operator> build(const AttentionSums& sums) {
    const double d = static_cast<double>(m_.d_model);
    const double vocab = static_cast<double>(m_.vocab);
    std::vector<Operator> ops;
    ops.reserve(16);  // a trace has 13 to 16 kernels: one allocation

    // Step 1: gather one embedding row per token.
    ops.push_back(finish(Operator{"embedding", 1, 1, chunks_, 0, 0,
                                  HbmBytes{rows_ * d * table_, rows_ * d * a_, 0, 0}}));
    // Step 2 (per layer): fused residual-add + RMSNorm, then the Q, K, V projections.
    ops.push_back(per_layer(norm("attn_norm", layers_, rows_)));
    ops.push_back(
        per_layer(gemm("qkv_projection",
                       GemmShape{m_.d_model, (m_.query_heads + 2 * m_.kv_heads) * m_.head_dim})));
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
    head.hbm.weights = d * vocab * table_;
    head.hbm.activations = batch_ * d * a_ + batch_ * vocab * kLogitBytes;
    ops.push_back(finish(head));
    ops.push_back(finish(Operator{"sampling", 5, 1, 1, batch_ * vocab * kSamplingFlopsPerLogit,
                                  batch_ * vocab * kSamplingFlopsPerLogit,
                                  HbmBytes{0, batch_ * vocab * kLogitBytes, 0, 0}}));
    return ops;
  }

  // kv_cache_write and the attention kernel(s) of one layer.
  std::vector<Operator> attention(const AttentionSums& sums) const {
    const double hq = static_cast<double>(m_.query_heads);
    const double hkv = static_cast<double>(m_.kv_heads);
    const double dh = static_cast<double>(m_.head_dim);
    std::vector<Operator> ops;
    const double kv_elems = 2 * rows_ * hkv * dh;
    ops.push_back(finish(Operator{"kv_cache_write", 3, layers_, chunks_, 0, 0,
                                  HbmBytes{0, kv_elems * a_, kv_elems * c_, 0}}));
    const double qo_bytes = batch_ * hq * tokens_ * dh * a_;
    if (s_.workload.attention == AttentionKind::fused) {
      const double per_pair = 4 * dh + kSoftmaxFlopsPerScore;
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
      const double kv_per_key = batch_ * hkv * 2 * dh * c_;
      op.hbm.kv = kv_per_key * (estimate_ && !group_kv_fits_l2(sums) ? sums.fused_keys_loaded
                                                                     : sums.visible_keys);
      // The estimate: one thread block per request, query head and query block of the chunk.
      if (estimate_) {
        op.occupancy = attention_occupancy(
            batch_ * hq * ceil_div(static_cast<double>(pass_.chunk), block_), units_);
      }
      ops.push_back(finish(op));
      return ops;
    }
    const double score_bytes = batch_ * hq * sums.dense_pairs * score_;
    const double key_bytes = batch_ * hkv * dh * c_ * sums.visible_keys;
    ops.push_back(finish(with_family(
        Family::attention,
        Operator{"attention_scores", 3, layers_, chunks_, batch_ * hq * sums.useful_pairs * 2 * dh,
                 batch_ * hq * sums.dense_pairs * 2 * dh,
                 HbmBytes{0, qo_bytes, key_bytes, score_bytes}})));
    ops.push_back(finish(Operator{"softmax", 3, layers_, chunks_,
                                  batch_ * hq * sums.useful_pairs * kSoftmaxFlopsPerScore,
                                  batch_ * hq * sums.dense_pairs * kSoftmaxFlopsPerScore,
                                  HbmBytes{0, 0, 0, 2 * score_bytes}}));
    ops.push_back(finish(with_family(
        Family::attention,
        Operator{"attention_values", 3, layers_, chunks_, batch_ * hq * sums.useful_pairs * 2 * dh,
                 batch_ * hq * sums.dense_pairs * 2 * dh,
                 HbmBytes{0, qo_bytes, key_bytes, score_bytes}})));
    return ops;
  }

  // The MLP of one layer: router (MoE), up (or gate+up), activation, down.
  std::vector<Operator> mlp() {
    const bool gated = m_.mlp == MlpKind::gated;
    std::vector<Operator> ops;
    if (m_.experts > 1) ops.push_back(gemm("router", GemmShape{m_.d_model, m_.experts}));
    ops.push_back(
        gemm(gated ? "gate_up_projection" : "up_projection",
             GemmShape{m_.d_model, (gated ? 2 : 1) * m_.d_ff, m_.experts, m_.active_experts}));
    const double act_out =
        rows_ * static_cast<double>(m_.active_experts) * static_cast<double>(m_.d_ff);
    const double act_flops = gated ? kGatedActFlopsPerElement : kPlainActFlopsPerElement;
    ops.push_back(
        finish(Operator{gated ? "silu_and_mul" : "relu", 2, layers_, chunks_, act_out * act_flops,
                        act_out * act_flops, HbmBytes{0, act_out * a_ * (gated ? 3 : 2), 0, 0}}));
    ops.push_back(
        gemm("down_projection", GemmShape{m_.d_ff, m_.d_model, m_.experts, m_.active_experts}));
    return ops;
  }

  double rows() const { return rows_; }

  // A weight GEMM of one layer over every chunk of the pass. An expert GEMM (k > 1 of E
  // experts per token) loads only the experts a chunk touches: under uniform routing a chunk of
  // R rows touches E·(1 − (1 − k/E)^R) distinct experts, each loaded once with R·k/E_t rows.
  Operator gemm(const char* name, const GemmShape& shape) {
    Operator total{name, 2, layers_, chunks_, 0, 0, {}};
    total.family = shape.expert() ? Family::expert_gemm : Family::gemm;
    total.gemm = shape;
    double largest_rows = 0;
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
      // Occupancy of the full chunks (the remainder's differs little; the largest chunk sets it).
      if (times > 0 && chunk_rows >= largest_rows) {
        largest_rows = chunk_rows;
        total.occupancy = part.occupancy;
      }
      total.flops += part.flops * times;
      total.computed_flops += part.computed_flops * times;
      total.hbm.weights += part.hbm.weights * times;
      total.hbm.activations += part.hbm.activations * times;
    });
    return finish(total);
  }

  // One GEMM of `rows` token rows against a d_in×d_out weight, repeated over `groups` weight
  // matrices (experts). Minimum traffic with ideal reuse: weights once, inputs and outputs once.
  Operator gemm_rows(const char* name, int step, double count, const GemmShape& shape, double rows,
                     double groups, double launches) const {
    const double din = static_cast<double>(shape.d_in);
    const double dout = static_cast<double>(shape.d_out);
    // Tile quantization: ⌈rows/m⌉·m rows are computed. A GEMM with fewer rows than m is
    // assumed to run a smaller tile, rounded up to the tensor-core MMA height of 16 rows
    // (libraries select skinny kernels for small M), so one decode row is not charged for 128.
    const double tile = static_cast<double>(s_.workload.gemm_m_tile);
    const double padded_rows = rows >= tile ? ceil_div(rows, tile) * tile
                                            : std::min(tile, ceil_div(rows, kMmaRows) * kMmaRows);
    Operator op{name,
                step,
                count,
                launches,
                groups * 2 * rows * din * dout,
                groups * 2 * padded_rows * din * dout,
                {}};
    op.hbm.weights = groups * din * dout * w_;
    op.hbm.activations = groups * rows * (din + dout) * a_;
    op.family = Family::gemm;
    op.gemm = shape;
    // The estimate: output tiles of (padded rows) × 128 columns over the compute units.
    if (estimate_) {
      const double tile_rows = std::min(tile, padded_rows);
      op.occupancy = gemm_occupancy(
          groups * ceil_div(padded_rows, tile_rows) * ceil_div(dout, kGemmTileColumns), units_);
    }
    return op;
  }

  // η_c for a family: the user's override, else 1 (bound) or the profile's value (estimate).
  double compute_efficiency(const Workload& work, double profile_value) const {
    return work.compute_efficiency.value_or(estimate_ ? profile_value : 1);
  }

  Operator finish(Operator op) const {
    op.intensity = op.hbm.total() > 0 ? op.flops / op.hbm.total() : 0;
    op.useful_fraction = op.computed_flops > 0 ? op.flops / op.computed_flops : 1;
    op.compute_seconds = op.computed_flops / (op.family == Family::attention     ? attention_peak_
                                              : op.family == Family::expert_gemm ? expert_peak_
                                                                                 : gemm_peak_) /
                         op.occupancy;
    // The estimate's latency floor: a fixed device time per launch before the bytes stream.
    op.memory_seconds = op.hbm.total() / bandwidth_ + op.launches * memory_latency_;
    // The bound charges half the ring's bytes, (N−1)/N of the output each way: what any
    // all-reduce must move when the switch reduces in-network (NVLink SHARP), and the least
    // measured on DGX H100; no latency. The estimate times each call as NCCL's tuning model
    // would (src/collective.hpp).
    op.interconnect_seconds = op.link_bytes == 0 ? 0
                              : estimate_        ? estimated_all_reduce_seconds()
                                                 : op.link_bytes / 2 / link_bandwidth_;
    op.overhead_seconds = op.launches * gap_seconds_;
    const double roofline =
        std::max({op.compute_seconds, op.memory_seconds, op.interconnect_seconds});
    op.seconds = roofline + op.overhead_seconds;
    const auto& range = s_.hardware.estimate.interval[static_cast<std::size_t>(interval_family(op))];
    op.seconds_low = estimate_ ? op.seconds * range[0] : op.seconds;
    op.seconds_high = estimate_ ? op.seconds * range[1] : op.seconds;
    op.bound = estimate_ && op.overhead_seconds > roofline           ? Bound::overhead
               : op.interconnect_seconds == roofline && roofline > 0 ? Bound::interconnect
               : op.compute_seconds >= op.memory_seconds             ? Bound::compute
                                                                     : Bound::memory;
    return op;
  }

 private:
  // Calls f(rows of one chunk across the batch, how many chunks have that many rows).
  template <typename F>
  void for_each_chunk_rows(F f) const {
    if (pass_.full_chunks() > 0) {
      f(batch_ * static_cast<double>(pass_.chunk), static_cast<double>(pass_.full_chunks()));
    }
    if (pass_.remainder() > 0) f(batch_ * static_cast<double>(pass_.remainder()), 1);
  }

  // Tensor parallelism leaves each device a partial sum of the layer output (N·d values per
  // row); a ring all-reduce sends and receives 2(N−1)/N of it per device and adds (N−1)/N of it.
  // HBM: the partial sum is read and the result written once. The partial sum is the
  // row-parallel GEMM's output, in the residual stream's width: at least 16 bits even when the
  // GEMM inputs are fp8/int8 (summing 8-bit partials would lose the precision the residual
  // keeps, and the NCCL of the measured stacks had no 8-bit float type; docs/validation.md).
  double partial_sum_width() const { return std::max(a_, 2.0); }

  Operator all_reduce(const char* name) const {
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
    return finish(op);
  }

  // The estimate's link time of a layer's all-reduce: one call per chunk, each summing that
  // chunk's partial layer output (rows·d values in at least 16 bits), timed as NCCL's fastest
  // algorithm/protocol for its size plus the profile's fitted per-call overhead.
  double estimated_all_reduce_seconds() const {
    const double row_bytes = static_cast<double>(m_.d_model) * partial_sum_width();
    const Accelerator& hw = s_.hardware;
    double total = 0;
    for_each_chunk_rows([&](double chunk_rows, double times) {
      total += times *
               (hw.estimate.all_reduce_overhead_seconds +
                all_reduce_call_seconds(chunk_rows * row_bytes, devices_, link_bandwidth_,
                                        hw.interconnect_kind, hw.interconnect_reduces_in_network));
    });
    return total;
  }

  // Whether one GQA group's K/V for the longest chunk fits the L2 share of the groups in flight:
  // one thread block per SM, each group running (h_q/h_kv)·⌈C/b⌉ blocks.
  bool group_kv_fits_l2(const AttentionSums& sums) const {
    const double group_bytes =
        sums.largest_visible_keys * 2 * static_cast<double>(m_.head_dim) * c_;
    const double blocks_per_group = static_cast<double>(m_.query_heads / m_.kv_heads) *
                                    ceil_div(static_cast<double>(pass_.chunk), block_);
    const double groups_in_flight =
        std::clamp(ceil_div(static_cast<double>(std::max<int64_t>(1, s_.hardware.compute_units)),
                            blocks_per_group),
                   1.0, batch_ * static_cast<double>(m_.kv_heads));
    return group_bytes <= s_.hardware.l2_bytes / groups_in_flight;
  }

  static IntervalFamily interval_family(const Operator& op) {
    switch (op.family) {
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

  static Operator with_family(Family family, Operator op) {
    op.family = family;
    return op;
  }

  static Operator per_layer(Operator op) {
    op.per_layer = true;
    return op;
  }

  Operator norm(const char* name, double count, double rows) const {
    const double d = static_cast<double>(m_.d_model);
    // Reads the hidden state and the residual, writes both; the gain vector is read per chunk.
    return finish(Operator{name, 2, count, chunks_, rows * d * kNormFlopsPerElement,
                           rows * d * kNormFlopsPerElement,
                           HbmBytes{chunks_ * d * w_, 4 * rows * d * a_, 0, 0}});
  }

  const Scenario& s_;
  const ModelShape& m_;
  Pass pass_;
  bool estimate_ = false;
  double gemm_peak_, expert_peak_, attention_peak_, link_bandwidth_, gap_seconds_, block_;
  double memory_latency_ = 0, units_ = 0;
  bool multi_device_ = false;
  double devices_;
  double w_, table_, a_, c_, score_, batch_, layers_, chunks_, tokens_, rows_, bandwidth_;
};

Totals sum(const std::vector<Operator>& ops) {
  Totals totals;
  for (const Operator& op : ops) {
    totals.flops += op.count * op.flops;
    totals.hbm_bytes += op.count * op.hbm.total();
    totals.seconds += op.count * op.seconds;
    totals.overhead_seconds += op.count * op.overhead_seconds;
    totals.seconds_low += op.count * op.seconds_low;
    totals.seconds_high += op.count * op.seconds_high;
  }
  return totals;
}

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

std::optional<Bound> dominant_bound(const std::vector<Operator>& ops) {
  BoundTimes times;
  for (const Operator& op : ops) times.add(op);
  return times.dominant();
}

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
      static_cast<double>(s.workload.batch) * static_cast<double>(m.vocab) * kLogitBytes;
  ledger.temporaries_bytes =
      ledger.residual_bytes +
      std::max({ledger.attention_workspace_bytes, ledger.mlp_workspace_bytes, ledger.logits_bytes});
  ledger.peak_bytes = ledger.weight_bytes + ledger.kv_bytes + ledger.temporaries_bytes;
  ledger.capacity_bytes = s.hardware.memory_capacity;
  ledger.fits = ledger.peak_bytes <= ledger.capacity_bytes;
  ledger.exceeds_by_bytes = ledger.fits ? 0 : ledger.peak_bytes - ledger.capacity_bytes;
  return ledger;
}

const char* const kStepTitles[5] = {
    "Prepare embeddings and schedule layers", "Projections as matrix–matrix work",
    "Causal attention and the KV state", "Temporaries, workspaces and fit",
    "Queueing, execution and first-token delivery"};

std::vector<std::string_view> assumptions(const Scenario& s) {
  static constexpr std::string_view kAlways[] = {
      "Dense projection work counts multiply and add separately: F = 2·rows·d_in·d_out.",
      "No overlap between kernels.",
      "QKV and gate/up projections are fused GEMMs; residual adds are fused into the norms.",
      "Normalization is charged 5 FLOPs per element, softmax 5 per score, SiLU·gate 5, ReLU 1, "
      "sampling 5 per logit; rotary embeddings and biases are not counted.",
      "Tile quantization: a GEMM computes ⌈rows/m⌉·m rows (fewer rows than m: rounded up to 16); "
      "attention computes whole key blocks.",
      "LM head runs on the last prompt position of each request only; logits are fp32.",
      "Peak device memory = weights + KV state + the largest simultaneous temporaries; allocator "
      "fragmentation and runtime reservations are not counted.",
      "Queueing is M/D/1 (Poisson arrivals, deterministic service) per batch of B requests, plus "
      "(B−1)/(2λ) batch-formation wait.",
      "Capacity and bandwidth are the datasheet's decimal figures.",
      "Quantised weights (int4, int8, fp8) apply to the layers' linear weights; the embedding "
      "table and LM head stay 16-bit, as AWQ, GPTQ and FP8 checkpoints keep them.",
  };
  std::vector<std::string_view> list;
  list.reserve(std::size(kAlways) + 6);  // + timing, attention, parallelism, block, window, MoE
  list.assign(std::begin(kAlways), std::end(kAlways));
  if (s.workload.timing == Timing::bound) {
    list.push_back(
        "Timing 'bound': per kernel t = max(FLOPs/P, HBM bytes/β, link bytes/link bandwidth) at "
        "the datasheet peaks (η = 1 unless set) over compulsory traffic only — weights, inputs "
        "and outputs once per chunk, K/V of earlier chunks once per later chunk. A lower bound on "
        "time: host launch overhead is reported beside the total, not inside it.");
  } else {
    list.push_back(
        "Timing 'estimate': the accelerator's calibrated profile (efficiencies for GEMMs, "
        "attention and HBM traffic fitted on published measurements, docs/validation.md); "
        "attention re-reads K/V per query block unless a GQA group's K/V fits its share of L2; "
        "each launch adds the fitted per-kernel gap (graphs off) or the graph gap (graphs on).");
  }
  if (s.workload.attention == AttentionKind::fused) {
    list.push_back(
        "Fused attention keeps scores on chip and shares K/V across a GQA group; tile edge b = "
        "FlashAttention's B_r unless set.");
  } else {
    list.push_back(
        "Materialized attention computes the full rectangle of scores, then masks; the score "
        "matrix is written, read and rewritten by softmax, and read by score·V.");
  }
  if (s.workload.tensor_parallel > 1) {
    list.push_back(
        "Tensor parallelism (Megatron): each device holds 1/N of the query heads, MLP columns and "
        "LM-head rows; key/value heads split, or are replicated when N exceeds them; the "
        "embedding table and norms are replicated. Every figure is per device. The attention "
        "output and MLP down projection are each followed by an all-reduce of the layer output, "
        "not overlapped with compute; the logit gather is not counted. Bound: (N−1)/N of it each "
        "way at the one-way link bandwidth. Estimate: NCCL's fastest ring (LL, LL128, Simple) "
        "or NVLS choice by NCCL's own latency and bandwidth model, plus a fitted per-call "
        "cost.");
  } else {
    list.push_back("One device: no tensor parallelism.");
  }
  if (s.model.parallel_attention && s.workload.tensor_parallel > 1) {
    list.push_back(
        "Parallel attention and MLP: both read the same normalised input and add to one "
        "residual, so one all-reduce per layer sums both partial outputs (block_all_reduce), as "
        "TensorRT-LLM's Falcon layer does.");
  }
  if (s.model.sliding_window > 0) {
    list.push_back(
        "Sliding-window attention: each query sees itself and the W − 1 keys before it; only the "
        "last W positions' K/V are kept for decode (a rolling buffer), though all are written.");
  }
  if (s.model.experts > 1) {
    list.push_back(
        "Mixture of experts: uniform routing; expected distinct experts per chunk E·(1 − (1 − "
        "k/E)^R).");
  }
  return list;
}

}  // namespace

const char* family_name(Family family) {
  switch (family) {
    case Family::gemm:
      return "gemm";
    case Family::expert_gemm:
      return "expert_gemm";
    case Family::attention:
      return "attention";
    case Family::memory:
      return "memory";
    case Family::interconnect:
      return "interconnect";
  }
  return "?";
}

const char* bound_name(Bound bound) {
  switch (bound) {
    case Bound::compute:
      return "compute";
    case Bound::memory:
      return "memory";
    case Bound::overhead:
      return "overhead";
    case Bound::interconnect:
      return "interconnect";
  }
  return "?";
}

const Operator* find_operator(const Trace& trace, std::string_view name) {
  for (const Operator& op : trace.operators) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

ModelShape device_shard(const ModelShape& model, int64_t devices) {
  ModelShape shard = model;
  if (devices == 1) return shard;
  shard.query_heads = model.query_heads / devices;
  shard.kv_heads = std::max<int64_t>(1, model.kv_heads / devices);
  shard.d_ff = model.d_ff / devices;
  shard.vocab = (model.vocab + devices - 1) / devices;
  return shard;
}

double parameters_per_device(const ModelShape& model, int64_t devices) {
  if (devices == 1) return parameter_count(model);
  const ModelShape shard = device_shard(model, devices);
  const double d = static_cast<double>(model.d_model);
  // The shard's own count has ⌈V/N⌉ rows for both tables; the embedding table is replicated.
  const double lm_head_rows = model.tied_embeddings ? 0 : static_cast<double>(shard.vocab);
  return parameter_count(shard) -
         static_cast<double>(shard.vocab) * d * (model.tied_embeddings ? 1 : 2) +
         static_cast<double>(model.vocab) * d + lm_head_rows * d;
}

double parameter_count(const ModelShape& m) {
  const double d = static_cast<double>(m.d_model);
  const double attention = d * static_cast<double>(m.query_heads * m.head_dim) * 2 +
                           d * static_cast<double>(2 * m.kv_heads * m.head_dim);
  const double mlp = static_cast<double>(m.experts) * (m.mlp == MlpKind::gated ? 3 : 2) * d *
                         static_cast<double>(m.d_ff) +
                     (m.experts > 1 ? d * static_cast<double>(m.experts) : 0);
  const double per_layer = attention + mlp + 2 * d;  // two norm gains
  const double embeddings = static_cast<double>(m.vocab) * d * (m.tied_embeddings ? 1 : 2);
  return static_cast<double>(m.layers) * per_layer + embeddings + d;  // + final norm
}

std::optional<double> md1_wait_seconds(double arrival_rate, double service_seconds) {
  const double rho = arrival_rate * service_seconds;
  if (rho >= 1) return std::nullopt;
  return arrival_rate * service_seconds * service_seconds / (2 * (1 - rho));
}

Ttft time_to_first_token(double execution_seconds, double delivery_compute_seconds,
                         const Workload& work) {
  Ttft ttft;
  const double batch = static_cast<double>(work.batch);
  ttft.execution_seconds = execution_seconds;
  ttft.delivery_seconds = delivery_compute_seconds + work.delivery_seconds;
  ttft.service_seconds = execution_seconds + delivery_compute_seconds;
  ttft.saturation_arrival_rate = batch / ttft.service_seconds;
  if (work.arrival_rate > 0) {
    // Batches of B form at λ/B; each is one deterministic service of the device.
    const double batch_rate = work.arrival_rate / batch;
    ttft.utilization = batch_rate * ttft.service_seconds;
    ttft.batch_formation_seconds = (batch - 1) / (2 * work.arrival_rate);
    const auto wait = md1_wait_seconds(batch_rate, ttft.service_seconds);
    ttft.overloaded = !wait.has_value();
    if (wait) ttft.queue_seconds = *wait + ttft.batch_formation_seconds;
  } else {
    ttft.queue_seconds = 0.0;
  }
  if (ttft.queue_seconds)
    ttft.total_seconds = *ttft.queue_seconds + ttft.execution_seconds + ttft.delivery_seconds;
  return ttft;
}

namespace {

// Everything one prefill trace derives its facts from: the scenario, the pass over the prompt,
// the attention schedule and the byte widths, worked out once.
struct TraceInputs {
  const Scenario& scenario;  // with the model's shard on one device (the whole model at N = 1)
  const ModelShape& whole_model;
  Pass prefill;
  int64_t block;
  AttentionSums sums;
  ByteWidths widths;
};

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
                                 const OperatorBuilder& builder, double ridge) {
  const ModelShape& m = in.scenario.model;
  const double tokens = static_cast<double>(in.scenario.workload.prompt_tokens);
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
    const Operator example = builder.finish(
        builder.gemm_rows("reuse", 2, 1, GemmShape{m.d_model, m.query_heads * m.head_dim},
                          static_cast<double>(rows), 1, 1));
    proj.reuse_example.push_back(ReuseExample{
        rows, example.intensity, example.hbm.weights / static_cast<double>(rows), example.bound});
  }
  return proj;
}

double kv_bytes_per_token(const TraceInputs& in) {
  const ModelShape& m = in.scenario.model;
  return 2 * static_cast<double>(m.layers) * static_cast<double>(m.kv_heads * m.head_dim) *
         in.widths.kv;
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
  // The embedding table is replicated on every device; the LM head is split by vocabulary rows.
  const ModelShape& model = in.whole_model;
  const double table_parameters =
      static_cast<double>(model.d_model) *
      (static_cast<double>(model.vocab) +
       (model.tied_embeddings ? 0 : static_cast<double>(in.scenario.model.vocab)));
  const double weight_bytes =
      parameters_per_device(model, work.tensor_parallel) * in.widths.weights +
      table_parameters * (in.widths.tables - in.widths.weights);
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

// Step 5: execution is every kernel before delivery; delivery is the LM head and sampling.
Ttft ttft_of(const std::vector<Operator>& ops, const Workload& work) {
  double execution = 0;
  double delivery_compute = 0;
  for (const Operator& op : ops) {
    (op.step == 5 ? delivery_compute : execution) += op.count * op.seconds;
  }
  return time_to_first_token(execution, delivery_compute, work);
}

// The five steps with their kernels and totals. Sized up front and moved in: allocation is the
// dearest thing the trace does, in wasm most of all (the allocator is compiled to wasm too).
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
      step.totals.flops += op.count * op.flops;
      step.totals.hbm_bytes += op.count * op.hbm.total();
      step.totals.seconds += op.count * op.seconds;
      step.totals.overhead_seconds += op.count * op.overhead_seconds;
    }
    step.bound = times.dominant();
    steps.push_back(std::move(step));
  }
  return steps;
}

// One decode step at context T for the same B requests.
DecodeComparison decode_comparison(const TraceInputs& in, const Trace& trace) {
  const Pass decode_pass{1, 1, in.scenario.workload.prompt_tokens};
  OperatorBuilder decode_builder(in.scenario, decode_pass);
  const auto decode_ops = decode_builder.build(
      attention_sums(decode_pass, static_cast<double>(in.block), window_of(in.scenario.model)));
  const Totals decode_totals = sum(decode_ops);
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

}  // namespace

Trace compute_trace(const Scenario& scenario, const std::vector<std::string>& mechanism,
                    const TraceOptions& options) {
  const Workload& work = scenario.workload;
  Trace trace;
  trace.scenario = scenario;
  trace.parameters = parameter_count(scenario.model);
  // Every kernel, byte and ledger entry below is one device's: the model's shard on it.
  Scenario device_scenario = scenario;
  device_scenario.model = device_shard(scenario.model, work.tensor_parallel);
  const Scenario& device = device_scenario;

  const int64_t chunk =
      work.chunk_tokens == 0 ? work.prompt_tokens : std::min(work.chunk_tokens, work.prompt_tokens);
  const Pass prefill{work.prompt_tokens, chunk, 0};
  const int64_t block = flash_block(device);
  const TraceInputs in{device,
                       scenario.model,
                       prefill,
                       block,
                       attention_sums(prefill, static_cast<double>(block), window_of(device.model)),
                       byte_widths(scenario.precision)};
  OperatorBuilder builder(device, prefill);
  trace.operators = builder.build(in.sums);
  trace.totals = sum(trace.operators);

  // The GEMM roofs of this timing: what the projections' bounds and the ridge point use.
  const bool estimate = work.timing == Timing::estimate;
  const EstimateProfile& profile = scenario.hardware.estimate;
  const double peak = scenario.hardware.peak_flops.at(scenario.precision.activations) *
                      work.compute_efficiency.value_or(estimate ? profile.gemm_efficiency : 1);
  const double bandwidth =
      scenario.hardware.memory_bandwidth *
      work.memory_efficiency.value_or(estimate ? profile.memory_efficiency : 1);
  const double ridge = peak / bandwidth;
  trace.roofline = Roofline{work.timing, peak, bandwidth, ridge};

  trace.embedding = embedding_facts(trace.operators, scenario.hardware, scenario.model.layers);
  trace.projection = projection_facts(in, trace.operators, builder, ridge);
  trace.attention = attention_facts(in);
  memory_and_chunking(in, trace, trace.memory, trace.chunking);
  trace.ttft = ttft_of(trace.operators, work);
  // The whole prefill's interval is fitted on whole-prefill measurements (docs/validation.md),
  // not summed from the kernels' (their errors are not independent).
  if (estimate) {
    const auto& range = profile.interval[static_cast<std::size_t>(
        work.tensor_parallel > 1 ? IntervalFamily::end_to_end_parallel
                                 : IntervalFamily::end_to_end_single)];
    trace.totals.seconds_low = trace.totals.seconds * range[0];
    trace.totals.seconds_high = trace.totals.seconds * range[1];
    if (trace.ttft.total_seconds) {
      const double service = trace.ttft.service_seconds;
      trace.ttft.total_seconds_low = *trace.ttft.total_seconds - service * (1 - range[0]);
      trace.ttft.total_seconds_high = *trace.ttft.total_seconds + service * (range[1] - 1);
    }
  } else {
    trace.ttft.total_seconds_low = trace.ttft.total_seconds;
    trace.ttft.total_seconds_high = trace.ttft.total_seconds;
  }
  trace.steps = mechanism_steps(trace.operators, mechanism);
  if (options.decode_comparison) trace.decode = decode_comparison(in, trace);
  trace.assumptions = assumptions(scenario);
  return trace;
}

Result<std::vector<SweepPoint>> sweep(const Scenario& scenario, SweepVariable variable,
                                      const std::vector<double>& values) {
  if (values.empty() || values.size() > max_sweep_points) {
    return Error{"sweep: between 1 and " + std::to_string(max_sweep_points) + " points, not " +
                 std::to_string(values.size())};
  }
  const auto point = [](double value, const Ttft& ttft) {
    return SweepPoint{value,
                      ttft.queue_seconds,
                      ttft.execution_seconds,
                      ttft.delivery_seconds,
                      ttft.total_seconds,
                      ttft.overloaded};
  };
  std::vector<SweepPoint> points;
  points.reserve(values.size());
  Scenario point_scenario = scenario;
  // The arrival rate changes only the queue: trace once, then re-evaluate M/D/1 per point.
  std::optional<Trace> fixed;
  if (variable == SweepVariable::arrival_rate)
    fixed = compute_trace(scenario, {}, TraceOptions{false});
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double value = values[i];
    const std::string where = "sweep value " + std::to_string(i);
    if (!std::isfinite(value)) return Error{where + ": must be a finite number"};
    if (variable == SweepVariable::prompt_tokens) {
      if (value < 1 || value > static_cast<double>(limits::max_prompt_tokens) ||
          value != std::floor(value)) {
        return Error{where + ": prompt_tokens must be an integer from 1 to " +
                     std::to_string(limits::max_prompt_tokens)};
      }
      point_scenario.workload.prompt_tokens = static_cast<int64_t>(value);
      const int64_t chunk = point_scenario.workload.chunk_tokens;
      if (chunk > 0 &&
          (point_scenario.workload.prompt_tokens + chunk - 1) / chunk > limits::max_chunks) {
        return Error{where + ": too many chunks for chunk_tokens " + std::to_string(chunk)};
      }
      points.push_back(point(value, compute_trace(point_scenario, {}, TraceOptions{false}).ttft));
    } else {
      if (value < 0 || value > limits::max_arrival_rate) {
        return Error{where + ": arrival_rate must be from 0 to 1e9 requests/s"};
      }
      point_scenario.workload.arrival_rate = value;
      const Ttft& base = fixed->ttft;
      points.push_back(point(
          value,
          time_to_first_token(base.execution_seconds, base.service_seconds - base.execution_seconds,
                              point_scenario.workload)));
    }
  }
  return points;
}

}  // namespace prefill_trace
