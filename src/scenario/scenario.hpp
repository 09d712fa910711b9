#pragma once
// A stated prefill scenario: model shape, precision, accelerator and workload. Every field is
// validated on construction from JSON; a value outside its meaningful range is an error naming
// the field, so the trace never sees a value that could produce NaN, infinity or overflow.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "limits.hpp"  // the documented ranges every field is checked against
#include "prefill_trace/result.hpp"
#include "scenario/scenario_fields.hpp"  // the workload's defaults

namespace prefill_trace {

enum class DType { fp32, bf16, fp16, fp8, int8, int4 };
inline constexpr std::size_t kDTypeCount = 6;
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
  std::array<double, kDTypeCount> rates_{};  // one slot per DType
};

enum class MlpKind { gated, plain };
enum class AttentionKind { fused, materialized };
/// bound: compulsory traffic at peak rates, launch overhead beside the total (a lower bound).
/// estimate: the accelerator's calibrated profile, launch gaps inside the total.
enum class Timing { bound, estimate };
/// The software stack that launches the kernels. The estimate charges each stack's own host gap
/// per kernel launch (fitted on its end-to-end rows, docs/validation.md); `kernels` is device
/// time only, as kernel benchmarks measure it (no gap). A versioned name after `kernels`
/// (`vllm-0.2`) runs the kernels of the stack it is a version of (kernel_stack) and differs only
/// in the host time the serving loop charges per iteration (src/trace/host_overhead.hpp).
enum class Stack { tensorrt_llm, vllm, sglang, llama_cpp, transformers, kernels, vllm_0_2 };
inline constexpr std::size_t kStackCount = 7;
/// The stacks with kernels (and gaps) of their own: the first kKernelStackCount of Stack.
inline constexpr std::size_t kKernelStackCount = 6;
static_assert(estimate_field("stack_gap_seconds").choice_count == kKernelStackCount,
              "stack_gap_seconds is keyed by the stacks with kernels of their own");
/// The stack whose kernels and launch gaps `stack` runs: itself, or for a versioned name the
/// stack it is a version of (the kernels of 2023's vLLM are not profiled apart from today's).
constexpr Stack kernel_stack(Stack stack) {
  return stack == Stack::vllm_0_2 ? Stack::vllm : stack;
}
/// The fused attention implementation. `automatic` runs at the profile's attention efficiency
/// (fitted on the stack's own kernel); the others at their own fitted efficiency.
enum class AttentionKernel { automatic, flash_attention_2, flash_attention_3, flashinfer, sdpa };
inline constexpr std::size_t kAttentionKernelCount = 4;  // the named ones, without automatic
/// The families the estimate's interval is fitted for (docs/validation.md): one per operator
/// family, and the whole prefill on one device or under tensor parallelism — from grouped
/// cross-validation for a stack fitted on its own end-to-end rows, from leave-one-source-out
/// (a stack the fit has not seen) for the others (`_unseen_stack`).
enum class IntervalFamily {
  end_to_end_single,
  end_to_end_parallel,
  gemm,
  attention,
  elementwise,
  all_reduce,
  end_to_end_single_unseen_stack,
  end_to_end_parallel_unseen_stack
};
inline constexpr std::size_t kIntervalFamilyCount = 8;
const char* stack_name(Stack stack);
const char* attention_kernel_name(AttentionKernel kernel);
const char* interval_family_name(IntervalFamily family);

/// The class of link an all-reduce crosses, as NCCL's tuning model tells them apart: NVLink-like
/// point-to-point GPU links (Infinity Fabric uses the same constants) or PCIe. It selects the
/// per-step latencies of src/trace/collective.hpp.
enum class LinkKind { nvlink, pcie };

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
  int64_t sliding_window = 0;  // keys each query sees, itself included (0 = the whole prefix)
  // Attention and MLP read the same normalised input and add to one residual (GPT-J `parallel`,
  // Falcon `parallel_attn` / `new_decoder_architecture`): under tensor parallelism their partial
  // outputs are summed by one all-reduce per layer.
  bool parallel_attention = false;
};

/// The calibrated `estimate` timing of one accelerator: achieved fractions of peak per kernel
/// family and the gap between graph-launched kernels, fitted on the published measurements the
/// hardware.json entry lists under `fitted_on` (script/fit-estimate.py, docs/validation.md).
struct EstimateProfile {
  double gemm_efficiency = 0;              // of peak arithmetic, weight GEMMs
  double expert_gemm_efficiency = 0;       // of peak arithmetic, MoE expert GEMMs (0: as GEMMs)
  double attention_efficiency = 0;         // of peak arithmetic, the attention kernel(s)
  double memory_efficiency = 0;            // of peak bandwidth, every kernel's HBM traffic
  double interconnect_efficiency = 0;      // of the link's one-way bandwidth, all-reduces
  double all_reduce_overhead_seconds = 0;  // per all-reduce call, beyond NCCL's own latency
  double kernel_gap_seconds = 0;           // per kernel when each is launched on its own
  double graph_launch_gap_seconds = 0;     // per kernel when launches are graph-captured
  // Fixed device time of every kernel before its bytes stream (a latency floor): achieved
  // bandwidth bytes / (floor + bytes / (bandwidth·η_m)) grows with the bytes moved.
  double memory_latency_seconds = 0;
  // A decode step's memory roof (one new row per request: weight and K/V streaming at small M,
  // fitted on decode-step measurements, docs/validation.md "Decode"): achieved / peak bandwidth
  // and the per-launch floor. 0 = not stated: a decode step then runs at memory_efficiency and
  // memory_latency_seconds, as prefill does; the floor is read only when the efficiency is stated.
  double decode_memory_efficiency = 0;
  double decode_memory_latency_seconds = 0;
  // Host gap per kernel launch under each stack (index: Stack); < 0 = not stated, then
  // kernel_gap_seconds. The `kernels` stack never has a gap.
  std::array<double, kKernelStackCount> stack_gap_seconds{-1, -1, -1, -1, -1, -1};
  // η_c of each named attention kernel (index: AttentionKernel − 1); 0 = not stated, then
  // attention_efficiency.
  std::array<double, kAttentionKernelCount> attention_kernel_efficiency{};
  // The p10–p90 range of measured / estimated seconds on held-out rows, per family (index:
  // IntervalFamily): seconds_low = seconds·low, seconds_high = seconds·high. 1, 1 = none stated.
  std::array<std::array<double, 2>, kIntervalFamilyCount> interval{
      {{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}};
  bool stated() const { return gemm_efficiency > 0; }
  double gap_seconds(Stack stack) const {
    stack = kernel_stack(stack);
    if (stack == Stack::kernels) return 0;
    const double stated_gap = stack_gap_seconds[static_cast<std::size_t>(stack)];
    return stated_gap >= 0 ? stated_gap : kernel_gap_seconds;
  }
  // Whether the stack's host gap was fitted on end-to-end rows of its own: the profile states
  // it in stack_gap_seconds (the fit states exactly those stacks: tests/validation/fit.py
  // STACKS). `kernels` has no gap.
  bool stack_fitted(Stack stack) const {
    stack = kernel_stack(stack);
    return stack == Stack::kernels || stack_gap_seconds[static_cast<std::size_t>(stack)] >= 0;
  }
  double attention_efficiency_of(AttentionKernel kernel) const {
    if (kernel == AttentionKernel::automatic) return attention_efficiency;
    const double stated_efficiency =
        attention_kernel_efficiency[static_cast<std::size_t>(kernel) - 1];
    return stated_efficiency > 0 ? stated_efficiency : attention_efficiency;
  }
};

struct Accelerator {
  std::string id;
  std::string name;
  std::string source_url;
  // "ampere", "ada", "hopper", "blackwell" or "cdna3" (src/scenario/attention_kernels.hpp): which
  // named attention kernels exist on it. Empty (a custom accelerator that states none): not
  // checked.
  std::string architecture;
  PeakRates peak_flops;         // dense FLOP/s (OP/s for integers) per arithmetic type
  double memory_bandwidth = 0;  // bytes/s
  double memory_capacity = 0;   // bytes
  int64_t compute_units = 0;
  double sram_per_unit_bytes = 0;  // shared memory one block may use (sets attention blocks)
  double l2_bytes = 0;
  double launch_overhead_seconds = 0;  // host cost per kernel launch (an assumption)
  // The device-to-device link tensor parallelism all-reduces over (0 = none stated).
  std::string interconnect_name;
  std::string interconnect_source_url;
  double interconnect_bandwidth = 0;  // bytes/s, one direction, per device
  // NCCL's latency class (pcie unless stated)
  LinkKind interconnect_kind = accelerator_field("interconnect_kind").default_as<LinkKind>();
  // The switch sums in-network (NVLink SHARP on NVSwitch 3+): an all-reduce sends (N−1)/N of the
  // data each way instead of the ring's 2(N−1)/N.
  bool interconnect_reduces_in_network = false;
  EstimateProfile estimate;
};

struct Precision {
  std::string name;  // "bf16", "int4", ... or "custom"
  DType weights = DType::bf16;
  DType activations = DType::bf16;  // also the arithmetic type whose peak is used
  DType kv = DType::bf16;
};

/// Defaults from the field table (scenario_fields.hpp), so that a Workload built in code and a
/// scenario read from JSON without the field agree.
struct Workload {
  int64_t prompt_tokens = scenario_field("prompt_tokens").default_integer();  // T, per request
  int64_t batch = scenario_field("batch").default_integer();  // B requests of T tokens each
  int64_t chunk_tokens = scenario_field("chunk_tokens").default_integer();  // C; 0 = one chunk
  AttentionKind attention = scenario_field("attention").default_as<AttentionKind>();
  int64_t gemm_m_tile = scenario_field("gemm_m_tile").default_integer();  // rows per GEMM tile
  // b; 0 = FlashAttention's B_r from on-chip SRAM
  int64_t attention_block = scenario_field("attention_block").default_integer();
  double arrival_rate = scenario_field("arrival_rate").default_number;  // λ, requests/s; 0 = none
  double delivery_seconds = scenario_field("delivery_seconds").default_number;  // first token's
  Timing timing = scenario_field("timing").default_as<Timing>();
  // Kernels launched from a captured CUDA/HIP graph (the estimate's gaps).
  bool graphs = scenario_field("graphs").default_value() == "on";
  Stack stack =
      scenario_field("stack").default_as<Stack>();  // whose host gaps the estimate charges
  AttentionKernel attention_kernel =                // the estimate's attention η
      scenario_field("attention_kernel").default_as<AttentionKernel>();
  // η_c, η_m in (0, 1]: achievable / peak. Unset: 1 under `bound`, the accelerator's profile
  // under `estimate` (η_c then stands for both GEMM and attention efficiencies).
  std::optional<double> compute_efficiency;
  std::optional<double> memory_efficiency;
  // Devices each layer is split over (Megatron-style).
  int64_t tensor_parallel = scenario_field("tensor_parallel").default_integer();
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

/// Why `scenario` cannot be split over `devices` devices by tensor parallelism (whole heads and
/// MLP columns per device, an interconnect to all-reduce over), at path /tensor_parallel; none
/// when it can. The rule read_scenario applies to `tensor_parallel`, for callers that try other
/// degrees (the placement search, src/serving/plan.hpp).
std::optional<Error> tensor_parallel_problem(const Scenario& scenario, int64_t devices);

}  // namespace prefill_trace
