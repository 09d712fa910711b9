#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <string_view>

#include "enum_table.hpp"
#include "field_reader.hpp"
#include "json_path.hpp"
#include "scenario/attention_kernels.hpp"  // which attention kernels run on which architecture
#include "scenario/scenario_fields.hpp"

namespace prefill_trace {
namespace data {
std::string_view models();    // generated from lesson-data/models.json (cmake/EmbedData.cmake)
std::string_view hardware();  // generated from lesson-data/hardware.json
}  // namespace data

// One row per number format, in DType's order: its name and its bytes per element (int4 packs
// two elements per byte).
struct DTypeRow {
  DType dtype;
  std::string_view name;
  double bytes;
};
constexpr DTypeRow kDTypes[] = {{DType::fp32, "fp32", 4}, {DType::bf16, "bf16", 2},
                                {DType::fp16, "fp16", 2}, {DType::fp8, "fp8", 1},
                                {DType::int8, "int8", 1}, {DType::int4, "int4", 0.5}};
static_assert(std::size(kDTypes) == kDTypeCount && rows_follow_enum(kDTypes, &DTypeRow::dtype),
              "kDTypes has one row per DType, in its order");

namespace {

using nlohmann::json;

DType parse_dtype(const std::string& name, const std::string& path, FirstError& errors) {
  for (const DTypeRow& row : kDTypes) {
    if (name == row.name) return row.dtype;
  }
  errors.fail(
      ErrorCode::unknown_name, path,
      "unknown number format " + quoted_excerpt(name) + " (fp32, bf16, fp16, fp8, int8, int4)");
  return DType::bf16;
}

// Where a reader finds its presets, and the word its errors name them by.
const ModelShape* find_in(const Presets& presets, std::string_view id, const ModelShape*) {
  return presets.find_model(id);
}
const Accelerator* find_in(const Presets& presets, std::string_view id, const Accelerator*) {
  return presets.find_accelerator(id);
}
const char* preset_word(const ModelShape*) {
  return "model";
}
const char* preset_word(const Accelerator*) {
  return "hardware";
}

// The preset `id` names; null after an error at `path`: no preset has that id, or there are no
// presets (the preset files themselves are being read).
template <typename Item>
const Item* find_preset(const Presets* presets, const std::string& id, const std::string& path,
                        FirstError& errors) {
  const Item* const kind = nullptr;  // selects the list
  const Item* preset = presets == nullptr ? nullptr : find_in(*presets, id, kind);
  if (preset != nullptr) return preset;
  errors.fail(ErrorCode::unknown_name, path,
              presets == nullptr
                  ? "presets are not available here"
                  : std::string("unknown ") + preset_word(kind) + " preset " + quoted_excerpt(id));
  return nullptr;
}

// The preset an object's "preset" member names, or null after an error (call only when the
// object has one).
template <typename Item>
const Item* object_preset(const Fields& fields, const Presets* presets, FirstError& errors) {
  const std::string id = presets == nullptr ? "" : fields.text("preset", "");
  return find_preset<Item>(presets, id, fields.path("preset"), errors);
}

// A model or an accelerator as the scenario states it: a preset id, taken whole; or an object
// of `table`'s members over the preset its "preset" member names (id and name marked as
// modified) or, without one, over a blank item called `custom_name`.
// `read_members(fields, from_preset, item)` reads the members. After an unknown preset the
// blank item comes back, with the error.
template <typename Item, std::size_t N, typename ReadMembers>
Item read_preset_or_object(const json& value, const std::string& path, const Presets* presets,
                           const std::array<ScenarioField, N>& table, const char* custom_name,
                           FirstError& errors, const ReadMembers& read_members) {
  Item item;
  item.id = "custom";
  item.name = custom_name;
  if (value.is_string()) {
    const auto* preset =
        find_preset<Item>(presets, value.get_ref<const std::string&>(), path, errors);
    return preset != nullptr ? *preset : item;
  }
  const Fields fields(value, path, table, errors);
  const bool from_preset = fields.has("preset");
  if (from_preset) {
    const auto* preset = object_preset<Item>(fields, presets, errors);
    if (preset == nullptr) return item;
    item = *preset;
    item.id += "-modified";
    item.name += " (modified)";
  }
  read_members(fields, from_preset, item);
  return item;
}

// The shape's members over `model` (a preset's, or the custom defaults): without a preset every
// shape number is required; with one, any may be overridden.
void read_model_fields(const Fields& fields, bool from_preset, ModelShape& model,
                       FirstError& errors) {
  const auto required = [&](const ScenarioField& field, int64_t current) {
    fields.require(field, from_preset);
    return fields.integer(field, current);
  };
  model.id = fields.text("id", model.id);
  model.name = fields.text("name", model.name);
  model.source_url = fields.text("source_url", model.source_url);
  model.layers = required(model_field("layers"), model.layers);
  model.d_model = required(model_field("d_model"), model.d_model);
  model.query_heads = required(model_field("query_heads"), model.query_heads);
  model.kv_heads =
      fields.integer(model_field("kv_heads"), from_preset ? model.kv_heads : model.query_heads);
  // Widths below may be placeholders after a failure: divide only by values that were read.
  if (errors.failed()) return;
  // head_dim defaults to d_model / query_heads, which must then divide exactly; a preset keeps
  // its own head_dim unless the widths it derives from are overridden.
  const bool derive_head_dim = !fields.has("head_dim") &&
                               (!from_preset || fields.has("d_model") || fields.has("query_heads"));
  if (derive_head_dim && model.d_model % model.query_heads != 0) {
    errors.fail(
        ErrorCode::incompatible, fields.path("query_heads"),
        "must divide d_model (" + std::to_string(model.d_model) + ") unless head_dim is given");
    return;
  }
  model.head_dim =
      fields.integer(model_field("head_dim"),
                     derive_head_dim ? model.d_model / model.query_heads : model.head_dim);
  model.d_ff = required(model_field("d_ff"), model.d_ff);
  model.mlp =
      static_cast<MlpKind>(fields.choice(model_field("mlp"), static_cast<std::size_t>(model.mlp)));
  model.vocab = required(model_field("vocab"), model.vocab);
  model.experts = fields.integer(model_field("experts"), model.experts);
  model.active_experts = fields.integer(model_field("active_experts"), model.active_experts);
  model.tied_embeddings = fields.boolean(model_field("tied_embeddings"), model.tied_embeddings);
  model.sliding_window = fields.integer(model_field("sliding_window"), model.sliding_window);
  model.parallel_attention =
      fields.boolean(model_field("parallel_attention"), model.parallel_attention);
}

// Relations between the shape's members that no single member's bounds can state.
void check_model_fields(const Fields& fields, const ModelShape& model, FirstError& errors) {
  if (model.query_heads % model.kv_heads != 0) {
    errors.fail(ErrorCode::incompatible, fields.path("kv_heads"),
                "must divide query_heads (" + std::to_string(model.query_heads) +
                    ") so each key/value head serves a whole group");
  } else if (model.active_experts > model.experts) {
    errors.fail(ErrorCode::out_of_range, fields.path("active_experts"),
                "must not exceed experts (" + std::to_string(model.experts) + ")");
  }
}

ModelShape read_model(const json& value, const std::string& path, const Presets* presets,
                      FirstError& errors) {
  const auto read_members = [&](const Fields& fields, bool from_preset, ModelShape& model) {
    read_model_fields(fields, from_preset, model, errors);
    // Divide only by widths that were read.
    if (!errors.failed()) check_model_fields(fields, model, errors);
  };
  return read_preset_or_object<ModelShape>(value, path, presets, kModelFields, "Custom model",
                                           errors, read_members);
}

// An object of numbers keyed by a row's choices (stack_gap_seconds, attention_kernel_efficiency):
// each one stated goes to the slot of its choice, in the choices' order.
template <std::size_t N>
void read_named_numbers(const Fields& profile, const ScenarioField& row,
                        std::array<double, N>& slots, FirstError& errors) {
  if (!profile.has(row.name)) return;
  const Fields named(profile.at(row.name), profile.path(row.name), KnownKeys(row), errors);
  for (std::size_t i = 0; i < row.choice_count; ++i) {
    const std::string_view name = row.choices[i].value;
    if (named.has(name)) slots[i] = named.number(name, 0, row.min, row.max);
  }
}

// The interval per family: {low, high} factors of the estimate (a wider range would say nothing).
void read_interval(const Fields& profile, EstimateProfile& e, FirstError& errors) {
  constexpr const ScenarioField& row = estimate_field("interval");
  if (!profile.has(row.name)) return;
  const Fields families(profile.at(row.name), profile.path(row.name), KnownKeys(row), errors);
  for (std::size_t i = 0; i < row.choice_count; ++i) {
    const std::string_view name = row.choices[i].value;
    if (!families.has(name)) continue;
    const Fields range(families.at(name), families.path(name), {"low", "high"}, errors);
    e.interval[i] = {range.number("low", 1, limits::min_interval_low, 1),
                     range.number("high", 1, 1, limits::max_interval_high)};
  }
}

// The calibrated profile's members over `e` (a preset's, or none): the efficiencies are
// required unless `e` has them.
void read_estimate(const json& value, const std::string& path, EstimateProfile& e,
                   FirstError& errors) {
  const Fields profile(value, path, kEstimateFields, errors);
  const auto efficiency = [&](const ScenarioField& field, double current) {
    profile.require(field, current > 0);
    return profile.number(field, current);
  };
  const auto number = [&](const char* name, double current) {
    return profile.number(estimate_field(name), current);
  };
  e.gemm_efficiency = efficiency(estimate_field("gemm_efficiency"), e.gemm_efficiency);
  e.attention_efficiency =
      efficiency(estimate_field("attention_efficiency"), e.attention_efficiency);
  e.expert_gemm_efficiency = number("expert_gemm_efficiency", e.expert_gemm_efficiency);
  e.memory_efficiency = efficiency(estimate_field("memory_efficiency"), e.memory_efficiency);
  e.interconnect_efficiency =
      efficiency(estimate_field("interconnect_efficiency"), e.interconnect_efficiency);
  e.all_reduce_overhead_seconds =
      number("all_reduce_overhead_seconds", e.all_reduce_overhead_seconds);
  e.kernel_gap_seconds = number("kernel_gap_seconds", e.kernel_gap_seconds);
  e.graph_launch_gap_seconds = number("graph_launch_gap_seconds", e.graph_launch_gap_seconds);
  e.memory_latency_seconds = number("memory_latency_seconds", e.memory_latency_seconds);
  e.decode_memory_efficiency = number("decode_memory_efficiency", e.decode_memory_efficiency);
  e.decode_memory_latency_seconds =
      number("decode_memory_latency_seconds", e.decode_memory_latency_seconds);
  read_named_numbers(profile, estimate_field("stack_gap_seconds"), e.stack_gap_seconds, errors);
  read_named_numbers(profile, estimate_field("attention_kernel_efficiency"),
                     e.attention_kernel_efficiency, errors);
  read_interval(profile, e, errors);
  // fitted_on (measurement ids) and fit (how) document the values; the engine needs neither.
  if (profile.has("fitted_on") && !profile.at("fitted_on").is_array()) {
    errors.fail(ErrorCode::wrong_type, profile.path("fitted_on"),
                "must be an array of measurement ids");
  }
  profile.text("fit", "");
}

// Dense peak rates by number format. A stated list replaces a preset's whole; keys are read in
// the object's (sorted) order, which decides the error reported first.
void read_peak_flops(const Fields& fields, bool from_preset, PeakRates& rates, FirstError& errors) {
  constexpr const ScenarioField& row = accelerator_field("peak_flops");
  fields.require(row, from_preset);
  if (!fields.has(row.name)) return;
  const json& stated = fields.at(row.name);
  const Fields peaks(stated, fields.path(row.name), KnownKeys(row), errors);
  rates.clear();
  for (const auto& item : stated.items()) {
    const DType dtype = parse_dtype(item.key(), peaks.path(item.key()), errors);
    rates.set(dtype, peaks.number(item.key(), 0, row.min, row.max));
  }
  if (rates.empty()) {
    errors.fail(ErrorCode::missing_field, fields.path(row.name), "must list at least one format");
  }
}

// The accelerator's members over `a` (a preset's, or the custom defaults), in the table's order
// (which decides the error reported first); without a preset the required ones are.
void read_accelerator_fields(const Fields& fields, bool from_preset, Accelerator& a,
                             FirstError& errors) {
  const auto number = [&](const char* name, double current) {
    fields.require(accelerator_field(name), from_preset);
    return fields.number(accelerator_field(name), current);
  };
  a.id = fields.text("id", a.id);
  a.name = fields.text("name", a.name);
  a.source_url = fields.text("source_url", a.source_url);
  read_peak_flops(fields, from_preset, a.peak_flops, errors);
  a.memory_bandwidth = number("memory_bandwidth", a.memory_bandwidth);
  a.memory_capacity = number("memory_capacity", a.memory_capacity);
  a.compute_units = fields.integer(accelerator_field("compute_units"), a.compute_units);
  a.sram_per_unit_bytes = number("sram_per_unit_bytes", a.sram_per_unit_bytes);
  a.l2_bytes = number("l2_bytes", a.l2_bytes);
  a.launch_overhead_seconds = number("launch_overhead_seconds", a.launch_overhead_seconds);
  a.architecture = fields.optional_choice(accelerator_field("architecture"), a.architecture);
  a.interconnect_name = fields.text("interconnect_name", a.interconnect_name);
  a.interconnect_source_url = fields.text("interconnect_source_url", a.interconnect_source_url);
  a.interconnect_bandwidth = number("interconnect_bandwidth", a.interconnect_bandwidth);
  a.interconnect_kind = static_cast<LinkKind>(fields.choice(
      accelerator_field("interconnect_kind"), static_cast<std::size_t>(a.interconnect_kind)));
  a.interconnect_reduces_in_network = fields.boolean(
      accelerator_field("interconnect_reduces_in_network"), a.interconnect_reduces_in_network);
}

Accelerator read_accelerator(const json& value, const std::string& path, const Presets* presets,
                             FirstError& errors) {
  const auto read_members = [&](const Fields& fields, bool from_preset, Accelerator& accelerator) {
    read_accelerator_fields(fields, from_preset, accelerator, errors);
    if (fields.has("estimate")) {
      read_estimate(fields.at("estimate"), fields.path("estimate"), accelerator.estimate, errors);
    }
  };
  return read_preset_or_object<Accelerator>(value, path, presets, kAcceleratorFields,
                                            "Custom accelerator", errors, read_members);
}

Precision read_precision(const json& value, const std::string& path, FirstError& errors) {
  if (value.is_string()) {
    auto preset = precision_preset(value.get_ref<const std::string&>());
    if (preset) return preset.value();
    errors.fail(ErrorCode::unknown_name, path, preset.failure().what);
    return Precision{};
  }
  // `name` is a label, as a model's is: the trace echoes it, so an echoed scenario reads back.
  const Fields fields(value, path, {"name", "weights", "activations", "kv"}, errors);
  Precision precision;
  precision.name = fields.text("name", "custom");
  precision.weights = parse_dtype(fields.text("weights", "bf16"), fields.path("weights"), errors);
  precision.activations =
      parse_dtype(fields.text("activations", "bf16"), fields.path("activations"), errors);
  precision.kv =
      parse_dtype(fields.text("kv", dtype_name(precision.activations)), fields.path("kv"), errors);
  if (precision.activations == DType::int4) {
    errors.fail(ErrorCode::incompatible, fields.path("activations"),
                "int4 is a weight-only format here (W4A16)");
  }
  return precision;
}

// Megatron-style splitting needs whole heads and whole MLP columns on every device; key/value
// heads either split evenly or, when there are fewer than devices, are replicated.
void check_tensor_parallel(const Scenario& scenario, FirstError& errors) {
  const int64_t n = scenario.workload.tensor_parallel;
  const ModelShape& m = scenario.model;
  const std::string devices = std::to_string(n);
  if (m.query_heads % n != 0) {
    errors.fail(ErrorCode::incompatible, "/tensor_parallel",
                devices + " does not divide query_heads (" + std::to_string(m.query_heads) + ")");
  } else if (m.kv_heads % n != 0 && n % m.kv_heads != 0) {
    errors.fail(ErrorCode::incompatible, "/tensor_parallel",
                devices + " neither divides kv_heads (" + std::to_string(m.kv_heads) +
                    ") nor is a multiple of it");
  } else if (m.d_ff % n != 0) {
    errors.fail(ErrorCode::incompatible, "/tensor_parallel",
                devices + " does not divide d_ff (" + std::to_string(m.d_ff) + ")");
  } else if (scenario.hardware.interconnect_bandwidth <= 0) {
    errors.fail(ErrorCode::incompatible, "/tensor_parallel",
                "the accelerator " + scenario.hardware.id +
                    " states no interconnect_bandwidth to all-reduce over");
  }
}

// A named attention kernel must exist on the accelerator's architecture (FlashAttention-3 is a
// Hopper kernel): its efficiency elsewhere would be a number fitted on other hardware.
void check_attention_kernel_exists(const Scenario& scenario, FirstError& errors) {
  const char* kernel = attention_kernel_name(scenario.workload.attention_kernel);
  const Accelerator& hardware = scenario.hardware;
  if (attention_kernel_runs_on(kernel, hardware.architecture)) return;
  errors.fail(ErrorCode::incompatible, "/attention_kernel",
              std::string(kernel) + " runs only on " +
                  std::string(attention_kernel_architectures(kernel)) + " accelerators; " +
                  hardware.id + " is " + hardware.architecture);
}

// The workload's sizes: T, B and C, and the chunk count they imply (the attention loop's
// length). False after a problem, which the caller then reports before reading further.
bool read_sizes(const Fields& fields, Workload& work, FirstError& errors) {
  work.prompt_tokens = fields.integer(scenario_field("prompt_tokens"));
  work.batch = fields.integer(scenario_field("batch"));
  work.chunk_tokens = fields.integer(scenario_field("chunk_tokens"));
  if (errors.failed()) return false;
  const int64_t chunk = work.chunk_tokens == 0 ? work.prompt_tokens : work.chunk_tokens;
  if ((work.prompt_tokens + chunk - 1) / chunk > limits::max_chunks) {
    errors.fail(ErrorCode::too_large, fields.path("chunk_tokens"),
                "splits the prompt into more than " + std::to_string(limits::max_chunks) +
                    " chunks; use a larger chunk");
    return false;
  }
  return true;
}

// The rest of the workload, in the table's order (which decides the error reported first).
void read_workload(const Fields& fields, Workload& work) {
  work.attention = static_cast<AttentionKind>(fields.choice(scenario_field("attention")));
  work.gemm_m_tile = fields.integer(scenario_field("gemm_m_tile"));
  work.attention_block = fields.integer(scenario_field("attention_block"));
  work.arrival_rate = fields.number(scenario_field("arrival_rate"));
  work.delivery_seconds = fields.number(scenario_field("delivery_seconds"));
  work.compute_efficiency = fields.optional_number(scenario_field("compute_efficiency"));
  work.memory_efficiency = fields.optional_number(scenario_field("memory_efficiency"));
  work.timing = static_cast<Timing>(fields.choice(scenario_field("timing")));
  constexpr const ScenarioField& graphs = scenario_field("graphs");
  work.graphs = graphs.choices[fields.choice(graphs)].value == "on";
  work.stack = static_cast<Stack>(fields.choice(scenario_field("stack")));
  work.attention_kernel =
      static_cast<AttentionKernel>(fields.choice(scenario_field("attention_kernel")));
}

// The model, the accelerator and the precision, and whether the accelerator can run that
// precision's arithmetic. False after a problem.
bool read_parts(const Fields& fields, const Presets* presets, Scenario& scenario,
                FirstError& errors) {
  if (!fields.has("model")) {
    errors.fail(ErrorCode::missing_field, "/model", "is required (a preset id or a shape object)");
    return false;
  }
  if (!fields.has("hardware")) {
    errors.fail(ErrorCode::missing_field, "/hardware", "is required (a preset id or an object)");
    return false;
  }
  scenario.model = read_model(fields.at("model"), "/model", presets, errors);
  scenario.hardware = read_accelerator(fields.at("hardware"), "/hardware", presets, errors);
  scenario.precision = fields.has("precision")
                           ? read_precision(fields.at("precision"), "/precision", errors)
                           : precision_preset(scenario_field("precision").default_value()).value();
  if (errors.failed()) return false;
  if (!scenario.hardware.peak_flops.has(scenario.precision.activations)) {
    errors.fail(ErrorCode::incompatible, "/precision",
                std::string("the accelerator ") + scenario.hardware.id + " states no peak for " +
                    dtype_name(scenario.precision.activations) + " arithmetic");
    return false;
  }
  return true;
}

Scenario read_scenario(const json& value, const Presets* presets, FirstError& errors) {
  const Fields fields(value, "", kScenarioFields, errors);
  Scenario scenario;
  if (errors.failed() || !read_parts(fields, presets, scenario, errors)) return scenario;
  Workload& work = scenario.workload;
  if (!read_sizes(fields, work, errors)) return scenario;
  read_workload(fields, work);
  if (!errors.failed()) check_attention_kernel_exists(scenario, errors);
  if (!errors.failed() && work.timing == Timing::estimate && !scenario.hardware.estimate.stated()) {
    errors.fail(ErrorCode::incompatible, "/hardware/estimate",
                "is required for timing \"estimate\" (the accelerator " + scenario.hardware.id +
                    " has no calibrated profile)");
  }
  work.tensor_parallel = fields.integer(scenario_field("tensor_parallel"));
  if (errors.failed() || work.tensor_parallel == 1) return scenario;
  check_tensor_parallel(scenario, errors);
  return scenario;
}

}  // namespace

std::optional<Error> tensor_parallel_problem(const Scenario& scenario, int64_t devices) {
  if (devices == 1) return std::nullopt;
  Scenario copy = scenario;
  copy.workload.tensor_parallel = devices;
  FirstError errors;
  check_tensor_parallel(copy, errors);
  if (!errors.failed()) return std::nullopt;
  return errors.error();
}

// A stack's and an attention kernel's names are their field rows' choices: the reader casts the
// choice's index to the enum (read_workload), so the rows are in the enums' order by construction
// and one table names both ways. The choices are literals, so each view ends in a NUL.
static_assert(scenario_field("stack").choice_count == kStackCount, "one stack row per Stack");
static_assert(scenario_field("attention_kernel").choice_count == kAttentionKernelCount + 1,
              "one row per AttentionKernel: the named ones and auto");

const char* stack_name(Stack stack) {
  return scenario_field("stack").choices[static_cast<std::size_t>(stack)].value.data();
}

const char* attention_kernel_name(AttentionKernel kernel) {
  return scenario_field("attention_kernel").choices[static_cast<std::size_t>(kernel)].value.data();
}

// The estimate table's `interval` row lists the families in IntervalFamily's order
// (tests/cpp/scenario_fields_test.cpp); its names are literals, so each view ends in a NUL.
const char* interval_family_name(IntervalFamily family) {
  const ScenarioField& row = estimate_field("interval");
  const auto index = static_cast<std::size_t>(family);
  return index < row.choice_count ? row.choices[index].value.data() : "?";
}

const char* dtype_name(DType dtype) {
  return kDTypes[static_cast<std::size_t>(dtype)].name.data();
}

double bytes_per_element(DType dtype) {
  return kDTypes[static_cast<std::size_t>(dtype)].bytes;
}

Result<Precision> precision_preset(std::string_view name) {
  if (name == "bf16") return Precision{"bf16", DType::bf16, DType::bf16, DType::bf16};
  if (name == "fp16") return Precision{"fp16", DType::fp16, DType::fp16, DType::fp16};
  if (name == "fp8") return Precision{"fp8", DType::fp8, DType::fp8, DType::fp8};
  if (name == "int8") return Precision{"int8", DType::int8, DType::int8, DType::bf16};
  if (name == "int4") return Precision{"int4", DType::int4, DType::bf16, DType::bf16};
  return error_at(ErrorCode::unknown_name, "",
                  "unknown precision " + quoted_excerpt(name) +
                      " (bf16, fp16, fp8, int8, int4, or an object {weights, activations, kv})");
}

const ModelShape* Presets::find_model(std::string_view id) const {
  for (const auto& model : models) {
    if (model.id == id) return &model;
  }
  return nullptr;
}

const Accelerator* Presets::find_accelerator(std::string_view id) const {
  for (const auto& accelerator : accelerators) {
    if (accelerator.id == id) return &accelerator;
  }
  return nullptr;
}

Result<Presets> parse_presets(std::string_view models_json, std::string_view hardware_json) {
  auto models = parse_strict_json(models_json);
  if (!models) return error_at(ErrorCode::internal, "", "models.json: " + models.error());
  auto hardware = parse_strict_json(hardware_json);
  if (!hardware) return error_at(ErrorCode::internal, "", "hardware.json: " + hardware.error());
  Presets presets;
  FirstError errors;
  const Fields model_file(models.value(), "", {"about", "models"}, errors);
  const json& model_list = model_file.at("models");
  if (!model_list.is_array()) errors.fail(ErrorCode::wrong_type, "/models", "must be an array");
  for (std::size_t i = 0; i < model_list.size() && model_list.is_array(); ++i) {
    presets.models.push_back(read_model(model_list[i], child_path("/models", i), nullptr, errors));
  }
  const Fields hardware_file(hardware.value(), "", {"about", "accelerators"}, errors);
  const json& accelerator_list = hardware_file.at("accelerators");
  if (!accelerator_list.is_array())
    errors.fail(ErrorCode::wrong_type, "/accelerators", "must be an array");
  for (std::size_t i = 0; i < accelerator_list.size() && accelerator_list.is_array(); ++i) {
    presets.accelerators.push_back(
        read_accelerator(accelerator_list[i], child_path("/accelerators", i), nullptr, errors));
  }
  if (errors.failed()) return error_at(ErrorCode::internal, "", "presets: " + errors.message());
  return presets;
}

const Presets& builtin_presets() {
  // The embedded files are checked by tests/cpp; a failure here is a build defect, so the
  // catalogue is simply empty rather than aborting a host page.
  static const Presets presets = [] {
    auto parsed = parse_presets(data::models(), data::hardware());
    return parsed ? parsed.value() : Presets{};
  }();
  return presets;
}

Result<Scenario> scenario_from_json(const json& value) {
  FirstError errors;
  Scenario scenario = read_scenario(value, &builtin_presets(), errors);
  if (errors.failed()) return errors.error();
  return scenario;
}

Result<Scenario> parse_scenario(std::string_view json_text) {
  auto document = parse_strict_json(json_text);
  if (!document) return document.failure();
  return scenario_from_json(document.value());
}

}  // namespace prefill_trace
