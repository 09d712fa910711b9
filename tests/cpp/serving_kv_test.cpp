// Paged K/V with preemption by recomputation (docs/serving.md, "K/V memory"; vLLM v0's
// scheduler and block manager), on a capacity small enough to follow on paper: the instance's
// block count is the one input taken from the engine (the memory ledger's), everything else is
// derived below.

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "scenario/scenario.hpp"
#include "serving/serving.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

constexpr int64_t kBlock = 1024;  // tokens per block: prompts of whole blocks

Scenario h100_llama() {
  auto parsed = scenario_from_json(json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}});
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

ServingConfig small_paged() {
  ServingConfig config;
  config.policy = SchedulerPolicy::prefill_first;
  config.kv = KvMode::paged;
  config.block_size = kBlock;
  // 30 % of 80 GB less 16 GB of weights and the temporaries: a few GB, a few dozen blocks of
  // 1,024 tokens × 128 KiB — fewer than 100, so vLLM's 1 % watermark is int(0.01·C) = 0 blocks.
  config.gpu_memory_utilization = 0.3;
  config.token_budget = 65536;  // one prefill batch takes both prompts below
  config.timeline_points = 0;
  return config;
}

// The blocks one instance of small_paged() holds (the memory ledger's count; 0 if refused).
int64_t paged_capacity() {
  ServingConfig probe = small_paged();
  probe.rows = {RequestRow{0, kBlock, 2}};
  const auto capacity = simulate_serving(h100_llama(), probe);
  EXPECT_TRUE(capacity.ok()) << capacity.error();
  return capacity.ok() ? capacity->kv_capacity_blocks : 0;
}

TEST(ServingKv, TheNewestRunningRequestIsPreemptedAndRecomputed) {
  const int64_t c = paged_capacity();
  ASSERT_GE(c, 3);
  ASSERT_LT(c, 100);  // watermark 0
  // A and B arrive at 0 with prompts of a and b whole blocks, a + b = C − 1, and 10 output
  // tokens each. Both are admitted (C − 1 blocks) and prefilled in one iteration, which samples
  // their first tokens. The first decode writes token 1's K/V: each context of a·1024 + 1 tokens
  // needs one more block. A (admitted first) takes the one free block; B finds none and is the
  // newest running request: B is preempted (1 preemption; its b·1024 prompt tokens were computed
  // and are dropped: recomputed_tokens = b·1024). A decodes tokens 2..10 in 9 iterations
  // holding a + 1 blocks (a·1024 + 10 tokens). B, first in line, needs blocks for
  // b·1024 + 1 tokens = b + 1 blocks and C − (a + 1) = b are free: it waits until A finishes,
  // then prefills prompt + its 1 token in one iteration (sampling token 2) and decodes tokens
  // 3..10 in 8 more. Iterations: 1 + 9 + 1 + 8 = 19.
  const int64_t a = (c - 1) / 2;
  const int64_t b = c - 1 - a;
  ServingConfig config = small_paged();
  config.rows = {RequestRow{0, a * kBlock, 10}, RequestRow{0, b * kBlock, 10}};
  config.token_times = 2;
  const auto report = simulate_serving(h100_llama(), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->kv_capacity_blocks, c);
  EXPECT_EQ(report->run.completed, 2);
  EXPECT_EQ(report->run.preemptions, 1);
  EXPECT_EQ(report->run.recomputed_tokens, b * kBlock);
  EXPECT_EQ(report->run.iterations, 19);
  // B's second token came only after A finished: its largest gap spans A's 9 decodes.
  const RequestOutcome& first = report->run.outcomes[0];
  const RequestOutcome& second = report->run.outcomes[1];
  EXPECT_GT(second.tbt_max_seconds, 9 * first.tpot_seconds * 0.99);
  // Its token times: preempted when iteration 2 began, the end of iteration 1 that sampled its
  // first token; two prefill passes, the prompt, then after A's last token (iteration 10's
  // end) prompt + 1 generated token recomputed.
  const RequestTokenTimes& times = report->run.token_times.at(1);
  ASSERT_EQ(times.token_seconds.size(), 10u);
  EXPECT_EQ(times.preemption_seconds, std::vector<double>{times.token_seconds[0]});
  ASSERT_EQ(times.prefill_passes.size(), 2u);
  EXPECT_EQ(times.prefill_passes[0].tokens, b * kBlock);
  EXPECT_EQ(times.prefill_passes[1].tokens, b * kBlock + 1);
  EXPECT_EQ(times.prefill_passes[1].start_seconds,
            report->run.token_times.at(0).token_seconds.back());
  EXPECT_EQ(times.token_seconds[1], times.prefill_passes[1].end_seconds);
}

TEST(ServingKv, ReserveNeverPreempts) {
  // The same two requests under reservation: each reserves prompt + output at admission, so
  // B (b·1024 + 10 tokens) waits for A instead of running and being preempted.
  ServingConfig config = small_paged();
  config.kv = KvMode::reserve;
  config.gpu_memory_utilization = 0.3;
  config.rows = {RequestRow{0, 4 * kBlock, 10}, RequestRow{0, 4 * kBlock, 10}};
  const auto report = simulate_serving(h100_llama(), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->run.preemptions, 0);
  EXPECT_EQ(report->run.recomputed_tokens, 0);
}

TEST(ServingKv, ReserveCountsItsReservationsInBlocks) {
  // The paged capacity of the same bytes: C blocks of 1,024 tokens.
  const int64_t c = paged_capacity();
  ASSERT_GE(c, 8);  // both reservations below fit at once (7,254 tokens ≤ 8·1,024)
  // A reserves 4·1,024 + 10 = 4,106 tokens: ⌈4,106 / 1,024⌉ = 5 blocks; B 2·1,024 + 1,100 =
  // 3,148 tokens: ⌈3,148 / 1,024⌉ = 4 blocks. Both arrive at 0 and are admitted together, so
  // while both run 9 blocks are in use; A leaves after its 10th token and B runs alone on its 4
  // for ~1,090 more decodes; at the end none. Reserve's capacity is ⌊tokens / 1,024⌋ of the
  // same free bytes ⌊F / t⌋: ⌊⌊F / t⌋ / 1,024⌋ = ⌊F / (1,024·t)⌋, paged's C.
  ServingConfig config = small_paged();
  config.kv = KvMode::reserve;
  config.rows = {RequestRow{0, 4 * kBlock, 10}, RequestRow{0, 2 * kBlock, 1100}};
  config.timeline_points = 100;
  const auto report = simulate_serving(h100_llama(), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->kv_capacity_blocks, c);
  const std::vector<double>& blocks = report->run.timeline.kv_blocks;
  ASSERT_EQ(blocks.size(), 100u);
  EXPECT_EQ(*std::max_element(blocks.begin(), blocks.end()), 9);
  EXPECT_EQ(blocks.back(), 0);
  EXPECT_NE(std::find(blocks.begin(), blocks.end(), 4.0), blocks.end());
  for (const double b : blocks) EXPECT_TRUE(b == 0 || b == 4 || b == 9) << b;
  for (const double p : report->run.timeline.preemptions) EXPECT_EQ(p, 0);
}

TEST(ServingKv, APreemptionIsCountedInTheStepWhereItHappened) {
  // The run of TheNewestRunningRequestIsPreemptedAndRecomputed: B is preempted once, when
  // iteration 2 is scheduled, at the end of iteration 1 (its first token's time). That time
  // falls in step ⌊t / step_seconds⌋ of the timeline, and only there.
  const int64_t c = paged_capacity();
  ASSERT_GE(c, 3);
  const int64_t a = (c - 1) / 2;
  const int64_t b = c - 1 - a;
  ServingConfig config = small_paged();
  config.rows = {RequestRow{0, a * kBlock, 10}, RequestRow{0, b * kBlock, 10}};
  config.token_times = 2;
  config.timeline_points = 7;
  const auto report = simulate_serving(h100_llama(), config);
  ASSERT_TRUE(report.ok()) << report.error();
  const Timeline& line = report->run.timeline;
  const double preempted_at = report->run.token_times.at(1).preemption_seconds.at(0);
  const auto step = static_cast<std::size_t>(preempted_at / line.step_seconds);
  ASSERT_LT(step, 7u);
  std::vector<double> expected(7, 0);
  expected[step] = 1;
  EXPECT_EQ(line.preemptions, expected);
  // A paged timeline's blocks never pass the capacity.
  for (const double used : line.kv_blocks) EXPECT_LE(used, static_cast<double>(c));
}

}  // namespace
}  // namespace prefill_trace
