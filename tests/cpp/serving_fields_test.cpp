// The serving object's field table (src/serving/serving_fields.hpp) against the reader that uses it
// (src/serving/serving_json.cpp) and the config it fills: each bound admits its own ends and
// refuses one step beyond at the field's path, each policy choice's index is the enum of that name,
// and ServingConfig's defaults are the table's.

#include "serving/serving_fields.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "serving/serving_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// The smallest valid serving request with one member set.
Result<ServingRequest> with_member(const std::string& name, const json& value) {
  json serving = {{"rate", 1}, {"requests", 1}, {"prompt", 10}, {"output", 2}};
  serving[name] = value;
  return serving_request_from_json(
      json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"serving", serving}});
}

bool is_bounded(const ScenarioField& field) {
  return field.kind == FieldKind::integer || field.kind == FieldKind::number ||
         field.kind == FieldKind::length;
}

// The instances' tensor-parallel degrees are checked by the scenario's rules (they must divide
// the model's heads): their ends are not the model's.
bool shape_dependent(const ScenarioField& field) {
  return field.name == "prefill_tensor_parallel" || field.name == "decode_tensor_parallel";
}

// A request trace's reading options are refused without a trace (tests/cpp/serving_trace_test.cpp).
bool needs_trace(const ScenarioField& field) {
  return field.name == "trace_rate_scale" || field.name == "trace_limit";
}

TEST(ServingFields, EachBoundAdmitsItsEndsAndRefusesBeyond) {
  int checked = 0;
  for (const ScenarioField& field : kServingFields) {
    if (!is_bounded(field) || shape_dependent(field) || needs_trace(field)) continue;
    const std::string name(field.name);
    const std::string path = "/serving/" + name;
    // An open lower end is refused itself; rate's lowest admitted value depends on requests
    // (arrivals within a year), so only its refusal at 0 is checked here.
    if (field.min_exclusive) {
      EXPECT_EQ(with_member(name, field.min).failure().path, path) << path << " = min";
    } else {
      EXPECT_TRUE(with_member(name, field.min).ok()) << path << " = min";
    }
    // Whole numbers as JSON integers, stepped in integers: a seed of 2^53 + 1 is refused exactly.
    const bool whole = field.kind != FieldKind::number;
    const auto lowest = static_cast<int64_t>(field.min);
    const auto highest = static_cast<int64_t>(field.max);
    EXPECT_TRUE(with_member(name, whole ? json(highest) : json(field.max)).ok())
        << path << " = max";
    // One step beyond: 1 for whole numbers, −1 below a floor of 0, else a tenth of the bound.
    const std::array<json, 2> beyond = {
        whole ? json(lowest - 1) : json(field.min == 0 ? -1 : field.min * 0.9),
        whole ? json(highest + 1) : json(field.max * 1.1)};
    for (const json& stated : beyond) {
      const std::string value = stated.dump();
      const auto refused = with_member(name, stated);
      ASSERT_FALSE(refused.ok()) << path << " = " << value;
      EXPECT_EQ(refused.failure().code, ErrorCode::out_of_range) << path << " = " << value;
      EXPECT_EQ(refused.failure().path, path);
    }
    ++checked;
  }
  // rate, requests, seed, prompt, output, prefix_hit, token_budget, max_batch, max_queue,
  // prefill_devices, decode_devices, ttft_slo, tpot_slo, attainment, goodput_tolerance,
  // timeline_points, block_size, gpu_memory_utilization, token_times.
  EXPECT_EQ(checked, 19);
}

// The reader casts the K/V menu's index to the enum, as it does the policy's.
TEST(ServingFields, KvModesAreInTheEnumsOrder) {
  const ScenarioField& kv = serving_field("kv");
  ASSERT_EQ(kv.choice_count, 2u);
  EXPECT_EQ(kv.choices[static_cast<std::size_t>(KvMode::paged)].value, "paged");
  EXPECT_EQ(kv.choices[static_cast<std::size_t>(KvMode::reserve)].value, "reserve");
  EXPECT_EQ(kv.default_value(), "paged");  // the new default
}

// The reader casts the policy's index to the enum: the names must be in its order.
TEST(ServingFields, PoliciesAreInTheEnumsOrder) {
  const ScenarioField& policy = serving_field("policy");
  ASSERT_EQ(policy.choice_count, 3u);
  for (std::size_t i = 0; i < policy.choice_count; ++i) {
    EXPECT_EQ(policy.choices[i].value, policy_name(static_cast<SchedulerPolicy>(i)));
    const auto read = with_member("policy", std::string(policy.choices[i].value));
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(static_cast<std::size_t>(read->config.policy), i);
  }
}

// What a request without the member reads as is ServingConfig's default, and the table's.
TEST(ServingFields, DefaultsAreTheConfigs) {
  const ServingConfig config;
  EXPECT_EQ(serving_field("policy").default_as<SchedulerPolicy>(), config.policy);
  EXPECT_EQ(serving_field("seed").default_integer(), static_cast<int64_t>(config.seed));
  EXPECT_EQ(serving_field("prefix_hit").default_number, config.prefix_hit);
  EXPECT_EQ(serving_field("attainment").default_number, config.attainment_target);
  EXPECT_EQ(serving_field("goodput").default_number != 0, config.goodput);
  EXPECT_EQ(serving_field("goodput_tolerance").default_number, config.goodput_tolerance);
  EXPECT_EQ(serving_field("timeline_points").default_integer(), config.timeline_points);
  EXPECT_EQ(serving_field("arrival").default_text, "poisson");
  EXPECT_EQ(config.arrival, ArrivalKind::poisson);
  const auto read = with_member("seed", 1);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->config.timeline_points, config.timeline_points);
  EXPECT_EQ(read->config.attainment_target, config.attainment_target);
}

// Every flag the CLI takes from the table is spelt as a flag, and no two fields or aliases
// share one.
TEST(ServingFields, FlagsAreDistinct) {
  std::vector<std::string_view> flags;
  for (const ScenarioField& field : kServingFields) {
    if (!field.flag.empty()) flags.push_back(field.flag);
  }
  for (const FlagAlias& alias : kServingFlagAliases) {
    flags.push_back(alias.flag);
    EXPECT_NE(serving_field(alias.key).name, "") << alias.flag;
  }
  for (std::size_t i = 0; i < flags.size(); ++i) {
    EXPECT_EQ(flags[i].substr(0, 2), "--");
    for (std::size_t j = i + 1; j < flags.size(); ++j) EXPECT_NE(flags[i], flags[j]);
  }
}

}  // namespace
}  // namespace prefill_trace
