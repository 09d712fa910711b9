// The scenario's field tables (src/scenario/scenario_fields.hpp) against the reader that uses them
// and the enums their choices select: each bound admits its own ends and refuses one step beyond,
// each choice's index is the enum value of that name, each required field is, and the structs'
// defaults are the tables'.

#include "scenario/scenario_fields.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <tuple>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace_schema.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// The default scenario of the README with one member set.
Result<Scenario> with_member(const std::string& name, const json& value) {
  json scenario = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}};
  scenario[name] = value;
  return scenario_from_json(scenario);
}

bool is_bounded(const ScenarioField& field) {
  return field.kind == FieldKind::integer || field.kind == FieldKind::number ||
         field.kind == FieldKind::zero_or_number;
}

// One step beyond each end of a bounded field: 1 for an integer; for a real, −1 below a floor of
// 0, else a tenth of the bound (the floors 1e-30, 1e-3, 0.01, 1024 and 1e6 are far above the
// next double).
std::array<double, 2> beyond_ends(const ScenarioField& field) {
  const bool integral = field.kind == FieldKind::integer;
  return {integral         ? field.min - 1
          : field.min == 0 ? -1
                           : field.min * 0.9,
          integral ? field.max + 1 : field.max * 1.1};
}

// tensor_parallel above 1 needs a model it divides; its ends are checked by their own test.
bool shape_dependent(const ScenarioField& field) {
  return field.name == "tensor_parallel";
}

TEST(ScenarioFields, EachBoundAdmitsItsEndsAndRefusesBeyond) {
  int checked = 0;
  for (const ScenarioField& field : kScenarioFields) {
    if (!is_bounded(field) || shape_dependent(field)) continue;
    const std::string path = "/" + std::string(field.name);
    // chunk_tokens at its maximum with T = 1: one chunk; at its minimum (0): the whole prompt.
    EXPECT_TRUE(with_member(std::string(field.name), field.min).ok()) << path << " = min";
    EXPECT_TRUE(with_member(std::string(field.name), field.max).ok()) << path << " = max";
    for (const double beyond : beyond_ends(field)) {
      const auto refused = with_member(std::string(field.name), beyond);
      ASSERT_FALSE(refused.ok()) << path << " = " << beyond;
      EXPECT_EQ(refused.failure().code, ErrorCode::out_of_range) << path << " = " << beyond;
      EXPECT_EQ(refused.failure().path, path);
      // The detail carries what the message says in words: the row's bounds, its kind, the value.
      const ErrorDetail& detail = refused.failure().detail;
      EXPECT_EQ(detail.minimum, field.min) << path;
      EXPECT_EQ(detail.maximum, field.max) << path;
      EXPECT_EQ(detail.expected, field.kind == FieldKind::integer ? "integer" : "number") << path;
      EXPECT_EQ(detail.zero_allowed, field.kind == FieldKind::zero_or_number) << path;
      EXPECT_EQ(detail.value, json(beyond).dump()) << path;
      EXPECT_EQ(detail.found, "") << path;
    }
    ++checked;
  }
  // prompt_tokens, batch, chunk_tokens, gemm_m_tile, attention_block, arrival_rate,
  // delivery_seconds, compute_efficiency, memory_efficiency.
  EXPECT_EQ(checked, 9);
}

TEST(ScenarioFields, TensorParallelBoundsFromTheTable) {
  const ScenarioField& field = scenario_field("tensor_parallel");
  EXPECT_EQ(field.max, double(limits::max_tensor_parallel));
  const auto refused = with_member("tensor_parallel", field.max + 1);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.failure().code, ErrorCode::out_of_range);
  EXPECT_EQ(refused.failure().path, "/tensor_parallel");
  EXPECT_EQ(with_member("tensor_parallel", field.min - 1).failure().code, ErrorCode::out_of_range);
}

TEST(ScenarioFields, EveryChoiceIsReadAndAnythingElseRefusedAtItsPath) {
  for (const ScenarioField& field : kScenarioFields) {
    if (field.kind != FieldKind::choice) continue;
    for (std::size_t i = 0; i < field.choice_count; ++i) {
      // timing "estimate" on the H100 preset, which has a profile: every value is readable.
      EXPECT_TRUE(with_member(std::string(field.name), std::string(field.choices[i].value)).ok())
          << field.name << " = " << field.choices[i].value;
    }
    const auto refused = with_member(std::string(field.name), "no-such-value");
    ASSERT_FALSE(refused.ok()) << field.name;
    EXPECT_EQ(refused.failure().code, ErrorCode::unknown_name);
    EXPECT_EQ(refused.failure().path, "/" + std::string(field.name));
    EXPECT_EQ(refused.failure().detail.expected, "one_of");
    EXPECT_EQ(refused.failure().detail.value, "\"no-such-value\"");
    EXPECT_TRUE(std::isnan(refused.failure().detail.minimum));
  }
}

// A value of the wrong type: the detail names the kind expected and the JSON type found; the
// message is unchanged ("must be an integer, not string").
TEST(ScenarioFields, WrongTypeDetailNamesTheKindAndTheTypeFound) {
  const auto text = with_member("batch", "two");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.failure().message, "/batch: must be an integer, not string");
  EXPECT_EQ(text.failure().detail.expected, "integer");
  EXPECT_EQ(text.failure().detail.found, "string");
  EXPECT_EQ(text.failure().detail.value, "\"two\"");
  const auto fraction = with_member("batch", 2.5);
  EXPECT_EQ(fraction.failure().detail.found, "number");
  const auto rate = with_member("arrival_rate", json());
  EXPECT_EQ(rate.failure().message, "/arrival_rate: must be a number, not null");
  EXPECT_EQ(rate.failure().detail.expected, "number");
  EXPECT_EQ(rate.failure().detail.found, "null");
}

// The reader casts a choice's index to the enum: the names must be in the enum's order.
TEST(ScenarioFields, ChoicesAreInTheirEnumsOrder) {
  const ScenarioField& stack = scenario_field("stack");
  ASSERT_EQ(stack.choice_count, kStackCount);
  for (std::size_t i = 0; i < kStackCount; ++i)
    EXPECT_EQ(stack.choices[i].value, stack_name(static_cast<Stack>(i)));
  const ScenarioField& kernel = scenario_field("attention_kernel");
  ASSERT_EQ(kernel.choice_count, kAttentionKernelCount + 1);  // with auto
  for (std::size_t i = 0; i < kernel.choice_count; ++i)
    EXPECT_EQ(kernel.choices[i].value, attention_kernel_name(static_cast<AttentionKernel>(i)));
  // The trace echoes attention and timing by the schema's own names.
  const ScenarioField& attention = scenario_field("attention");
  for (std::size_t i = 0; i < attention.choice_count; ++i)
    EXPECT_EQ(attention.choices[i].value,
              schema_detail::attention_name(static_cast<AttentionKind>(i)));
  const ScenarioField& timing = scenario_field("timing");
  for (std::size_t i = 0; i < timing.choice_count; ++i)
    EXPECT_EQ(timing.choices[i].value, schema_detail::timing_name(static_cast<Timing>(i)));
  // mlp: a preset of each kind reads back as the name the table puts at its enum's index.
  const ScenarioField& mlp = model_field("mlp");
  const json shape = {
      {"layers", 2}, {"d_model", 64}, {"query_heads", 4}, {"d_ff", 128}, {"vocab", 100}};
  for (std::size_t i = 0; i < mlp.choice_count; ++i) {
    json custom = shape;
    custom["mlp"] = std::string(mlp.choices[i].value);
    const auto scenario = with_member("model", custom);
    ASSERT_TRUE(scenario.ok()) << scenario.error();
    EXPECT_EQ(static_cast<std::size_t>(scenario->model.mlp), i);
  }
}

TEST(ScenarioFields, EveryNamedPrecisionIsAPreset) {
  const ScenarioField& precision = scenario_field("precision");
  ASSERT_EQ(precision.choice_count, 5u);  // bf16, fp16, fp8, int8, int4 (docs/model.md)
  for (std::size_t i = 0; i < precision.choice_count; ++i) {
    const auto preset = precision_preset(precision.choices[i].value);
    ASSERT_TRUE(preset.ok()) << precision.choices[i].value;
    EXPECT_EQ(preset->name, precision.choices[i].value);
  }
}

// What a scenario without the field reads as is what code that builds a Workload or a
// ModelShape gets, and what the table (and so the docs and the page) say.
TEST(ScenarioFields, StructDefaultsAreTheTables) {
  const Scenario read = with_member("batch", 1).value();
  const Workload built;
  EXPECT_EQ(read.workload.prompt_tokens, built.prompt_tokens);
  EXPECT_EQ(read.workload.gemm_m_tile, built.gemm_m_tile);
  EXPECT_EQ(built.prompt_tokens, 2048);  // docs/trace-json.md's example
  EXPECT_EQ(built.gemm_m_tile, 128);
  EXPECT_EQ(static_cast<int>(built.stack), static_cast<int>(Stack::tensorrt_llm));
  EXPECT_FALSE(built.graphs);
  const ModelShape shape;
  EXPECT_EQ(shape.experts, model_field("experts").default_integer());
  EXPECT_EQ(shape.active_experts, model_field("active_experts").default_integer());
  EXPECT_EQ(shape.sliding_window, model_field("sliding_window").default_integer());
  EXPECT_EQ(shape.tied_embeddings, model_field("tied_embeddings").default_number != 0);
  EXPECT_EQ(shape.parallel_attention, model_field("parallel_attention").default_number != 0);
  EXPECT_EQ(static_cast<std::size_t>(shape.mlp), model_field("mlp").default_choice);
}

// An accelerator object with one member set: over the H100 preset (whose profile states every
// efficiency), or, with `custom`, over the smallest whole accelerator that runs bf16.
json accelerator_with(const std::string& name, const json& value, bool custom = false) {
  json hardware = custom ? json{{"peak_flops", {{"bf16", 1e15}}},
                                {"memory_bandwidth", 3e12},
                                {"memory_capacity", 8e10},
                                {"sram_per_unit_bytes", 228000}}
                         : json{{"preset", "h100-sxm"}};
  hardware[name] = value;
  return hardware;
}
// An estimate profile with one member set, over the preset's or, with `custom`, over a custom
// accelerator's stating only the required efficiencies.
json estimate_with(const std::string& name, const json& value, bool custom = false) {
  json profile = custom ? json{{"gemm_efficiency", 0.7},
                               {"attention_efficiency", 0.5},
                               {"memory_efficiency", 0.6},
                               {"interconnect_efficiency", 0.8}}
                        : json::object();
  profile[name] = value;
  return accelerator_with("estimate", profile, custom);
}

// Each bounded member, and each key of a keyed object of numbers (a number format's peak, a
// stack's gap, a kernel's efficiency), admits its ends and is refused one step beyond at its
// path. `set` puts the value in place, `path` is where the error must be.
template <std::size_t N, typename Set>
int check_bounds(const std::array<ScenarioField, N>& table, const std::string& prefix, Set set) {
  int checked = 0;
  for (const ScenarioField& field : table) {
    const bool keyed = field.kind == FieldKind::named_numbers;
    if (!is_bounded(field) && !keyed) continue;
    for (std::size_t key = 0; key < (keyed ? field.choice_count : 1); ++key) {
      const std::string name(field.name);
      const std::string path =
          prefix + name + (keyed ? "/" + std::string(field.choices[key].value) : "");
      const auto with = [&](double value) {
        json member = value;
        if (keyed) {
          // The scenario's bf16 arithmetic needs a bf16 peak whichever format is set.
          member = field.name == "peak_flops" ? json{{"bf16", 1e15}} : json::object();
          member[std::string(field.choices[key].value)] = value;
        }
        return with_member("hardware", set(name, member));
      };
      EXPECT_TRUE(with(field.min).ok()) << path << " = min";
      EXPECT_TRUE(with(field.max).ok()) << path << " = max";
      for (const double beyond : beyond_ends(field)) {
        const auto refused = with(beyond);
        EXPECT_FALSE(refused.ok()) << path << " = " << beyond;
        if (refused.ok()) continue;
        EXPECT_EQ(refused.failure().code, ErrorCode::out_of_range) << path << " = " << beyond;
        EXPECT_EQ(refused.failure().path, path);
      }
      ++checked;
    }
  }
  return checked;
}

TEST(AcceleratorFields, EachBoundAdmitsItsEndsAndRefusesBeyond) {
  // memory_bandwidth, memory_capacity, compute_units, sram_per_unit_bytes, l2_bytes,
  // launch_overhead_seconds, interconnect_bandwidth, and peak_flops' 6 number formats.
  EXPECT_EQ(check_bounds(
                kAcceleratorFields, "/hardware/",
                [](const std::string& name, const json& v) { return accelerator_with(name, v); }),
            7 + 6);
  // 6 efficiencies (the decode step's bandwidth among them), 5 times (the decode floor among
  // them), 6 stacks' gaps and 4 kernels' efficiencies.
  EXPECT_EQ(
      check_bounds(kEstimateFields, "/hardware/estimate/",
                   [](const std::string& name, const json& v) { return estimate_with(name, v); }),
      6 + 5 + 6 + 4);
}

TEST(AcceleratorFields, KeyedObjectsRefuseOtherKeys) {
  for (const auto& [hardware, path] :
       {std::pair{accelerator_with("peak_flops", {{"bf16", 1e15}, {"tf32", 1e14}}),
                  "/hardware/peak_flops/tf32"},
        {estimate_with("stack_gap_seconds", {{"tgi", 0}}),
         "/hardware/estimate/stack_gap_seconds/tgi"},
        {estimate_with("attention_kernel_efficiency", {{"auto", 0.5}}),
         "/hardware/estimate/attention_kernel_efficiency/auto"},
        {estimate_with("interval", {{"decode", {{"low", 1}}}}),
         "/hardware/estimate/interval/decode"}}) {
    const auto refused = with_member("hardware", hardware);
    ASSERT_FALSE(refused.ok()) << path;
    EXPECT_EQ(refused.failure().code, ErrorCode::unknown_field);
    EXPECT_EQ(refused.failure().path, path);
  }
  // Every family of the interval is read into its own slot (IntervalFamily's order).
  const ScenarioField& interval = estimate_field("interval");
  ASSERT_EQ(interval.choice_count, kIntervalFamilyCount);
  for (std::size_t i = 0; i < kIntervalFamilyCount; ++i) {
    const char* family = interval_family_name(static_cast<IntervalFamily>(i));
    EXPECT_EQ(interval.choices[i].value, family);
    const auto read =
        with_member("hardware", estimate_with("interval", {{family, {{"low", 0.5}, {"high", 2}}}}));
    ASSERT_TRUE(read.ok()) << family << ": " << read.error();
    EXPECT_EQ(read->hardware.estimate.interval[i][0], 0.5) << family;
    EXPECT_EQ(read->hardware.estimate.interval[i][1], 2.0) << family;
  }
}

// Without a preset (or, for the profile, without the preset's profile) each required member is
// refused when absent, at its path; every other member may be left out.
TEST(AcceleratorFields, RequiredMeansRequiredWithoutAPreset) {
  int required = 0;
  for (const auto& [table, prefix] : {std::pair{kAcceleratorFields.data(), "/hardware/"},
                                      std::pair{kEstimateFields.data(), "/hardware/estimate/"}}) {
    const bool profile = table == kEstimateFields.data();
    const std::size_t count = profile ? kEstimateFields.size() : kAcceleratorFields.size();
    for (std::size_t i = 0; i < count; ++i) {
      const ScenarioField& field = table[i];
      json custom = profile ? estimate_with("fit", "", true) : accelerator_with("note", "", true);
      json& object = profile ? custom.at("estimate") : custom;
      object.erase(std::string(field.name));
      const auto read = with_member("hardware", custom);
      EXPECT_EQ(read.ok(), !field.required) << prefix << field.name;
      if (!field.required) continue;
      ++required;
      EXPECT_EQ(read.failure().code, ErrorCode::missing_field);
      EXPECT_EQ(read.failure().path, prefix + std::string(field.name));
      // Over a preset that states it, it may be left out.
      json over_preset = profile ? estimate_with("fit", "") : accelerator_with("note", "");
      (profile ? over_preset.at("estimate") : over_preset).erase(std::string(field.name));
      EXPECT_TRUE(with_member("hardware", over_preset).ok()) << field.name;
    }
  }
  EXPECT_EQ(required, 4 + 4);  // peak_flops, bandwidth, capacity, SRAM; the 4 efficiencies
}

TEST(AcceleratorFields, ChoicesAreReadInTheirEnumsOrder) {
  const ScenarioField& peaks = accelerator_field("peak_flops");
  ASSERT_EQ(peaks.choice_count, 6u);
  for (std::size_t i = 0; i < peaks.choice_count; ++i)
    EXPECT_EQ(peaks.choices[i].value, dtype_name(static_cast<DType>(i)));
  const ScenarioField& kind = accelerator_field("interconnect_kind");
  for (std::size_t i = 0; i < kind.choice_count; ++i) {
    const auto read = with_member(
        "hardware", accelerator_with("interconnect_kind", std::string(kind.choices[i].value)));
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(static_cast<std::size_t>(read->hardware.interconnect_kind), i);
  }
  // architecture: the names src/scenario/attention_kernels.hpp knows, or "" (not checked).
  const ScenarioField& architecture = accelerator_field("architecture");
  ASSERT_EQ(architecture.choice_count, std::size(kArchitectures));
  for (std::size_t i = 0; i < architecture.choice_count; ++i) {
    EXPECT_EQ(architecture.choices[i].value, kArchitectures[i]);
    EXPECT_TRUE(with_member("hardware",
                            accelerator_with("architecture", std::string(kArchitectures[i]), true))
                    .ok());
  }
  EXPECT_TRUE(with_member("hardware", accelerator_with("architecture", "", true)).ok());
  for (const char* name : {"architecture", "interconnect_kind"}) {
    const auto refused = with_member("hardware", accelerator_with(name, "no-such-value"));
    ASSERT_FALSE(refused.ok()) << name;
    EXPECT_EQ(refused.failure().code, ErrorCode::unknown_name);
    EXPECT_EQ(refused.failure().path, "/hardware/" + std::string(name));
  }
}

TEST(AcceleratorFields, DefaultsAreTheTables) {
  const auto custom = with_member("hardware", accelerator_with("note", "", true));
  ASSERT_TRUE(custom.ok());
  const Accelerator& read = custom->hardware;
  const Accelerator built;
  EXPECT_EQ(read.interconnect_kind, LinkKind::pcie);  // docs/trace-json.md: pcie unless stated
  EXPECT_EQ(built.interconnect_kind, read.interconnect_kind);
  EXPECT_EQ(static_cast<std::size_t>(read.interconnect_kind),
            accelerator_field("interconnect_kind").default_choice);
  EXPECT_EQ(read.interconnect_reduces_in_network,
            accelerator_field("interconnect_reduces_in_network").default_number != 0);
  EXPECT_EQ(read.compute_units, accelerator_field("compute_units").default_integer());
  EXPECT_EQ(read.l2_bytes, accelerator_field("l2_bytes").default_number);
  EXPECT_EQ(read.launch_overhead_seconds,
            accelerator_field("launch_overhead_seconds").default_number);
  EXPECT_EQ(read.interconnect_bandwidth,
            accelerator_field("interconnect_bandwidth").default_number);
}

// The preset files are read without presets: an entry that names one is refused at its
// "preset", before its type is looked at; a string entry likewise at its own path.
TEST(AcceleratorFields, PresetFilesCannotNamePresets) {
  const std::string model = R"({"models": [{"layers": 1, "d_model": 8, "query_heads": 1,
                                            "d_ff": 8, "vocab": 8}]})";
  const std::string hardware = R"({"accelerators": [{"peak_flops": {"bf16": 1e15},
      "memory_bandwidth": 1e12, "memory_capacity": 1e10, "sram_per_unit_bytes": 1e5}]})";
  ASSERT_TRUE(parse_presets(model, hardware).ok());
  for (const auto& [models, accelerators, where] :
       {std::tuple{std::string(R"({"models": [{"preset": 5}]})"), hardware,
                   "/models/0/preset: presets are not available here"},
        {model, std::string(R"({"accelerators": [{"preset": 5}]})"),
         "/accelerators/0/preset: presets are not available here"},
        {model, std::string(R"({"accelerators": ["h100-sxm"]})"),
         "/accelerators/0: presets are not available here"}}) {
    const auto refused = parse_presets(models, accelerators);
    ASSERT_FALSE(refused.ok()) << where;
    EXPECT_NE(refused.failure().what.find(where), std::string::npos) << refused.failure().what;
  }
}

TEST(ScenarioFields, TheFacadeExportsEveryRow) {
  const json table = json::parse(api::scenario_fields());
  ASSERT_EQ(table.at("scenario").size(), kScenarioFields.size());
  ASSERT_EQ(table.at("model").size(), kModelFields.size());
  ASSERT_EQ(table.at("hardware").size(), kAcceleratorFields.size());
  ASSERT_EQ(table.at("estimate").size(), kEstimateFields.size());
  const json& peaks = table.at("hardware").at(5);
  EXPECT_EQ(peaks.at("name"), "peak_flops");
  EXPECT_EQ(peaks.at("kind"), "named_numbers");
  EXPECT_EQ(peaks.at("min"), limits::min_peak_flops);
  EXPECT_EQ(peaks.at("max"), limits::max_peak_flops);
  EXPECT_TRUE(peaks.at("required"));
  EXPECT_EQ(table.at("estimate").at(0).at("name"), "gemm_efficiency");
  const json& prompt = table.at("scenario").at(3);
  EXPECT_EQ(prompt.at("name"), "prompt_tokens");
  EXPECT_EQ(prompt.at("max"), limits::max_prompt_tokens);
  EXPECT_EQ(prompt.at("default"), 2048);
  EXPECT_TRUE(table.at("scenario").at(11).at("default").is_null());  // compute_efficiency
}

}  // namespace
}  // namespace prefill_trace
