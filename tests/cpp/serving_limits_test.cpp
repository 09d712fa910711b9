// A serving call's time and memory bounded by its limits (issue 33, V1 and V4;
// src/serving/work.hpp, src/limits.hpp): a call past a limit is refused with the limit's name
// before or during its work, never run for minutes; a run longer than the iterations it keeps
// draws its timeline by folding, with the same sums. Every count below is derived by hand in
// the comment beside it.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>
#include <string>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "serving/serving.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

api::JsonReply simulate(const json& serving, const char* hardware = "h100-sxm") {
  const json doc = {{"model", "llama-3.1-8b"}, {"hardware", hardware}, {"serving", serving}};
  return api::simulate_serving(doc.dump());
}

void expect_refused_by(const api::JsonReply& reply, const std::string& limit) {
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(error_code_name(reply.code), std::string(error_code_name(ErrorCode::too_large)));
  EXPECT_EQ(reply.path, "/serving");
  EXPECT_NE(reply.error.find(limit), std::string::npos) << reply.error;
}

TEST(ServingLimits, ALongRequestAtManyRatesIsRefusedBeforeItRuns) {
  // One request of 2^20 output tokens (the per-request limit) on b200 needs 2^20 iterations a
  // run: one per token. Its runs: the run, its timeline's second pass (2^20 > the 2^18
  // iterations a run keeps), 7 sweep rates = 9 runs ≥ 9 × 2^20 = 9,437,184 iterations, over
  // max_serving_call_iterations = 2^23 = 8,388,608. (770e613 ran them: ~8 s and 0.3 GB.)
  const json serving = {{"rate", 1},
                        {"requests", 1},
                        {"prompt", 100},
                        {"output", 1048576},
                        {"sweep_rates", {1, 2, 3, 4, 5, 6, 7}}};
  expect_refused_by(simulate(serving, "b200"), "max_serving_call_iterations");
}

TEST(ServingLimits, AHeavyDecodeSweepIsRefusedBeforeItRuns) {
  // 100,000 requests of 1,000 output tokens: Σ output = 1e8 (max_serving_output_tokens) decode
  // rows a run at least. The run and 3 sweep rates: 4 × (1e8 rows × 1 + 1,000 iterations × 40)
  // + 999 decode contexts × 50 = 400,209,950 units > max_serving_call_work = 4e8. (770e613 ran
  // them, ~5 s a rate; 256 rates took ~20 min.)
  const json serving = {{"rate", 50},
                        {"requests", 100000},
                        {"prompt", 100},
                        {"output", 1000},
                        {"max_queue", 100000},
                        {"timeline_points", 0},
                        {"sweep_rates", {25, 50, 100}}};
  expect_refused_by(simulate(serving), "max_serving_call_work");
}

// Three requests, each alone: prompt 10 and 40 output tokens, arriving 1,000 s apart (each
// finishes in well under a second on h100-sxm).
ServingConfig three_lone_requests() {
  ServingConfig config;
  config.policy = SchedulerPolicy::chunked;
  for (int i = 0; i < 3; ++i) config.rows.push_back(RequestRow{1000.0 * i, 10, 40});
  config.timeline_points = 0;
  return config;
}

Scenario llama_on(const char* hardware = "h100-sxm") {
  auto parsed = scenario_from_json(json{{"model", "llama-3.1-8b"}, {"hardware", hardware}});
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

TEST(ServingLimits, RunIterationsAreCountedAsTheRunGoes) {
  // Each request alone: one iteration prefills its prompt and emits token 1, then 39 decode
  // iterations emit tokens 2..40: 40 iterations each, 120 in the run. The longest request's 40
  // pass the check before the run; the count during it decides.
  ServingConfig config = three_lone_requests();
  config.call_limits.run_iterations = 120;
  const auto fits = simulate_serving(llama_on(), config);
  ASSERT_TRUE(fits.ok()) << fits.error();
  EXPECT_EQ(fits->run.iterations, 120);
  config.call_limits.run_iterations = 119;
  const auto over = simulate_serving(llama_on(), config);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.failure().code, ErrorCode::too_large);
  EXPECT_NE(over.error().find("max_serving_run_iterations"), std::string::npos);
}

TEST(ServingLimits, CallWorkIsCountedAsTheRunGoes) {
  // The same run: 120 rows (3 × (1 prompt chunk + 39 decode rows)) and 120 iterations are
  // 120 + 40 × 120 = 4,920 units before any evaluation. The check before it counts Σ output =
  // 120 rows, the longest request's 40 iterations and its 39 decode contexts:
  // 120 + 40 × 40 + 39 × 50 = 3,670 units, under 4,000.
  ServingConfig config = three_lone_requests();
  config.call_limits.work = 4000;
  const auto over = simulate_serving(llama_on(), config);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().find("max_serving_call_work"), std::string::npos);
  config.call_limits.work = 1e6;
  EXPECT_TRUE(simulate_serving(llama_on(), config).ok());
}

TEST(ServingLimits, ALongRunFoldsItsTimelineWithTheSameSums) {
  // One request of prompt 100 and 300,000 output tokens arriving at 0 (on b200: its K/V fits):
  // 300,000 iterations (one per token), more than the 2^18 = 262,144 a run keeps, so the timeline
  // is folded in a second pass. Its four steps hold the prompt's 100 tokens and 299,999 decode
  // rows; the device is busy from 0 to the end (each iteration starts when the one before ends);
  // at the end nothing runs or waits.
  ServingConfig config;
  config.rows.push_back(RequestRow{0, 100, 300000});
  config.timeline_points = 4;
  const auto report = simulate_serving(llama_on("b200"), config);
  ASSERT_TRUE(report.ok()) << report.error();
  const Timeline& line = report->run.timeline;
  EXPECT_EQ(report->run.iterations, 300000);
  ASSERT_EQ(line.decode_tokens.size(), 4u);
  EXPECT_EQ(std::accumulate(line.prefill_tokens.begin(), line.prefill_tokens.end(), 0.0), 100);
  EXPECT_EQ(std::accumulate(line.decode_tokens.begin(), line.decode_tokens.end(), 0.0), 299999);
  for (const double busy : line.busy_fraction) EXPECT_NEAR(busy, 1, 1e-9);
  EXPECT_EQ(line.running.back(), 0);
  EXPECT_EQ(line.queued.back(), 0);
}

}  // namespace
}  // namespace prefill_trace
