#pragma once
// A stated prefill scenario: model shape, precision, accelerator and workload. Every field is
// validated on construction from JSON; a value outside its meaningful range is an error naming
// the field, so the trace never sees a value that could produce NaN, infinity or overflow.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "limits.hpp"  // the documented ranges every field is checked against
#include "prefill_trace/result.hpp"

namespace prefill_trace {

enum class DType { fp32, bf16, fp16, fp8, int8, int4 };
const char* dtype_name(DType dtype);
double bytes_per_element(DType dtype);  // int4 packs two elements per byte: 0.5

/// Dense peak arithmetic rate per number format, FLOP/s (OP/s for integers); a format the
/// accelerator states no peak for is absent (stated peaks are at least 1e6, so 0 means none).
/// A fixed array rather than a map: every trace copies its scenario, and this copy allocates
/// nothing.
class PeakRates {
 public:
  bool has(DType dtype) const { return rates_[index(dtype)] > 0; }
  double at(DType dtype) const { return rates_[index(dtype)]; }  // 0 when absent
  void set(DType dtype, double rate) { rates_[index(dtype)] = rate; }
  void clear() { rates_.fill(0); }
  bool empty() const {
    return std::none_of(rates_.begin(), rates_.end(), [](double rate) { return rate > 0; });
  }
  /// Calls visit(dtype, rate) for each stated format, in DType order.
  template <typename Visit>
  void for_each(Visit visit) const {
    for (std::size_t i = 0; i < rates_.size(); ++i) {
      if (rates_[i] > 0) visit(static_cast<DType>(i), rates_[i]);
    }
  }

 private:
  static std::size_t index(DType dtype) { return static_cast<std::size_t>(dtype); }
  std::array<double, 6> rates_{};  // one slot per DType
};

enum class MlpKind { gated, plain };
enum class AttentionKind { fused, materialized };

struct ModelShape {
  std::string id;  // preset id, or "custom"
  std::string name;
  std::string source_url;  // the configuration the shape was copied from
  int64_t layers = 0;
  int64_t d_model = 0;
  int64_t query_heads = 0;
  int64_t kv_heads = 0;
  int64_t head_dim = 0;
  int64_t d_ff = 0;
  MlpKind mlp = MlpKind::gated;
  int64_t vocab = 0;
  int64_t experts = 1;         // 1 = dense MLP
  int64_t active_experts = 1;  // experts each token runs (MoE top-k)
  bool tied_embeddings = false;
};

struct Accelerator {
  std::string id;
  std::string name;
  std::string source_url;
  PeakRates peak_flops;         // dense FLOP/s (OP/s for integers) per arithmetic type
  double memory_bandwidth = 0;  // bytes/s
  double memory_capacity = 0;   // bytes
  int64_t compute_units = 0;
  double sram_per_unit_bytes = 0;  // shared memory one block may use (sets attention blocks)
  double l2_bytes = 0;
  double launch_overhead_seconds = 0;  // host cost per kernel launch (an assumption)
};

struct Precision {
  std::string name;  // "bf16", "int4", ... or "custom"
  DType weights = DType::bf16;
  DType activations = DType::bf16;  // also the arithmetic type whose peak is used
  DType kv = DType::bf16;
};

struct Workload {
  int64_t prompt_tokens = 2048;  // T, per request
  int64_t batch = 1;             // B requests of T tokens each
  int64_t chunk_tokens = 0;      // C; 0 = the whole prompt in one chunk
  AttentionKind attention = AttentionKind::fused;
  int64_t gemm_m_tile = 128;      // rows per GEMM tile (tile quantization)
  int64_t attention_block = 0;    // b; 0 = FlashAttention's B_r from on-chip SRAM
  double arrival_rate = 0;        // λ, requests/s; 0 = no queue
  double delivery_seconds = 0;    // transport latency of the first token
  double compute_efficiency = 1;  // η_c in (0, 1]: achievable / peak arithmetic
  double memory_efficiency = 1;   // η_m in (0, 1]: achievable / peak bandwidth
};

struct Scenario {
  ModelShape model;
  Accelerator hardware;
  Precision precision;
  Workload workload;
};

/// The preset catalogue compiled in from lesson-data/models.json and hardware.json.
struct Presets {
  std::vector<ModelShape> models;
  std::vector<Accelerator> accelerators;
  const ModelShape* find_model(std::string_view id) const;
  const Accelerator* find_accelerator(std::string_view id) const;
};

/// The built-in presets (parsed once; the data files are validated by the same rules as
/// user input, so a bad preset fails the tests, not a user).
const Presets& builtin_presets();
Result<Presets> parse_presets(std::string_view models_json, std::string_view hardware_json);

/// Named precisions: bf16, fp16, fp8 (W8A8, fp8 KV), int8 (W8A8, bf16 KV), int4 (W4A16).
Result<Precision> precision_preset(std::string_view name);

/// Builds a scenario from JSON text or a parsed value (see docs/trace-json.md for the keys).
/// `model` and `hardware` are a preset id or an object; an object with "preset" starts from
/// that preset and overrides the fields it gives.
Result<Scenario> parse_scenario(std::string_view json_text);
Result<Scenario> scenario_from_json(const nlohmann::json& value);

}  // namespace prefill_trace
