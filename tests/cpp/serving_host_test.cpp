// Host time per iteration in the serving loop (src/trace/host_overhead.hpp, wired in
// src/serving/simulation.cpp): a lone request runs a known number of iterations, each with one
// running request, so the stack's host time adds a known amount to its latencies. Two stacks with
// the same kernels (vllm and vllm-0.2 run vLLM's) differ by host time alone; every expected
// number is derived beside it from the profiles' published figures, not from a run.

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "scenario/scenario.hpp"
#include "serving/fleet.hpp"
#include "serving/serving.hpp"
#include "serving/serving_json.hpp"
#include "serving/simulation.hpp"
#include "serving/work.hpp"
#include "serving/workload.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

constexpr int64_t kOutput = 20;  // tokens: 1 from the prefill iteration + 19 decode iterations

ServingReport lone_request(const std::string& stack, const std::string& timing,
                           int64_t tensor_parallel = 1) {
  auto scenario = scenario_from_json(json{{"model", "llama-3.1-8b"},
                                          {"hardware", "h100-sxm"},
                                          {"timing", timing},
                                          {"stack", stack},
                                          {"tensor_parallel", tensor_parallel}});
  EXPECT_TRUE(scenario.ok()) << scenario.error();
  ServingConfig config;
  config.policy = SchedulerPolicy::prefill_first;
  config.rows = {RequestRow{0, 512, kOutput}};
  config.timeline_points = 0;
  auto report = simulate_serving(scenario.value(), config);
  EXPECT_TRUE(report.ok()) << report.error();
  return report.value();
}

TEST(ServingHost, EachIterationAddsTheStacksHostTime) {
  const ServingReport current = lone_request("vllm", "estimate");
  const ServingReport old = lone_request("vllm-0.2", "estimate");
  // One request alone: a prefill iteration (its first token) and 19 decode iterations, one
  // running request in each, the same for both stacks.
  ASSERT_EQ(current.run.iterations, kOutput);
  ASSERT_EQ(old.run.iterations, kOutput);
  // Host per iteration at TP 1 with 1 running request: vllm-0.2 1.330 + 0.1052·1 = 1.4352 ms;
  // vllm 0.4 ms (4 ms per scheduler call over 10 steps). Difference 1.0352 ms per iteration.
  const double step = 1.4352e-3 - 0.4e-3;
  EXPECT_NEAR(old.run.host_seconds, kOutput * 1.4352e-3, 1e-12);
  EXPECT_NEAR(current.run.host_seconds, kOutput * 0.4e-3, 1e-12);
  // TTFT: the one prefill iteration. TPOT: (last − first token) / 19 = one iteration each.
  // End to end: all 20 iterations.
  EXPECT_NEAR(old.run.ttft.mean - current.run.ttft.mean, step, 1e-9);
  EXPECT_NEAR(old.run.tpot.mean - current.run.tpot.mean, step, 1e-9);
  EXPECT_NEAR(old.run.e2e.mean - current.run.e2e.mean, kOutput * step, 1e-9);
  // The instance is busy for the whole iteration, host time included: busy_fraction × span
  // (one device) grows by the same 20 × 1.0352 ms, the kernels being the same.
  EXPECT_NEAR(old.run.busy_fraction * old.run.simulated_seconds -
                  current.run.busy_fraction * current.run.simulated_seconds,
              kOutput * step, 1e-9);
}

TEST(ServingHost, TensorParallelInstancesTakeTheRayFigures) {
  // vllm-0.2 at TP 2 (Vidur's TP 2 and 4 rows pooled): 3.611 + 0.2007·1 = 3.8117 ms per iteration.
  const ServingReport report = lone_request("vllm-0.2", "estimate", 2);
  ASSERT_EQ(report.run.iterations, kOutput);
  EXPECT_NEAR(report.run.host_seconds, kOutput * 3.8117e-3, 1e-12);
}

TEST(ServingHost, BoundAndStacksWithoutAProfileChargeNone) {
  // A bound stays a bound: no host time under `bound`, whatever the stack; the report then has
  // no host_seconds (its bytes as before host time existed).
  const ServingReport bound_old = lone_request("vllm-0.2", "bound");
  const ServingReport bound_trt = lone_request("tensorrt-llm", "bound");
  EXPECT_EQ(bound_old.run.host_seconds, 0.0);
  EXPECT_EQ(bound_old.run.e2e.mean, bound_trt.run.e2e.mean);
  EXPECT_FALSE(bound_old.charges_host);
  for (const std::string stack : {"kernels", "tensorrt-llm", "sglang"}) {
    const ServingReport report = lone_request(stack, "estimate");
    EXPECT_EQ(report.run.host_seconds, 0.0) << stack;
    EXPECT_FALSE(report.charges_host) << stack;
    EXPECT_FALSE(serving_report_to_json(report).contains("host_seconds")) << stack;
  }
  EXPECT_TRUE(serving_report_to_json(lone_request("vllm", "estimate")).contains("host_seconds"));
}

TEST(ServingHost, Vllm02RunsVllmsKernelsInATrace) {
  // The trace has no iterations to charge: vllm-0.2 is vllm's kernels and gaps, and says so.
  // With a gap stated for vllm (30 µs, no preset states one), vllm-0.2 is charged that gap.
  const auto with = [](const char* stack, const json& gaps) {
    return scenario_from_json(
        json{{"model", "llama-3.1-8b"},
             {"hardware", {{"preset", "h100-sxm"}, {"estimate", {{"stack_gap_seconds", gaps}}}}},
             {"timing", "estimate"},
             {"stack", stack}});
  };
  auto old = with("vllm-0.2", json{{"vllm", 3e-5}});
  ASSERT_TRUE(old.ok()) << old.error();
  const EstimateProfile& e = old->hardware.estimate;
  EXPECT_EQ(e.gap_seconds(old->workload.stack), 3e-5);
  EXPECT_TRUE(e.stack_fitted(old->workload.stack));
  EXPECT_STREQ(stack_name(old->workload.stack), "vllm-0.2");
  // stack_gap_seconds keys are the stacks with kernels of their own: vllm-0.2 is not one.
  auto keyed = with("vllm", json{{"vllm-0.2", 1e-5}});
  ASSERT_FALSE(keyed.ok());
  EXPECT_NE(keyed.error().find("stack_gap_seconds"), std::string::npos) << keyed.error();
}

// No published profile has a front-end delay yet (docs/serving.md), so the loop's handling of one
// is checked on the simulation itself with a profile made for the test: 50 ms before the
// scheduler sees each request, nothing per iteration.
std::vector<RequestOutcome> lone_request_outcomes(const HostOverheadProfile& host) {
  auto scenario = scenario_from_json(json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}});
  EXPECT_TRUE(scenario.ok()) << scenario.error();
  ServingConfig config;  // filled as simulate_serving's defaults would (prefill-first, reserve)
  config.policy = SchedulerPolicy::prefill_first;
  config.kv = KvMode::reserve;
  config.rows = {RequestRow{1.0, 512, 4}};
  config.requests = 1;
  config.prefill_devices = 1;
  config.prefill_tensor_parallel = 1;
  config.max_batch = 256;
  config.token_budget = 8192;
  config.max_queue = 1000;
  config.gpu_memory_utilization = 1;
  config.timeline_points = 0;
  const serving::Fleet fleet = serving::build_fleet(scenario.value(), config);
  const std::vector<serving::RequestSpec> specs = serving::workload(config);
  serving::CallWork work({fleet.prefill_cost.get()}, config.call_limits);
  serving::Plan plan{config.policy,
                     config.token_budget,
                     config.max_batch,
                     config.max_queue,
                     0,
                     0,
                     std::nullopt,
                     std::nullopt,
                     0,
                     config.kv,
                     16,
                     {}};  // no token times
  plan.host = host;
  serving::Simulation simulation(plan, specs, 0, serving::instances(config, fleet), work);
  simulation.begin(true);
  simulation.advance(std::numeric_limits<double>::infinity());
  return simulation.report().outcomes;
}

TEST(ServingHost, TheFrontEndDelaysTheFirstTokenOnly) {
  const HostOverheadProfile none{};
  const HostOverheadProfile front{"test", 0, 0, 0, 0.05, -1, -1, ""};
  const std::vector<RequestOutcome> before = lone_request_outcomes(none);
  const std::vector<RequestOutcome> after = lone_request_outcomes(front);
  ASSERT_EQ(before.size(), 1u);
  ASSERT_EQ(after.size(), 1u);
  // Arriving at 1 s to an idle instance, the request starts 50 ms later: its TTFT and its end
  // to end grow by 50 ms, its TPOT (the same 3 decode iterations) not at all, and its arrival
  // stays the client's.
  EXPECT_EQ(after[0].arrival_seconds, 1.0);
  EXPECT_NEAR(after[0].ttft_seconds - before[0].ttft_seconds, 0.05, 1e-12);
  EXPECT_NEAR(after[0].e2e_seconds - before[0].e2e_seconds, 0.05, 1e-12);
  EXPECT_NEAR(after[0].tpot_seconds, before[0].tpot_seconds, 1e-12);
}

}  // namespace
}  // namespace prefill_trace
