#include "trace/attention_schedule.hpp"

#include <algorithm>

namespace prefill_trace {
namespace {

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

// Blocked causal schedule without a window: query block j (b rows, the last r = rows mod b)
// streams key blocks up to the one holding its last key; key blocks are aligned to multiples
// of b.
void add_causal_chunk(AttentionSums& sums, double rows, double prior, double b) {
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

}  // namespace

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
      add_causal_chunk(sums, rows, prior, b);
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
      scenario.hardware.sram_per_unit_bytes / bytes_per_element(attention_arithmetic(scenario));
  const auto b_c =
      static_cast<int64_t>(ceil_div(elements, 4.0 * static_cast<double>(scenario.model.head_dim)));
  return std::max<int64_t>(1, std::min(b_c, scenario.model.head_dim));
}

DType attention_arithmetic(const Scenario& scenario) {
  const DType activations = scenario.precision.activations;
  const bool narrow = bytes_per_element(activations) < bytes_per_element(DType::bf16);
  if (scenario.workload.timing == Timing::estimate && narrow &&
      scenario.hardware.peak_flops.has(DType::bf16)) {
    return DType::bf16;
  }
  return activations;
}

}  // namespace prefill_trace
