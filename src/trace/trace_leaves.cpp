#include "trace/trace_leaves.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <set>

#include "json_write.hpp"
#include "trace/trace_schema.hpp"

namespace prefill_trace {
namespace {

using U = LeafUnit;

// Data, not logic (the 600-line rule's exception for tables): one row per leaf meaning. The step
// facts' labels are the ones the page has shown since issue 6 (they were its own table,
// web/src/explorer/steps.js, until issue 31 moved them here). Rows are in document order by
// section; the lookup does not depend on the order.
constexpr LeafDescription kLeaves[] = {
    // decode_comparison: one decode step beside the prefill (step 2's contrast).
    {"decode_comparison/context_tokens", U::tokens, "Decode step's context"},
    {"decode_comparison/flops", U::flop, "Decode step's work"},
    {"decode_comparison/hbm_bytes", U::bytes, "Decode step's memory traffic"},
    {"decode_comparison/intensity", U::flop_per_byte, "Decode step's arithmetic intensity"},
    {"decode_comparison/prefill_intensity", U::flop_per_byte, "Prefill's arithmetic intensity"},
    {"decode_comparison/prefill_projection_intensity", U::flop_per_byte,
     "Prefill projections' arithmetic intensity"},
    {"decode_comparison/projection_intensity", U::flop_per_byte,
     "Decode projections' arithmetic intensity"},
    {"decode_comparison/seconds", U::seconds, "Decode step's time"},
    // operators: one kernel each.
    {"operators/compute_seconds", U::seconds, "Time at the compute roof"},
    {"operators/computed_flops", U::flop, "Work computed (whole tiles)"},
    {"operators/count", U::count, "Instances per layer"},
    {"hbm_bytes/activations", U::bytes, "Activation traffic"},
    {"hbm_bytes/kv", U::bytes, "K/V traffic"},
    {"hbm_bytes/scores", U::bytes, "Score traffic"},
    {"hbm_bytes/total", U::bytes, "Memory traffic"},
    {"hbm_bytes/weights", U::bytes, "Weight traffic"},
    {"operators/interconnect_seconds", U::seconds, "Time on the device link"},
    {"operators/launches", U::count, "Kernel launches"},
    {"operators/link_bytes", U::bytes, "Bytes over the device link"},
    {"operators/memory_seconds", U::seconds, "Time at the memory roof"},
    {"operators/occupancy", U::fraction, "Occupancy of the last wave"},
    {"operators/step", U::count, "Mechanism step"},
    {"operators/useful_fraction", U::fraction, "Useful share of the computed work"},
    {"flops", U::flop, "Work"},
    {"intensity", U::flop_per_byte, "Arithmetic intensity"},
    {"overhead_seconds", U::seconds, "Launch and gap overhead"},
    {"seconds", U::seconds, "Time"},
    {"seconds_high", U::seconds, "Time, high end of the interval"},
    {"seconds_low", U::seconds, "Time, low end of the interval"},
    {"hbm_bytes", U::bytes, "Memory traffic"},
    {"parameters", U::count, "Parameters"},
    // roofline
    {"roofline/bandwidth", U::bytes_per_second, "Memory bandwidth used by the roofline"},
    {"roofline/peak_flops", U::flop_per_second, "Peak arithmetic used by the roofline"},
    // scenario: the input as the engine read it.
    {"scenario/arrival_rate", U::per_second, "Arrival rate"},
    {"scenario/attention_block", U::tokens, "Attention tile edge"},
    {"scenario/batch", U::count, "Batch"},
    {"scenario/chunk_tokens", U::tokens, "Chunk length"},
    {"scenario/compute_efficiency", U::fraction, "Compute efficiency"},
    {"scenario/delivery_seconds", U::seconds, "First-token delivery"},
    {"scenario/gemm_m_tile", U::tokens, "GEMM row tile"},
    {"scenario/memory_efficiency", U::fraction, "Memory efficiency"},
    {"scenario/prompt_tokens", U::tokens, "Prompt length"},
    {"scenario/tensor_parallel", U::count, "Tensor parallel devices"},
    {"model/active_experts", U::count, "Experts active per token"},
    {"model/d_ff", U::count, "MLP width"},
    {"model/d_model", U::count, "Model width"},
    {"model/experts", U::count, "Experts"},
    {"model/head_dim", U::count, "Head dimension"},
    {"model/kv_heads", U::count, "Key/value heads"},
    {"model/layers", U::count, "Layers"},
    {"model/query_heads", U::count, "Query heads"},
    {"model/sliding_window", U::tokens, "Sliding attention window"},
    {"model/vocab", U::count, "Vocabulary"},
    {"hardware/compute_units", U::count, "Compute units (SMs/CUs)"},
    {"hardware/interconnect_bandwidth", U::bytes_per_second, "Device link bandwidth, one way"},
    {"hardware/l2_bytes", U::bytes, "L2 cache"},
    {"hardware/launch_overhead_seconds", U::seconds, "Launch overhead per kernel"},
    {"hardware/memory_bandwidth", U::bytes_per_second, "Memory bandwidth"},
    {"hardware/memory_capacity", U::bytes, "Memory capacity"},
    {"hardware/sram_per_unit_bytes", U::bytes, "Shared memory per compute unit"},
    {"hardware/peak_flops", U::flop_per_second, "Peak arithmetic"},
    {"estimate/all_reduce_overhead_seconds", U::seconds, "All-reduce overhead per call"},
    {"estimate/attention_efficiency", U::fraction, "Attention efficiency"},
    {"estimate/attention_kernel_efficiency", U::fraction, "Named kernel's attention efficiency"},
    {"estimate/decode_memory_efficiency", U::fraction, "Decode's memory efficiency"},
    {"estimate/decode_memory_latency_seconds", U::seconds, "Decode's memory latency per kernel"},
    {"estimate/expert_gemm_efficiency", U::fraction, "Expert GEMM efficiency"},
    {"estimate/gemm_efficiency", U::fraction, "GEMM efficiency"},
    {"estimate/graph_launch_gap_seconds", U::seconds, "Gap per kernel under graphs"},
    {"estimate/interconnect_efficiency", U::fraction, "Device link efficiency"},
    {"interval/high", U::factor, "Interval's high factor"},
    {"interval/low", U::factor, "Interval's low factor"},
    {"estimate/kernel_gap_seconds", U::seconds, "Gap per kernel"},
    {"estimate/memory_efficiency", U::fraction, "Memory efficiency"},
    {"estimate/memory_latency_seconds", U::seconds, "Memory latency per kernel"},
    {"estimate/stack_gap_seconds", U::seconds, "Gap per kernel of the serving stack"},
    {"schema_version", U::version, "Schema version"},
    // steps: the five mechanism steps' facts (labels as the page shows them).
    {"tensor_parallel", U::count, "Devices each layer is split over (tensor parallel)"},
    {"kv_heads_per_device", U::count, "Key/value heads held by each device"},
    {"kv_heads_replicated", U::none, "Key/value heads copied to more than one device"},
    {"facts/layers", U::count, "Layers"},
    {"kernels_per_layer", U::count, "Kernels per layer"},
    {"kernel_launches", U::count, "Kernel launches in all"},
    {"launch_overhead_total_seconds", U::seconds, "Launch overhead in all"},
    {"embedding_bytes", U::bytes, "Embedding traffic"},
    {"ridge_flops_per_byte", U::flop_per_byte, "Ridge point of the accelerator (P/β)"},
    {"weight_reuse_rows", U::count, "Token rows sharing each weight load"},
    {"projection_flops_per_request", U::flop, "Projection work per request"},
    {"projections/d_in", U::count, "Input width"},
    {"projections/d_out", U::count, "Output width"},
    {"projections/flops_per_request", U::flop, "Work per request"},
    {"projections/rows_to_reach_ridge", U::count, "Token rows to reach the ridge"},
    {"reuse_example/rows", U::count, "Token rows"},
    {"reuse_example/weight_bytes_per_row", U::bytes, "Weight bytes per row"},
    {"facts/attention", U::none, "Attention schedule"},
    {"block", U::tokens, "Attention tile edge b (tokens)"},
    {"useful_pairs_per_head", U::count, "Useful query–key pairs per head"},
    {"computed_pairs_per_head", U::count, "Computed pairs per head (whole tiles)"},
    {"tiles_per_head", U::count, "Tiles per head"},
    {"kv_bytes_per_token", U::bytes, "KV bytes per token"},
    {"kv_bytes_written", U::bytes, "KV state written"},
    {"facts/sliding_window", U::tokens, "Sliding attention window (tokens; 0 = none)"},
    {"kv_tokens_kept", U::tokens, "Tokens whose keys and values are kept"},
    {"kv_bytes_kept", U::bytes, "KV cache kept for decode"},
    {"score_matrix_bytes", U::bytes, "Score matrix of the largest chunk"},
    {"score_traffic_bytes", U::bytes, "Score traffic to HBM"},
    {"score_bytes_avoided", U::bytes, "Score traffic avoided by fusing"},
    {"weight_bytes", U::bytes, "Weights"},
    {"kv_bytes", U::bytes, "KV state"},
    {"temporaries_bytes", U::bytes, "Temporaries (largest simultaneous set)"},
    {"residual_bytes", U::bytes, "Residual stream"},
    {"attention_workspace_bytes", U::bytes, "Attention workspace"},
    {"score_bytes", U::bytes, "Materialized scores"},
    {"mlp_workspace_bytes", U::bytes, "MLP workspace"},
    {"logits_bytes", U::bytes, "Logits"},
    {"peak_bytes", U::bytes, "Peak"},
    {"capacity_bytes", U::bytes, "Device capacity"},
    {"fits", U::none, "Fits in device memory"},
    {"facts/memory", U::none, "Memory ledger"},
    {"facts/chunking", U::none, "Chunking"},
    {"exceeds_by_bytes", U::bytes, "Exceeds capacity by"},
    {"chunking/chunk_tokens", U::tokens, "Chunk length (tokens)"},
    {"chunks", U::count, "Chunks (passes)"},
    {"extra_weight_bytes", U::bytes, "Extra weight traffic from chunking"},
    {"kv_reread_bytes", U::bytes, "Earlier KV re-read by later chunks"},
    {"temporaries_unchunked_bytes", U::bytes, "Temporaries without chunking"},
    {"queue_seconds", U::seconds, "Queueing, mean"},
    {"queue_p50_seconds", U::seconds, "Queueing, median (p50)"},
    {"queue_p90_seconds", U::seconds, "Queueing, 90th percentile"},
    {"queue_p99_seconds", U::seconds, "Queueing, 99th percentile"},
    {"batch_formation_seconds", U::seconds, "Batch formation (part of queueing)"},
    {"execution_seconds", U::seconds, "Prompt execution"},
    {"delivery_seconds", U::seconds, "First-token delivery"},
    {"service_seconds", U::seconds, "Service time per batch"},
    {"saturation_arrival_rate", U::per_second, "Saturation arrival rate (ρ reaches 1)"},
    {"total_seconds", U::seconds, "Time to first token"},
    {"total_seconds_high", U::seconds, "Time to first token, high end"},
    {"total_seconds_low", U::seconds, "Time to first token, low end"},
    {"utilization", U::fraction, "Utilization ρ"},
    {"overloaded", U::none, "Overloaded (ρ ≥ 1)"},
    {"steps/step", U::count, "Step"},
    // totals
    {"kv_cache/bytes", U::bytes, "KV cache kept for decode"},
};

std::size_t segments(std::string_view path) {
  return static_cast<std::size_t>(std::count(path.begin(), path.end(), '/')) + 1;
}

// Whether `path` ("a/b") equals the last segments of `keys`.
bool ends_with(const std::vector<std::string_view>& keys, std::string_view path) {
  std::size_t n = segments(path);
  if (n > keys.size()) return false;
  std::size_t at = 0;
  for (std::size_t i = keys.size() - n; i < keys.size(); ++i) {
    const std::size_t slash = path.find('/', at);
    const std::string_view part =
        path.substr(at, slash == std::string_view::npos ? path.npos : slash - at);
    if (part != keys[i]) return false;
    at = slash + 1;
  }
  return true;
}

// Members whose keys are data (a number format, a stack, a kernel, an interval family) are
// described by their parent: the data-named segment is left out of the lookup.
void drop_data_keys(std::vector<std::string_view>& keys) {
  for (std::size_t i = 1; i < keys.size(); ++i) {
    const std::string_view parent = keys[i - 1];
    if (parent == "peak_flops" || parent == "stack_gap_seconds" ||
        parent == "attention_kernel_efficiency" || parent == "interval") {
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

// Walks visit_trace recording every leaf's path and kind.
class LeafWalker {
 public:
  explicit LeafWalker(std::vector<DescribedLeaf>& out) : out_(out) {}
  template <typename T>
  void number(std::string_view key, T) {
    leaf(key, LeafKind::number);
  }
  void maybe(std::string_view key, const std::optional<double>&) { leaf(key, LeafKind::maybe); }
  void flag(std::string_view key, bool) { leaf(key, LeafKind::flag); }
  void text(std::string_view key, std::string_view) { leaf(key, LeafKind::text); }
  void bound(std::string_view key, const std::optional<Bound>&) { leaf(key, LeafKind::bound); }
  template <typename Members>
  void object(std::string_view key, Members members) {
    if (!key.empty()) leaf(key, LeafKind::object);
    path_.push_back(key);
    members();
    path_.pop_back();
  }
  template <typename Members>
  void maybe_object(std::string_view key, bool present, Members members) {
    if (present) object(key, members);
  }
  template <typename Item>
  void array(std::string_view key, std::size_t n, Item item) {
    path_.push_back(key);
    for (std::size_t i = 0; i < n; ++i) item(i);
    path_.pop_back();
  }

 private:
  void leaf(std::string_view key, LeafKind kind) {
    path_.push_back(key);
    std::string path;
    std::vector<std::string_view> keys;
    for (const std::string_view part : path_) {
      if (!path.empty()) path += '/';
      path += part.empty() ? "*" : std::string(part);
      if (!part.empty()) keys.push_back(part);
    }
    path_.pop_back();
    if (!seen_.insert(path).second) return;
    drop_data_keys(keys);
    out_.push_back({std::move(path), kind, describe_leaf(keys)});
  }

  std::vector<DescribedLeaf>& out_;
  std::vector<std::string_view> path_;
  std::set<std::string> seen_;
};

const char* kind_name(LeafKind kind) {
  switch (kind) {
    case LeafKind::number:
      return "number";
    case LeafKind::maybe:
      return "number_or_null";
    case LeafKind::flag:
      return "boolean";
    case LeafKind::text:
      return "text";
    case LeafKind::object:
      return "object";
    default:
      return "bound";
  }
}

}  // namespace

const LeafDescription* describe_leaf(const std::vector<std::string_view>& keys) {
  const LeafDescription* best = nullptr;
  for (const LeafDescription& row : kLeaves) {
    if (ends_with(keys, row.path) && (!best || segments(row.path) > segments(best->path)))
      best = &row;
  }
  return best;
}

const char* leaf_unit_name(LeafUnit unit) {
  constexpr const char* kNames[] = {
      "bytes",      "seconds", "flop",   "flop_per_byte", "flop_per_second", "bytes_per_second",
      "per_second", "count",   "tokens", "fraction",      "factor",          "version",
      "none"};
  static_assert(sizeof kNames / sizeof kNames[0] == static_cast<std::size_t>(LeafUnit::none) + 1,
                "one name per LeafUnit");
  return kNames[static_cast<std::size_t>(unit)];
}

std::vector<DescribedLeaf> trace_leaves(const Trace& trace) {
  std::vector<DescribedLeaf> leaves;
  LeafWalker walker(leaves);
  visit_trace(trace, walker);
  return leaves;
}

std::string trace_leaves_json(const Trace& trace) {
  nlohmann::json leaves = nlohmann::json::array();
  for (const DescribedLeaf& leaf : trace_leaves(trace)) {
    const LeafDescription* d = leaf.description;
    leaves.push_back(json_object({{"kind", kind_name(leaf.kind)},
                                  {"label", d ? std::string(d->label) : std::string()},
                                  {"path", leaf.path},
                                  {"rank", d ? d - std::begin(kLeaves) : -1},
                                  {"unit", leaf_unit_name(d ? d->unit : LeafUnit::none)}}));
  }
  nlohmann::json units = nlohmann::json::array();
  for (int u = 0; u <= static_cast<int>(LeafUnit::none); ++u)
    units.push_back(leaf_unit_name(static_cast<LeafUnit>(u)));
  return dump_json(json_object({{"leaves", leaves}, {"units", units}}));
}

}  // namespace prefill_trace
