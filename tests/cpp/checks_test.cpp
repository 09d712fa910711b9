// The generated checks, each answer worked out here by hand from the preset shapes and the
// datasheet figures (lesson-data/models.json, hardware.json), not read back from the engine.

#include "checks.hpp"

#include <gtest/gtest.h>

#include "scenario/scenario.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {
namespace {

// Llama-3.1-8B (L = 32, d = 4096, h_q = 32, h_kv = 8, d_h = 128) on an H100 SXM (989 TFLOP/s
// bf16 dense, 3.35 TB/s), bf16, T = 2048, B = 1.
Scenario llama_on_h100(double arrival_rate = 0) {
  auto parsed = scenario_from_json({{"model", "llama-3.1-8b"},
                                    {"hardware", "h100-sxm"},
                                    {"prompt_tokens", 2048},
                                    {"arrival_rate", arrival_rate}});
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

GeneratedOutcome answer(const Scenario& scenario, const char* id, double value) {
  auto outcome = check_generated(scenario, id, value);
  EXPECT_TRUE(outcome.ok()) << outcome.error();
  return outcome.ok() ? outcome.value() : GeneratedOutcome{};
}

TEST(GeneratedChecks, AreTheFourDocumentedOnes) {
  std::vector<std::string> ids;
  for (const GeneratedCheck& check : generate_checks(llama_on_h100())) ids.push_back(check.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"projection-flops", "step2-bound-at-t1", "kv-bytes",
                                           "ttft-largest"}));
}

TEST(GeneratedChecks, ProjectionFlopsByTheLessonsEquation) {
  // Fused Q/K/V: d_out = (h_q + 2·h_kv)·d_h = (32 + 16)·128 = 6144. F = 2·T·d_in·d_out =
  // 2 · 2048 · 4096 · 6144 = 103,079,215,104 FLOP.
  const Scenario s = llama_on_h100();
  EXPECT_EQ(answer(s, "projection-flops", 103079215104.0).expected, 103079215104.0);
  EXPECT_TRUE(answer(s, "projection-flops", 103079215104.0).correct);
  // 1 % tolerance: 0.5 % off counts, 2 % off does not.
  EXPECT_TRUE(answer(s, "projection-flops", 103079215104.0 * 1.005).correct);
  EXPECT_FALSE(answer(s, "projection-flops", 103079215104.0 * 1.02).correct);
}

TEST(GeneratedChecks, OneTokenProjectionIsMemoryBound) {
  // T = 1: 2·4096·6144 = 50.3 MFLOP (computed as a 16-row tile: 805 MFLOP, 0.81 µs at 989
  // TFLOP/s) against the 4096·6144·2 = 50.3 MB weight read (15.0 µs at 3.35 TB/s) and 4 µs of
  // launch overhead: memory, option index 1 (compute, memory, overhead).
  const Scenario s = llama_on_h100();
  EXPECT_EQ(answer(s, "step2-bound-at-t1", 1).expected, 1);
  EXPECT_TRUE(answer(s, "step2-bound-at-t1", 1).correct);
  EXPECT_FALSE(answer(s, "step2-bound-at-t1", 0).correct);
  EXPECT_EQ(check_generated(s, "step2-bound-at-t1", 3).error(),
            "answer must be an integer option index from 0 to 2");
}

TEST(GeneratedChecks, KvBytesLeftBehind) {
  // 2 (K, V) · L 32 · B 1 · T 2048 · h_kv 8 · d_h 128 · 2 bytes = 268,435,456 bytes.
  const Scenario s = llama_on_h100();
  EXPECT_EQ(answer(s, "kv-bytes", 268435456).expected, 268435456.0);
  EXPECT_TRUE(answer(s, "kv-bytes", 268435456).correct);
  EXPECT_FALSE(answer(s, "kv-bytes", 268435456.0 / 4).correct);  // forgetting GQA's h_kv = 8/32
}

TEST(GeneratedChecks, LargestPartOfTtft) {
  // Execution is ~2·8.0e9 parameters·2048 tokens = 3.3e13 FLOP at 989 TFLOP/s: D ≈ 33 ms,
  // against ~0.3 ms of first-token delivery (the 128256 × 4096 LM head read once).
  // λ = 0: no queue, so execution (option 1) is largest.
  EXPECT_EQ(answer(llama_on_h100(0), "ttft-largest", 1).expected, 1);
  // λ = 25/s: ρ = λ·D ≈ 0.83 or more; the M/D/1 wait λ·D²/(2(1 − ρ)) ≥ 25·0.033²/0.34 ≈ 80 ms
  // already exceeds D (and if ρ ≥ 1 the queue is unbounded): queueing, option 0.
  EXPECT_EQ(answer(llama_on_h100(25), "ttft-largest", 0).expected, 0);
  // λ = 1000/s: ρ ≈ 33, overloaded; queueing again.
  const Scenario overloaded = llama_on_h100(1000);
  EXPECT_TRUE(compute_trace(overloaded, {}).ttft.overloaded);
  EXPECT_EQ(answer(overloaded, "ttft-largest", 0).expected, 0);
}

TEST(GeneratedChecks, RefuseUnknownIdsAndNonFiniteAnswers) {
  const Scenario s = llama_on_h100();
  EXPECT_EQ(check_generated(s, "nope", 1).error(), "unknown check \"nope\"");
  EXPECT_EQ(check_generated(s, "kv-bytes", std::nan("")).error(), "answer must be a finite number");
}

}  // namespace
}  // namespace prefill_trace
