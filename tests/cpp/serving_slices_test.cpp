// The serving simulation in slices (api::ServingSimulation, src/serving/call.hpp): advanced by
// any budget of work, it ends with simulate_serving's reply byte for byte — the run, the goodput
// search's probes and the sweep — and refuses bad input at start with simulate_serving's error.
// Nothing here is a figure of the engine: each test compares the two paths, so it fails as soon
// as slicing changes one byte (a state kept in a local of the old loop, a probe taken twice).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "serving/call.hpp"
#include "serving/serving.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

std::string scenario(const json& serving) {
  return json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"serving", serving}}.dump();
}

// A page's job: SLOs, a timeline, token times, the goodput search and a sweep in one call.
json job(const std::string& policy) {
  return json{{"policy", policy},      {"rate", 20},       {"requests", 120},
              {"prompt", 2048},        {"output", 32},     {"ttft_slo", 0.5},
              {"tpot_slo", 0.02},      {"goodput", true},  {"sweep_rates", {5, 60}},
              {"timeline_points", 40}, {"token_times", 3}, {"seed", 3}};
}

struct Sliced {
  api::JsonReply reply;
  int slices = 0;
  double last_runs = 0;
};

// Starts a simulation of `text` (and `trace`), advances it by `budget` until done.
Sliced run_sliced(const std::string& text, double budget, const std::string* trace = nullptr) {
  api::ServingSimulation simulation;
  Sliced out;
  const api::JsonReply started = trace ? simulation.start(text, *trace) : simulation.start(text);
  EXPECT_TRUE(started.ok) << started.error;
  for (;;) {
    const api::ProgressReply progress = simulation.advance(budget);
    EXPECT_TRUE(progress.ok) << progress.error;
    if (!progress.ok) break;
    ++out.slices;
    EXPECT_GE(progress.runs, out.last_runs);  // runs finished never go back
    out.last_runs = progress.runs;
    if (progress.done) break;
  }
  out.reply = simulation.result();
  return out;
}

void expect_same_as_one_shot(const std::string& text, const std::string* trace = nullptr) {
  const api::JsonReply once =
      trace ? api::simulate_serving(text, *trace) : api::simulate_serving(text);
  ASSERT_TRUE(once.ok) << once.error;
  // Budget 1: every advance runs one iteration (an iteration is 40 units alone). 5,000: a
  // few dozen iterations per slice, runs ending mid-slice and the next starting in it.
  for (const double budget : {1.0, 5000.0}) {
    const Sliced sliced = run_sliced(text, budget, trace);
    ASSERT_TRUE(sliced.reply.ok) << sliced.reply.error;
    EXPECT_EQ(sliced.reply.json, once.json) << "budget " << budget;
    EXPECT_GT(sliced.slices, 1) << "budget " << budget;  // it was sliced
  }
}

TEST(ServingSlices, EveryPolicyWithGoodputAndSweepEqualsTheOneShotCall) {
  for (const char* policy : {"prefill-first", "chunked", "disaggregated"}) {
    SCOPED_TRACE(policy);
    expect_same_as_one_shot(scenario(job(policy)));
  }
}

TEST(ServingSlices, PagedKvWithPreemptionsEqualsTheOneShotCall) {
  // 15 % of the H100's memory less Llama-3.1-8B's 16 GB of weights leaves K/V for fewer tokens
  // than 24 running requests of 2,048 + 256 tokens hold (at 128 KiB per token): decodes that
  // grow past it preempt. Checked below, so the test covers preemption.
  json serving = job("prefill-first");
  serving.update({{"kv", "paged"},
                  {"gpu_memory_utilization", 0.3},
                  {"output", 256},
                  {"rate", 40},
                  {"goodput", false}});
  const std::string text = scenario(serving);
  const api::JsonReply once = api::simulate_serving(text);
  ASSERT_TRUE(once.ok) << once.error;
  ASSERT_GT(json::parse(once.json)["preemptions"].get<int64_t>(), 0);
  expect_same_as_one_shot(text);
}

TEST(ServingSlices, ARequestTraceEqualsTheOneShotCall) {
  // 40 requests 0.1 s apart in Azure's CSV, prompts 500 to 890 tokens, outputs 5 to 43.
  std::string trace = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
  for (int i = 0; i < 40; ++i) {
    trace += "2023-11-16 18:17:" + std::to_string(10 + i / 10) + "." + std::to_string(i % 10) +
             "000000," + std::to_string(500 + 10 * i) + "," + std::to_string(5 + i) + "\n";
  }
  expect_same_as_one_shot(scenario(json{{"policy", "chunked"}, {"ttft_slo", 0.5}}), &trace);
}

TEST(ServingSlices, BadInputIsRefusedAtStartAsTheOneShotCallRefusesIt) {
  json unknown = job("chunked");
  unknown["policy"] = "round-robin";
  json no_rate = job("chunked");
  no_rate.erase("rate");
  for (const std::string& text : {std::string("[1]"), scenario(unknown), scenario(no_rate)}) {
    const api::JsonReply once = api::simulate_serving(text);
    api::ServingSimulation simulation;
    const api::JsonReply started = simulation.start(text);
    ASSERT_FALSE(once.ok);
    EXPECT_FALSE(started.ok);
    EXPECT_EQ(started.code, once.code);
    EXPECT_EQ(started.path, once.path);
    EXPECT_EQ(started.error, once.error);
    // Then it cannot be advanced, and says why.
    const api::ProgressReply advanced = simulation.advance(1000);
    EXPECT_FALSE(advanced.ok);
    EXPECT_EQ(advanced.code, ErrorCode::usage);
    EXPECT_NE(advanced.error.find(once.error), std::string::npos) << advanced.error;
    EXPECT_FALSE(simulation.result().ok);
  }
}

TEST(ServingSlices, MisuseIsRefusedNeverUndefined) {
  api::ServingSimulation simulation;
  EXPECT_EQ(simulation.advance(1000).code, ErrorCode::usage);  // before start
  EXPECT_EQ(simulation.result().code, ErrorCode::usage);
  ASSERT_TRUE(simulation.start(scenario(job("chunked"))).ok);
  EXPECT_EQ(simulation.start(scenario(job("chunked"))).code, ErrorCode::usage);  // twice
  for (const double budget : {0.0, -1.0, std::nan("")}) {
    const api::ProgressReply refused = simulation.advance(budget);
    EXPECT_EQ(refused.code, ErrorCode::out_of_range);
    EXPECT_EQ(refused.path, "/budget");
  }
  EXPECT_EQ(simulation.result().code, ErrorCode::usage);  // not done
  ASSERT_TRUE(simulation.advance(std::numeric_limits<double>::infinity()).done);
  ASSERT_TRUE(simulation.result().ok);
  EXPECT_EQ(simulation.result().json, api::simulate_serving(scenario(job("chunked"))).json);
  const api::ProgressReply after = simulation.advance(1000);  // once done
  EXPECT_FALSE(after.ok);
  EXPECT_EQ(after.code, ErrorCode::usage);
}

TEST(ServingSlices, ACallPastItsWorkLimitIsRefusedAsTheOneShotCallIs) {
  auto parsed = scenario_from_json(json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  ServingConfig config;
  config.policy = SchedulerPolicy::chunked;
  config.rate = 20;
  config.requests = 100;
  config.prompt.a = 2048;
  config.output.a = 64;
  config.ttft_slo_seconds = 0.5;
  config.goodput = true;
  // Past 100 × 64 rows plus 64 iterations × 40 (check_before's bound for one run) but short of
  // the goodput search's runs: refused in the middle of the call.
  config.call_limits.work = 3 * (100.0 * 64 + 64.0 * 40 + 63 * 50);
  const auto once = simulate_serving(parsed.value(), config);
  ASSERT_FALSE(once.ok());
  auto call = serving::start_serving(parsed.value(), config);
  ASSERT_TRUE(call.ok()) << call.error();
  int slices = 0;
  while (!call.value()->advance(700)) ++slices;
  EXPECT_GT(slices, 1);
  const auto sliced = call.value()->take();
  ASSERT_FALSE(sliced.ok());
  EXPECT_EQ(sliced.failure().message, once.failure().message);
  EXPECT_EQ(sliced.failure().path, once.failure().path);
}

}  // namespace
}  // namespace prefill_trace
