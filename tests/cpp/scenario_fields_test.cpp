// The scenario's field table (src/scenario_fields.hpp) against the reader that uses it and the
// enums its choices select: each bound admits its own ends and refuses one step beyond, each
// choice's index is the enum value of that name, and the structs' defaults are the table's.

#include "scenario_fields.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "prefill_trace/engine.hpp"
#include "scenario.hpp"
#include "trace_schema.hpp"

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
    // One step beyond each end: 1 for an integer; for a real, −1 below a floor of 0, else a
    // tenth of the bound (the floors 1e-30 and 1e-3 are far above the next double).
    const bool integral = field.kind == FieldKind::integer;
    const double below = integral ? field.min - 1 : field.min == 0 ? -1 : field.min * 0.9;
    const double above = integral ? field.max + 1 : field.max * 1.1;
    for (const double beyond : {below, above}) {
      const auto refused = with_member(std::string(field.name), beyond);
      ASSERT_FALSE(refused.ok()) << path << " = " << beyond;
      EXPECT_EQ(refused.failure().code, ErrorCode::out_of_range) << path << " = " << beyond;
      EXPECT_EQ(refused.failure().path, path);
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
  }
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

TEST(ScenarioFields, TheFacadeExportsEveryRow) {
  const json table = json::parse(api::scenario_fields());
  ASSERT_EQ(table.at("scenario").size(), kScenarioFields.size());
  ASSERT_EQ(table.at("model").size(), kModelFields.size());
  const json& prompt = table.at("scenario").at(3);
  EXPECT_EQ(prompt.at("name"), "prompt_tokens");
  EXPECT_EQ(prompt.at("max"), limits::max_prompt_tokens);
  EXPECT_EQ(prompt.at("default"), 2048);
  EXPECT_TRUE(table.at("scenario").at(11).at("default").is_null());  // compute_efficiency
}

}  // namespace
}  // namespace prefill_trace
