#pragma once
// The causal attention schedule: how the prompt is cut into chunks, which (query, key) pairs
// each chunk computes under a blocked (FlashAttention) or a materialized schedule, and the tile
// edge b. Per request and per query head; the operator model multiplies by heads and batch.

#include <cmath>
#include <cstdint>

#include "scenario/scenario.hpp"

namespace prefill_trace {

inline double ceil_div(double a, double b) {
  return std::ceil(a / b);
}

inline double window_of(const ModelShape& model) {
  return static_cast<double>(model.sliding_window);
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

/// The schedule of `pass` with square tiles of edge `block` under a sliding window of `window`
/// keys (0: none).
AttentionSums attention_sums(const Pass& pass, double block, double window);

/// FlashAttention's tile edge for this scenario (arXiv 2205.14135, Algorithm 1), unless the
/// workload sets one.
int64_t flash_block(const Scenario& scenario);

/// The arithmetic type of the attention kernel's QKᵀ and P·V. The bound keeps the activations'
/// type (FP8 attention exists: FlashAttention-3's FP8 forward). The estimate models the kernels
/// stacks run by default, which compute attention in 16 bits even when GEMMs run in FP8 or
/// integers (FlashAttention-2/3's default path, FlashInfer, TensorRT-LLM's context FMHA unless
/// FP8 context attention is switched on): bf16 there, when the accelerator states a bf16 peak.
DType attention_arithmetic(const Scenario& scenario);

}  // namespace prefill_trace
