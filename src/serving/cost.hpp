#pragma once
// The time of one serving iteration on one instance, from the trace's operator model
// (src/trace/operator_model.hpp, the same formulas the lesson's trace shows, never a separate
// fit): the token-parallel kernels (embedding, norms, the
// GEMMs with p + d rows, K/V write, all-reduces) over every row of the iteration at once; each
// request's attention at its own context, summed into one kernel per layer (as a varlen or paged
// attention kernel runs them) and timed at the roofline of the summed work; the LM head and
// sampling over the requests that emit a token. Costs are cached by shape — token rows, decode
// context, sampling requests — so a 10,000-request run computes each shape once.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "trace.hpp"
#include "trace/operator_model.hpp"
#include "trace/roofs.hpp"

namespace prefill_trace {

/// One device's kernels for an iteration whose rows mix requests, from the trace's operator
/// model. Figures per device and per run (`count` runs: layers for per-layer kernels).
class IterationOperators {
 public:
  /// `scenario` is the whole model; the device's shard is taken from its tensor_parallel.
  explicit IterationOperators(const Scenario& scenario);
  // `single_row_` refers to `device_`: the object stays where it was built.
  IterationOperators(const IterationOperators&) = delete;
  IterationOperators& operator=(const IterationOperators&) = delete;
  /// Embedding, norms, projections, MLP, K/V write and all-reduces over `rows` token rows.
  std::vector<Operator> token_operators(int64_t rows) const;
  /// The attention kernel(s) of one request: `query_tokens` new rows after `prior_tokens` keys.
  std::vector<Operator> attention_operators(int64_t query_tokens, int64_t prior_tokens) const;
  /// LM head and sampling for `requests` last positions.
  std::vector<Operator> head_operators(int64_t requests) const;
  /// The seconds of an operator whose FLOPs and bytes were summed over requests: one kernel,
  /// one launch.
  double seconds(const Operator& op) const;
  const Scenario& device() const { return device_; }

 private:
  Scenario device_;  // the model's shard, batch 1
  Roofs roofs_;
  OperatorModel single_row_;  // times summed kernels (built once: seconds() runs every iteration)
};

class IterationCost {
 public:
  /// `scenario` with its tensor_parallel set to the instance's degree.
  explicit IterationCost(const Scenario& scenario);

  /// Starts an iteration; then add its pieces and read seconds().
  void begin();
  /// A prefill chunk of `tokens` new rows of one request after `prior` keys (cached or computed).
  void add_prefill(int64_t tokens, int64_t prior);
  /// One decode row per request, in order, whose context holds `contexts[i]` keys before it.
  /// All of an iteration's rows at once: the simulation's innermost loop.
  void add_decodes(const std::vector<int64_t>& contexts);
  /// Sizes the decode cache for every context below `contexts` (the run's longest request).
  void reserve_decode_contexts(int64_t contexts) {
    if (contexts > static_cast<int64_t>(decode_cache_.size()))
      decode_cache_.resize(static_cast<std::size_t>(contexts));
  }
  /// Requests that emit a token at the end of the iteration (decodes and finished prefills).
  void add_sampled(int64_t requests) { sampled_ += requests; }
  /// The iteration's device time.
  double seconds();

  double kv_bytes_per_token() const { return kv_bytes_per_token_; }
  /// Operator-model evaluations so far (cache misses), the costly part of a call's work.
  int64_t evaluations() const { return evaluations_; }

 private:
  static constexpr int kMaxAttentionKernels = 3;  // materialized: scores, softmax, values
  struct PieceCost {
    double flops[kMaxAttentionKernels] = {0, 0, 0};
    double computed_flops[kMaxAttentionKernels] = {0, 0, 0};
    double bytes[kMaxAttentionKernels] = {0, 0, 0};
    bool known = false;
  };
  PieceCost piece(int64_t tokens, int64_t prior) const;
  // The attention of a decode row at `context` keys, cached by context.
  const PieceCost& decode_piece(int64_t context) {
    const auto index = static_cast<std::size_t>(context);
    if (index < decode_cache_.size() && decode_cache_[index].known) return decode_cache_[index];
    return decode_piece_uncached(index);
  }
  const PieceCost& decode_piece_uncached(std::size_t context);
  // Adds a piece's work to the iteration's sums, request after request in the order added (the
  // same additions in the same order, so the same bits natively and in wasm). Only the model's
  // attention kernels are summed: the other slots stay 0.
  void add(const PieceCost& cost) {
    // Every model has a first attention kernel (kernels_ ≥ 1): summed without a loop, as it
    // runs once per prefill chunk, and per decode row of a materialized-attention model.
    sum_.flops[0] += cost.flops[0];
    sum_.computed_flops[0] += cost.computed_flops[0];
    sum_.bytes[0] += cost.bytes[0];
    for (int k = 1; k < kernels_; ++k) {
      sum_.flops[k] += cost.flops[k];
      sum_.computed_flops[k] += cost.computed_flops[k];
      sum_.bytes[k] += cost.bytes[k];
    }
  }
  double token_seconds(int64_t rows);
  double head_seconds(int64_t requests);

  IterationOperators ops_;
  // The attention kernels' names, families and counts, as one launch without link traffic: the
  // summed kernels seconds() times.
  std::vector<Operator> attention_shape_;
  int kernels_ = 0;  // min(attention_shape_.size(), kMaxAttentionKernels)
  double kv_bytes_per_token_ = 0;
  std::vector<double> token_cache_;      // by rows; < 0 = not computed
  std::vector<double> head_cache_;       // by sampling requests
  std::vector<PieceCost> decode_cache_;  // by context
  // Prefill chunks by (tokens << 32 | prior): a chunk's attention is one operator-model call
  // (~2k instructions), the lookup a few dozen; prompts repeat across a run and across the
  // runs of a goodput search or sweep. Cleared when it reaches kMaxCachedChunks.
  static constexpr std::size_t kMaxCachedChunks = std::size_t{1} << 18;
  std::unordered_map<uint64_t, PieceCost> prefill_cache_;
  int64_t rows_ = 0;
  int64_t sampled_ = 0;
  mutable int64_t evaluations_ = 0;  // counted in piece(), const as a computation
  PieceCost sum_;
};

}  // namespace prefill_trace
