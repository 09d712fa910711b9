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
#include <vector>

#include "trace.hpp"
#include "trace/roofs.hpp"

namespace prefill_trace {

/// One device's kernels for an iteration whose rows mix requests, from the trace's operator
/// model. Figures per device and per run (`count` runs: layers for per-layer kernels).
class IterationOperators {
 public:
  /// `scenario` is the whole model; the device's shard is taken from its tensor_parallel.
  explicit IterationOperators(const Scenario& scenario);
  /// Embedding, norms, projections, MLP, K/V write and all-reduces over `rows` token rows.
  std::vector<Operator> token_operators(int64_t rows) const;
  /// The attention kernel(s) of one request: `query_tokens` new rows after `prior_tokens` keys.
  std::vector<Operator> attention_operators(int64_t query_tokens, int64_t prior_tokens) const;
  /// LM head and sampling for `requests` last positions.
  std::vector<Operator> head_operators(int64_t requests) const;
  /// Times an operator whose FLOPs and bytes were summed over requests: one kernel, one launch.
  Operator timed(Operator op) const;
  const Scenario& device() const { return device_; }

 private:
  Scenario device_;  // the model's shard, batch 1
  Roofs roofs_;
};

class IterationCost {
 public:
  /// `scenario` with its tensor_parallel set to the instance's degree.
  explicit IterationCost(const Scenario& scenario);

  /// Starts an iteration; then add its pieces and read seconds().
  void begin();
  /// A prefill chunk of `tokens` new rows of one request after `prior` keys (cached or computed).
  void add_prefill(int64_t tokens, int64_t prior);
  /// One decode row of a request whose context holds `context` keys before it.
  void add_decode(int64_t context);
  /// Requests that emit a token at the end of the iteration (decodes and finished prefills).
  void add_sampled(int64_t requests) { sampled_ += requests; }
  /// The iteration's device time.
  double seconds();

  double kv_bytes_per_token() const { return kv_bytes_per_token_; }

 private:
  static constexpr int kMaxAttentionKernels = 3;  // materialized: scores, softmax, values
  struct PieceCost {
    double flops[kMaxAttentionKernels] = {0, 0, 0};
    double computed_flops[kMaxAttentionKernels] = {0, 0, 0};
    double bytes[kMaxAttentionKernels] = {0, 0, 0};
    bool known = false;
  };
  PieceCost piece(int64_t tokens, int64_t prior) const;
  void add(const PieceCost& cost);
  double token_seconds(int64_t rows);
  double head_seconds(int64_t requests);

  IterationOperators ops_;
  std::vector<Operator> attention_shape_;  // the attention kernels' names, families and counts
  double kv_bytes_per_token_ = 0;
  std::vector<double> token_cache_;      // by rows; < 0 = not computed
  std::vector<double> head_cache_;       // by sampling requests
  std::vector<PieceCost> decode_cache_;  // by context
  int64_t rows_ = 0;
  int64_t sampled_ = 0;
  PieceCost sum_;
};

}  // namespace prefill_trace
