// The placement search (src/serving/plan.hpp): the candidates it enumerates are exactly the ones
// the device rule allows (counted by hand below), each one's goodput is what the serving
// simulation's own goodput search gives that placement alone, the ranking is by goodput per
// device, and bad budgets and inputs are refused by path.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "serving/serving.hpp"
#include "serving/plan.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

Scenario llama_on_h100() {
  auto parsed = scenario_from_json(json{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}});
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

// A small workload: 40 requests of 512 prompt and 16 output tokens, searched from 8 req/s.
ServingConfig small_workload() {
  ServingConfig config;
  config.rate = 8;
  config.requests = 40;
  config.prompt = LengthDistribution{LengthDistribution::Kind::fixed, 512, 0};
  config.output = LengthDistribution{LengthDistribution::Kind::fixed, 16, 0};
  config.ttft_slo_seconds = 0.2;
  config.tpot_slo_seconds = 0.05;
  return config;
}

// The goodput `serve --goodput` gives one placement alone.
double goodput_alone(ServingConfig config) {
  config.goodput = true;
  const auto report = simulate_serving(llama_on_h100(), config);
  EXPECT_TRUE(report.ok()) << report.error();
  return report.value().goodput->goodput_requests_per_second;
}

using Placement = std::tuple<SchedulerPolicy, int64_t, int64_t, int64_t, int64_t>;

TEST(ServingPlan, TwoDevicesEnumerateExactlyTheAllowedPlacements) {
  const auto plan = plan_serving(llama_on_h100(), small_workload(), 2);
  ASSERT_TRUE(plan.ok()) << plan.error();
  // Llama-3.1-8B (32 query heads, 8 K/V heads, d_ff 14,336) splits over 1 or 2 devices.
  EXPECT_EQ(plan.value().tensor_parallel_options, (std::vector<int64_t>{1, 2}));
  // By hand, (policy, prefill instances, decode instances, prefill TP, decode TP):
  // colocated (instances × TP ≤ 2): TP 1 with 1 or 2 instances, TP 2 with 1 — 3 per policy,
  // 6 for prefill-first and chunked; disaggregated (a·p + b·d ≤ 2, a, b ≥ 1): only a = b = 1
  // at p = d = 1 (any TP 2 needs 3 devices) — 1. Seven in all.
  const auto pf = SchedulerPolicy::prefill_first;
  const auto ch = SchedulerPolicy::chunked;
  const std::set<Placement> expected = {
      {pf, 1, 0, 1, 0},
      {pf, 2, 0, 1, 0},
      {pf, 1, 0, 2, 0},
      {ch, 1, 0, 1, 0},
      {ch, 2, 0, 1, 0},
      {ch, 1, 0, 2, 0},
      {SchedulerPolicy::disaggregated, 1, 1, 1, 1},
  };
  std::set<Placement> found;
  for (const PlanCandidate& c : plan.value().candidates) {
    found.insert({c.policy, c.prefill_instances, c.decode_instances, c.prefill_tensor_parallel,
                  c.decode_tensor_parallel});
    EXPECT_EQ(c.devices, c.prefill_instances * c.prefill_tensor_parallel +
                             c.decode_instances * c.decode_tensor_parallel);
    EXPECT_LE(c.devices, 2);
  }
  EXPECT_EQ(plan.value().candidates.size(), 7u);
  EXPECT_EQ(found, expected);
  // One search per colocated TP degree (Poisson arrivals: k instances are k × one) and one for
  // the disaggregated pair: 2 + 2 + 1.
  EXPECT_EQ(plan.value().searches, 5);
  EXPECT_TRUE(plan.value().skipped.empty());
}

TEST(ServingPlan, EachGoodputIsTheSimulationsOwnAndTheBestIsTheMaximum) {
  const auto plan = plan_serving(llama_on_h100(), small_workload(), 2);
  ASSERT_TRUE(plan.ok()) << plan.error();
  const auto& candidates = plan.value().candidates;
  double most = 0;
  for (const PlanCandidate& c : candidates) {
    most = std::max(most, c.goodput_per_device);
    EXPECT_EQ(c.goodput_per_device, c.goodput_requests_per_second / static_cast<double>(c.devices));
  }
  EXPECT_GT(most, 0);
  EXPECT_EQ(candidates.front().goodput_per_device, most);  // best first
  for (std::size_t i = 1; i < candidates.size(); ++i)
    EXPECT_GE(candidates[i - 1].goodput_per_device, candidates[i].goodput_per_device);
  for (const PlanCandidate& c : candidates) {
    ServingConfig alone = small_workload();
    alone.policy = c.policy;
    alone.prefill_tensor_parallel = c.prefill_tensor_parallel;
    if (c.policy == SchedulerPolicy::disaggregated) {
      alone.prefill_devices = c.prefill_instances;
      alone.decode_devices = c.decode_instances;
      alone.decode_tensor_parallel = c.decode_tensor_parallel;
    }
    // Colocated instances share nothing: k of them serve k times one instance's goodput
    // (Poisson arrivals split at random stay Poisson at rate/k). × 1 and × 2 are exact.
    const double expected =
        goodput_alone(alone) *
        static_cast<double>(c.policy == SchedulerPolicy::disaggregated ? 1 : c.prefill_instances);
    EXPECT_EQ(c.goodput_requests_per_second, expected) << policy_name(c.policy);
  }
}

TEST(ServingPlan, GammaArrivalsSplitOverInstancesAreLessBursty) {
  // A gamma renewal process with CV 3 split at random over 2 instances: each sees intervals of
  // a geometric number of the original's, CV² = 1 + (9 − 1)/2 = 5. The 2-instance candidate is
  // then twice one instance's goodput at CV √5, not at CV 3.
  ServingConfig config = small_workload();
  config.arrival = ArrivalKind::gamma;
  config.arrival_cv = 3;
  const auto plan = plan_serving(llama_on_h100(), config, 2);
  ASSERT_TRUE(plan.ok()) << plan.error();
  for (const PlanCandidate& c : plan.value().candidates) {
    if (c.policy != SchedulerPolicy::chunked || c.prefill_instances != 2) continue;
    ServingConfig alone = config;
    alone.arrival_cv = std::sqrt(5.0);
    EXPECT_EQ(c.goodput_requests_per_second, 2 * goodput_alone(alone));
  }
  // Per policy: TP 1 at k = 1 and k = 2, TP 2 at k = 1 (three searches), and the disaggregated
  // pair: 3 + 3 + 1.
  EXPECT_EQ(plan.value().searches, 7);
}

TEST(ServingPlan, OneDeviceHasOnlyColocatedPlacements) {
  const auto plan = plan_serving(llama_on_h100(), small_workload(), 1);
  ASSERT_TRUE(plan.ok()) << plan.error();
  // Disaggregation needs a prefill and a decode instance: 2 devices at least. Left: TP 1 with
  // one instance under each colocated policy.
  ASSERT_EQ(plan.value().candidates.size(), 2u);
  for (const PlanCandidate& c : plan.value().candidates) EXPECT_EQ(c.devices, 1);
}

TEST(ServingPlan, BadBudgetsAndInputsAreRefusedByPath) {
  const std::string scenario =
      R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "serving": {"rate": 8,
          "requests": 40, "prompt": 512, "output": 16, "ttft_slo": 0.2}})";
  for (const double devices : {0.0, -1.0, 1.5, 17.0, std::nan("")}) {
    const auto reply = api::plan_serving(scenario, devices);
    EXPECT_FALSE(reply.ok) << devices;
    EXPECT_EQ(reply.code, ErrorCode::out_of_range) << devices;
    EXPECT_EQ(reply.path, "/devices") << devices;
    EXPECT_EQ(reply.what, "must be an integer from 1 to 16") << devices;
  }
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = scenario;
    text.replace(text.find(from), from.size(), to);
    return api::plan_serving(text, 2);
  };
  EXPECT_EQ(with("\"rate\"", "\"policy\": \"chunked\", \"rate\"").path, "/serving/policy");
  EXPECT_EQ(with("\"rate\"", "\"decode_devices\": 1, \"rate\"").path, "/serving/decode_devices");
  EXPECT_EQ(with("\"serving\"", "\"tensor_parallel\": 2, \"serving\"").path, "/tensor_parallel");
  const auto no_slo = with(", \"ttft_slo\": 0.2", "");
  EXPECT_EQ(no_slo.code, ErrorCode::missing_field);
  EXPECT_EQ(no_slo.path, "/serving/ttft_slo");
}

}  // namespace
}  // namespace prefill_trace
