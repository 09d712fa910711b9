#pragma once
// The prefill resource trace: for a stated Scenario, every kernel of one layer plus the
// non-layer ones, with FLOPs, HBM bytes, roofline time and bound, grouped along the lesson's
// five mechanism steps; the memory ledger; TTFT as queueing + execution + delivery; and one
// decode step at the same shapes. Formulas: docs/model.md (from ../shared/docs/DOMAIN.md).
//
// Counts (FLOPs, bytes, pairs) are integers computed in double: exact below 2^53 ≈ 9.0e15 and
// within 2^-53 relative above. Large scenarios do pass it: Llama-3.1-405B at 131,072 tokens
// issues 1.77e17 FLOPs, whose last digits are rounded (to a multiple of 32). Every printed figure
// is a measure of work, not an identifier, so this rounding (≤ 1.1e-16 relative) is harmless;
// docs/model.md says so. Inputs are bounded by scenario.hpp's limits, so nothing here can
// overflow to infinity or produce NaN.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "prefill_trace/result.hpp"
#include "scenario/scenario.hpp"
#include "trace/device_shard.hpp"  // parameter_count, device_shard: every trace is one device's

namespace prefill_trace {

enum class Bound { compute, memory, overhead, interconnect };
inline constexpr std::size_t kBoundCount = 4;
const char* bound_name(Bound bound);

/// Bytes one kernel moves through HBM, by what they are.
struct HbmBytes {
  double weights = 0;
  double activations = 0;
  double kv = 0;
  double scores = 0;  // the materialized score/probability matrix
  double total() const { return weights + activations + kv + scores; }
};

/// What kind of kernel an operator is: it picks the efficiency the `estimate` timing applies.
enum class Family { gemm, expert_gemm, attention, memory, interconnect };
const char* family_name(Family family);

/// The weight a GEMM operator multiplies by: worked out once, where the operator is built.
struct GemmShape {
  int64_t d_in = 0;
  int64_t d_out = 0;
  int64_t experts = 1;            // weight matrices it chooses among: E for an expert GEMM
  int64_t experts_per_token = 1;  // k for an expert GEMM, else 1
  bool expert() const { return experts > 1; }
};

/// One kernel. Figures are for ONE run (one layer); `count` runs make its share of the total.
/// Names are string literals with static storage: views keep the per-trace cost allocation-free.
struct Operator {
  std::string_view name;
  int step = 0;               // the lesson's mechanism step, 1..5
  double count = 0;           // runs per prefill: layers for per-layer kernels, else 1
  double launches = 0;        // kernel launches per run: one per chunk
  double flops = 0;           // useful FLOPs (multiply and add counted separately)
  double computed_flops = 0;  // FLOPs issued, including tile padding and masked pairs
  HbmBytes hbm;
  double intensity = 0;  // useful FLOPs per HBM byte
  double compute_seconds = 0;
  double memory_seconds = 0;
  double link_bytes = 0;            // bytes one device sends over the interconnect (all-reduce)
  double interconnect_seconds = 0;  // link_bytes / link bandwidth + ring-step latencies
  double overhead_seconds = 0;      // launch gaps inside `seconds`: 0 under the bound timing
  double seconds = 0;               // max(compute, memory, interconnect) + overhead
  // The estimate's p10–p90 range for this kernel (docs/validation.md); = seconds under `bound`.
  double seconds_low = 0;
  double seconds_high = 0;
  // Share of the compute units the kernel's tiles or blocks keep busy (estimate; 1 under bound).
  double occupancy = 1;
  Bound bound = Bound::memory;
  double useful_fraction = 1;  // flops / computed_flops
  bool per_layer = false;      // runs once per layer (count = layers)
  Family family = Family::memory;
  std::optional<GemmShape> gemm =
      std::nullopt;  // set for the weight GEMMs (projections, router, LM head)
};

struct Totals {
  double flops = 0;
  double hbm_bytes = 0;
  double seconds = 0;
  double overhead_seconds = 0;  // the launch-overhead part of `seconds` (0 under `bound`)
  double seconds_low = 0;       // the estimate's p10–p90 range (= seconds under `bound`)
  double seconds_high = 0;
};

/// The roofs every operator is bounded by: peak × η_c and bandwidth × η_m for this scenario.
struct Roofline {
  Timing timing = Timing::bound;
  double peak_flops = 0;  // FLOP/s of the activation format's arithmetic, × η_c (GEMMs)
  double bandwidth = 0;   // bytes/s, × η_m
  double ridge_flops_per_byte = 0;
};

struct ProjectionFact {
  std::string_view name;
  int64_t d_in = 0;
  int64_t d_out = 0;
  double flops_per_request = 0;  // the lesson's F = 2·T·d_in·d_out (× active experts), one layer
  double intensity = 0;
  Bound bound = Bound::memory;
  std::optional<double> rows_to_reach_ridge;  // none: this shape cannot reach the ridge
};

struct ReuseExample {  // the lesson's engineering example: rows sharing one weight tile
  int64_t rows = 0;
  double intensity = 0;
  double weight_bytes_per_row = 0;
  Bound bound = Bound::memory;
};

struct EmbeddingFacts {  // step 1
  double embedding_bytes = 0;
  double kernel_launches = 0;
  double kernels_per_layer = 0;
  double launch_overhead_total_seconds = 0;  // kernel_launches × the per-launch overhead
  int64_t layers = 0;
};

struct ProjectionFacts {  // step 2
  std::vector<ProjectionFact> projections;
  double flops_per_request = 0;  // all projections, all layers
  double weight_reuse_rows = 0;  // token rows sharing one weight load (per chunk)
  double ridge_flops_per_byte = 0;
  std::vector<ReuseExample> reuse_example;  // 1 row vs 128 rows on the first projection
};

struct AttentionFacts {       // step 3
  int64_t block = 0;          // b: query and key tile edge
  double useful_pairs = 0;    // per request and head: T(T+1)/2
  double computed_pairs = 0;  // per request and head under the blocked schedule
  double tiles = 0;           // per request and head (fused)
  bool materialized = false;
  double score_matrix_bytes = 0;   // largest score matrix of one layer (all heads, requests)
  double score_traffic_bytes = 0;  // score bytes through HBM, all layers (0 when fused)
  double score_bytes_avoided = 0;  // what fusion keeps on chip, all layers (0 when materialized)
  double kv_bytes_written = 0;     // 2·L·B·T·h_kv·d_h·c: every prompt token's K and V
  double kv_bytes_per_token = 0;
  int64_t kv_tokens_kept = 0;  // per request: min(T, sliding window)
  double kv_bytes_kept = 0;    // the decode-ready state: 2·L·B·min(T, W)·h_kv·d_h·c
};

struct MemoryLedger {  // step 4
  double weight_bytes = 0;
  double kv_bytes = 0;
  double residual_bytes = 0;
  double attention_workspace_bytes = 0;
  double mlp_workspace_bytes = 0;
  double score_bytes = 0;
  double logits_bytes = 0;
  double temporaries_bytes = 0;  // residual + the largest of the phase workspaces
  double peak_bytes = 0;
  double capacity_bytes = 0;
  bool fits = false;
  double exceeds_by_bytes = 0;  // 0 when it fits
};

struct ChunkingFacts {  // step 4
  int64_t chunks = 1;
  int64_t chunk_tokens = 0;
  double temporaries_unchunked_bytes = 0;
  double extra_weight_bytes = 0;  // weights re-read by chunks after the first
  double kv_reread_bytes = 0;     // earlier keys/values read by later chunks
};

struct Ttft {                           // step 5
  double service_seconds = 0;           // device time per batch: execution + LM head and sampling
  double saturation_arrival_rate = 0;   // λ at which ρ = 1: B / service
  double utilization = 0;               // ρ = (λ/B)·service
  bool overloaded = false;              // ρ ≥ 1: the queue grows without bound
  std::optional<double> queue_seconds;  // M/D/1 wait + batch formation; none when overloaded
  // Quantiles of the same wait: the exact M/D/1 distribution + the same batch formation.
  std::optional<double> queue_p50_seconds;
  std::optional<double> queue_p90_seconds;
  std::optional<double> queue_p99_seconds;
  double batch_formation_seconds = 0;
  double execution_seconds = 0;
  double delivery_seconds = 0;  // LM head + sampling + transport
  std::optional<double> total_seconds;
  // The estimate's p10–p90 range of total_seconds: the device's service time scaled by the
  // whole-prefill interval, queue and transport as estimated (= total under `bound`).
  std::optional<double> total_seconds_low;
  std::optional<double> total_seconds_high;
};

struct Step {
  int number = 0;
  std::string_view title;
  std::string text;  // the lesson's own mechanism step
  Totals totals;
  std::optional<Bound> bound;  // by time share of its kernels; none for a step without kernels
  std::vector<std::string_view> operators;
};

struct DecodeComparison {
  int64_t context_tokens = 0;
  double flops = 0;
  double hbm_bytes = 0;
  double intensity = 0;
  double seconds = 0;
  Bound bound = Bound::memory;
  double projection_intensity = 0;          // first projection, decode (B rows)
  double prefill_projection_intensity = 0;  // the same projection in this prefill
  double prefill_intensity = 0;
  Bound prefill_bound = Bound::memory;
};

struct Trace {
  Scenario scenario;
  double parameters = 0;
  Roofline roofline;
  std::vector<Operator> operators;
  std::vector<Step> steps;
  EmbeddingFacts embedding;
  ProjectionFacts projection;
  AttentionFacts attention;
  MemoryLedger memory;
  ChunkingFacts chunking;
  Ttft ttft;
  Totals totals;
  DecodeComparison decode;
  std::vector<std::string_view> assumptions;  // static text
};

/// The operator of that name in the trace, or nullptr.
const Operator* find_operator(const Trace& trace, std::string_view name);

struct TraceOptions {
  bool decode_comparison = true;  // sweeps skip it: it doubles the work and they do not show it
  bool queue_quantiles = true;    // sweeps skip them too: they report the mean wait only
};

/// Computes the trace. `mechanism` is the lesson's mechanism text (5 steps expected; missing
/// steps get an empty text). Never fails for a validated Scenario.
Trace compute_trace(const Scenario& scenario, const std::vector<std::string>& mechanism,
                    const TraceOptions& options = {});

/// TTFT against prompt length or arrival rate: one engine trace per point.
enum class SweepVariable { prompt_tokens, arrival_rate };
struct SweepPoint {
  double value = 0;
  std::optional<double> queue_seconds;
  double execution_seconds = 0;
  double delivery_seconds = 0;
  std::optional<double> total_seconds;
  bool overloaded = false;
};
using limits::max_sweep_points;  // src/limits.hpp
/// A refused value is named by its index in `values` as the path "/values/I".
Result<std::vector<SweepPoint>> sweep(const Scenario& scenario, SweepVariable variable,
                                      const std::vector<double>& values);

}  // namespace prefill_trace
