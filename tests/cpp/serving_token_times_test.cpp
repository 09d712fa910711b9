// Token times (docs/serving.md, "Token times"): the choice of requests by its stated rule, and
// the times of a small prefill-first run worked out by hand from the single-request trace's
// prefill and decode times (compute_trace: an independent path from the serving loop's
// iteration cost), to 1e-12 relative.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "scenario/scenario.hpp"
#include "serving/serving.hpp"
#include "serving/token_times.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

Scenario llama_h100(int64_t prompt_tokens) {
  auto parsed = scenario_from_json(
      json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", prompt_tokens}});
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

// One prompt's prefill alone: execution + LM head and sampling (TTFT's service time).
double prefill_seconds(int64_t prompt) {
  return compute_trace(llama_h100(prompt), {}).ttft.service_seconds;
}

// One decode step of one request whose context holds `context` keys (the trace's decode
// comparison; tests/cpp/shape_model_test.cpp holds it equal to the loop's decode iteration).
double decode_seconds(int64_t context) {
  return compute_trace(llama_h100(context), {}).decode.seconds;
}

std::vector<int> chosen(const std::vector<int64_t>& prompts, int64_t count) {
  std::vector<serving::RequestSpec> specs;
  for (const int64_t prompt : prompts) specs.push_back({0, prompt, 0, 1});
  return serving::token_time_requests(specs, count);
}

TEST(ServingTokenTimes, TheLongestPromptAndItsNeighboursInArrivalOrder) {
  // Longest at index 3: ⌊N/2⌋ before it, the rest after.
  EXPECT_EQ(chosen({100, 200, 300, 900, 100, 50}, 3), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(chosen({100, 200, 300, 900, 100, 50}, 2), (std::vector<int>{2, 3}));
  EXPECT_EQ(chosen({100, 200, 300, 900, 100, 50}, 1), (std::vector<int>{3}));
  // The window shifts to stay within the run; a tie goes to the first; N past the run: all.
  EXPECT_EQ(chosen({100, 900, 900}, 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(chosen({100, 200, 900}, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(chosen({900, 200, 300}, 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(chosen({100, 200}, 64), (std::vector<int>{0, 1}));
  EXPECT_TRUE(chosen({100, 200}, 0).empty());
}

TEST(ServingTokenTimes, APrefillFirstStallWorkedOutByHand) {
  // Prefill-first. A (1,000-token prompt, 3 output tokens) arrives at 0; B (2,000 tokens, 1
  // output token) arrives halfway through A's first decode step.
  //   iteration 1 [0, pA]: A's prefill, pA = prefill(1000); A's token 1 at pA.
  //   iteration 2 [pA, pA + d0]: B has not arrived; A decodes at 1,000 keys, d0 = decode(1000):
  //     token 2.
  //   iteration 3 [pA + d0, … + pB]: B, waiting, is admitted and prefilled alone (prompts come
  //     first), pB = prefill(2000); B's only token; A stalls.
  //   iteration 4: A decodes at 1,001 keys, d1 = decode(1001): token 3.
  const double pa = prefill_seconds(1000);
  const double d0 = decode_seconds(1000);
  const double pb = prefill_seconds(2000);
  const double d1 = decode_seconds(1001);
  ServingConfig config;
  config.policy = SchedulerPolicy::prefill_first;
  config.rows = {{0, 1000, 3}, {pa + d0 / 2, 2000, 1}};
  config.timeline_points = 0;
  config.token_times = 2;
  const auto report = simulate_serving(llama_h100(1000), config);
  ASSERT_TRUE(report.ok()) << report.error();
  ASSERT_EQ(report->run.token_times.size(), 2u);
  const RequestTokenTimes& a = report->run.token_times[0];
  const RequestTokenTimes& b = report->run.token_times[1];
  const auto near = [](double got, double want) { EXPECT_NEAR(got, want, 1e-12 * want); };
  EXPECT_EQ(a.request, 0);
  EXPECT_EQ(b.request, 1);
  EXPECT_EQ(*a.admitted_seconds, 0);
  near(*b.admitted_seconds, pa + d0);
  near(b.arrival_seconds, pa + d0 / 2);
  ASSERT_EQ(a.token_seconds.size(), 3u);
  near(a.token_seconds[0], pa);
  near(a.token_seconds[1], pa + d0);
  near(a.token_seconds[2], pa + d0 + pb + d1);
  ASSERT_EQ(b.token_seconds.size(), 1u);
  near(b.token_seconds[0], pa + d0 + pb);
  ASSERT_EQ(a.prefill_passes.size(), 1u);
  EXPECT_EQ(a.prefill_passes[0].start_seconds, 0);
  near(a.prefill_passes[0].end_seconds, pa);
  EXPECT_EQ(a.prefill_passes[0].tokens, 1000);
  ASSERT_EQ(b.prefill_passes.size(), 1u);
  near(b.prefill_passes[0].start_seconds, pa + d0);
  EXPECT_EQ(b.prefill_passes[0].tokens, 2000);
  EXPECT_TRUE(a.preemption_seconds.empty());
  EXPECT_FALSE(a.truncated);
}

TEST(ServingTokenTimes, ChunksAreBlocksEndToEnd) {
  // Chunked at 600 tokens per iteration, one 2,000-token prompt alone: passes of 600, 600, 600
  // and 200 tokens back to back from its arrival; the last one's end is its first token.
  ServingConfig config;
  config.policy = SchedulerPolicy::chunked;
  config.token_budget = 600;
  config.rows = {{1, 2000, 2}};
  config.timeline_points = 0;
  config.token_times = 1;
  const auto report = simulate_serving(llama_h100(2000), config);
  ASSERT_TRUE(report.ok()) << report.error();
  const RequestTokenTimes& t = report->run.token_times.at(0);
  ASSERT_EQ(t.prefill_passes.size(), 4u);
  EXPECT_EQ(t.prefill_passes[0].start_seconds, 1);
  const int64_t tokens[] = {600, 600, 600, 200};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.prefill_passes[i].tokens, tokens[i]);
    if (i > 0) {
      EXPECT_EQ(t.prefill_passes[i].start_seconds, t.prefill_passes[i - 1].end_seconds);
    }
  }
  ASSERT_EQ(t.token_seconds.size(), 2u);
  EXPECT_EQ(t.token_seconds[0], t.prefill_passes[3].end_seconds);
}

TEST(ServingTokenTimes, RefusedPastTheTokenLimit) {
  // Two requests of 2^17 + 1 output tokens: 2^18 + 2 > max_token_times_tokens.
  ServingConfig config;
  config.rows = {{0, 16, (1 << 17) + 1}, {0, 16, (1 << 17) + 1}};
  config.token_times = 2;
  const auto report = simulate_serving(llama_h100(16), config);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.failure().path, "/serving/token_times");
  EXPECT_EQ(report.failure().code, ErrorCode::too_large);
}

}  // namespace
}  // namespace prefill_trace
