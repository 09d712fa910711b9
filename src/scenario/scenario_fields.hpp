#pragma once
// The scenario's input fields described once: each field's JSON name, kind, default, bounds
// (from limits.hpp), unit, a line for the docs and the label of the page's control; one table
// for the scenario's own members, one for a model shape's, one for an accelerator's and one for
// its estimate profile's. The reader (scenario.cpp) takes its key lists, defaults, bounds and
// menus from here; the engine exports the tables as JSON (api::scenario_fields(), the page's
// scenarioFields()), from which the explorer's controls take their labels, hints, lower bounds
// and menus; the tests fail when docs/trace-json.md's field tables,
// bindings/prefill-trace.d.ts or the page's defaults disagree with them
// (tests/cpp/scenario_fields_test.cpp, tests/js/scenario-fields.test.mjs).
//
// Adding a scenario input: a row here, its member in Workload (scenario.hpp) and its read in
// scenario.cpp (read order decides which of two errors is reported first), its effect, and a
// row in the docs' table and a member in the d.ts, which the tests name when missing. The CLI
// takes a flag for it from the exported table (src/cli/flags.cpp); its --help line is by hand.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "limits.hpp"
#include "scenario/attention_kernels.hpp"  // the architectures an accelerator may state

namespace prefill_trace {

enum class FieldKind {
  integer,         // a whole number from min to max
  number,          // a finite number from min to max
  zero_or_number,  // 0 (none), or a number from min to max: a floor without excluding "none"
  choice,          // one of the field's choices, by value
  flag,            // true or false
  text,            // any string
  preset,          // a preset id or an object (model, hardware; precision also a named choice)
  named_numbers,   // an object of numbers keyed by the field's choices, each from min to max
  object,          // an object: keyed by the field's choices when it has any, else its own table
  list,            // an array
  length,          // a token count from min to max, or a length distribution's text (serving)
};
const char* field_kind_name(FieldKind kind);

/// One value of a choice field: what the JSON says, and a name for people (the page's menus).
struct FieldChoice {
  std::string_view value;
  std::string_view label;
};

inline constexpr std::size_t kMaxFieldChoices = 8;  // the interval's families are the most

struct ScenarioField {
  std::string_view name;
  FieldKind kind = FieldKind::text;
  double min = 0;
  double max = 0;
  double default_number = 0;       // integer, number, zero_or_number; flag (0 / 1)
  std::size_t default_choice = 0;  // choice, preset with named choices: index into choices
  bool has_default = true;         // false: required, or derived (the docs line says how)
  bool required = false;           // an error when absent (a model shape's only without a preset)
  bool nullable = false;           // null is accepted: the default (or, without one, "unset")
  std::array<FieldChoice, kMaxFieldChoices> choices{};
  std::size_t choice_count = 0;
  std::string_view unit;          // "tokens", "s", … ("" for none)
  std::string_view symbol;        // the lesson's symbol ("T", "B", …) or ""
  std::string_view label;         // the page's control label, or "" when the page has no control
  std::string_view hint;          // the line under the page's control, or ""
  std::string_view docs;          // one line for docs/trace-json.md's table
  std::string_view default_text;  // text: the default, or "" for none
  std::string_view flag;          // the CLI flag that sets it, where the CLI takes it from here
  bool min_exclusive = false;     // number: min itself is refused ("> min and ≤ max")

  constexpr std::string_view default_value() const { return choices[default_choice].value; }
  constexpr int64_t default_integer() const { return static_cast<int64_t>(default_number); }
  /// A choice's default as the enum its choices are listed in the order of.
  template <typename Enum>
  constexpr Enum default_as() const {
    return static_cast<Enum>(default_choice);
  }

  // Builders, so that each row of the table reads as one statement.
  constexpr ScenarioField with_unit(std::string_view text, std::string_view sym = {}) const {
    ScenarioField f = *this;
    f.unit = text;
    f.symbol = sym;
    return f;
  }
  constexpr ScenarioField with_control(std::string_view text, std::string_view line = {}) const {
    ScenarioField f = *this;
    f.label = text;
    f.hint = line;
    return f;
  }
  constexpr ScenarioField with_docs(std::string_view line) const {
    ScenarioField f = *this;
    f.docs = line;
    return f;
  }
  constexpr ScenarioField with_flag(std::string_view spelling) const {
    ScenarioField f = *this;
    f.flag = spelling;
    return f;
  }
  constexpr ScenarioField above_min() const {
    ScenarioField f = *this;
    f.min_exclusive = true;
    return f;
  }
  constexpr ScenarioField or_null() const {
    ScenarioField f = *this;
    f.nullable = true;
    return f;
  }
  constexpr ScenarioField without_default() const {
    ScenarioField f = *this;
    f.has_default = false;
    return f;
  }
  constexpr ScenarioField required_field() const {
    ScenarioField f = without_default();
    f.required = true;
    return f;
  }
  /// Whether `value` is one of the choices.
  constexpr bool has_choice(std::string_view value) const {
    for (std::size_t i = 0; i < choice_count; ++i) {
      if (choices[i].value == value) return true;
    }
    return false;
  }
};

namespace field_rows {

constexpr ScenarioField of_kind(std::string_view name, FieldKind kind, double fallback, double min,
                                double max) {
  ScenarioField f;
  f.name = name;
  f.kind = kind;
  f.default_number = fallback;
  f.min = min;
  f.max = max;
  return f;
}
constexpr ScenarioField integer(std::string_view name, int64_t fallback, int64_t min, int64_t max) {
  return of_kind(name, FieldKind::integer, double(fallback), double(min), double(max));
}
constexpr ScenarioField number(std::string_view name, double fallback, double min, double max) {
  return of_kind(name, FieldKind::number, fallback, min, max);
}
constexpr ScenarioField zero_or_number(std::string_view name, double min, double max) {
  return of_kind(name, FieldKind::zero_or_number, 0, min, max);
}
constexpr ScenarioField flag(std::string_view name, bool fallback) {
  return of_kind(name, FieldKind::flag, fallback ? 1 : 0, 0, 1);
}
constexpr ScenarioField text(std::string_view name, std::string_view fallback = {}) {
  ScenarioField f = of_kind(name, FieldKind::text, 0, 0, 0);
  f.default_text = fallback;
  return f;
}
/// A token count from 1 to `max`, or a distribution's text (the serving prompt and output).
constexpr ScenarioField length(std::string_view name, int64_t max) {
  return of_kind(name, FieldKind::length, 0, 1, double(max)).without_default();
}
/// `choices` in the order of the enum they select (index = enum value); the first default.
constexpr ScenarioField choice(std::string_view name, std::size_t default_choice,
                               std::initializer_list<FieldChoice> choices,
                               FieldKind kind = FieldKind::choice) {
  ScenarioField f = of_kind(name, kind, 0, 0, 0);
  f.default_choice = default_choice;
  for (const FieldChoice& c : choices) f.choices[f.choice_count++] = c;
  return f;
}
constexpr ScenarioField preset(std::string_view name) {
  return of_kind(name, FieldKind::preset, 0, 0, 0).required_field();
}
/// A choice among names that are their own labels (an accelerator's architecture).
template <std::size_t N>
constexpr ScenarioField choice_of_names(std::string_view name, const std::string_view (&names)[N]) {
  ScenarioField f = of_kind(name, FieldKind::choice, 0, 0, 0);
  for (std::string_view value : names) f.choices[f.choice_count++] = {value, value};
  return f;
}
/// An object of numbers from min to max keyed by `keys` (the number formats, …).
constexpr ScenarioField named_numbers(std::string_view name,
                                      std::initializer_list<FieldChoice> keys, double min,
                                      double max) {
  ScenarioField f = choice(name, 0, keys, FieldKind::named_numbers).without_default();
  f.min = min;
  f.max = max;
  return f;
}
/// The same keyed by another field's choices from index `first` up to `end` (default: all; the
/// stacks, the kernels).
constexpr ScenarioField named_numbers(std::string_view name, const ScenarioField& keys,
                                      std::size_t first, double min, double max,
                                      std::size_t end = SIZE_MAX) {
  ScenarioField f = named_numbers(name, {}, min, max);
  for (std::size_t i = first; i < keys.choice_count && i < end; ++i)
    f.choices[f.choice_count++] = keys.choices[i];
  return f;
}
/// An object keyed by `keys` (no keys: one with a table of its own).
constexpr ScenarioField object(std::string_view name,
                               std::initializer_list<FieldChoice> keys = {}) {
  return choice(name, 0, keys, FieldKind::object).without_default();
}
constexpr ScenarioField list(std::string_view name) {
  return of_kind(name, FieldKind::list, 0, 0, 0).without_default();
}

}  // namespace field_rows

/// The scenario object's own members, in the order the reader reads them.
inline constexpr std::array<ScenarioField, 18> kScenarioFields = [] {
  using namespace field_rows;
  return std::array<ScenarioField, 18>{
      preset("model").with_control("Model").with_docs(
          "a preset id, {\"preset\": id, …overrides}, or a whole shape (the model "
          "fields below)"),
      preset("hardware")
          .with_control("Accelerator")
          .with_docs("a preset id, {\"preset\": id, …overrides}, or a whole accelerator (the "
                     "hardware fields below)"),
      choice(
          "precision", 0,
          {{"bf16", "bf16"}, {"fp16", "fp16"}, {"fp8", "fp8"}, {"int8", "int8"}, {"int4", "int4"}},
          FieldKind::preset)
          .with_control("Precision", "Number formats of weights, activations and KV cache.")
          .with_docs("a named precision, or {weights, activations, kv} (activations set the "
                     "arithmetic whose peak is used)"),
      integer("prompt_tokens", 2048, 1, limits::max_prompt_tokens)
          .with_unit("tokens", "T")
          .with_control("Prompt tokens")
          .with_docs("prompt length of each request"),
      integer("batch", 1, 1, limits::max_batch)
          .with_unit("requests", "B")
          .with_control("Requests per batch", "Requests prefilled together (B).")
          .with_docs("requests of T tokens prefilled together"),
      integer("chunk_tokens", 0, 0, limits::max_prompt_tokens)
          .or_null()
          .with_unit("tokens", "C")
          .with_control("Chunk size", "Tokens per chunk; 0 = whole prompt at once.")
          .with_docs("tokens per prefill chunk; 0 or null = the whole prompt in one chunk; the "
                     "chunk count ⌈T/C⌉ is bounded (docs/robustness.md)"),
      choice(
          "attention", 0,
          {{"fused", "Fused (scores stay on chip)"}, {"materialized", "Materialized score matrix"}})
          .with_control("Attention")
          .with_docs("fused (FlashAttention: scores stay on chip) or materialized (the score "
                     "matrix goes through HBM)"),
      integer("gemm_m_tile", 128, 1, limits::max_gemm_m_tile)
          .with_unit("rows")
          .with_docs("rows per GEMM tile (tile quantization)"),
      integer("attention_block", 0, 0, limits::max_attention_block)
          .with_unit("rows", "b")
          .with_docs("attention block edge; 0 = FlashAttention's B_r from on-chip SRAM"),
      zero_or_number("arrival_rate", limits::min_arrival_rate, limits::max_arrival_rate)
          .with_unit("requests/s", "λ")
          .with_control("Arrival rate", "Requests per second; 0 = no queue.")
          .with_docs("requests arriving per second (Poisson); 0 = no queue"),
      number("delivery_seconds", 0, 0, limits::max_delivery_seconds)
          .with_unit("s")
          .with_docs("transport latency of the first token"),
      number("compute_efficiency", 1, limits::min_efficiency, limits::max_efficiency)
          .without_default()
          .or_null()
          .with_docs("achievable / peak arithmetic η_c, overriding the timing's; null = the "
                     "timing's (1 under bound, the profile's under estimate)"),
      number("memory_efficiency", 1, limits::min_efficiency, limits::max_efficiency)
          .without_default()
          .or_null()
          .with_docs("achievable / peak bandwidth η_m, overriding the timing's; null = the "
                     "timing's"),
      choice("timing", 0,
             {{"bound", "Bound (a lower bound)"}, {"estimate", "Estimate (calibrated)"}})
          .with_control("Timing",
                        "Bound: never above a real measurement. Estimate: fitted per "
                        "accelerator, with its typical range.")
          .with_docs("bound: compulsory traffic at peak rates, launch overhead beside the total; "
                     "estimate: the accelerator's calibrated profile"),
      choice("graphs", 1, {{"on", "on"}, {"off", "off"}})
          .with_docs("estimate only: off = each kernel launched on its own (kernel_gap_seconds), "
                     "on = graph-replayed (graph_launch_gap_seconds)"),
      choice("stack", 0,
             {{"tensorrt-llm", "TensorRT-LLM"},
              {"vllm", "vLLM"},
              {"sglang", "SGLang"},
              {"llama.cpp", "llama.cpp"},
              {"transformers", "Transformers"},
              {"kernels", "Kernels only (device time)"},
              {"vllm-0.2", "vLLM 0.2 (2023)"}})
          .with_control("Software stack",
                        "Estimate only: whose launch gaps between kernels are charged.")
          .with_docs("estimate only: whose per-kernel host gap is charged (stack_gap_seconds, "
                     "else kernel_gap_seconds); kernels = device time, no gap; serve also "
                     "charges the stack's host time per iteration (vllm, vllm-0.2: "
                     "docs/serving.md); vllm-0.2 runs vllm's kernels"),
      choice("attention_kernel", 0,
             {{"auto", "Automatic (the accelerator’s fitted attention)"},
              {"flash-attention-2", "FlashAttention-2"},
              {"flash-attention-3", "FlashAttention-3"},
              {"flashinfer", "FlashInfer"},
              {"sdpa", "PyTorch SDPA"}})
          .with_control("Attention kernel",
                        "Estimate only: whose fitted attention efficiency is used.")
          .with_docs("estimate only: whose fitted η_c (attention_kernel_efficiency, else "
                     "attention_efficiency); auto = the profile's attention_efficiency"),
      integer("tensor_parallel", 1, 1, limits::max_tensor_parallel)
          .with_unit("devices", "N")
          .with_control("Devices (tensor parallel)",
                        "GPUs each layer is split over; figures are per device.")
          .with_docs("devices each layer is split over (Megatron-style): must divide query_heads "
                     "and d_ff and divide or be a multiple of kv_heads; the accelerator must "
                     "state an interconnect"),
  };
}();

/// The members of a model shape object (`"model": {…}`), in the order the reader reads them.
/// The shape's numbers are required without a preset; with one, each overrides it.
inline constexpr std::array<ScenarioField, 17> kModelFields = [] {
  using namespace field_rows;
  return std::array<ScenarioField, 17>{
      text("preset").without_default().with_docs(
          "a preset model id to start from; the other members override it"),
      text("id").with_docs("\"custom\", or the preset's id + \"-modified\""),
      text("name").with_docs("\"Custom model\", or the preset's name + \" (modified)\""),
      text("source_url").with_docs("the configuration the shape was copied from"),
      integer("layers", 0, 1, limits::max_layers)
          .required_field()
          .with_unit("", "L")
          .with_control("Layers")
          .with_docs("decoder layers"),
      integer("d_model", 0, 1, limits::max_width)
          .required_field()
          .with_unit("", "d")
          .with_control("Model width")
          .with_docs("hidden width"),
      integer("query_heads", 0, 1, limits::max_width)
          .required_field()
          .with_unit("", "h_q")
          .with_control("Query heads")
          .with_docs("attention query heads"),
      integer("kv_heads", 0, 1, limits::max_width)
          .without_default()
          .with_unit("", "h_kv")
          .with_control("Key/value heads")
          .with_docs("key/value heads (default: query_heads); must divide query_heads"),
      integer("head_dim", 0, 1, limits::max_width)
          .without_default()
          .with_unit("", "d_h")
          .with_control("Head width")
          .with_docs("width of one head (default: d_model / query_heads, which must divide)"),
      integer("d_ff", 0, 1, limits::max_width)
          .required_field()
          .with_unit("", "d_ff")
          .with_control("MLP width")
          .with_docs("MLP inner width"),
      choice("mlp", 0, {{"gated", "gated"}, {"plain", "plain"}})
          .with_control("MLP kind")
          .with_docs("gated (three matrices, SwiGLU) or plain (two)"),
      integer("vocab", 0, 1, limits::max_vocab)
          .required_field()
          .with_unit("tokens", "V")
          .with_control("Vocabulary")
          .with_docs("vocabulary size"),
      integer("experts", 1, 1, limits::max_experts)
          .with_unit("", "E")
          .with_control("Experts")
          .with_docs("MLP experts; 1 = a dense MLP"),
      integer("active_experts", 1, 1, limits::max_experts)
          .with_unit("", "k")
          .with_control("Active experts")
          .with_docs("experts each token runs (MoE top-k); at most experts"),
      flag("tied_embeddings", false).with_docs("the output projection reuses the embedding"),
      integer("sliding_window", 0, 0, limits::max_prompt_tokens)
          .or_null()
          .with_unit("tokens")
          .with_docs("keys each query sees, itself included; 0 or null = the whole prefix"),
      flag("parallel_attention", false)
          .with_docs("attention and MLP read one input and add to one residual: one all-reduce "
                     "per layer under tensor parallelism (block_all_reduce)"),
  };
}();

/// The row a lookup of an unknown name gets at run time: no name, so nothing is read (the
/// tests, which read every row, then fail). Not constexpr: in a constant expression (the
/// structs' defaults) an unknown name is a compile error.
inline const ScenarioField& no_such_field() {
  static const ScenarioField none{};
  return none;
}

/// A row of a table by name.
template <std::size_t N>
constexpr const ScenarioField& field_named(const std::array<ScenarioField, N>& table,
                                           std::string_view name) {
  for (const ScenarioField& field : table) {
    if (field.name == name) return field;
  }
  return no_such_field();
}
constexpr const ScenarioField& scenario_field(std::string_view name) {
  return field_named(kScenarioFields, name);
}
constexpr const ScenarioField& model_field(std::string_view name) {
  return field_named(kModelFields, name);
}
/// The members of an accelerator object (`"hardware": {…}`), in the order the reader reads them.
/// Without a preset the required ones are; with one, each member overrides it.
inline constexpr std::array<ScenarioField, 19> kAcceleratorFields = [] {
  using namespace field_rows;
  return std::array<ScenarioField, 19>{
      text("preset").without_default().with_docs(
          "a preset accelerator id to start from; the other members override it"),
      text("id").with_docs("\"custom\", or the preset's id + \"-modified\""),
      text("name").with_docs("\"Custom accelerator\", or the preset's name + \" (modified)\""),
      text("source_url").with_docs("the datasheet the figures were copied from"),
      text("note").with_docs("a remark for people; not read"),
      // In DType's order (the reader's and the trace's names: dtype_name).
      named_numbers("peak_flops",
                    {{"fp32", "fp32"},
                     {"bf16", "bf16"},
                     {"fp16", "fp16"},
                     {"fp8", "fp8"},
                     {"int8", "int8"},
                     {"int4", "int4"}},
                    limits::min_peak_flops, limits::max_peak_flops)
          .required_field()
          .with_unit("FLOP/s")
          .with_docs("dense peak arithmetic per number format (OP/s for integers), at least one; "
                     "the precision's activations need theirs; a preset's list is replaced whole"),
      number("memory_bandwidth", 0, limits::min_memory_bandwidth, limits::max_memory_bandwidth)
          .required_field()
          .with_unit("bytes/s")
          .with_docs("HBM bandwidth"),
      number("memory_capacity", 0, limits::min_memory_capacity, limits::max_memory_capacity)
          .required_field()
          .with_unit("bytes")
          .with_docs("HBM capacity (step 4's memory check)"),
      integer("compute_units", 0, 0, limits::max_compute_units)
          .with_docs("SMs or CUs the occupancy terms divide work among; 0 = not stated"),
      number("sram_per_unit_bytes", 0, limits::min_sram_per_unit_bytes,
             limits::max_sram_per_unit_bytes)
          .required_field()
          .with_unit("bytes")
          .with_docs("on-chip memory one block may use: sets FlashAttention's block edge"),
      number("l2_bytes", 0, 0, limits::max_l2_bytes).with_unit("bytes").with_docs("L2 cache size"),
      number("launch_overhead_seconds", 0, 0, limits::max_launch_overhead_seconds)
          .with_unit("s")
          .with_docs("host cost per kernel launch (an assumption; under bound beside the total)"),
      choice_of_names("architecture", kArchitectures)
          .without_default()
          .with_docs("which named attention kernels run on it "
                     "(src/scenario/attention_kernels.hpp); absent "
                     "or \"\" = not checked"),
      text("interconnect_name").with_docs("the device-to-device link, for people"),
      text("interconnect_source_url").with_docs("where the link's bandwidth is stated"),
      zero_or_number("interconnect_bandwidth", limits::min_interconnect_bandwidth,
                     limits::max_interconnect_bandwidth)
          .with_unit("bytes/s")
          .with_docs("one-way bandwidth per device of the link tensor parallelism all-reduces "
                     "over; 0 = no link"),
      // In LinkKind's order.
      choice("interconnect_kind", 1, {{"nvlink", "NVLink-like"}, {"pcie", "PCIe"}})
          .with_docs("NCCL's latency class of the link, for the estimate's all-reduces"),
      flag("interconnect_reduces_in_network", false)
          .with_docs("the switch sums in-network (NVLink SHARP): an all-reduce sends (N−1)/N of "
                     "the data each way instead of the ring's 2(N−1)/N"),
      object("estimate")
          .with_docs("the calibrated profile timing \"estimate\" uses (the "
                     "estimate fields below)"),
  };
}();

/// The members of an accelerator's calibrated profile (`"estimate": {…}`), in the order the
/// reader reads them. The required ones are unless the preset overridden has a profile.
inline constexpr std::array<ScenarioField, 16> kEstimateFields = [] {
  using namespace field_rows;
  constexpr double low = limits::min_efficiency;
  constexpr double high = limits::max_efficiency;
  constexpr double gap = limits::max_profile_seconds;
  return std::array<ScenarioField, 16>{
      number("gemm_efficiency", 0, low, high)
          .required_field()
          .with_docs("achieved / peak arithmetic of the weight GEMMs"),
      number("attention_efficiency", 0, low, high)
          .required_field()
          .with_docs("achieved / peak arithmetic of the attention kernel (attention_kernel auto)"),
      number("expert_gemm_efficiency", 0, low, high)
          .without_default()
          .with_docs("achieved / peak arithmetic of MoE expert GEMMs (default: gemm_efficiency)"),
      number("memory_efficiency", 0, low, high)
          .required_field()
          .with_docs("achieved / peak bandwidth of every kernel's HBM traffic"),
      number("interconnect_efficiency", 0, low, high)
          .required_field()
          .with_docs("achieved / stated one-way link bandwidth of the all-reduces"),
      number("all_reduce_overhead_seconds", 0, 0, gap)
          .with_unit("s")
          .with_docs("per all-reduce call, beyond NCCL's own latency"),
      number("kernel_gap_seconds", 0, 0, gap)
          .with_unit("s")
          .with_docs("host gap per kernel launched on its own (graphs off)"),
      number("graph_launch_gap_seconds", 0, 0, gap)
          .with_unit("s")
          .with_docs("gap per kernel replayed from a graph (graphs on)"),
      number("memory_latency_seconds", 0, 0, gap)
          .with_unit("s")
          .with_docs("fixed device time of every kernel before its bytes stream (a floor inside "
                     "the memory term)"),
      number("decode_memory_efficiency", 0, 0, high)
          .with_docs("achieved / peak bandwidth of a decode step's kernels (0: memory_efficiency, "
                     "and the decode floor is not used)"),
      number("decode_memory_latency_seconds", 0, 0, gap)
          .with_unit("s")
          .with_docs("memory_latency_seconds of a decode step's kernels (with "
                     "decode_memory_efficiency)"),
      // The stacks with kernels of their own (the first 6, scenario.hpp's kKernelStackCount): a
      // versioned name (vllm-0.2) takes its stack's gap.
      named_numbers("stack_gap_seconds", scenario_field("stack"), 0, 0, gap, 6)
          .with_unit("s")
          .with_docs("host gap per kernel launch under each stack (default: kernel_gap_seconds; "
                     "kernels never has one)"),
      // Without auto, which is attention_efficiency itself.
      named_numbers("attention_kernel_efficiency", scenario_field("attention_kernel"), 1, low, high)
          .with_docs("η_c of each named attention kernel (default: attention_efficiency)"),
      // In IntervalFamily's order.
      object("interval", {{"end_to_end_single", "end_to_end_single"},
                          {"end_to_end_parallel", "end_to_end_parallel"},
                          {"gemm", "gemm"},
                          {"attention", "attention"},
                          {"elementwise", "elementwise"},
                          {"all_reduce", "all_reduce"},
                          {"end_to_end_single_unseen_stack", "end_to_end_single_unseen_stack"},
                          {"end_to_end_parallel_unseen_stack", "end_to_end_parallel_unseen_stack"}})
          .with_docs(
              "per family, {low: 0.01 … 1, high: 1 … 100}, each 1 when absent: the p10–p90 "
              "of measured / estimated seconds on held-out rows (docs/validation.md); the "
              "_unseen_stack pair, from leave-one-source-out, is the whole prefill's under a "
              "stack stack_gap_seconds does not state"),
      list("fitted_on").with_docs("the ids of the measurements the profile was fitted on"),
      text("fit").with_docs("how the profile was fitted"),
  };
}();

constexpr const ScenarioField& accelerator_field(std::string_view name) {
  return field_named(kAcceleratorFields, name);
}
constexpr const ScenarioField& estimate_field(std::string_view name) {
  return field_named(kEstimateFields, name);
}

/// The tables as JSON text (docs/trace-json.md, "Scenario (input)"): {"scenario": [field…],
/// "model": [field…], "hardware": [field…], "estimate": [field…]}, each field {name, kind,
/// default, min, max, nullable, required, choices, unit, symbol, label, hint, docs}.
std::string scenario_fields_json();

}  // namespace prefill_trace
