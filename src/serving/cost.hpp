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

#include "limits.hpp"
#include "trace/operator_model.hpp"
#include "trace/roofs.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {

/// One device's kernels for an iteration whose rows mix requests, from the trace's operator
/// model. Figures per device and per run (`count` runs: layers for per-layer kernels).
class IterationOperators {
 public:
  /// `scenario` is the whole model; the device's shard is taken from its tensor_parallel.
  /// `decode`: timed at the decode step's roofs (Roofs::decode).
  explicit IterationOperators(const Scenario& scenario, bool decode = false);
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
  /// Sizes the decode cache for the run's longest context (`contexts`), up to
  /// limits::max_decode_cache_slots, instead of growing it as the run's contexts rise.
  void reserve_decode_contexts(int64_t contexts) { grow_decode_cache(contexts); }
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
  };
  PieceCost piece(int64_t tokens, int64_t prior) const;
  // A decode cache slot: the piece of the context it holds (−1: none).
  struct DecodeSlot {
    PieceCost cost;
    int64_t context = -1;
  };
  // The attention of a decode row at `context` keys, cached by context in a direct-mapped table
  // (slot = context mod its power-of-two size): below the size every context has its own slot,
  // as a plain array would; above it, two running requests share a slot only when their contexts
  // differ by a multiple of the size, and a miss recomputes the same figures (same bits).
  const PieceCost& decode_piece(int64_t context) {
    if (!decode_cache_.empty()) {
      const DecodeSlot& slot =
          decode_cache_[static_cast<std::size_t>(context) & (decode_cache_.size() - 1)];
      if (slot.context == context) return slot.cost;
    }
    return decode_piece_uncached(context);
  }
  const PieceCost& decode_piece_uncached(int64_t context);
  // Sizes the table to the power of two above `contexts`, at most max_decode_cache_slots.
  void grow_decode_cache(int64_t contexts);
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
  // An iteration with no prefill chunk is a decode step: timed at the decode roofs (the
  // profile's decode η_m and floor, docs/model.md "Decode steps"), with caches of its own. An
  // iteration that carries a chunk keeps the prefill roofs for all its kernels.
  IterationOperators decode_ops_;
  std::vector<double> decode_token_cache_;
  std::vector<double> decode_head_cache_;
  int64_t prefill_rows_ = 0;
  // The attention kernels' names, families and counts, as one launch without link traffic: the
  // summed kernels seconds() times.
  std::vector<Operator> attention_shape_;
  int kernels_ = 0;  // min(attention_shape_.size(), kMaxAttentionKernels)
  double kv_bytes_per_token_ = 0;
  std::vector<double> token_cache_;  // by rows; < 0 = not computed
  std::vector<double> head_cache_;   // by sampling requests
  // By context: 80 bytes a slot. Sized by the longest context (2^24 tokens), it took 1.3 GB and
  // aborted the wasm module; capped at limits::max_decode_cache_slots, it takes at most 5.2 MB.
  std::vector<DecodeSlot> decode_cache_;
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
