#include "serving/cost.hpp"

#include <algorithm>

#include "trace/attention_schedule.hpp"
#include "trace/device_shard.hpp"
#include "trace/operator_model.hpp"

namespace prefill_trace {

namespace {
Scenario device_of(const Scenario& scenario) {
  Scenario device = scenario;
  device.model = device_shard(scenario.model, scenario.workload.tensor_parallel);
  device.workload.batch = 1;
  device.workload.chunk_tokens = 0;
  return device;
}

// The summed seconds (count × seconds) of the operators `operators()` returns, computed once per
// `key` and kept in `cache` (indexed by key; < 0 = not computed). The cache grows by half again
// plus `slack`, so a key that rises a little at a time does not resize it on every call.
// `evaluations` counts the computations (the call's work, src/serving/work.hpp).
template <typename MakeOperators>
double cached_seconds(std::vector<double>& cache, int64_t key, std::size_t slack,
                      int64_t& evaluations, MakeOperators operators) {
  const auto index = static_cast<std::size_t>(key);
  if (index >= cache.size()) cache.resize(index + index / 2 + slack, -1.0);
  double& cached = cache[index];
  if (cached < 0) {
    ++evaluations;
    double seconds = 0;
    for (const Operator& op : operators()) seconds += op.count * op.seconds;
    cached = seconds;
  }
  return cached;
}
}  // namespace

IterationOperators::IterationOperators(const Scenario& scenario, bool decode)
    : device_(device_of(scenario)),
      roofs_(decode ? roofs_of(scenario).decode() : roofs_of(scenario)),
      single_row_(device_, roofs_, Pass{1, 1, 0}) {}

std::vector<Operator> IterationOperators::token_operators(int64_t rows) const {
  const Pass pass{rows, rows, 0};
  const OperatorModel model(device_, roofs_, pass);
  const auto block = static_cast<double>(flash_block(device_));
  std::vector<Operator> ops =
      model.operators(attention_sums(pass, block, window_of(device_.model)));
  // The attention kernels are the requests' own (attention_operators); the LM head and sampling
  // run over the sampling requests only (head_operators). The K/V write is per token: kept.
  ops.erase(std::remove_if(ops.begin(), ops.end(),
                           [](const Operator& op) {
                             return op.step == 5 || (op.step == 3 && op.name != "kv_cache_write");
                           }),
            ops.end());
  return ops;
}

std::vector<Operator> IterationOperators::attention_operators(int64_t query_tokens,
                                                              int64_t prior_tokens) const {
  const Pass pass{query_tokens, query_tokens, prior_tokens};
  const OperatorModel model(device_, roofs_, pass);
  const auto block = static_cast<double>(flash_block(device_));
  std::vector<Operator> ops =
      model.attention(attention_sums(pass, block, window_of(device_.model)));
  ops.erase(ops.begin());  // kv_cache_write: a token-parallel kernel
  return ops;
}

std::vector<Operator> IterationOperators::head_operators(int64_t requests) const {
  Scenario heads = device_;
  heads.workload.batch = requests;
  const Pass pass{1, 1, 0};
  const OperatorModel model(heads, roofs_, pass);
  const auto block = static_cast<double>(flash_block(heads));
  std::vector<Operator> ops = model.operators(attention_sums(pass, block, window_of(heads.model)));
  ops.erase(std::remove_if(ops.begin(), ops.end(), [](const Operator& op) { return op.step != 5; }),
            ops.end());
  return ops;
}

double IterationOperators::seconds(const Operator& op) const {
  return single_row_.seconds(op);
}

IterationCost::IterationCost(const Scenario& scenario)
    : ops_(scenario), decode_ops_(scenario, true) {
  attention_shape_ = ops_.attention_operators(1, 0);
  for (Operator& kernel : attention_shape_) {
    kernel.launches = 1;
    kernel.link_bytes = 0;
  }
  kernels_ = static_cast<int>(std::min<std::size_t>(
      attention_shape_.size(), static_cast<std::size_t>(kMaxAttentionKernels)));
  const ModelShape& shard = ops_.device().model;
  kv_bytes_per_token_ = 2 * static_cast<double>(shard.layers) *
                        static_cast<double>(shard.kv_heads * shard.head_dim) *
                        bytes_per_element(scenario.precision.kv);
}

void IterationCost::begin() {
  rows_ = 0;
  prefill_rows_ = 0;
  sampled_ = 0;
  sum_ = PieceCost{};
}

IterationCost::PieceCost IterationCost::piece(int64_t tokens, int64_t prior) const {
  ++evaluations_;
  PieceCost cost;
  const std::vector<Operator> kernels = ops_.attention_operators(tokens, prior);
  for (std::size_t k = 0; k < kernels.size() && k < kMaxAttentionKernels; ++k) {
    cost.flops[k] = kernels[k].flops;
    cost.computed_flops[k] = kernels[k].computed_flops;
    cost.bytes[k] = kernels[k].hbm.total();
  }
  return cost;
}

void IterationCost::add_prefill(int64_t tokens, int64_t prior) {
  rows_ += tokens;
  prefill_rows_ += tokens;
  constexpr int64_t kKeyLimit = int64_t{1} << 32;
  if (tokens >= kKeyLimit || prior >= kKeyLimit) {
    add(piece(tokens, prior));
    return;
  }
  const uint64_t key = (static_cast<uint64_t>(tokens) << 32) | static_cast<uint64_t>(prior);
  const auto found = prefill_cache_.find(key);
  if (found != prefill_cache_.end()) {
    add(found->second);
    return;
  }
  if (prefill_cache_.size() >= kMaxCachedChunks) prefill_cache_.clear();
  const PieceCost cost = piece(tokens, prior);
  prefill_cache_.emplace(key, cost);
  add(cost);
}

void IterationCost::grow_decode_cache(int64_t contexts) {
  std::size_t size = 64;  // the first growth: a short run's contexts, ~6 KB
  const auto wanted = static_cast<std::size_t>(std::max<int64_t>(contexts, 0));
  while (size < wanted && size < limits::max_decode_cache_slots) size *= 2;
  // Slots keep their index; one whose context now maps elsewhere is never matched again.
  if (size > decode_cache_.size()) decode_cache_.resize(size);
}

const IterationCost::PieceCost& IterationCost::decode_piece_uncached(int64_t context) {
  if (static_cast<std::size_t>(context) >= decode_cache_.size())
    grow_decode_cache(context + context / 2 + 1);
  DecodeSlot& slot = decode_cache_[static_cast<std::size_t>(context) & (decode_cache_.size() - 1)];
  slot.cost = piece(1, context);
  slot.context = context;
  return slot.cost;
}

void IterationCost::add_decodes(const std::vector<int64_t>& contexts) {
  rows_ += static_cast<int64_t>(contexts.size());
  if (kernels_ != 1) {
    for (const int64_t context : contexts) add(decode_piece(context));
    return;
  }
  // One attention kernel (fused): the three sums in locals, added row after row in the same
  // order as add() would. Accumulated in sum_ they went through memory at every row (a cached
  // piece might have aliased them), a store-to-load chain that dominated the run's time.
  double flops = sum_.flops[0];
  double computed_flops = sum_.computed_flops[0];
  double bytes = sum_.bytes[0];
  for (const int64_t context : contexts) {
    const PieceCost& cost = decode_piece(context);
    flops += cost.flops[0];
    computed_flops += cost.computed_flops[0];
    bytes += cost.bytes[0];
  }
  sum_.flops[0] = flops;
  sum_.computed_flops[0] = computed_flops;
  sum_.bytes[0] = bytes;
}

double IterationCost::token_seconds(int64_t rows) {
  if (prefill_rows_ == 0)
    return cached_seconds(decode_token_cache_, rows, 64, evaluations_,
                          [&] { return decode_ops_.token_operators(rows); });
  return cached_seconds(token_cache_, rows, 64, evaluations_,
                        [&] { return ops_.token_operators(rows); });
}

double IterationCost::head_seconds(int64_t requests) {
  if (requests == 0) return 0;
  if (prefill_rows_ == 0)
    return cached_seconds(decode_head_cache_, requests, 16, evaluations_,
                          [&] { return decode_ops_.head_operators(requests); });
  return cached_seconds(head_cache_, requests, 16, evaluations_,
                        [&] { return ops_.head_operators(requests); });
}

double IterationCost::seconds() {
  const IterationOperators& timing = prefill_rows_ == 0 ? decode_ops_ : ops_;
  double attention = 0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(kernels_); ++k) {
    // The requests' attention as one kernel per layer: one launch, the summed work.
    Operator& kernel = attention_shape_[k];
    kernel.flops = sum_.flops[k];
    kernel.computed_flops = sum_.computed_flops[k];
    kernel.hbm = HbmBytes{0, sum_.bytes[k], 0, 0};
    attention += kernel.count * timing.seconds(kernel);
  }
  return token_seconds(rows_) + attention + head_seconds(sampled_);
}

}  // namespace prefill_trace
