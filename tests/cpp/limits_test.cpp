// The input bounds of src/limits.hpp and the number-text rule of
// include/prefill_trace/number_text.hpp: what they refuse, and that the most extreme scenario they
// admit still gives finite figures.

#include <gtest/gtest.h>

#include <cmath>

#include "json_path.hpp"
#include "prefill_trace/engine.hpp"
#include "prefill_trace/number_text.hpp"
#include "scenario/scenario.hpp"
#include "test_support.hpp"
#include "trace/trace.hpp"
#include "trace/trace_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;
using test::expect_finite;

// The shared table (tests/data/number-text.json) is also run against the page's rule by
// tests/js/number-text.test.mjs, so the CLI and the page cannot drift apart.
TEST(NumberText, FollowsTheSharedTable) {
  const json table = json::parse(test::read_text("tests/data/number-text.json"));
  ASSERT_GE(table.at("cases").size(), 40u);
  for (const json& row : table.at("cases")) {
    const std::string text = row.at("text").get<std::string>();
    const auto parsed = parse_decimal(text);
    if (row.at("value").is_null()) {
      EXPECT_FALSE(parsed.ok()) << '"' << text << "\" read as " << (parsed ? *parsed : 0.0);
    } else {
      ASSERT_TRUE(parsed.ok()) << '"' << text << "\": " << parsed.error();
      EXPECT_EQ(*parsed, row.at("value").get<double>()) << '"' << text << '"';
    }
  }
}

TEST(NumberText, SaysWhyATextIsRefused) {
  EXPECT_EQ(parse_decimal("0x800").error(), "is not a decimal number");
  EXPECT_EQ(parse_decimal("1e999").error(), "is beyond the range of a double");
}

std::string scenario_error(const json& scenario) {
  auto parsed = scenario_from_json(scenario);
  return parsed ? "" : parsed.error();
}

TEST(Limits, EfficienciesHaveAFloor) {
  const json base = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}};
  for (const double tiny : {1e-310, 1e-4, 0.0}) {
    json scenario = base;
    scenario["compute_efficiency"] = tiny;
    EXPECT_EQ(scenario_error(scenario), "/compute_efficiency: must be from 0.001 to 1") << tiny;
    scenario = base;
    scenario["memory_efficiency"] = tiny;
    EXPECT_EQ(scenario_error(scenario), "/memory_efficiency: must be from 0.001 to 1") << tiny;
  }
  json floor = base;
  floor["compute_efficiency"] = limits::min_efficiency;
  floor["memory_efficiency"] = limits::min_efficiency;
  EXPECT_EQ(scenario_error(floor), "");
}

// The corner of the input space that makes times largest: the widest, deepest model the limits
// admit, the longest prompt and largest batch, on the slowest device at the lowest efficiency.
// Times there are ~1e26 s: huge, finite, and the queue is empty, so
// TTFT must be a number, not null.
TEST(Limits, TheSlowestAdmittedScenarioStaysFinite) {
  const json scenario = {{"model",
                          {{"layers", limits::max_layers},
                           {"d_model", limits::max_width},
                           {"query_heads", 8192},
                           {"d_ff", limits::max_width},
                           {"vocab", limits::max_vocab}}},
                         {"hardware",
                          {{"peak_flops", {{"bf16", limits::min_peak_flops}}},
                           {"memory_bandwidth", limits::min_memory_bandwidth},
                           {"memory_capacity", limits::min_memory_capacity},
                           {"sram_per_unit_bytes", limits::min_sram_per_unit_bytes},
                           {"launch_overhead_seconds", limits::max_launch_overhead_seconds}}},
                         {"prompt_tokens", limits::max_prompt_tokens},
                         {"batch", limits::max_batch},
                         {"compute_efficiency", limits::min_efficiency},
                         {"memory_efficiency", limits::min_efficiency}};
  auto parsed = scenario_from_json(scenario);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  expect_finite(trace_to_json(trace), "");
  ASSERT_FALSE(trace.ttft.overloaded);
  ASSERT_TRUE(trace.ttft.total_seconds.has_value());
  EXPECT_TRUE(std::isfinite(*trace.ttft.total_seconds));
  // A lower bound by hand, from attention alone: QKᵀ and PV cost 2 FLOPs per multiply-add each,
  // so 4 · T(T+1)/2 · d_h · h_q · L · B = 4 · 1.407e14 · 128 · 8192 · 4096 · 65536 = 1.585e29
  // FLOPs (T = 2^24, d_h = 2^20 / 8192 = 128), at 1e6 · 0.001 = 1e3 FLOP/s: 1.585e26 s.
  EXPECT_GT(*trace.ttft.total_seconds, 1.58e26);

  const auto figures = api::trace_figures(dump_json(scenario));
  ASSERT_TRUE(figures.ok) << figures.error;
  // Layout 3 writes a JSON null as NaN, never an infinity; the signature and the version are
  // whole numbers.
  ASSERT_GT(figures.figures.size(), 2u);
  EXPECT_EQ(figures.figures[0], 3);
  for (std::size_t i = 0; i < figures.figures.size(); ++i)
    EXPECT_FALSE(std::isinf(figures.figures[i])) << "figure " << i;
}

}  // namespace
}  // namespace prefill_trace
